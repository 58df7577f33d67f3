// SPDX-License-Identifier: GPL-2.0
/*
 * compare.c - one row per metric: base against each head, tested on
 * boot means, the KPIs and the other rows corrected as two families,
 * the default filter, lkp's order.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

/* Fewer boots than this on a side leave a row without a verdict. */
#define MIN_UNITS 2

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

static void take_logs(double *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = log(v[i]);
}

/*
 * The 95% interval of the change, from the t interval of the
 * difference of boot means: on the log scale a ratio, given in %; on
 * the linear scale a difference, absolute or in % of the base.
 */
static void interval(const struct kab_welch *w, struct kab_cell *c,
		     double base_mean)
{
	double lo, hi;

	kab_welch_ci(w, 0.95, &lo, &hi);
	if (isnan(lo))
		return;
	if (c->log_scale && !c->absolute) {
		c->ci_lo = 100 * expm1(lo);
		c->ci_hi = 100 * expm1(hi);
	} else if (c->log_scale) {
		/* absolute metrics: the ratio applied to the base */
		c->ci_lo = base_mean * expm1(lo);
		c->ci_hi = base_mean * expm1(hi);
	} else if (c->absolute || c->zero_base) {
		c->ci_lo = lo;
		c->ci_hi = hi;
	} else {
		c->ci_lo = 100 * lo / fabs(base_mean);
		c->ci_hi = 100 * hi / fabs(base_mean);
	}
}

/*
 * The boots of a series as units: their means and their blocks ("" for
 * a run of this database).  Without boot numbers every sample is its
 * own unit, of no block.
 */
struct units {
	size_t n;
	double *mean;
	const char **block;
	const char **pair;	/* NULL entries: no layout seed */
};

static void units_of(const struct kab_series *s, const struct kab_side *side,
		     struct units *u)
{
	size_t nb = s->boot && side->nr_boots ? side->nr_boots : s->n;
	double *sum = calloc(nb ? nb : 1, sizeof(*sum));
	size_t *cnt = calloc(nb ? nb : 1, sizeof(*cnt)), i;

	u->n = 0;
	u->mean = malloc((nb ? nb : 1) * sizeof(*u->mean));
	u->block = malloc((nb ? nb : 1) * sizeof(*u->block));
	u->pair = calloc(nb ? nb : 1, sizeof(*u->pair));
	if (!sum || !cnt || !u->mean || !u->block || !u->pair)
		goto out;
	if (!s->boot || !side->nr_boots) {
		size_t *sizes = malloc((s->n ? s->n : 1) * sizeof(*sizes));

		u->n = s->boot ? kab_group_means(s->v, s->boot, s->n, u->mean,
						 sizes) :
		       s->n;
		if (!s->boot)
			memcpy(u->mean, s->v, s->n * sizeof(*u->mean));
		for (i = 0; i < u->n; i++)
			u->block[i] = "";
		free(sizes);
		goto out;
	}
	for (i = 0; i < s->n; i++) {
		if (s->boot[i] < 0 || (size_t)s->boot[i] >= nb)
			continue;
		sum[s->boot[i]] += s->v[i];
		cnt[s->boot[i]]++;
	}
	for (i = 0; i < nb; i++) {
		if (!cnt[i])
			continue;
		u->mean[u->n] = sum[i] / cnt[i];
		u->pair[u->n] = side->pair ? side->pair[i] : NULL;
		u->block[u->n++] = side->block && side->block[i] ?
				   side->block[i] : "";
	}
out:
	free(sum);
	free(cnt);
}

static void units_free(struct units *u)
{
	free(u->mean);
	free((void *)u->block);
	free((void *)u->pair);
}

/* The mean of the units at layout key. */
static double pair_mean(const struct units *u, const char *key)
{
	double sum = 0;
	size_t i, n = 0;

	for (i = 0; i < u->n; i++)
		if (u->pair[i] && !strcmp(u->pair[i], key)) {
			sum += u->mean[i];
			n++;
		}
	return sum / n;
}

static bool has_pair(const struct units *u, const char *key, size_t upto)
{
	size_t i;

	for (i = 0; i < upto; i++)
		if (u->pair[i] && !strcmp(u->pair[i], key))
			return true;
	return false;
}

/*
 * Head minus base at each layout both sides ran at (first appearance
 * on the base side), into d: how many.
 */
static size_t pair_diffs(const struct units *ub, const struct units *uh,
			 double *d)
{
	size_t i, n = 0;

	for (i = 0; i < ub->n; i++)
		if (ub->pair[i] && !has_pair(ub, ub->pair[i], i) &&
		    has_pair(uh, ub->pair[i], uh->n))
			d[n++] = pair_mean(uh, ub->pair[i]) -
				 pair_mean(ub, ub->pair[i]);
	return n;
}

static bool in_units(const struct units *u, const char *block)
{
	size_t i;

	for (i = 0; i < u->n; i++)
		if (!strcmp(u->block[i], block))
			return true;
	return false;
}

/* The mean of the units of one block. */
static double block_mean(const struct units *u, const char *block)
{
	double sum = 0;
	size_t i, n = 0;

	for (i = 0; i < u->n; i++)
		if (!strcmp(u->block[i], block)) {
			sum += u->mean[i];
			n++;
		}
	return sum / n;
}

/* Keep only the units whose block the other side has too. */
static void keep_common(struct units *u, const struct units *other)
{
	size_t i, k = 0;

	for (i = 0; i < u->n; i++)
		if (in_units(other, u->block[i])) {
			u->mean[k] = u->mean[i];
			u->block[k++] = u->block[i];
		}
	u->n = k;
}

/* The distinct blocks of u (first appearance), which other has too. */
static size_t common_blocks(const struct units *u, const struct units *other,
			    const char **out)
{
	size_t i, j, k = 0;

	for (i = 0; i < u->n; i++) {
		for (j = 0; j < k; j++)
			if (!strcmp(out[j], u->block[i]))
				break;
		if (j == k && in_units(other, u->block[i]))
			out[k++] = u->block[i];
	}
	return k;
}

/* A side's spread within its boots over the iterations a boot averages,
 * as a fraction of its mean; 0 when there is none to tell. */
static double rel_within(const struct kab_anova *a, double mean)
{
	double n0 = a->n0 >= 1 ? a->n0 : 1;

	if (isnan(a->ms_within) || mean == 0)
		return 0;
	return sqrt(a->ms_within / n0) / fabs(mean);
}

static void fill_cell(const struct kab_series *b, const struct kab_side *bside,
		      const struct kab_summary *bs, const struct kab_series *h,
		      const struct kab_side *hside, double floor, bool within,
		      struct kab_cell *c)
{
	struct units ub = { 0 }, uh = { 0 };
	struct kab_anova ab, ah;
	struct kab_welch w;
	struct kab_mwu u;
	const char **blocks;
	double *d;
	size_t i, nblocks;

	summarize(h, &c->s);
	c->absolute = kab_metric_absolute(b->metric);
	c->zero_base = !c->absolute && bs->mean == 0;
	if (c->absolute || c->zero_base)
		c->change = c->s.mean - bs->mean;
	else
		c->change = 100 * (c->s.mean - bs->mean) / fabs(bs->mean);
	c->lkp_change = kab_lkp_change(b->metric, bs->mean, c->s.mean);
	kab_anova(b->v, b->boot, b->n, &ab);
	kab_anova(h->v, h->boot, h->n, &ah);
	c->f_base = ab.f;
	c->f_head = ah.f;
	/*
	 * Exact data's other rows: their iterations vary by what a small
	 * perturbation of the kernel moves too (a profile's samples, a
	 * count of a few events), deterministically; that spread over the
	 * iterations a boot averages is their floor as well.
	 */
	if (within && floor > 0) {
		floor = fmax(floor, rel_within(&ab, bs->mean));
		floor = fmax(floor, rel_within(&ah, c->s.mean));
	}
	c->ci_lo = c->ci_hi = NAN;
	c->unit_sd = NAN;
	c->p_welch = c->p_mwu = NAN;

	units_of(b, bside, &ub);
	units_of(h, hside, &uh);
	c->units_base = ub.n;
	c->units_head = uh.n;
	/* Changes multiply: ratios of positive metrics on the log scale. */
	c->log_scale = kab_all_positive(b->v, b->n) &&
		       kab_all_positive(h->v, h->n);
	if (c->log_scale) {
		take_logs(ub.mean, ub.n);
		take_logs(uh.mean, uh.n);
	} else {
		/* a relative floor in the base's units */
		floor *= fabs(bs->mean);
	}
	blocks = malloc((ub.n ? ub.n : 1) * sizeof(*blocks));
	d = malloc((ub.n ? ub.n : 1) * sizeof(*d));
	/*
	 * Exact mode's seeds: boots of both sides at one layout seed differ
	 * by the change alone and the luck that seed does not fix, so the
	 * layouts are the replicates, as machines are below.
	 */
	nblocks = d && ub.pair && uh.pair ? pair_diffs(&ub, &uh, d) : 0;
	if (nblocks >= 2) {
		c->blocks = nblocks;
		c->paired = true;
		c->few = false;
		c->units_base = c->units_head = nblocks;
		kab_ttest_one(d, nblocks, M_SQRT2 * floor, &w);
		c->p_welch = w.p;
		interval(&w, c, bs->mean);
		/* of a difference at one seed, as the test took it */
		c->unit_sd = w.se * sqrt((double)nblocks);
		goto out;
	}
	nblocks = blocks && d ? common_blocks(&ub, &uh, blocks) : 0;
	if (!nblocks) {
		/* each side on machines of its own: nothing to tell apart */
		c->confounded = ub.n && uh.n;
		c->few = true;
		goto out;
	}
	keep_common(&ub, &uh);
	keep_common(&uh, &ub);
	c->units_base = ub.n;
	c->units_head = uh.n;
	if (nblocks >= 2) {
		/* runners are the replicates, within-runner changes the data */
		c->blocks = nblocks;
		for (i = 0; i < nblocks; i++)
			d[i] = block_mean(&uh, blocks[i]) -
			       block_mean(&ub, blocks[i]);
		/* a difference of two boot means: sqrt(2) floors */
		kab_ttest_one(d, nblocks, M_SQRT2 * floor, &w);
		c->p_welch = w.p;
		interval(&w, c, bs->mean);
		goto out;
	}
	c->few = ub.n < MIN_UNITS || uh.n < MIN_UNITS;
	kab_ttest(ub.mean, ub.n, uh.mean, uh.n, floor, &w);
	kab_mwu(ub.mean, ub.n, uh.mean, uh.n, &u);
	c->p_welch = w.p;
	c->p_mwu = u.p;
	if (!c->few) {
		interval(&w, c, bs->mean);
		c->unit_sd = w.se / sqrt(1.0 / ub.n + 1.0 / uh.n);
	}
out:
	free(blocks);
	free(d);
	units_free(&ub);
	units_free(&uh);
}

double kab_cell_p(const struct kab_cell *c, enum kab_test test)
{
	if (!c->s.n || c->few || test == KAB_TEST_LKP)
		return NAN;
	return test == KAB_TEST_MWU ? c->p_mwu : c->p_welch;
}

/*
 * The level a family of rows is tested at.  A table holds opts->fdr as
 * a whole: under A/A the chance that any row of it is called is at most
 * the sum of its families' levels, so a table with KPI rows and other
 * rows gives the KPIs KAB_KPI_SHARE of it and the others the rest; a
 * table of one family gives it all.
 */
double kab_family_level(const struct kab_comparison *c, bool kpi)
{
	if (!c->nr_kpi_rows || c->nr_kpi_rows == c->nr_rows)
		return c->opts->fdr;
	return c->opts->fdr * (kpi ? KAB_KPI_SHARE : 1 - KAB_KPI_SHARE);
}

/* Significance and verdict of a cell once its p is adjusted. */
static void decide(const struct kab_comparison *cmp, const struct kab_row *r,
		   struct kab_cell *c)
{
	const struct kab_compare_opts *o = cmp->opts;
	double rel = r->base.mean ? 100 * fabs(c->s.mean - r->base.mean) /
				    fabs(r->base.mean) : INFINITY;
	int dir;

	if (o->test != KAB_TEST_LKP)
		c->significant = !c->few && !isnan(c->p_adj) &&
				 c->p_adj <= kab_family_level(cmp, r->kpi) &&
				 rel >= o->noise && c->s.mean != r->base.mean;
	dir = kab_metric_direction(r->metric);
	c->verdict = 0;
	if (c->significant && dir && c->s.mean != r->base.mean)
		c->verdict = (c->s.mean > r->base.mean ? 1 : -1) * dir;
}

void kab_cell_sequential(const struct kab_row *r, struct kab_cell *c,
			 const struct kab_seq *q)
{
	int dir = kab_metric_direction(r->metric);

	c->sequential = true;
	c->seq = *q;
	c->significant = q->verdict == KAB_SEQ_CHANGED;
	c->p_adj = NAN;
	/* the looks' interval is of the ratio, in % */
	c->ci_lo = c->absolute || c->zero_base ? NAN : q->lo;
	c->ci_hi = c->absolute || c->zero_base ? NAN : q->hi;
	c->verdict = 0;
	if (c->significant && dir)
		c->verdict = (q->change > 0 ? 1 : -1) * dir;
}

/* The samples a side has of its most sampled metric: lkp's columns. */
static size_t side_cols(const struct kab_side *s)
{
	size_t i, cols = 0;

	for (i = 0; i < s->nr; i++)
		if (s->series[i].n > cols)
			cols = s->series[i].n;
	return cols;
}

/*
 * Has the side a metric of the same monitor (first component)?  The
 * series are sorted, so those starting "monitor." are a run: found by
 * bisection.
 */
static bool side_family(const struct kab_side *s, const char *metric)
{
	size_t n = strcspn(metric, ".") + 1, lo = 0, hi = s->nr;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (strncmp(s->series[mid].metric, metric, n) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < s->nr && !strncmp(s->series[lo].metric, metric, n); lo++)
		if (s->series[lo].n)
			return true;
	return false;
}

static void lkp_values(const struct kab_side *side, size_t cols,
		       const char *metric, struct kab_lkp_values *v)
{
	const struct kab_series *s = kab_side_series(side, metric);

	/* lkp's rule fills its own zeros: it is given the values read */
	v->n = s ? s->n - s->filled : 0;
	v->v = v->n ? s->v : NULL;
	v->cols = cols;
	v->family = side_family(side, metric);
}

/* lkp has no test: its own rule decides, on samples. */
static void decide_lkp(const struct kab_compare_opts *o, const char *metric,
		       const struct kab_side *base, size_t base_cols,
		       const struct kab_side *head, size_t head_cols,
		       struct kab_cell *c)
{
	struct kab_lkp_ctx ctx = { o->suites, o->nr_suites };
	struct kab_lkp_values a, b;

	lkp_values(head, head_cols, metric, &a);
	lkp_values(base, base_cols, metric, &b);
	c->significant = kab_lkp_stat_changed(metric, &a, &b, &ctx);
}

/*
 * Rows in lkp's order (lib/compare.rb's sort_stats), the shown ones
 * first: by the number of shown rows of the same monitor (a test
 * suite's own rows count 0, so they come first), then by the name
 * (perf-profile's by its first two components only), then by the
 * changes; kab breaks lkp's remaining ties by the name.
 */
static size_t sort_key_len(const char *m)
{
	size_t n = strcspn(m, ".");

	if (n == 12 && !strncmp(m, "perf-profile", 12) && m[n])
		n += 1 + strcspn(m + n + 1, ".");
	return n == strcspn(m, ".") ? strlen(m) : n;
}

static int cmp_rows(const void *a, const void *b)
{
	const struct kab_row *x = a, *y = b;
	size_t lx = sort_key_len(x->metric), ly = sort_key_len(y->metric);
	size_t i, nr = x->nr_cells;
	int c;

	if (x->shown != y->shown)
		return x->shown ? -1 : 1;
	if (x->family != y->family)
		return x->family < y->family ? -1 : 1;
	c = memcmp(x->metric, y->metric, lx < ly ? lx : ly);
	if (c || lx != ly)
		return c ? c : lx < ly ? -1 : 1;
	for (i = 0; i < nr; i++) {
		double cx = x->cells[i].lkp_change, cy = y->cells[i].lkp_change;

		if (cx < cy)
			return -1;
		if (cx > cy)
			return 1;
	}
	return strcmp(x->metric, y->metric);
}

/* Rows by monitor (the metric's first component), then shown first. */
static int by_monitor(const void *a, const void *b)
{
	const struct kab_row *x = *(const struct kab_row *const *)a;
	const struct kab_row *y = *(const struct kab_row *const *)b;
	size_t lx = strcspn(x->metric, "."), ly = strcspn(y->metric, ".");
	int c = memcmp(x->metric, y->metric, lx < ly ? lx : ly);

	if (c || lx != ly)
		return c ? c : lx < ly ? -1 : 1;
	return (int)y->shown - (int)x->shown;
}

/*
 * Each row's family size for lkp's order: the rows of its monitor
 * shown alike (a suite's own rows: 0).  Sorted, the rows of a family
 * are a run: n log n for a run of 40,000 metrics.
 */
static void count_families(struct kab_comparison *out)
{
	const struct kab_compare_opts *o = out->opts;
	struct kab_row **v;
	size_t i, j;

	if (!out->nr_rows)
		return;
	v = calloc(out->nr_rows, sizeof(*v));
	if (!v)
		return;
	for (i = 0; i < out->nr_rows; i++) {
		v[i] = &out->rows[i];
		v[i]->nr_cells = out->nr_heads;
	}
	qsort(v, out->nr_rows, sizeof(*v), by_monitor);
	for (i = 0; i < out->nr_rows; i = j) {
		size_t k, n = 0;

		for (j = i; j < out->nr_rows && !by_monitor(&v[i], &v[j]); j++)
			n++;
		for (k = i; k < j; k++)
			v[k]->family = kab_lkp_is_suite(v[k]->metric,
							o->suites,
							o->nr_suites) ? 0 : n;
	}
	free(v);
}

static bool is_kpi(const struct kab_compare_opts *o, const char *metric)
{
	size_t i;

	for (i = 0; i < o->nr_kpi; i++)
		if (!strcmp(o->kpi[i], metric))
			return true;
	return false;
}

/*
 * Benjamini-Hochberg over the cells of every head in the rows of one
 * family (kpi or not) of the comparisons cs: a table with several heads
 * is one table.
 */
static void adjust_family(struct kab_comparison *const *cs, size_t nr,
			  bool kpi)
{
	size_t i, r, h, n = 0, k = 0;
	double *p, *adj;

	for (i = 0; i < nr; i++)
		for (r = 0; r < cs[i]->nr_rows; r++)
			n += (cs[i]->rows[r].kpi == kpi) * cs[i]->nr_heads;
	p = calloc(n ? n : 1, sizeof(*p));
	adj = calloc(n ? n : 1, sizeof(*adj));
	if (!p || !adj)
		goto out;
	for (i = 0; i < nr; i++)
		for (r = 0; r < cs[i]->nr_rows; r++)
			for (h = 0; h < cs[i]->nr_heads; h++)
				if (cs[i]->rows[r].kpi == kpi)
					p[k++] = kab_cell_p(
						&cs[i]->rows[r].cells[h],
						cs[i]->opts->test);
	kab_bh_adjust(p, n, adj);
	for (i = 0, k = 0; i < nr; i++) {
		for (r = 0; r < cs[i]->nr_rows; r++) {
			struct kab_row *row = &cs[i]->rows[r];

			if (row->kpi != kpi)
				continue;
			for (h = 0; h < cs[i]->nr_heads; h++) {
				row->cells[h].p_adj = adj[k++];
				if (row->cells[h].s.n)
					decide(cs[i], row, &row->cells[h]);
			}
		}
	}
out:
	free(p);
	free(adj);
}

/* What a reader is told about rows that could not be called. */
static void count_notes(struct kab_comparison *out, size_t n_other)
{
	const struct kab_compare_opts *o = out->opts;
	size_t i, h;

	for (i = 0; i < out->nr_rows; i++) {
		struct kab_row *r = &out->rows[i];
		bool few = false, zero = false, weak = false, conf = false;
		bool blk = false, paired = false;

		r->shown = o->all || (r->kpi && !o->lkp_rows);
		for (h = 0; h < out->nr_heads; h++) {
			const struct kab_cell *c = &r->cells[h];

			r->shown |= c->significant;
			few |= c->s.n && c->few && !c->confounded;
			conf |= c->confounded;
			blk |= c->blocks >= 2 && !c->paired;
			paired |= c->paired;
			zero |= c->zero_base;
			weak |= o->test == KAB_TEST_MWU && c->s.n &&
				r->base.n && !c->few &&
				kab_mwu_min_p(c->units_base, c->units_head) >
				kab_family_level(out, r->kpi);
		}
		out->weak_rows += weak;
		out->few_rows += few;
		out->confounded_rows += conf;
		out->blocked_rows += blk;
		out->paired_rows += paired;
		out->zero_rows += zero && r->shown;
	}
	/*
	 * Boots a side for one change among the other rows to be called:
	 * BH's first step is q / m.  The t-test has no such floor.
	 */
	out->need_n = MIN_UNITS;
	if (o->test == KAB_TEST_MWU)
		while (out->need_n < 1000 &&
		       kab_mwu_min_p(out->need_n, out->need_n) >
		       kab_family_level(out, false) /
		       (n_other ? n_other : 1))
			out->need_n++;
}

/* A share of a profile's samples (percent), as kab's profile names them. */
static bool profile_share(const char *m)
{
	return !strncmp(m, "perf-profile.", 13) &&
	       strcmp(m, "perf-profile.samples") &&
	       strcmp(m, "perf-profile.lost_samples");
}

/* A side's profile samples in all, or 0 without perf-profile.samples. */
static double profile_samples(const struct kab_side *s)
{
	const struct kab_series *t = kab_side_series(s, "perf-profile.samples");
	double sum = 0;
	size_t i;

	for (i = 0; t && i < t->n; i++)
		sum += t->v[i];
	return sum;
}

/*
 * The two-proportion z of a profile share's move: the shares (percent
 * of the samples) as counts of each side's samples in all.  A row of a
 * background thread that went from 1 to 6 samples moved 5 points of a
 * profile of 100 samples, and is still within the counting noise.
 */
static double count_z(double share_b, double share_h, double tb, double th)
{
	double cb = share_b / 100 * tb, ch = share_h / 100 * th;
	double p = (cb + ch) / (tb + th), se;

	if (!(tb > 0 && th > 0))
		return NAN;
	se = sqrt(p * (1 - p) * (1 / tb + 1 / th));
	if (!(se > 0))
		return cb / tb == ch / th ? 0 : INFINITY;
	return fabs(ch / th - cb / tb) / se;
}

/*
 * How sure a cell's move is: the interval's distance from 0 in its own
 * standard errors, and no more than the counting noise of the samples
 * behind a profile share allows.
 */
double kab_cell_evidence(const struct kab_cell *c)
{
	double half = (c->ci_hi - c->ci_lo) / 2, z;

	if (!c->significant)
		return 0;
	z = isfinite(half) ? (half > 0 ? 1.96 * fabs(c->ci_hi + c->ci_lo) /
				 2 / half : INFINITY) : 0;
	return isnan(c->count_z) ? z : fmin(z, c->count_z);
}

/* A row's surest move and its largest (cells: one per head). */
static size_t moved_heads;

static void moved(const struct kab_row *r, double *ev, double *m)
{
	size_t h;

	*ev = *m = 0;
	for (h = 0; h < moved_heads; h++) {
		*ev = fmax(*ev, kab_cell_evidence(&r->cells[h]));
		*m = fmax(*m, fabs(r->cells[h].change));
	}
}

static int by_moved(const void *a, const void *b)
{
	double ex, ey, x, y;

	moved(*(const struct kab_row *const *)a, &ex, &x);
	moved(*(const struct kab_row *const *)b, &ey, &y);
	if (ex != ey)
		return ex < ey ? 1 : -1;
	return x < y ? 1 : x > y ? -1 : 0;
}

/*
 * lkp prints the perf-profile rows its rule passes, a handful; kab's
 * tests pass hundreds of a long profile's call chains.  Keep the ones
 * whose move is surest (a large move of few samples is not), count
 * the others.
 */
static void limit_profile(struct kab_comparison *out)
{
	const struct kab_compare_opts *o = out->opts;
	size_t i, n = 0, max = o->profile_rows > 0 ? (size_t)o->profile_rows :
			      KAB_PROFILE_ROWS;
	struct kab_row **v;

	if (o->all || o->profile_rows < 0 || o->lkp_rows)
		return;
	v = calloc(out->nr_rows + 1, sizeof(*v));
	if (!v)
		return;		/* all of them, then */
	for (i = 0; i < out->nr_rows; i++)
		if (out->rows[i].shown && !out->rows[i].kpi &&
		    !strncmp(out->rows[i].metric, "perf-profile.", 13))
			v[n++] = &out->rows[i];
	if (n > max) {
		moved_heads = out->nr_heads;
		qsort(v, n, sizeof(*v), by_moved);
		/* profile shares are absolute: none counts in zero_rows */
		for (i = max; i < n; i++) {
			v[i]->shown = false;
			out->hidden_profile++;
		}
	}
	free(v);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every metric of some side, once each, sorted. */
static const char **all_metrics(const struct kab_side *base,
				const struct kab_side *heads, size_t nr_heads,
				size_t *nr)
{
	size_t total = base->nr, h, i, n = 0;
	const char **m;

	for (h = 0; h < nr_heads; h++)
		total += heads[h].nr;
	m = malloc((total ? total : 1) * sizeof(*m));
	if (!m)
		return NULL;
	for (i = 0; i < base->nr; i++)
		m[n++] = base->series[i].metric;
	for (h = 0; h < nr_heads; h++)
		for (i = 0; i < heads[h].nr; i++)
			m[n++] = heads[h].series[i].metric;
	qsort(m, n, sizeof(*m), cmp_names);
	for (i = 0, *nr = 0; i < n; i++)
		if (!*nr || strcmp(m[*nr - 1], m[i]))
			m[(*nr)++] = m[i];
	return m;
}

/*
 * A cell of a metric that only one of its two sides has: lkp's 0 on
 * the other side, no test.
 */
static void one_sided_cell(const char *metric, const struct kab_series *h,
			   const struct kab_summary *bs, struct kab_cell *c)
{
	if (h && h->n)
		summarize(h, &c->s);
	c->absolute = kab_metric_absolute(metric);
	c->change = NAN;
	c->lkp_change = kab_lkp_change(metric, bs->mean, c->s.mean);
	c->ci_lo = c->ci_hi = c->unit_sd = NAN;
	c->p_welch = c->p_mwu = c->f_base = c->f_head = NAN;
}

int kab_compare(const struct kab_side *base, const struct kab_side *heads,
		size_t nr_heads, const struct kab_compare_opts *o,
		struct kab_comparison *out)
{
	size_t i, h, n = 0, n_other = 0, nr_names;
	const char **names;
	size_t *cols;
	double tb, *th;

	memset(out, 0, sizeof(*out));
	out->opts = o;
	out->nr_heads = nr_heads;
	names = all_metrics(base, heads, nr_heads, &nr_names);
	if (!names)
		return -1;
	out->rows = calloc(nr_names ? nr_names : 1, sizeof(*out->rows));
	/* lkp's columns: each side's most sampled metric, once */
	cols = calloc(nr_heads + 1, sizeof(*cols));
	if (!out->rows || !cols) {
		free(names);
		free(cols);
		return -1;
	}
	cols[0] = side_cols(base);
	for (h = 0; h < nr_heads; h++)
		cols[h + 1] = side_cols(&heads[h]);
	/* each side's profile samples, once: the shares rest on them */
	tb = profile_samples(base);
	th = calloc(nr_heads + 1, sizeof(*th));
	for (h = 0; th && h < nr_heads; h++)
		th[h] = profile_samples(&heads[h]);
	for (i = 0; i < nr_names; i++) {
		const struct kab_series *b = kab_side_series(base, names[i]);
		struct kab_row *r = &out->rows[n];
		bool both = false;

		if (b && !b->n)
			b = NULL;
		for (h = 0; h < nr_heads && b; h++) {
			const struct kab_series *hs =
				kab_side_series(&heads[h], names[i]);

			both |= hs && hs->n;
		}
		/* one side only: a row for --all and for lkp's rule */
		if (!both && !o->all && o->test != KAB_TEST_LKP)
			continue;
		r->metric = names[i];
		r->kpi = is_kpi(o, names[i]);
		r->cells = calloc(nr_heads ? nr_heads : 1, sizeof(*r->cells));
		if (!r->cells)
			break;
		if (b)
			summarize(b, &r->base);
		for (h = 0; h < nr_heads; h++) {
			const struct kab_series *hs =
				kab_side_series(&heads[h], names[i]);

			r->cells[h].p_adj = NAN;
			r->cells[h].count_z = NAN;
			if (b && hs && hs->n)
				fill_cell(b, base, &r->base, hs, &heads[h],
					  o->floor, !r->kpi, &r->cells[h]);
			else
				one_sided_cell(names[i], hs, &r->base,
					       &r->cells[h]);
			if (b && hs && hs->n && th && profile_share(names[i]))
				r->cells[h].count_z =
					count_z(r->base.mean,
						r->cells[h].s.mean, tb, th[h]);
			if (o->test == KAB_TEST_LKP)
				decide_lkp(o, names[i], base, cols[0],
					   &heads[h], cols[h + 1],
					   &r->cells[h]);
		}
		n_other += !r->kpi;
		n++;
	}
	free(names);
	free(cols);
	free(th);
	out->nr_rows = n;
	out->nr_kpi_rows = n - n_other;
	adjust_family(&out, 1, true);
	adjust_family(&out, 1, false);
	count_notes(out, n_other);
	limit_profile(out);
	count_families(out);
	if (n)
		qsort(out->rows, n, sizeof(*out->rows), cmp_rows);
	return 0;
}

void kab_compare_kpis(struct kab_comparison *const *c, size_t nr)
{
	if (nr)
		adjust_family(c, nr, true);
}

void kab_comparison_free(struct kab_comparison *c)
{
	size_t i;

	for (i = 0; i < c->nr_rows; i++)
		free(c->rows[i].cells);
	free(c->rows);
	memset(c, 0, sizeof(*c));
}
