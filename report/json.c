// SPDX-License-Identifier: GPL-2.0
/*
 * json.c - kab report --format json: the report's model, for a bot
 * or a dashboard (schema kab.report/1, README "JSON schemas"), as a
 * document the front end prints.
 */
#include <math.h>
#include <stdlib.h>

#include "report.h"

static json_t *opt_str(const char *s)
{
	return s ? json_string(s) : json_null();
}

/* A number, or null when it is not one (NaN, inf). */
static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *job_json(const struct report_job *j, bool main)
{
	json_t *o = json_pack("{s:o, s:o, s:o, s:O, s:b, s:b}",
			      "testcase", opt_str(j->testcase),
			      "machine", opt_str(j->machine),
			      "target", opt_str(j->target),
			      "params", j->t->params_obj,
			      "announced", main, "noticed", j->noticed);

	if (j->kpi) {
		const struct kab_cell *c = &j->kpi->cells[0];

		json_object_set_new(o, "kpi", json_pack(
			"{s:s, s:o, s:o, s:o, s:o, s:b, s:s}",
			"metric", j->kpi->metric,
			"base_mean", num(j->kpi->base.mean),
			"head_mean", num(c->s.mean),
			"change", num(c->change),
			"p_adjusted", num(j->kv.p),
			"significant", j->kv.significant,
			"verdict", j->kv.verdict > 0 ? "improvement" :
				   j->kv.verdict < 0 ? "regression" :
				   "no change"));
	} else {
		json_object_set_new(o, "kpi", json_null());
	}
	return o;
}

json_t *report_json(const struct report *r)
{
	json_t *jobs = json_array(), *doc;
	size_t i;

	for (i = 0; i < r->nr; i++)
		json_array_append_new(jobs, job_json(&r->job[i],
						     i == r->main));
	doc = json_pack("{s:s, s:s, s:s, s:o, s:s, s:o, s:o, s:o, s:o, "
			"s:o, s:o}",
			"schema", REPORT_JSON_SCHEMA,
			"base", r->base_spec, "head", r->head_spec,
			"subject", opt_str(r->subject),
			"head_kind", r->head_kind,
			"head_line", opt_str(r->head_line),
			"base_line", opt_str(r->base_line),
			"compiler", opt_str(r->compiler),
			"config", opt_str(r->config),
			"reproduce", opt_str(r->reproduce),
			"jobs", jobs);
	return doc;
}
