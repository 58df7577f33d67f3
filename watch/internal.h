/* SPDX-License-Identifier: GPL-2.0 */
/*
 * internal.h - shared inside the watch library only.
 */
#ifndef KAB_WATCH_INTERNAL_H
#define KAB_WATCH_INTERNAL_H

#include "../report/report.h"
#include "watch.h"

/*
 * The report of culprit against its parent in w's tree (their boots,
 * by the commits' first 12 digits), as kab report builds it: 0, or -1
 * with err (r freed).
 */
int watch_culprit_report(struct kab_watch *w, const char *culprit,
			 struct report_opts *ro, struct report *r,
			 struct kab_err *err);

/*
 * The points around change point i of s: [*a, *b), from the change
 * point of the mean before it (or the first point) to the one after it
 * (or the end).
 */
void watch_segment(const struct kab_watch_series *s, size_t i, size_t *a,
		   size_t *b);

#endif /* KAB_WATCH_INTERNAL_H */
