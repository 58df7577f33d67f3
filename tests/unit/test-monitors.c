// SPDX-License-Identifier: GPL-2.0
/*
 * test-monitors.c - the parsers behind proc-vmstat and meminfo, the
 * perf-stat derivations (including the hardware path this VM cannot
 * exercise for real), and the summary statistics.
 */
#include <math.h>

#include "test.h"
#include "../../analysis/analysis.h"
#include "../../runner/runner.h"

static double kv_get(const struct kab_kv *kv, const char *key)
{
	int i;

	for (i = 0; i < kv->nr; i++)
		if (!strcmp(kv->key[i], key))
			return kv->val[i];
	return NAN;
}

static void test_vmstat(void **state)
{
	struct kab_kv kv = { 0 };
	char *t = fixture("proc-vmstat.txt", NULL);

	assert_int_equal(kab_parse_vmstat(t, &kv), 0);
	assert_int_equal(kv.nr, 40);
	assert_false(isnan(kv_get(&kv, "nr_free_pages")));
	kab_kv_free(&kv);
	free(t);

	t = fixture("proc-vmstat-odd.txt", NULL);
	assert_int_equal(kab_parse_vmstat(t, &kv), 0);
	assert_int_equal(kv.nr, 2);	/* the odd lines are skipped */
	assert_true(kv_get(&kv, "pgfault") == 1234567890123.0);
	kab_kv_free(&kv);
	free(t);
	assert_int_equal(kab_parse_vmstat("", &kv), -1);
}

static void test_meminfo(void **state)
{
	struct kab_kv kv = { 0 };
	char *t = fixture("proc-meminfo.txt", NULL);

	assert_int_equal(kab_parse_meminfo(t, &kv), 0);
	assert_true(kv_get(&kv, "MemTotal") > 1000);
	assert_false(isnan(kv_get(&kv, "AnonHugePages")));
	assert_false(isnan(kv_get(&kv, "Active(anon)")));
	kab_kv_free(&kv);
	free(t);
}

static double m_get(const struct kab_metrics *m, const char *name)
{
	const struct kab_metric *x = kab_metrics_find(m, name);

	return x ? x->value : NAN;
}

static void test_perf_derive_hardware(void **state)
{
	struct kab_metrics raw = { 0 }, out = { 0 };

	kab_metrics_add(&raw, "cpu-cycles", 4e9);
	kab_metrics_add(&raw, "instructions", 1e9);
	kab_metrics_add(&raw, "branch-instructions", 2e8);
	kab_metrics_add(&raw, "branch-misses", 1e6);
	kab_metrics_add(&raw, "page-faults", 500);
	kab_perf_derive(&raw, 2.0, &out);
	assert_true(m_get(&out, "perf-stat.total.instructions") == 1e9);
	assert_true(m_get(&out, "perf-stat.ps.instructions") == 5e8);
	assert_true(m_get(&out, "perf-stat.ps.page-faults") == 250);
	assert_true(m_get(&out, "perf-stat.overall.ipc") == 0.25);
	assert_true(m_get(&out, "perf-stat.overall.cpi") == 4);
	assert_true(m_get(&out, "perf-stat.overall.branch-miss-rate%") == 0.5);
	assert_true(isnan(m_get(&out, "perf-stat.overall.cache-miss-rate%")));
	kab_metrics_free(&raw);
	kab_metrics_free(&out);
}

static void test_perf_derive_software_only(void **state)
{
	struct kab_metrics raw = { 0 }, out = { 0 };

	kab_metrics_add(&raw, "task-clock", 1500);
	kab_perf_derive(&raw, 0, &out);
	assert_int_equal(out.nr, 1);	/* no per-second without time */
	assert_true(isnan(m_get(&out, "perf-stat.overall.ipc")));
	kab_metrics_free(&raw);
	kab_metrics_free(&out);
}

/* Population stddev, as lkp prints it; compared with numbers by hand. */
static void test_summary(void **state)
{
	double v[] = { 4, 2, 5, 5, 4, 7, 9, 4 };
	double one[] = { 3 };
	struct kab_summary s;

	kab_summarize(v, 8, &s);
	assert_int_equal(s.n, 8);
	assert_true(s.mean == 5);
	assert_true(s.stddev == 2);	/* sqrt(32 / 8) */
	assert_true(s.median == 4.5);
	assert_true(s.min == 2 && s.max == 9);
	assert_true(kab_summary_pct(&s) == 40);
	kab_summarize(one, 1, &s);
	assert_true(s.stddev == 0);
	kab_summarize(NULL, 0, &s);
	assert_int_equal(s.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vmstat),
		cmocka_unit_test(test_meminfo),
		cmocka_unit_test(test_perf_derive_hardware),
		cmocka_unit_test(test_perf_derive_software_only),
		cmocka_unit_test(test_summary),
	};

	return cmocka_run_group_tests_name("monitors", tests, NULL, NULL);
}
