// SPDX-License-Identifier: GPL-2.0
/*
 * gate.c - the gate of a CI pipeline: each job's KPI of BASE -> HEAD
 * tested as kab compare tests it, and failed when it regressed (or
 * changed) significantly beyond a threshold.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The sentence every writer of the gate shows for a KPI. */
static char *what(const struct kab_cell *c, const struct kpi_verdict *kv)
{
	const char *unit = c->absolute || c->zero_base ? "" : "%";

	if (c->confounded)
		return xasprintf("%+.1f%s, no verdict: each side was measured "
				 "on machines of its own (a runner a kernel); "
				 "measure both in every cell", c->change,
				 unit);
	if (c->few)
		return xasprintf("%+.1f%s, no verdict: %zu boot%s against %zu, "
				 "2 a side at least", c->change, unit,
				 c->units_base, c->units_base == 1 ? "" : "s",
				 c->units_head);
	if (isnan(kv->p))
		return xasprintf("%+.1f%s, no verdict: a mean is not a finite "
				 "number (a damaged database?)", c->change,
				 unit);
	if (!kv->significant)
		return xasprintf("%+.1f%s, not significant (p = %.2g)",
				 c->change, unit, kv->p);
	return xasprintf("%+.1f%s %s (p = %.2g)", c->change, unit,
			 kv->verdict > 0 ? "improvement" :
			 kv->verdict < 0 ? "regression" : "change", kv->p);
}

static void judge(const struct gate_opts *o, struct gate_kpi *v)
{
	const struct kab_cell *c = &v->row->cells[0];
	bool bad;

	v->kv = kpi_judge(c);
	bad = o->fail_on_change ? v->kv.significant : v->kv.verdict < 0;
	v->failed = bad && fabs(c->change) >= o->threshold;
	v->inconclusive = c->confounded || c->few || isnan(v->kv.p);
	v->regressed = v->kv.verdict < 0;
	v->what = what(c, &v->kv);
}

/* Each table's KPIs, judged (they are one family over all tables). */
static void collect(struct gate *g, const struct gate_opts *o)
{
	size_t i, k;

	for (i = 0; i < g->set.nr; i++) {
		for (k = 0; k < (o->nr_kpi ? o->nr_kpi : 1); k++) {
			const struct kab_row *row = cmp_table_kpi(&g->set.t[i],
				o->nr_kpi ? o->kpi[k] : NULL);
			struct gate_kpi *v;

			if (!row || !row->cells[0].s.n)
				continue;
			g->v = xrealloc(g->v, (g->nr + 1) * sizeof(*g->v));
			v = &g->v[g->nr++];
			memset(v, 0, sizeof(*v));
			v->t = &g->set.t[i];
			v->row = row;
			v->job = report_job_name(v->t);
			judge(o, v);
			g->failed += v->failed;
			g->inconclusive += v->inconclusive;
		}
	}
}

int gate_build(struct kab_db *db, const char *base, const char *head,
	       const struct gate_opts *o, struct gate *g,
	       struct kab_err *err)
{
	struct kab_compare_opts c = { .test = KAB_TEST_WELCH, .fdr = 0.05,
				      .noise = -1,
				      .kpi = (const char *const *)o->kpi,
				      .nr_kpi = o->nr_kpi };
	char *specs[2] = { (char *)base, (char *)head };
	int rc;

	memset(g, 0, sizeof(*g));
	rc = cmp_set_build(db, specs, 2, &c, &o->sel, &g->set, err);
	if (rc)
		return rc;
	collect(g, o);
	if (g->nr)
		return 0;
	if (o->nr_kpi)
		return model_err(err, KAB_MODEL_REFUSED, "%s and %s have no "
				 "%s%s: 'kab show %s' lists their metrics",
				 base, head, o->kpi[0], o->nr_kpi > 1 ?
				 " nor the other --kpi metrics" : "", base);
	return model_err(err, KAB_MODEL_REFUSED, "no KPI to gate on in %s "
			 "and %s: name one with --kpi METRIC", base, head);
}

enum gate_result gate_result(const struct gate *g,
			     const struct gate_opts *o)
{
	if (g->failed)
		return GATE_FAIL;
	if (g->inconclusive && !o->allow_inconclusive)
		return GATE_INCONCLUSIVE;
	return GATE_PASS;
}

const char *gate_result_name(enum gate_result r)
{
	return r == GATE_FAIL ? "fail" :
	       r == GATE_INCONCLUSIVE ? "inconclusive" : "pass";
}

void gate_free(struct gate *g)
{
	size_t i;

	for (i = 0; i < g->nr; i++) {
		free(g->v[i].what);
		free(g->v[i].job);
	}
	free(g->v);
	cmp_set_free(&g->set);
	memset(g, 0, sizeof(*g));
}
