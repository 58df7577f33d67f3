// SPDX-License-Identifier: GPL-2.0
/*
 * svg.c - charts for the HTML report, as inline SVG: every
 * sample of a KPI on each side (a strip plot, boots told apart), and a
 * KPI's samples over the commits a bisect tested.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define W	720
#define LEFT	150
#define RIGHT	30

void html_escape(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '&':
			fputs("&amp;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&#39;", out);
			break;
		default:
			/* XML 1.0 has no place for other control characters */
			if ((unsigned char)*s >= 0x20 || *s == '\n' ||
			    *s == '\t')
				fputc(*s, out);
		}
	}
}

struct scale {
	double lo, hi;
	double px0, px1;
};

static void scale_fit(struct scale *s, const double *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!isfinite(v[i]))
			continue;
		s->lo = fmin(s->lo, v[i]);
		s->hi = fmax(s->hi, v[i]);
	}
}

static void scale_pad(struct scale *s)
{
	double pad;

	if (!isfinite(s->lo)) {
		s->lo = 0;
		s->hi = 1;
	}
	pad = (s->hi - s->lo) * 0.05;
	if (pad == 0)
		pad = fabs(s->lo) * 0.05 + 1;
	s->lo -= pad;
	s->hi += pad;
}

static double at(const struct scale *s, double v)
{
	return s->px0 + (v - s->lo) / (s->hi - s->lo) * (s->px1 - s->px0);
}

/* Ticks at round values (12,000 14,000 ...), labelled for people. */
static void ticks(FILE *out, const struct scale *s, bool vertical,
		  double pos)
{
	double t[8];
	char num[64];
	size_t i, n;
	int dec;

	n = kab_nice_ticks(s->lo, s->hi, 6, t, &dec);
	for (i = 0; i < n; i++) {
		double p = at(s, t[i]);

		kab_fmt_readable_dec(num, sizeof(num), t[i], dec);
		if (vertical)
			fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor="
				"\"end\" class=\"tick\">%s</text>\n",
				pos - 4, p + 4, num);
		else
			fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				"y2=\"%.1f\" class=\"grid\"/><text x=\"%.1f\" "
				"y=\"%.1f\" text-anchor=\"middle\" class=\"tick"
				"\">%s</text>\n", p, 10.0, p, pos, p,
				pos + 14, num);
	}
}

static double median(const double *v, size_t n)
{
	double *c = xcalloc(n ? n : 1, sizeof(*c));
	struct kab_summary s;

	memcpy(c, v, n * sizeof(*c));
	kab_summarize(c, n, &s);
	free(c);
	return s.median;
}

void svg_strip(FILE *out, const char *metric, const struct kab_series *b,
	       const char *bname, const struct kab_series *h,
	       const char *hname)
{
	const struct kab_series *side[2] = { b, h };
	const char *name[2] = { bname, hname }, *cls[2] = { "base", "head" };
	struct scale s = { INFINITY, -INFINITY, LEFT, W - RIGHT };
	char num[64];
	int height = 2 * 50 + 40, k;
	size_t i;

	scale_fit(&s, b->v, b->n);
	scale_fit(&s, h->v, h->n);
	scale_pad(&s);
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"kab-"
		"chart strip\" data-metric=\"");
	html_escape(out, metric);
	fprintf(out, "\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"role=\"img\">\n<title>", W, height, W, height);
	html_escape(out, metric);
	fputs(": every sample, base and head</title>\n", out);
	ticks(out, &s, false, height - 24);
	for (k = 0; k < 2; k++) {
		double y = 35 + k * 50, med = median(side[k]->v, side[k]->n);

		fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" "
			"class=\"side\">", LEFT - 10, y + 4);
		if (strlen(name[k]) > 16) {	/* a commit: 12 digits do */
			char *cut = xstrndup(name[k], 12);

			html_escape(out, cut);
			free(cut);
		} else {
			html_escape(out, name[k]);
		}
		fprintf(out, " (n=%zu)</text>\n", side[k]->n);
		for (i = 0; i < side[k]->n; i++) {
			int boot = side[k]->boot ? side[k]->boot[i] : 0;

			if (!isfinite(side[k]->v[i]))
				continue;
			/* each boot on its own line, so that boots show */
			kab_fmt_readable(num, sizeof(num), side[k]->v[i]);
			fprintf(out, "<circle class=\"sample %s boot%d\" cx=\""
				"%.1f\" cy=\"%.1f\" r=\"4\"><title>%s (boot "
				"%d)</title></circle>\n", cls[k], boot % 6,
				at(&s, side[k]->v[i]),
				y + (boot % 5 - 2) * 5.0, num, boot + 1);
		}
		fprintf(out, "<line class=\"median\" x1=\"%.1f\" y1=\"%.1f\" "
			"x2=\"%.1f\" y2=\"%.1f\"/>\n", at(&s, med), y - 16,
			at(&s, med), y + 16);
	}
	fputs("</svg>\n", out);
}

void svg_trend(FILE *out, const char *metric,
	       const struct kab_trend_point *p, size_t nr)
{
	struct scale s = { INFINITY, -INFINITY, 230, 20 };
	char num[64];
	int height = 260;
	double step = nr > 1 ? (W - LEFT - RIGHT) / (double)(nr - 1) : 0;
	size_t i, k;

	for (i = 0; i < nr; i++)
		scale_fit(&s, p[i].v, p[i].n);
	scale_pad(&s);
	fputs("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"kab-chart "
	      "trend\" data-metric=\"", out);
	html_escape(out, metric);
	fprintf(out, "\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"role=\"img\">\n<title>", W, height, W, height);
	html_escape(out, metric);
	fputs(" over the bisected commits</title>\n", out);
	ticks(out, &s, true, LEFT - 10);
	for (i = 0; i < nr; i++) {
		double x = LEFT + (nr > 1 ? step * i : (W - LEFT - RIGHT) / 2);
		const char *cls = p[i].kind > 0 ? "good" : p[i].kind < 0 ?
				  "bad" : "skip";

		fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\""
			" class=\"tick\">", x, height - 12);
		html_escape(out, p[i].name);
		fputs("</text>\n", out);
		for (k = 0; k < p[i].n; k++) {
			if (!isfinite(p[i].v[k]))
				continue;
			kab_fmt_readable(num, sizeof(num), p[i].v[k]);
			fprintf(out, "<circle class=\"sample %s\" cx=\"%.1f\" "
				"cy=\"%.1f\" r=\"4\"><title>%s</title></circle>"
				"\n", cls, x, at(&s, p[i].v[k]), num);
		}
	}
	fputs("</svg>\n", out);
}

/*
 * A watch's series: a column per commit (pending and skipped ones
 * too, empty), a dot per boot, and each change point a dashed line
 * between its two commits, linked to its report when it has one.
 */
void svg_series(FILE *out, const struct report_series *rs)
{
	struct scale s = { INFINITY, -INFINITY, 250, 30 };
	int height = 330;
	double step = rs->nr > 1 ? (W - LEFT - RIGHT) /
				   (double)(rs->nr - 1) : 0;
	char num[64];
	size_t i, k;

	for (i = 0; i < rs->nr; i++)
		scale_fit(&s, rs->pts[i].v, rs->pts[i].n);
	scale_pad(&s);
	fputs("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"kab-chart "
	      "series\" data-metric=\"", out);
	html_escape(out, rs->metric);
	fprintf(out, "\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"role=\"img\">\n<title>", W, height, W, height);
	html_escape(out, rs->metric);
	fputs(" over the branch's commits</title>\n", out);
	ticks(out, &s, true, LEFT - 10);
	for (i = 0; i < rs->nr; i++) {
		const struct report_series_pt *p = &rs->pts[i];
		double x = LEFT + (rs->nr > 1 ? step * i :
				   (W - LEFT - RIGHT) / 2.0);

		/* every commit's digits would not fit: about a dozen do */
		if (rs->nr <= 12 || i % ((rs->nr + 11) / 12) == 0 ||
		    i + 1 == rs->nr) {
			fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor="
				"\"end\" transform=\"rotate(-40 %.1f %d)\" "
				"class=\"tick\">", x, height - 58, x,
				height - 58);
			html_escape(out, p->commit);
			fputs("</text>\n", out);
		}
		for (k = 0; k < p->n; k++) {
			if (!isfinite(p->v[k]))
				continue;
			kab_fmt_readable(num, sizeof(num), p->v[k]);
			fprintf(out, "<circle class=\"sample boot\" cx=\"%.1f\" "
				"cy=\"%.1f\" r=\"4\"><title>", x,
				at(&s, p->v[k]));
			html_escape(out, p->commit);
			fprintf(out, " boot %zu: %s</title></circle>\n", k + 1,
				num);
		}
	}
	for (i = 0; i < rs->nr_cps; i++) {
		const struct report_series_cp *c = &rs->cps[i];
		double x;

		if (!c->at || c->at >= rs->nr)
			continue;
		/* between the last commit measured before it and the first after */
		x = LEFT + step * (report_series_before(rs, c->at) + c->at) / 2.0;
		if (c->href) {
			fputs("<a href=\"", out);
			html_escape(out, c->href);
			fputs("\">", out);
		}
		fprintf(out, "<g class=\"change %s\"><title>change point %zu",
			c->spread ? "spread" : c->pct < 0 ? "down" : "up",
			i + 1);
		if (!c->spread)
			fprintf(out, ": %+.1f%%", c->pct);
		fputs("</title><line class=\"mark\" x1=\"", out);
		fprintf(out, "%.1f\" y1=\"22\" x2=\"%.1f\" y2=\"%.1f\"/>", x, x,
			s.px0);
		fprintf(out, "<text x=\"%.1f\" y=\"14\" text-anchor=\"middle\" "
			"class=\"label\">", x);
		if (c->spread)
			fputs("spread", out);
		else
			fprintf(out, "%+.1f%%", c->pct);
		fputs("</text></g>", out);
		fputs(c->href ? "</a>\n" : "\n", out);
	}
	fputs("</svg>\n", out);
}
