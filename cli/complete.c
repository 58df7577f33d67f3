// SPDX-License-Identifier: GPL-2.0
/*
 * complete.c - the values shell completion offers for options: metric
 * names (--kpi, --metric), job parameters (--set KEY=), monitors, a
 * command's formats.  Printed a line each by 'kab --completion-helper
 * metrics|params|monitors|formats CMD'; nothing, quietly, when there
 * is nothing to offer.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "../runner/runner.h"

/* The newest runs' metrics are what a user names: at most this many. */
#define RECENT_RUNS 20

/*
 * Words, sorted and made unique now and then: v[0..uniq) is sorted and
 * unique, v[uniq..nr) was added since.  n log n, not n squared: a run
 * can have 20,000 metrics, each sampled every iteration.
 */
struct words {
	char **v;
	int nr, uniq, alloc;
};

static void compact(struct words *w)
{
	int i, o = 0;

	qsort(w->v, w->nr, sizeof(*w->v), kab_strcmp_ptr);
	for (i = 0; i < w->nr; i++) {
		if (o && !strcmp(w->v[o - 1], w->v[i])) {
			free(w->v[i]);
			continue;
		}
		w->v[o++] = w->v[i];
	}
	w->nr = w->uniq = o;
}

static void add_once(struct words *w, const char *s)
{
	/* the last one added again (a run's next iteration) */
	if (w->nr && !strcmp(w->v[w->nr - 1], s))
		return;
	if (w->nr == w->alloc) {
		w->alloc = w->alloc ? 2 * w->alloc : 64;
		w->v = xrealloc(w->v, w->alloc * sizeof(*w->v));
	}
	w->v[w->nr++] = xstrdup(s);
	if (w->nr - w->uniq > w->uniq + 4096)
		compact(w);
}

static void print_words(struct words *w)
{
	int i;

	compact(w);
	for (i = 0; i < w->nr; i++) {
		printf("%s\n", w->v[i]);
		free(w->v[i]);
	}
	free(w->v);
}

static int run_id(void *arg, const struct kab_run *r)
{
	struct words *ids = arg;
	char id[32];

	snprintf(id, sizeof(id), "%lld", (long long)r->id);
	cli_push_arg(&ids->v, &ids->nr, xstrdup(id));
	return 0;
}

static int metric(void *arg, int iteration, const char *name, double value)
{
	(void)iteration;
	(void)value;
	/* a profile's call chains are thousands, and no one's KPI */
	if (strncmp(name, "perf-profile.", 13) && kab_name_ok(name, 200))
		add_once(arg, name);
	return 0;
}

static void metrics(struct cli *cli)
{
	struct words ids = { 0 }, names = { 0 };
	struct kab_db *db;
	struct kab_err err;
	char *path;
	int i, rc;

	path = cli->db_path ? xstrdup(cli->db_path) : kab_db_default_path();
	rc = kab_db_open(path, KAB_DB_READ, &db, &err);
	free(path);
	if (rc)
		return;
	if (!kab_db_runs_foreach(db, run_id, &ids, &err))
		for (i = ids.nr > RECENT_RUNS ? ids.nr - RECENT_RUNS : 0;
		     i < ids.nr; i++)
			kab_db_samples_foreach(db, atoll(ids.v[i]), metric,
					       &names, &err);
	for (i = 0; i < ids.nr; i++)
		free(ids.v[i]);
	free(ids.v);
	kab_db_close(db);
	print_words(&names);
}

/* Every parameter of every job kab finds by name, as KEY= */
static void params(void)
{
	struct words keys = { 0 };
	struct kab_jobsel none = { 0 };
	char **names;
	int n, i, j;

	n = kab_job_names(&names);
	for (i = 0; i < n; i++) {
		struct kab_joblist l;
		struct kab_err err;
		char *file;

		if (!kab_job_find(names[i], &file, &err)) {
			if (!kab_job_load_sel(file, &none, &l, &err)) {
				for (j = 0; l.nr && j < l.jobs[0].nr_params;
				     j++) {
					char *kv = xasprintf("%s=",
						l.jobs[0].params[j].key);

					add_once(&keys, kv);
					free(kv);
				}
				kab_joblist_free(&l);
			}
			free(file);
		}
		free(names[i]);
	}
	free(names);
	print_words(&keys);
}

static void monitors(void)
{
	char *all = kab_monitor_names(), *tok, *save;

	printf("all\nnone\n");
	for (tok = strtok_r(all, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		printf("%s\n", tok);
	free(all);
}

/* --format's values of each command that takes it */
static void formats(const char *cmd)
{
	static const char *const f[][2] = {
		{ "compare", "text lkp json csv markdown" },
		{ "report", "text markdown html json" },
		{ "ls", "text json" },
		{ "show", "text json" },
		{ "export", "csv json" },
		{ "import", "json csv lkp" },
		{ "ci", "text json" },
	};
	size_t i;
	char *copy, *tok, *save;

	for (i = 0; i < ARRAY_SIZE(f); i++) {
		if (!cmd || strcmp(cmd, f[i][0]))
			continue;
		copy = xstrdup(f[i][1]);
		for (tok = strtok_r(copy, " ", &save); tok;
		     tok = strtok_r(NULL, " ", &save))
			printf("%s\n", tok);
		free(copy);
	}
}

int cli_complete_values(struct cli *cli, const char *what, const char *cmd)
{
	if (!strcmp(what, "formats"))
		formats(cmd);
	else if (!strcmp(what, "metrics"))
		metrics(cli);
	else if (!strcmp(what, "params"))
		params();
	else if (!strcmp(what, "monitors"))
		monitors();
	else
		return -1;
	return EXIT_OK;
}
