// SPDX-License-Identifier: GPL-2.0
/*
 * html.c - kab watch --html DIR: the series' page (index.html), each
 * change point marked and linked to its culprit's report (a page of
 * its own beside it, CULPRIT.html, written once), rewritten after each
 * pass; every page written whole through a rename.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/* The culprit's report as a page in dir, unless it is there: 0 or -1. */
static int culprit_page(struct kab_watch *w, const struct kab_watch_html *o,
			const char *culprit, const char *path,
			struct kab_err *err)
{
	struct report_opts ro = {
		.c = { .test = KAB_TEST_WELCH, .fdr = 0.05, .noise = -1 },
		.bisect_tree = o->bisect_tree,
		.subject_prefix = w->name,
	};
	struct report r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int rc;

	if (!access(path, F_OK))
		return 0;
	if (watch_culprit_report(w, culprit, &ro, &r, err))
		return -1;
	f = open_memstream(&buf, &len);
	if (!f) {
		report_free(&r);
		return kab_err_set(err, "out of memory writing %s", path);
	}
	report_html(f, &r);
	fclose(f);
	report_free(&r);
	rc = write_file_atomic(path, buf, len, err);
	free(buf);
	return rc;
}

static const char *empty_why(const struct kab_point_row *r)
{
	switch (r->status) {
	case KAB_POINT_PENDING:
		return "pending";
	case KAB_POINT_SKIPPED:
		return "skipped";
	default:
		return "no value";
	}
}

int kab_watch_html(struct kab_watch *w, const struct kab_watch_html *o,
		   const struct kab_watch_series *s, struct kab_err *err)
{
	struct report_series rs = {
		.name = w->name, .metric = o->metric, .tree = w->tree,
		.branch = w->branch, .from = w->from,
	};
	struct report_series_pt *pts;
	struct report_series_cp *cps;
	char (*digits)[13], (*culprit)[13], (*href)[32];
	char *path = NULL, *buf = NULL;
	size_t i, j, len = 0;
	FILE *f;
	int rc = -1;

	if (mkdir_p(o->dir, 0755))
		return kab_err_set(err, "--html %s: %s: give a directory kab "
				   "can write", o->dir, strerror(errno));
	pts = xcalloc(s->nr_rows + 1, sizeof(*pts));
	digits = xcalloc(s->nr_rows + 1, sizeof(*digits));
	cps = xcalloc(s->nr_cps + 1, sizeof(*cps));
	culprit = xcalloc(s->nr_cps + 1, sizeof(*culprit));
	href = xcalloc(s->nr_cps + 1, sizeof(*href));
	for (i = 0, j = 0; i < s->nr_rows; i++) {
		const struct kab_point_row *r = &s->rows[i];

		snprintf(digits[i], sizeof(digits[i]), "%.12s", r->commit);
		pts[i].commit = digits[i];
		pts[i].subject = r->subject;
		if (j < s->nr && s->pts[j].row == r) {
			pts[i].v = s->pts[j].v;
			pts[i].n = s->pts[j].n;
			j++;
		} else {
			pts[i].status = empty_why(r);
		}
	}
	for (i = 0; i < s->nr_cps; i++) {
		const struct kab_cp *c = &s->cps[i];
		const struct kab_change_row *k = s->stored ? &s->stored[i] :
						 NULL;

		cps[i].at = (size_t)(s->pts[c->at].row - s->rows);
		cps[i].pct = c->pct;
		cps[i].lo = c->lo;
		cps[i].hi = c->hi;
		cps[i].p = c->p;
		cps[i].spread = c->noise_only;
		if (!k)
			continue;
		cps[i].status = k->status;
		cps[i].evidence = k->evidence;
		if (!k->culprit || strcmp(k->status, "verified"))
			continue;
		snprintf(culprit[i], sizeof(culprit[i]), "%.12s", k->culprit);
		cps[i].culprit = culprit[i];
		snprintf(href[i], sizeof(href[i]), "%s.html", culprit[i]);
		free(path);
		path = xasprintf("%s/%s", o->dir, href[i]);
		if (culprit_page(w, o, k->culprit, path, err))
			goto out;
		cps[i].href = href[i];
	}
	rs.pts = pts;
	rs.nr = s->nr_rows;
	rs.cps = cps;
	rs.nr_cps = s->nr_cps;
	f = open_memstream(&buf, &len);
	if (!f) {
		kab_err_set(err, "out of memory writing the series' page");
		goto out;
	}
	report_series_html(f, &rs);
	fclose(f);
	free(path);
	path = xasprintf("%s/index.html", o->dir);
	rc = write_file_atomic(path, buf, len, err);
out:
	free(buf);
	free(path);
	free(pts);
	free(digits);
	free(cps);
	free(culprit);
	free(href);
	return rc;
}
