// SPDX-License-Identifier: GPL-2.0
/*
 * html.c - the report as one self-contained page: the facts,
 * a strip chart of every KPI the A/B moved (and of the main one in any
 * case), the bisect's trend when there was one, lkp's tables and the
 * commands.  No script, no external file: it opens from disk.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

const char report_css[] =
	"body{font-family:sans-serif;max-width:60em;margin:2em auto;"
	"color:#222}\n"
	"pre{background:#f6f6f6;padding:1em;overflow-x:auto;font-size:85%}\n"
	"dt{font-weight:bold;float:left;clear:left;width:9em}\n"
	"dd{margin-left:10em}\n"
	".improvement{color:#070}.regression{color:#b00}\n"
	"svg .sample{fill-opacity:.7}\n"
	"svg .base{fill:#4575b4}svg .head{fill:#d73027}\n"
	"svg .good{fill:#4575b4}svg .bad{fill:#d73027}svg .skip{fill:#999}\n"
	"svg .median{stroke:#000;stroke-width:2}\n"
	"svg .grid{stroke:#ddd}svg .tick{font-size:11px;fill:#555}\n"
	"svg .side{font-size:12px}\n"
	"svg.flame rect{stroke:#fff;stroke-width:.5}\n"
	"svg.flame text{fill:#000;pointer-events:none}\n"
	"svg.flame .frame:hover rect{stroke:#000}\n";

static const char *verdict_class(int verdict)
{
	return verdict > 0 ? "improvement" : verdict < 0 ? "regression" :
	       "change";
}

/* "bind=core mode=process ..." of "will-it-scale: bind=core ...". */
static const char *params_of(const char *job_name)
{
	const char *p = strstr(job_name, ": ");

	return p ? p + 2 : job_name;
}

static void fact(FILE *out, const char *name, const char *value)
{
	fprintf(out, "<dt>%s</dt><dd>", name);
	html_escape(out, value);
	fputs("</dd>\n", out);
}

static void chart(FILE *out, const struct report_job *j)
{
	const struct cmp_table *t = j->t;
	const struct kab_series *b = kab_side_series(&t->side[0], j->kpi->metric);
	const struct kab_series *h = kab_side_series(&t->side[1], j->kpi->metric);
	char *change = report_change(j), *name;

	if (!b || !h) {
		free(change);
		return;
	}
	name = report_job_name(t);
	fputs("<figure>\n", out);
	svg_strip(out, j->kpi->metric, b, t->side[0].id, h, t->side[1].id);
	fputs("<figcaption>", out);
	html_escape(out, j->testcase);
	fputs(": <code>", out);
	html_escape(out, j->kpi->metric);
	fputs("</code> ", out);
	if (change)
		fprintf(out, "<span class=\"%s\">%s</span>",
			verdict_class(j->kv.verdict), change);
	else if (report_unjudged(j))
		fputs("no verdict", out);
	else
		fputs("no significant change", out);
	fputs(" (", out);
	html_escape(out, params_of(name));
	fputs("); a dot per sample, a row per boot, the bar at the "
	      "median</figcaption>\n</figure>\n", out);
	free(name);
	free(change);
}

static void tables(FILE *out, const struct report *r)
{
	char *buf = NULL;
	size_t len = 0, i, k;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return;
	for (i = 0; i < r->nr; i++) {
		const struct cmp_table *t = r->job[i].t;

		kab_lkp_header(f, &t->h, false);
		kab_lkp_failures(f, &t->h, false, false);
		kab_lkp_columns(f, 1);
		for (k = 0; k < t->c.nr_rows; k++)
			if (t->c.rows[k].shown)
				kab_lkp_row(f, &t->c.rows[k], 1, false,
					    true);
		fputc('\n', f);
	}
	fclose(f);
	fputs("<pre class=\"lkp\">", out);
	html_escape(out, buf);
	fputs("</pre>\n", out);
	free(buf);
}

void report_html(FILE *out, const struct report *r)
{
	const struct report_job *m = report_main(r);
	char *change = report_change(m), *name;
	size_t i;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\""
	      "utf-8\">\n<title>", out);
	html_escape(out, r->subject);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>",
		report_css);
	html_escape(out, r->subject);
	fputs("</h1>\n<p>", out);
	if (change)
		fprintf(out, "kab noticed a <strong class=\"%s\">%s</strong> of ",
			verdict_class(m->kv.verdict), change);
	else if (report_unjudged(m))
		fputs("kab has <strong>no verdict</strong> on ", out);
	else
		fputs("kab found <strong>no significant change</strong> of ",
		      out);
	fputs("<code>", out);
	html_escape(out, m->kpi->metric);
	fputs("</code>", out);
	if (!change && report_unjudged(m))
		fprintf(out, " (%s)", report_unjudged(m));
	fputs(".</p>\n<dl>\n", out);
	fact(out, r->head_kind, r->head_line);
	fact(out, "compared with", r->base_line);
	fact(out, "testcase", m->testcase);
	fact(out, "config", r->config);
	fact(out, "compiler", r->compiler);
	fact(out, "test machine", m->machine);
	name = report_job_name(m->t);
	fact(out, "parameters", params_of(name));
	free(name);
	fputs("</dl>\n<h2>Key performance indicators</h2>\n", out);
	chart(out, m);
	for (i = 0; i < r->nr; i++)
		if (i != r->main && r->job[i].kpi)
			chart(out, &r->job[i]);
	if (r->nr_trend) {
		fputs("<h2>Over the bisected commits</h2>\n<figure>\n", out);
		svg_trend(out, r->trend_metric, r->trend, r->nr_trend);
		fputs("<figcaption>blue: good, red: bad, grey: skipped; one dot "
		      "per sample</figcaption>\n</figure>\n", out);
	}
	if (r->has_flame) {
		fputs("<h2>Where the time went</h2>\n<figure>\n", out);
		svg_flame(out, &r->flame);
		fputs("<figcaption>A differential flame graph of ", out);
		html_escape(out, m->testcase);
		fputs(" (perf-profile, ", out);
		html_escape(out, r->flame.event);
		fprintf(out, "; %llu and %llu samples): callers below "
			"callees, each frame as wide as its share of the head's "
			"samples, <span class=\"regression\">red</span> where "
			"the head spends more of its time, blue where less; "
			"hover a frame for its shares.  What only the base ran "
			"has no width here: the table lists it.</figcaption>\n"
			"</figure>\n",
			(unsigned long long)r->flame.total[0],
			(unsigned long long)r->flame.total[1]);
	}
	fputs("<h2>Details</h2>\n", out);
	tables(out, r);
	fputs("<h2>To reproduce with kab</h2>\n<pre class=\"reproduce\">", out);
	html_escape(out, r->reproduce);
	fprintf(out, "</pre>\n<p><small>kab %s</small></p>\n</body>\n</html>\n",
		KAB_VERSION);
	free(change);
}
