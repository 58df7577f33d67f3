// SPDX-License-Identifier: GPL-2.0
/*
 * ci-gate.c - kab ci gate BASE HEAD: each job's KPI tested as kab
 * compare tests it; the pipeline fails when one regressed (or changed)
 * significantly beyond a threshold.  JUnit XML for CI dashboards, a
 * markdown summary for $GITHUB_STEP_SUMMARY.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ci.h"

struct verdict {
	const struct cmp_table *t;
	const struct kab_row *row;
	bool failed, regressed;
	char *job;		/* "will-it-scale: mode=process ..." */
	char *what;		/* "-81.6% regression", "+0.4%, not significant" */
};

static void judge(const struct gate_opts *o, struct verdict *v, size_t nr)
{
	struct kpi_verdict *kv = xcalloc(nr ? nr : 1, sizeof(*kv));
	size_t i;

	for (i = 0; i < nr; i++)
		kv[i] = kpi_judge(&v[i].row->cells[0]);
	for (i = 0; i < nr; i++) {
		const struct kab_cell *c = &v[i].row->cells[0];
		const char *unit = c->absolute || c->zero_base ? "" : "%";
		bool bad = o->fail_on_change ? kv[i].significant :
			   kv[i].verdict < 0;

		v[i].failed = bad && fabs(c->change) >= o->threshold;
		v[i].regressed = kv[i].verdict < 0;
		if (c->confounded)
			v[i].what = xasprintf("%+.1f%s, no verdict: each side "
					      "was measured on machines of its "
					      "own (a runner a kernel); measure "
					      "both in every cell", c->change,
					      unit);
		else if (c->few)
			v[i].what = xasprintf("%+.1f%s, no verdict: %zu against "
					      "%zu boots, 2 a side at least",
					      c->change, unit, c->units_base,
					      c->units_head);
		else if (!kv[i].significant)
			v[i].what = xasprintf("%+.1f%s, not significant (p = "
					      "%.2g)", c->change, unit,
					      kv[i].p);
		else
			v[i].what = xasprintf("%+.1f%s %s (p = %.2g)",
					      c->change, unit,
					      kv[i].verdict > 0 ? "improvement" :
					      kv[i].verdict < 0 ? "regression" :
					      "change", kv[i].p);
	}
	free(kv);
}

static void junit(FILE *f, const char *base, const char *head,
		  const struct verdict *v, size_t nr, size_t failed)
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
		    const struct gate_opts *o, const struct verdict *v,
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
	const struct gate_opts *o;
	const struct verdict *v;
	size_t nr, failed;
};

static void do_junit(FILE *f, void *arg)
{
	const struct out_ctx *c = arg;

	junit(f, c->base, c->head, c->v, c->nr, c->failed);
}

static void do_summary(FILE *f, void *arg)
{
	const struct out_ctx *c = arg;

	summary(f, c->base, c->head, c->o, c->v, c->nr, c->failed);
}

/* --format json: schema kab.gate/1 (README "JSON schemas"). */
static void gate_json(FILE *f, const struct out_ctx *c)
{
	json_t *kpis = json_array(), *doc;
	size_t i;

	for (i = 0; i < c->nr; i++) {
		const struct verdict *v = &c->v[i];
		const struct kab_cell *x = &v->row->cells[0];
		struct kpi_verdict kv = kpi_judge(x);

		json_array_append_new(kpis, json_pack(
			"{s:s, s:O, s:s, s:o, s:o, s:o, s:o, s:b, s:s, s:b, "
			"s:s}",
			"job", v->job, "params", v->t->params_obj,
			"metric", v->row->metric,
			"base_mean", cli_json_num(v->row->base.mean),
			"head_mean", cli_json_num(x->s.mean),
			"change", cli_json_num(x->change),
			"p_adjusted", cli_json_num(kv.p),
			"significant", kv.significant,
			"verdict", x->confounded || x->few ? "no verdict" :
				   !kv.significant ? "no change" :
				   kv.verdict > 0 ? "improvement" :
				   kv.verdict < 0 ? "regression" : "change",
			"failed", v->failed, "what", v->what));
	}
	doc = json_pack("{s:s, s:s, s:s, s:s, s:f, s:s, s:I, s:o}",
			"schema", "kab.gate/1", "base", c->base,
			"head", c->head, "fail_on", c->o->fail_on_change ?
			"change" : "regression", "threshold",
			c->o->threshold, "result", c->failed ? "fail" : "pass",
			"failed", (json_int_t)c->failed, "kpis", kpis);
	json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
		   JSON_REAL_PRECISION(17));
	fputc('\n', f);
	json_decref(doc);
}

static size_t collect(const struct cmp_set *set, const struct gate_opts *o,
		      struct verdict **out)
{
	struct verdict *v = NULL;
	size_t i, k, nr = 0;

	for (i = 0; i < set->nr; i++) {
		for (k = 0; k < (o->nr_kpi ? o->nr_kpi : 1); k++) {
			const struct kab_row *row = cmp_table_kpi(&set->t[i],
				o->nr_kpi ? o->kpi[k] : NULL);

			if (!row || !row->cells[0].s.n)
				continue;
			v = xrealloc(v, (nr + 1) * sizeof(*v));
			v[nr].t = &set->t[i];
			v[nr].row = row;
			v[nr++].job = report_job_name(&set->t[i]);
		}
	}
	judge(o, v, nr);
	*out = v;
	return nr;
}

int ci_gate(struct kab_db *db, const char *base, const char *head,
	    const struct gate_opts *o)
{
	struct kab_compare_opts c = { .test = KAB_TEST_WELCH, .fdr = 0.05,
				      .noise = 1,
				      .kpi = (const char *const *)o->kpi,
				      .nr_kpi = o->nr_kpi };
	char *specs[2] = { (char *)base, (char *)head };
	struct out_ctx ctx = { base, head, o, NULL, 0, 0 };
	struct verdict *v;
	struct cmp_set set;
	struct kab_err err;
	size_t i;
	int rc;

	rc = cmp_set_build(db, specs, 2, &c, &o->sel, &set, &err);
	if (rc) {
		cmp_set_free(&set);
		return cli_error(rc, "%s", err.msg);
	}
	cli_notes(set.notes);
	ctx.nr = collect(&set, o, &v);
	ctx.v = v;
	if (!ctx.nr) {
		cmp_set_free(&set);
		free(v);
		if (o->nr_kpi)
			return cli_error(EXIT_USAGE, "%s and %s have no %s%s: "
					 "'kab show %s' lists their metrics",
					 base, head, o->kpi[0], o->nr_kpi > 1 ?
					 " nor the other --kpi metrics" : "",
					 base);
		return cli_error(EXIT_USAGE, "no KPI to gate on in %s and %s: "
				 "name one with --kpi METRIC", base, head);
	}
	for (i = 0; i < ctx.nr; i++) {
		ctx.failed += v[i].failed;
		if (!o->json)
			printf("%s  %s  %s: %s\n", v[i].failed ? "FAIL" :
			       "pass", v[i].job, v[i].row->metric, v[i].what);
	}
	if (o->json)
		gate_json(stdout, &ctx);
	rc = ctx.failed ? 1 : EXIT_OK;
	if (o->junit && write_to(o->junit, false, do_junit, &ctx))
		rc = EXIT_USAGE;
	if (o->summary && write_to(o->summary, true, do_summary, &ctx))
		rc = EXIT_USAGE;
	for (i = 0; i < ctx.nr; i++) {
		free(v[i].what);
		free(v[i].job);
	}
	free(v);
	cmp_set_free(&set);
	return rc;
}
