// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-compare.c - kab compare BASE HEAD [HEAD...]: lkp's table, with the
 * rows chosen by statistics.  One table per job parameter set that
 * every side ran.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "../report/report.h"
#include "../model/model.h"

struct cmp_opts {
	struct kab_compare_opts c;
	const char *kpi;
	const char *format;
	bool stats, plot;
	struct cmp_sel sel;
	/* KPIs kab ab's looks decided: their verdicts are the table's */
	const struct cmp_seq *seq;
	size_t nr_seq;
};

static void compare_usage(FILE *f)
{
	fprintf(f,
		"usage: kab compare [options] BASE HEAD [HEAD...]\n"
		"\n"
		"Each side is a run id, a list of run ids (3,4,5) or a kernel "
		"label (all its ok\nruns, pooled).  Prints lkp's %%stddev "
		"%%change %%stddev table per job parameter\nset, showing the KPI "
		"and the rows that changed significantly.  Each run is a\nboot: "
		"the tests take boot means as their samples.\n"
		"\n"
		"  --test welch|mwu|lkp  Welch's t on boot means (default), "
		"Mann-Whitney U on\n"
		"                        boot means, or lkp's own range "
		"heuristics\n"
		"  --kpi METRIC          the primary metric (default: each "
		"job's own)\n"
		"  --fdr Q               the table's level: A/A tables with a "
		"row called,\n"
		"                        at most (0.05; KPIs 80%% of it, the "
		"rest BH)\n"
		"  --noise PCT           smallest |%%change| worth a row (1; "
		"under --clock\n"
		"                        icount, its resolution: 0.5)\n"
		"  --all                 every row, significant or not\n"
		"  --profile-rows N|all  perf-profile rows shown at most, the "
		"surest moves\n"
		"                        (10)\n"
		"  --stats               append adjusted p, boots, scale, F and "
		"the 95%% interval\n"
		"                        of the change\n"
		"  --format F            text (lkp's table and kab's notes), "
		"lkp (lkp ncompare's\n"
		"                        table and nothing else; --test lkp "
		"unless given),\n"
		"                        json, csv, markdown\n"
		"  --plot                a ministat-style plot per KPI\n"
		"  --force               compare runs from different machines\n"
		"  --ignore-param KEY    parameter sets that differ only in KEY "
		"compare\n"
		"                        (repeatable)\n"
		"  --db PATH             database\n");
}

static double parse_num(const char *opt, const char *s, double lo, double hi,
			bool *bad)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !(v >= lo && v <= hi)) {
		cli_error(EXIT_USAGE, "%s '%s': give a number from %g to %g",
			  opt, s, lo, hi);
		*bad = true;
	}
	return v;
}

/* ---- output ---- */

static json_t *summary_json(const struct kab_summary *s)
{
	return json_pack("{s:I, s:f, s:f, s:f, s:f, s:f}", "n",
			 (json_int_t)s->n, "mean", s->mean, "stddev",
			 s->stddev, "median", s->median, "min", s->min, "max",
			 s->max);
}

static json_t *cell_json(const struct kab_cell *c, const char *metric)
{
	json_t *j = summary_json(&c->s);
	int dir = kab_metric_direction(metric);

	json_object_set_new(j, "change", cli_json_num(c->change));
	json_object_set_new(j, "lkp_change", cli_json_num(c->lkp_change));
	json_object_set_new(j, "change_kind", json_string(
		c->absolute || c->zero_base ? "absolute" : "percent"));
	json_object_set_new(j, "ci_low", cli_json_num(c->ci_lo));
	json_object_set_new(j, "ci_high", cli_json_num(c->ci_hi));
	json_object_set_new(j, "p_welch", cli_json_num(c->p_welch));
	json_object_set_new(j, "p_mwu", cli_json_num(c->p_mwu));
	json_object_set_new(j, "p_adjusted", cli_json_num(c->p_adj));
	json_object_set_new(j, "few_boots", json_boolean(c->few));
	json_object_set_new(j, "unit", json_string("boot"));
	json_object_set_new(j, "boots_base", json_integer(c->units_base));
	json_object_set_new(j, "boots_head", json_integer(c->units_head));
	json_object_set_new(j, "blocks", json_integer(c->blocks));
	json_object_set_new(j, "paired", json_boolean(c->paired));
	json_object_set_new(j, "confounded", json_boolean(c->confounded));
	json_object_set_new(j, "scale", json_string(c->log_scale ? "log" :
						       "linear"));
	json_object_set_new(j, "f_boots_base", cli_json_num(c->f_base));
	json_object_set_new(j, "f_boots_head", cli_json_num(c->f_head));
	json_object_set_new(j, "significant", json_boolean(c->significant));
	json_object_set_new(j, "direction", json_string(
		dir > 0 ? "higher-is-better" : dir < 0 ? "lower-is-better" :
			  "unknown"));
	json_object_set_new(j, "verdict", json_string(
		c->verdict > 0 ? "improvement" : c->verdict < 0 ?
		"regression" : c->significant ? "change" : "none"));
	return j;
}

static json_t *table_json(const struct kab_table_head *h,
			  const struct kab_comparison *c, json_t *params)
{
	json_t *rows = json_array(), *heads = json_array();
	json_t *incomplete = json_array();
	size_t r, i;

	json_array_append_new(incomplete, json_integer(h->base->incomplete));
	for (i = 0; i < h->nr_heads; i++) {
		json_array_append_new(heads, json_string(h->heads[i].id));
		json_array_append_new(incomplete,
				      json_integer(h->heads[i].incomplete));
	}
	for (r = 0; r < c->nr_rows; r++) {
		const struct kab_row *row = &c->rows[r];
		json_t *cells = json_array();

		for (i = 0; i < c->nr_heads; i++)
			json_array_append_new(cells, row->cells[i].s.n ?
					      cell_json(&row->cells[i],
							row->metric) :
					      json_null());
		json_array_append_new(rows, json_pack(
			"{s:s, s:b, s:b, s:o, s:o}", "metric", row->metric,
			"kpi", row->kpi, "shown", row->shown, "base",
			summary_json(&row->base), "heads", cells));
	}
	return json_pack("{s:O, s:s, s:o, s:o, s:o}", "params", params,
			 "base", h->base->id, "heads", heads, "incomplete",
			 incomplete, "rows", rows);
}

static void csv_rows(FILE *out, const struct kab_table_head *h,
		     const struct kab_comparison *c)
{
	size_t r, i;

	for (r = 0; r < c->nr_rows; r++) {
		const struct kab_row *row = &c->rows[r];

		for (i = 0; i < c->nr_heads; i++) {
			const struct kab_cell *x = &row->cells[i];
			int dir = kab_metric_direction(row->metric);

			if (!x->s.n)
				continue;
			/* the first four may come from a guest or an import */
			fput_csv_field(out, h->axis_values);
			fputc(',', out);
			fput_csv_field(out, row->metric);
			fputc(',', out);
			fput_csv_field(out, h->base->id);
			fputc(',', out);
			fput_csv_field(out, h->heads[i].id);
			fprintf(out, ",%zu,%.17g,%.17g,%zu,%.17g,"
				"%.17g,%.17g,%s,%.17g,%.17g,%.17g,%.17g,%.17g,"
				"%s,%s,%s\n", row->base.n,
				row->base.mean, row->base.stddev, x->s.n,
				x->s.mean, x->s.stddev, x->change,
				x->absolute || x->zero_base ? "absolute" :
							      "percent",
				x->ci_lo, x->ci_hi, x->p_welch, x->p_mwu,
				x->p_adj, x->significant ? "yes" : "no",
				dir > 0 ? "higher-is-better" : dir < 0 ?
				"lower-is-better" : "unknown",
				x->verdict > 0 ? "improvement" :
				x->verdict < 0 ? "regression" : "none");
		}
	}
}

static void markdown_table(FILE *out, const struct kab_table_head *h,
			   const struct kab_comparison *c)
{
	char num[64], chg[64];
	size_t r, i;

	fputs("**", out);
	md_text(out, h->axis_keys);
	fputs("**: ", out);
	md_text(out, h->axis_values);
	fputs("\n\n| ", out);
	md_text(out, h->base->id);
	fputs(" | ±% |", out);
	for (i = 0; i < h->nr_heads; i++) {
		fputs(" change | ", out);
		md_text(out, h->heads[i].id);
		fputs(" | ±% |", out);
	}
	fputs(" metric |\n|---:|---:|", out);
	for (i = 0; i < h->nr_heads; i++)
		fputs("---:|---:|---:|", out);
	fputs("---|\n", out);
	for (r = 0; r < c->nr_rows; r++) {
		const struct kab_row *row = &c->rows[r];

		if (!row->shown)
			continue;
		/* numbers for people: 1,412,130, not 1.41213e+06 */
		kab_fmt_readable(num, sizeof(num), row->base.mean);
		fprintf(out, "| %s | %.0f%% |", num,
			kab_summary_pct(&row->base));
		for (i = 0; i < c->nr_heads; i++) {
			const struct kab_cell *x = &row->cells[i];
			const char *em = x->significant ? "**" : "";

			if (row->base.mean == 0 && !x->absolute)
				snprintf(chg, sizeof(chg), "from 0");
			else
				snprintf(chg, sizeof(chg), "%+.1f%s",
					 x->absolute ? x->change :
					 x->lkp_change, x->absolute ? "" : "%");
			kab_fmt_readable(num, sizeof(num), x->s.mean);
			fprintf(out, " %s%s%s | %s | %.0f%% |", em, chg, em,
				num, kab_summary_pct(&x->s));
		}
		fprintf(out, " `%s` |\n", row->metric);
	}
	fputc('\n', out);
}

/* A KPI kab ab's looks decided: their verdict, said as theirs. */
static void seq_note(FILE *out, const struct kab_table_head *h,
		     const struct kab_row *row, size_t i,
		     const struct kab_cell *x)
{
	const struct kab_seq *q = &x->seq;

	fprintf(out, "note: %s -> %s: %s is decided by kab ab's looks: %s",
		h->base->id, h->heads[i].id, row->metric,
		kab_seq_verdict_name(q->verdict));
	if (!isnan(q->lo))
		fprintf(out, ", %.1f%% interval [%+.1f%%, %+.1f%%]",
			100 * (1 - q->alpha), q->lo, q->hi);
	fprintf(out, "%s\n", q->verdict == KAB_SEQ_CHANGED ?
		" beyond the noise" : q->verdict == KAB_SEQ_SAME ?
		" within the noise" : "");
}

/*
 * For each KPI the table does not call: what this plan could have
 * called (power 0.8), or that it cannot call anything; one note each.
 */
static bool plan_notes(FILE *out, const struct kab_table_head *h,
		       const struct kab_comparison *c, const char *more)
{
	bool said = false;
	size_t r, i;

	for (r = 0; r < c->nr_rows; r++) {
		const struct kab_row *row = &c->rows[r];

		for (i = 0; row->kpi && i < c->nr_heads; i++) {
			const struct kab_cell *x = &row->cells[i];
			size_t n = x->units_base < x->units_head ?
				   x->units_base : x->units_head;
			double d, pct, spread;

			if (x->sequential) {
				seq_note(out, h, row, i, x);
				continue;
			}
			if (!x->s.n || x->significant || x->absolute)
				continue;
			if (x->few) {
				fprintf(out, "note: %s -> %s: %s has %zu and "
					"%zu boots (or runs), fewer than 2 on "
					"a side, so no verdict is possible: "
					"measure more (%s)\n", h->base->id,
					h->heads[i].id, row->metric,
					x->units_base, x->units_head, more);
				said = true;
				continue;
			}
			if (x->paired)
				n = x->blocks;
			d = x->paired ?
			    kab_detectable_paired(n, x->unit_sd,
						  kab_family_level(c, true),
						  0.8) :
			    kab_detectable(n, x->unit_sd,
					   kab_family_level(c, true), 0.8);
			if (isnan(d))
				continue;
			pct = x->log_scale ? 100 * expm1(d) :
			      100 * d / fabs(row->base.mean);
			spread = x->log_scale ? 100 * x->unit_sd :
				 100 * x->unit_sd / fabs(row->base.mean);
			if (c->opts->floor > 0) {
				/* exact data: the resolution, not a spread */
				fprintf(out, "note: %s -> %s: no change of %s "
					"beyond exact mode's resolution; with "
					"%zu %s this plan finds a "
					"change of %.*f%% or more 8 times in "
					"10\n", h->base->id, h->heads[i].id,
					row->metric, n, x->paired ?
					"layout seeds" : "boots a side",
					pct < 10 ? 1 : 0, pct);
				continue;
			}
			fprintf(out, "note: %s -> %s: no significant change "
				"of %s; with %zu boots a side whose means "
				"spread by %.1f%%, this plan finds a change of "
				"%.*f%% or more 8 times in 10 (kab plan --kpi "
				"%s --detect PCT %s: the boots a smaller one "
				"needs)\n", h->base->id, h->heads[i].id,
				row->metric, n, spread, pct < 10 ? 1 : 0, pct,
				row->metric, h->base->id);
		}
	}
	return said;
}

static void text_table(FILE *out, const struct cmp_table *t,
		       const struct cmp_opts *o)
{
	const struct kab_table_head *h = &t->h;
	const struct kab_comparison *c = &t->c;
	char *more = cmp_more_units(t, c->opts->floor > 0 ? 2 : 3);
	size_t r, i, called = 0;

	/* --quiet: the table, without kab's notes on it */
	bool notes = cli_verbosity >= 0, said = false;

	kab_kpi_summary(out, c, h->base, h->heads);
	if (o->c.test == KAB_TEST_WELCH && notes)
		said = plan_notes(out, h, c, more);
	kab_lkp_header(out, h, false);
	kab_lkp_failures(out, h, false, false);
	kab_lkp_columns(out, c->nr_heads);
	for (r = 0; r < c->nr_rows; r++) {
		if (!c->rows[r].shown)
			continue;
		kab_lkp_row(out, &c->rows[r], c->nr_heads, o->stats, true);
		for (i = 0; i < c->nr_heads; i++)
			called += c->rows[r].cells[i].significant;
	}
	if (!called)
		fprintf(out, "\n(no significant change in %zu metrics; --all "
			"shows them)\n", c->nr_rows);
	if (c->hidden_profile)
		fprintf(out, "\n(%zu more perf-profile rows changed; the %d "
			"surest are shown: --profile-rows all or --all "
			"shows them)\n", c->hidden_profile,
			o->c.profile_rows > 0 ? o->c.profile_rows :
			KAB_PROFILE_ROWS);
	if (!notes) {
		free(more);
		return;
	}
	if (c->few_rows)
		fprintf(out, "\nnote: %zu metrics have fewer than 2 boots (or "
			"runs) on a side and get no verdict: boots, not "
			"iterations, are the samples%s%s%s\n", c->few_rows,
			said ? "" : "; measure more (", said ? "" : more,
			said ? "" : ")");
	if (c->weak_rows)
		fprintf(out, "\nnote: with these boot counts the U test cannot "
			"call a change among %zu metrics at q = %g: need >= "
			"%zu boots a side, or --test welch\n", c->nr_rows,
			kab_family_level(c, false), c->need_n);
	if (c->confounded_rows)
		fprintf(out, "\nnote: %zu metrics were measured on different "
			"machines for each side (no merged database or lab "
			"device holds both): a machine's speed cannot be told "
			"from a kernel's, so they get no verdict; measure "
			"every kernel on each machine (kab ci matrix, kab ab "
			"--devices do)\n",
			c->confounded_rows);
	if (c->blocked_rows)
		fprintf(out, "\nnote: %zu metrics were measured on several "
			"machines (merged databases, a lab's devices) that "
			"each ran both "
			"sides: tested on the changes within each machine, "
			"machines as the samples\n", c->blocked_rows);
	if (c->paired_rows)
		fprintf(out, "\nnote: %zu metrics were measured at the same "
			"layout seeds on both sides (exact mode): tested on the "
			"changes at each seed, the seeds as the samples\n",
			c->paired_rows);
	if (o->stats && c->nr_kpi_rows)
		fprintf(out, "\nnote: (KPI) marks the KPI rows: corrected for "
			"false discoveries as their own family (at %g), so a "
			"KPI's adjusted p differs from another row's of the "
			"same means\n", kab_family_level(c, true));
	if (c->zero_rows)
		fprintf(out, "\nnote: %zu shown metrics have a base mean of 0: "
			"their %%change is lkp's, over a base of 1e-100; "
			"--format json has their absolute change\n",
			c->zero_rows);
	free(more);
}

static void plots(FILE *out, const struct kab_table_head *h,
		  const struct kab_comparison *c)
{
	size_t r, i;

	for (r = 0; r < c->nr_rows; r++) {
		const struct kab_row *row = &c->rows[r];
		const struct kab_series *b = NULL;
		size_t k;

		if (!kab_metric_direction(row->metric) ||
		    strstr(row->metric, ".time."))
			continue;
		for (k = 0; k < h->base->nr; k++)
			if (!strcmp(h->base->series[k].metric, row->metric))
				b = &h->base->series[k];
		for (i = 0; i < h->nr_heads && b; i++)
			for (k = 0; k < h->heads[i].nr; k++)
				if (!strcmp(h->heads[i].series[k].metric,
					    row->metric))
					kab_plot(out, row->metric, b->v, b->n,
						 h->base->id,
						 h->heads[i].series[k].v,
						 h->heads[i].series[k].n,
						 h->heads[i].id);
	}
}

static void one_table(const struct cmp_table *t, const struct cmp_opts *o,
		      json_t *jtables, bool first)
{
	if (!strcmp(o->format, "json")) {
		json_t *j = table_json(&t->h, &t->c, t->params_obj);

		/* timed by guest instructions: decided to the resolution */
		json_object_set_new(j, "exact", json_boolean(t->exact));
		json_array_append_new(jtables, j);
	} else if (!strcmp(o->format, "csv")) {
		if (first)
			printf("params,metric,base,head,base_n,base_mean,"
			       "base_stddev,head_n,head_mean,head_stddev,"
			       "change,change_kind,ci_low,ci_high,p_welch,"
			       "p_mwu,p_adjusted,significant,direction,"
			       "verdict\n");
		csv_rows(stdout, &t->h, &t->c);
	} else if (!strcmp(o->format, "markdown")) {
		if (t->exact)
			printf("*%s*\n\n", cmp_exact_note(t));
		markdown_table(stdout, &t->h, &t->c);
	} else if (!strcmp(o->format, "lkp")) {
		kab_lkp_table(stdout, &t->h, &t->c);
	} else {
		if (!first)
			printf("\n");
		if (t->exact && cli_verbosity >= 0)
			printf("note: %s\n", cmp_exact_note(t));
		else if (t->emulated && cli_verbosity >= 0)
			printf("note: these numbers come from QEMU TCG "
			       "emulation, not a real CPU: compare kernels, "
			       "not machines\n");
		text_table(stdout, t, o);
		if (o->plot) {
			printf("\n");
			plots(stdout, &t->h, &t->c);
		}
	}
}

/*
 * lkp's table has no row that its rule does not show, and no table
 * without one: stdout stays lkp's, stderr says why it is empty.
 */
static void lkp_empty_note(const struct cmp_set *set)
{
	size_t i, empty = 0;

	for (i = 0; i < set->nr; i++)
		empty += !set->t[i].c.nr_rows || !set->t[i].c.rows[0].shown;
	if (!empty)
		return;
	cli_note("%zu of %zu job%s no row that lkp's rule "
		"shows (nothing changed by it), so %s printed; kab compare "
		"without --format lkp gives kab's verdict, --all every row",
		empty, set->nr, set->nr == 1 ? " has" : "s have",
		empty == 1 ? "its table is not" : "their tables are not");
}

static int compare(struct kab_db *db, char **specs, size_t nr,
		   const struct cmp_opts *o)
{
	json_t *jtables;
	struct cmp_set set;
	struct kab_err err;
	size_t i;
	int rc;

	rc = cmp_set_build(db, specs, nr, &o->c, &o->sel, &set, &err);
	if (rc) {
		cmp_set_free(&set);
		return cli_error(rc, "%s", err.msg);
	}
	cmp_set_sequential(&set, o->seq, o->nr_seq);
	cli_notes(set.notes);
	jtables = json_array();
	for (i = 0; i < set.nr; i++)
		one_table(&set.t[i], o, jtables, i == 0);
	if (!strcmp(o->format, "lkp"))
		lkp_empty_note(&set);
	if (!strcmp(o->format, "json")) {
		json_t *doc = json_pack("{s:s, s:s, s:f, s:f, s:O}",
					"schema", "kab.compare/1", "test",
					o->c.test == KAB_TEST_MWU ? "mwu" :
					o->c.test == KAB_TEST_WELCH ? "welch" :
					"lkp", "fdr", o->c.fdr, "noise",
					/* the tables' own when not given */
					o->c.noise >= 0 ? o->c.noise :
					set.nr ? set.t[0].o.noise : KAB_NOISE,
					"tables", jtables);

		cli_json_dumpf(doc, stdout, JSON_INDENT(1) |
			   JSON_REAL_PRECISION(17));
		printf("\n");
		json_decref(doc);
	}
	json_decref(jtables);
	cmp_set_free(&set);
	return EXIT_OK;
}

int cli_compare_default(struct kab_db *db, char **sides, size_t nr,
			bool all)
{
	return cli_compare_sequential(db, sides, nr, all, NULL, 0);
}

int cli_compare_sequential(struct kab_db *db, char **sides, size_t nr,
			   bool all, const struct cmp_seq *seq, size_t nr_seq)
{
	struct cmp_opts o = {
		.c = { .test = KAB_TEST_WELCH, .fdr = 0.05, .noise = -1,
		       .all = all },
		.format = "text",
		.seq = seq,
		.nr_seq = nr_seq,
	};

	return compare(db, sides, nr, &o);
}

int cmd_compare(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "test", required_argument, NULL, 't' },
		{ "fdr", required_argument, NULL, 'q' },
		{ "noise", required_argument, NULL, 'n' },
		{ "all", no_argument, NULL, 'a' },
		{ "profile-rows", required_argument, NULL, 'P' },
		{ "stats", no_argument, NULL, 's' },
		{ "kpi", required_argument, NULL, 'k' },
		{ "format", required_argument, NULL, 'f' },
		{ "plot", no_argument, NULL, 'p' },
		{ "force", no_argument, NULL, 'F' },
		{ "ignore-param", required_argument, NULL, 'I' },
		{ "db", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cmp_opts o = {
		.c = { .test = KAB_TEST_WELCH, .fdr = 0.05, .noise = -1 },
		.format = "text",
	};
	const char *db_opt = NULL;
	struct kab_db *db;
	struct kab_err err;
	bool bad = false, test_given = false;
	int opt, rc;

	optind = 1;
	while ((opt = cli_getopt(argc, argv, ":h", opts)) != -1) {
		switch (opt) {
		case 't':
			test_given = true;
			if (!strcmp(optarg, "mwu"))
				o.c.test = KAB_TEST_MWU;
			else if (!strcmp(optarg, "welch"))
				o.c.test = KAB_TEST_WELCH;
			else if (!strcmp(optarg, "lkp"))
				o.c.test = KAB_TEST_LKP;
			else
				return cli_error(EXIT_USAGE, "--test '%s': use "
						 "welch, mwu or lkp", optarg);
			break;
		case 'P':
			if (!strcmp(optarg, "all")) {
				o.c.profile_rows = -1;
				break;
			}
			o.c.profile_rows = (int)parse_num("--profile-rows",
							  optarg, 1, 100000,
							  &bad);
			break;
		case 'q':
			o.c.fdr = parse_num("--fdr", optarg, 1e-9, 1, &bad);
			break;
		case 'n':
			o.c.noise = parse_num("--noise", optarg, 0, 1e9, &bad);
			break;
		case 'a':
			o.c.all = true;
			break;
		case 's':
			o.stats = true;
			break;
		case 'k':
			o.kpi = optarg;
			o.c.kpi = &o.kpi;
			o.c.nr_kpi = 1;
			break;
		case 'f':
			o.format = optarg;
			if (strcmp(optarg, "text") && strcmp(optarg, "json") &&
			    strcmp(optarg, "csv") && strcmp(optarg, "markdown") &&
			    strcmp(optarg, "lkp"))
				return cli_error(EXIT_USAGE, "--format '%s': use "
						 "text, lkp, json, csv or "
						 "markdown", optarg);
			break;
		case 'p':
			o.plot = true;
			break;
		case 'F':
			o.sel.force = true;
			break;
		case 'I':
			if (cmp_sel_ignore(&o.sel, optarg, &err))
				return cli_error(EXIT_USAGE, "%s", err.msg);
			break;
		case 'd':
			db_opt = optarg;
			break;
		case 'h':
			compare_usage(stdout);
			return EXIT_OK;
		default:
			return cli_bad_option("compare", opt, argv, opts);
		}
		if (bad)
			return EXIT_USAGE;
	}
	if (!strcmp(o.format, "lkp")) {
		/* lkp's table: lkp's rows, unless a test is named */
		o.c.lkp_rows = true;
		if (!test_given)
			o.c.test = KAB_TEST_LKP;
	}
	if (argc - optind < 2)
		return cli_error(EXIT_USAGE, "compare needs a base and at least "
				 "one head: 'kab compare BASE HEAD'");
	rc = cli_open_db(cli, db_opt, KAB_DB_READ, &db);
	if (rc)
		return rc;
	rc = compare(db, argv + optind, argc - optind, &o);
	kab_db_close(db);
	return rc;
}
