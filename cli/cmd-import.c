// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-import.c - kab import: runs exported as JSON, back into a
 * database.  A run already there (same uuid) is skipped; each run goes
 * in whole, in one transaction, or not at all.  The file is checked as
 * carefully as a guest's stream: it may come from anywhere.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "../runner/runner.h"

static const char *opt_str(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* A block names a machine in notes: one line of printable ASCII. */
static bool block_ok(const char *s)
{
	size_t n = strlen(s), i;

	if (!n || n > 255)
		return false;
	for (i = 0; i < n; i++)
		if (s[i] < ' ' || s[i] > '~')
			return false;
	return true;
}

static int import_run(struct kab_db *db, json_t *j, int idx, bool *skipped,
		      struct kab_err *err)
{
	struct kab_run r = { 0 };
	json_t *kernel, *iters, *it;
	const char *uuid, *status;
	size_t i;
	json_int_t garbage = 0, bad = 0;

	*skipped = false;
	if (json_unpack(j, "{s:s, s:o, s:s, s:s, s:s, s:o, s:o, s:s, s:o, "
			"s:i, s:s, s:s, s:o, s?I, s?I}",
			"uuid", &uuid, "kernel", &kernel, "job", &r.job,
			"suite", &r.suite, "test", &r.test,
			"params", &r.params, "resolved", &r.resolved,
			"target", &r.target, "host", &r.host,
			"iterations_planned", &r.iterations_planned,
			"started_at", &r.started_at, "status", &status,
			"iterations", &iters,
			"garbage_bytes", &garbage, "bad_records", &bad) ||
	    !json_is_object(kernel) || !json_is_array(iters) ||
	    !json_is_object(r.params) || !json_is_object(r.host) ||
	    !opt_str(kernel, "label") || strlen(uuid) >= sizeof(r.uuid))
		return kab_err_set(err, "run #%d is not a kab run (missing "
				   "uuid, kernel, job, params, host or "
				   "iterations): import only files written by "
				   "'kab export --format json'", idx + 1);
	if (strcmp(status, "ok") && strcmp(status, "failed") &&
	    strcmp(status, "interrupted") && strcmp(status, "running"))
		return kab_err_set(err, "run #%d has status '%s'", idx + 1,
				   status);
	if (kab_db_run_exists(db, uuid)) {
		*skipped = true;
		return 0;
	}
	r.block = (char *)opt_str(j, "block");
	if (r.block && !block_ok(r.block))
		return kab_err_set(err, "run #%d has a block that is not a "
				   "name (printable ASCII, 1 to 255 bytes): "
				   "fix or drop its \"block\"", idx + 1);
	snprintf(r.uuid, sizeof(r.uuid), "%s", uuid);
	r.kernel.label = (char *)opt_str(kernel, "label");
	r.kernel.release = (char *)opt_str(kernel, "release");
	r.kernel.cmdline = (char *)opt_str(kernel, "cmdline");
	r.kernel.image_path = (char *)opt_str(kernel, "image_path");
	r.kernel.image_sha256 = (char *)opt_str(kernel, "image_sha256");
	r.kernel.commit = (char *)opt_str(kernel, "commit");
	r.ended_at = (char *)opt_str(j, "ended_at");
	r.message = (char *)opt_str(j, "message");
	/* A run exported while it went is over now. */
	r.status = (char *)(strcmp(status, "running") ? status : "interrupted");
	r.garbage_bytes = garbage;
	r.bad_records = bad;

	if (kab_db_begin(db, err))
		return -1;
	if (kab_db_run_insert(db, &r, err))
		goto fail;
	json_array_foreach(iters, i, it) {
		json_t *metrics, *v;
		const char *name;
		int iteration;

		if (json_unpack(it, "{s:i, s:o}", "iteration", &iteration,
				"metrics", &metrics) ||
		    !json_is_object(metrics) || iteration < 1) {
			kab_err_set(err, "run #%d: iteration entry %zu is "
				    "malformed", idx + 1, i + 1);
			goto fail;
		}
		json_object_foreach(metrics, name, v) {
			if (!json_is_number(v) ||
			    !isfinite(json_number_value(v)) ||
			    !kab_metric_name_valid(name)) {
				kab_err_set(err, "run #%d: iteration %d: bad "
					    "sample '%.60s'", idx + 1,
					    iteration, name);
				goto fail;
			}
			if (kab_db_sample_add(db, r.id, iteration, name,
					      json_number_value(v), err))
				goto fail;
		}
	}
	return kab_db_commit(db, err);
fail:
	kab_db_rollback(db);
	return -1;
}

static int import_file(struct kab_db *db, const char *path, int *added,
		       int *skipped)
{
	json_error_t jerr;
	struct kab_err err;
	json_t *doc, *runs, *j;
	size_t i;
	int rc = EXIT_OK;

	doc = strcmp(path, "-") ? json_load_file(path, JSON_REJECT_DUPLICATES,
						 &jerr) :
				  json_loadf(stdin, JSON_REJECT_DUPLICATES,
					     &jerr);
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
	json_array_foreach(runs, i, j) {
		bool skip;

		if (import_run(db, j, (int)i, &skip, &err)) {
			rc = cli_error(EXIT_RUN, "%s: %s", path, err.msg);
			break;
		}
		if (skip)
			(*skipped)++;
		else
			(*added)++;
	}
	json_decref(doc);
	return rc;
}

int cmd_import(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db_opt = NULL;
	struct kab_db *db;
	int opt, i, added = 0, skipped = 0, rc = EXIT_OK;

	optind = 1;
	while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (opt) {
		case 'd':
			db_opt = optarg;
			break;
		case 'h':
			printf("usage: kab import [--db PATH] FILE.json...\n\n"
			       "Adds the runs of files written by 'kab export "
			       "--format json' ('-' reads\nstdin).  Runs "
			       "already stored (same uuid) are skipped.\n");
			return EXIT_OK;
		default:
			return cli_bad_option("import", opt, argv);
		}
	}
	if (optind >= argc)
		return cli_error(EXIT_USAGE, "no file to import: 'kab import "
				 "runs.json'");
	if (cli_open_db(cli, db_opt, KAB_DB_WRITE, &db))
		return EXIT_RUN;
	for (i = optind; i < argc && !rc; i++)
		rc = import_file(db, argv[i], &added, &skipped);
	printf("imported %d run%s into %s", added, added == 1 ? "" : "s",
	       kab_db_path(db));
	if (skipped)
		printf(" (%d already there, skipped)", skipped);
	printf("\n");
	kab_db_close(db);
	return rc;
}
