// SPDX-License-Identifier: GPL-2.0
/*
 * rows.c - lkp's other rows at a change point of the followed metric:
 * the boots of the points between the change and the change points
 * either side of it, compared as kab compare compares two sides (its
 * tables, its families: the KPI, and the other rows as a second family
 * at the table's FDR), and the rows that moved with the change kept,
 * surest first.  They are what explains a change (a THP fault count,
 * a page-walk count), tested where the change is, not searched for.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void watch_segment(const struct kab_watch_series *s, size_t i, size_t *a,
		   size_t *b)
{
	size_t at = s->cps[i].at, k;

	*a = 0;
	*b = s->nr;
	for (k = 0; k < s->nr_cps; k++) {
		if (s->cps[k].noise_only)
			continue;
		if (s->cps[k].at < at && s->cps[k].at > *a)
			*a = s->cps[k].at;
		if (s->cps[k].at > at && s->cps[k].at < *b)
			*b = s->cps[k].at;
	}
}

/* Point indices [a, b) of s as a side: their runs, "3,5,7". */
static char *side(const struct kab_watch_series *s, size_t a, size_t b)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i, k;

	for (i = a; i < b; i++)
		for (k = 0; k < s->pts[i].row->nr_runs; k++)
			strbuf_addf(&sb, "%s%lld", sb.len ? "," : "",
				    (long long)s->pts[i].row->runs[k]);
	return strbuf_detach(&sb);
}

/* How sure a moved row is: its cell's interval from 0, in its widths. */
static double sureness(const struct kab_cell *c)
{
	double w = c->ci_hi - c->ci_lo;

	if (!isfinite(w) || w <= 0)
		return INFINITY;
	return fmin(fabs(c->ci_lo), fabs(c->ci_hi)) / w;
}

static int by_sureness(const void *a, const void *b)
{
	const struct kab_moved_row *x = a, *y = b;

	if (x->sure != y->sure)
		return x->sure > y->sure ? -1 : 1;
	return strcmp(x->metric, y->metric);
}

int kab_watch_rows(struct kab_db *db, const struct kab_watch_series *s,
		   size_t i, const char *metric, size_t max,
		   struct kab_watch_rows *out, struct kab_err *err)
{
	struct kab_compare_opts c = {
		.test = KAB_TEST_WELCH, .fdr = 0.05, .noise = -1,
		.kpi = &metric, .nr_kpi = 1,
	};
	struct cmp_sel sel = { 0 };
	struct cmp_set set;
	size_t a, b, at = s->cps[i].at, k, t;
	char *specs[2];
	int rc;

	memset(out, 0, sizeof(*out));
	watch_segment(s, i, &a, &b);
	specs[0] = side(s, a, at);
	specs[1] = side(s, at, b);
	rc = cmp_set_build(db, specs, 2, &c, &sel, &set, err);
	free(specs[0]);
	free(specs[1]);
	if (rc)
		return kab_err_prefix(err, "the rows at the change between "
				      "%.12s and %.12s",
				      s->pts[at - 1].row->commit,
				      s->pts[at].row->commit);
	for (t = 0; t < set.nr; t++) {
		const struct kab_comparison *cmp = &set.t[t].c;

		out->family += cmp->nr_rows - cmp->nr_kpi_rows;
		for (k = 0; k < cmp->nr_rows; k++) {
			const struct kab_row *r = &cmp->rows[k];
			const struct kab_cell *cell = &r->cells[0];
			struct kab_moved_row *w;

			if (r->kpi || !cell->significant)
				continue;
			out->v = xrealloc(out->v, (out->nr + 1) *
					  sizeof(*out->v));
			w = &out->v[out->nr++];
			w->metric = xstrdup(r->metric);
			w->base = r->base.mean;
			w->head = cell->s.mean;
			w->change = cell->lkp_change;
			w->absolute = cell->absolute;
			w->p = cell->p_adj;
			w->sure = sureness(cell);
		}
	}
	cmp_set_free(&set);
	if (out->nr)
		qsort(out->v, out->nr, sizeof(*out->v), by_sureness);
	out->moved = out->nr;
	while (out->nr > max)
		free(out->v[--out->nr].metric);
	return 0;
}

void kab_watch_rows_free(struct kab_watch_rows *r)
{
	size_t i;

	for (i = 0; i < r->nr; i++)
		free(r->v[i].metric);
	free(r->v);
	memset(r, 0, sizeof(*r));
}
