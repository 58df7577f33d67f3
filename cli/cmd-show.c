// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-show.c - kab show: one run, its facts and its metrics.
 */
#include <ctype.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void show_usage(FILE *f)
{
	fprintf(f,
		"usage: kab show [--metric GLOB] [--format text|json] [--db PATH]\n"
		"                RUN|RUNS|LABEL...\n"
		"\n"
		"RUN (an id): prints the run's kernel, job and host, then n, "
		"mean,\npopulation stddev and %%stddev of every metric (or "
		"those matching GLOB,\ne.g. 'will-it-scale.*').\n"
		"RUNS (ids, '3,5,7') or LABEL (a kernel's ok runs): each run "
		"is a boot;\npools them per job and adds the spread within "
		"boots and between them\n(square roots of the ANOVA variance "
		"components, in %% of the mean),\nF and p, and the unit kab "
		"compare tests with: 'boot' when boots\ndominate (p < 0.01 and "
		"between > within), else 'sample'.\n"
		"\n"
		"  --metric GLOB   only the metrics matching GLOB\n"
		"  --format F      text (default) or json: {\"schema\": "
		"\"kab.show/1\", \"items\": [...]}\n"
		"  --db PATH       database\n");
}

/* "12" is a run; "3,5", "never" or "v6.1" name several. */
static bool single_run(const char *s)
{
	if (!*s)
		return true;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s) && *s != '-')
			return false;
	return true;
}

int cmd_show(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "metric", required_argument, NULL, 'm' },
		{ "format", required_argument, NULL, 'f' },
		{ "db", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db_opt = NULL, *glob = NULL;
	struct kab_db *db;
	struct kab_err err;
	json_t *items = NULL;
	bool json = false;
	int opt, i, rc = EXIT_OK;

	optind = 1;
	while ((opt = cli_getopt(argc, argv, ":h", opts)) != -1) {
		switch (opt) {
		case 'm':
			glob = optarg;
			break;
		case 'f':
			if (strcmp(optarg, "text") && strcmp(optarg, "json"))
				return cli_error(EXIT_USAGE, "show: --format "
						 "'%s': text or json", optarg);
			json = !strcmp(optarg, "json");
			break;
		case 'd':
			db_opt = optarg;
			break;
		case 'h':
			show_usage(stdout);
			return EXIT_OK;
		default:
			return cli_bad_option("show", opt, argv, opts);
		}
	}
	if (optind >= argc)
		return cli_error(EXIT_USAGE, "which run? 'kab ls' lists them; "
				 "then 'kab show ID'");
	rc = cli_open_db(cli, db_opt, KAB_DB_READ, &db);
	if (rc)
		return rc;
	if (json)
		items = json_array();
	for (i = optind; i < argc; i++) {
		struct kab_run r;
		int got;

		if (!single_run(argv[i])) {
			got = json ? cli_show_boots_json(items, db, argv[i], glob,
							 &err) :
			      cli_show_boots(stdout, db, argv[i], glob, &err);
			if (got) {
				rc = cli_error(got > 0 ? EXIT_USAGE : EXIT_RUN,
					       "%s", err.msg);
				break;
			}
			if (i + 1 < argc && !json)
				printf("\n");
			continue;
		}
		if (cli_run_id(argv[i]) < 0) {
			rc = EXIT_USAGE;
			break;
		}
		got = kab_db_run_get(db, cli_run_id(argv[i]), &r, &err);
		if (got > 0) {
			/* no such run: digits can be a kernel's label too */
			struct kab_err lerr;
			int lgot = json ? cli_show_boots_json(items, db, argv[i],
							      glob, &lerr) :
				   cli_show_boots(stdout, db, argv[i], glob,
						  &lerr);

			if (!lgot) {
				if (i + 1 < argc && !json)
					printf("\n");
				continue;
			}
		}
		if (got) {
			rc = cli_error(got > 0 ? EXIT_USAGE : EXIT_RUN, "%s",
				       err.msg);
			break;
		}
		if (json) {
			json_t *m = cli_summary_json(db, r.id, glob, &err);

			if (!m)
				rc = cli_error(EXIT_RUN, "%s", err.msg);
			else if (!json_array_size(m) && glob &&
				 cli_summary_no_match(db, r.id, glob, &err) > 0)
				rc = cli_error(EXIT_USAGE, "%s", err.msg);
			if (rc)
				json_decref(m);
			else
				json_array_append_new(items, json_pack(
					"{ss so so}", "kind", "run", "run",
					cli_run_json(&r), "metrics", m));
			kab_run_free(&r);
			if (rc)
				break;
			continue;
		}
		cli_print_run_header(stdout, &r);
		printf("\n");
		got = cli_print_summary(stdout, db, r.id, glob, &err);
		if (got)
			rc = cli_error(got > 0 ? EXIT_USAGE : EXIT_RUN, "%s",
				       err.msg);
		if (i + 1 < argc)
			printf("\n");
		kab_run_free(&r);
	}
	/* nothing on stdout before every item is known */
	if (json && !rc) {
		json_t *doc = json_pack("{ss sO}", "schema", "kab.show/1",
					"items", items);

		cli_json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
			   JSON_REAL_PRECISION(17));
		putchar('\n');
		json_decref(doc);
	}
	json_decref(items);
	kab_db_close(db);
	return rc;
}
