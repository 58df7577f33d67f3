// SPDX-License-Identifier: GPL-2.0
/*
 * test-changepoint.c - change points over a series of commits: a shift
 * found where it is and sized, a flat series and a single outlier
 * quiet, two shifts both, a change of spread alone said as such, a
 * layout every commit shares not taken for a change, the same answer
 * twice, and the split the energy statistic chooses against the
 * statistic computed by brute force.  Then a small simulation with
 * boot-level noise: false change points per 100 commits and the power
 * for a 5% shift (make bench has the larger one).
 */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <errno.h>
#include <math.h>

#include "test.h"
#include "../../analysis/analysis.h"

#define MAXP	64
#define BOOTS	3

struct series {
	size_t n;
	double v[MAXP][BOOTS];
	unsigned int seed[MAXP][BOOTS];
	struct kab_cp_point p[MAXP];
};

/*
 * n commits of BOOTS boots: 100 * (1 + level) with Gaussian boot noise
 * of sd percent, the level shifted by shift from commit at on.
 */
static void make(struct series *s, gsl_rng *r, size_t n, double sd,
		 size_t at, double shift)
{
	size_t i, j;

	s->n = n;
	for (i = 0; i < n; i++) {
		for (j = 0; j < BOOTS; j++) {
			s->v[i][j] = 100 * (1 + (i >= at ? shift : 0)) +
				     (sd > 0 ? gsl_ran_gaussian(r, sd) : 0);
			s->seed[i][j] = j + 1;
		}
		s->p[i].v = s->v[i];
		s->p[i].seed = NULL;
		s->p[i].n = BOOTS;
	}
}

static int find(const struct series *s, struct kab_cp *cp, size_t max)
{
	struct kab_cp_opts o;

	kab_cp_defaults(&o);
	return kab_changepoints(s->p, s->n, &o, cp, max);
}

/*
 * cp's sizes are Welch's between the boots of [a, at) and [at, b):
 * computed here from the samples, with kab_welch and its interval.
 */
static void check_size(const struct series *s, size_t a, size_t at,
		       size_t b, const struct kab_cp *cp)
{
	double x[MAXP * BOOTS], y[MAXP * BOOTS], lo, hi, mx = 0, my = 0;
	size_t nx = 0, ny = 0, i, j;
	struct kab_welch w;

	for (i = a; i < b; i++)
		for (j = 0; j < BOOTS; j++) {
			if (i < at) {
				x[nx++] = s->v[i][j];
				mx += s->v[i][j];
			} else {
				y[ny++] = s->v[i][j];
				my += s->v[i][j];
			}
		}
	mx /= nx;
	my /= ny;
	kab_welch(x, nx, y, ny, &w);
	kab_welch_ci(&w, 0.95, &lo, &hi);
	assert_true(fabs(cp->before - mx) < 1e-9 * fabs(mx));
	assert_true(fabs(cp->after - my) < 1e-9 * fabs(my));
	assert_true(fabs(cp->pct - 100 * (my - mx) / mx) < 1e-9);
	assert_true(fabs(cp->p_mean - w.p) < 1e-9);
	print_message("interval [%g, %g] against [%g, %g]\n", cp->lo, cp->hi,
		      100 * lo / mx, 100 * hi / mx);
	assert_true(fabs(cp->lo - 100 * lo / mx) < 1e-6);
	assert_true(fabs(cp->hi - 100 * hi / mx) < 1e-6);
}

static void test_one_shift(void **state)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	struct series s;
	struct kab_cp cp[4];

	(void)state;
	gsl_rng_set(r, 7);
	make(&s, r, 20, 1, 10, -0.10);
	assert_int_equal(find(&s, cp, 4), 1);
	assert_int_equal(cp[0].at, 10);
	assert_false(cp[0].noise_only);
	check_size(&s, 0, 10, 20, &cp[0]);
	assert_true(cp[0].lo <= -10 + 1 && cp[0].hi >= -10 - 1);
	assert_true(cp[0].lo < cp[0].pct && cp[0].pct < cp[0].hi);
	assert_true(fabs(cp[0].pct + 10) < 1);
	/* no order of the commits splits better than their own */
	assert_true(cp[0].p == 1.0 / 200);
	assert_true(fabs(cp[0].before - 100) < 1);
	/* an early shift: four commits before it */
	make(&s, r, 20, 1, 4, -0.10);
	assert_int_equal(find(&s, cp, 4), 1);
	assert_int_equal(cp[0].at, 4);
	gsl_rng_free(r);
}

static void test_quiet(void **state)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	struct series s;
	struct kab_cp cp[4];

	(void)state;
	gsl_rng_set(r, 11);
	make(&s, r, 20, 1, 20, 0);
	assert_int_equal(find(&s, cp, 4), 0);
	/* one commit 20% off, the next as before: an outlier, not a change */
	s.v[7][0] += 20;
	s.v[7][1] += 20;
	s.v[7][2] += 20;
	assert_int_equal(find(&s, cp, 4), 0);
	/* the last commit alone shifted: not yet persistent */
	make(&s, r, 20, 1, 19, -0.10);
	assert_int_equal(find(&s, cp, 4), 0);
	/* two commits shifted: a change */
	make(&s, r, 20, 1, 18, -0.10);
	assert_int_equal(find(&s, cp, 4), 1);
	assert_int_equal(cp[0].at, 18);
	gsl_rng_free(r);
}

static void test_two_shifts(void **state)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	struct series s;
	struct kab_cp cp[4];
	size_t i, j;

	(void)state;
	gsl_rng_set(r, 3);
	make(&s, r, 24, 1, 24, 0);
	/* malloc1's story: -98% at 8, back at 16 */
	for (i = 8; i < 16; i++)
		for (j = 0; j < BOOTS; j++)
			s.v[i][j] = 2 + gsl_ran_gaussian(r, 0.05);
	assert_int_equal(find(&s, cp, 4), 2);
	assert_int_equal(cp[0].at, 8);
	assert_int_equal(cp[1].at, 16);
	assert_true(cp[0].pct < -95);
	assert_true(cp[1].pct > 1000);
	/* each sized between its neighbours, not the rest of the series */
	check_size(&s, 0, 8, 16, &cp[0]);
	check_size(&s, 8, 16, 24, &cp[1]);
	/* out has room for one: the count says two */
	assert_int_equal(find(&s, cp, 1), 2);
	gsl_rng_free(r);
}

/*
 * The demo's watch branch as kab measures it (tests/kernel/t1-watch.sh):
 * a boot a commit under exact mode, the alignment's fall for k commits,
 * then its fix.  Seven commits a level are found, at the smallest p 199
 * permutations give; six are not at 0.01: a shift that comes back
 * scores below the same commits moved to either end, which some orders
 * do (p = 0.015), so the demo's branch has seven a level.
 */
static void test_comes_back_short(void **state)
{
	static const unsigned int seed[21] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
					       1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
					       1 };
	struct kab_cp_point p[21];
	struct kab_cp_opts o;
	struct kab_cp cp[4];
	double v[21];
	size_t i, k = 7;

	(void)state;
	kab_cp_defaults(&o);
	o.floor = kab_exact_floor();
	for (i = 0; i < 3 * k; i++) {
		/* the layout moves each kernel's figure a little */
		v[i] = i >= k && i < 2 * k ? 56.4 : 3148 + (i * 7 % 20);
		p[i] = (struct kab_cp_point){ &v[i], &seed[i], 1 };
	}
	assert_int_equal(kab_changepoints(p, 3 * k, &o, cp, 4), 2);
	assert_int_equal(cp[0].at, k);
	assert_int_equal(cp[1].at, 2 * k);
	assert_true(cp[0].pct < -98 && cp[0].pct > -98.3);
	assert_true(cp[1].pct > 5000);
	assert_true(cp[0].p <= 0.005 && cp[1].p <= 0.005);
	assert_false(cp[0].noise_only || cp[1].noise_only);
}

static void test_noise_only(void **state)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	struct series s;
	struct kab_cp cp[4];
	size_t i, j;

	(void)state;
	gsl_rng_set(r, 5);
	make(&s, r, 40, 0.2, 40, 0);
	for (i = 20; i < 40; i++)
		for (j = 0; j < BOOTS; j++)
			s.v[i][j] = 100 + gsl_ran_gaussian(r, 10);
	assert_true(find(&s, cp, 4) >= 1);
	assert_true(cp[0].noise_only);
	assert_true(cp[0].at >= 19 && cp[0].at <= 21);
	gsl_rng_free(r);
}

/*
 * Commits measured to the same digit (exact mode's resolution) beside
 * commits that vary about the same mean: no spread is compared with a
 * spread of nothing (its F would be 0 or infinite), so no change point
 * of the spread alone, whichever side is the exact one.
 */
static void test_exact_beside_noise(void **state)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	struct series s;
	struct kab_cp cp[4];
	size_t i, j, k, n;
	int side;

	(void)state;
	for (side = 0; side < 2; side++) {
		gsl_rng_set(r, 5);
		make(&s, r, 40, 0, 40, 0);
		for (i = 0; i < 20; i++)
			for (j = 0; j < BOOTS; j++)
				s.v[side ? i : 20 + i][j] =
					100 + gsl_ran_gaussian(r, 10);
		n = (size_t)find(&s, cp, 4);
		for (k = 0; k < n; k++)
			assert_false(cp[k].noise_only);
	}
	gsl_rng_free(r);
}

/* A layout at seed 2 costs every commit 11%; the code changes 2%. */
static void test_seeds(void **state)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	struct series s;
	struct kab_cp cp[4];
	size_t i;

	(void)state;
	gsl_rng_set(r, 13);
	make(&s, r, 20, 0.05, 20, 0);
	for (i = 0; i < s.n; i++) {
		s.v[i][1] *= 0.89;
		s.p[i].seed = s.seed[i];
	}
	assert_int_equal(find(&s, cp, 4), 0);
	for (i = 10; i < s.n; i++) {
		s.v[i][0] *= 0.98;
		s.v[i][1] *= 0.98;
		s.v[i][2] *= 0.98;
	}
	assert_int_equal(find(&s, cp, 4), 1);
	assert_int_equal(cp[0].at, 10);
	assert_true(fabs(cp[0].pct + 2) < 0.3);
	/* every commit at every seed: centring keeps each commit's mean */
	{
		double b = 0, a = 0;
		size_t j;

		for (i = 0; i < s.n; i++)
			for (j = 0; j < BOOTS; j++)
				*(i < 10 ? &b : &a) += s.v[i][j];
		b /= 10 * BOOTS;
		a /= (s.n - 10) * BOOTS;
		assert_true(fabs(cp[0].before - b) < 1e-9 * b);
		assert_true(fabs(cp[0].after - a) < 1e-9 * a);
	}
	/* unpaired, the seed's 11% drowns the 2% */
	for (i = 0; i < s.n; i++)
		s.p[i].seed = NULL;
	assert_int_equal(find(&s, cp, 4), 0);
	gsl_rng_free(r);
}

/* E-divisive's Q(tau, kappa) by brute force: ordered pairs, V-statistics. */
static double brute_q(const double *m, size_t t, size_t k)
{
	double xx = 0, yy = 0, xy = 0, nx = t, ny = k - t;
	size_t i, j;

	for (i = 0; i < k; i++)
		for (j = 0; j < k; j++) {
			double d = fabs(m[i] - m[j]);

			if (i < t && j < t)
				xx += d;
			else if (i >= t && j >= t)
				yy += d;
			else if (i < t)
				xy += d;
		}
	return nx * ny / (nx + ny) *
	       (2 * xy / (nx * ny) - xx / (nx * nx) - yy / (ny * ny));
}

/* The statistic and its split against brute force, on random series. */
/*
 * Exact data: every boot mean of a kernel the same number.  With the
 * floor a change's interval is that of boot means known to the floor
 * (Welch's with each side's sd at floor times its mean), not a point.
 */
static void test_exact_floor(void **state)
{
	struct series s;
	struct kab_cp_opts o;
	struct kab_cp cp[4];
	double f = kab_exact_floor(), se, q, half;

	(void)state;
	make(&s, NULL, 12, 0, 6, -0.10);
	kab_cp_defaults(&o);
	assert_int_equal(kab_changepoints(s.p, s.n, &o, cp, 4), 1);
	assert_true(cp[0].lo == cp[0].hi);
	o.floor = f;
	assert_int_equal(kab_changepoints(s.p, s.n, &o, cp, 4), 1);
	assert_int_equal(cp[0].at, 6);
	assert_true(fabs(cp[0].pct + 10) < 1e-9);
	se = sqrt((f * 100) * (f * 100) / (6 * BOOTS) +
		  (f * 90) * (f * 90) / (6 * BOOTS));
	/* Welch's df for these two variances */
	{
		double a = (f * 100) * (f * 100) / (6 * BOOTS);
		double b = (f * 90) * (f * 90) / (6 * BOOTS);
		double df = (a + b) * (a + b) / (a * a / (6 * BOOTS - 1) +
						 b * b / (6 * BOOTS - 1));

		q = gsl_cdf_tdist_Qinv(0.025, df);
	}
	half = 100 * q * se / 100;
	assert_true(fabs(cp[0].lo - (-10 - half)) < 1e-9);
	assert_true(fabs(cp[0].hi - (-10 + half)) < 1e-9);
	assert_true(cp[0].p_mean < 1e-6);
}

static void test_energy(void **state)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	size_t ord[24], n, t, k, i, at, bt, minp;
	double m[24], q, best;
	int trial;

	(void)state;
	gsl_rng_set(r, 17);
	for (trial = 0; trial < 200; trial++) {
		n = 4 + gsl_rng_uniform_int(r, 20);
		minp = 1 + gsl_rng_uniform_int(r, 3);
		for (i = 0; i < n; i++) {
			/* steps of random size at random places, and noise */
			m[i] = (i ? m[i - 1] : 100) +
			       (gsl_rng_uniform(r) < 0.2 ?
				gsl_ran_gaussian(r, 5) : 0);
			ord[i] = n - 1 - i;	/* read backwards */
		}
		for (i = 0; i < n; i++)
			m[i] += gsl_ran_gaussian(r, 1);
		best = -1;
		bt = 0;
		for (t = minp; t + minp <= n; t++)
			for (k = t + minp; k <= n; k++) {
				double rev[24];

				for (i = 0; i < k; i++)
					rev[i] = m[n - 1 - i];
				q = brute_q(rev, t, k);
				if (q > best) {
					best = q;
					bt = t;
				}
			}
		q = kab_cp_split(m, ord, n, minp, &at);
		if (!bt) {
			assert_int_equal(at, 0);
			continue;
		}
		assert_true(fabs(q - best) < 1e-9 * (1 + fabs(best)));
		assert_int_equal(at, bt);
	}
	gsl_rng_free(r);
}

static void test_deterministic_and_bad(void **state)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	struct kab_cp a[4], b[4];
	struct kab_cp_opts o;
	struct series s;

	(void)state;
	gsl_rng_set(r, 19);
	make(&s, r, 16, 2, 8, 0.06);
	kab_cp_defaults(&o);
	memset(a, 0, sizeof(a));
	memset(b, 0, sizeof(b));
	assert_int_equal(kab_changepoints(s.p, s.n, &o, a, 4), 1);
	assert_int_equal(kab_changepoints(s.p, s.n, &o, b, 4), 1);
	assert_memory_equal(a, b, sizeof(a[0]));
	/* the defaults the docs give */
	assert_int_equal(o.min_points, 2);
	assert_true(o.alpha == 0.01);
	assert_int_equal(o.perms, 199);
	assert_int_equal(o.seed, 1);
	assert_true(o.noise == 1);
	/* another seed of the permutations: the same change */
	o.seed = 2;
	assert_int_equal(kab_changepoints(s.p, s.n, &o, b, 4), 1);
	assert_int_equal(b[0].at, a[0].at);
	assert_true(b[0].pct == a[0].pct);
	/* too short a series: nothing to split */
	assert_int_equal(kab_changepoints(s.p, 3, &o, a, 4), 0);
	o.min_points = 0;
	assert_int_equal(kab_changepoints(s.p, s.n, &o, a, 4), -1);
	assert_int_equal(errno, EINVAL);
	gsl_rng_free(r);
}

/*
 * 40 series of 30 commits, boot noise 2%: A/A false change points per
 * 100 commits, and how often a 5% shift in the middle is found there.
 */
static void test_simulated(void **state)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	struct kab_cp cp[8];
	struct series s;
	int t, false_cp = 0, found = 0, n;

	(void)state;
	gsl_rng_set(r, 23);
	for (t = 0; t < 40; t++) {
		make(&s, r, 30, 2, 30, 0);
		n = find(&s, cp, 8);
		assert_true(n >= 0);
		false_cp += n;
		make(&s, r, 30, 2, 15, -0.05);
		n = find(&s, cp, 8);
		if (n >= 1 && cp[0].at >= 14 && cp[0].at <= 16)
			found++;
	}
	print_message("A/A: %d false change points in 1200 commits; "
		      "-5%%: found in %d of 40\n", false_cp, found);
	assert_true(false_cp <= 6);
	assert_true(found >= 36);
	gsl_rng_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_shift),
		cmocka_unit_test(test_quiet),
		cmocka_unit_test(test_two_shifts),
		cmocka_unit_test(test_noise_only),
		cmocka_unit_test(test_exact_beside_noise),
		cmocka_unit_test(test_seeds),
		cmocka_unit_test(test_exact_floor),
		cmocka_unit_test(test_comes_back_short),
		cmocka_unit_test(test_energy),
		cmocka_unit_test(test_deterministic_and_bad),
		cmocka_unit_test(test_simulated),
	};

	return cmocka_run_group_tests(tests, 0, NULL);
}
