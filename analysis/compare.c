// SPDX-License-Identifier: GPL-2.0
/*
 * compare.c - one row per metric: base against each head, both tests,
 * Benjamini-Hochberg per head column, the default filter, lkp's order.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

#define MIN_SAMPLES 3

const struct kab_series *kab_side_series(const struct kab_side *s,
					 const char *m)
{
	size_t lo = 0, hi = s->nr;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(s->series[mid].metric, m);

		if (!c)
			return &s->series[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static void summarize(const struct kab_series *s, struct kab_summary *out)
{
	double *c = malloc((s->n ? s->n : 1) * sizeof(*c));

	memcpy(c, s->v, s->n * sizeof(*c));
	kab_summarize(c, s->n, out);
	free(c);
}

static unsigned long metric_seed(unsigned long seed, const char *m)
{
	unsigned long h = 5381;

	for (; *m; m++)
		h = h * 33 + (unsigned char)*m;
	return seed ^ h;
}

static void fill_cell(const struct kab_compare_opts *o, const char *metric,
		      const struct kab_series *b, const struct kab_summary *bs,
		      const struct kab_series *h, struct kab_cell *c)
{
	struct kab_anova ab, ah;
	struct kab_welch w;
	struct kab_mwu u;

	summarize(h, &c->s);
	c->absolute = kab_metric_absolute(metric);
	c->zero_base = !c->absolute && bs->mean == 0;
	if (c->absolute || c->zero_base)
		c->change = c->s.mean - bs->mean;
	else
		c->change = 100 * (c->s.mean - bs->mean) / fabs(bs->mean);
	c->few = b->n < MIN_SAMPLES || h->n < MIN_SAMPLES;
	kab_anova(b->v, b->boot, b->n, &ab);
	kab_anova(h->v, h->boot, h->n, &ah);
	c->f_base = ab.groups > 1 ? ab.f : NAN;
	c->f_head = ah.groups > 1 ? ah.f : NAN;
	/*
	 * Boots dominate when, on either side, the variance between boots
	 * is significant (p < 0.01) and larger than the variance within: a
	 * boot, not an iteration, is then one sample.
	 */
	c->per_boot = kab_boots_dominate(&ab, b->n) ||
		      kab_boots_dominate(&ah, h->n);
	if (c->per_boot) {
		double *bm = malloc(b->n * sizeof(*bm));
		double *hm = malloc(h->n * sizeof(*hm));
		size_t *bs = malloc(b->n * sizeof(*bs));
		size_t *hs = malloc(h->n * sizeof(*hs));
		size_t kb = kab_group_means(b->v, b->boot, b->n, bm, bs);
		size_t kh = kab_group_means(h->v, h->boot, h->n, hm, hs);

		c->few = kb < MIN_SAMPLES || kh < MIN_SAMPLES;
		kab_welch(bm, kb, hm, kh, &w);
		kab_mwu(bm, kb, hm, kh, &u);
		/*
		 * Boots are few (3 against 3 cannot go below p = 0.1 under
		 * the U test, 6 against 4 not below 0.0095, which the
		 * correction over every row then undoes); their means,
		 * averages of several iterations, are where the t-test is
		 * at home.
		 */
		c->boot_welch = o->test == KAB_TEST_MWU;
		free(bm);
		free(hm);
		free(bs);
		free(hs);
	} else {
		kab_welch(b->v, b->n, h->v, h->n, &w);
		kab_mwu(b->v, b->n, h->v, h->n, &u);
	}
	c->p_welch = w.p;
	c->p_mwu = u.p;
	c->ci_lo = c->ci_hi = NAN;
	if (o->want_ci)
		kab_bootstrap_ci(b->v, b->n, h->v, h->n,
				 c->absolute || c->zero_base, o->resamples,
				 metric_seed(o->seed, metric), &c->ci_lo,
				 &c->ci_hi);
}

double kab_cell_p(const struct kab_cell *c, enum kab_test test)
{
	if (!c->s.n || c->few)
		return NAN;
	return test == KAB_TEST_WELCH || c->boot_welch ? c->p_welch :
	       c->p_mwu;
}

static void decide(const struct kab_compare_opts *o, struct kab_row *r,
		   const struct kab_series *b, const struct kab_series *h,
		   struct kab_cell *c)
{
	double big = fabs(r->base.mean) > fabs(c->s.mean) ?
		     fabs(r->base.mean) : fabs(c->s.mean);
	double rel = r->base.mean ? 100 * fabs(c->s.mean - r->base.mean) /
				    fabs(r->base.mean) : INFINITY;
	int dir;

	if (o->test == KAB_TEST_LKP)
		c->significant = kab_lkp_changed(r->metric, b->v, b->n, h->v,
						 h->n) &&
				 kab_metric_big_enough(r->metric, big);
	else
		c->significant = !c->few && !isnan(c->p_adj) &&
				 c->p_adj <= o->fdr && rel >= o->noise &&
				 kab_metric_big_enough(r->metric, big);
	dir = kab_metric_direction(r->metric);
	c->verdict = 0;
	if (c->significant && dir && c->s.mean != r->base.mean)
		c->verdict = (c->s.mean > r->base.mean ? 1 : -1) * dir;
}

/* Groups: the benchmark's own first, monitors by name, perf-profile last. */
static int group_rank(const char *m)
{
	static const char *const monitors[] = {
		"proc-vmstat.", "meminfo.", "perf-stat.", "vmstat.",
		"numa-vmstat.", "numa-meminfo.", "sched_debug.", "perf-sched.",
		"mpstat.", "slabinfo.", "interrupts.", "softirqs.",
	};
	size_t i;

	if (!strncmp(m, "perf-profile", 12))
		return 2;
	for (i = 0; i < sizeof(monitors) / sizeof(monitors[0]); i++)
		if (!strncmp(m, monitors[i], strlen(monitors[i])))
			return 1;
	return 0;
}

static int cmp_rows(const void *a, const void *b)
{
	const struct kab_row *x = a, *y = b;
	int gx = group_rank(x->metric), gy = group_rank(y->metric);
	size_t lx = strcspn(x->metric, "."), ly = strcspn(y->metric, ".");
	double cx = x->cells[0].s.n ? x->cells[0].change : INFINITY;
	double cy = y->cells[0].s.n ? y->cells[0].change : INFINITY;
	int c;

	if (gx != gy)
		return gx - gy;
	c = strncmp(x->metric, y->metric, lx < ly ? lx : ly);
	if (c || lx != ly)
		return c ? c : (int)lx - (int)ly;
	if (cx != cy)
		return cx < cy ? -1 : 1;
	return strcmp(x->metric, y->metric);
}

int kab_compare(const struct kab_side *base, const struct kab_side *heads,
		size_t nr_heads, const struct kab_compare_opts *o,
		struct kab_comparison *out)
{
	size_t i, h, n = 0;
	double *p, *adj;

	memset(out, 0, sizeof(*out));
	out->opts = o;
	out->nr_heads = nr_heads;
	out->rows = calloc(base->nr ? base->nr : 1, sizeof(*out->rows));
	if (!out->rows)
		return -1;
	for (i = 0; i < base->nr; i++) {
		const struct kab_series *b = &base->series[i];
		struct kab_row *r = &out->rows[n];
		bool any = false;

		if (!b->n)
			continue;
		r->metric = b->metric;
		r->cells = calloc(nr_heads, sizeof(*r->cells));
		summarize(b, &r->base);
		for (h = 0; h < nr_heads; h++) {
			const struct kab_series *hs =
				kab_side_series(&heads[h], b->metric);

			r->cells[h].p_adj = NAN;
			if (!hs || !hs->n)
				continue;
			fill_cell(o, b->metric, b, &r->base, hs, &r->cells[h]);
			any = true;
		}
		if (!any) {
			free(r->cells);
			continue;
		}
		n++;
	}
	out->nr_rows = n;

	/* Benjamini-Hochberg over the rows of each head's comparison. */
	p = malloc((n ? n : 1) * sizeof(*p));
	adj = malloc((n ? n : 1) * sizeof(*adj));
	for (h = 0; h < nr_heads; h++) {
		for (i = 0; i < n; i++) {
			struct kab_cell *c = &out->rows[i].cells[h];

			p[i] = kab_cell_p(c, o->test);
		}
		kab_bh_adjust(p, n, adj);
		for (i = 0; i < n; i++) {
			struct kab_row *r = &out->rows[i];
			const struct kab_series *b = kab_side_series(base, r->metric);
			const struct kab_series *hs =
				kab_side_series(&heads[h], r->metric);

			r->cells[h].p_adj = adj[i];
			if (hs && hs->n)
				decide(o, r, b, hs, &r->cells[h]);
		}
	}
	free(p);
	free(adj);

	for (i = 0; i < n; i++) {
		struct kab_row *r = &out->rows[i];
		bool few = false, zero = false;

		bool weak = false;

		for (h = 0; h < nr_heads; h++) {
			const struct kab_cell *c = &r->cells[h];

			r->shown |= c->significant;
			few |= c->few;
			zero |= c->zero_base;
			/* An exact U test of 3 against 3 never gets below 0.1. */
			weak |= o->test == KAB_TEST_MWU && c->s.n && !c->few &&
				kab_mwu_min_p(r->base.n, c->s.n) > o->fdr;
		}
		out->weak_rows += weak;
		r->shown |= o->all;
		out->few_rows += few;
		out->zero_rows += zero && r->shown;
	}
	if (n)
		qsort(out->rows, n, sizeof(*out->rows), cmp_rows);
	out->need_n = MIN_SAMPLES;
	if (o->test == KAB_TEST_MWU)
		while (out->need_n < 50 &&
		       kab_mwu_min_p(out->need_n, out->need_n) > o->fdr)
			out->need_n++;
	return 0;
}

void kab_comparison_free(struct kab_comparison *c)
{
	size_t i;

	for (i = 0; i < c->nr_rows; i++)
		free(c->rows[i].cells);
	free(c->rows);
	memset(c, 0, sizeof(*c));
}
