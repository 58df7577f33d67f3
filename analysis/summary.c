// SPDX-License-Identifier: GPL-2.0
/*
 * summary.c - n, mean, population stddev, min, median, max.
 */
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <string.h>

#include "analysis.h"

/*
 * The sum as Ruby's Array#sum takes it (Kahan-Babuska compensation), so
 * that means print as lkp prints them, to the last digit.
 */
double kab_lkp_sum(const double *v, size_t n)
{
	double f = 0, c = 0, t;
	size_t i;

	for (i = 0; i < n; i++) {
		double x = v[i];

		if (isnan(f))
			continue;
		if (isnan(x) || isinf(x)) {
			f = isinf(f) && isinf(x) && signbit(x) != signbit(f) ?
			    NAN : x;
			continue;
		}
		if (isinf(f))
			continue;
		t = f + x;
		if (fabs(f) >= fabs(x))
			c += (f - t) + x;
		else
			c += (x - t) + f;
		f = t;
	}
	return f + c;
}

void kab_summarize(double *v, size_t n, struct kab_summary *out)
{
	double acc = 0;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->n = n;
	if (!n)
		return;
	/*
	 * lkp's arithmetic (lib/statistics.rb): sum / n; the population
	 * standard deviation as sqrt(1.0 / n * sum((x - mean) ** 2)).
	 */
	out->mean = kab_lkp_sum(v, n) / (double)n;
	for (i = 0; i < n; i++)
		acc += pow(v[i] - out->mean, 2.0);
	out->stddev = n > 1 ? sqrt(1.0 / (double)n * acc) : 0;
	gsl_sort(v, 1, n);
	out->min = v[0];
	out->max = v[n - 1];
	out->median = gsl_stats_median_from_sorted_data(v, 1, n);
}

double kab_summary_pct(const struct kab_summary *s)
{
	return s->mean != 0 ? 100 * s->stddev / fabs(s->mean) : 0;
}

bool kab_all_positive(const double *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!(v[i] > 0))
			return false;
	return true;
}
