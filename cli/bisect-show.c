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

struct loaded {
	struct kab_bisect_row r;
	struct tested_list l;
	struct bisect_opts o;
	const char *tree;
	json_t *args;
};

/* A bisect and its tested commits, in history order when the tree is git. */
static int load(struct kab_db *db, long long id, struct loaded *b)
{
	struct kab_err err;
	size_t i;

	memset(b, 0, sizeof(*b));
	if (kab_db_bisect_get(db, id, &b->r, &err))
		return cli_error(EXIT_USAGE, "%s", err.msg);
	b->args = json_loads(b->r.argv, 0, NULL);
	if (json_is_array(b->args)) {
		char **v = xcalloc(json_array_size(b->args) + 2, sizeof(*v));
		json_t *a;

		v[0] = "bisect";
		json_array_foreach(b->args, i, a)
			v[i + 1] = (char *)json_string_value(a);
		if (!bisect_parse((int)json_array_size(b->args) + 1, v, false,
				  &b->o) && kab_tree_is_git(b->o.tree))
			b->tree = b->o.tree;
		free(v);
	}
	if (b->r.good_runs)
		add_endpoint(db, &b->l, b->tree, b->r.good, b->r.good_runs,
			     b->r.metric, "good");
	kab_db_bisect_steps(db, id, add_step, &b->l, &err);
	if (b->r.bad_runs)
		add_endpoint(db, &b->l, b->tree, b->r.bad, b->r.bad_runs,
			     b->r.metric, "bad");
	if (b->tree && b->l.nr) {
		place(&b->l, b->tree, b->l.v[0].commit, b->r.bad);
		/* the bad endpoint is last in the history */
		if (b->l.v[b->l.nr - 1].pos < 0)
			b->l.v[b->l.nr - 1].pos = 1L << 30;
		qsort(b->l.v, b->l.nr, sizeof(*b->l.v), by_pos);
	}
	return 0;
}

static void unload(struct loaded *b)
{
	size_t i;

	for (i = 0; i < b->l.nr; i++) {
		free(b->l.v[i].commit);
		free(b->l.v[i].subject);
		free(b->l.v[i].runs);
	}
	free(b->l.v);
	json_decref(b->args);
	bisect_opts_free(&b->o);
	kab_bisect_row_free(&b->r);
}

/* Trend points of the tested commits, named by 7 digits. */
static struct kab_trend_point *points(struct kab_db *db,
				      const struct loaded *b, size_t *k)
{
	struct kab_trend_point *pts;
	size_t i;

	pts = xcalloc(b->l.nr ? b->l.nr : 1, sizeof(*pts));
	for (i = *k = 0; i < b->l.nr; i++) {
		size_t nr, n;
		int64_t *ids = runs_split(b->l.v[i].runs, &nr);

		if (!ids)
			continue;
		pts[*k].name = xasprintf("%.7s", b->l.v[i].commit);
		pts[*k].kind = !strcmp(b->l.v[i].verdict, "good") ? 1 :
			       !strcmp(b->l.v[i].verdict, "bad") ? -1 : 0;
		pts[*k].v = bisect_samples(db, b->r.metric, ids, nr, &n);
		pts[*k].n = n;
		free(ids);
		(*k)++;
	}
	return pts;
}

void bisect_trend_free(struct kab_trend_point *pts, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free((char *)pts[i].name);
		free((double *)pts[i].v);
	}
	free(pts);
}

int bisect_trend(struct kab_db *db, long long id, char **metric,
		 struct kab_trend_point **pts, size_t *nr)
{
	struct loaded b;
	int rc = load(db, id, &b);

	if (!rc) {
		*pts = points(db, &b, nr);
		*metric = xstrdup(b.r.metric);
	}
	unload(&b);
	return rc;
}

int bisect_show(struct kab_db *db, long long id)
{
	struct kab_trend_point *pts;
	struct loaded b;
	const struct tested_list *l = &b.l;
	size_t i, k;
	int rc = load(db, id, &b);

	if (rc) {
		unload(&b);
		return rc;
	}
	printf("bisect %lld: %s, %s %.12s, %s %.12s: %s\n", id, b.r.metric,
	       b.o.term_old ? b.o.term_old : "good", b.r.good,
	       b.o.term_new ? b.o.term_new : "bad", b.r.bad, b.r.status);
	if (b.r.message)
		printf("  %s\n", b.r.message);
	if (b.r.first_bad) {
		for (i = 0; i < l->nr && strcmp(l->v[i].commit,
						 b.r.first_bad); i++)
			;
		printf("\n%s is the first %s commit\n", b.r.first_bad,
		       b.o.term_new ? b.o.term_new : "bad");
		if (i < l->nr && l->v[i].subject)
			printf("    %s\n", l->v[i].subject);
		printf("\n");
		print_table(db, l, b.tree, b.r.first_bad);
	}
	printf("tested commits%s:\n", b.tree ? ", in history order" : "");
	printf("  %-12s  %-5s %12s  %-5s %s\n", "commit", "", "median", "n",
	       "subject");
	for (i = 0; i < l->nr; i++) {
		char med[32] = "-";

		if (!isnan(l->v[i].median))
			snprintf(med, sizeof(med), "%.6g", l->v[i].median);
		printf("  %.12s  %-5s %12s  %-5d %s\n", l->v[i].commit,
		       l->v[i].verdict, med, l->v[i].n,
		       l->v[i].subject ? l->v[i].subject : "");
	}
	pts = points(db, &b, &k);
	if (k) {
		printf("\n");
		kab_trend_plot(stdout, b.r.metric, pts, k, 72, 16);
	}
	bisect_trend_free(pts, k);
	unload(&b);
	return EXIT_OK;
}
