// SPDX-License-Identifier: GPL-2.0
/*
 * show-boots.c - kab show over several runs of one kernel: each run is
 * a boot, and what matters besides the pooled numbers is whether boots
 * differ more than the iterations inside a boot.  Prints, per metric,
 * the spread within boots and between them, the ANOVA F and p, and the
 * unit kab compare's tests will use (sample or boot).
 */
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sides.h"

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
	double *v = xmalloc((s->n ? s->n : 1) * sizeof(*v));
	char mean[32], within[16], between[16], f[16], p[16];
	const char *unit;

	memcpy(v, s->v, s->n * sizeof(*v));
	kab_summarize(v, s->n, &sum);
	free(v);
	kab_anova(s->v, s->boot, s->n, &a);
	cli_fmt_value(sum.mean, mean, sizeof(mean));
	pct(a.groups > 1 && s->n > a.groups ? a.ms_within : NAN, sum.mean,
	    within, sizeof(within));
	pct(kab_anova_between_var(&a, s->n), sum.mean, between,
	    sizeof(between));
	if (a.groups < 2 || isnan(a.p)) {
		snprintf(f, sizeof(f), "-");
		snprintf(p, sizeof(p), "-");
		unit = "-";
	} else {
		snprintf(f, sizeof(f), "%.3g", a.f);
		snprintf(p, sizeof(p), "%.2g", a.p);
		unit = kab_boots_dominate(&a, s->n) ? "boot" : "sample";
	}
	fprintf(out, "%6zu %5zu %14s %7.1f%% %8s %8s %8s %8s  %-6s  %s\n",
		sum.n, a.groups, mean, kab_summary_pct(&sum), within, between,
		f, p, unit, s->metric);
}

static void print_group(FILE *out, const struct run_info *const *runs,
			size_t nr, const struct kab_side *side,
			const char *glob)
{
	const char *key;
	json_t *val;
	size_t i;

	fprintf(out, "kernel %s: run%s ", runs[0]->label, nr == 1 ? "" : "s");
	for (i = 0; i < nr; i++)
		fprintf(out, "%s%lld", i ? "," : "", runs[i]->id);
	fprintf(out, " (one boot each);");
	json_object_foreach(runs[0]->params_obj, key, val)
		fprintf(out, " %s=%s", key, json_string_value(val));
	fprintf(out, "\n");
	fprintf(out, "%6s %5s %14s %8s %8s %8s %8s %8s  %-6s  %s\n", "n",
		"boots", "mean", "%stddev", "within", "between", "F", "p",
		"unit", "metric");
	for (i = 0; i < side->nr; i++)
		if (!glob || !fnmatch(glob, side->series[i].metric, 0))
			print_metric(out, &side->series[i]);
}

/*
 * The runs spec names ("3,5,7" or a kernel label), grouped by job
 * parameters: one table per group.
 */
int cli_show_boots(FILE *out, struct kab_db *db, const char *spec,
		   const char *glob, struct kab_err *err)
{
	struct run_list all;
	struct side_runs sr;
	bool *done;
	size_t i, j, bad = 0;
	int rc = 0;

	if (runs_load(db, &all, err))
		return -1;
	if (side_resolve(&all, spec, &sr, err)) {
		runs_free(&all);
		return 1;
	}
	done = xcalloc(sr.nr, sizeof(*done));
	for (i = 0; i < sr.nr && !rc; i++) {
		const struct run_info **g;
		struct kab_side side = { 0 };
		size_t n = 0;

		if (done[i])
			continue;
		g = xcalloc(sr.nr, sizeof(*g));
		for (j = i; j < sr.nr; j++)
			if (!done[j] && !strcmp(sr.v[j]->params,
						sr.v[i]->params) &&
			    !strcmp(sr.v[j]->label, sr.v[i]->label)) {
				g[n++] = sr.v[j];
				done[j] = true;
			}
		rc = side_pool(db, g, n, &side, &bad, err);
		if (!rc) {
			if (i)
				fprintf(out, "\n");
			print_group(out, g, n, &side, glob);
		}
		side_free(&side);
		free(g);
	}
	if (!rc && bad)
		fprintf(out, "(%zu samples that are not numbers left out)\n",
			bad);
	free(done);
	free(sr.v);
	runs_free(&all);
	return rc;
}
