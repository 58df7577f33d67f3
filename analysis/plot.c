// SPDX-License-Identifier: GPL-2.0
/*
 * plot.c - both sides' samples on one axis, in ministat's spirit: each
 * sample a mark (x base, + head, * both), stacked where they collide,
 * then per side its mean (A), median (M) and one stddev either side.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

#define W	72
#define ROWS	8

static int col(double v, double lo, double hi)
{
	int c = hi > lo ? (int)((v - lo) / (hi - lo) * (W - 1) + 0.5) : W / 2;

	return c < 0 ? 0 : c >= W ? W - 1 : c;
}

static void mark(char grid[ROWS][W + 1], int c, char m)
{
	int r;

	for (r = 0; r < ROWS; r++) {
		if (grid[r][c] == ' ') {
			grid[r][c] = m;
			return;
		}
		if (grid[r][c] != m && grid[r][c] != '*') {
			grid[r][c] = '*';
			return;
		}
	}
}

static void spread_line(FILE *out, const double *v, size_t n, double lo,
			double hi)
{
	double *c = malloc(n * sizeof(*c));
	struct kab_summary s;
	char line[W + 1];
	int a, b, i;

	memcpy(c, v, n * sizeof(*c));
	kab_summarize(c, n, &s);
	free(c);
	memset(line, ' ', W);
	line[W] = '\0';
	a = col(s.mean - s.stddev, lo, hi);
	b = col(s.mean + s.stddev, lo, hi);
	for (i = a; i <= b; i++)
		line[i] = '_';
	line[a] = '|';
	line[b] = '|';
	line[col(s.median, lo, hi)] = 'M';
	line[col(s.mean, lo, hi)] = 'A';
	fprintf(out, "    |%s|\n", line);
}

void kab_plot(FILE *out, const char *metric, const double *x, size_t nx,
	      const char *xname, const double *y, size_t ny,
	      const char *yname)
{
	char grid[ROWS][W + 1];
	double lo = INFINITY, hi = -INFINITY;
	size_t i;
	int r, used = 0;

	for (i = 0; i < nx; i++) {
		lo = fmin(lo, x[i]);
		hi = fmax(hi, x[i]);
	}
	for (i = 0; i < ny; i++) {
		lo = fmin(lo, y[i]);
		hi = fmax(hi, y[i]);
	}
	if (!nx || !ny)
		return;
	for (r = 0; r < ROWS; r++) {
		memset(grid[r], ' ', W);
		grid[r][W] = '\0';
	}
	for (i = 0; i < nx; i++)
		mark(grid, col(x[i], lo, hi), 'x');
	for (i = 0; i < ny; i++)
		mark(grid, col(y[i], lo, hi), '+');
	for (r = 0; r < ROWS; r++)
		if (strspn(grid[r], " ") != W)
			used = r + 1;
	fprintf(out, "%s\n    +", metric);
	for (i = 0; i < W; i++)
		fputc('-', out);
	fputs("+\n", out);
	for (r = used - 1; r >= 0; r--)
		fprintf(out, "    |%s|\n", grid[r]);
	spread_line(out, x, nx, lo, hi);
	spread_line(out, y, ny, lo, hi);
	fputs("    +", out);
	for (i = 0; i < W; i++)
		fputc('-', out);
	fprintf(out, "+\n    %-*.10g%*.10g\n", W / 2 + 1, lo, W / 2 + 1, hi);
	fprintf(out, "    x %s (n=%zu)   + %s (n=%zu)   A mean, M median, "
		"|_| one stddev\n\n", xname, nx, yname, ny);
}
