// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-import.c - kab import: files of runs exported as JSON, back into
 * a database, run by run (kab_db_import_run checks each), and samples
 * from anywhere as CSV.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "../runner/runner.h"

/* Runs in kab export's shape, each stored whole; where names them. */
static int store_runs(struct kab_db *db, json_t *runs, const char *where,
		      int *added, int *skipped)
{
	struct kab_err err;
	json_t *run;
	size_t i;

	json_array_foreach(runs, i, run) {
		bool skip;

		if (kab_db_import_run(db, run, (int)i, &skip, &err))
			return cli_error(EXIT_RUN, "%s: %s", where, err.msg);
		if (skip)
			(*skipped)++;
		else
			(*added)++;
	}
	return EXIT_OK;
}

static int import_file(struct kab_db *db, const char *path, int *added,
		       int *skipped)
{
	json_error_t jerr;
	json_t *doc, *runs;
	int rc;

	doc = strcmp(path, "-") ? json_load_file(path, JSON_REJECT_DUPLICATES,
						 &jerr) :
				  json_loadf(stdin, JSON_REJECT_DUPLICATES,
					     &jerr);
	if (!doc && jerr.line < 1)	/* not read at all */
		return cli_error(EXIT_USAGE, "%s: import files written by "
				 "'kab export --format json'", jerr.text);
	if (!doc)
		return cli_error(EXIT_USAGE, "%s:%d: not JSON (%s): import "
				 "files written by 'kab export --format json'",
				 path, jerr.line, jerr.text);
	runs = json_object_get(doc, "runs");
	if (!json_is_integer(json_object_get(doc, "kab_export")) ||
	    !json_is_array(runs)) {
		json_decref(doc);
		return cli_error(EXIT_USAGE, "%s: not a kab export (no "
				 "\"kab_export\" and \"runs\"): write one with "
				 "'kab export --format json'", path);
	}
	if (json_integer_value(json_object_get(doc, "kab_export")) > 1) {
		json_decref(doc);
		return cli_error(EXIT_USAGE, "%s: written by a newer kab "
				 "(export format %lld): upgrade kab", path,
				 (long long)json_integer_value(
					 json_object_get(doc, "kab_export")));
	}
	rc = store_runs(db, runs, path, added, skipped);
	json_decref(doc);
	return rc;
}

/* A CSV file of samples (or stdin), as runs of job (or of none). */
static int import_csv(struct kab_db *db, const char *path,
		      const struct kab_joblist *jobs, int *added,
		      int *skipped)
{
	struct kab_csv_job cj = { 0 };
	struct strbuf sb = STRBUF_INIT;
	struct kab_err err;
	int rc = EXIT_OK;

	if (read_file(strcmp(path, "-") ? path : "/dev/stdin", &sb, &err)) {
		strbuf_release(&sb);
		return cli_error(EXIT_USAGE, "%s: import a CSV file written "
				 "by 'kab export --format csv'", err.msg);
	}
	if (jobs->nr) {
		json_t *all = kab_job_to_json(&jobs->jobs[0]);

		cj.name = jobs->jobs[0].name;
		cj.suite = jobs->jobs[0].suite;
		cj.test = jobs->jobs[0].test;
		cj.params = json_incref(json_object_get(all, "params"));
		json_decref(all);
	}
	rc = kab_db_import_csv(db, sb.buf ? sb.buf : "", sb.len, path, &cj,
			       added, skipped, &err);
	if (rc)
		rc = cli_error(rc > 0 ? EXIT_USAGE : EXIT_RUN, "%s", err.msg);
	json_decref(cj.params);
	strbuf_release(&sb);
	return rc;
}

/* The directory a run's root is in: lkp's result root of its commit. */
static char *commit_dir(const char *root)
{
	char *real = realpath(root, NULL), *slash;

	if (!real)
		real = xstrdup(root);
	slash = strrchr(real, '/');
	if (slash && slash != real)
		*slash = '\0';
	return real;
}

/* Each commit's runs united as lkp unites them, and what that did said. */
static void unite_commits(json_t *runs, char **dirs)
{
	struct kab_lkp_unite u = { 0 };
	size_t n = json_array_size(runs), i, k, nr, nz, nf;
	json_t **group = xcalloc(n ? n : 1, sizeof(*group));
	bool *done = xcalloc(n ? n : 1, sizeof(*done));
	struct strbuf sb = STRBUF_INIT;

	for (i = 0; i < n; i++) {
		if (done[i])
			continue;
		for (nr = 0, k = i; k < n; k++)
			if (!done[k] && !strcmp(dirs[i], dirs[k])) {
				done[k] = true;
				group[nr++] = json_array_get(runs, k);
			}
		kab_lkp_unite(group, nr, &u);
	}
	nz = json_object_size(u.zero);
	nf = json_object_size(u.function_stats);
	if (nz)
		strbuf_addf(&sb, "; %zu stat%s 0 in every run left out", nz,
			    nz == 1 ? "" : "s");
	if (u.per_cpu)
		strbuf_addf(&sb, "; %zu per-CPU sched_debug value%s left out",
			    u.per_cpu, u.per_cpu == 1 ? "" : "s");
	if (nf)
		strbuf_addf(&sb, "; %zu pass/fail stat%s (dmesg.*, "
			    "last_state.* ...) not stored: kab stores "
			    "performance numbers", nf, nf == 1 ? "" : "s");
	if (u.incomplete)
		strbuf_addf(&sb, "; %zu run%s lkp marked incomplete stored as "
			    "failed, left out of comparisons", u.incomplete,
			    u.incomplete == 1 ? "" : "s");
	if (sb.len)
		cli_note("as lkp unites a commit's runs:%s", sb.buf + 1);
	strbuf_release(&sb);
	json_decref(u.zero);
	json_decref(u.function_stats);
	free(group);
	free(done);
}

/*
 * lkp's result roots: every run under each directory read and checked
 * before any is stored, each commit's runs united as lkp's matrix
 * unites them, then each stored whole.
 */
static int import_lkp(struct kab_db *db, char *const *dirs, int nr_dirs,
		      int *added, int *skipped)
{
	json_t *runs = json_array(), *run;
	char **commit = NULL;
	struct kab_err err;
	int i, k, nr, rc = EXIT_OK;
	size_t n = 0, j;

	for (i = 0; i < nr_dirs && !rc; i++) {
		char **roots;

		if (kab_lkp_result_roots(dirs[i], &roots, &nr, &err)) {
			rc = cli_error(EXIT_USAGE, "%s", err.msg);
			break;
		}
		for (k = 0; k < nr; k++) {
			run = rc ? NULL : kab_lkp_result_run(roots[k], &err);
			if (!rc && !run)
				rc = cli_error(EXIT_USAGE, "%s", err.msg);
			if (run) {
				json_array_append_new(runs, run);
				commit = xrealloc(commit, (n + 1) *
						  sizeof(*commit));
				commit[n++] = commit_dir(roots[k]);
			}
			free(roots[k]);
		}
		free(roots);
	}
	if (!rc) {
		unite_commits(runs, commit);
		rc = store_runs(db, runs, "kab import --lkp", added, skipped);
	}
	for (j = 0; j < n; j++)
		free(commit[j]);
	free(commit);
	json_decref(runs);
	return rc;
}

static void import_usage(void)
{
	printf("usage: kab import [--db PATH] FILE.json...\n"
	       "       kab import --lkp [--db PATH] RESULT_ROOT...\n"
	       "       kab import --format csv [--job JOB.yaml [--set K=V]... "
	       "[--only K=V]...]\n"
	       "                  [--db PATH] FILE.csv...\n\n"
	       "Adds the runs of files written by 'kab export --format json' "
	       "('-' reads\nstdin).  Runs already stored (same uuid) are "
	       "skipped.\n\n"
	       "--format csv reads samples from anywhere in the columns kab "
	       "export --format csv\nwrites (run,kernel_label,iteration,"
	       "metric,value): each run number a run, each\nwhole file checked "
	       "before any of it is stored, the same file never added\ntwice.  "
	       "--job names the job the samples are of (one job: --set and "
	       "--only\npick it); without it a run is of job, suite and test "
	       "\"csv\".\n\n"
	       "--lkp reads lkp's result roots: a run's directory "
	       "(.../<commit>/<n>, with its\njob.yaml and stats.json) or "
	       "any directory whose directories are runs'.\nEach lkp run "
	       "becomes a run of one iteration, its kernel labelled by the "
	       "first\n12 digits of the job's commit.  A commit's runs are "
	       "united as lkp unites\nthem: stats 0 in every run, per-CPU "
	       "sched_debug stats and lkp's pass/fail\nstats (dmesg.*, "
	       "last_state.* ...) are not stored, a run lkp marked\n"
	       "incomplete is stored failed, and a stat some runs lack "
	       "counts as 0 in them.\n\n"
	       "  --format json|csv   what the files are (json)\n"
	       "  --lkp               the arguments are lkp result roots\n"
	       "  --job JOB           csv: the job the samples are of (a "
	       "file or a name)\n"
	       "  --set K=V, --only K=V   csv: pick the job's parameter "
	       "set\n"
	       "  --db PATH           database\n");
}

int cmd_import(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "format", required_argument, NULL, 'f' },
		{ "job", required_argument, NULL, 'j' },
		{ "set", required_argument, NULL, 's' },
		{ "only", required_argument, NULL, 'o' },
		{ "lkp", no_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db_opt = NULL, *format = "json", *job = NULL;
	struct kab_joblist jobs = { 0 };
	char **sets = NULL, **only = NULL;
	int nr_sets = 0, nr_only = 0;
	struct kab_db *db;
	int opt, i, added = 0, skipped = 0, rc = EXIT_OK;

	optind = 1;
	while ((opt = cli_getopt(argc, argv, ":h", opts)) != -1) {
		switch (opt) {
		case 'd':
			db_opt = optarg;
			break;
		case 'f':
			format = optarg;
			break;
		case 'j':
			job = optarg;
			break;
		case 'L':
			format = "lkp";
			break;
		case 's':
			cli_push_arg(&sets, &nr_sets, optarg);
			break;
		case 'o':
			cli_push_arg(&only, &nr_only, optarg);
			break;
		case 'h':
			import_usage();
			goto out_opts;
		default:
			rc = cli_bad_option("import", opt, argv, opts);
			goto out_opts;
		}
	}
	if (strcmp(format, "json") && strcmp(format, "csv") &&
	    strcmp(format, "lkp")) {
		rc = cli_error(EXIT_USAGE, "--format '%s': use json, csv or lkp",
			       format);
		goto out_opts;
	}
	if ((job || nr_sets || nr_only) && strcmp(format, "csv")) {
		rc = cli_error(EXIT_USAGE, "--job, --set and --only name the "
			       "job of CSV samples: add --format csv");
		goto out_opts;
	}
	if (job) {
		struct kab_jobsel sel = { sets, nr_sets, only, nr_only };

		rc = cli_load_jobs(job, &sel, &jobs);
		if (!rc && jobs.nr != 1)
			rc = cli_error(EXIT_USAGE, "%s expands to %d jobs: the "
				       "samples are of one; pick it with "
				       "--only KEY=VALUE", job, jobs.nr);
		if (rc)
			goto out_opts;
	}
	if (optind >= argc) {
		rc = cli_error(EXIT_USAGE, "no file to import: 'kab import "
			       "runs.json'");
		goto out_opts;
	}
	/* a file that is not there makes no database either */
	for (i = optind; i < argc; i++)
		if (strcmp(argv[i], "-") && access(argv[i], R_OK)) {
			rc = cli_error(EXIT_USAGE, "cannot read %s: %m: import "
				       "files written by 'kab export --format "
				       "json'%s", argv[i], strcmp(format, "lkp") ?
				       "" : " (--lkp: lkp result roots)");
			goto out_opts;
		}
	rc = cli_open_db(cli, db_opt, KAB_DB_WRITE, &db);
	if (rc) {
		goto out_opts;
	}
	if (!strcmp(format, "lkp"))
		rc = import_lkp(db, argv + optind, argc - optind, &added,
				&skipped);
	for (i = optind; i < argc && !rc && strcmp(format, "lkp"); i++)
		rc = strcmp(format, "csv") ?
		     import_file(db, argv[i], &added, &skipped) :
		     import_csv(db, argv[i], &jobs, &added, &skipped);
	if (rc) {
		/* each run is stored whole or not at all: say which stayed */
		if (added)
			cli_note("%d run%s imported into %s "
				"before that error stay", added,
				added == 1 ? "" : "s", kab_db_path(db));
		kab_db_close(db);
		goto out_opts;
	}
	printf("imported %d run%s into %s", added, added == 1 ? "" : "s",
	       kab_db_path(db));
	if (skipped)
		printf(" (%d already there, skipped)", skipped);
	printf("\n");
	kab_db_close(db);
out_opts:
	kab_joblist_free(&jobs);
	free(sets);
	free(only);
	return rc;
}
