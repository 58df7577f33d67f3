// SPDX-License-Identifier: GPL-2.0
/*
 * stats-oracle.c - reads "x1 x2 ...;y1 y2 ..." lines, prints "t df
 * p_welch u p_mwu exact" for each, so a test can hold kab's statistics
 * against an independent implementation (scipy).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analysis/analysis.h"

static size_t parse(char *s, double *v, size_t max)
{
	size_t n = 0;
	char *tok, *save;

	for (tok = strtok_r(s, " ", &save); tok && n < max;
	     tok = strtok_r(NULL, " ", &save))
		v[n++] = strtod(tok, NULL);
	return n;
}

int main(void)
{
	static char line[1 << 16];
	static double x[1000], y[1000];

	while (fgets(line, sizeof(line), stdin)) {
		char *semi = strchr(line, ';');
		struct kab_welch w;
		struct kab_mwu u;
		size_t nx, ny;

		if (!semi)
			continue;
		*semi = '\0';
		nx = parse(line, x, 1000);
		ny = parse(semi + 1, y, 1000);
		kab_welch(x, nx, y, ny, &w);
		kab_mwu(x, nx, y, ny, &u);
		printf("%.17g %.17g %.17g %.17g %.17g %d\n", w.t, w.df, w.p,
		       u.u, u.p, u.exact);
	}
	return 0;
}
