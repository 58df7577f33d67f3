// SPDX-License-Identifier: GPL-2.0
/*
 * test-stressng.c - stress-ng's --yaml report, from a real 0.15.06 run
 * and in the newer layout, and refused when damaged.
 */
#include "test.h"
#include "../../runner/runner.h"

static void test_0_15_06(void **state)
{
	struct kab_stressng_result res;
	struct kab_err err;
	size_t len;
	char *y = fixture("stress-ng-0.15.06-radixsort.yaml", &len);

	if (kab_stressng_parse_yaml(y, len, "radixsort", &res, &err))
		fail_msg("%s", err.msg);
	assert_true(res.bogo_ops == 61);
	assert_true(res.ops_per_sec_real == 30.490968);
	assert_true(res.ops_per_sec_usr_sys == 15.296402);
	assert_true(res.wall_clock == 2.000592);
	assert_string_equal(res.version, "0.15.06");
	free(y);
}

static void test_newer_layout(void **state)
{
	struct kab_stressng_result res;
	struct kab_err err;
	size_t len;
	char *y = fixture("stress-ng-0.22-layout-radixsort.yaml", &len);

	if (kab_stressng_parse_yaml(y, len, "radixsort", &res, &err))
		fail_msg("%s", err.msg);
	/* The stressor's totals, not one instance's. */
	assert_true(res.bogo_ops == 164713);
	assert_true(res.ops_per_sec_real == 2745.216667);
	assert_string_equal(res.version, "0.22.00");
	free(y);
}

static void expect_refused(const char *text, size_t len, const char *want)
{
	struct kab_stressng_result res;
	struct kab_err err = { { 0 } };

	assert_int_equal(kab_stressng_parse_yaml(text, len, "radixsort", &res,
						 &err), -1);
	if (!strstr(err.msg, want))
		fail_msg("error '%s' lacks '%s'", err.msg, want);
}

static void test_damaged(void **state)
{
	size_t len;
	char *y;

	y = fixture("stress-ng-truncated-radixsort.yaml", &len);
	expect_refused(y, len, "cut short");
	free(y);
	y = fixture("stress-ng-cut-in-number-radixsort.yaml", &len);
	expect_refused(y, len, "cut short");
	free(y);
	/* stress-ng's text output is not its YAML report. */
	y = fixture("stress-ng-0.15.06-radixsort.txt", &len);
	expect_refused(y, len, "");
	free(y);
	expect_refused("", 0, "empty");
	expect_refused("metrics: [ {", 12, "not YAML");
	expect_refused("system-info:\n  cpus: 2\n", 23, "no metrics list");
}

static void test_wrong_stressor_and_bad_numbers(void **state)
{
	const char *other = "metrics:\n    - stressor: qsort\n"
			    "      bogo-ops: 5\n";
	const char *nan = "metrics:\n    - stressor: radixsort\n"
			  "      bogo-ops: .nan\n";
	const char *liar = "metrics:\n    - stressor: radixsort\n"
			   "      bogo-ops: 100\n"
			   "      bogo-ops-per-second-usr-sys-time: 5\n"
			   "      bogo-ops-per-second-real-time: 9000\n"
			   "      wall-clock-time: 10\n"
			   "      user-time: 10\n      system-time: 0\n"
			   "      cpu-usage-per-instance: 100\n";

	expect_refused(other, strlen(other), "no metrics for stressor");
	expect_refused(nan, strlen(nan), "not a number");
	expect_refused(liar, strlen(liar), "inconsistent");
}

/* A real report with one number followed by junk is refused whole. */
static void test_number_with_junk(void **state)
{
	static const char *const damage[][2] = {
		{ "bogo-ops: 61\n", "bogo-ops: 61xyz\n" },
		{ "real-time: 30.490968\n", "real-time: 30.490968 ops\n" },
		{ "wall-clock-time: 2.000592\n", "wall-clock-time: 2.0s\n" },
	};
	size_t i, len;

	for (i = 0; i < ARRAY_SIZE(damage); i++) {
		char *y = fixture("stress-ng-0.15.06-radixsort.yaml", &len);
		char *at = strstr(y, damage[i][0]);
		struct strbuf sb = STRBUF_INIT;

		assert_non_null(at);
		strbuf_add(&sb, y, at - y);
		strbuf_addstr(&sb, damage[i][1]);
		strbuf_addstr(&sb, at + strlen(damage[i][0]));
		expect_refused(sb.buf, sb.len, "not a number");
		strbuf_release(&sb);
		free(y);
	}
}

static void test_exit_reasons(void **state)
{
	int i;

	assert_non_null(strstr(kab_stressng_exit_reason(1), "options"));
	assert_non_null(strstr(kab_stressng_exit_reason(3), "resource"));
	assert_non_null(strstr(kab_stressng_exit_reason(7), "untrustworthy"));
	for (i = 0; i < 300; i++)
		assert_non_null(kab_stressng_exit_reason(i));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_0_15_06),
		cmocka_unit_test(test_newer_layout),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_wrong_stressor_and_bad_numbers),
		cmocka_unit_test(test_number_with_junk),
		cmocka_unit_test(test_exit_reasons),
	};

	return cmocka_run_group_tests_name("stressng", tests, NULL, NULL);
}
