// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-export.c - kab export: runs as CSV (one row per sample) or JSON
 * (each run whole: kernel, job, host facts, samples and the profile's
 * stacks), exactly enough for 'kab import' to rebuild them.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

struct csv_ctx {
	FILE *out;
	const struct kab_run *r;
};

static int csv_sample(void *arg, int it, const char *metric, double value)
{
	struct csv_ctx *c = arg;
	char num[40];

	cli_fmt_double(value, num, sizeof(num));
	fprintf(c->out, "%lld,", (long long)c->r->id);
	fput_csv_field(c->out, c->r->kernel.label);
	fprintf(c->out, ",%d,", it);
	fput_csv_field(c->out, metric);
	fprintf(c->out, ",%s,", num);
	fput_csv_field(c->out, c->r->clock ? c->r->clock : "wall");
	if (c->r->seed)
		fprintf(c->out, ",%lld\n", (long long)c->r->seed);
	else
		fputs(",\n", c->out);
	return 0;
}

struct json_ctx {
	json_t *iters;		/* [{"iteration": i, "metrics": {..}}] */
	json_t *cur;
	int cur_it;
};

static int json_sample(void *arg, int it, const char *metric, double value)
{
	struct json_ctx *c = arg;

	if (!c->cur || it != c->cur_it) {
		c->cur = json_object();
		c->cur_it = it;
		json_array_append_new(c->iters,
				      json_pack("{s:i, s:o}", "iteration", it,
						"metrics", c->cur));
	}
	json_object_set_new(c->cur, metric, json_real(value));
	return 0;
}

/* The iteration's entry of the export, made when it has no samples. */
static json_t *iteration_entry(json_t *iters, int it)
{
	json_t *e;
	size_t i;

	json_array_foreach(iters, i, e)
		if (json_integer_value(json_object_get(e, "iteration")) == it)
			return e;
	e = json_pack("{s:i, s:o}", "iteration", it, "metrics", json_object());
	json_array_append_new(iters, e);
	return e;
}

/*
 * The profile's stacks of an iteration beside its samples:
 * "stacks": {"event": E, "total": N, "stacks": {"a;b;c": n, ...}}.
 */
static int json_stack(void *arg, int it, const char *event, const char *stack,
		      uint64_t samples, uint64_t total)
{
	struct json_ctx *c = arg;
	json_t *e = iteration_entry(c->iters, it);
	json_t *s = json_object_get(e, "stacks");

	if (!s) {
		s = json_pack("{s:s, s:I, s:{}}", "event", event, "total",
			      (json_int_t)total, "stacks");
		json_object_set_new(e, "stacks", s);
	}
	json_object_set_new(json_object_get(s, "stacks"), stack,
			    json_integer((json_int_t)samples));
	return 0;
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *run_to_json(struct kab_db *db, const struct kab_run *r,
			   struct kab_err *err)
{
	struct json_ctx c = { .iters = json_array() };
	json_t *kernel;

	if (kab_db_samples_foreach(db, r->id, json_sample, &c, err) ||
	    kab_db_run_stacks_foreach(db, r->id, json_stack, &c, err)) {
		json_decref(c.iters);
		return NULL;
	}
	kernel = json_pack("{s:s, s:o, s:o, s:o, s:o, s:o}",
			   "label", r->kernel.label,
			   "release", str_or_null(r->kernel.release),
			   "cmdline", str_or_null(r->kernel.cmdline),
			   "image_path", str_or_null(r->kernel.image_path),
			   "image_sha256", str_or_null(r->kernel.image_sha256),
			   "commit", str_or_null(r->kernel.commit));
	json_t *run = json_pack("{s:s, s:o, s:s, s:s, s:s, s:O, s:O, s:s, s:O, s:i, "
			 "s:s, s:o, s:s, s:o, s:I, s:I, s:o}",
			 "uuid", r->uuid, "kernel", kernel, "job", r->job,
			 "suite", r->suite, "test", r->test,
			 "params", r->params, "resolved", r->resolved,
			 "target", r->target, "host", r->host,
			 "iterations_planned", r->iterations_planned,
			 "started_at", r->started_at,
			 "ended_at", str_or_null(r->ended_at),
			 "status", r->status,
			 "message", str_or_null(r->message),
			 "garbage_bytes", (json_int_t)r->garbage_bytes,
			 "bad_records", (json_int_t)r->bad_records,
			 "iterations", c.iters);

	if (run && r->block)
		json_object_set_new(run, "block", json_string(r->block));
	if (run && r->clock)
		json_object_set_new(run, "clock", json_string(r->clock));
	if (run && r->seed)
		json_object_set_new(run, "seed",
				    json_integer((json_int_t)r->seed));
	return run;
}

static void export_usage(FILE *f)
{
	fprintf(f,
		"usage: kab export [--format csv|json] [-o FILE] [--db PATH] "
		"[RUN...]\n"
		"\n"
		"Writes the given runs (default: all) to stdout or FILE.\n"
		"\n"
		"  --format csv|json   csv (default): one row per sample: "
		"run,kernel_label,\n"
		"                      iteration,metric,value,clock,seed (what "
		"timed the run,\n"
		"                      its layout seed); json: each run whole, "
		"with\n"
		"                      kernel, job parameters, host facts and "
		"the profile's\n"
		"                      call stacks ('kab import' reads it back "
		"exactly)\n"
		"  --output FILE, -o FILE   write there instead of stdout\n"
		"  --db PATH           database\n");
}

struct all_ids {
	int nr;
	long long *id;
};

static int collect_id(void *arg, const struct kab_run *r)
{
	struct all_ids *a = arg;

	a->id = xrealloc(a->id, (a->nr + 1) * sizeof(*a->id));
	a->id[a->nr++] = r->id;
	return 0;
}

int cmd_export(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "db", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db_opt = NULL, *format = "csv", *output = NULL;
	struct all_ids ids = { 0 };
	json_t *runs = NULL;
	struct kab_db *db;
	struct kab_err err;
	int opt, i, rc = EXIT_OK;
	FILE *out = stdout;

	optind = 1;
	while ((opt = cli_getopt(argc, argv, ":ho:", opts)) != -1) {
		switch (opt) {
		case 'f':
			format = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case 'd':
			db_opt = optarg;
			break;
		case 'h':
			export_usage(stdout);
			return EXIT_OK;
		default:
			return cli_bad_option("export", opt, argv, opts);
		}
	}
	if (strcmp(format, "csv") && strcmp(format, "json"))
		return cli_error(EXIT_USAGE, "--format '%s': use csv or json",
				 format);
	for (i = optind; i < argc; i++) {
		long long id = cli_run_id(argv[i]);

		if (id < 0) {
			free(ids.id);
			return EXIT_USAGE;
		}
		collect_id(&ids, &(struct kab_run){ .id = id });
	}
	rc = cli_open_db(cli, db_opt, KAB_DB_READ, &db);
	if (rc) {
		free(ids.id);
		return rc;
	}
	if (!ids.nr && kab_db_runs_foreach(db, collect_id, &ids, &err)) {
		rc = cli_error(EXIT_RUN, "%s", err.msg);
		goto out;
	}
	/* every run named is there before a byte is written */
	for (i = 0; i < ids.nr; i++) {
		struct kab_run r;
		int got = kab_db_run_get(db, ids.id[i], &r, &err);

		if (got) {
			rc = cli_error(got > 0 ? EXIT_USAGE : EXIT_RUN, "%s",
				       err.msg);
			goto out;
		}
		kab_run_free(&r);
	}
	if (output && !(out = fopen(output, "w"))) {
		rc = cli_error(EXIT_RUN, "cannot write %s: %m", output);
		out = stdout;
		goto out;
	}
	if (!strcmp(format, "csv"))
		fprintf(out, "run,kernel_label,iteration,metric,value,clock,"
			"seed\n");
	else
		runs = json_array();
	for (i = 0; i < ids.nr; i++) {
		struct kab_run r;
		struct csv_ctx c = { .out = out, .r = &r };
		json_t *j;

		int got = kab_db_run_get(db, ids.id[i], &r, &err);

		if (got) {
			rc = cli_error(got > 0 ? EXIT_USAGE : EXIT_RUN, "%s",
				       err.msg);
			goto out;
		}
		if (runs) {
			j = run_to_json(db, &r, &err);
			if (j)
				json_array_append_new(runs, j);
			else
				rc = cli_error(EXIT_RUN, "%s", err.msg);
		} else if (kab_db_samples_foreach(db, r.id, csv_sample, &c,
						  &err)) {
			rc = cli_error(EXIT_RUN, "%s", err.msg);
		}
		kab_run_free(&r);
		if (rc)
			goto out;
	}
	if (runs) {
		json_t *doc = json_pack("{s:i, s:s, s:O}", "kab_export", 1,
					"kab_version", KAB_VERSION, "runs",
					runs);

		cli_json_dumpf(doc, out, JSON_INDENT(1) | JSON_SORT_KEYS |
			   JSON_REAL_PRECISION(17));
		fputc('\n', out);
		json_decref(doc);
	}
	if (fflush(out) || ferror(out))
		rc = cli_error(EXIT_RUN, "writing the export failed: %m");
out:
	json_decref(runs);
	if (out != stdout)
		fclose(out);
	free(ids.id);
	kab_db_close(db);
	return rc;
}
