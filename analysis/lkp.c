// SPDX-License-Identifier: GPL-2.0
/*
 * lkp.c - lkp's conventions: which metrics change absolutely, which way
 * is better, which rows are too small to matter, lkp's own "changed"
 * heuristic, and its table, byte for byte (lib/compare.rb's widths:
 * ABS_WIDTH 10, REL_WIDTH 10, ERR_WIDTH 6).
 */
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
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

bool kab_metric_absolute(const char *metric)
{
	return starts(metric, "perf-profile") || ends(metric, "%");
}

int kab_metric_direction(const char *metric)
{
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

bool kab_metric_big_enough(const char *metric, double max_abs_mean)
{
	if (ends(metric, ".time.minor_page_faults"))
		return max_abs_mean >= 1000;
	if (starts(metric, "proc-vmstat.") && !starts(metric, "proc-vmstat.nr_"))
		return max_abs_mean > 1000;
	/* a node's rows as the machine's: numa-vmstat.node0.numa_hit */
	if (starts(metric, "numa-vmstat.") && !strstr(metric, ".nr_"))
		return max_abs_mean > 1000;
	if (starts(metric, "meminfo.") || starts(metric, "numa-meminfo."))
		return max_abs_mean > 1000;
	if (starts(metric, "perf-profile."))
		return max_abs_mean >= 1;
	return true;
}

static double median_of(const double *v, size_t n)
{
	double *c = malloc(n * sizeof(*c)), m;

	if (!c)
		return NAN;
	memcpy(c, v, n * sizeof(*c));
	gsl_sort(c, 1, n);
	m = gsl_stats_median_from_sorted_data(c, 1, n);
	free(c);
	return m;
}

bool kab_lkp_changed(const char *metric, const double *x, size_t nx,
		     const double *y, size_t ny)
{
	double mx, my, lo, hi, xmin, xmax, ymin, ymax;

	if ((nx < 3 && ny < 3) || !nx || !ny)
		return false;
	mx = fabs(median_of(x, nx));
	my = fabs(median_of(y, ny));
	lo = mx < my ? mx : my;
	hi = mx < my ? my : mx;
	if (lo == 0 ? hi == 0 :
	    hi / lo <= (starts(metric, "perf-") ? 1.01 : 1.05))
		return false;
	gsl_stats_minmax(&xmin, &xmax, x, 1, nx);
	gsl_stats_minmax(&ymin, &ymax, y, 1, ny);
	return xmax < ymin || ymax < xmin;
}

/* ---- the table ---- */

static void avg_cell(FILE *out, double avg)
{
	if (fabs(avg) < 1000)
		fprintf(out, "%10.2f", avg);
	else if (fabs(avg) > 100000000)
		fprintf(out, "%10.4g", avg);
	else
		fprintf(out, "%10lld", (long long)avg);
}

static void err_cell(FILE *out, const struct kab_summary *s)
{
	double pct;

	if (s->n > 1 && s->mean != 0) {
		pct = 100 * s->stddev / s->mean;
		if (pct > 2) {
			fprintf(out, " \u00b1%3d%%", (int)pct);
			return;
		}
	}
	fputs("      ", out);
}

static void change_cell(FILE *out, const struct kab_cell *c)
{
	const char *fmt = fabs(c->change) >= 100000 ? "%+10.2g" : "%+10.1f";

	fprintf(out, fmt, c->change);
	fputs(c->absolute || c->zero_base ? "  " : "% ", out);
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
		fprintf(out, " in %zu machines", c->blocks);
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
		 bool stats)
{
	size_t i;

	avg_cell(out, r->base.mean);
	err_cell(out, &r->base);
	for (i = 0; i < nr_heads; i++) {
		const struct kab_cell *c = &r->cells[i];

		if (!c->s.n) {
			/* the metric is missing in this head */
			fprintf(out, "%12s%10s      ", "", "");
			continue;
		}
		change_cell(out, c);
		avg_cell(out, c->s.mean);
		err_cell(out, &c->s);
	}
	fprintf(out, "  %s", r->metric);
	if (stats)
		for (i = 0; i < nr_heads; i++)
			if (r->cells[i].s.n)
				stats_cells(out, &r->cells[i]);
	for (i = 0; i < nr_heads; i++) {
		if (r->cells[i].s.n && r->cells[i].few) {
			fputs(r->cells[i].confounded ? "  (machines differ)" :
			      "  (boots<2)", out);
			break;
		}
		if (r->cells[i].zero_base) {
			fputs("  (base 0: absolute change)", out);
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

void kab_lkp_header(FILE *out, const struct kab_table_head *h)
{
	size_t i;

	fputs("========================================================="
	      "================================\n", out);
	put_visible(out, "%s:\n", h->axis_keys, 0);
	put_visible(out, "  %s\n\n", h->axis_values, 0);
	fputs("commit: \n", out);
	put_visible(out, "  %s\n", h->base->desc, 0);
	for (i = 0; i < h->nr_heads; i++)
		put_visible(out, "  %s\n", h->heads[i].desc, 0);
	fputc('\n', out);
	trunc_id(out, h->base->id, 16);
	for (i = 0; i < h->nr_heads; i++)
		trunc_id(out, h->heads[i].id, 27);
	fputc('\n', out);
	fputs("---------------- ", out);
	for (i = 0; i < h->nr_heads; i++)
		fputs("--------------------------- ", out);
	fputc('\n', out);
	fputs("         %stddev", out);
	for (i = 0; i < h->nr_heads; i++)
		fputs("     %change         %stddev", out);
	fputc('\n', out);
	fputs("             \\", out);
	for (i = 0; i < h->nr_heads; i++)
		fputs("          |                \\", out);
	fputs("  \n", out);
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
