// SPDX-License-Identifier: GPL-2.0
/*
 * test-readable.c - numbers for people (markdown, HTML, SVG): commas,
 * no exponents, and axis ticks at round values.
 */
#include <math.h>

#include "test.h"
#include "../../analysis/analysis.h"

static void test_thousands(void **state)
{
	static const struct {
		double v;
		const char *want;
	} c[] = {
		{ 1412130, "1,412,130" }, { 1412130.4, "1,412,130" },
		{ -1412130, "-1,412,130" }, { 7603.27, "7,603" },
		{ 999, "999" }, { 1000, "1,000" }, { 100, "100" },
		{ 15.06, "15.1" }, { 1.5, "1.50" }, { 0.0123, "0.0123" },
		{ 0, "0" }, { -0.0001, "-0.000100" }, { 123456789012.0,
		"123,456,789,012" }, { 2e15, "2e+15" }, { NAN, "nan" },
	};
	char buf[64];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		kab_fmt_readable(buf, sizeof(buf), c[i].v);
		if (strcmp(buf, c[i].want))
			fail_msg("%.17g: '%s', wanted '%s'", c[i].v, buf,
				 c[i].want);
	}
	/* a short buffer is cut, never overrun */
	kab_fmt_readable(buf, 4, 1412130);
	assert_string_equal(buf, "1,4");
	kab_fmt_readable_dec(buf, sizeof(buf), 12000, 0);
	assert_string_equal(buf, "12,000");
	kab_fmt_readable_dec(buf, sizeof(buf), 0.25, 2);
	assert_string_equal(buf, "0.25");
	kab_fmt_readable_dec(buf, sizeof(buf), -0.0, 1);
	assert_string_equal(buf, "0.0");
}

static void test_ticks(void **state)
{
	double t[8];
	size_t n, i;
	int dec;

	(void)state;
	/* 12,090 .. 12,310: not 1.21e+04 five times */
	n = kab_nice_ticks(12090, 12310, 6, t, &dec);
	assert_int_equal(dec, 0);
	assert_true(n >= 3 && n <= 6);
	for (i = 0; i < n; i++) {
		assert_true(t[i] >= 12090 && t[i] <= 12310);
		assert_true(fmod(t[i], 50) == 0);
		if (i)
			assert_true(t[i] - t[i - 1] == t[1] - t[0]);
	}
	n = kab_nice_ticks(0.12, 0.58, 6, t, &dec);
	assert_int_equal(dec, 1);
	assert_true(n >= 3);
	assert_true(fabs(t[0] - 0.2) < 1e-12);
	n = kab_nice_ticks(-3, 7, 6, t, &dec);
	for (i = 0; i < n; i++)
		if (fabs(t[i]) < 1e-9)
			assert_true(t[i] == 0 && !signbit(t[i]));
	assert_int_equal(kab_nice_ticks(5, 5, 6, t, &dec), 1);
	assert_int_equal(kab_nice_ticks(NAN, 5, 6, t, &dec), 0);
	/* never more than asked, whatever the range */
	assert_true(kab_nice_ticks(0, 1e300, 6, t, &dec) <= 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thousands),
		cmocka_unit_test(test_ticks),
	};

	return cmocka_run_group_tests_name("readable", tests, NULL, NULL);
}
