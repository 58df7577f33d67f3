// SPDX-License-Identifier: GPL-2.0
/*
 * ci-gate.c - kab ci gate BASE HEAD: each job's KPI tested as kab
 * compare tests it; the pipeline fails when one regressed (or changed)
 * significantly beyond a threshold.  JUnit XML for CI dashboards, a
 * markdown summary for $GITHUB_STEP_SUMMARY.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ci.h"

static void junit(FILE *f, const char *base, const char *head,
		  const struct gate *g)
{
	const struct gate_kpi *v = g->v;
	size_t i, nr = g->nr;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuites name=\"kab ci gate\" tests=\"%zu\" "
		"failures=\"%zu\" skipped=\"%zu\">\n"
		"  <testsuite name=\"", nr, g->failed, g->inconclusive);
	html_escape(f, base);
	fputs(" -> ", f);
	html_escape(f, head);
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
		"skipped=\"%zu\">\n", nr, g->failed, g->inconclusive);
	for (i = 0; i < nr; i++) {
		const struct kab_row *r = v[i].row;
		const struct kab_cell *c = &r->cells[0];

		fputs("    <testcase classname=\"", f);
		html_escape(f, v[i].job);
		fputs("\" name=\"", f);
		html_escape(f, r->metric);
		fputs("\">\n", f);
		if (v[i].failed) {
			fprintf(f, "      <failure type=\"%s\" message=\"",
				v[i].regressed ? "regression" : "change");
			html_escape(f, v[i].what);
			fputs("\">", f);
			fprintf(f, "base mean %.6g (n=%zu, stddev %.3g%%), head "
				"mean %.6g (n=%zu, stddev %.3g%%)", r->base.mean,
				r->base.n, kab_summary_pct(&r->base),
				c->s.mean, c->s.n, kab_summary_pct(&c->s));
			fputs("</failure>\n", f);
		} else if (v[i].inconclusive) {
			/* not judged is not passed: a dashboard shows it */
			fputs("      <skipped message=\"", f);
			html_escape(f, v[i].what);
			fputs("\"/>\n", f);
		}
		fputs("      <system-out>", f);
		html_escape(f, v[i].what);
		fputs("</system-out>\n    </testcase>\n", f);
	}
	fputs("  </testsuite>\n</testsuites>\n", f);
}

/* "8,694 ±1.2%": as the report's markdown prints a mean */
static void md_mean(FILE *f, const struct kab_summary *s)
{
	char num[64];
	double pct = kab_summary_pct(s);

	kab_fmt_readable(num, sizeof(num), s->mean);
	fprintf(f, "%s ±%.*f%%", num, pct < 10 ? 1 : 0, pct);
}

static const char *verdict_word(const struct gate_kpi *v)
{
	return v->failed ? "**fail**" :
	       v->inconclusive ? "**inconclusive**" : "pass";
}

static void summary(FILE *f, const char *base, const char *head,
		    const struct gate_opts *o, const struct gate *g)
{
	const char *what = o->fail_on_change ? "changed" : "regressed";
	size_t i;

	switch (gate_result(g, o)) {
	case GATE_FAIL:
		fprintf(f, "## kab ci gate: :x: %zu of %zu KPIs %s\n\n",
			g->failed, g->nr, what);
		break;
	case GATE_INCONCLUSIVE:
		fprintf(f, "## kab ci gate: :warning: inconclusive, %zu of %zu "
			"KPIs without a verdict\n\n", g->inconclusive, g->nr);
		break;
	default:
		fprintf(f, "## kab ci gate: :white_check_mark: no KPI %s", what);
		if (g->inconclusive)
			fprintf(f, " (%zu without a verdict, let pass by "
				"--allow-inconclusive)", g->inconclusive);
		fputs("\n\n", f);
	}
	md_code(f, head);
	fputs(" against ", f);
	md_code(f, base);
	fprintf(f, ", failing on a significant %s beyond %g%%.\n\n"
		"| job | KPI | base | head | change | verdict |\n"
		"|---|---|---:|---:|---|---|\n",
		o->fail_on_change ? "change" : "regression", o->threshold);
	for (i = 0; i < g->nr; i++) {
		const struct kab_row *r = g->v[i].row;
		const struct kab_cell *c = &r->cells[0];

		fputs("| ", f);
		md_text(f, g->v[i].job);
		fputs(" | ", f);
		md_code(f, r->metric);
		fputs(" | ", f);
		md_mean(f, &r->base);
		fputs(" | ", f);
		md_mean(f, &c->s);
		fputs(" | ", f);
		md_text(f, g->v[i].what);
		fprintf(f, " | %s |\n", verdict_word(&g->v[i]));
	}
	if (gate_result(g, o) == GATE_INCONCLUSIVE)
		fputs("\nA KPI without a verdict was not judged: measure more "
		      "boots (or runs) a side, or pass `--allow-inconclusive` "
		      "to let it pass.\n", f);
}

/* Write through a callback into path ("-": stdout); append to a summary. */
static int write_to(const char *path, bool append,
		    void (*fn)(FILE *, void *), void *arg)
{
	FILE *f = strcmp(path, "-") ? fopen(path, append ? "a" : "w") : stdout;

	if (!f)
		return cli_error(EXIT_USAGE, "cannot write %s: %m: check the "
				 "path", path);
	fn(f, arg);
	if (f != stdout && fclose(f))
		return cli_error(EXIT_USAGE, "cannot write %s: %m", path);
	return 0;
}

struct out_ctx {
	const char *base, *head;
	const struct gate_args *a;
	const struct gate *g;
};

static void do_junit(FILE *f, void *arg)
{
	const struct out_ctx *c = arg;

	junit(f, c->base, c->head, c->g);
}

static void do_summary(FILE *f, void *arg)
{
	const struct out_ctx *c = arg;

	summary(f, c->base, c->head, &c->a->g, c->g);
}

/* --format json: schema kab.gate/1 (README "JSON schemas"). */
static void gate_json(FILE *f, const struct out_ctx *c)
{
	const struct gate_opts *o = &c->a->g;
	json_t *kpis = json_array(), *doc;
	size_t i;

	for (i = 0; i < c->g->nr; i++) {
		const struct gate_kpi *v = &c->g->v[i];
		const struct kab_cell *x = &v->row->cells[0];

		json_array_append_new(kpis, json_pack(
			"{s:s, s:O, s:s, s:o, s:o, s:o, s:o, s:b, s:s, s:b, "
			"s:b, s:s}",
			"job", v->job, "params", v->t->params_obj,
			"metric", v->row->metric,
			"base_mean", cli_json_num(v->row->base.mean),
			"head_mean", cli_json_num(x->s.mean),
			"change", cli_json_num(x->change),
			"p_adjusted", cli_json_num(v->kv.p),
			"significant", v->kv.significant,
			"verdict", x->confounded || x->few ? "no verdict" :
				   !v->kv.significant ? "no change" :
				   v->kv.verdict > 0 ? "improvement" :
				   v->kv.verdict < 0 ? "regression" : "change",
			"failed", v->failed, "inconclusive", v->inconclusive,
			"what", v->what));
	}
	doc = json_pack("{s:s, s:s, s:s, s:s, s:f, s:b, s:s, s:I, s:I, "
			"s:o}",
			"schema", "kab.gate/1", "base", c->base,
			"head", c->head, "fail_on", o->fail_on_change ?
			"change" : "regression", "threshold", o->threshold,
			"allow_inconclusive", o->allow_inconclusive,
			"result", gate_result_name(gate_result(c->g, o)),
			"failed", (json_int_t)c->g->failed,
			"inconclusive", (json_int_t)c->g->inconclusive,
			"kpis", kpis);
	cli_json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
		   JSON_REAL_PRECISION(17));
	fputc('\n', f);
	json_decref(doc);
}

int ci_gate(struct kab_db *db, const char *base, const char *head,
	    const struct gate_args *a)
{
	struct gate g;
	struct out_ctx ctx = { base, head, a, &g };
	struct kab_err err;
	size_t i;
	int rc;

	rc = gate_build(db, base, head, &a->g, &g, &err);
	cli_notes(g.set.notes);
	if (rc) {
		/* a gate's 1 is a regression, never a database's trouble */
		gate_free(&g);
		return cli_error(EXIT_USAGE, "%s", err.msg);
	}
	for (i = 0; !a->json && i < g.nr; i++)
		printf("%s  %s  %s: %s\n", g.v[i].failed ? "FAIL" :
		       g.v[i].inconclusive ? "inconclusive" : "pass",
		       g.v[i].job, g.v[i].row->metric, g.v[i].what);
	if (a->json)
		gate_json(stdout, &ctx);
	switch (gate_result(&g, &a->g)) {
	case GATE_FAIL:
		rc = EXIT_RUN;
		break;
	case GATE_INCONCLUSIVE:
		rc = cli_error(EXIT_INCONCLUSIVE, "ci gate: inconclusive: "
			       "%zu of %zu KPIs have no verdict; measure more "
			       "boots (or runs) a side, or let them pass with "
			       "--allow-inconclusive", g.inconclusive, g.nr);
		break;
	default:
		rc = EXIT_OK;
	}
	if (a->junit && write_to(a->junit, false, do_junit, &ctx))
		rc = EXIT_USAGE;
	if (a->summary && write_to(a->summary, true, do_summary, &ctx))
		rc = EXIT_USAGE;
	gate_free(&g);
	return rc;
}
