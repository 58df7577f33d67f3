// SPDX-License-Identifier: GPL-2.0
/*
 * fdr.c - Benjamini-Hochberg: adj(i) = min over j >= i of m/j * p(j),
 * over the p-values sorted ascending; m counts only defined p-values.
 */
#include <math.h>
#include <stdlib.h>

#include "analysis.h"

struct idx {
	double p;
	size_t i;
};

static int cmp_idx(const void *a, const void *b)
{
	double x = ((const struct idx *)a)->p, y = ((const struct idx *)b)->p;

	return x < y ? -1 : x > y;
}

void kab_bh_adjust(const double *p, size_t m, double *adj)
{
	struct idx *v = malloc((m ? m : 1) * sizeof(*v));
	size_t n = 0, k;
	double run = 1;

	for (k = 0; k < m; k++) {
		adj[k] = NAN;
		if (!isnan(p[k]) && v)
			v[n++] = (struct idx){ p[k], k };
	}
	if (!v)
		return;
	qsort(v, n, sizeof(*v), cmp_idx);
	for (k = n; k-- > 0;) {
		double a = v[k].p * n / (k + 1);

		if (a < run)
			run = a;
		adj[v[k].i] = run;
	}
	free(v);
}
