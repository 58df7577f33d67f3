// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-ls.c - kab ls: the stored runs, one line each, or as JSON;
 * filtered by label, job, status and start time.
 */
#include <fnmatch.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "../report/report.h"

#define LS_SCHEMA "kab.ls/1"

struct ls_filter {
	const char *label, *job, *status;
	char since[32];		/* ISO 8601 UTC, "" for any */
};

struct ls_ctx {
	const struct ls_filter *f;
	bool json;
	json_t *runs;		/* --format json */
	char ***rows;		/* text: cells of each run */
	size_t nr;
};

enum { C_ID, C_STARTED, C_KERNEL, C_STATUS, C_ITERS, C_CLOCK, C_TEST,
       C_PARAMS, NR_COLS };

static const char *const heads[NR_COLS] = { "ID", "STARTED", "KERNEL",
	"STATUS", "ITERS", "CLOCK", "TEST", "PARAMETERS" };

static bool wanted(const struct ls_filter *f, const struct kab_run *r)
{
	/* globs, as 'kab show --metric': base-*, *rc1 */
	if (f->label && fnmatch(f->label, r->kernel.label, 0))
		return false;
	if (f->job && fnmatch(f->job, r->job, 0))
		return false;
	if (f->status && strcmp(f->status, r->status))
		return false;
	return !*f->since || strcmp(r->started_at, f->since) >= 0;
}

static char *params_text(const struct kab_run *r)
{
	struct strbuf sb = STRBUF_INIT;
	const char *key;
	json_t *v;

	json_object_foreach(r->params, key, v) {
		const char *s = json_string_value(v);

		if (!strcmp(key, "testcase") || !strcmp(key, "test"))
			continue;
		if (sb.len)
			strbuf_add(&sb, " ", 1);
		strbuf_add(&sb, key, strlen(key));
		strbuf_add(&sb, "=", 1);
		strbuf_add(&sb, s ? s : "", strlen(s ? s : ""));
	}
	return strbuf_detach(&sb);
}

static int add_run(void *arg, const struct kab_run *r)
{
	struct ls_ctx *c = arg;
	char **cells;

	if (!wanted(c->f, r))
		return 0;
	if (c->json) {
		json_array_append_new(c->runs, cli_run_json(r));
		return 0;
	}
	cells = xcalloc(NR_COLS, sizeof(*cells));
	cells[C_ID] = xasprintf("%lld", (long long)r->id);
	cells[C_STARTED] = xstrdup(r->started_at);
	cells[C_KERNEL] = xstrdup(r->kernel.label);
	cells[C_STATUS] = xstrdup(r->status);
	cells[C_ITERS] = xasprintf("%d/%d", r->nr_iterations,
				   r->iterations_planned);
	cells[C_CLOCK] = xstrdup(r->clock ? r->clock : "wall");
	cells[C_TEST] = xstrdup(r->test);
	cells[C_PARAMS] = params_text(r);
	c->rows = xrealloc(c->rows, (c->nr + 1) * sizeof(*c->rows));
	c->rows[c->nr++] = cells;
	return 0;
}

/*
 * Columns as wide as their widest cell, so that a long label moves the
 * columns after it instead of breaking them; the parameters last, as
 * long as they are.  Labels and parameters may be a guest's or an
 * import's: shown by tty_text.
 */
static void print_rows(struct ls_ctx *c)
{
	size_t w[NR_COLS], i, k;

	for (k = 0; k < NR_COLS; k++)
		w[k] = strlen(heads[k]);
	/* ids and counts line up as they always did below 10,000 */
	w[C_ID] = w[C_ITERS] = 5;
	for (i = 0; i < c->nr; i++)
		for (k = 0; k < NR_COLS; k++)
			if (strlen(c->rows[i][k]) > w[k])
				w[k] = strlen(c->rows[i][k]);
	for (i = 0; i <= c->nr; i++) {
		struct strbuf sb = STRBUF_INIT;
		const char *const *cells = i ? (const char *const *)
					   c->rows[i - 1] : heads;

		for (k = 0; k < NR_COLS; k++) {
			char *cell;

			if (k == C_ID || k == C_ITERS)
				cell = xasprintf("%*s", (int)w[k], cells[k]);
			else if (k == NR_COLS - 1)
				cell = xstrdup(cells[k]);
			else
				cell = xasprintf("%-*s", (int)w[k], cells[k]);
			if (k)
				strbuf_add(&sb, "  ", 2);
			strbuf_add(&sb, cell, strlen(cell));
			free(cell);
		}
		while (sb.len && sb.buf[sb.len - 1] == ' ')
			sb.buf[--sb.len] = '\0';
		tty_text(stdout, sb.buf);
		putchar('\n');
		strbuf_release(&sb);
	}
}

/*
 * --since: a date (2026-12-01), a time (2026-12-01T09:30[:00][Z], UTC)
 * or an age (30m, 12h, 7d); into ISO 8601 UTC as runs store it.
 */
static int parse_since(const char *s, char *out, size_t n)
{
	int y, mo, d, h = 0, mi = 0, sec = 0, used = 0;
	size_t digits = strspn(s, "0123456789");

	if (digits && s[digits] && strchr("mhd", s[digits]) &&
	    !s[digits + 1]) {
		/* an age that reaches before 1970 is since 1970 */
		char unit = s[digits];
		double age = strtod(s, NULL) * (unit == 'm' ? 60 : unit == 'h' ?
						 3600 : 86400);
		double t = now_wall() - age;

		iso8601_utc(t > 0 ? t : 0, out, n);
		return 0;
	}
	used = 0;
	if ((sscanf(s, "%4d-%2d-%2d%n", &y, &mo, &d, &used) == 3 &&
	     !s[used]) ||
	    (sscanf(s, "%4d-%2d-%2dT%2d:%2d%n", &y, &mo, &d, &h, &mi,
		    &used) == 5 && (!s[used] || !strcmp(s + used, "Z"))) ||
	    (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &y, &mo, &d, &h, &mi,
		    &sec, &used) == 6 && (!s[used] || !strcmp(s + used, "Z")))) {
		if (mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 ||
		    mi < 0 || mi > 59 || sec < 0 || sec > 60 || y < 1970 ||
		    y > 9999)
			return -1;
		snprintf(out, n, "%04d-%02d-%02dT%02d:%02d:%02dZ", y, mo, d, h,
			 mi, sec);
		return 0;
	}
	return -1;
}

static void ls_usage(void)
{
	printf("usage: kab ls [--label GLOB] [--job GLOB] [--status S] "
	       "[--since WHEN]\n"
	       "              [--format text|json] [--db PATH]\n"
	       "\n"
	       "Lists the stored runs: id, start, kernel, status, iterations "
	       "stored of planned,\ntest and parameters; the columns as wide "
	       "as their widest cell.\n"
	       "\n"
	       "  --label GLOB    runs whose kernel label matches (base, "
	       "'v6.1*')\n"
	       "  --job GLOB      runs of matching jobs (will-it-scale-*)\n"
	       "  --status S      ok, failed, interrupted or running\n"
	       "  --since WHEN    started at or after WHEN: 2026-12-01, "
	       "2026-12-01T09:30 (UTC)\n"
	       "                  or an age: 30m, 12h, 7d\n"
	       "  --format F      text (default) or json: {\"schema\": \""
	       LS_SCHEMA "\", \"runs\": [...]}\n"
	       "  --db PATH       database\n");
}

int cmd_ls(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "label", required_argument, NULL, 'l' },
		{ "job", required_argument, NULL, 'j' },
		{ "status", required_argument, NULL, 's' },
		{ "since", required_argument, NULL, 'S' },
		{ "format", required_argument, NULL, 'f' },
		{ "db", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const statuses[] = { "ok", "failed", "interrupted",
						"running" };
	struct ls_filter f = { 0 };
	struct ls_ctx c = { .f = &f };
	const char *db_opt = NULL, *format = "text";
	struct kab_db *db;
	struct kab_err err;
	size_t i, k;
	int opt, rc = EXIT_OK;
	bool known;

	optind = 1;
	while ((opt = cli_getopt(argc, argv, ":h", opts)) != -1) {
		switch (opt) {
		case 'l':
			f.label = optarg;
			break;
		case 'j':
			f.job = optarg;
			break;
		case 's':
			known = false;
			for (i = 0; i < ARRAY_SIZE(statuses); i++)
				known |= !strcmp(optarg, statuses[i]);
			if (!known)
				return cli_error(EXIT_USAGE, "ls: --status '%s': "
						 "ok, failed, interrupted or "
						 "running", optarg);
			f.status = optarg;
			break;
		case 'S':
			if (parse_since(optarg, f.since, sizeof(f.since)))
				return cli_error(EXIT_USAGE, "ls: --since '%s': "
						 "a date (2026-12-01), a UTC "
						 "time (2026-12-01T09:30) or "
						 "an age (30m, 12h, 7d)",
						 optarg);
			break;
		case 'f':
			format = optarg;
			if (strcmp(format, "text") && strcmp(format, "json"))
				return cli_error(EXIT_USAGE, "ls: --format '%s': "
						 "text or json", optarg);
			break;
		case 'd':
			db_opt = optarg;
			break;
		case 'h':
			ls_usage();
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
	c.json = !strcmp(format, "json");
	c.runs = json_array();
	if (kab_db_runs_foreach(db, add_run, &c, &err)) {
		rc = cli_error(EXIT_RUN, "%s", err.msg);
	} else if (c.json) {
		json_t *doc = json_pack("{ss ss sO}", "schema", LS_SCHEMA,
					"database", kab_db_path(db),
					"runs", c.runs);

		/* jansson escapes every control character */
		cli_json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		putchar('\n');
		json_decref(doc);
	} else if (c.nr) {
		print_rows(&c);
	} else if (f.label || f.job || f.status || *f.since) {
		printf("no run in %s matches\n", kab_db_path(db));
	} else {
		printf("no runs in %s\n", kab_db_path(db));
	}
	for (i = 0; i < c.nr; i++) {
		for (k = 0; k < NR_COLS; k++)
			free(c.rows[i][k]);
		free(c.rows[i]);
	}
	free(c.rows);
	json_decref(c.runs);
	kab_db_close(db);
	return rc;
}
