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
	struct kab_series bs = { g->metric, 2, b, NULL };
	struct kab_series hs = { g->metric, 2, h, NULL };
	struct kab_side base = { "a", "a", 1, &bs, NULL, 0 }, head = { "b", "b", 1, &hs, NULL, 0 };
	struct kab_compare_opts o = { .test = KAB_TEST_MWU, .fdr = 0.05,
				      .all = true };
	struct kab_comparison c;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(kab_compare(&base, &head, 1, &o, &c), 0);
	assert_int_equal(c.nr_rows, 1);
	kab_lkp_row(f, &c.rows[0], 1, false);
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
				 "alloc_shrinker_info\")", 0, NULL, NULL, 0 };
	struct kab_side head = { "d4148aeab412432bf928f311eca8a2ba52bb05df",
				 "d4148aeab4 (\"mm, mmap: limit THP alignment "
				 "of anonymous mappings to PMD-aligned sizes\")",
				 0, NULL, NULL, 0 };
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

	kab_lkp_header(f, &h);
	fclose(f);
	assert_string_equal(buf, want);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_rows),
		cmocka_unit_test(test_seed_header),
	};

	return cmocka_run_group_tests_name("lkp", tests, NULL, NULL);
}
