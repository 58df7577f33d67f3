// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-rm.c - kab rm and kab relabel: runs removed, or moved to another
 * kernel label, each in one transaction.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void rm_usage(FILE *f)
{
	fprintf(f,
		"usage: kab rm [--dry-run] [--db PATH] RUN...\n"
		"       kab rm [--dry-run] [--db PATH] --label LABEL...\n"
		"\n"
		"Removes runs (ids, or lists of ids: 3,4,5), or every run of "
		"a kernel label,\nwith their samples, call stacks, boots and "
		"consoles, in one transaction:\nall of them or, on an error "
		"(a run that is not there or still running),\nnone.\n"
		"\n"
		"  --label LABEL   every run of this kernel label (any "
		"status); repeatable\n"
		"  --dry-run, -n   say what would go, remove nothing\n"
		"  --db PATH       database\n");
}

static void relabel_usage(FILE *f)
{
	fprintf(f,
		"usage: kab relabel [--db PATH] OLD NEW\n"
		"       kab relabel [--db PATH] --run RUNS NEW\n"
		"\n"
		"Gives every run of kernel label OLD (or the runs RUNS: 3,4,5) "
		"the label NEW,\nboots included, in one transaction.  NEW may "
		"already be a label: the runs\njoin it.\n"
		"\n"
		"  --run RUNS      these runs only (ids, 3,4,5; repeatable)\n"
		"  --db PATH       database\n");
}

/* "3,4,5" appended to *ids; -1 with the error printed. */
static int add_ids(const char *arg, int64_t **ids, size_t *n)
{
	char *copy = xstrdup(arg), *tok, *save;
	int rc = 0;

	for (tok = strtok_r(copy, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		long long id = cli_run_id(tok);

		if (id < 0) {
			rc = -1;
			break;
		}
		*ids = xrealloc(*ids, (*n + 1) * sizeof(**ids));
		(*ids)[(*n)++] = id;
	}
	if (!*arg || arg[strlen(arg) - 1] == ',')
		rc = cli_error(-1, "'%s' is not a list of run ids: 'kab ls' "
			       "lists them", arg);
	free(copy);
	return rc;
}

static int label_ids(struct kab_db *db, const char *label, int64_t **ids,
		     size_t *n)
{
	int64_t *v;
	size_t k, i;
	struct kab_err err;

	if (kab_db_label_runs(db, label, &v, &k, &err))
		return cli_error(EXIT_RUN, "%s", err.msg);
	if (!k)
		return cli_error(EXIT_USAGE, "no run has kernel label '%s': "
				 "'kab ls' lists them", label);
	for (i = 0; i < k; i++) {
		*ids = xrealloc(*ids, (*n + 1) * sizeof(**ids));
		(*ids)[(*n)++] = v[i];
	}
	free(v);
	return 0;
}

/* A database that is not there is missing data (2), never created. */
static int open_existing(struct cli *cli, const char *db_opt, bool ro,
			 struct kab_db **db)
{
	int rc = cli_open_db(cli, db_opt, KAB_DB_READ, db);

	if (rc || ro)
		return rc;
	kab_db_close(*db);
	*db = NULL;
	return cli_open_db(cli, db_opt, KAB_DB_WRITE, db);
}

static void print_ids(FILE *out, const int64_t *ids, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(out, "%s%lld", i ? "," : "", (long long)ids[i]);
}

int cmd_rm(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "label", required_argument, NULL, 'l' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "db", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db_opt = NULL;
	char **labels = NULL;
	int nr_labels = 0, opt, i, rc = EXIT_OK;
	bool dry = false;
	int64_t *ids = NULL;
	size_t n = 0;
	struct kab_db *db = NULL;
	struct kab_err err;

	optind = 1;
	while ((opt = cli_getopt(argc, argv, ":hn", opts)) != -1) {
		switch (opt) {
		case 'l':
			cli_push_arg(&labels, &nr_labels, optarg);
			break;
		case 'n':
			dry = true;
			break;
		case 'd':
			db_opt = optarg;
			break;
		case 'h':
			rm_usage(stdout);
			goto out;
		default:
			rc = cli_bad_option("rm", opt, argv, opts);
			goto out;
		}
	}
	if (optind == argc && !nr_labels) {
		rc = cli_error(EXIT_USAGE, "rm: which runs? name run ids or "
			       "--label LABEL: see 'kab rm --help'");
		goto out;
	}
	for (i = optind; i < argc; i++)
		if (add_ids(argv[i], &ids, &n)) {
			rc = EXIT_USAGE;
			goto out;
		}
	rc = open_existing(cli, db_opt, dry, &db);
	if (rc)
		goto out;
	for (i = 0; i < nr_labels; i++)
		if ((rc = label_ids(db, labels[i], &ids, &n)))
			goto out;
	if (dry) {
		printf("would remove %zu run%s (", n, n == 1 ? "" : "s");
		print_ids(stdout, ids, n);
		printf(") from %s\n", kab_db_path(db));
	} else if (kab_db_runs_delete(db, ids, n, &err)) {
		rc = cli_error(strstr(err.msg, "is not there") ? EXIT_USAGE :
			       EXIT_RUN, "rm: %s; nothing was removed",
			       err.msg);
	} else {
		printf("removed %zu run%s (", n, n == 1 ? "" : "s");
		print_ids(stdout, ids, n);
		printf(") with their samples, boots and consoles from %s\n",
		       kab_db_path(db));
	}
out:
	if (db)
		kab_db_close(db);
	free(labels);
	free(ids);
	return rc;
}

/* A label kab can take back from the command line as a side. */
static bool label_ok(const char *s)
{
	return kab_text_ok(s, 200) && *s && !strchr(s, ',') &&
	       strspn(s, "0123456789") != strlen(s) && *s != '-';
}

int cmd_relabel(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "run", required_argument, NULL, 'r' },
		{ "db", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db_opt = NULL, *label;
	int opt, rc = EXIT_OK, want;
	int64_t *ids = NULL;
	size_t n = 0;
	struct kab_db *db = NULL;
	struct kab_err err;

	optind = 1;
	while ((opt = cli_getopt(argc, argv, ":h", opts)) != -1) {
		switch (opt) {
		case 'r':
			if (add_ids(optarg, &ids, &n)) {
				rc = EXIT_USAGE;
				goto out;
			}
			break;
		case 'd':
			db_opt = optarg;
			break;
		case 'h':
			relabel_usage(stdout);
			goto out;
		default:
			rc = cli_bad_option("relabel", opt, argv, opts);
			goto out;
		}
	}
	want = n ? 1 : 2;
	if (argc - optind != want) {
		rc = cli_error(EXIT_USAGE, "relabel: give %s: see 'kab relabel "
			       "--help'", n ? "the new label after --run RUNS" :
			       "the old label and the new one");
		goto out;
	}
	label = argv[argc - 1];
	if (!label_ok(label)) {
		rc = cli_error(EXIT_USAGE, "relabel: '%s' cannot be a label: "
			       "printable text without ',', not a number and "
			       "not starting with '-'", label);
		goto out;
	}
	rc = open_existing(cli, db_opt, false, &db);
	if (rc)
		goto out;
	if (!n && (rc = label_ids(db, argv[optind], &ids, &n)))
		goto out;
	if (kab_db_runs_relabel(db, ids, n, label, &err)) {
		rc = cli_error(strstr(err.msg, "is not there") ? EXIT_USAGE :
			       EXIT_RUN, "relabel: %s; nothing was changed",
			       err.msg);
		goto out;
	}
	printf("%zu run%s (", n, n == 1 ? "" : "s");
	print_ids(stdout, ids, n);
	printf(") now labelled '%s'\n", label);
out:
	if (db)
		kab_db_close(db);
	free(ids);
	return rc;
}
