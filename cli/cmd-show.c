// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-show.c - kab show: one run, its facts and its metrics.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void show_usage(FILE *f)
{
	fprintf(f,
		"usage: kab show [--metric GLOB] [--db PATH] RUN...\n"
		"\n"
		"Prints a run's kernel, job and host, then n, mean, population "
		"stddev and\n%%stddev of every metric (or those matching GLOB, "
		"e.g. 'will-it-scale.*').\n");
}

int cmd_show(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "metric", required_argument, NULL, 'm' },
		{ "db", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db_opt = NULL, *glob = NULL;
	struct kab_db *db;
	struct kab_err err;
	int opt, i, rc = EXIT_OK;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'm':
			glob = optarg;
			break;
		case 'd':
			db_opt = optarg;
			break;
		case 'h':
			show_usage(stdout);
			return EXIT_OK;
		default:
			show_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc)
		return cli_error(EXIT_USAGE, "which run? 'kab ls' lists them; "
				 "then 'kab show ID'");
	for (i = optind; i < argc; i++)
		if (cli_run_id(argv[i]) < 0)
			return EXIT_USAGE;
	if (cli_open_db(cli, db_opt, KAB_DB_READ, &db))
		return EXIT_RUN;
	for (i = optind; i < argc; i++) {
		struct kab_run r;

		if (kab_db_run_get(db, cli_run_id(argv[i]), &r, &err)) {
			rc = cli_error(EXIT_RUN, "%s", err.msg);
			break;
		}
		cli_print_run_header(stdout, &r);
		printf("\n");
		if (cli_print_summary(stdout, db, r.id, glob, &err))
			rc = cli_error(EXIT_RUN, "%s", err.msg);
		if (i + 1 < argc)
			printf("\n");
		kab_run_free(&r);
	}
	kab_db_close(db);
	return rc;
}
