// SPDX-License-Identifier: GPL-2.0
/*
 * anova.c - variance between boots against variance within boots.
 *
 * Samples of one boot share that boot's luck (page placement, timer
 * drift, host load): when boots differ more than iterations within a
 * boot, the samples are not independent and the honest unit of
 * comparison is the boot.  One-way ANOVA tells: F = MS_between /
 * MS_within, p from GSL's F distribution.
 */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

/* idx[i] = which group sample i is in, 0..k-1 by first appearance. */
static size_t group_index(const int *g, size_t n, size_t *idx)
{
	int *ids = malloc((n ? n : 1) * sizeof(*ids));
	size_t k = 0, i, j;

	if (!ids)
		return 0;
	for (i = 0; i < n; i++) {
		for (j = 0; j < k && ids[j] != g[i]; j++)
			;
		if (j == k)
			ids[k++] = g[i];
		idx[i] = j;
	}
	free(ids);
	return k;
}

size_t kab_group_means(const double *v, const int *g, size_t n,
		       double *means, size_t *sizes)
{
	size_t *idx = malloc((n ? n : 1) * sizeof(*idx)), k, i;

	if (!idx)
		return 0;
	k = group_index(g, n, idx);
	for (i = 0; i < k; i++) {
		means[i] = 0;
		sizes[i] = 0;
	}
	for (i = 0; i < n; i++) {
		means[idx[i]] += v[i];
		sizes[idx[i]]++;
	}
	for (i = 0; i < k; i++)
		means[i] /= sizes[i];
	free(idx);
	return k;
}

void kab_anova(const double *v, const int *g, size_t n,
	       struct kab_anova *out)
{
	double *means = NULL, grand = 0, ssb = 0, ssw = 0;
	size_t *sizes = NULL, *idx = NULL, k, i;

	memset(out, 0, sizeof(*out));
	out->p = NAN;
	if (!g || n < 2)
		return;
	means = malloc(n * sizeof(*means));
	sizes = malloc(n * sizeof(*sizes));
	idx = malloc(n * sizeof(*idx));
	if (!means || !sizes || !idx)
		goto out;
	k = kab_group_means(v, g, n, means, sizes);
	group_index(g, n, idx);
	out->groups = k;
	if (k < 2 || n <= k)
		goto out;
	for (i = 0; i < n; i++)
		grand += v[i];
	grand /= n;
	for (i = 0; i < k; i++)
		ssb += sizes[i] * (means[i] - grand) * (means[i] - grand);
	for (i = 0; i < n; i++)
		ssw += (v[i] - means[idx[i]]) * (v[i] - means[idx[i]]);
	out->ms_between = ssb / (k - 1);
	out->ms_within = ssw / (n - k);
	if (out->ms_within > 0) {
		out->f = out->ms_between / out->ms_within;
		out->p = gsl_cdf_fdist_Q(out->f, k - 1, n - k);
	} else {
		out->f = out->ms_between > 0 ? INFINITY : 0;
		out->p = out->ms_between > 0 ? 0 : 1;
	}
out:
	free(means);
	free(sizes);
	free(idx);
}

/*
 * Boots dominate when the variance between boots is significant
 * (p < 0.01) and its component, (MS_between - MS_within) / n0, is
 * larger than the variance within a boot: a boot, not an iteration,
 * is then one sample.
 */
double kab_anova_between_var(const struct kab_anova *a, size_t n)
{
	double v;

	if (a->groups < 2)
		return NAN;
	v = (a->ms_between - a->ms_within) / ((double)n / a->groups);
	return v > 0 ? v : 0;
}

bool kab_boots_dominate(const struct kab_anova *a, size_t n)
{
	if (a->groups < 2 || isnan(a->p) || a->p >= 0.01)
		return false;
	return kab_anova_between_var(a, n) > a->ms_within;
}
