// SPDX-License-Identifier: GPL-2.0
/*
 * bisect-show.c - a bisect's result: the first bad commit, lkp's table
 * of it against its parent, every tested commit with its verdict and
 * median, and the trend plot over them in history order.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bisect.h"

struct tested {
	char *commit;
	char *subject;
	char verdict[8];
	char *runs;
	double median;
	int n;
	long pos;		/* in the history good..bad, -1 unknown */
};

struct tested_list {
	struct tested *v;
	size_t nr;
};

static void add(struct tested_list *l, const char *commit,
		const char *subject, const char *verdict, const char *runs,
		double median, int n)
{
	struct tested *t;

	l->v = xrealloc(l->v, (l->nr + 1) * sizeof(*l->v));
	t = &l->v[l->nr++];
	t->commit = xstrdup(commit);
	t->subject = subject ? xstrdup(subject) : NULL;
	snprintf(t->verdict, sizeof(t->verdict), "%s", verdict);
	t->runs = runs ? xstrdup(runs) : NULL;
	t->median = median;
	t->n = n;
	t->pos = -1;
}

static int add_step(void *arg, const struct kab_bisect_step *s,
		    const char *when)
{
	(void)when;
	add(arg, s->commit, s->subject, s->verdict, s->runs, s->median, s->n);
	return 0;
}

static double median_of(double *v, size_t n)
{
	struct kab_summary s;

	if (!n)
		return NAN;
	kab_summarize(v, n, &s);
	return s.median;
}

/* An endpoint as a tested commit, its median from its runs. */
static void add_endpoint(struct kab_db *db, struct tested_list *l,
			 const char *tree, const char *rev, const char *runs,
			 const char *metric, const char *verdict)
{
	char *commit = tree ? kab_cmd_line(tree, NULL, "git", "rev-parse",
					   "--verify", "-q", rev, NULL) : NULL;
	char *subject = commit ? kab_cmd_line(tree, NULL, "git", "log", "-1",
					      "--format=%s", commit, NULL) :
			NULL;
	size_t nr, n;
	int64_t *ids = runs_split(runs, &nr);
	double *v = bisect_samples(db, metric, ids, nr, &n);

	add(l, commit ? commit : rev, subject, verdict, runs,
	    median_of(v, n), (int)n);
	free(commit);
	free(subject);
	free(ids);
	free(v);
}

/* Positions in git rev-list --reverse good..bad (good at 0). */
static void place(struct tested_list *l, const char *tree, const char *good,
		  const char *bad)
{
	struct strbuf out = STRBUF_INIT;
	char *range = xasprintf("%s..%s", good, bad), *line, *save;
	char *const argv[] = { "git", "rev-list", "--reverse", "--topo-order",
			       range, NULL };
	struct kab_spawn s = { .argv = argv, .cwd = tree, .quiet = true };
	long pos = 1;
	size_t i;

	for (i = 0; i < l->nr; i++)
		if (!strncmp(l->v[i].commit, good, 40))
			l->v[i].pos = 0;
	if (!kab_run_capture(&s, &out, NULL) && out.buf)
		for (line = strtok_r(out.buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save), pos++)
			for (i = 0; i < l->nr; i++)
				if (!strcmp(l->v[i].commit, line))
					l->v[i].pos = pos;
	strbuf_release(&out);
	free(range);
}

static int by_pos(const void *a, const void *b)
{
	const struct tested *x = a, *y = b;

	return (x->pos > y->pos) - (x->pos < y->pos);
}

static void print_table(struct kab_db *db, const struct tested_list *l,
			const char *tree, const char *first)
{
	char *up = xasprintf("%s^", first);
	char *parent = tree ? kab_cmd_line(tree, NULL, "git", "rev-parse",
					   "--verify", "-q", up, NULL) : NULL;
	const char *pr = NULL, *fr = NULL;
	size_t i;

	for (i = 0; i < l->nr; i++) {
		if (parent && !strcmp(l->v[i].commit, parent) && l->v[i].runs &&
		    strcmp(l->v[i].verdict, "skip"))
			pr = l->v[i].runs;
		if (!strcmp(l->v[i].commit, first) && l->v[i].runs)
			fr = l->v[i].runs;
	}
	if (pr && fr) {
		char *specs[2] = { (char *)pr, (char *)fr };

		printf("%.12s (parent) against %.12s (first bad):\n\n", parent,
		       first);
		cli_compare_default(db, specs, 2, true);
		printf("\n");
	} else {
		printf("(the parent of %.12s was not measured: no table)\n\n",
		       first);
	}
	free(parent);
	free(up);
}

int bisect_show(struct kab_db *db, long long id)
{
	struct kab_bisect_row r;
	struct tested_list l = { 0 };
	struct bisect_opts o = { 0 };
	struct kab_trend_point *pts;
	struct kab_err err;
	const char *tree = NULL;
	json_t *args;
	size_t i, k;

	if (kab_db_bisect_get(db, id, &r, &err))
		return cli_error(EXIT_USAGE, "%s", err.msg);
	args = json_loads(r.argv, 0, NULL);
	if (json_is_array(args)) {
		char **v = xcalloc(json_array_size(args) + 2, sizeof(*v));
		json_t *a;

		v[0] = "bisect";
		json_array_foreach(args, i, a)
			v[i + 1] = (char *)json_string_value(a);
		if (!bisect_parse((int)json_array_size(args) + 1, v, false,
				  &o) && kab_tree_is_git(o.tree))
			tree = o.tree;
		free(v);
	}
	printf("bisect %lld: %s, %s %.12s, %s %.12s: %s\n", id, r.metric,
	       o.term_old ? o.term_old : "good", r.good,
	       o.term_new ? o.term_new : "bad", r.bad, r.status);
	if (r.message)
		printf("  %s\n", r.message);
	if (r.good_runs)
		add_endpoint(db, &l, tree, r.good, r.good_runs, r.metric,
			     "good");
	kab_db_bisect_steps(db, id, add_step, &l, &err);
	if (r.bad_runs)
		add_endpoint(db, &l, tree, r.bad, r.bad_runs, r.metric, "bad");
	if (tree && l.nr) {
		place(&l, tree, l.v[0].commit, r.bad);
		/* the bad endpoint is last in the history */
		if (l.v[l.nr - 1].pos < 0)
			l.v[l.nr - 1].pos = 1L << 30;
		qsort(l.v, l.nr, sizeof(*l.v), by_pos);
	}
	if (r.first_bad) {
		for (i = 0; i < l.nr && strcmp(l.v[i].commit, r.first_bad); i++)
			;
		printf("\n%s is the first %s commit\n", r.first_bad,
		       o.term_new ? o.term_new : "bad");
		if (i < l.nr && l.v[i].subject)
			printf("    %s\n", l.v[i].subject);
		printf("\n");
		print_table(db, &l, tree, r.first_bad);
	}
	printf("tested commits%s:\n", tree ? ", in history order" : "");
	printf("  %-12s  %-5s %12s  %-5s %s\n", "commit", "", "median", "n",
	       "subject");
	for (i = 0; i < l.nr; i++) {
		char med[32] = "-";

		if (!isnan(l.v[i].median))
			snprintf(med, sizeof(med), "%.6g", l.v[i].median);
		printf("  %.12s  %-5s %12s  %-5d %s\n", l.v[i].commit,
		       l.v[i].verdict, med, l.v[i].n,
		       l.v[i].subject ? l.v[i].subject : "");
	}
	pts = xcalloc(l.nr ? l.nr : 1, sizeof(*pts));
	for (i = k = 0; i < l.nr; i++) {
		size_t nr, n;
		int64_t *ids = runs_split(l.v[i].runs, &nr);

		if (!ids)
			continue;
		pts[k].name = l.v[i].commit;
		pts[k].kind = !strcmp(l.v[i].verdict, "good") ? 1 :
			      !strcmp(l.v[i].verdict, "bad") ? -1 : 0;
		pts[k].v = bisect_samples(db, r.metric, ids, nr, &n);
		pts[k].n = n;
		free(ids);
		k++;
	}
	if (k) {
		char **names = xcalloc(k, sizeof(*names));

		for (i = 0; i < k; i++) {
			names[i] = xasprintf("%.7s", pts[i].name);
			pts[i].name = names[i];
		}
		printf("\n");
		kab_trend_plot(stdout, r.metric, pts, k, 72, 16);
		for (i = 0; i < k; i++) {
			free(names[i]);
			free((double *)pts[i].v);
		}
		free(names);
	}
	free(pts);
	for (i = 0; i < l.nr; i++) {
		free(l.v[i].commit);
		free(l.v[i].subject);
		free(l.v[i].runs);
	}
	free(l.v);
	json_decref(args);
	bisect_opts_free(&o);
	kab_bisect_row_free(&r);
	return EXIT_OK;
}
