// SPDX-License-Identifier: GPL-2.0
/*
 * trend.c - a metric over the commits a bisect tested, the way lkp's
 * robot drew it in its older emails (gnuplot's dumb terminal): a y
 * axis of values, one column per commit in history order, '*' for a
 * sample of a good commit, 'O' for a bad one, and the legend below.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

static void fmt_tick(double v, char *buf, size_t n)
{
	if (fabs(v) >= 1e6)
		snprintf(buf, n, "%.3g", v);
	else if (fabs(v) >= 100 || v == floor(v))
		snprintf(buf, n, "%.0f", v);
	else
		snprintf(buf, n, "%.2f", v);
}

void kab_trend_plot(FILE *out, const char *metric,
		    const struct kab_trend_point *p, size_t nr, int width,
		    int height)
{
	double lo = INFINITY, hi = -INFINITY;
	char **grid, tick[32];
	int r, c, label_w = 0;
	size_t i, k;

	for (i = 0; i < nr; i++)
		for (k = 0; k < p[i].n; k++) {
			lo = fmin(lo, p[i].v[k]);
			hi = fmax(hi, p[i].v[k]);
		}
	if (!nr || lo > hi || width < 20 || height < 4)
		return;
	if (hi == lo) {
		hi += fabs(hi) * 0.05 + 1;
		lo -= fabs(lo) * 0.05 + 1;
	}
	/* a margin, so that no sample sits on the frame */
	hi += (hi - lo) * 0.05;
	lo -= (hi - lo) * 0.05;
	for (r = 0; r <= height; r += 2) {
		fmt_tick(hi - (hi - lo) * r / height, tick, sizeof(tick));
		if ((int)strlen(tick) > label_w)
			label_w = strlen(tick);
	}
	grid = calloc(height + 1, sizeof(*grid));
	if (!grid)
		return;
	for (r = 0; r <= height; r++) {
		grid[r] = malloc(width + 1);
		if (!grid[r])
			goto out;
		memset(grid[r], ' ', width);
		grid[r][width] = '\0';
	}
	for (i = 0; i < nr; i++) {
		c = nr == 1 ? width / 2 :
		    2 + (int)((double)i * (width - 5) / (nr - 1) + 0.5);
		for (k = 0; k < p[i].n; k++) {
			r = (int)((hi - p[i].v[k]) / (hi - lo) * height + 0.5);
			grid[r][c] = p[i].kind > 0 ? '*' :
				     p[i].kind < 0 ? 'O' : '?';
		}
	}
	fprintf(out, "%*s%s\n\n", label_w + 2 + (width - (int)strlen(metric))
		/ 2, "", metric);
	for (r = 0; r <= height; r++) {
		bool edge = r == 0 || r == height;

		if (r % 2 == 0) {
			fmt_tick(hi - (hi - lo) * r / height, tick,
				 sizeof(tick));
			fprintf(out, "  %*s ++", label_w, tick);
		} else {
			fprintf(out, "  %*s  |", label_w, "");
		}
		for (c = 0; c < width; c++)
			fputc(edge && grid[r][c] == ' ' ? '-' : grid[r][c],
			      out);
		fprintf(out, "%s\n", r % 2 == 0 ? "++" : "|");
	}
	fprintf(out, "\n%*s[*] bisect-good sample\n%*s[O] bisect-bad  sample\n",
		label_w + 8, "", label_w + 8, "");
	if (nr > 1) {
		fprintf(out, "%*s(left to right: ", label_w + 8, "");
		for (i = 0; i < nr; i++)
			fprintf(out, "%s%s", i ? " " : "", p[i].name);
		fprintf(out, ")\n");
	}
out:
	for (r = 0; r <= height; r++)
		free(grid[r]);
	free(grid);
}
