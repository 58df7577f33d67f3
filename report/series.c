// SPDX-License-Identifier: GPL-2.0
/*
 * series.c - the page of a watch's series (kab watch --html): its
 * chart, a dot per boot and each change point marked and linked to
 * its report, then the change points and the commits as tables.  No
 * script, no external file: it opens from disk.
 */
#include <math.h>
#include <string.h>

#include "report.h"

static const char style[] =
	"svg .boot{fill:#4575b4;fill-opacity:1}\n"
	"svg .change .mark{stroke:#d73027;stroke-width:3;"
	"stroke-dasharray:6 3}\n"
	"svg .change.up .mark{stroke:#1a9850}\n"
	"svg .change.spread .mark{stroke:#999}\n"
	"svg .change .label{font-size:12px;font-weight:bold}\n"
	"table{border-collapse:collapse}td,th{padding:.2em .6em;"
	"text-align:left}\n"
	"tr:nth-child(even){background:#f6f6f6}\n"
	"td.num{text-align:right;font-family:monospace}\n"
	"td pre{white-space:pre-wrap;font-size:75%}\n";

static void text(FILE *out, const char *s)
{
	html_escape(out, s ? s : "");
}

static double mean(const double *v, size_t n)
{
	double sum = 0;
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (isfinite(v[i])) {
			sum += v[i];
			k++;
		}
	return k ? sum / k : NAN;
}

size_t report_series_before(const struct report_series *s, size_t at)
{
	size_t i = at;

	while (i-- > 0)
		if (!s->pts[i].status)
			return i;
	return at - 1;
}

static void changes(FILE *out, const struct report_series *s)
{
	size_t i;

	if (!s->nr_cps) {
		fputs("<p>No change point.</p>\n", out);
		return;
	}
	fputs("<table class=\"changes\">\n<tr><th>#</th><th>between</th>"
	      "<th>change</th><th>95% interval</th><th>p</th>"
	      "<th>culprit</th></tr>\n", out);
	for (i = 0; i < s->nr_cps; i++) {
		const struct report_series_cp *c = &s->cps[i];

		if (!c->at || c->at >= s->nr)
			continue;
		fprintf(out, "<tr id=\"change-%zu\"><td>%zu</td><td><code>", i + 1,
			i + 1);
		text(out, s->pts[report_series_before(s, c->at)].commit);
		fputs("</code> .. <code>", out);
		text(out, s->pts[c->at].commit);
		if (c->spread)
			fputs("</code></td><td>the spread, not the mean</td>"
			      "<td></td><td></td><td>", out);
		else
			fprintf(out, "</code></td><td class=\"num\">%+.1f%%</td>"
				"<td class=\"num\">[%+.1f%%, %+.1f%%]</td>"
				"<td class=\"num\">%.3g</td><td>", c->pct,
				c->lo, c->hi, c->p);
		if (c->culprit && c->status &&
		    !strcmp(c->status, "verified")) {
			if (c->href) {
				fputs("<a href=\"", out);
				html_escape(out, c->href);
				fputs("\">", out);
			}
			fputs("<code>", out);
			text(out, c->culprit);
			fputs(c->href ? "</code></a>" : "</code>", out);
			fputs(" (verified)", out);
		} else if (c->status && !strcmp(c->status, "not-isolated")) {
			fputs("not isolated", out);
		} else {
			fputs("not checked yet", out);
		}
		if (c->evidence && *c->evidence) {
			fputs("<pre>", out);
			text(out, c->evidence);
			fputs("</pre>", out);
		}
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n", out);
}

static void commits(FILE *out, const struct report_series *s)
{
	char num[64];
	size_t i;

	fputs("<table class=\"commits\">\n<tr><th>commit</th><th>mean</th>"
	      "<th>boots</th><th>subject</th></tr>\n", out);
	for (i = 0; i < s->nr; i++) {
		const struct report_series_pt *p = &s->pts[i];

		fputs("<tr><td><code>", out);
		text(out, p->commit);
		fputs("</code></td><td class=\"num\">", out);
		if (p->status) {
			fputs("(", out);
			text(out, p->status);
			fputs(")", out);
		} else if (isfinite(mean(p->v, p->n))) {
			kab_fmt_readable(num, sizeof(num), mean(p->v, p->n));
			fputs(num, out);
		}
		fprintf(out, "</td><td class=\"num\">%zu</td><td>", p->n);
		text(out, p->subject);
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n", out);
}

void report_series_html(FILE *out, const struct report_series *s)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\""
	      "utf-8\">\n<title>", out);
	text(out, s->name);
	fputs(": ", out);
	text(out, s->metric);
	fprintf(out, "</title>\n<style>\n%s%s</style>\n</head>\n<body>\n"
		"<h1>", report_css, style);
	text(out, s->name);
	fputs("</h1>\n<p>kab watch follows <code>", out);
	text(out, s->branch);
	fputs("</code> of <code>", out);
	text(out, s->tree);
	fputs("</code> from <code>", out);
	text(out, s->from);
	fputs("</code>.</p>\n<h2><code>", out);
	text(out, s->metric);
	fputs("</code></h2>\n<figure>\n", out);
	svg_series(out, s);
	fputs("<figcaption>a column per commit, oldest first, a dot per "
	      "boot; each change point a dashed line between its two "
	      "commits (red: down, green: up, grey: the spread), linked to "
	      "its culprit's report</figcaption>\n</figure>\n"
	      "<h2>Change points</h2>\n", out);
	changes(out, s);
	fputs("<h2>Commits</h2>\n", out);
	commits(out, s);
	fprintf(out, "<p><small>kab %s</small></p>\n</body>\n</html>\n",
		KAB_VERSION);
}
