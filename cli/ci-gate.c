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
		  const struct gate_kpi *v, size_t nr, size_t failed)
{
	size_t i;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuites name=\"kab ci gate\" tests=\"%zu\" failures=\"%zu\">\n"
		"  <testsuite name=\"", nr, failed);
	html_escape(f, base);
	fputs(" -> ", f);
	html_escape(f, head);
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
		"skipped=\"0\">\n", nr, failed);
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
		}
		fputs("      <system-out>", f);
		html_escape(f, v[i].what);
		fputs("</system-out>\n    </testcase>\n", f);
	}
	fputs("  </testsuite>\n</testsuites>\n", f);
}

static void summary(FILE *f, const char *base, const char *head,
		    const struct gate_opts *o, const struct gate_kpi *v,
		    size_t nr, size_t failed)
{
	size_t i;

	if (failed)
		fprintf(f, "## kab ci gate: :x: %zu of %zu KPIs %s\n\n", failed,
			nr, o->fail_on_change ? "changed" : "regressed");
	else
		fprintf(f, "## kab ci gate: :white_check_mark: no KPI %s\n\n",
			o->fail_on_change ? "changed" : "regressed");
	md_code(f, head);
	fputs(" against ", f);
	md_code(f, base);
	fprintf(f, ", failing on a significant %s beyond %g%%.\n\n"
		"| job | KPI | base | head | change | verdict |\n"
		"|---|---|---:|---:|---|---|\n",
		o->fail_on_change ? "change" : "regression", o->threshold);
	for (i = 0; i < nr; i++) {
		const struct kab_row *r = v[i].row;
		const struct kab_cell *c = &r->cells[0];

		fputs("| ", f);
		md_text(f, v[i].job);
		fputs(" | ", f);
		md_code(f, r->metric);
		fprintf(f, " | %.6g ±%.0f%% | %.6g ±%.0f%% | ", r->base.mean,
			kab_summary_pct(&r->base), c->s.mean,
			kab_summary_pct(&c->s));
		md_text(f, v[i].what);
		fprintf(f, " | %s |\n", v[i].failed ? "**fail**" : "pass");
	}
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

	junit(f, c->base, c->head, c->g->v, c->g->nr, c->g->failed);
}

static void do_summary(FILE *f, void *arg)
{
	const struct out_ctx *c = arg;

	summary(f, c->base, c->head, &c->a->g, c->g->v, c->g->nr,
		c->g->failed);
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
			"s:s}",
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
			"failed", v->failed, "what", v->what));
	}
	doc = json_pack("{s:s, s:s, s:s, s:s, s:f, s:s, s:I, s:o}",
			"schema", "kab.gate/1", "base", c->base,
			"head", c->head, "fail_on", o->fail_on_change ?
			"change" : "regression", "threshold", o->threshold,
			"result", c->g->failed ? "fail" : "pass",
			"failed", (json_int_t)c->g->failed, "kpis", kpis);
	json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
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
		printf("%s  %s  %s: %s\n", g.v[i].failed ? "FAIL" : "pass",
		       g.v[i].job, g.v[i].row->metric, g.v[i].what);
	if (a->json)
		gate_json(stdout, &ctx);
	rc = g.failed ? 1 : EXIT_OK;
	if (a->junit && write_to(a->junit, false, do_junit, &ctx))
		rc = EXIT_USAGE;
	if (a->summary && write_to(a->summary, true, do_summary, &ctx))
		rc = EXIT_USAGE;
	gate_free(&g);
	return rc;
}
