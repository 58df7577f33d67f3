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

static void print_table(struct kab_db *db, const struct bisect_history *l,
			const char *tree, const char *first)
{
	char *up = xasprintf("%s^", first);
	char *parent = tree ? kab_cmd_line(tree, NULL, "git", "rev-parse",
					   "--verify", "-q", up, NULL) : NULL;
	char *pr = NULL, *fr = NULL;

	/* every boot of the two: the bisect's and its check's */
	if (parent)
		pr = l->r.parent_runs ? xstrdup(l->r.parent_runs) :
		     bisect_commit_runs(l, parent);
	fr = l->r.culprit_runs ? xstrdup(l->r.culprit_runs) :
	     bisect_commit_runs(l, first);
	if (pr && fr) {
		char *specs[2] = { pr, fr };

		printf("%.12s (parent) against %.12s (first bad):\n\n", parent,
		       first);
		cli_compare_default(db, specs, 2, true);
		printf("\n");
	} else {
		printf("(the parent of %.12s was not measured: no table)\n\n",
		       first);
	}
	free(pr);
	free(fr);
	free(parent);
	free(up);
}

/* The options bisect ID was started with, parsed as kab bisect does. */
static int stored_opts(struct kab_db *db, long long id, struct bisect_opts *o,
		       json_t **args)
{
	struct kab_bisect_row r;
	struct kab_err err;
	int rc = EXIT_USAGE;

	memset(o, 0, sizeof(*o));
	*args = NULL;
	if (kab_db_bisect_get(db, id, &r, &err))
		return EXIT_USAGE;
	*args = json_loads(r.argv, 0, NULL);
	{
		int n;
		char **v = cli_stored_argv(*args, "bisect", "bisect", id, &n);

		if (v)
			rc = bisect_parse(n, v, CMD_BISECT, o);
		free(v);
	}
	kab_bisect_row_free(&r);
	return rc;
}

char *bisect_stored_tree(struct kab_db *db, int64_t id)
{
	struct bisect_opts o;
	json_t *args;
	char *tree = NULL;

	if (!stored_opts(db, id, &o, &args) && kab_tree_is_git(o.tree))
		tree = xstrdup(o.tree);
	bisect_opts_free(&o);
	json_decref(args);
	return tree;
}

int bisect_show(struct kab_db *db, long long id)
{
	struct kab_trend_point *pts;
	struct bisect_history h;
	const struct bisect_history *l = &h;
	struct bisect_opts o;
	struct kab_err err;
	json_t *args;
	char *tree = NULL;
	size_t i, k;

	if (!stored_opts(db, id, &o, &args) && kab_tree_is_git(o.tree))
		tree = xstrdup(o.tree);
	if (bisect_history_load(db, id, tree, &h, &err)) {
		bisect_opts_free(&o);
		json_decref(args);
		free(tree);
		return cli_error(EXIT_USAGE, "%s", err.msg);
	}
	printf("bisect %lld: %s, %s %.12s, %s %.12s: %s\n", id,
	       cli_vis(h.r.metric), cli_vis(o.term_old ? o.term_old : "good"),
	       cli_vis(h.r.good), cli_vis(o.term_new ? o.term_new : "bad"),
	       cli_vis(h.r.bad), cli_vis(h.r.status));
	if (h.r.message) {
		fputs("  ", stdout);
		fput_visible(stdout, h.r.message);
		fputc('\n', stdout);
	}
	if (h.r.first_bad) {
		for (i = 0; i < l->nr && strcmp(l->v[i].commit,
						 h.r.first_bad); i++)
			;
		printf("\n%s is the first %s commit\n", cli_vis(h.r.first_bad),
		       cli_vis(o.term_new ? o.term_new : "bad"));
		if (i < l->nr && l->v[i].subject)
			printf("    %s\n", cli_vis(l->v[i].subject));
		if (h.r.verified)
			printf("%s\n", cli_vis(h.r.verified));
		printf("\n");
		print_table(db, l, tree, h.r.first_bad);
	}
	printf("tested commits%s:\n", tree ? ", in history order" : "");
	printf("  %-12s  %-5s %12s  %-5s %s\n", "commit", "", "median", "n",
	       "subject");
	for (i = 0; i < l->nr; i++) {
		char med[32] = "-";

		if (!isnan(l->v[i].median))
			snprintf(med, sizeof(med), "%.6g", l->v[i].median);
		printf("  %.12s  %-5s %12s  %-5d %s\n",
		       cli_vis(l->v[i].commit), cli_vis(l->v[i].verdict), med,
		       l->v[i].n, l->v[i].subject ?
		       cli_vis(l->v[i].subject) : "");
	}
	pts = bisect_trend_points(db, &h, &k);
	if (k) {
		printf("\n");
		kab_trend_plot(stdout, h.r.metric, pts, k, 72, 16);
	}
	bisect_trend_free(pts, k);
	bisect_history_free(&h);
	bisect_opts_free(&o);
	json_decref(args);
	free(tree);
	return EXIT_OK;
}
