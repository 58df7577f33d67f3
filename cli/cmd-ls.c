// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-ls.c - kab ls: the stored runs, one line each.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int print_run(void *arg, const struct kab_run *r)
{
	const char *key;
	json_t *v;
	int *count = arg;
	char params[512] = "", *line;
	size_t off = 0;

	if (!(*count)++)
		printf("%5s  %-20s  %-24s  %-11s  %5s  %-20s  %s\n", "ID",
		       "STARTED", "KERNEL", "STATUS", "ITERS", "TEST",
		       "PARAMETERS");
	json_object_foreach(r->params, key, v) {
		int n;

		if (!strcmp(key, "testcase") || !strcmp(key, "test"))
			continue;
		n = snprintf(params + off, sizeof(params) - off, "%s%s=%s",
			     off ? " " : "", key, json_string_value(v));
		if (n < 0 || (size_t)n >= sizeof(params) - off)
			break;
		off += n;
	}
	/* labels and parameters may be a guest's or an import's */
	line = xasprintf("%5lld  %-20s  %-24s  %-11s  %2d/%-2d  %-20s  %s",
			 (long long)r->id, r->started_at, r->kernel.label,
			 r->status, r->nr_iterations, r->iterations_planned,
			 r->test, params);
	tty_text(stdout, line);
	putchar('\n');
	free(line);
	return 0;
}

int cmd_ls(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db_opt = NULL;
	struct kab_db *db;
	struct kab_err err;
	int opt, count = 0, rc = EXIT_OK;

	optind = 1;
	while ((opt = cli_getopt(argc, argv, ":h", opts)) != -1) {
		switch (opt) {
		case 'd':
			db_opt = optarg;
			break;
		case 'h':
			printf("usage: kab ls [--db PATH]\n\nLists the stored "
			       "runs: id, start, kernel, status, iterations "
			       "stored of planned,\ntest and parameters.\n\n"
			       "  --db PATH   database\n");
			return EXIT_OK;
		default:
			return cli_bad_option("ls", opt, argv, opts);
		}
	}
	if (optind < argc)
		return cli_error(EXIT_USAGE, "kab ls takes no arguments: "
				 "'kab show ID' shows one run");
	rc = cli_open_db(cli, db_opt, KAB_DB_READ, &db);
	if (rc)
		return rc;
	if (kab_db_runs_foreach(db, print_run, &count, &err))
		rc = cli_error(EXIT_RUN, "%s", err.msg);
	else if (!count)
		printf("no runs in %s\n", kab_db_path(db));
	kab_db_close(db);
	return rc;
}
