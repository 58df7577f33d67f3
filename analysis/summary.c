// SPDX-License-Identifier: GPL-2.0
/*
 * summary.c - n, mean, population stddev, min, median, max.
 */
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <string.h>

#include "analysis.h"

void kab_summarize(double *v, size_t n, struct kab_summary *out)
{
	memset(out, 0, sizeof(*out));
	out->n = n;
	if (!n)
		return;
	gsl_sort(v, 1, n);
	out->mean = gsl_stats_mean(v, 1, n);
	/* lkp divides by n: the population standard deviation. */
	out->stddev = n > 1 ? gsl_stats_sd_with_fixed_mean(v, 1, n, out->mean) :
			      0;
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
