// SPDX-License-Identifier: GPL-2.0
/*
 * test-stats.c - every statistic against values derived by hand or by
 * an independent implementation (scipy 1.10, noted where used), to at
 * least 4 significant digits.
 */
#include <math.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "test.h"
#include "../../analysis/analysis.h"

#define close_to(a, b) \
	assert_true(fabs((a) - (double)(b)) <= 1e-4 * fabs((double)(b)) + 1e-12)

/* scipy.stats.ttest_ind(x, y, equal_var=False): t = -1.8973665961,
 * p = 0.1075311949; df by hand: 2.5^2 / (0.5^2/4 + 2^2/4) = 5.88235. */
static void test_welch_known_pair(void **state)
{
	double x[] = { 1, 2, 3, 4, 5 }, y[] = { 2, 4, 6, 8, 10 };
	struct kab_welch w;

	kab_welch(x, 5, y, 5, &w);
	close_to(w.t, -1.8973665961010275);
	close_to(w.df, 5.882352941176471);
	close_to(w.p, 0.10753119493062718);
}

static void test_welch_edges(void **state)
{
	double a[] = { 5, 5, 5 }, b[] = { 5, 5, 5 }, c[] = { 6, 6, 6 };
	struct kab_welch w;

	kab_welch(a, 3, b, 3, &w);
	assert_true(w.p == 1);
	kab_welch(a, 3, c, 3, &w);
	assert_true(w.p == 0);
	kab_welch(a, 1, c, 3, &w);
	assert_true(isnan(w.p));
}

/*
 * Exact U for n = 3 against 4: C(7,3) = 35 equally likely rank sets.
 * x = {1,2,3} below all of y: U = 0, P(U <= 0) = 1/35, p = 2/35.
 * x = {1,2,4}: U = 1, P(U <= 1) = 2/35, p = 4/35.
 */
static void test_mwu_exact_small(void **state)
{
	double x1[] = { 1, 2, 3 }, y1[] = { 4, 5, 6, 7 };
	double x2[] = { 1, 2, 4 }, y2[] = { 3, 5, 6, 7 };
	double x3[] = { 1, 5, 6 }, y3[] = { 2, 3, 4, 7 };
	struct kab_mwu u;

	kab_mwu(x1, 3, y1, 4, &u);
	assert_true(u.exact);
	assert_true(u.u == 0);
	close_to(u.p, 2.0 / 35);
	kab_mwu(y1, 4, x1, 3, &u);	/* symmetric */
	close_to(u.p, 2.0 / 35);
	kab_mwu(x2, 3, y2, 4, &u);
	assert_true(u.u == 1);
	close_to(u.p, 4.0 / 35);
	/* U = 6 is the middle: two-sided p is capped at 1. */
	kab_mwu(x3, 3, y3, 4, &u);
	assert_true(u.u == 6);
	assert_true(u.p == 1);
}

/* The smallest p an exact test of n against n can give: 2 / C(2n, n). */
static void test_mwu_min_p(void **state)
{
	close_to(kab_mwu_min_p(3, 3), 2.0 / 20);
	close_to(kab_mwu_min_p(4, 4), 2.0 / 70);
	close_to(kab_mwu_min_p(5, 5), 2.0 / 252);
	/* closed form: no table, so any size is cheap */
	close_to(kab_mwu_min_p(3, 6), 2.0 / 84);
	assert_true(kab_mwu_min_p(250, 250) < 1e-100);
}

/* scipy.stats.mannwhitneyu(x, y, method='asymptotic', use_continuity=True):
 * U = 3, p = 0.09934224785. By hand: ranks of x are 1, 3, 3, 5.5. */
static void test_mwu_ties_normal(void **state)
{
	double x[] = { 1, 2, 2, 3 }, y[] = { 2, 3, 3, 4, 5 };
	struct kab_mwu u;

	kab_mwu(x, 4, y, 5, &u);
	assert_false(u.exact);
	assert_true(u.u == 3);
	close_to(u.p, 0.09934224785346528);
}

/* Beyond 50 per side the normal approximation is used even without ties. */
static void test_mwu_large_uses_normal(void **state)
{
	double x[60], y[60];
	struct kab_mwu u;
	int i;

	for (i = 0; i < 60; i++) {
		x[i] = i;
		y[i] = i + 0.5;
	}
	kab_mwu(x, 60, y, 60, &u);
	assert_false(u.exact);
	assert_true(u.p > 0.5);
	kab_mwu(x, 50, y, 50, &u);
	assert_true(u.exact);
}

/* By hand: sorted 0.005 0.01 0.03 0.04, m = 4 (NaN left out):
 * 0.04*4/4 = 0.04, 0.03*4/3 = 0.04, 0.01*4/2 = 0.02, 0.005*4/1 = 0.02. */
static void test_bh(void **state)
{
	double p[] = { 0.01, 0.04, 0.03, 0.005, NAN }, adj[5];

	kab_bh_adjust(p, 5, adj);
	close_to(adj[0], 0.02);
	close_to(adj[1], 0.04);
	close_to(adj[2], 0.04);
	close_to(adj[3], 0.02);
	assert_true(isnan(adj[4]));
}

/*
 * Where the running minimum matters: sorted 0.01 0.03 0.04 0.05 give
 * p*m/k = 0.04 0.06 0.0533 0.05, and BH takes the smallest from there
 * on: 0.04 0.05 0.05 0.05.  An adjusted p never exceeds that of a larger p.
 */
static void test_bh_monotone(void **state)
{
	double p[] = { 0.05, 0.03, 0.01, 0.04 }, adj[4];

	kab_bh_adjust(p, 4, adj);
	close_to(adj[0], 0.05);
	close_to(adj[1], 0.05);
	close_to(adj[2], 0.04);
	close_to(adj[3], 0.05);
}

/* scipy: t = 12.2474, and the interval from its t quantile: 8.181, 11.819. */
static void test_welch_ci(void **state)
{
	double x[] = { 100, 101, 99, 100, 102, 98 };
	double y[] = { 110, 111, 109, 110, 112, 108 };
	double c[] = { 7, 7, 7 }, d[] = { 14, 14, 14 };
	struct kab_welch w;
	double lo, hi;

	kab_welch(x, 6, y, 6, &w);
	close_to(w.diff, 10);
	close_to(w.p, 2.410624208814088e-07);
	kab_welch_ci(&w, 0.95, &lo, &hi);
	close_to(lo, 8.1807322455384);
	close_to(hi, 11.8192677544616);
	/* No spread: the interval is the difference itself. */
	kab_welch(c, 3, d, 3, &w);
	kab_welch_ci(&w, 0.95, &lo, &hi);
	close_to(lo, 7);
	close_to(hi, 7);
	/* One value a side: no interval. */
	kab_welch(c, 1, d, 1, &w);
	kab_welch_ci(&w, 0.95, &lo, &hi);
	assert_true(isnan(lo) && isnan(hi));
}

static void test_directions(void **state)
{
	assert_int_equal(kab_metric_direction("will-it-scale.per_process_ops"), 1);
	assert_int_equal(kab_metric_direction("will-it-scale.workload"), 1);
	assert_int_equal(kab_metric_direction("stress-ng.radixsort.ops_per_sec"), 1);
	/* stress-ng's bogo ops: more is better, as lkp reads them */
	assert_int_equal(kab_metric_direction("stress-ng.radixsort.ops"), 1);
	assert_int_equal(kab_metric_direction("will-it-scale.8.processes"), 1);
	assert_int_equal(kab_metric_direction("will-it-scale.8.threads"), 1);
	assert_int_equal(kab_metric_direction("will-it-scale.time.elapsed_time"), -1);
	assert_int_equal(kab_metric_direction("fio.read_latency_ns"), -1);
	assert_int_equal(kab_metric_direction("meminfo.AnonHugePages"), 0);
	assert_true(kab_metric_absolute("perf-profile.self.cycles-pp.x"));
	assert_true(kab_metric_absolute("perf-stat.i.branch-miss-rate%"));
	assert_false(kab_metric_absolute("perf-stat.i.ipc"));
	/* a row kab qualifies (a cost model's, :u, :k) is lkp's metric */
	assert_int_equal(kab_metric_direction(
		"will-it-scale.per_process_ops:spr"), 1);
	assert_int_equal(kab_metric_direction(
		"stress-ng.radixsort.ops_per_sec:cpl"), 1);
	assert_int_equal(kab_metric_direction(
		"will-it-scale.time.elapsed_time:spr"), -1);
	assert_int_equal(kab_metric_direction("perf-stat.overall.cpi:spr"), 0);
	assert_true(kab_metric_absolute(
		"perf-stat.overall.dTLB-load-miss-rate%:spr"));
	assert_false(kab_metric_absolute("perf-stat.total.instructions:u"));
	/* a colon inside lkp's own name is no qualifier */
	assert_int_equal(kab_metric_direction("x.ops:y.z"), 0);
	assert_true(kab_metric_absolute("sched_debug.cfs_rq:/.x%"));
}

/*
 * By hand: boots {1,2,3} and {4,5,6}: means 2 and 5, grand mean 3.5,
 * SSB = 3 * 1.5^2 * 2 = 13.5 over 1 df, SSW = 2 + 2 = 4 over 4 df,
 * F = 13.5; p = 0.0212 (scipy.stats.f_oneway agrees).
 */
static void test_anova(void **state)
{
	double v[] = { 1, 2, 3, 4, 5, 6 };
	int g[] = { 7, 7, 7, 9, 9, 9 };
	int one[] = { 1, 1, 1, 1, 1, 1 };
	int each[] = { 1, 2, 3, 4, 5, 6 };
	struct kab_anova a;

	kab_anova(v, g, 6, &a);
	assert_int_equal(a.groups, 2);
	close_to(a.ms_between, 13.5);
	close_to(a.ms_within, 1);
	close_to(a.f, 13.5);
	close_to(a.p, 0.021311641128756713);
	close_to(a.n0, 3);
	close_to(kab_anova_between_var(&a), 12.5 / 3);
	/* one boot: nothing between; a boot per sample: nothing within */
	kab_anova(v, one, 6, &a);
	assert_int_equal(a.groups, 1);
	assert_true(isnan(a.p) && isnan(a.f));
	assert_true(isnan(kab_anova_between_var(&a)));
	kab_anova(v, each, 6, &a);
	assert_int_equal(a.groups, 6);
	assert_true(isnan(a.p) && isnan(a.f));
}

/*
 * Boots of 2 and 4: {1,3} and {10,11,12,13}.  Means 2 and 11.5, grand
 * 8.333; SSB = 2 * 6.333^2 + 4 * 3.1667^2 = 120.333, SSW = 2 + 5 = 7
 * over 4 df.  n0 = (6 - (4 + 16) / 6) / 1 = 8/3, so the component is
 * (120.333 - 1.75) / (8/3) = 44.469, not (.. ) / 3 as for equal boots.
 */
static void test_anova_unequal_boots(void **state)
{
	double v[] = { 1, 3, 10, 11, 12, 13 };
	int g[] = { 0, 0, 1, 1, 1, 1 };
	struct kab_anova a;

	kab_anova(v, g, 6, &a);
	close_to(a.n0, 8.0 / 3);
	close_to(a.ms_between, 120.0 + 1.0 / 3);
	close_to(a.ms_within, 1.75);
	close_to(kab_anova_between_var(&a), (120.0 + 1.0 / 3 - 1.75) * 3 / 8);
}

/*
 * A profile with more changed rows than a table shows (10): which ten.
 * Simulated as kab's profile is: each iteration a binomial draw of its
 * samples (5000 an iteration, 4 iterations a boot, 3 boots a side) at a
 * share with a boot-to-boot effect.  Five rows carry the change: 20% to
 * 22% of the samples, steady from boot to boot (sd 0.1 points).  Ten
 * background threads move more, 0.5% to 4.5%, but erratically (sd 1
 * point a boot), just enough to be called.  By size the ten background
 * rows fill the table; by evidence the five that carry the change are
 * shown, in nearly every simulated table.
 */
#define PR_BOOTS 3
#define PR_ITERS 4
#define PR_N (PR_BOOTS * PR_ITERS)
#define PR_ROWS 16		/* 5 carry it, 10 background, the samples */

static void profile_side(gsl_rng *r, bool head, struct kab_series *s,
			 double (*v)[PR_N], int *g, char (*names)[48])
{
	size_t m, i, j;

	for (m = 0; m < PR_ROWS; m++) {
		bool ex = m < 5, samples = m == PR_ROWS - 1;

		if (samples)
			snprintf(names[m], 48, "perf-profile.samples");
		else
			snprintf(names[m], 48, "perf-profile.calltrace.%s%02zu",
				 ex ? "ex" : "bg", m);
		for (i = 0; i < PR_BOOTS; i++) {
			double p = ex ? (head ? 0.22 : 0.20) +
					gsl_ran_gaussian(r, 0.001) :
				   (head ? 0.045 : 0.005) +
					gsl_ran_gaussian(r, 0.01);

			p = fmin(fmax(p, 0.0005), 0.9);
			for (j = 0; j < PR_ITERS; j++) {
				size_t k = i * PR_ITERS + j;

				v[m][k] = samples ? 5000 : 100.0 *
					gsl_ran_binomial(r, p, 5000) / 5000;
				g[k] = (int)i;
			}
		}
		s[m] = (struct kab_series){ names[m], PR_N, v[m], g, 0 };
	}
	/* sorted by name, as a side's series are */
	for (m = 0; m + 1 < PR_ROWS; m++)
		for (i = m + 1; i < PR_ROWS; i++)
			if (strcmp(s[i].metric, s[m].metric) < 0) {
				struct kab_series t = s[m];

				s[m] = s[i];
				s[i] = t;
			}
}

static void test_profile_rows_by_evidence(void **state)
{
	static double vb[PR_ROWS][PR_N], vh[PR_ROWS][PR_N];
	static char nb[PR_ROWS][48], nh[PR_ROWS][48];
	struct kab_series bs[PR_ROWS], hs[PR_ROWS];
	int g[PR_N];
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	size_t t, m, all_five = 0, tables = 40, crowded = 0;

	gsl_rng_set(r, 36);
	for (t = 0; t < tables; t++) {
		struct kab_side base = { "a", "a", PR_ROWS, bs, NULL, 0, 0, NULL };
		struct kab_side head = { "b", "b", PR_ROWS, hs, NULL, 0, 0, NULL };
		struct kab_compare_opts o = { .test = KAB_TEST_WELCH,
					      .fdr = 0.05 };
		struct kab_comparison c;
		size_t ex = 0, sig = 0;

		profile_side(r, false, bs, vb, g, nb);
		profile_side(r, true, hs, vh, g, nh);
		assert_int_equal(kab_compare(&base, &head, 1, &o, &c), 0);
		for (m = 0; m < c.nr_rows; m++) {
			const struct kab_row *row = &c.rows[m];

			sig += row->cells[0].significant &&
			       strcmp(row->metric, "perf-profile.samples");
			ex += row->shown && strstr(row->metric, ".ex");
			/* the samples behind a share, as the test took it */
			if (strstr(row->metric, ".ex"))
				assert_true(row->cells[0].count_z > 3 &&
					    row->cells[0].count_z < 30);
		}
		crowded += sig > KAB_PROFILE_ROWS;
		all_five += ex == 5;
		kab_comparison_free(&c);
	}
	gsl_rng_free(r);
	/* the simulation is what it says: more rows called than shown */
	assert_true(crowded >= tables * 3 / 4);
	assert_true(all_five >= tables * 9 / 10);
}

/*
 * A cell's evidence by hand: 95% interval [1, 3] of a change of 2 is
 * 2 / ((3 - 1) / 2 / 1.96) = 3.92 standard errors from 0, capped by the
 * counting noise; nothing for a cell not significant or without an
 * interval, and no end for an interval of one point.
 */
static void test_cell_evidence(void **state)
{
	struct kab_cell c = { .significant = true, .ci_lo = 1, .ci_hi = 3,
			      .count_z = NAN };

	close_to(kab_cell_evidence(&c), 3.92);
	c.ci_lo = -3;
	c.ci_hi = -1;
	close_to(kab_cell_evidence(&c), 3.92);
	c.ci_lo = -1;
	c.ci_hi = 3;
	close_to(kab_cell_evidence(&c), 0.98);
	c.count_z = 0.5;
	close_to(kab_cell_evidence(&c), 0.5);
	c.count_z = 7;
	close_to(kab_cell_evidence(&c), 0.98);
	c.ci_lo = c.ci_hi = 2;
	assert_true(kab_cell_evidence(&c) == 7);
	c.count_z = NAN;
	assert_true(isinf(kab_cell_evidence(&c)));
	c.ci_lo = c.ci_hi = NAN;
	assert_true(kab_cell_evidence(&c) == 0);
	c.ci_lo = 1;
	c.ci_hi = 3;
	c.significant = false;
	assert_true(kab_cell_evidence(&c) == 0);
}

/* A share's two-proportion z over the samples behind it, by hand. */
static void test_profile_count_z(void **state)
{
	double sb[] = { 100, 100 }, sh[] = { 100, 100 };
	double xb[] = { 10, 10 }, xh[] = { 20, 20 }, z[] = { 0, 0 };
	int g[] = { 0, 1 };
	struct kab_series b[] = {
		{ "perf-profile.samples", 2, sb, g, 0 },
		{ "perf-profile.self.x", 2, xb, g, 0 },
		{ "perf-profile.self.z", 2, z, g, 0 },
	}, h[] = {
		{ "perf-profile.samples", 2, sh, g, 0 },
		{ "perf-profile.self.x", 2, xh, g, 0 },
		{ "perf-profile.self.z", 2, z, g, 0 },
	};
	struct kab_side base = { "a", "a", 3, b, NULL, 0, 0, NULL };
	struct kab_side head = { "b", "b", 3, h, NULL, 0, 0, NULL };
	struct kab_compare_opts o = { .test = KAB_TEST_WELCH, .fdr = 0.05,
				      .all = true };
	struct kab_comparison c;
	size_t m;

	assert_int_equal(kab_compare(&base, &head, 1, &o, &c), 0);
	for (m = 0; m < c.nr_rows; m++) {
		const struct kab_cell *x = &c.rows[m].cells[0];

		if (!strcmp(c.rows[m].metric, "perf-profile.self.z")) {
			/* no sample on either side: nothing moved */
			assert_true(x->count_z == 0);
			continue;
		}
		if (strcmp(c.rows[m].metric, "perf-profile.self.x")) {
			/* the samples themselves are no share */
			assert_true(isnan(x->count_z));
			continue;
		}
		/* 20 of 200 against 40 of 200: p 0.15 */
		close_to(x->count_z, 0.1 / sqrt(0.15 * 0.85 * 0.01));
	}
	kab_comparison_free(&c);
	/* without the samples there is nothing to count */
	base.series++;
	base.nr--;
	assert_int_equal(kab_compare(&base, &head, 1, &o, &c), 0);
	for (m = 0; m < c.nr_rows; m++)
		if (!strcmp(c.rows[m].metric, "perf-profile.self.x"))
			assert_true(isnan(c.rows[m].cells[0].count_z));
	kab_comparison_free(&c);
}

/*
 * Three boots a side and a 50% drop, tested on the log of the boot
 * means 100, 110, 105 against 50, 56, 53: scipy.stats.ttest_ind on the
 * logs gives t = 15.999, p = 0.0000892 (as many boots a side: pooled).
 */
static void test_compare_three_boots(void **state)
{
	double b[] = { 100, 100.1, 99.9, 110, 110.1, 109.9, 105, 105.1, 104.9 };
	double h[] = { 50, 50.1, 49.9, 56, 56.1, 55.9, 53, 53.1, 52.9 };
	int g[] = { 1, 1, 1, 2, 2, 2, 3, 3, 3 };
	struct kab_series bs = { "x.ops", 9, b, g, 0 }, hs = { "x.ops", 9, h, g, 0 };
	struct kab_side base = { "a", "a", 1, &bs, NULL, 0, 0, NULL }, head = { "b", "b", 1, &hs, NULL, 0, 0, NULL };
	struct kab_compare_opts o = { .test = KAB_TEST_WELCH, .fdr = 0.05 };
	struct kab_comparison c;
	struct kab_cell *cell;

	assert_int_equal(kab_compare(&base, &head, 1, &o, &c), 0);
	cell = &c.rows[0].cells[0];
	assert_int_equal(cell->units_base, 3);
	assert_int_equal(cell->units_head, 3);
	assert_true(cell->log_scale);
	assert_false(cell->few);
	/* boot means of 100.0, 110.0, 105.0 to rounding */
	assert_true(fabs(cell->p_welch - 8.924074297215796e-05) < 2e-6);
	assert_true(cell->significant);
	assert_int_equal(cell->verdict, -1);
	/* the interval of the ratio holds the change, both below 0 */
	assert_true(cell->ci_lo < cell->change && cell->change < cell->ci_hi);
	assert_true(cell->ci_hi < 0);
	kab_comparison_free(&c);
}

/*
 * CI runners as blocks.  Three runners whose speeds differ by up to 50%,
 * each measuring both kernels (2 boots of 3 iterations a side): the
 * test is on the within-runner differences.  A runner per kernel (the
 * old matrix) confounds the runner with the kernel: a 50% runner offset
 * was a "change"; now it is no verdict.
 */
static void fill_blocks(double *v, int *g, const char **blk, double shift,
			const double *offset, const double *jitter)
{
	static const char *const names[] = { "r1.db", "r2.db", "r3.db" };
	size_t k, j;

	for (k = 0; k < 6; k++) {
		blk[k] = names[k / 2];
		for (j = 0; j < 3; j++) {
			v[k * 3 + j] = 1000 * offset[k / 2] * (1 + shift) *
				       (1 + jitter[k]) * (1 + 0.002 * j);
			g[k * 3 + j] = (int)k;
		}
	}
}

/*
 * Exact mode's layout seeds pair the boots: 3 boots a side at seeds
 * 1-3, seed 3 costing 11% on both sides, a 1% drop.  Paired by seed
 * the drop is called with an interval about it; without the seeds (or
 * with no seed in common: each side at its own layouts) the same boots
 * are an unpaired comparison, uncalled, and never "confounded" as two
 * machines would be.  A layout-only difference (the same boots both
 * sides) is no change.
 */
static void test_compare_seeds(void **state)
{
	static const double layout[] = { 1.0, 1.002, 0.89 };
	static const char *const s123[] = { "#1", "#2", "#3" };
	static const char *const s456[] = { "#4", "#5", "#6" };
	double b[9], h[9];
	int g[9];
	struct kab_series bs = { "x.ops", 9, b, g, 0 }, hs = { "x.ops", 9, h, g, 0 };
	struct kab_side base = { "a", "a", 1, &bs, NULL, 3, 0, s123 };
	struct kab_side head = { "b", "b", 1, &hs, NULL, 3, 0, s123 };
	struct kab_compare_opts o = { .test = KAB_TEST_WELCH, .fdr = 0.05,
				      .noise = KAB_EXACT_RESOLUTION,
				      .floor = kab_exact_floor() };
	struct kab_comparison c;
	struct kab_cell *x;
	size_t k, j;

	for (k = 0; k < 3; k++)
		for (j = 0; j < 3; j++) {
			b[k * 3 + j] = 1000 * layout[k] * (1 + 0.0003 * j);
			h[k * 3 + j] = 990 * layout[k] * (1 + 0.0003 * j);
			g[k * 3 + j] = (int)k;
		}
	assert_int_equal(kab_compare(&base, &head, 1, &o, &c), 0);
	x = &c.rows[0].cells[0];
	assert_true(x->paired);
	assert_int_equal(x->blocks, 3);
	assert_true(x->significant);
	assert_int_equal(x->verdict, -1);
	assert_true(x->ci_lo < -1 && -1 < x->ci_hi && x->ci_lo > -1.5);
	assert_int_equal(c.paired_rows, 1);
	assert_int_equal(c.blocked_rows, 0);
	/* the spread a plan note works from: of the differences, floored */
	assert_true(x->unit_sd >= M_SQRT2 * kab_exact_floor() * 0.999);
	kab_comparison_free(&c);
	/*
	 * n pairs whose differences spread by sqrt(2) s are n against n
	 * boots of spread s, on half the degrees of freedom: less power
	 * with few, the same with many; and what a plan finds is what it
	 * has the power for.
	 */
	{
		double s = 0.01, d3 = kab_detectable_paired(3, M_SQRT2 * s,
							     0.04, 0.8);

		assert_true(kab_power_paired(3, 0.03, M_SQRT2 * s, 0.05) <
			    kab_power_t(3, 0.03, s, 0.05) - 0.05);
		assert_true(fabs(kab_power_paired(400, 0.003, M_SQRT2 * s,
						  0.05) -
				 kab_power_t(400, 0.003, s, 0.05)) < 0.01);
		assert_true(d3 > kab_detectable(3, s, 0.04, 0.8));
		assert_true(fabs(kab_power_paired(3, d3, M_SQRT2 * s, 0.04) -
				 0.8) < 1e-4);
	}
	/* no seed in common, or none at all: unpaired, not confounded */
	for (k = 0; k < 2; k++) {
		head.pair = k ? NULL : s456;
		assert_int_equal(kab_compare(&base, &head, 1, &o, &c), 0);
		x = &c.rows[0].cells[0];
		assert_false(x->paired);
		assert_false(x->confounded);
		assert_false(x->significant);
		assert_true(x->ci_hi - x->ci_lo > 10);
		kab_comparison_free(&c);
	}
	/* two seeds are pairs too, on one degree of freedom */
	bs.n = hs.n = 6;
	base.nr_boots = head.nr_boots = 2;
	head.pair = s123;
	assert_int_equal(kab_compare(&base, &head, 1, &o, &c), 0);
	x = &c.rows[0].cells[0];
	assert_true(x->paired);
	assert_int_equal(x->blocks, 2);
	kab_comparison_free(&c);
	bs.n = hs.n = 9;
	base.nr_boots = head.nr_boots = 3;
	/* the same layouts on both sides: no change */
	memcpy(h, b, sizeof(b));
	assert_int_equal(kab_compare(&base, &head, 1, &o, &c), 0);
	assert_false(c.rows[0].cells[0].significant);
	kab_comparison_free(&c);
}

/*
 * Exact data (QEMU icount): boot means that repeat to the last digit.
 * Without a floor the t-test is degenerate, p = 0 for any difference;
 * with exact mode's floor two sides the same are no change (p = 1), a
 * difference far beyond the 0.5% resolution is decided with 2 boots a
 * side, and one inside it is no change.  Iterations differ within a
 * boot (the first is colder), as they do under icount.
 */
static void exact_side(double *v, int *g, double mean)
{
	size_t k;

	for (k = 0; k < 6; k++) {
		v[k] = mean * (k % 3 ? 0.995 : 1.004);
		g[k] = (int)(k / 3);
	}
}

static void test_compare_exact(void **state)
{
	double b[6], h[6], lo, hi;
	int gb[6], gh[6];
	struct kab_series bs = { "x.ops", 6, b, gb, 0 }, hs = { "x.ops", 6, h, gh, 0 };
	struct kab_side base = { "a", "a", 1, &bs, NULL, 0, 0, NULL };
	struct kab_side head = { "b", "b", 1, &hs, NULL, 0, 0, NULL };
	struct kab_compare_opts o = { .test = KAB_TEST_WELCH, .fdr = 0.05,
				      .noise = KAB_EXACT_RESOLUTION,
				      .floor = kab_exact_floor() };
	struct kab_comparison c;
	struct kab_cell *x;
	struct kab_welch w;
	double same[] = { 449, 449 }, far[] = { 23000, 23000 };
	const char *kpi = "x.ops";
	size_t k;

	/* the floor: 0.5% is exactly the 5% two-sided t of 2 + 2 boots */
	close_to(kab_exact_floor(), log(1.005) / 4.302652729749464);
	/* degenerate without it, finite with it */
	kab_ttest(same, 2, far, 2, 0, &w);
	assert_true(w.p == 0);
	kab_ttest(same, 2, far, 2, 1e-3 * 449, &w);
	assert_true(w.p > 0 && w.p < 0.01);
	kab_ttest(same, 2, same, 2, 1e-3 * 449, &w);
	assert_true(w.p == 1);

	/* the same kernel twice: no change, and a verdict (not "few") */
	exact_side(b, gb, 449);
	exact_side(h, gh, 449);
	assert_int_equal(kab_compare(&base, &head, 1, &o, &c), 0);
	x = &c.rows[0].cells[0];
	assert_false(x->few);
	assert_false(x->significant);
	close_to(x->p_welch, 1);
	kab_comparison_free(&c);

	/* 51 times faster: decided with 2 boots, the interval around it */
	exact_side(h, gh, 23000);
	assert_int_equal(kab_compare(&base, &head, 1, &o, &c), 0);
	x = &c.rows[0].cells[0];
	assert_true(x->significant);
	assert_int_equal(x->verdict, 1);
	assert_true(x->p_welch > 0 && x->p_welch < 1e-4);
	lo = x->ci_lo;
	hi = x->ci_hi;
	assert_true(lo < x->change && x->change < hi);
	kab_comparison_free(&c);

	/* 2% is beyond the resolution: called */
	exact_side(h, gh, 449 * 1.02);
	assert_int_equal(kab_compare(&base, &head, 1, &o, &c), 0);
	assert_true(c.rows[0].cells[0].significant);
	kab_comparison_free(&c);

	/* 0.3% is inside it: no change, though it repeats exactly */
	exact_side(h, gh, 449 * 1.003);
	assert_int_equal(kab_compare(&base, &head, 1, &o, &c), 0);
	x = &c.rows[0].cells[0];
	assert_false(x->significant);
	assert_true(x->p_welch > 0.05);
	kab_comparison_free(&c);

	/*
	 * A row that is not the KPI takes its iterations' spread as a floor
	 * too: a profile's share that is 1% or 1.5% by iteration, alike in
	 * every boot, moved by a tenth is not called; as the KPI it is.
	 */
	for (k = 0; k < 6; k++) {
		b[k] = k % 3 ? 1.0 : 1.5;
		h[k] = 1.1 * b[k];
	}
	assert_int_equal(kab_compare(&base, &head, 1, &o, &c), 0);
	assert_false(c.rows[0].cells[0].significant);
	kab_comparison_free(&c);
	o.kpi = &kpi;
	o.nr_kpi = 1;
	assert_int_equal(kab_compare(&base, &head, 1, &o, &c), 0);
	assert_true(c.rows[0].cells[0].significant);
	kab_comparison_free(&c);
	o.kpi = NULL;
	o.nr_kpi = 0;

	/* real spread above the floor is the spread the test uses */
	exact_side(b, gb, 449);
	exact_side(h, gh, 449 * 1.02);
	h[3] = h[4] = h[5] = 449 * 1.10;
	assert_int_equal(kab_compare(&base, &head, 1, &o, &c), 0);
	assert_false(c.rows[0].cells[0].significant);
	kab_comparison_free(&c);
}

static void test_compare_blocks(void **state)
{
	static const double offset[] = { 1.0, 1.5, 0.7 };
	static const double jb[] = { 0.01, -0.01, 0.005, -0.004, 0.0, 0.012 };
	static const double jh[] = { -0.006, 0.008, 0.01, -0.01, 0.004, -0.002 };
	static const double flat[] = { 1.0, 1.0, 1.0 };
	static const double slow[] = { 1.5, 1.5, 1.5 };
	double b[18], h[18];
	int gb[18], gh[18];
	const char *bb[6], *hb[6];
	struct kab_series bs = { "x.ops", 18, b, gb, 0 }, hs = { "x.ops", 18, h, gh, 0 };
	struct kab_side base = { "a", "a", 1, &bs, bb, 6, 0, NULL };
	struct kab_side head = { "b", "b", 1, &hs, hb, 6, 0, NULL };
	struct kab_compare_opts o = { .test = KAB_TEST_WELCH, .fdr = 0.05,
				      .noise = 1 };
	struct kab_comparison c;
	struct kab_cell *x;
	size_t k;

	/* every runner measures both: a 10% drop is called, offsets or not */
	fill_blocks(b, gb, bb, 0, offset, jb);
	fill_blocks(h, gh, hb, -0.10, offset, jh);
	assert_int_equal(kab_compare(&base, &head, 1, &o, &c), 0);
	x = &c.rows[0].cells[0];
	assert_int_equal(x->blocks, 3);
	assert_false(x->confounded);
	assert_true(x->significant);
	assert_int_equal(x->verdict, -1);
	assert_true(x->ci_lo < -10 && -10 < x->ci_hi);
	assert_int_equal(c.blocked_rows, 1);
	kab_comparison_free(&c);
	/* and no change is no verdict */
	fill_blocks(h, gh, hb, 0, offset, jh);
	assert_int_equal(kab_compare(&base, &head, 1, &o, &c), 0);
	x = &c.rows[0].cells[0];
	assert_int_equal(x->blocks, 3);
	assert_false(x->significant);
	kab_comparison_free(&c);

	/* a runner a kernel, the head's runner 50% faster, no change */
	fill_blocks(b, gb, bb, 0, flat, jb);
	fill_blocks(h, gh, hb, 0, slow, jh);
	for (k = 0; k < 6; k++) {
		bb[k] = "base-cell.db";
		hb[k] = "head-cell.db";
	}
	assert_int_equal(kab_compare(&base, &head, 1, &o, &c), 0);
	x = &c.rows[0].cells[0];
	assert_true(x->confounded);
	assert_false(x->significant);
	assert_int_equal(c.confounded_rows, 1);
	assert_int_equal(c.few_rows, 0);
	kab_comparison_free(&c);
	/* what that design called before blocks were known: +50% */
	base.block = head.block = NULL;
	assert_int_equal(kab_compare(&base, &head, 1, &o, &c), 0);
	x = &c.rows[0].cells[0];
	assert_true(x->significant);
	assert_true(x->change > 45);
	kab_comparison_free(&c);
}

/*
 * A bisected commit's boot means against good {100..105} and bad
 * {50..55} (six boots each): on one side of halfway (73.4, the
 * geometric middle) by more than the boots' spread, it is like that
 * side; at halfway it is neither (and gets more boots).  One boot is
 * enough when the endpoints' boots show how little a boot varies, not
 * when every group has a single boot.
 */
static void test_classify(void **state)
{
	double good[] = { 100, 101, 102, 103, 104, 105 };
	double bad[] = { 50, 51, 52, 53, 54, 55 };
	double g[] = { 99, 102, 104 }, b[] = { 49, 53, 56 };
	double mid[] = { 72.5, 73.4, 74.3 }, one[] = { 101 };
	double drift[] = { 92, 93, 94 }, g1[] = { 102 }, b1[] = { 52 };
	struct kab_classify c;

	kab_classify(g, 3, good, 6, bad, 6, 0.05, 0, &c);
	assert_int_equal(c.like, KAB_LIKE_GOOD);
	assert_true(c.log_scale);
	/* the geometric mean of the boots */
	close_to(c.mean, cbrt(99.0 * 102 * 104));
	assert_true(c.p_bad < 1e-6 && c.p_good > 0.99);
	kab_classify(b, 3, good, 6, bad, 6, 0.05, 0, &c);
	assert_int_equal(c.like, KAB_LIKE_BAD);
	assert_true(c.position > 0.9);
	kab_classify(mid, 3, good, 6, bad, 6, 0.05, 0, &c);
	assert_int_equal(c.like, KAB_LIKE_NEITHER);
	assert_true(fabs(c.position - 0.5) < 0.02);
	/* one boot: the endpoints' boots give the spread */
	kab_classify(one, 1, good, 6, bad, 6, 0.05, 0, &c);
	assert_int_equal(c.like, KAB_LIKE_GOOD);
	/* one boot everywhere: no spread known, no verdict */
	kab_classify(one, 1, g1, 1, b1, 1, 0.05, 0, &c);
	assert_int_equal(c.like, KAB_LIKE_NEITHER);
	/* below good but far nearer to it than to bad: good */
	kab_classify(drift, 3, good, 6, bad, 6, 0.05, 0, &c);
	assert_int_equal(c.like, KAB_LIKE_GOOD);
	/* endpoints that do not differ decide nothing */
	kab_classify(g, 3, good, 6, good, 6, 0.05, 0, &c);
	assert_int_equal(c.like, KAB_LIKE_NEITHER);
	/* a lower alpha (a later look's share) asks for more */
	kab_classify(drift, 1, good, 6, bad, 6, 1e-12, 0, &c);
	assert_int_equal(c.like, KAB_LIKE_NEITHER);
	/*
	 * Exact data (every boot of a group alike): a commit 0.1% past
	 * halfway is within exact mode's resolution, a relative floor on
	 * the log scale: neither, not a verdict from a spread of zero.
	 */
	{
		double eg[] = { 100, 100, 100 }, eb[] = { 200, 200, 200 };
		double ex[3];
		int i;

		for (i = 0; i < 3; i++)
			ex[i] = sqrt(100.0 * 200) * 1.001;
		kab_classify(ex, 3, eg, 3, eb, 3, 0.05, 0, &c);
		assert_int_equal(c.like, KAB_LIKE_BAD);
		kab_classify(ex, 3, eg, 3, eb, 3, 0.05, kab_exact_floor(),
			     &c);
		assert_true(c.log_scale);
		assert_int_equal(c.like, KAB_LIKE_NEITHER);
		assert_true(c.p_good > 0.05 && c.p_good < 0.5);
		/* 10% past halfway is beyond it: bad */
		for (i = 0; i < 3; i++)
			ex[i] = sqrt(100.0 * 200) * 1.1;
		kab_classify(ex, 3, eg, 3, eb, 3, 0.05, kab_exact_floor(),
			     &c);
		assert_int_equal(c.like, KAB_LIKE_BAD);
	}
}

/*
 * Alpha spent over looks: Pocock's type, all of it by the last look,
 * the looks' shares summing to alpha; a look's verdicts.
 */
/*
 * A KPI cell takes its look's verdict and interval; the interval is of
 * the ratio, so a row whose change is in points (absolute) or over a
 * base of 0 shows none, either end.
 */
static void test_sequential_cell(void **state)
{
	struct kab_seq q = { .verdict = KAB_SEQ_CHANGED, .change = -20,
			     .lo = -25, .hi = -15 };
	struct kab_row r = { .metric = "will-it-scale.per_process_ops" };
	struct kab_cell c;
	int kind;

	(void)state;
	for (kind = 0; kind < 3; kind++) {
		memset(&c, 0, sizeof(c));
		c.absolute = kind == 1;
		c.zero_base = kind == 2;
		kab_cell_sequential(&r, &c, &q);
		assert_true(c.sequential && c.significant);
		/* fewer ops: worse */
		assert_int_equal(c.verdict, -1);
		if (!kind) {
			assert_true(c.ci_lo == -25 && c.ci_hi == -15);
		} else {
			assert_true(isnan(c.ci_lo));
			assert_true(isnan(c.ci_hi));
		}
	}
}

static void test_sequential(void **state)
{
	double a[] = { 100, 102, 98 }, same[] = { 101, 99, 100 };
	double down[] = { 50, 51, 49 };
	double sum = 0;
	struct kab_seq q;
	size_t k;

	close_to(kab_spent(0.05, 1), 0.05);
	assert_true(kab_spent(0.05, 0) == 0);
	close_to(kab_spent(0.05, 0.5), 0.05 * log(1 + (M_E - 1) / 2));
	for (k = 1; k <= 7; k++) {
		assert_true(kab_look_alpha(0.05, k, 7) > 0);
		sum += kab_look_alpha(0.05, k, 7);
	}
	close_to(sum, 0.05);
	assert_true(kab_look_alpha(0.05, 8, 7) == 0);
	/* a halving is a change beyond any small noise */
	kab_seq_look(a, 3, down, 3, 1, 0, 1, 3, 0.05, &q);
	assert_int_equal(q.verdict, KAB_SEQ_CHANGED);
	assert_true(q.log_scale);
	assert_true(q.change < -49 && q.change > -51);
	assert_true(q.hi < -1);
	close_to(q.alpha, kab_look_alpha(0.05, 1, 3));
	/* the same within a 10% margin: equivalent */
	kab_seq_look(a, 3, same, 3, 10, 0, 1, 3, 0.05, &q);
	assert_int_equal(q.verdict, KAB_SEQ_SAME);
	assert_true(q.eq_lo > -10 && q.eq_hi < 10);
	/* equivalence is two one-sided tests: the (1 - 2a) interval */
	assert_true(q.eq_lo > q.lo && q.eq_hi < q.hi);
	/*
	 * Paired by layout seed: a side that moves with its seed, the
	 * other 0.1% above it at each, is equivalent within 0.5%; 20%
	 * below at each is a change; unpaired, the seeds' spread hides
	 * both.
	 */
	{
		double x[] = { 100, 89, 101.5 }, e[3], d[3];
		int i;

		for (i = 0; i < 3; i++) {
			e[i] = x[i] * 1.001;
			d[i] = x[i] * 0.8;
		}
		/* a look starts from nothing of the last one */
		memset(&q, 0xff, sizeof(q));
		kab_seq_look_paired(x, e, 3, 0.5, kab_exact_floor(), 1, 1,
				    0.05, &q);
		assert_int_equal(q.verdict, KAB_SEQ_SAME);
		close_to(q.alpha, 0.05);
		assert_true(q.change > 0.09 && q.change < 0.11);
		kab_seq_look_paired(x, d, 3, 0.5, kab_exact_floor(), 1, 1,
				    0.05, &q);
		assert_int_equal(q.verdict, KAB_SEQ_CHANGED);
		assert_true(q.lo < -19 && q.hi > -21 && q.hi < -19);
		kab_seq_look(x, 3, e, 3, 0.5, kab_exact_floor(), 1, 1, 0.05,
			     &q);
		assert_int_equal(q.verdict, KAB_SEQ_UNDECIDED);
		/* two pairs are a test, on one degree of freedom */
		kab_seq_look_paired(x, d, 2, 0.5, kab_exact_floor(), 1, 1,
				    0.05, &q);
		assert_int_equal(q.verdict, KAB_SEQ_CHANGED);
		/* fewer than 2 pairs: no test */
		kab_seq_look_paired(x, d, 1, 0.5, kab_exact_floor(), 1, 1,
				    0.05, &q);
		assert_int_equal(q.verdict, KAB_SEQ_UNDECIDED);
	}
	/* no margin: never equivalent; not the last look: more */
	kab_seq_look(a, 3, same, 3, 0, 0, 1, 3, 0.05, &q);
	assert_int_equal(q.verdict, KAB_SEQ_MORE);
	kab_seq_look(a, 3, same, 3, 0, 0, 3, 3, 0.05, &q);
	assert_int_equal(q.verdict, KAB_SEQ_UNDECIDED);
	/* one boot a side cannot be tested */
	kab_seq_look(a, 1, down, 1, 1, 0, 1, 1, 0.05, &q);
	assert_int_equal(q.verdict, KAB_SEQ_UNDECIDED);
	assert_true(isnan(q.change));
}

/*
 * The boot is the unit whatever ANOVA says: six iterations in two
 * boots a side are two samples, not six; one boot a side is no verdict.
 */
static void test_compare_boot_is_unit(void **state)
{
	double b[] = { 100, 100.1, 99.9, 110, 110.1, 109.9 };
	double h[] = { 101, 101.1, 100.9, 111, 111.1, 110.9 };
	int g[] = { 1, 1, 1, 2, 2, 2 }, one[] = { 1, 1, 1, 1, 1, 1 };
	struct kab_series bs = { "x.ops", 6, b, g, 0 }, hs = { "x.ops", 6, h, g, 0 };
	struct kab_series bs1 = { "x.ops", 6, b, one, 0 };
	struct kab_series hs2 = { "x.ops", 6, h, NULL, 0 };
	struct kab_side base = { "a", "a", 1, &bs, NULL, 0, 0, NULL }, head = { "b", "b", 1, &hs, NULL, 0, 0, NULL };
	struct kab_side base1 = { "a", "a", 1, &bs1, NULL, 0, 0, NULL };
	struct kab_side head2 = { "b", "b", 1, &hs2, NULL, 0, 0, NULL };
	struct kab_compare_opts o = { .test = KAB_TEST_WELCH, .fdr = 0.05 };
	struct kab_comparison c;

	assert_int_equal(kab_compare(&base, &head, 1, &o, &c), 0);
	assert_int_equal(c.rows[0].cells[0].units_base, 2);
	assert_false(c.rows[0].cells[0].few);
	/* per sample, Welch would call this +1% (p < 1e-6) */
	assert_true(c.rows[0].cells[0].p_welch > 0.5);
	assert_false(c.rows[0].cells[0].significant);
	kab_comparison_free(&c);
	/* one boot of the base: no verdict, and the row says why */
	assert_int_equal(kab_compare(&base1, &head, 1, &o, &c), 0);
	assert_true(c.rows[0].cells[0].few);
	assert_int_equal(c.few_rows, 1);
	assert_true(isnan(c.rows[0].cells[0].p_adj));
	kab_comparison_free(&c);
	/* without boot information every sample is its own unit */
	assert_int_equal(kab_compare(&base, &head2, 1, &o, &c), 0);
	assert_int_equal(c.rows[0].cells[0].units_head, 6);
	kab_comparison_free(&c);
}

/* A series of SIDE's boots: boot k has iterations at means[k] +- 1%. */
static void boots_of(const double *means, size_t k, size_t iters, double *v,
		     int *g)
{
	size_t i, j;

	for (i = 0; i < k; i++)
		for (j = 0; j < iters; j++) {
			v[i * iters + j] = means[i] * (1 + 0.01 * ((double)j /
						       (iters - 1) - 0.5));
			g[i * iters + j] = (int)i;
		}
}

/* Three boot means of 1000 ops at log offsets l. */
static void three_boots(const double *l, double *v)
{
	size_t i;

	for (i = 0; i < 3; i++)
		v[i] = 1000 * exp(l[i]);
}

/*
 * The level of each family: a KPI and one other row, the same boots
 * (3 a side, 3% apart: p = 0.021 on the log scale).  The KPI is tested
 * at 4% of the table's 5% and is called; the other row at 1% is not; a
 * table of the KPI alone, or of other rows alone, has the whole 5%.
 */
static void test_family_levels(void **state)
{
	static const double lb[] = { 0, 0.01, 0.02 }, lh[] = { 0.03, 0.04,
							       0.05 };
	const char *kpi = "sim.kpi";
	double vb[3], vh[3];
	int g[3] = { 0, 1, 2 };
	struct kab_series bs[2], hs[2];
	struct kab_side sb, sh;
	struct kab_compare_opts o = { .test = KAB_TEST_WELCH, .fdr = 0.05,
				      .noise = 1, .kpi = &kpi, .nr_kpi = 1 };
	struct kab_comparison c;
	size_t i;

	three_boots(lb, vb);
	three_boots(lh, vh);
	bs[0] = (struct kab_series){ "a.other", 3, vb, g, 0 };
	bs[1] = (struct kab_series){ kpi, 3, vb, g, 0 };
	hs[0] = (struct kab_series){ "a.other", 3, vh, g, 0 };
	hs[1] = (struct kab_series){ kpi, 3, vh, g, 0 };
	sb = (struct kab_side){ "base", "base", 2, bs, NULL, 0, 0, NULL };
	sh = (struct kab_side){ "head", "head", 2, hs, NULL, 0, 0, NULL };
	assert_int_equal(kab_compare(&sb, &sh, 1, &o, &c), 0);
	assert_int_equal(c.nr_rows, 2);
	assert_true(fabs(kab_family_level(&c, true) - 0.04) < 1e-12);
	assert_true(fabs(kab_family_level(&c, false) - 0.01) < 1e-12);
	for (i = 0; i < 2; i++) {
		const struct kab_row *r = &c.rows[i];

		assert_true(r->cells[0].p_adj > 0.01 &&
			    r->cells[0].p_adj < 0.04);
		assert_int_equal(r->cells[0].significant, r->kpi);
	}
	kab_comparison_free(&c);
	/* one family: all of it */
	sb.nr = sh.nr = 1;
	assert_int_equal(kab_compare(&sb, &sh, 1, &o, &c), 0);
	assert_false(c.rows[0].kpi);
	assert_true(fabs(kab_family_level(&c, false) - 0.05) < 1e-12);
	assert_true(c.rows[0].cells[0].significant);
	kab_comparison_free(&c);
	sb.series = bs + 1;
	sh.series = hs + 1;
	assert_int_equal(kab_compare(&sb, &sh, 1, &o, &c), 0);
	assert_true(c.rows[0].kpi);
	assert_true(fabs(kab_family_level(&c, true) - 0.05) < 1e-12);
	kab_comparison_free(&c);
}

/*
 * The KPIs of the tables of one kab compare (its parameter sets) are
 * one family: a KPI called at p = 0.037 alone is not when another
 * table's KPI did not move (Benjamini-Hochberg over both: 0.074).
 */
static void test_kpis_across_tables(void **state)
{
	static const double lb[] = { 0, 0.01, 0.02 }, lh[] = { 0.025, 0.035,
							       0.045 };
	const char *kpi = "sim.kpi";
	double vb[3], vh[3];
	int g[3] = { 0, 1, 2 };
	struct kab_series bs = { kpi, 3, vb, g, 0 }, hs = { kpi, 3, vh, g, 0 };
	struct kab_side sb = { "base", "base", 1, &bs, NULL, 0, 0, NULL };
	struct kab_side sh = { "head", "head", 1, &hs, NULL, 0, 0, NULL };
	struct kab_compare_opts o = { .test = KAB_TEST_WELCH, .fdr = 0.05,
				      .noise = 1, .kpi = &kpi, .nr_kpi = 1 };
	struct kab_comparison c[2], *cs[2] = { &c[0], &c[1] };
	double p;

	(void)state;
	three_boots(lb, vb);
	three_boots(lh, vh);
	assert_int_equal(kab_compare(&sb, &sh, 1, &o, &c[0]), 0);
	assert_int_equal(kab_compare(&sb, &sb, 1, &o, &c[1]), 0);
	p = c[0].rows[0].cells[0].p_adj;
	assert_true(p > 0.025 && p < 0.05);
	assert_true(c[0].rows[0].cells[0].significant);
	kab_compare_kpis(cs, 2);
	assert_true(fabs(c[0].rows[0].cells[0].p_adj - 2 * p) < 1e-12);
	assert_false(c[0].rows[0].cells[0].significant);
	assert_false(c[1].rows[0].cells[0].significant);
	kab_comparison_free(&c[0]);
	kab_comparison_free(&c[1]);
}

/*
 * The demo database's own numbers: malloc1's boots under TCG averaged
 * 2,437, 4,528 and 4,728 ops/s on base, 124, 133 and 128 on align (a
 * regression every boot shows), 2,856, 4,269 and 3,680 on fix (no
 * change: the boots of base differ as much).  The KPI is judged on its
 * own, whatever 300 other rows do.
 */
static void test_compare_demo_kpi(void **state)
{
	static const double base[] = { 2437, 4528, 4728 };
	static const double align[] = { 124, 133, 128 };
	static const double fix[] = { 2856, 4269, 3680 };
	const char *kpi = "will-it-scale.per_process_ops";
	enum { ROWS = 300, IT = 4 };
	struct kab_series *bs = calloc(ROWS, sizeof(*bs));
	struct kab_series *hs = calloc(ROWS, sizeof(*hs));
	struct kab_series *fs = calloc(ROWS, sizeof(*fs));
	double v[3][3 * IT];
	int g[3 * IT];
	struct kab_side sb, sh[2];
	struct kab_compare_opts o = { .test = KAB_TEST_WELCH, .fdr = 0.05,
				      .noise = 1, .kpi = &kpi, .nr_kpi = 1 };
	struct kab_comparison c;
	const struct kab_row *row = NULL;
	size_t i;

	boots_of(base, 3, IT, v[0], g);
	boots_of(align, 3, IT, v[1], g);
	boots_of(fix, 3, IT, v[2], g);
	/* 299 unchanged rows "a.NNN", then the KPI ("w..." sorts last) */
	for (i = 0; i < ROWS - 1; i++) {
		char *name = malloc(16);

		snprintf(name, 16, "a.%03zu", i);
		bs[i] = (struct kab_series){ name, 3 * IT, v[0], g, 0 };
		hs[i] = (struct kab_series){ name, 3 * IT, v[0], g, 0 };
		fs[i] = (struct kab_series){ name, 3 * IT, v[0], g, 0 };
	}
	bs[ROWS - 1] = (struct kab_series){ kpi, 3 * IT, v[0], g, 0 };
	hs[ROWS - 1] = (struct kab_series){ kpi, 3 * IT, v[1], g, 0 };
	fs[ROWS - 1] = (struct kab_series){ kpi, 3 * IT, v[2], g, 0 };
	sb = (struct kab_side){ "base", "base", ROWS, bs, NULL, 0, 0, NULL };
	sh[0] = (struct kab_side){ "align", "align", ROWS, hs, NULL, 0, 0, NULL };
	sh[1] = (struct kab_side){ "fix", "fix", ROWS, fs, NULL, 0, 0, NULL };
	assert_int_equal(kab_compare(&sb, sh, 2, &o, &c), 0);
	for (i = 0; i < c.nr_rows; i++)
		if (!strcmp(c.rows[i].metric, kpi))
			row = &c.rows[i];
	assert_non_null(row);
	assert_true(row->kpi && row->shown);
	/* KPIs first in the table */
	assert_ptr_equal(row, &c.rows[0]);
	/*
	 * scipy on the log boot means: p = 0.0000966; the family is the
	 * KPI's cells of both heads: BH doubles the smaller p
	 */
	assert_true(fabs(row->cells[0].p_adj - 2 * 9.661430625147094e-05) <
		    5e-6);
	assert_true(row->cells[0].significant);
	assert_int_equal(row->cells[0].verdict, -1);
	/* fix: p = 0.847 */
	assert_true(fabs(row->cells[1].p_adj - 0.8468843543448585) < 0.01);
	assert_false(row->cells[1].significant);
	/* the other 299 rows do not count against the KPI */
	assert_int_equal(c.nr_rows, ROWS);
	kab_comparison_free(&c);
	for (i = 0; i < ROWS - 1; i++)
		free((char *)bs[i].metric);
	free(bs);
	free(hs);
	free(fs);
}

/*
 * No magnitude floor under a statistical test: a counter at 0 in every
 * base boot and near 500 in every head boot is a finding (lkp's floor
 * of 1000 would hide it; it stays under --test lkp).  Its change is
 * absolute and it is tested on the linear scale.
 */
static void test_compare_no_floor(void **state)
{
	static const double zero[] = { 0, 0, 0 }, some[] = { 435, 579, 500 };
	double b[9], h[9];
	int g[9];
	struct kab_series bs = { "proc-vmstat.thp_fault_alloc", 9, b, g, 0 };
	struct kab_series hs = { "proc-vmstat.thp_fault_alloc", 9, h, g, 0 };
	struct kab_side base = { "a", "a", 1, &bs, NULL, 0, 0, NULL }, head = { "b", "b", 1, &hs, NULL, 0, 0, NULL };
	struct kab_compare_opts o = { .test = KAB_TEST_WELCH, .fdr = 0.05,
				      .noise = 1 };
	struct kab_comparison c;

	boots_of(zero, 3, 3, b, g);
	boots_of(some, 3, 3, h, g);
	assert_int_equal(kab_compare(&base, &head, 1, &o, &c), 0);
	assert_false(c.rows[0].cells[0].log_scale);
	assert_true(c.rows[0].cells[0].zero_base);
	/* scipy: p = 0.000266 */
	assert_true(fabs(c.rows[0].cells[0].p_welch - 0.0002657659970490275) <
		    1e-5);
	assert_true(c.rows[0].cells[0].significant);
	assert_true(c.rows[0].shown);
	kab_comparison_free(&c);
	o.test = KAB_TEST_LKP;
	assert_int_equal(kab_compare(&base, &head, 1, &o, &c), 0);
	assert_false(c.rows[0].cells[0].significant);
	kab_comparison_free(&c);
}

/* The t-test's power against scipy.stats.nct (1 - F(tc) + F(-tc)). */
static void test_power_t(void **state)
{
	assert_true(fabs(kab_power_t(2, 1.0, 0.5, 0.05) -
			 0.2183070748335691) < 1e-6);
	assert_true(fabs(kab_power_t(5, 0.1, 0.1, 0.05) -
			 0.2862954934262777) < 1e-6);
	assert_true(fabs(kab_power_t(10, 0.05, 0.06, 0.05) -
			 0.4223914950186957) < 1e-6);
	assert_true(fabs(kab_power_t(30, 0.02, 0.05, 0.05) -
			 0.3315216793191391) < 1e-6);
	/* no change: the test's level */
	assert_true(fabs(kab_power_t(10, 0, 1, 0.05) - 0.05) < 1e-6);
	assert_true(isnan(kab_power_t(1, 1, 1, 0.05)));
}

/*
 * Boots varying by 10%, iterations by 4%, a boot costing 8 s and an
 * iteration 3 s: r* = sqrt(8 * 0.04^2 / (3 * 0.1^2)) = 0.65, so one
 * iteration a boot; then (scipy) 22 boots a side detect 10% with power
 * 0.818.  Free boots or noiseless boots push r* to its bounds.
 */
static void test_plan(void **state)
{
	struct kab_plan_in in = { .within_var = 0.04 * 0.04,
				  .between_var = 0.1 * 0.1, .boot_cost = 8,
				  .iter_cost = 3, .delta = log1p(0.10),
				  .alpha = 0.05, .power = 0.8 };
	struct kab_plan_out out;

	assert_int_equal(kab_plan(&in, &out), 0);
	assert_int_equal(out.iters, 1);
	assert_int_equal(out.boots, 22);
	assert_true(fabs(out.power - 0.8178796365916313) < 1e-5);
	close_to(out.seconds, 22 * (8 + 3));
	/* costly boots and calm ones: many iterations a boot */
	in.boot_cost = 300;
	in.between_var = 0.001 * 0.001;
	assert_int_equal(kab_plan(&in, &out), 0);
	/* r* = sqrt(300 * 0.04^2 / (3 * 0.001^2)) = 400, capped at 100 */
	assert_int_equal(out.iters, 100);
	assert_true(out.power >= 0.8);
	/*
	 * exact mode's sides paired by layout seed: n differences of two
	 * boots each, n - 1 degrees of freedom.  At the resolution's floor
	 * 1% takes 3 seeds where the unpaired sides took 2, and what the
	 * plan states is the paired test's power.
	 */
	{
		struct kab_plan_in e = { .within_var = 0,
					 .between_var = kab_exact_floor() *
							kab_exact_floor(),
					 .boot_cost = 10, .iter_cost = 3,
					 .delta = log1p(0.01), .alpha = 0.04,
					 .power = 0.8 };

		assert_int_equal(kab_plan(&e, &out), 0);
		assert_int_equal(out.boots, 2);
		e.paired = true;
		assert_int_equal(kab_plan(&e, &out), 0);
		assert_int_equal(out.boots, 3);
		assert_true(fabs(out.power - kab_power_paired(3, e.delta,
				M_SQRT2 * kab_exact_floor(), 0.04)) < 1e-9);
	}
	/*
	 * A pilot of 3 boots x 5 iterations whose boots agreed: r* is
	 * taken at the median draw of the between-boot variance, not at
	 * 0 (which would buy 100 iterations of 2 boots)
	 */
	{
		struct kab_plan_in p = { .within_var = 0.02 * 0.02,
					 .between_var = 0, .boot_cost = 60,
					 .iter_cost = 1, .delta = log1p(0.05),
					 .alpha = 0.04, .power = 0.8,
					 .pilot_boots = 3, .pilot_iters = 5 };
		double w = p.within_var / 5;
		double b = 2 * w / gsl_cdf_chisq_Pinv(16.5 / 32, 2) - w;

		assert_int_equal(kab_plan(&p, &out), 0);
		assert_int_equal(out.iters, (size_t)round(sqrt(
			60 * p.within_var / b)));
		assert_true(out.iters < 100 && out.boots > 2);
		assert_true(out.power >= 0.8 && out.power < 0.9);
	}
	/* r* = sqrt(c_b s_w^2 / (c_i s_b^2)) = sqrt(9 * 4 / 1) */
	{
		struct kab_plan_in k = { .within_var = 4, .between_var = 1,
					 .boot_cost = 9, .iter_cost = 1,
					 .delta = log1p(0.5), .alpha = 0.05,
					 .power = 0.8 };

		assert_int_equal(kab_plan(&k, &out), 0);
		assert_int_equal(out.iters, 6);
		/* boots that never differ: iterations as many as allowed */
		k.between_var = 0;
		k.boot_cost = 0;
		assert_int_equal(kab_plan(&k, &out), 0);
		assert_int_equal(out.iters, 100);
	}
	/* nothing varies, or nothing to detect: no plan */
	in.within_var = in.between_var = 0;
	assert_int_equal(kab_plan(&in, &out), -1);
	in.within_var = 0.01;
	in.delta = 0;
	assert_int_equal(kab_plan(&in, &out), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_welch_known_pair),
		cmocka_unit_test(test_welch_edges),
		cmocka_unit_test(test_mwu_exact_small),
		cmocka_unit_test(test_mwu_min_p),
		cmocka_unit_test(test_mwu_ties_normal),
		cmocka_unit_test(test_mwu_large_uses_normal),
		cmocka_unit_test(test_bh),
		cmocka_unit_test(test_bh_monotone),
		cmocka_unit_test(test_welch_ci),
		cmocka_unit_test(test_directions),
		cmocka_unit_test(test_anova),
		cmocka_unit_test(test_anova_unequal_boots),
		cmocka_unit_test(test_compare_boot_is_unit),
		cmocka_unit_test(test_compare_three_boots),
		cmocka_unit_test(test_profile_rows_by_evidence),
		cmocka_unit_test(test_profile_count_z),
		cmocka_unit_test(test_cell_evidence),
		cmocka_unit_test(test_family_levels),
		cmocka_unit_test(test_kpis_across_tables),
		cmocka_unit_test(test_compare_demo_kpi),
		cmocka_unit_test(test_compare_no_floor),
		cmocka_unit_test(test_compare_exact),
		cmocka_unit_test(test_compare_blocks),
		cmocka_unit_test(test_compare_seeds),
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_sequential),
		cmocka_unit_test(test_sequential_cell),
		cmocka_unit_test(test_power_t),
		cmocka_unit_test(test_plan),
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
