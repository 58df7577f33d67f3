// SPDX-License-Identifier: GPL-2.0
/*
 * flame.c - the HTML report's differential flame graph, as
 * inline SVG: the callers at the bottom, each frame as wide as its
 * share of the head's samples, red where the head spends more of its
 * time there than the base, blue where less, the shares and the change
 * on hover.  Frames under half a pixel are left out, and what only the
 * base ran has no width: the tables have those rows.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define FW	960		/* px for all of the head's samples */
#define FH	17		/* px a frame */
#define CHAR_W	6.5		/* px a character of the 11px label */

static double delta(const struct kab_flame_node *n)
{
	return n->share[1] - n->share[0];
}

static void max_delta(const struct kab_flame_node *n, double *max)
{
	size_t i;

	if (fabs(delta(n)) > *max)
		*max = fabs(delta(n));
	for (i = 0; i < n->nr; i++)
		max_delta(&n->kid[i], max);
}

/* white for no change, to full red (more) or blue (less) */
static void fill(FILE *out, double d, double max)
{
	int s = (int)(200 * fmin(1, fabs(d) / max));

	if (d > 0)
		fprintf(out, "rgb(255,%d,%d)", 235 - s, 225 - s);
	else
		fprintf(out, "rgb(%d,%d,255)", 225 - s, 235 - s);
}

static void frame(FILE *out, const struct kab_flame_node *n, double x,
		  int depth, int height, double max)
{
	double w = n->share[1] / 100 * FW, kx = x;
	int y = height - (depth + 1) * FH;
	size_t i, fit;

	if (w < 0.5)
		return;
	fputs("<g class=\"frame\"><title>", out);
	html_escape(out, n->name);
	fprintf(out, ": base %.2f%%, head %.2f%% (%+.2f points)</title>",
		n->share[0], n->share[1], delta(n));
	fprintf(out, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
		"fill=\"", x, y, w, FH - 1);
	fill(out, delta(n), max);
	fputs("\"/>", out);
	fit = w > 4 * CHAR_W ? (size_t)((w - 6) / CHAR_W) : 0;
	if (fit) {
		fprintf(out, "<text x=\"%.1f\" y=\"%d\">", x + 3, y + FH - 5);
		if (strlen(n->name) <= fit) {
			html_escape(out, n->name);
		} else {
			char *cut = xstrndup(n->name, fit - 2);

			html_escape(out, cut);
			fputs("..", out);
			free(cut);
		}
		fputs("</text>", out);
	}
	fputs("</g>\n", out);
	for (i = 0; i < n->nr; i++) {
		frame(out, &n->kid[i], kx, depth + 1, height, max);
		kx += n->kid[i].share[1] / 100 * FW;
	}
}

void svg_flame(FILE *out, const struct kab_flame *f)
{
	int height = (f->max_depth + 1) * FH;
	/* full colour at 10 points or the largest change: noise is pale */
	double max = 10, x = 0;
	size_t i;

	max_delta(&f->root, &max);
	fprintf(out, "<svg class=\"kab-chart flame\" xmlns=\"http://www.w3.org"
		"/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-size=\"11\">\n", FW, height, FW, height);
	/* the root is every sample: its children stand on the bottom row */
	for (i = 0; i < f->root.nr; i++) {
		frame(out, &f->root.kid[i], x, 0, height, max);
		x += f->root.kid[i].share[1] / 100 * FW;
	}
	fputs("</svg>\n", out);
}
