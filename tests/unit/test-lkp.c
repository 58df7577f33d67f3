// SPDX-License-Identifier: GPL-2.0
/*
 * test-lkp.c - rows of the seed email come back character for character.
 *
 * Each side gets two samples, mean - s and mean + s, whose mean and
 * population stddev are exactly mean and s.  The means are chosen to
 * print as the seed prints them and to give its %change (lkp computes
 * the change from unrounded means).
 */
#include <math.h>

#include "test.h"
#include "../../analysis/analysis.h"

struct golden {
	const char *metric;
	double m0, s0, m1, s1;
	const char *want;
};

static const struct golden rows[] = {
	{ "perf-profile.children.cycles-pp.clear_page_erms",
	  89.46, 0, 0.20, 0.045,
	  "     89.46           -89.3        0.20 \u00b1 22%  "
	  "perf-profile.children.cycles-pp.clear_page_erms" },
	{ "perf-stat.i.branch-instructions", 4.203e10, 0, 3.916e10, 0,
	  " 4.203e+10            -6.8%  3.916e+10        "
	  "perf-stat.i.branch-instructions" },
	{ "sched_debug.cpu.clock.stddev", 18.984, 0.95, 24.777, 3.5,
	  "     18.98 \u00b1  5%     +30.5%      24.78 \u00b1 14%  "
	  "sched_debug.cpu.clock.stddev" },
	{ "stress-ng.radixsort.ops", 164713, 0, 149574, 0,
	  "    164713            -9.2%     149574        "
	  "stress-ng.radixsort.ops" },
	{ "stress-ng.radixsort.ops_per_sec", 2745, 0, 2492, 0,
	  "      2745            -9.2%       2492        "
	  "stress-ng.radixsort.ops_per_sec" },
	{ "meminfo.AnonHugePages", 1315990, 0, 475807, 15000,
	  "   1315990           -63.8%     475807 \u00b1  3%  "
	  "meminfo.AnonHugePages" },
	{ "perf-stat.i.branch-miss-rate%", 6.148, 0, 6.302, 0,
	  "      6.15            +0.2        6.30        "
	  "perf-stat.i.branch-miss-rate%" },
	{ "perf-stat.i.cpi", 2.556, 0.06, 2.774, 0,
	  "      2.56 \u00b1  2%      +8.5%       2.77        "
	  "perf-stat.i.cpi" },
	{ "perf-profile.calltrace.cycles-pp.account_user_time", 0.08,
	  0.1786, 0.55, 0.02,
	  "      0.08 \u00b1223%      +0.5        0.55 \u00b1  3%  "
	  "perf-profile.calltrace.cycles-pp.account_user_time" },
	{ "perf-stat.total.instructions", 1.525e13, 0, 1.374e13, 0,
	  " 1.525e+13            -9.9%  1.374e+13        "
	  "perf-stat.total.instructions" },
	{ "proc-vmstat.numa_hit", 1188533, 0, 1416356, 0,
	  "   1188533           +19.2%    1416356        "
	  "proc-vmstat.numa_hit" },
	/* lkp's .2g from 100,000 % on */
	{ "x.count", 1, 0, 2301, 0,
	  "      1.00        +2.3e+05%       2301        x.count" },
};

static char *render(const struct golden *g)
{
	double b[2] = { g->m0 - g->s0, g->m0 + g->s0 };
	double h[2] = { g->m1 - g->s1, g->m1 + g->s1 };
	struct kab_series bs = { g->metric, 2, b, NULL, 0 };
	struct kab_series hs = { g->metric, 2, h, NULL, 0 };
	struct kab_side base = { "a", "a", 1, &bs, NULL, 0, 0, NULL }, head = { "b", "b", 1, &hs, NULL, 0, 0, NULL };
	struct kab_compare_opts o = { .test = KAB_TEST_MWU, .fdr = 0.05,
				      .all = true };
	struct kab_comparison c;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(kab_compare(&base, &head, 1, &o, &c), 0);
	assert_int_equal(c.nr_rows, 1);
	kab_lkp_row(f, &c.rows[0], 1, false, false);
	fclose(f);
	kab_comparison_free(&c);
	return buf;
}

static void test_seed_rows(void **state)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		char *got = render(&rows[i]), *nl = strchr(got, '\n');

		/* Two units a side (no boots given): nothing after the name. */
		assert_non_null(nl);
		*nl = '\0';
		if (strcmp(got, rows[i].want))
			fail_msg("\n got: '%s'\nwant: '%s'", got, rows[i].want);
		free(got);
	}
}

/* The header, as the seed email shows it. */
static void test_seed_header(void **state)
{
	struct kab_side base = { "15e8156713cc3803b7c4", "15e8156713 (\"mm: "
				 "shrinker: avoid memleak in "
				 "alloc_shrinker_info\")", 0, NULL, NULL, 0, 0, NULL };
	struct kab_side head = { "d4148aeab412432bf928f311eca8a2ba52bb05df",
				 "d4148aeab4 (\"mm, mmap: limit THP alignment "
				 "of anonymous mappings to PMD-aligned sizes\")",
				 0, NULL, NULL, 0, 0, NULL };
	struct kab_table_head h = {
		"compiler/cpufreq_governor/kconfig/mode/nr_task/rootfs/"
		"tbox_group/test/testcase",
		"gcc-12/performance/x86_64-rhel-8.3/process/100%/"
		"debian-12-x86_64-20240206.cgz/lkp-cpl-4sp2/malloc1/"
		"will-it-scale", &base, &head, 1 };
	const char *want =
		"=============================================================="
		"===========================\n"
		"compiler/cpufreq_governor/kconfig/mode/nr_task/rootfs/"
		"tbox_group/test/testcase:\n"
		"  gcc-12/performance/x86_64-rhel-8.3/process/100%/"
		"debian-12-x86_64-20240206.cgz/lkp-cpl-4sp2/malloc1/"
		"will-it-scale\n\n"
		"commit: \n"
		"  15e8156713 (\"mm: shrinker: avoid memleak in "
		"alloc_shrinker_info\")\n"
		"  d4148aeab4 (\"mm, mmap: limit THP alignment of anonymous "
		"mappings to PMD-aligned sizes\")\n\n"
		"15e8156713cc3803 d4148aeab412432bf928f311eca \n"
		"---------------- --------------------------- \n"
		"         %stddev     %change         %stddev\n"
		"             \\          |                \\  \n";
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	kab_lkp_header(f, &h, false);
	kab_lkp_columns(f, 1);
	fclose(f);
	assert_string_equal(buf, want);
	free(buf);
}

/* ---- lkp's changed-stat rule, one assertion per clause ---- */

static const char *const suites[] = { "foo" };
static const struct kab_lkp_ctx ctx = { suites, 1 };

/* head against base, each side's samples its columns */
static bool changed(const char *k, const double *h, size_t nh,
		    const double *b, size_t nb)
{
	struct kab_lkp_values a = { h, nh, nh, true };
	struct kab_lkp_values z = { b, nb, nb, true };

	return kab_lkp_stat_changed(k, &a, &z, &ctx);
}

#define CHANGED(k, h, b) changed(k, h, ARRAY_SIZE(h), b, ARRAY_SIZE(b))

static void test_rule_ranges(void **state)
{
	double base[] = { 100, 101, 102 }, up[] = { 110, 111, 112 };
	double overlap[] = { 100, 112, 101 };
	double b4[] = { 1, 2, 3, 4 }, h4[] = { 2.8, 5, 6, 7 };
	double h4b[] = { 3.5, 5, 6, 7 };

	assert_true(CHANGED("x.y", up, base));
	assert_true(CHANGED("x.y", base, up));
	assert_false(CHANGED("x.y", overlap, base));
	/* lkp's "mean" is the element at size / 2: 3 here, not 2.5 */
	assert_false(CHANGED("x.y", h4, b4));
	assert_true(CHANGED("x.y", h4b, b4));
	/* both sides under 3 runs: skipped; one side of 3 is enough */
	assert_false(changed("x.y", up, 2, base, 2));
	assert_true(changed("x.y", up, 3, base, 2));
}

static void test_rule_ratio(void **state)
{
	double base[] = { 100, 101, 102 }, h3[] = { 103, 104, 105 };
	double kb[] = { 1000, 1001, 1002 }, kh[] = { 1006, 1007, 1008 };
	double nb[] = { -2.02, -2.01, -2.0 }, nh[] = { -1.98, -1.97, -1.96 };
	double pb[] = { 2.0, 2.01, 2.02 }, ph[] = { 2.04, 2.05, 2.06 };

	/* 3%: under lkp's 5% for most stats ... */
	assert_false(CHANGED("x.y", h3, base));
	/* ... over the 1% of performance metrics and test suites' own */
	assert_true(CHANGED("perf-stat.x", h3, base));
	assert_true(CHANGED("will-it-scale.per_process_ops", h3, base));
	assert_true(CHANGED("stress-ng.radixsort.ops_per_sec", h3, base));
	assert_true(CHANGED("foo.score", h3, base));
	assert_true(CHANGED("x.time.y", h3, base));
	/* 0.6%: under 1% for every stat */
	assert_false(CHANGED("will-it-scale.per_process_ops", kh, kb));
	/* the lower mean <= 0: the ratio is taken as 5 */
	assert_true(CHANGED("mpstat.x", nh, nb));
	assert_false(CHANGED("mpstat.x", ph, pb));
}

static void test_rule_one_side(void **state)
{
	double h[] = { 7, 8, 9 }, b[] = { 10, 11, 12 };
	double low[] = { 3, 4, 5 }, high[] = { 5, 6, 7 };
	struct kab_lkp_values none = { NULL, 0, 3, true };
	struct kab_lkp_values head = { h, 3, 3, true };
	struct kab_lkp_values lowv = { low, 3, 3, true };
	struct kab_lkp_values highv = { high, 3, 3, true };
	struct kab_lkp_values bv = { b, 3, 3, true };
	struct kab_lkp_values other = { NULL, 0, 3, false };

	/* a stat the base lacks: skipped ... */
	assert_false(kab_lkp_stat_changed("x.y", &head, &none, &ctx));
	/* ... unless the base ran its monitor, perf-profile or lock_stat */
	assert_true(kab_lkp_stat_changed("perf-profile.self.cycles-pp.f",
					 &head, &none, &ctx));
	assert_false(kab_lkp_stat_changed("perf-profile.self.cycles-pp.f",
					  &head, &other, &ctx));
	/* a stat the head lacks is zeros there */
	assert_true(kab_lkp_stat_changed("x.y", &none, &bv, &ctx));
	/*
	 * perf-profile with the head's zeros (lkp's integers): changed
	 * when either "mean" is over 5, whatever the ranges
	 */
	assert_false(kab_lkp_stat_changed("perf-profile.self.cycles-pp.f",
					  &none, &lowv, &ctx));
	assert_true(kab_lkp_stat_changed("perf-profile.self.cycles-pp.f",
					 &none, &highv, &ctx));
}

static void test_rule_floors(void **state)
{
	double b[] = { 10, 10.05, 10.1 }, h[] = { 10.2, 10.25, 10.3 };
	double pb[] = { 100, 101, 102 }, ph[] = { 500, 501, 502 };
	double fb[] = { 1000, 1001, 1002 }, fh[] = { 1600, 1601, 1602 };
	double fh2[] = { 1400, 1401, 1402 };
	double nb[] = { 50, 51, 52 }, nh[] = { 90, 91, 92 };
	double big[] = { 20000, 20001, 20002 }, bigger[] = { 40000, 40001, 40002 };
	double m1[] = { -1, -1, -1 }, m15[] = { -1.5, -1.5, -1.5 };

	/* perf-profile: no ratio bar, no floor */
	assert_true(CHANGED("perf-profile.self.cycles-pp.f", h, b));
	assert_false(CHANGED("x.y", h, b));
	/* etc/perf-metrics-threshold.yaml: max >= 1000 ... */
	assert_false(CHANGED("will-it-scale.time.minor_page_faults", ph, pb));
	assert_true(CHANGED("will-it-scale.time.minor_page_faults", fh, fb));
	/* ... and, for an integer threshold, a delta >= 1000 / 2 */
	assert_false(CHANGED("will-it-scale.time.minor_page_faults", fh2, fb));
	assert_false(CHANGED("proc-vmstat.nr_foo", nh, nb));
	/* reasonable_perf_change?'s floors */
	assert_false(CHANGED("proc-vmstat.pgfault", ph, pb));
	assert_true(CHANGED("proc-vmstat.pgfault", fh, fb));
	assert_false(CHANGED("numa-meminfo.node0.MemFree", ph, pb));
	/* stats lkp does not bisect or report, however much they move */
	assert_false(CHANGED("interrupts.CPU0.LOC", bigger, big));
	assert_false(CHANGED("softirqs.CPU0.RCU", bigger, big));
	assert_false(CHANGED("slabinfo.kmalloc-8.active_objs", bigger, big));
	/* denied for bisection but reported */
	assert_true(CHANGED("sched_debug.cpu.clock", bigger, big));
	/* -1 is lkp's "no data": a side of only -1s is empty */
	assert_false(CHANGED("x.y", m1, pb));
	assert_true(CHANGED("x.y", m15, pb));
}

/* size >> 5 samples cut at each end: 32 samples lose their extremes */
static void test_rule_margin(void **state)
{
	double b[32], h[32];
	size_t i;

	for (i = 0; i < 32; i++) {
		b[i] = 100;
		h[i] = 110;
	}
	b[5] = 1000;
	assert_true(CHANGED("x.y", h, b));
	assert_false(changed("x.y", h, 31, b, 31));
}

/* lkp's arithmetic: the change over a base of 0 or below 0 */
static void test_change_arithmetic(void **state)
{
	assert_true(kab_lkp_change("x.y", 0, 3000) == 3e105);
	/* 0 -> 0 is -100%: lkp subtracts the 1e-100 too */
	assert_true(fabs(kab_lkp_change("x.y", 0, 0) + 100) < 1e-9);
	/* a negative base flips the sign: -10 -> -20 is +100% */
	assert_true(kab_lkp_change("x.y", -10, -20) == 100);
	assert_true(kab_lkp_change("perf-profile.self.f", 0, 8) == 8);
	assert_true(kab_lkp_change("mpstat.cpu.all.usr%", 3, 1) == -2);
}

/*
 * Numbers as Ruby's format prints them (checked with Ruby 3.1): a
 * double within its dtoa's error bound of a half is a tie, to even,
 * whichever side of the half it lies on; the rest as C's printf.
 */
static void test_ruby_format(void **state)
{
	static const struct {
		double v;
		char conv;
		int prec;
		bool plus;
		const char *want;
	} c[] = {
		{ 2.675, 'f', 2, false, "2.68" }, { 1.005, 'f', 2, false, "1.00" },
		{ 8.835, 'f', 2, false, "8.84" }, { 0.145, 'f', 2, false, "0.14" },
		{ 1.115, 'f', 2, false, "1.12" }, { 2.345, 'f', 2, false, "2.34" },
		{ 3.045, 'f', 2, false, "3.04" }, { 1.255, 'f', 2, false, "1.26" },
		{ 0.615, 'f', 2, false, "0.62" }, { 4.985, 'f', 2, false, "4.98" },
		/* the mean of 5.1, 5.1, 5.1 and -1 */
		{ 3.5749999999999997, 'f', 2, false, "3.58" },
		/* far enough from the half to be placed */
		{ 44.365000000000045, 'f', 2, false, "44.37" },
		{ 0.15, 'f', 1, false, "0.2" }, { 0.25, 'f', 1, false, "0.2" },
		{ 0.35, 'f', 1, false, "0.4" }, { 0.45, 'f', 1, false, "0.4" },
		{ 0.55, 'f', 1, false, "0.6" }, { 0.65, 'f', 1, false, "0.6" },
		{ 0.75, 'f', 1, false, "0.8" }, { 0.85, 'f', 1, false, "0.8" },
		{ 7.1499999999999995, 'f', 1, false, "7.2" },
		{ -0.0, 'f', 1, true, "-0.0" },
		{ 70500, 'g', 2, false, "7.0e+04" },
		{ 4.096e105, 'g', 2, true, "+4.1e+105" },
		/* a tie with the exact rest above one half keeps its zero */
		{ 5.05e103, 'g', 2, true, "+5.0e+103" },
		{ 4.1205e85, 'g', 4, false, "4.120e+85" },
		/* below one half: dropped */
		{ 4.6605e100, 'g', 4, false, "4.66e+100" },
		{ NAN, 'f', 1, true, "+NaN" }, { INFINITY, 'f', 1, true, "+Inf" },
	};
	char buf[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		kab_ruby_format(buf, sizeof(buf), c[i].v, c[i].conv, c[i].prec,
				c[i].plus);
		if (strcmp(buf, c[i].want))
			fail_msg("%.17g as %%%s.%d%c: got %s, Ruby prints %s",
				 c[i].v, c[i].plus ? "+" : "", c[i].prec,
				 c[i].conv, buf, c[i].want);
	}
}

/* Ruby's Array#sum compensates: [1e16, 1.0, -1e16].sum is 1.0 */
static void test_sum_compensated(void **state)
{
	double v[] = { 1e16, 1, -1e16 };

	assert_true(kab_lkp_sum(v, 3) == 1);
}

/*
 * One value a side: lkp's stddev is -1, and over a negative mean that
 * is a positive percentage, so lkp prints a "+-" there.
 */
static void test_one_value_negative(void **state)
{
	const struct golden g = { "x.y", -10, 0, -10, 0, NULL };
	double b = -10, h = -10;
	struct kab_series bs = { g.metric, 1, &b, NULL, 0 };
	struct kab_series hs = { g.metric, 1, &h, NULL, 0 };
	struct kab_side base = { "a", "a", 1, &bs, NULL, 0, 0, NULL };
	struct kab_side head = { "b", "b", 1, &hs, NULL, 0, 0, NULL };
	struct kab_compare_opts o = { .test = KAB_TEST_LKP, .all = true };
	struct kab_comparison c;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(kab_compare(&base, &head, 1, &o, &c), 0);
	kab_lkp_row(f, &c.rows[0], 1, false, false);
	fclose(f);
	assert_string_equal(buf, "    -10.00 \u00b1 10%      -0.0%     -10.00 "
			    "\u00b1 10%  x.y\n");
	free(buf);
	kab_comparison_free(&c);
}

/* 0 on both sides: lkp's format keeps its -100%, kab's says +0.0% */
static void test_zero_both_sides(void **state)
{
	double b[2] = { 0, 0 }, h[2] = { 0, 0 };
	struct kab_series bs = { "x.y", 2, b, NULL, 0 };
	struct kab_series hs = { "x.y", 2, h, NULL, 0 };
	struct kab_side base = { "a", "a", 1, &bs, NULL, 0, 0, NULL };
	struct kab_side head = { "b", "b", 1, &hs, NULL, 0, 0, NULL };
	struct kab_compare_opts o = { .test = KAB_TEST_LKP, .all = true };
	struct kab_comparison c;
	char *buf[2] = { NULL, NULL };
	size_t len;
	int kab;

	assert_int_equal(kab_compare(&base, &head, 1, &o, &c), 0);
	for (kab = 0; kab < 2; kab++) {
		FILE *f = open_memstream(&buf[kab], &len);

		kab_lkp_row(f, &c.rows[0], 1, false, kab);
		fclose(f);
	}
	assert_non_null(strstr(buf[0], "-100.0%"));
	assert_null(strstr(buf[1], "-100.0%"));
	assert_non_null(strstr(buf[1], "      +0.0%"));
	free(buf[0]);
	free(buf[1]);
	kab_comparison_free(&c);
}

/*
 * lkp's "the base ran its monitor": a perf-profile stat only the head
 * has is compared when the base has any perf-profile stat (another
 * section's, another function's), not when it has none of that
 * monitor (a lock_stat one here; vmstat's are another monitor).
 */
static void test_family_of_monitor(void **state)
{
	double one[3] = { 1, 1, 1 }, eight[3] = { 8, 8, 8 };
	struct kab_series bs[] = {
		{ "lock_stat.a", 3, one, NULL, 0 },
		{ "perf-profile.calltrace.cycles-pp.g", 3, one, NULL, 0 },
		{ "vmstat.x", 3, one, NULL, 0 },
	};
	struct kab_series hs[] = {
		{ "lock_stat.a", 3, one, NULL, 0 },
		{ "lock_statx.b", 3, eight, NULL, 0 },
		{ "perf-profile.calltrace.cycles-pp.g", 3, one, NULL, 0 },
		{ "perf-profile.self.cycles-pp.f", 3, eight, NULL, 0 },
		{ "vmstat.x", 3, one, NULL, 0 },
		{ "vmstatx.y", 3, eight, NULL, 0 },
	};
	struct kab_side base = { "a", "a", 3, bs, NULL, 0, 0, NULL };
	struct kab_side head = { "b", "b", 6, hs, NULL, 0, 0, NULL };
	struct kab_compare_opts o = { .test = KAB_TEST_LKP };
	struct kab_comparison c;
	size_t i, shown = 0;

	assert_int_equal(kab_compare(&base, &head, 1, &o, &c), 0);
	for (i = 0; i < c.nr_rows; i++) {
		if (!c.rows[i].shown)
			continue;
		shown++;
		assert_string_equal(c.rows[i].metric,
				    "perf-profile.self.cycles-pp.f");
	}
	assert_int_equal(shown, 1);
	kab_comparison_free(&c);
	/* a monitor whose name only begins alike is another monitor */
	bs[1].metric = "perf-profilez.g";
	assert_int_equal(kab_compare(&base, &head, 1, &o, &c), 0);
	for (i = 0, shown = 0; i < c.nr_rows; i++)
		if (!strcmp(c.rows[i].metric, "perf-profile.self.cycles-pp.f"))
			shown += 1 + c.rows[i].shown;
	assert_int_equal(shown, 1);
	kab_comparison_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_family_of_monitor),
		cmocka_unit_test(test_zero_both_sides),
		cmocka_unit_test(test_seed_rows),
		cmocka_unit_test(test_seed_header),
		cmocka_unit_test(test_rule_ranges),
		cmocka_unit_test(test_rule_ratio),
		cmocka_unit_test(test_rule_one_side),
		cmocka_unit_test(test_rule_floors),
		cmocka_unit_test(test_rule_margin),
		cmocka_unit_test(test_change_arithmetic),
		cmocka_unit_test(test_sum_compensated),
		cmocka_unit_test(test_ruby_format),
		cmocka_unit_test(test_one_value_negative),
	};

	return cmocka_run_group_tests_name("lkp", tests, NULL, NULL);
}
