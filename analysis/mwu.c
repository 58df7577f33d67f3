// SPDX-License-Identifier: GPL-2.0
/*
 * mwu.c - the Mann-Whitney U test, two-sided.
 *
 * Ties get mid-ranks.  Without ties and with both samples at most 50,
 * p comes from the exact null distribution of U (the number of ways to
 * pick nx of the N ranks with each rank sum, counted once per (nx, ny)
 * and cached); otherwise from the normal approximation with the tie
 * correction of the variance and a continuity correction, as benchstat
 * does.
 */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_sort.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

#define EXACT_MAX 50

struct cached {
	size_t nx, ny;
	double *cdf;		/* P(U <= u), u = 0 .. nx * ny */
};

static struct cached cache[8];
static size_t cache_next;

/*
 * Counts of rank-sum choices: ways[j][s] = ways to pick j of the ranks
 * seen so far with sum s.  U = S - nx(nx + 1) / 2.
 */
static double *exact_cdf(size_t nx, size_t ny)
{
	size_t N = nx + ny, maxs = 0, i, j, s, umax = nx * ny;
	double *ways, *cdf, total = 0;

	for (i = 0; i < cache_next && i < 8; i++)
		if (cache[i].nx == nx && cache[i].ny == ny)
			return cache[i].cdf;
	for (i = 0; i < nx; i++)
		maxs += N - i;
	ways = calloc((nx + 1) * (maxs + 1), sizeof(*ways));
	cdf = calloc(umax + 1, sizeof(*cdf));
	if (!ways || !cdf) {
		free(ways);
		free(cdf);
		return NULL;
	}
	ways[0] = 1;
	for (i = 1; i <= N; i++)
		for (j = (i < nx ? i : nx); j >= 1; j--)
			for (s = maxs; s >= i; s--)
				ways[j * (maxs + 1) + s] +=
					ways[(j - 1) * (maxs + 1) + s - i];
	for (s = nx * (nx + 1) / 2; s <= maxs; s++) {
		size_t u = s - nx * (nx + 1) / 2;

		if (u <= umax)
			cdf[u] = ways[nx * (maxs + 1) + s];
	}
	free(ways);
	for (s = 0; s <= umax; s++) {
		total += cdf[s];
		cdf[s] = total;
	}
	for (s = 0; s <= umax; s++)
		cdf[s] /= total;
	i = cache_next++ % 8;
	free(cache[i].cdf);
	cache[i].nx = nx;
	cache[i].ny = ny;
	cache[i].cdf = cdf;
	return cdf;
}

struct tagged {
	double v;
	int from_x;
};

static int cmp_tagged(const void *a, const void *b)
{
	double x = ((const struct tagged *)a)->v;
	double y = ((const struct tagged *)b)->v;

	return x < y ? -1 : x > y;
}

void kab_mwu(const double *x, size_t nx, const double *y, size_t ny,
	     struct kab_mwu *out)
{
	size_t N = nx + ny, i, j;
	struct tagged *t;
	double rx = 0, ties = 0, mu, sigma, z, u2, umin;
	bool tied = false;

	out->u = out->p = NAN;
	out->exact = false;
	if (!nx || !ny)
		return;
	t = malloc(N * sizeof(*t));
	if (!t)
		return;
	for (i = 0; i < nx; i++)
		t[i] = (struct tagged){ x[i], 1 };
	for (i = 0; i < ny; i++)
		t[nx + i] = (struct tagged){ y[i], 0 };
	qsort(t, N, sizeof(*t), cmp_tagged);
	for (i = 0; i < N; i = j) {
		double rank;
		size_t k;

		for (j = i + 1; j < N && t[j].v == t[i].v; j++)
			;
		rank = (i + 1 + j) / 2.0;	/* mid-rank of i+1 .. j */
		if (j - i > 1) {
			double c = j - i;

			tied = true;
			ties += c * c * c - c;
		}
		for (k = i; k < j; k++)
			if (t[k].from_x)
				rx += rank;
	}
	free(t);
	out->u = rx - nx * (nx + 1) / 2.0;
	u2 = (double)nx * ny - out->u;
	umin = out->u < u2 ? out->u : u2;

	if (!tied && nx <= EXACT_MAX && ny <= EXACT_MAX) {
		const double *cdf = exact_cdf(nx, ny);

		if (cdf) {
			out->exact = true;
			out->p = 2 * cdf[(size_t)umin];
			if (out->p > 1)
				out->p = 1;
			return;
		}
	}
	mu = nx * (double)ny / 2;
	sigma = sqrt(nx * (double)ny / 12 *
		     ((N + 1) - ties / ((double)N * (N - 1))));
	if (sigma == 0) {
		out->p = 1;	/* every value equal */
		return;
	}
	z = (fabs(out->u - mu) - 0.5) / sigma;
	if (z < 0)
		z = 0;
	out->p = 2 * gsl_cdf_ugaussian_Q(z);
	if (out->p > 1)
		out->p = 1;
}

/*
 * The most extreme arrangement (every x below every y) is one of
 * C(n1 + n2, n1), equally likely under the null: no table needed, so
 * any size costs the same.
 */
double kab_mwu_min_p(size_t n1, size_t n2)
{
	double p;

	if (!n1 || !n2)
		return 1;
	p = 2 * exp(-gsl_sf_lnchoose(n1 + n2, n1));
	return p > 1 ? 1 : p;
}
