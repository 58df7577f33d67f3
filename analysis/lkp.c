// SPDX-License-Identifier: GPL-2.0
/*
 * lkp.c - lkp's conventions: which metrics change absolutely, which way
 * is better, which rows are too small to matter, lkp's own "changed"
 * heuristic, and its table, byte for byte (lib/compare.rb's widths:
 * ABS_WIDTH 10, REL_WIDTH 10, ERR_WIDTH 6).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "../common/common.h"

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static bool ends(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/*
 * A row kab qualifies after lkp's name (":u", ":k", a cost model's
 * ":spr") is that metric: the name without it, in buf.
 */
static const char *unqualified(const char *metric, char *buf, size_t n)
{
	const char *colon = strrchr(metric, ':');

	if (!colon || strchr(colon, '.') || (size_t)(colon - metric) >= n)
		return metric;
	memcpy(buf, metric, colon - metric);
	buf[colon - metric] = '\0';
	return buf;
}

bool kab_metric_absolute(const char *metric)
{
	char buf[256];

	metric = unqualified(metric, buf, sizeof(buf));
	return starts(metric, "perf-profile") || ends(metric, "%");
}

int kab_metric_direction(const char *metric)
{
	char buf[256];

	metric = unqualified(metric, buf, sizeof(buf));
	if (ends(metric, "_ops") || ends(metric, ".ops_per_sec") ||
	    ends(metric, ".workload") || ends(metric, ".ops") ||
	    ends(metric, ".processes") || ends(metric, ".threads") ||
	    ends(metric, "ops_per_sec") || ends(metric, ".throughput"))
		return 1;
	if (strstr(metric, "latency") || ends(metric, ".elapsed_time") ||
	    ends(metric, "_time_ms") || ends(metric, ".time"))
		return -1;
	return 0;
}

char *kab_suite_kpi(const char *testcase, const char *test, const char *mode)
{
	size_t n;
	char *m;

	if (!testcase)
		return NULL;
	if (!strcmp(testcase, "will-it-scale"))
		return strdup(mode && !strcmp(mode, "thread") ?
			      "will-it-scale.per_thread_ops" :
			      "will-it-scale.per_process_ops");
	if (!test)
		return NULL;
	n = strlen(testcase) + strlen(test) + sizeof(".ops_per_sec") + 1;
	m = malloc(n);
	if (m)
		snprintf(m, n, "%s.%s.ops_per_sec", testcase, test);
	return m;
}

double kab_lkp_change(const char *metric, double base_mean,
		      double head_mean)
{
	if (kab_metric_absolute(metric))
		return head_mean - base_mean;
	/* "To avoid divide 0 problem" */
	if (base_mean == 0)
		base_mean = 1e-100;
	return 100.0 * (head_mean - base_mean) / base_mean;
}

/* ---- the table ---- */

/* a number as lkp's Ruby prints it, right-aligned in width */
static void ruby_cell(FILE *out, double v, char conv, int prec, bool plus,
		      int width)
{
	char buf[64];

	kab_ruby_format(buf, sizeof(buf), v, conv, prec, plus);
	fprintf(out, "%*s", width, buf);
}

static void avg_cell(FILE *out, double avg)
{
	if (fabs(avg) < 1000)
		ruby_cell(out, avg, 'f', 2, false, 10);
	else if (!(fabs(avg) <= 100000000))
		ruby_cell(out, avg, 'g', 4, false, 10);
	else
		fprintf(out, "%10lld", (long long)avg);	/* Ruby's %d: cut */
}

/*
 * lkp's stddev cell: a side of one value (or none) has a stddev of -1,
 * which a negative mean turns into a percentage; a mean of 0 leaves
 * the stddev as it is.
 */
static void err_cell(FILE *out, const struct kab_summary *s)
{
	double pct = s->n > 1 ? s->stddev : -1;

	if (s->mean != 0)
		pct = 100 * pct / s->mean;
	if (pct > 2) {
		fputs(" \u00b1", out);
		if (isfinite(pct))
			fprintf(out, "%3.0f", trunc(pct));
		else
			ruby_cell(out, pct, 'f', 0, false, 3);
		fputc('%', out);
		return;
	}
	fputs("      ", out);
}

/*
 * lkp's change; with kab's notes, a metric equal on both sides (0 on
 * both, or 0 on one and missing on the other: lkp's 1e-100 base makes
 * that -100%) is +0.0%.
 */
static void change_cell(FILE *out, const struct kab_cell *c,
			const struct kab_summary *base, bool kab)
{
	double v = kab && c->s.mean == base->mean ? 0 : c->lkp_change;

	if (fabs(v) < 100000)
		ruby_cell(out, v, 'f', 1, true, 10);
	else
		ruby_cell(out, v, 'g', 2, true, 10);
	fputs(c->absolute ? "  " : "% ", out);
}

static void stats_cells(FILE *out, const struct kab_cell *c)
{
	if (isnan(c->p_adj))
		fprintf(out, "  %9s", c->confounded ? "confound" :
			c->few ? "boots<2" : "p=-");
	else
		fprintf(out, "  p=%-7.2g", c->p_adj);
	fprintf(out, " %zu/%zu boots%s", c->units_base, c->units_head,
		c->log_scale ? " log" : "");
	if (c->blocks >= 2)
		fprintf(out, c->paired ? " at %zu seeds" : " in %zu machines",
			c->blocks);
	/* Between/within-boot F of each side, where ANOVA can tell. */
	if (!isnan(c->f_base) || !isnan(c->f_head)) {
		fputs(" F=", out);
		fprintf(out, isnan(c->f_base) ? "-" : "%.1f", c->f_base);
		fputc('/', out);
		fprintf(out, isnan(c->f_head) ? "-" : "%.1f", c->f_head);
	}
	if (!isnan(c->ci_lo))
		fprintf(out, " [%+.1f, %+.1f]%s", c->ci_lo, c->ci_hi,
			c->absolute || c->zero_base ? "" : "%");
}

void kab_lkp_row(FILE *out, const struct kab_row *r, size_t nr_heads,
		 bool stats, bool notes)
{
	size_t i;

	/* a side without the metric shows lkp's 0.00 */
	avg_cell(out, r->base.mean);
	err_cell(out, &r->base);
	for (i = 0; i < nr_heads; i++) {
		const struct kab_cell *c = &r->cells[i];

		change_cell(out, c, &r->base, notes);
		avg_cell(out, c->s.mean);
		err_cell(out, &c->s);
	}
	fprintf(out, "  %s", r->metric);
	/*
	 * The KPIs are their own family of the correction: with the same
	 * means as another row, the KPI's adjusted p differs.  Said.
	 */
	if (stats && r->kpi)
		fputs(" (KPI)", out);
	if (stats)
		for (i = 0; i < nr_heads; i++)
			if (r->cells[i].s.n && r->base.n)
				stats_cells(out, &r->cells[i]);
	for (i = 0; i < nr_heads && notes; i++) {
		if (!r->base.n || !r->cells[i].s.n) {
			fputs("  (one side only)", out);
			break;
		}
		if (r->cells[i].few) {
			fputs(r->cells[i].confounded ? "  (machines differ)" :
			      "  (boots<2)", out);
			break;
		}
		if (r->cells[i].zero_base) {
			fputs("  (base 0)", out);
			break;
		}
	}
	fputc('\n', out);
}

/*
 * Labels, commit subjects and parameters come from a database, which
 * may be old or merged: what a terminal would act on is printed as
 * \xNN.
 */
static void put_visible(FILE *out, const char *fmt, const char *s,
			int width)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add_visible(&sb, s, strlen(s));
	if (width)
		fprintf(out, fmt, width, width, sb.len ? sb.buf : "");
	else
		fprintf(out, fmt, sb.len ? sb.buf : "");
	strbuf_release(&sb);
}

static void trunc_id(FILE *out, const char *id, int width)
{
	put_visible(out, "%*.*s ", id, width);
}

void kab_lkp_header(FILE *out, const struct kab_table_head *h, bool lkp)
{
	size_t i;

	fputs("========================================================="
	      "================================\n", out);
	if (h->axis_keys[0]) {
		put_visible(out, "%s:\n", h->axis_keys, 0);
		put_visible(out, "  %s\n\n", h->axis_values, 0);
	} else {
		/* no common axes: lkp names each result root's own */
		put_visible(out, "commit:\n  %s\n\n", h->base->id, 0);
		for (i = 0; i < h->nr_heads; i++)
			put_visible(out, "commit:\n  %s\n\n", h->heads[i].id, 0);
	}
	/* lkp names a side by its commit; kab adds the subject */
	fputs("commit: \n", out);
	put_visible(out, "  %s\n", lkp ? h->base->id : h->base->desc, 0);
	for (i = 0; i < h->nr_heads; i++)
		put_visible(out, "  %s\n", lkp ? h->heads[i].id :
			    h->heads[i].desc, 0);
	fputc('\n', out);
	trunc_id(out, h->base->id, 16);
	for (i = 0; i < h->nr_heads; i++)
		trunc_id(out, h->heads[i].id, 27);
	fputc('\n', out);
	fputs("---------------- ", out);
	for (i = 0; i < h->nr_heads; i++)
		fputs("--------------------------- ", out);
	fputc('\n', out);
}

void kab_lkp_columns(FILE *out, size_t nr_heads)
{
	size_t i;

	fputs("         %stddev", out);
	for (i = 0; i < nr_heads; i++)
		fputs("     %change         %stddev", out);
	fputc('\n', out);
	fputs("             \\", out);
	for (i = 0; i < nr_heads; i++)
		fputs("          |                \\", out);
	fputs("  \n", out);
}

/*
 * lib/compare.rb's show_failure_change for last_state.is_incomplete_run:
 * each side's count of such runs of all its runs, and the change of
 * their share in points ("%reproduction").  lkp shows it when a side's
 * largest value differs from the base's (changed_function_stat?); its
 * ratio and delta tests pass for any such pair of 0/1 columns.
 *
 * lkp's calc_failure_change divides a head's count by the runs of the
 * column before it (runs[i] for fails[i + 1]: the base's runs for the
 * first head), not by its own; --format lkp prints what lkp prints,
 * kab's own tables the change of the shares.
 */
static bool failures_shown(const struct kab_table_head *h, bool lkp,
			    bool all)
{
	size_t i;

	/*
	 * lkp -a prints every stat its matrices have, and
	 * last_state.is_incomplete_run is one as soon as a run of either
	 * side is incomplete: 1:3 0% 1:3 too.
	 */
	if (lkp && all) {
		for (i = 0; i < h->nr_heads; i++)
			if (h->heads[i].incomplete)
				return true;
		return h->base->incomplete;
	}
	if (!lkp) {
		for (i = 0; i < h->nr_heads; i++)
			if (h->heads[i].incomplete || h->base->incomplete)
				return true;
		return false;
	}
	/*
	 * lkp's _calc_changed_stat_keys compares each head with one copy
	 * of the base's matrix, and _get_changed_stats removes the
	 * incomplete runs from that copy in place: the first head meets
	 * the base as it is, every later one a base with none.
	 */
	for (i = 0; i < h->nr_heads; i++)
		if (!h->heads[i].incomplete != !(i ? 0 : h->base->incomplete))
			return true;
	return false;
}

static void fail_cell(FILE *out, const struct kab_side *s)
{
	if (s->incomplete)
		fprintf(out, "%11zu", s->incomplete);
	else
		fprintf(out, "%11s", " ");
	fprintf(out, ":%-4zu", s->nr_boots + s->incomplete);
}

static double fail_share(const struct kab_side *s, const struct kab_side *by)
{
	return (double)s->incomplete / (double)(by->nr_boots + by->incomplete);
}

bool kab_lkp_failures(FILE *out, const struct kab_table_head *h, bool lkp,
		      bool all)
{
	size_t i;

	if (!failures_shown(h, lkp, all))
		return false;
	fputs("       fail:runs", out);
	for (i = 0; i < h->nr_heads; i++)
		fputs("  %reproduction    fail:runs", out);
	fputs("\n           |    ", out);
	for (i = 0; i < h->nr_heads; i++)
		fputs("         |             |    ", out);
	fputc('\n', out);
	fail_cell(out, h->base);
	for (i = 0; i < h->nr_heads; i++) {
		const struct kab_side *by = !lkp ? &h->heads[i] :
					    i ? &h->heads[i - 1] : h->base;

		ruby_cell(out, 100 * (fail_share(&h->heads[i], by) -
				      fail_share(h->base, h->base)), 'f', 0,
			  false, 10);
		fputs("% ", out);
		fail_cell(out, &h->heads[i]);
	}
	fputs("  last_state.is_incomplete_run\n", out);
	return true;
}

void kab_lkp_table(FILE *out, const struct kab_table_head *h,
		   const struct kab_comparison *c)
{
	bool rows = c->nr_rows && c->rows[0].shown;	/* shown come first */
	size_t r;

	bool all = c->opts && c->opts->all;

	if (!rows && !failures_shown(h, true, all))
		return;
	kab_lkp_header(out, h, true);
	kab_lkp_failures(out, h, true, all);
	if (rows)
		kab_lkp_columns(out, c->nr_heads);
	for (r = 0; r < c->nr_rows && c->rows[r].shown; r++)
		kab_lkp_row(out, &c->rows[r], c->nr_heads, false, false);
	fputc('\n', out);
}

void kab_kpi_summary(FILE *out, const struct kab_comparison *c,
		     const struct kab_side *base,
		     const struct kab_side *heads)
{
	size_t r, i;

	for (r = 0; r < c->nr_rows; r++) {
		const struct kab_row *row = &c->rows[r];

		for (i = 0; i < c->nr_heads; i++) {
			const struct kab_cell *cell = &row->cells[i];

			if (!row->kpi || !cell->significant ||
			    !cell->verdict)
				continue;
			fprintf(out, "kab noticed a %.1f%s %s of %s: ",
				fabs(cell->change),
				cell->absolute || cell->zero_base ? "" : "%",
				cell->verdict > 0 ? "improvement" :
						    "regression",
				row->metric);
			put_visible(out, "%s -> ", base->id, 0);
			put_visible(out, "%s\n", heads[i].id, 0);
		}
	}
}
