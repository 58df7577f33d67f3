// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-import.c - kab import: files of runs exported as JSON, back into
 * a database, run by run (kab_db_import_run checks each).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

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
	json_array_foreach(runs, i, j) {
		bool skip;

		if (kab_db_import_run(db, j, (int)i, &skip, &err)) {
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
	if (rc) {
		/* each run is stored whole or not at all: say which stayed */
		if (added)
			fprintf(stderr, "kab: note: %d run%s imported into %s "
				"before that error stay\n", added,
				added == 1 ? "" : "s", kab_db_path(db));
		kab_db_close(db);
		return rc;
	}
	printf("imported %d run%s into %s", added, added == 1 ? "" : "s",
	       kab_db_path(db));
	if (skipped)
		printf(" (%d already there, skipped)", skipped);
	printf("\n");
	kab_db_close(db);
	return rc;
}
