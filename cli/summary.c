// SPDX-License-Identifier: GPL-2.0
/*
 * summary.c - a run's header and its per-metric table, shared by
 * 'kab show' and 'kab run'.
 */
#include <fnmatch.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "../report/report.h"
#include "../analysis/analysis.h"

void cli_fmt_double(double v, char *buf, size_t n)
{
	int prec;

	for (prec = 15; prec <= 17; prec++) {
		snprintf(buf, n, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

struct series {
	char *metric;
	int n, alloc;
	double *v;
};

struct collect {
	const char *glob;
	int nr, alloc;
	struct series *s;
	int *sorted;		/* indices of s, by metric */
};

/* Where metric is, or would go, in c->sorted: a bisection. */
static int find(const struct collect *c, const char *metric, bool *found)
{
	int lo = 0, hi = c->nr;

	*found = false;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		int d = strcmp(c->s[c->sorted[mid]].metric, metric);

		if (!d) {
			*found = true;
			return mid;
		}
		if (d < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Samples come by iteration, then metric: every iteration's metrics in
 * order, so new ones go at the end of c->sorted and a run of 40,000
 * metrics costs n log n, not n^2.
 */
static int add_sample(void *arg, int it, const char *metric, double value)
{
	struct collect *c = arg;
	struct series *s;
	bool found;
	int at;

	(void)it;
	if (c->glob && fnmatch(c->glob, metric, 0))
		return 0;
	at = find(c, metric, &found);
	if (found) {
		s = &c->s[c->sorted[at]];
	} else {
		if (c->nr == c->alloc) {
			c->alloc = c->alloc ? c->alloc * 2 : 64;
			c->s = xrealloc(c->s, c->alloc * sizeof(*c->s));
			c->sorted = xrealloc(c->sorted,
					     c->alloc * sizeof(*c->sorted));
		}
		memmove(c->sorted + at + 1, c->sorted + at,
			(c->nr - at) * sizeof(*c->sorted));
		c->sorted[at] = c->nr;
		s = &c->s[c->nr++];
		memset(s, 0, sizeof(*s));
		s->metric = xstrdup(metric);
	}
	if (s->n == s->alloc) {
		s->alloc = s->alloc ? s->alloc * 2 : 8;
		s->v = xrealloc(s->v, s->alloc * sizeof(*s->v));
	}
	s->v[s->n++] = value;
	return 0;
}

static bool is_monitor(const char *m)
{
	return !strncmp(m, "proc-vmstat.", 12) || !strncmp(m, "meminfo.", 8) ||
	       !strncmp(m, "perf-stat.", 10);
}

int cli_metric_rank(const char *metric, const char *kpi, const char *suite)
{
	size_t n = suite ? strlen(suite) : 0;

	if (kpi && !strcmp(metric, kpi))
		return 0;
	if (n && !strncmp(metric, suite, n) && metric[n] == '.')
		return 1;
	if (!strncmp(metric, "perf-profile.", 13))
		return 3;
	return 2;
}

/* The benchmark's own metrics first, then monitors, each by name. */
static int cmp_series(const void *a, const void *b)
{
	const char *x = ((const struct series *)a)->metric;
	const char *y = ((const struct series *)b)->metric;

	if (is_monitor(x) != is_monitor(y))
		return is_monitor(x) - is_monitor(y);
	return strcmp(x, y);
}

void cli_fmt_value(double v, char *buf, size_t n)
{
	if (fabs(v) >= 1e9)
		snprintf(buf, n, "%.4g", v);
	else if (fabs(v) >= 1000 || v == floor(v))
		snprintf(buf, n, "%.0f", v);
	else
		snprintf(buf, n, "%.2f", v);
}

json_t *cli_json_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *cli_run_json(const struct kab_run *r)
{
	json_t *j = json_pack("{sI ss ss ss* ss* ss ss ss ss ss sO sO ss si si "
			      "ss ss* ss*}",
			      "id", (json_int_t)r->id, "uuid", r->uuid,
			      "kernel_label", r->kernel.label,
			      "release", r->kernel.release,
			      "commit", r->kernel.commit, "job", r->job,
			      "suite", r->suite, "test", r->test,
			      "target", r->target,
			      "clock", r->clock ? r->clock : "wall",
			      "params", r->params,
			      "host", r->host ? r->host : json_null(),
			      "status", r->status,
			      "iterations", r->nr_iterations,
			      "iterations_planned", r->iterations_planned,
			      "started_at", r->started_at,
			      "ended_at", r->ended_at,
			      "message", r->message);

	if (j && r->seed)
		json_object_set_new(j, "seed", json_integer((json_int_t)r->seed));
	return j;
}

json_t *cli_summary_json(struct kab_db *db, long long run_id,
			 const char *glob, struct kab_err *err)
{
	struct collect c = { .glob = glob };
	json_t *metrics;
	int i;

	if (kab_db_samples_foreach(db, run_id, add_sample, &c, err))
		return NULL;
	if (c.nr)
		qsort(c.s, c.nr, sizeof(*c.s), cmp_series);
	metrics = json_array();
	for (i = 0; i < c.nr; i++) {
		struct kab_summary s;

		kab_summarize(c.s[i].v, c.s[i].n, &s);
		json_array_append_new(metrics, json_pack(
			"{ss sI so so so so so so}", "metric", c.s[i].metric,
			"n", (json_int_t)s.n, "mean", cli_json_num(s.mean),
			"stddev", cli_json_num(s.stddev),
			"pct_stddev", cli_json_num(kab_summary_pct(&s)),
			"median", cli_json_num(s.median),
			"min", cli_json_num(s.min),
			"max", cli_json_num(s.max)));
		free(c.s[i].metric);
		free(c.s[i].v);
	}
	free(c.s);
	free(c.sorted);
	return metrics;
}

/* the run's KPI and suite: what is printed first */
static void kpi_of(struct kab_db *db, long long run_id, char **kpi,
		   char **suite)
{
	struct kab_run r = { 0 };
	struct kab_err err;

	*kpi = *suite = NULL;
	if (kab_db_run_get(db, run_id, &r, &err))
		return;
	*suite = xstrdup(json_string_value(json_object_get(r.params,
							   "testcase")) ?: "");
	*kpi = kab_suite_kpi(*suite, json_string_value(json_object_get(
				r.params, "test")),
			     json_string_value(json_object_get(r.params,
							       "mode")));
	kab_run_free(&r);
}

/*
 * --metric GLOB that no metric of the run matches: a typo more often
 * than a wish; 1 with the error, the nearest name offered.
 */
int cli_summary_no_match(struct kab_db *db, long long run_id,
			 const char *glob, struct kab_err *err)
{
	struct collect c = { 0 };
	const char **names;
	const char *near;
	int i;

	if (kab_db_samples_foreach(db, run_id, add_sample, &c, err))
		return -1;
	names = xcalloc(c.nr + 1, sizeof(*names));
	for (i = 0; i < c.nr; i++)
		names[i] = c.s[i].metric;
	near = c.nr ? kab_nearest(glob, names, c.nr) : NULL;
	if (near)
		kab_err_set(err, "no metric of run %lld matches '%s': did you "
			    "mean '%s'?", run_id, glob, near);
	else
		kab_err_set(err, "no metric of run %lld matches '%s': 'kab show "
			    "%lld' lists them (a glob: 'meminfo.*')", run_id,
			    glob, run_id);
	free(names);
	for (i = 0; i < c.nr; i++) {
		free(c.s[i].metric);
		free(c.s[i].v);
	}
	free(c.s);
	free(c.sorted);
	return 1;
}

int cli_print_summary(FILE *out, struct kab_db *db, long long run_id,
		      const char *glob, struct kab_err *err)
{
	struct collect c = { .glob = glob };
	size_t hidden = 0;
	char *kpi, *suite;
	int i, rank;

	if (kab_db_samples_foreach(db, run_id, add_sample, &c, err))
		return -1;
	kpi_of(db, run_id, &kpi, &suite);
	if (c.nr)
		qsort(c.s, c.nr, sizeof(*c.s), cmp_series);
	if (c.nr)
		fprintf(out, "%6s %14s %14s %8s %14s %14s %14s  %s\n", "n",
			"mean", "stddev", "%stddev", "median", "min", "max",
			"metric");
	/* the KPI, the suite's own, the monitors, the profile (if asked) */
	for (rank = 0; rank < 4; rank++)
		for (i = 0; i < c.nr; i++) {
			struct kab_summary s;
			char mean[32], sd[32], med[32], lo[32], hi[32];

			if (cli_metric_rank(c.s[i].metric, kpi, suite) != rank)
				continue;
			if (rank == 3 && !glob) {
				hidden++;
				continue;
			}
			kab_summarize(c.s[i].v, c.s[i].n, &s);
			cli_fmt_value(s.mean, mean, sizeof(mean));
			cli_fmt_value(s.stddev, sd, sizeof(sd));
			cli_fmt_value(s.median, med, sizeof(med));
			cli_fmt_value(s.min, lo, sizeof(lo));
			cli_fmt_value(s.max, hi, sizeof(hi));
			fprintf(out, "%6zu %14s %14s %7.1f%% %14s %14s %14s  "
				"%s\n", s.n, mean, sd, kab_summary_pct(&s), med,
				lo, hi, c.s[i].metric);
		}
	if (hidden)
		fprintf(out, "(and %zu perf-profile rows: --metric "
			"'perf-profile.*' shows them)\n", hidden);
	for (i = 0; i < c.nr; i++) {
		free(c.s[i].metric);
		free(c.s[i].v);
	}
	free(c.s);
	free(c.sorted);
	free(kpi);
	free(suite);
	if (!c.nr && glob)
		return cli_summary_no_match(db, run_id, glob, err);
	if (!c.nr)
		fprintf(out, "(no samples)\n");
	return 0;
}

static void run_header(FILE *out, const struct kab_run *r)
{
	const char *key, *cpu, *clock;
	json_t *v;
	int first = 1;

	fprintf(out, "run %lld  %s  %s", (long long)r->id, r->status,
		r->started_at);
	if (r->ended_at)
		fprintf(out, " .. %s", r->ended_at);
	fprintf(out, "\n");
	if (r->message) {
		/* one line, whatever an older database holds */
		fputs("  message:    ", out);
		fput_visible(out, r->message);
		fputc('\n', out);
	}
	fprintf(out, "  kernel:     %s (release %s)\n", r->kernel.label,
		r->kernel.release);
	if (r->kernel.cmdline && *r->kernel.cmdline)
		fprintf(out, "  cmdline:    %s\n", r->kernel.cmdline);
	fprintf(out, "  job:        %s: ", r->job);
	json_object_foreach(r->params, key, v) {
		fprintf(out, "%s%s=%s", first ? "" : " ", key,
			json_string_value(v));
		first = 0;
	}
	fprintf(out, "\n");
	cpu = json_string_value(json_object_get(r->host, "cpu_model"));
	fprintf(out, "  host:       %s, %lld CPUs, %s, %lld MiB, THP %s/%s, "
		"target %s\n",
		json_string_value(json_object_get(r->host, "hostname")),
		(long long)json_integer_value(json_object_get(r->host,
							      "nr_cpus")),
		cpu ? cpu : "unknown CPU",
		(long long)json_integer_value(json_object_get(r->host,
				"mem_total_kb")) / 1024,
		json_string_value(json_object_get(r->host, "thp_enabled")),
		json_string_value(json_object_get(r->host, "thp_defrag")),
		r->target);
	clock = r->clock ? r->clock : "wall";
	if (!strncmp(clock, "icount:", 7))
		fprintf(out, "  clock:      %s (QEMU's instruction counter, 2^%s "
			"ns an instruction)\n", clock, clock + 7);
	else
		fprintf(out, "  clock:      %s\n", clock);
	if (r->seed)
		fprintf(out, "  layout:     seed %llu (exact mode: one of the "
			"layouts a seed gives)\n", r->seed);
	fprintf(out, "  iterations: %d of %d\n", r->nr_iterations,
		r->iterations_planned);
}

/* Every string here may be a guest's or an import's: made visible. */
void cli_print_run_header(FILE *out, const struct kab_run *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return;
	run_header(f, r);
	fclose(f);
	tty_lines(out, buf);
	free(buf);
}
