// SPDX-License-Identifier: GPL-2.0
/*
 * bootstrap.c - percentile bootstrap interval of a change: each side
 * resampled with replacement, independently, from a seeded mt19937 so
 * the same data always give the same interval.
 */
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>

#include "analysis.h"

static double resampled_mean(gsl_rng *r, const double *v, size_t n)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += v[gsl_rng_uniform_int(r, n)];
	return sum / n;
}

void kab_bootstrap_ci(const double *x, size_t nx, const double *y, size_t ny,
		      bool absolute, int resamples, unsigned long seed,
		      double *lo, double *hi)
{
	gsl_rng *r;
	double *d;
	int i, k = 0;

	*lo = *hi = NAN;
	if (!nx || !ny || resamples < 10)
		return;
	d = malloc(resamples * sizeof(*d));
	r = gsl_rng_alloc(gsl_rng_mt19937);
	if (!d || !r) {
		free(d);
		if (r)
			gsl_rng_free(r);
		return;
	}
	gsl_rng_set(r, seed);
	for (i = 0; i < resamples; i++) {
		double mx = resampled_mean(r, x, nx);
		double my = resampled_mean(r, y, ny);

		if (absolute)
			d[k++] = my - mx;
		else if (mx != 0)
			d[k++] = 100 * (my - mx) / fabs(mx);
	}
	if (k) {
		gsl_sort(d, 1, k);
		*lo = gsl_stats_quantile_from_sorted_data(d, 1, k, 0.025);
		*hi = gsl_stats_quantile_from_sorted_data(d, 1, k, 0.975);
	}
	gsl_rng_free(r);
	free(d);
}
