// SPDX-License-Identifier: GPL-2.0
/*
 * anova.c - variance between boots against variance within boots.
 *
 * Samples of one boot share that boot's luck (page placement, timer
 * drift, host load): when boots differ more than iterations within a
 * boot, the samples are not independent and the honest unit of
 * comparison is the boot.  One-way ANOVA tells how much: F = MS_between /
 * MS_within, p from GSL's F distribution.  kab's tests always take the
 * boot as the unit; ANOVA is what kab show and --stats print about it.
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
	double *means = NULL, grand = 0, ssb = 0, ssw = 0, sq = 0;
	size_t *sizes = NULL, *idx = NULL, k, i;

	memset(out, 0, sizeof(*out));
	out->f = out->p = out->ms_between = out->ms_within = NAN;
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
	for (i = 0; i < k; i++) {
		ssb += sizes[i] * (means[i] - grand) * (means[i] - grand);
		sq += (double)sizes[i] * sizes[i];
	}
	for (i = 0; i < n; i++)
		ssw += (v[i] - means[idx[i]]) * (v[i] - means[idx[i]]);
	/* E[MS_between] = sigma_w^2 + n0 sigma_b^2, boots of any size */
	out->n0 = (n - sq / n) / (k - 1);
	out->ms_between = ssb / (k - 1);
	out->ms_within = ssw / (n - k);
	if (out->ms_within > 0) {
		out->f = out->ms_between / out->ms_within;
		out->p = gsl_cdf_fdist_Q(out->f, k - 1, n - k);
	} else if (out->ms_between > 0) {
		out->f = INFINITY;
		out->p = 0;
	}
out:
	free(means);
	free(sizes);
	free(idx);
}

double kab_anova_between_var(const struct kab_anova *a)
{
	double v;

	if (isnan(a->ms_between) || isnan(a->ms_within) || !(a->n0 > 0))
		return NAN;
	v = (a->ms_between - a->ms_within) / a->n0;
	return v > 0 ? v : 0;
}
