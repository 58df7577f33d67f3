// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-ci.c - kab ci matrix | gate: kab inside a CI pipeline.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ci.h"
#include "runjob.h"

/* which: 0 both subcommands (kab ci --help), 'm' matrix, 'g' gate */
static void ci_usage_of(FILE *f, int which)
{
	if (which != 'g')
		fprintf(f,
			"usage: kab ci matrix [--kernels A,B,...] [--replicas N] "
			"[--clock C] [--model NAME]\n"
			"                     [--set KEY=VALUE]... [--only KEY=VALUE]... "
			"JOB.yaml...\n");
	if (which != 'm')
		fprintf(f, "%s", which ? "usage: kab ci gate [options] BASE HEAD\n" :
			"       kab ci gate [options] BASE HEAD\n");
	fputc('\n', f);
	if (which != 'g')
		fprintf(f,
			"matrix prints, on one line, the {\"include\": [...]} that GitHub "
			"Actions'\nstrategy.matrix takes: a cell per job parameter set "
			"(times --replicas, 1),\neach with cell (a file-safe name), job, "
			"set (the options that pick\nits parameter set: --set and "
			"--only as given, then --only for each\nparameter that varies, "
			"shell-quoted), params and kernels (default\n\"base head\").\n"
			"A cell measures every kernel on its runner, interleaved, so "
			"that the\nrunner's speed falls on all alike; with --replicas 3 "
			"or more the runners\nare the samples of the test.\n"
			"\n");
	if (which != 'm')
		fprintf(f,
			"gate tests each job's KPI (or --kpi METRIC, repeatable) of "
			"HEAD against BASE\nwith kab compare's tests (per boot when "
			"boots differ), corrected for false\ndiscoveries over the "
			"gated KPIs at 0.04 (the KPIs' share of a table's 0.05).\nIt "
			"exits 0 when none regressed significantly by more than the "
			"threshold, 1\nwhen one did, 3 (inconclusive) when none did "
			"but one could not be judged\n(fewer than 2 boots a side, or "
			"sides measured on different machines), 2 on a\nusage error "
			"or missing data.\n"
			"\n");
	if (which != 'g')
		fprintf(f,
			"matrix:\n"
			"  --kernels A,B,...     the kernels each cell measures "
			"(base,head)\n"
			"  --replicas N          cells per parameter set (1)\n"
			"  --clock C             the cells' kab run --clock: icount "
			"times guests in\n"
			"                        instructions, so runners of any "
			"speed agree\n"
			"  --model NAME          the cells' kab run --model: a "
			"cost model's rows too\n"
			"                        (spr, cpl; runners with QEMU 10)\n"
			"  --set KEY=VALUE, --only KEY=VALUE   as for kab run\n");
	if (!which)
		fputc('\n', f);
	if (which != 'm')
		fprintf(f,
			"gate:\n"
			"  --fail-on regression|change   what fails the gate "
			"(regression)\n"
			"  --threshold PCT       smallest |%%change| that fails (0)\n"
			"  --allow-inconclusive  a KPI without a verdict passes (exit 0, "
			"still\n"
			"                        a skipped JUnit case)\n"
			"  --kpi METRIC          gate on this metric instead of the "
			"suite's KPI\n"
			"  --junit FILE          JUnit XML: a test case per KPI\n"
			"  --format text|json    a line per KPI (text), or "
			"{\"schema\": \"kab.gate/1\", ...}\n"
			"  --summary FILE        append a markdown summary (e.g. "
			"$GITHUB_STEP_SUMMARY)\n"
			"  --ignore-param KEY    parameter sets that differ only in KEY "
			"compare\n"
			"  --force               compare runs from different machines "
			"(CI runners)\n"
			"  --db PATH             database\n");
}

static void ci_usage(FILE *f)
{
	ci_usage_of(f, 0);
}

static char **split_commas(const char *s, size_t *n)
{
	char *copy = xstrdup(s), *tok, *save, **v = NULL;

	*n = 0;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		v = xrealloc(v, (*n + 1) * sizeof(*v));
		v[(*n)++] = xstrdup(tok);
	}
	free(copy);
	return v;
}

static int matrix(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "kernels", required_argument, NULL, 'k' },
		{ "replicas", required_argument, NULL, 'r' },
		{ "clock", required_argument, NULL, 'c' },
		{ "model", required_argument, NULL, 'M' },
		{ "set", required_argument, NULL, 's' },
		{ "only", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *kernels = "base,head";
	struct ci_cell_opts co = { NULL, NULL };
	struct kab_qemu_opts q = { 0 };
	struct kab_jobsel sel = { 0 };
	char **kv, **sets = NULL, **only = NULL;
	size_t nk, i;
	int opt, rc, replicas = 1;
	char *end;

	optind = 1;
	while ((opt = cli_getopt(argc, argv, ":h", opts)) != -1) {
		if (opt == 's') {
			cli_push_arg(&sets, &sel.nr_sets, optarg);
		} else if (opt == 'o') {
			cli_push_arg(&only, &sel.nr_only, optarg);
		} else if (opt == 'k') {
			kernels = optarg;
		} else if (opt == 'c') {
			rc = runjob_clock_opt(optarg, &q);
			if (rc)
				goto out_sel;
			co.clock = optarg;
		} else if (opt == 'M') {
			/* the runners' QEMU is theirs: only the name here */
			if (!kab_cost_known(optarg)) {
				rc = cli_error(EXIT_USAGE, "--model '%s': no "
					       "such model; kab models %s",
					       optarg, kab_cost_names());
				goto out_sel;
			}
			co.model = optarg;
		} else if (opt == 'r') {
			replicas = (int)strtol(optarg, &end, 10);
			if (*end || end == optarg || replicas < 1 ||
			    replicas > 100) {
				rc = cli_error(EXIT_USAGE, "--replicas '%s': "
					       "give 1 to 100", optarg);
				goto out_sel;
			}
		} else if (opt == 'h') {
			ci_usage_of(stdout, 'm');
			rc = EXIT_OK;
			goto out_sel;
		} else {
			rc = cli_bad_option("ci matrix", opt, argv, opts);
			goto out_sel;
		}
	}
	sel.sets = sets;
	sel.only = only;
	if (optind >= argc) {
		rc = cli_error(EXIT_USAGE, "ci matrix needs jobs: 'kab ci "
			       "matrix will-it-scale-malloc1'");
		goto out_sel;
	}
	kv = split_commas(kernels, &nk);
	if (!nk) {
		free(kv);
		rc = cli_error(EXIT_USAGE, "--kernels '%s': name at least one "
			       "kernel, e.g. base,head", kernels);
		goto out_sel;
	}
	for (i = 0; i < nk; i++)
		if (kv[i][strspn(kv[i], "abcdefghijklmnopqrstuvwxyz"
				 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")]) {
			rc = cli_error(EXIT_USAGE, "--kernels: '%s' is not a "
				       "name: use letters, digits and _ (it "
				       "names KAB_KERNEL_<name>)", kv[i]);
			goto out;
		}
	rc = ci_matrix(argv + optind, argc - optind, kv, nk, replicas, &co,
		       &sel);
out:
	for (i = 0; i < nk; i++)
		free(kv[i]);
	free(kv);
out_sel:
	free(sets);
	free(only);
	return rc;
}

static int gate(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "fail-on", required_argument, NULL, 'f' },
		{ "threshold", required_argument, NULL, 't' },
		{ "allow-inconclusive", no_argument, NULL, 'A' },
		{ "kpi", required_argument, NULL, 'k' },
		{ "junit", required_argument, NULL, 'j' },
		{ "summary", required_argument, NULL, 's' },
		{ "force", no_argument, NULL, 'F' },
		{ "ignore-param", required_argument, NULL, 'I' },
		{ "format", required_argument, NULL, 'O' },
		{ "db", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct gate_args o = { 0 };
	const char *db_opt = NULL;
	struct kab_db *db;
	struct kab_err err;
	char *end;
	int opt, rc;

	optind = 1;
	while ((opt = cli_getopt(argc, argv, ":h", opts)) != -1) {
		switch (opt) {
		case 'f':
			if (!strcmp(optarg, "change"))
				o.g.fail_on_change = true;
			else if (strcmp(optarg, "regression"))
				return cli_error(EXIT_USAGE, "--fail-on '%s': "
						 "use regression or change",
						 optarg);
			break;
		case 't':
			o.g.threshold = strtod(optarg, &end);
			/* inf would let every change pass */
			if (end == optarg || *end || !(o.g.threshold >= 0) ||
			    !(o.g.threshold <= 1e6))
				return cli_error(EXIT_USAGE, "--threshold '%s': "
						 "give a percentage from 0 to "
						 "1000000, e.g. 5", optarg);
			break;
		case 'A':
			o.g.allow_inconclusive = true;
			break;
		case 'k':
			o.g.kpi = xrealloc(o.g.kpi, (o.g.nr_kpi + 1) *
					   sizeof(*o.g.kpi));
			o.g.kpi[o.g.nr_kpi++] = optarg;
			break;
		case 'j':
			o.junit = optarg;
			break;
		case 'O':
			if (strcmp(optarg, "text") && strcmp(optarg, "json")) {
				free(o.g.kpi);
				return cli_error(EXIT_USAGE, "--format '%s': "
						 "text or json", optarg);
			}
			o.json = !strcmp(optarg, "json");
			break;
		case 's':
			o.summary = optarg;
			break;
		case 'F':
			o.g.sel.force = true;
			break;
		case 'I':
			if (cmp_sel_ignore(&o.g.sel, optarg, &err)) {
				free(o.g.kpi);
				return cli_error(EXIT_USAGE, "%s", err.msg);
			}
			break;
		case 'd':
			db_opt = optarg;
			break;
		case 'h':
			ci_usage_of(stdout, 'g');
			free(o.g.kpi);
			return EXIT_OK;
		default:
			free(o.g.kpi);
			return cli_bad_option("ci gate", opt, argv, opts);
		}
	}
	if (argc - optind != 2) {
		free(o.g.kpi);
		return cli_error(EXIT_USAGE, "ci gate needs a base and a head: "
				 "'kab ci gate BASE HEAD'");
	}
	/* a database that cannot be read is no verdict: not exit 1 */
	/* the gate's 1 is a regression: a database it cannot read is 2 */
	if (cli_open_db(cli, db_opt, KAB_DB_READ, &db)) {
		free(o.g.kpi);
		return EXIT_USAGE;
	}
	rc = ci_gate(db, argv[optind], argv[optind + 1], &o);
	kab_db_close(db);
	free(o.g.kpi);
	return rc;
}

int cmd_ci(struct cli *cli, int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		ci_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	if (!strcmp(argv[1], "matrix"))
		return matrix(argc - 1, argv + 1);
	if (!strcmp(argv[1], "gate"))
		return gate(cli, argc - 1, argv + 1);
	return cli_error(EXIT_USAGE, "'kab ci %s': use 'kab ci matrix' or 'kab "
			 "ci gate'", argv[1]);
}
