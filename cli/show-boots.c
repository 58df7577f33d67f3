// SPDX-License-Identifier: GPL-2.0
/*
 * show-boots.c - kab show over several runs of one kernel: each run is
 * a boot, and what matters besides the pooled numbers is whether boots
 * differ more than the iterations inside a boot.  Prints, per metric,
 * the spread within boots and between them, the ANOVA F and p, and the
 * ratio of the between-boot variance to the within-boot one (kab
 * compare's tests take the boot as their unit whatever it is).
 */
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "../model/model.h"

static void pct(double part, double mean, char *buf, size_t n)
{
	if (isnan(part) || mean == 0)
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.1f%%", 100 * sqrt(part) / fabs(mean));
}

static void print_metric(FILE *out, const struct kab_series *s)
{
	struct kab_summary sum;
	struct kab_anova a;
	double *v = xmalloc((s->n ? s->n : 1) * sizeof(*v)), bv;
	char mean[32], within[16], between[16], f[16], p[16], ratio[16];

	memcpy(v, s->v, s->n * sizeof(*v));
	kab_summarize(v, s->n, &sum);
	free(v);
	kab_anova(s->v, s->boot, s->n, &a);
	bv = kab_anova_between_var(&a);
	cli_fmt_value(sum.mean, mean, sizeof(mean));
	pct(a.ms_within, sum.mean, within, sizeof(within));
	pct(bv, sum.mean, between, sizeof(between));
	snprintf(f, sizeof(f), isnan(a.f) ? "-" : "%.3g", a.f);
	snprintf(p, sizeof(p), isnan(a.p) ? "-" : "%.2g", a.p);
	/* what less noise at the source aims for: b/w at most 1 */
	if (isnan(bv) || !(a.ms_within > 0))
		snprintf(ratio, sizeof(ratio), "-");
	else
		snprintf(ratio, sizeof(ratio), "%.2g", bv / a.ms_within);
	fprintf(out, "%6zu %5zu %14s %7.1f%% %8s %8s %8s %8s %6s  %s\n",
		sum.n, a.groups, mean, kab_summary_pct(&sum), within, between,
		f, p, ratio, s->metric);
}

static void print_group(FILE *out, const struct run_info *const *runs,
			size_t nr, const struct kab_side *side,
			const char *glob)
{
	const char *key, *suite = json_string_value(json_object_get(
					runs[0]->params_obj, "testcase"));
	size_t i, hidden = 0;
	char *kpi;
	json_t *val;
	int rank;

	fprintf(out, "kernel %s: run%s ", runs[0]->label, nr == 1 ? "" : "s");
	for (i = 0; i < nr; i++)
		fprintf(out, "%s%lld", i ? "," : "", runs[i]->id);
	fprintf(out, " (one boot each);");
	json_object_foreach(runs[0]->params_obj, key, val)
		fprintf(out, " %s=%s", key, json_string_value(val));
	fprintf(out, "\n");
	fprintf(out, "%6s %5s %14s %8s %8s %8s %8s %8s %6s  %s\n", "n",
		"boots", "mean", "%stddev", "within", "between", "F", "p",
		"b/w", "metric");
	kpi = kab_suite_kpi(suite, json_string_value(json_object_get(
				runs[0]->params_obj, "test")),
			    json_string_value(json_object_get(
				runs[0]->params_obj, "mode")));
	/* the KPI, the suite's own, the monitors, the profile (if asked) */
	for (rank = 0; rank < 4; rank++)
		for (i = 0; i < side->nr; i++) {
			const char *m = side->series[i].metric;

			if (cli_metric_rank(m, kpi, suite) != rank ||
			    (glob && fnmatch(glob, m, 0)))
				continue;
			if (rank == 3 && !glob) {
				hidden++;
				continue;
			}
			print_metric(out, &side->series[i]);
		}
	if (hidden)
		fprintf(out, "(and %zu perf-profile rows: --metric "
			"'perf-profile.*' shows them)\n", hidden);
	free(kpi);
}

struct show_ctx {
	FILE *out;
	const char *glob;
	json_t *items;		/* --format json */
};

static int show_group(void *arg, size_t k, const struct run_info *const *runs,
		      size_t nr, const struct kab_side *side)
{
	struct show_ctx *c = arg;

	if (k)
		fprintf(c->out, "\n");
	print_group(c->out, runs, nr, side, c->glob);
	return 0;
}

static int json_group(void *arg, size_t k, const struct run_info *const *runs,
		      size_t nr, const struct kab_side *side)
{
	struct show_ctx *c = arg;
	json_t *ids = json_array(), *metrics = json_array();
	size_t i;

	(void)k;
	for (i = 0; i < nr; i++)
		json_array_append_new(ids, json_integer(runs[i]->id));
	for (i = 0; i < side->nr; i++) {
		const struct kab_series *s = &side->series[i];
		struct kab_summary sum;
		struct kab_anova a;
		double *v, bv;

		if (c->glob && fnmatch(c->glob, s->metric, 0))
			continue;
		v = xmalloc((s->n ? s->n : 1) * sizeof(*v));
		memcpy(v, s->v, s->n * sizeof(*v));
		kab_summarize(v, s->n, &sum);
		free(v);
		kab_anova(s->v, s->boot, s->n, &a);
		bv = kab_anova_between_var(&a);
		json_array_append_new(metrics, json_pack(
			"{ss sI sI so so so so so so}", "metric", s->metric,
			"n", (json_int_t)sum.n, "boots", (json_int_t)a.groups,
			"mean", cli_json_num(sum.mean),
			"pct_stddev", cli_json_num(kab_summary_pct(&sum)),
			"within_var", cli_json_num(a.ms_within),
			"between_var", cli_json_num(bv), "f", cli_json_num(a.f),
			"p", cli_json_num(a.p)));
	}
	json_array_append_new(c->items, json_pack(
		"{ss ss so sO so}", "kind", "boots", "kernel_label",
		runs[0]->label, "runs", ids, "params", runs[0]->params_obj,
		"metrics", metrics));
	return 0;
}

int cli_show_boots_json(json_t *items, struct kab_db *db, const char *spec,
			const char *glob, struct kab_err *err)
{
	struct show_ctx c = { NULL, glob, items };
	size_t bad = 0;

	return side_foreach_group(db, spec, json_group, &c, &bad, err);
}

/*
 * The runs spec names ("3,5,7" or a kernel label), grouped by job
 * parameters: one table per group.
 */
int cli_show_boots(FILE *out, struct kab_db *db, const char *spec,
		   const char *glob, struct kab_err *err)
{
	struct show_ctx c = { out, glob, NULL };
	size_t bad = 0;
	int rc = side_foreach_group(db, spec, show_group, &c, &bad, err);

	if (!rc && bad)
		fprintf(out, "(%zu samples that are not numbers left out)\n",
			bad);
	return rc;
}
