// SPDX-License-Identifier: GPL-2.0
/*
 * test-calibration.c - A/A calibration by simulation: two samples drawn
 * from one distribution must be flagged at most at alpha's rate, and a
 * 300-row table under BH must raise a false alarm in at most q of the
 * tables.  A known 5% shift measures the power; it is printed.
 */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>

#include "test.h"
#include "../../analysis/analysis.h"

#define TRIALS 2000

static void draw(gsl_rng *r, bool skewed, double shift, double *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = (skewed ? gsl_ran_lognormal(r, 0, 0.5) :
				 100 + gsl_ran_gaussian(r, 2)) * (1 + shift);
}

/*
 * Fraction of A/A comparisons with p < 0.05.  With 2000 trials the
 * binomial standard deviation is 0.0049: the band is 0.05 +- 3 sd.  The
 * exact U test is discrete and so conservative: it may sit below.
 */
static void test_aa_false_positive_rate(void **state)
{
	static const size_t sizes[] = { 5, 10, 20, 30 };
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	double x[30], y[30];
	size_t s, t;
	int skewed;

	gsl_rng_set(r, 42);
	for (skewed = 0; skewed <= 1; skewed++) {
		for (s = 0; s < ARRAY_SIZE(sizes); s++) {
			size_t n = sizes[s];
			int mwu = 0, welch = 0;

			for (t = 0; t < TRIALS; t++) {
				struct kab_welch w;
				struct kab_mwu u;

				draw(r, skewed, 0, x, n);
				draw(r, skewed, 0, y, n);
				kab_welch(x, n, y, n, &w);
				kab_mwu(x, n, y, n, &u);
				mwu += u.p < 0.05;
				welch += w.p < 0.05;
			}
			printf("# A/A %s n=%zu: U test flags %.4f, Welch %.4f\n",
			       skewed ? "lognormal" : "normal", n,
			       (double)mwu / TRIALS, (double)welch / TRIALS);
			assert_true((double)mwu / TRIALS <= 0.05 + 3 * 0.0049);
			assert_true((double)welch / TRIALS <= 0.05 + 3 * 0.0049);
			if (!skewed)
				assert_true((double)welch / TRIALS >=
					    0.05 - 3 * 0.0049);
			if (n >= 10)
				assert_true((double)mwu / TRIALS >=
					    0.05 - 3 * 0.0049 - 0.01);
		}
	}
	gsl_rng_free(r);
}

/*
 * 300 null rows per table, 200 tables: under the global null BH keeps
 * the chance of any false row at q.  Allow 3 binomial sd (0.046).
 */
static void test_bh_whole_table(void **state)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	double x[10], y[10], p[300], adj[300];
	int tables = 200, alarms = 0, t, i;

	gsl_rng_set(r, 7);
	for (t = 0; t < tables; t++) {
		bool any = false;

		for (i = 0; i < 300; i++) {
			struct kab_mwu u;

			draw(r, i % 2, 0, x, 10);
			draw(r, i % 2, 0, y, 10);
			kab_mwu(x, 10, y, 10, &u);
			p[i] = u.p;
		}
		kab_bh_adjust(p, 300, adj);
		for (i = 0; i < 300; i++)
			any |= adj[i] <= 0.05;
		alarms += any;
	}
	printf("# BH over 300 null rows: %d of %d tables had a false row "
	       "(%.3f, q = 0.05)\n", alarms, tables, (double)alarms / tables);
	assert_true((double)alarms / tables <= 0.05 + 0.046);
	gsl_rng_free(r);
}

/* A real 5% shift with 2% noise: how often is it found? */
static void test_power_5pct(void **state)
{
	static const size_t sizes[] = { 5, 10, 20 };
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	double x[20], y[20];
	size_t s, t;

	gsl_rng_set(r, 5);
	for (s = 0; s < ARRAY_SIZE(sizes); s++) {
		size_t n = sizes[s];
		int found = 0;

		for (t = 0; t < 1000; t++) {
			struct kab_mwu u;

			draw(r, false, 0, x, n);
			draw(r, false, 0.05, y, n);
			kab_mwu(x, n, y, n, &u);
			found += u.p < 0.05;
		}
		printf("# power for a 5%% shift (2%% noise), n=%zu per side: "
		       "%.3f\n", n, found / 1000.0);
		if (n >= 10)
			assert_true(found / 1000.0 > 0.95);
	}
	gsl_rng_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_aa_false_positive_rate),
		cmocka_unit_test(test_bh_whole_table),
		cmocka_unit_test(test_power_5pct),
	};

	return cmocka_run_group_tests_name("calibration", tests, NULL, NULL);
}
