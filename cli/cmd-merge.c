// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-merge.c - kab merge OUT.db IN.db...: the databases of a CI
 * matrix's cells made one.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void merge_usage(FILE *f)
{
	fprintf(f,
		"usage: kab merge OUT.db IN.db...\n"
		"\n"
		"Copies into OUT.db (created when missing) every run of each IN "
		"database that\nOUT.db lacks, with its kernel, samples, boots "
		"and consoles, and the builds.\nRuns are known by their UUID: "
		"merging twice adds nothing.  A database of a\nnewer kab is "
		"refused; each IN is merged in one transaction.\n");
}

int cmd_merge(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct kab_merge_stats st;
	struct kab_db *db;
	struct kab_err err;
	int opt, i, rc = EXIT_OK;

	optind = 1;
	while ((opt = cli_getopt(argc, argv, ":h", opts)) != -1) {
		if (opt == 'h') {
			merge_usage(stdout);
			return EXIT_OK;
		}
		return cli_bad_option("merge", opt, argv, opts);
	}
	if (argc - optind < 2)
		return cli_error(EXIT_USAGE, "merge needs an output and at "
				 "least one input: 'kab merge OUT.db IN.db...'");
	for (i = optind + 1; i < argc; i++)
		if (!strcmp(argv[i], argv[optind]))
			return cli_error(EXIT_USAGE, "%s is both the output and "
					 "an input: name another output",
					 argv[i]);
	/*
	 * The output, as every writer opens its database: a directory
	 * that is not there is the user's (2), a file kab cannot make or
	 * write, a full disk included, is a failed write (1)
	 */
	rc = cli_open_db(cli, argv[optind], KAB_DB_WRITE, &db);
	if (rc)
		return rc;
	for (i = optind + 1; i < argc; i++) {
		if (kab_db_merge(db, argv[i], &st, &err)) {
			/* the output could not be written: 1; the input: 2 */
			rc = cli_error(st.io ? EXIT_RUN : EXIT_USAGE, "%s",
				       err.msg);
			break;
		}
		printf("%s: %d run%s merged (%d samples, %d boots, %d kernels, "
		       "%d builds), %d already there\n", argv[i], st.runs,
		       st.runs == 1 ? "" : "s",
		       st.samples, st.boots, st.kernels, st.builds,
		       st.runs_known);
	}
	kab_db_close(db);
	return rc;
}
