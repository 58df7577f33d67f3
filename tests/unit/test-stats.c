// SPDX-License-Identifier: GPL-2.0
/*
 * test-stats.c - every statistic against values derived by hand or by
 * an independent implementation (scipy 1.10, noted where used), to at
 * least 4 significant digits.
 */
#include <math.h>

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

static void test_bootstrap(void **state)
{
	double x[] = { 100, 101, 99, 100, 102, 98 };
	double y[] = { 110, 111, 109, 110, 112, 108 };
	double c[] = { 7, 7, 7 }, d[] = { 14, 14, 14 };
	double lo, hi, lo2, hi2;

	kab_bootstrap_ci(x, 6, y, 6, false, 10000, 1, &lo, &hi);
	assert_true(lo < 10 && 10 < hi);
	assert_true(lo > 7 && hi < 13);
	/* Seeded: the same data give the same interval. */
	kab_bootstrap_ci(x, 6, y, 6, false, 10000, 1, &lo2, &hi2);
	assert_true(lo == lo2 && hi == hi2);
	/* No spread: the interval is the change itself. */
	kab_bootstrap_ci(c, 3, d, 3, false, 1000, 1, &lo, &hi);
	close_to(lo, 100);
	close_to(hi, 100);
	kab_bootstrap_ci(c, 3, d, 3, true, 1000, 1, &lo, &hi);
	close_to(lo, 7);
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
	assert_false(kab_metric_big_enough("proc-vmstat.pgfault", 900));
	assert_true(kab_metric_big_enough("proc-vmstat.pgfault", 1001));
	assert_true(kab_metric_big_enough("proc-vmstat.nr_anon_pages", 5));
	assert_false(kab_metric_big_enough("will-it-scale.time.minor_page_faults", 999));
}

/* lkp's heuristic: medians apart by more than 5% and ranges apart. */
static void test_lkp_heuristic(void **state)
{
	double a[] = { 100, 101, 102 }, b[] = { 110, 111, 112 };
	double c[] = { 100, 112, 101 }, d[] = { 103, 104, 105 };

	assert_true(kab_lkp_changed("x.ops", a, 3, b, 3));
	assert_false(kab_lkp_changed("x.ops", a, 3, c, 3));	/* overlap */
	assert_false(kab_lkp_changed("x.ops", a, 3, d, 3));	/* < 5% */
	assert_true(kab_lkp_changed("perf-stat.x", a, 3, d, 3)); /* > 1% */
	assert_false(kab_lkp_changed("x.ops", a, 2, b, 2));	/* n < 3 */
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
	struct kab_anova a;

	kab_anova(v, g, 6, &a);
	assert_int_equal(a.groups, 2);
	close_to(a.ms_between, 13.5);
	close_to(a.ms_within, 1);
	close_to(a.f, 13.5);
	close_to(a.p, 0.021311641128756713);
	/* component (13.5 - 1) / 3 beats 1, but p = 0.021 is not < 0.01 */
	close_to(kab_anova_between_var(&a, 6), 12.5 / 3);
	assert_false(kab_boots_dominate(&a, 6));
	kab_anova(v, one, 6, &a);
	assert_int_equal(a.groups, 1);
	assert_true(isnan(a.p));
	assert_true(isnan(kab_anova_between_var(&a, 6)));
	assert_false(kab_boots_dominate(&a, 6));
}

/* {1,2,3} and {11,12,13}: MSB 150, MSW 1, component 149 / 3 > 1. */
static void test_boots_dominate(void **state)
{
	double v[] = { 1, 2, 3, 11, 12, 13 }, w[] = { 1, 5, 9, 2, 6, 10 };
	int g[] = { 0, 0, 0, 1, 1, 1 };
	struct kab_anova a;

	kab_anova(v, g, 6, &a);
	close_to(a.f, 150);
	close_to(kab_anova_between_var(&a, 6), 149.0 / 3);
	assert_true(kab_boots_dominate(&a, 6));
	/* boots alike, iterations spread: MSB < MSW, component 0 */
	kab_anova(w, g, 6, &a);
	close_to(kab_anova_between_var(&a, 6), 0);
	assert_false(kab_boots_dominate(&a, 6));
}

/*
 * Three boots a side, boots dominating, a 50% drop: the U test on 3
 * boot means cannot go below p = 0.1, so Welch's t on them decides.
 * Boot means 100, 110, 105 against 50, 56, 53:
 * scipy.stats.ttest_ind(equal_var=False) gives t = 15.446, p = 0.000358.
 */
static void test_compare_three_boots(void **state)
{
	double b[] = { 100, 100.1, 99.9, 110, 110.1, 109.9, 105, 105.1, 104.9 };
	double h[] = { 50, 50.1, 49.9, 56, 56.1, 55.9, 53, 53.1, 52.9 };
	int g[] = { 1, 1, 1, 2, 2, 2, 3, 3, 3 };
	struct kab_series bs = { "x.ops", 9, b, g }, hs = { "x.ops", 9, h, g };
	struct kab_side base = { "a", "a", 1, &bs }, head = { "b", "b", 1, &hs };
	struct kab_compare_opts o = { .test = KAB_TEST_MWU, .fdr = 0.05 };
	struct kab_comparison c;
	struct kab_cell *cell;

	assert_int_equal(kab_compare(&base, &head, 1, &o, &c), 0);
	cell = &c.rows[0].cells[0];
	assert_true(cell->per_boot);
	assert_true(cell->boot_welch);
	assert_false(cell->few);
	close_to(cell->p_welch, 0.00035827280434742057);
	assert_true(cell->p_mwu > 0.09);
	assert_true(cell->significant);
	kab_comparison_free(&c);
}

/*
 * A bisected commit against good {100..105} and bad {50..55}: near one
 * and separable from the other, it is like that one; halfway, or with
 * too few samples to separate, it is neither (and gets more boots).
 */
static void test_classify(void **state)
{
	double good[] = { 100, 101, 102, 103, 104, 105 };
	double bad[] = { 50, 51, 52, 53, 54, 55 };
	double g[] = { 99, 102, 104 }, b[] = { 49, 53, 56 };
	double mid[] = { 76, 77, 78 }, one[] = { 101 };
	double drift[] = { 92, 93, 94 };
	struct kab_classify c;

	kab_classify(g, 3, good, 6, bad, 6, 0.05, &c);
	assert_int_equal(c.like, KAB_LIKE_GOOD);
	close_to(c.median, 102);
	/* exact U: 3 against 6 all apart, p = 2 / C(9,3) = 0.0238 */
	close_to(c.p_bad, 2.0 / 84);
	kab_classify(b, 3, good, 6, bad, 6, 0.05, &c);
	assert_int_equal(c.like, KAB_LIKE_BAD);
	assert_true(c.position > 0.9);
	kab_classify(mid, 3, good, 6, bad, 6, 0.05, &c);
	assert_int_equal(c.like, KAB_LIKE_NEITHER);
	/* one sample cannot be told from either endpoint */
	kab_classify(one, 1, good, 6, bad, 6, 0.05, &c);
	assert_int_equal(c.like, KAB_LIKE_NEITHER);
	/* below good but far nearer to it than to bad: good */
	kab_classify(drift, 3, good, 6, bad, 6, 0.05, &c);
	assert_int_equal(c.like, KAB_LIKE_GOOD);
	/* endpoints that do not differ decide nothing */
	kab_classify(g, 3, good, 6, good, 6, 0.05, &c);
	assert_int_equal(c.like, KAB_LIKE_NEITHER);
}

/* When boots dominate, the boot is the unit: two boots a side are few. */
static void test_compare_per_boot(void **state)
{
	double b[] = { 100, 100.1, 99.9, 110, 110.1, 109.9 };
	double h[] = { 101, 101.1, 100.9, 111, 111.1, 110.9 };
	int g[] = { 1, 1, 1, 2, 2, 2 };
	struct kab_series bs = { "x.ops", 6, b, g }, hs = { "x.ops", 6, h, g };
	struct kab_series bs2 = { "x.ops", 6, b, NULL };
	struct kab_series hs2 = { "x.ops", 6, h, NULL };
	struct kab_side base = { "a", "a", 1, &bs }, head = { "b", "b", 1, &hs };
	struct kab_side base2 = { "a", "a", 1, &bs2 };
	struct kab_side head2 = { "b", "b", 1, &hs2 };
	struct kab_compare_opts o = { .test = KAB_TEST_MWU, .fdr = 0.05 };
	struct kab_comparison c;

	assert_int_equal(kab_compare(&base, &head, 1, &o, &c), 0);
	assert_true(c.rows[0].cells[0].per_boot);
	assert_true(c.rows[0].cells[0].few);
	assert_false(c.rows[0].cells[0].significant);
	kab_comparison_free(&c);
	/* Without boot information every sample counts. */
	assert_int_equal(kab_compare(&base2, &head2, 1, &o, &c), 0);
	assert_false(c.rows[0].cells[0].per_boot);
	assert_false(c.rows[0].cells[0].few);
	kab_comparison_free(&c);
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
		cmocka_unit_test(test_bootstrap),
		cmocka_unit_test(test_directions),
		cmocka_unit_test(test_lkp_heuristic),
		cmocka_unit_test(test_anova),
		cmocka_unit_test(test_boots_dominate),
		cmocka_unit_test(test_compare_per_boot),
		cmocka_unit_test(test_compare_three_boots),
		cmocka_unit_test(test_classify),
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
