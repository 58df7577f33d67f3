/* SPDX-License-Identifier: GPL-2.0 */
/*
 * analysis.h - statistics over stored samples, built on GSL.  Knows
 * nothing of how samples were measured or stored.
 */
#ifndef KAB_ANALYSIS_H
#define KAB_ANALYSIS_H

#include <stddef.h>

struct kab_summary {
	size_t n;
	double mean;
	double stddev;		/* population (divide by n), as lkp */
	double min, median, max;
};

/* v is sorted in place. */
void kab_summarize(double *v, size_t n, struct kab_summary *out);
/* 100 * stddev / mean, 0 when the mean is 0. */
double kab_summary_pct(const struct kab_summary *s);

#endif /* KAB_ANALYSIS_H */
