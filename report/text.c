// SPDX-License-Identifier: GPL-2.0
/*
 * text.c - the robot's email, in its order: the sentence, the
 * commit, the test facts, the other tests the commit moved, the tags,
 * how to reproduce, lkp's tables and the plot of the KPI.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define DETAILS_RULE 98		/* '-' before the '>' */
#define STARS 99

static void rule(FILE *out, char c, int n)
{
	while (n-- > 0)
		fputc(c, out);
}

/* "key=value" of each parameter but the testcase, unsorted. */
static char **param_pairs(const struct cmp_table *t, size_t *n)
{
	const char *k;
	json_t *v;
	char **out = NULL;

	*n = 0;
	json_object_foreach(t->params_obj, k, v) {
		if (!strcmp(k, "testcase"))
			continue;
		out = xrealloc(out, (*n + 1) * sizeof(*out));
		out[(*n)++] = xasprintf("%s=%s", k, json_string_value(v));
	}
	return out;
}

static void parameters(FILE *out, const struct cmp_table *t)
{
	size_t i, n;
	char **pairs = param_pairs(t, &n);

	qsort(pairs, n, sizeof(*pairs), kab_strcmp_ptr);
	fputs("parameters:\n\n", out);
	for (i = 0; i < n; i++) {
		char *eq = strchr(pairs[i], '=');

		fprintf(out, "\t%.*s: %s\n", (int)(eq - pairs[i]), pairs[i],
			eq + 1);
		free(pairs[i]);
	}
	free(pairs);
}

/* lkp's box of the further tests the commit moved. */
static void box(FILE *out, const struct report *r)
{
	size_t i, k, w = 0, n;
	char **pairs, *change;
	bool any = false;

	for (i = 0; i < r->nr; i++) {
		const struct report_job *j = &r->job[i];

		if (i == r->main || !j->noticed)
			continue;
		change = report_change(j);
		n = strlen(j->testcase) + 2 + strlen(j->kpi->metric) + 1 +
		    strlen(change);
		w = n > w ? n : w;
		w = strlen(j->machine) > w ? strlen(j->machine) : w;
		pairs = param_pairs(j->t, &n);
		for (k = 0; k < n; k++) {
			w = strlen(pairs[k]) > w ? strlen(pairs[k]) : w;
			free(pairs[k]);
		}
		free(pairs);
		free(change);
		any = true;
	}
	if (!any)
		return;
	fputs("In addition to that, the commit also has significant impact "
	      "on the following tests:\n\n", out);
	for (i = 0; i < r->nr; i++) {
		const struct report_job *j = &r->job[i];
		char *cell;

		if (i == r->main || !j->noticed)
			continue;
		fputs("+------------------+", out);
		rule(out, '-', (int)w + 2);
		fputs("+\n", out);
		change = report_change(j);
		cell = xasprintf("%s: %s %s", j->testcase, j->kpi->metric,
				 change);
		fprintf(out, "| testcase: change | %-*s |\n", (int)w, cell);
		fprintf(out, "| test machine     | %-*s |\n", (int)w,
			j->machine);
		pairs = param_pairs(j->t, &n);
		qsort(pairs, n, sizeof(*pairs), kab_strcmp_ptr);
		for (k = 0; k < n; k++) {
			fprintf(out, "| %s | %-*s |\n", k ? "                " :
				"test parameters ", (int)w, pairs[k]);
			free(pairs[k]);
		}
		free(pairs);
		free(cell);
		free(change);
	}
	fputs("+------------------+", out);
	rule(out, '-', (int)w + 2);
	fputs("+\n\n\n", out);
}

static void table(FILE *out, const struct cmp_table *t)
{
	size_t i, shown = 0;

	kab_lkp_header(out, &t->h, false);
	kab_lkp_failures(out, &t->h, false, false);
	kab_lkp_columns(out, 1);
	for (i = 0; i < t->c.nr_rows; i++)
		if (t->c.rows[i].shown) {
			kab_lkp_row(out, &t->c.rows[i], 1, false, true);
			shown++;
		}
	if (!shown)
		fprintf(out, "\n(none of the %zu metrics changed "
			"significantly)\n", t->c.nr_rows);
	if (t->c.hidden_profile)
		fprintf(out, "\n(and %zu more perf-profile rows: kab compare "
			"--profile-rows all shows them)\n",
			t->c.hidden_profile);
}

static void kpi_plot(FILE *out, const struct report_job *j)
{
	const struct cmp_table *t = j->t;
	const struct kab_series *b = kab_side_series(&t->side[0], j->kpi->metric);
	const struct kab_series *h = kab_side_series(&t->side[1], j->kpi->metric);

	if (!b || !h)
		return;
	fputc('\n', out);
	kab_plot(out, j->kpi->metric, b->v, b->n, t->side[0].id, h->v, h->n,
		 t->side[1].id);
}

static void sentence(FILE *out, const struct report *r)
{
	const struct report_job *m = report_main(r);
	const struct kab_cell *c = &m->kpi->cells[0];
	char *change = report_change(m);

	if (change)
		fprintf(out, "kab noticed a %s of %s on:\n\n\n", change,
			m->kpi->metric);
	else if (report_unjudged(m))
		fprintf(out, "kab has no verdict on %s: %s (%+.1f%s with %zu "
			"boot%s against %zu) on:\n\n\n", m->kpi->metric,
			report_unjudged(m), c->change, c->absolute ||
			c->zero_base ? "" : "%", c->units_base,
			c->units_base == 1 ? "" : "s", c->units_head);
	else
		fprintf(out, "kab found no significant change of %s (%+.1f%s "
			"with %zu boot%s against %zu, adjusted p = %.2g) "
			"on:\n\n\n", m->kpi->metric, c->change, c->absolute ||
			c->zero_base ? "" : "%", c->units_base,
			c->units_base == 1 ? "" : "s", c->units_head, m->kv.p);
	free(change);
}

static void body(FILE *out, const struct report *r)
{
	const struct report_job *m = report_main(r);
	const char *p;
	size_t i;

	fputs("Hello,\n\n", out);
	sentence(out, r);
	fprintf(out, "%s: %s\ncompared with: %s\n\n", r->head_kind,
		r->head_line, r->base_line);
	fprintf(out, "testcase: %s\nconfig: %s\ncompiler: %s\n"
		"test machine: %s\n", m->testcase, r->config, r->compiler,
		m->machine);
	parameters(out, m->t);
	fputs("\n\n", out);
	box(out, r);
	if (r->preface)
		fprintf(out, "%s\n\n", r->preface);
	if (m->noticed && m->kv.verdict < 0 &&
	    (r->reported_by || r->nr_trailers)) {
		fputs("If you fix the issue in a separate patch/commit (i.e. "
		      "not just a new version of\nthe same patch/commit), "
		      "kindly add following tags\n", out);
		for (i = 0; i < r->nr_trailers; i++)
			fprintf(out, "| %s\n", r->trailers[i]);
		if (!r->nr_trailers)
			fprintf(out, "| Reported-by: %s\n", r->reported_by);
		fputs("\n\n", out);
	}
	fputs("Details are as below:\n", out);
	rule(out, '-', DETAILS_RULE);
	fputs(">\n\n\n", out);
	fputs("To reproduce with kab:\n\n", out);
	for (p = r->reproduce; *p;) {
		size_t n = strcspn(p, "\n");

		fprintf(out, "        %.*s\n", (int)n, p);
		p += n + !!p[n];
	}
	fputc('\n', out);
	table(out, m->t);
	kpi_plot(out, m);
	for (i = 0; i < r->nr; i++) {
		if (i == r->main)
			continue;
		fputc('\n', out);
		rule(out, '*', STARS);
		fprintf(out, "\n%s: %s\n", r->job[i].target,
			r->job[i].machine);
		table(out, r->job[i].t);
	}
	if (r->nr_trend) {
		fputc('\n', out);
		kab_trend_plot(out, r->trend_metric, r->trend, r->nr_trend, 72,
			       16);
	}
	fputs("\n\n\nDisclaimer:\nEvery sample behind these numbers is in "
	      "kab's database; the tests are\nStudent's t on the boot means "
	      "(Welch's for sides of unequal boots), the\nKPIs and the other "
	      "rows corrected as two families.", out);
	if (m->t->exact && m->t->model_kpi)
		fprintf(out, "  The machine is emulated\nby QEMU TCG and timed "
			"in guest instructions (icount), and by cost\nmodel "
			"%s for caches and TLBs in the rows marked %s; changes "
			"under\n0.5%% are not called.",
			strrchr(m->t->model_kpi, ':') + 1,
			strrchr(m->t->model_kpi, ':'));
	else if (m->t->exact)
		fputs("  The machine is emulated\nby QEMU TCG and timed in "
		      "guest instructions (icount): cache and TLB\neffects "
		      "are not modelled, changes under 0.5% are not called.",
		      out);
	else if (m->facts.accel && !strcmp(m->facts.accel, "tcg"))
		fputs("  The machine\nis emulated by QEMU TCG: the numbers "
		      "compare kernels, not CPUs.", out);
	fprintf(out, "\n\n-- \nkab %s, kernel A/B comparison\n", KAB_VERSION);
}

void report_text_body(FILE *out, const struct report *r)
{
	body(out, r);
}

void report_text(FILE *out, const struct report *r)
{
	fprintf(out, "Subject: %s\n\n", r->subject);
	body(out, r);
}
