// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-plan.c - kab plan SIDE --detect PCT: from a side's stored boots,
 * the variance within and between boots and what a boot and an
 * iteration cost, the boots and iterations per boot that detect PCT
 * with the power asked (analysis/plan.c).
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "../model/model.h"

struct plan_args {
	const char *kpi;
	double detect, power, alpha;
	struct kab_db *db;
	size_t planned;
	size_t groups, no_metric;	/* jobs seen, jobs without it */
	char *near;			/* did you mean, for --kpi */
	struct kab_err err;
};

static void plan_usage(FILE *f)
{
	fprintf(f,
		"usage: kab plan [options] --detect PCT SIDE\n"
		"\n"
		"From SIDE's stored boots (a kernel label or run ids, 2 boots "
		"or more): the\nvariance within and between boots of the KPI "
		"and what a boot and an\niteration cost, then the boots a side "
		"and iterations per boot that detect a\nchange of PCT percent "
		"(Kalibera and Jones, ISMM 2013).\n"
		"\n"
		"  --detect PCT          the change to detect, in %% (required)\n"
		"  --kpi METRIC          the metric (default: the job's own)\n"
		"  --power P             the power to reach (0.8)\n"
		"  --alpha A             the test's level (0.04: the KPI's "
		"share of a table's\n"
		"                        0.05)\n"
		"  --db PATH             database\n");
}

/* Seconds before the first iteration, and of an iteration, averaged. */
static int costs(struct kab_db *db, const struct run_info *const *runs,
		 size_t nr, const struct kab_series *s, double *boot,
		 double *iter, struct kab_err *err)
{
	double sb = 0, si = 0;
	size_t i, k, n = 0;

	for (i = 0; i < nr; i++) {
		double b, total;
		size_t iters = 0;

		if (kab_db_run_cost(db, runs[i]->id, &b, &total, err))
			return -1;
		for (k = 0; k < s->n; k++)
			iters += s->boot[k] == (int)i;
		if (total <= b || !iters)
			continue;
		sb += b;
		si += (total - b) / iters;
		n++;
	}
	if (!n)
		return 1;
	*boot = sb / n;
	*iter = si / n;
	return 0;
}

static double pct_of(double var, bool log_scale, double mean)
{
	return log_scale ? 100 * sqrt(var) : 100 * sqrt(var) / fabs(mean);
}

/* Were all the runs timed by icount? */
static bool exact(const struct run_info *const *runs, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!runs[i]->exact)
			return false;
	return nr > 0;
}


/* s as one shell word (valid until the next call) */
static const char *shell_word(const char *s)
{
	static char *last;
	struct strbuf sb = STRBUF_INIT;

	strbuf_add_shell_word(&sb, s);
	free(last);
	last = strbuf_detach(&sb);
	return last;
}

/*
 * A job's parameters as "k=v k=v" (the job named first), or as kab
 * run's " --set k=v ... JOB", shell-quoted (valid until the next call).
 */
static const char *job_line(json_t *params, bool cmd)
{
	static char *last;
	struct strbuf sb = STRBUF_INIT;
	const char *tc = json_string_value(json_object_get(params, "testcase"));
	const char *t = json_string_value(json_object_get(params, "test"));
	const char **keys;
	const char *k;
	json_t *v;
	size_t n = 0, i;

	keys = xcalloc(json_object_size(params) + 1, sizeof(*keys));
	json_object_foreach(params, k, v)
		if (json_is_string(v) && strcmp(k, "testcase") &&
		    strcmp(k, "test"))
			keys[n++] = k;
	qsort(keys, n, sizeof(*keys), kab_strcmp_ptr);
	if (!cmd && tc && t)
		strbuf_addf(&sb, "%s %s:", tc, t);
	for (i = 0; i < n; i++) {
		char *kv = xasprintf("%s=%s", keys[i], json_string_value(
					json_object_get(params, keys[i])));

		strbuf_addstr(&sb, cmd ? " --set " : " ");
		if (cmd)
			strbuf_add_shell_word(&sb, kv);
		else
			strbuf_addstr(&sb, kv);
		free(kv);
	}
	if (cmd && tc && t) {
		char *job = xasprintf("%s-%s", tc, t);

		strbuf_addstr(&sb, " ");
		strbuf_add_shell_word(&sb, job);
		free(job);
	}
	free(keys);
	free(last);
	last = strbuf_detach(&sb);
	return last;
}

static int plan_group(void *arg, size_t k, const struct run_info *const *runs,
		      size_t nr, const struct kab_side *side)
{
	struct plan_args *a = arg;
	char *own = kab_suite_kpi(
		json_string_value(json_object_get(runs[0]->params_obj,
						  "testcase")),
		json_string_value(json_object_get(runs[0]->params_obj, "test")),
		json_string_value(json_object_get(runs[0]->params_obj, "mode")));
	const char *metric = a->kpi ? a->kpi : own;
	const struct kab_series *s = metric ? kab_side_series(side, metric) :
				     NULL;
	struct kab_plan_in in = { .alpha = a->alpha, .power = a->power };
	struct kab_plan_out out;
	struct kab_anova an;
	double *v, mean = 0;
	char *more;
	bool log_scale = true;
	size_t i;
	int rc;

	a->groups++;
	if (!s) {
		/* said once at the end, or per job when others have it */
		const char **names = xcalloc(side->nr + 1, sizeof(*names));
		const char *near;

		for (i = 0; i < side->nr; i++)
			names[i] = side->series[i].metric;
		near = metric ? kab_nearest(metric, names, side->nr) : NULL;
		if (near && !a->near)
			a->near = xstrdup(near);
		free(names);
		a->no_metric++;
		free(own);
		return 0;
	}
	if (k)
		printf("\n");
	printf("%s, job %s:\n", cli_vis(runs[0]->label),
	       cli_vis(job_line(runs[0]->params_obj, false)));
	v = xmalloc(s->n * sizeof(*v));
	for (i = 0; i < s->n; i++) {
		mean += s->v[i] / s->n;
		log_scale &= s->v[i] > 0;
	}
	for (i = 0; i < s->n; i++)
		v[i] = log_scale ? log(s->v[i]) : s->v[i];
	kab_anova(v, s->boot, s->n, &an);
	free(v);
	in.within_var = an.ms_within;
	in.between_var = kab_anova_between_var(&an);
	printf("  %s: %zu boot%s, %zu iteration%s", s->metric, an.groups,
	       an.groups == 1 ? "" : "s", s->n, s->n == 1 ? "" : "s");
	if (isnan(in.between_var)) {
		more = runs_more_units(runs, nr, 2, 2);
		printf("\n  cannot tell the variance between boots from the "
		       "variance within them: measure 2 boots (or runs) or "
		       "more of 2 iterations or more (%s)\n", more);
		free(more);
		free(own);
		return 0;
	}
	printf("; within a boot %.1f%%, between boots %.1f%%%s\n",
	       pct_of(in.within_var, log_scale, mean),
	       pct_of(in.between_var, log_scale, mean),
	       log_scale ? "" : " (of the mean, linear scale)");
	rc = costs(a->db, runs, nr, s, &in.boot_cost, &in.iter_cost, &a->err);
	if (rc < 0) {
		free(own);
		return -1;
	}
	if (rc) {
		printf("  no stored run says how long it took: cannot plan\n");
		free(own);
		return 0;
	}
	printf("  cost: %.1f s a boot before its first iteration, %.1f s an "
	       "iteration\n", in.boot_cost, in.iter_cost);
	if (exact(runs, nr)) {
		/*
		 * boot means that differ by their layout seeds alone, or
		 * repeat: planned on that spread, the resolution at least
		 */
		double f = kab_exact_floor() * (log_scale ? 1 : fabs(mean));

		/*
		 * and iterations differ the same way in every boot (the
		 * first is colder): they cancel, they are not noise
		 */
		in.within_var = 0;
		/* kab ab boots both sides at the same layout seeds */
		in.paired = true;
		if (in.between_var < f * f) {
			in.between_var = f * f;
			printf("  timed by guest instructions (icount): boot "
			       "means differ less than exact mode's resolution "
			       "and iterations alike in every boot, so the plan "
			       "takes the resolution, %g%%, as the spread of a "
			       "boot, the sides paired by layout seed\n",
			       KAB_EXACT_RESOLUTION);
		} else {
			printf("  timed by guest instructions (icount): the "
			       "boots differ by their layout seeds; the plan "
			       "takes that spread, the sides paired by seed\n");
		}
	} else {
		/* so few boots leave their variance uncertain: planned so */
		in.pilot_boots = an.groups;
		in.pilot_iters = an.n0;
		if (in.between_var == 0)
			printf("  note: these boots differ no more than their "
			       "iterations, which %zu boots cannot rule out "
			       "for the next ones: the plan allows for it\n",
			       an.groups);
	}
	in.delta = log_scale ? log1p(a->detect / 100) :
		   a->detect / 100 * fabs(mean);
	if (kab_plan(&in, &out)) {
		printf("  no plan of up to 10,000 boots a side detects %g%%\n",
		       a->detect);
		free(own);
		return 0;
	}
	printf("  to detect %g%% at alpha %g with power %g: %zu boots a side "
	       "of %zu iteration%s (power %.2f%s), about %.0f s a side\n",
	       a->detect, a->alpha, a->power, out.boots, out.iters,
	       out.iters == 1 ? "" : "s", out.power, in.pilot_boots ?
	       " on average over the spread of boots the pilot allows" : "",
	       out.seconds);
	more = runs_more_units(runs, nr, out.boots, out.iters);
	/* a command to paste: the kernel's label, the job and its set */
	if (!strncmp(more, "kab run ", 8) && strstr(more, " on each kernel")) {
		*strstr(more, " on each kernel") = '\0';
		printf("  %s --kernel-label %s%s  # on each kernel\n", more,
		       cli_vis(shell_word(runs[0]->label)),
		       cli_vis(job_line(runs[0]->params_obj, true)));
	} else {
		printf("  %s%s\n", more,
		       cli_vis(job_line(runs[0]->params_obj, true)));
	}
	free(more);
	a->planned++;
	free(own);
	return 0;
}

/* Jobs without the metric: an error when nothing was planned. */
static int no_metric(const struct plan_args *a, const char *side)
{
	char *msg;
	int rc = EXIT_OK;

	if (a->kpi)
		msg = xasprintf("%zu of %zu jobs of %s have no %s%s%s%s: 'kab "
				"show' of a run lists its metrics", a->no_metric,
				a->groups, side, a->kpi, a->near ?
				" (did you mean '" : "", a->near ? a->near : "",
				a->near ? "'?)" : "");
	else
		msg = xasprintf("%zu of %zu jobs of %s have no KPI kab knows: "
				"name one with --kpi METRIC", a->no_metric,
				a->groups, side);
	if (a->planned && !a->kpi)
		cli_note("%s", msg);
	else if (!a->planned)
		rc = cli_error(EXIT_USAGE, "%s", msg);
	free(msg);
	return rc;
}

static double number(const char *opt, const char *s, double lo, double hi,
		     bool *bad)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !(v > lo && v < hi)) {
		cli_error(EXIT_USAGE, "%s '%s': give a number between %g and "
			  "%g", opt, s, lo, hi);
		*bad = true;
	}
	return v;
}

int cmd_plan(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "detect", required_argument, NULL, 'D' },
		{ "kpi", required_argument, NULL, 'k' },
		{ "power", required_argument, NULL, 'P' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "db", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct plan_args a = { .power = 0.8, .alpha = 0.05 * KAB_KPI_SHARE };
	const char *db_opt = NULL;
	bool bad = false;
	size_t nbad = 0;
	int opt, rc;

	optind = 1;
	while ((opt = cli_getopt(argc, argv, ":h", opts)) != -1) {
		switch (opt) {
		case 'D':
			a.detect = number("--detect", optarg, 0, 1000, &bad);
			break;
		case 'k':
			a.kpi = optarg;
			break;
		case 'P':
			a.power = number("--power", optarg, 0, 1, &bad);
			break;
		case 'a':
			a.alpha = number("--alpha", optarg, 0, 1, &bad);
			break;
		case 'd':
			db_opt = optarg;
			break;
		case 'h':
			plan_usage(stdout);
			return EXIT_OK;
		default:
			return cli_bad_option("plan", opt, argv, opts);
		}
		if (bad)
			return EXIT_USAGE;
	}
	if (argc - optind != 1)
		return cli_error(EXIT_USAGE, "plan needs one side: 'kab plan "
				 "--detect PCT LABEL'");
	if (!(a.detect > 0))
		return cli_error(EXIT_USAGE, "plan needs the change to detect: "
				 "--detect PCT");
	rc = cli_open_db(cli, db_opt, KAB_DB_READ, &a.db);
	if (rc)
		return rc;
	rc = side_foreach_group(a.db, argv[optind], plan_group, &a, &nbad,
				&a.err);
	kab_db_close(a.db);
	if (rc > 0)
		rc = cli_error(EXIT_USAGE, "%s", a.err.msg);
	else if (rc < 0)
		rc = cli_error(EXIT_RUN, "%s", a.err.msg);
	else if (a.no_metric)
		rc = no_metric(&a, argv[optind]);
	else
		/* too few boots or no durations: missing data, as a label */
		rc = a.planned ? EXIT_OK : cli_error(EXIT_USAGE, "nothing to "
			"plan from %s: measure what the notes above ask",
			argv[optind]);
	free(a.near);
	return rc;
}
