/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h - the command line: one file per subcommand, git style.
 */
#ifndef KAB_CLI_H
#define KAB_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "../common/common.h"
#include "../db/db.h"

/* Exit codes, documented in 'kab --help'. */
#define EXIT_OK		0
#define EXIT_RUN	1	/* a run failed or was interrupted, or I/O */
#define EXIT_USAGE	2
#define EXIT_INCONCLUSIVE 3	/* kab ci gate: a KPI without a verdict */
/* and 128 + the signal when ^C (130) or SIGTERM (143) stopped the work */

struct cli {
	const char *db_path;	/* --db before the command, or NULL */
};

struct cmd {
	const char *name;
	int (*fn)(struct cli *cli, int argc, char **argv);
	const char *summary;
};

int cmd_run(struct cli *cli, int argc, char **argv);
int cmd_compare(struct cli *cli, int argc, char **argv);
int cmd_plan(struct cli *cli, int argc, char **argv);
int cmd_report(struct cli *cli, int argc, char **argv);
int cmd_merge(struct cli *cli, int argc, char **argv);
int cmd_ci(struct cli *cli, int argc, char **argv);
int cmd_ab(struct cli *cli, int argc, char **argv);
int cmd_build(struct cli *cli, int argc, char **argv);
int cmd_bisect(struct cli *cli, int argc, char **argv);
int cmd_bisect_step(struct cli *cli, int argc, char **argv);
int cmd_watch(struct cli *cli, int argc, char **argv);
/* "Name <addr>" from git's configuration (as git send-email), or NULL. */
char *cli_git_sender(void);
/* This kab's path, for the kab commands kab runs (bisect-step, bisect). */
char *cli_self_exe(void);
/* kab compare with its default options, for kab ab's closing table. */
int cli_compare_default(struct kab_db *db, char **sides, size_t nr,
			bool all);
/* The same with the KPIs kab ab's looks decided taking their verdicts. */
struct cmp_seq;
int cli_compare_sequential(struct kab_db *db, char **sides, size_t nr,
			   bool all, const struct cmp_seq *seq, size_t nr_seq);
int cmd_ls(struct cli *cli, int argc, char **argv);
int cmd_rm(struct cli *cli, int argc, char **argv);
int cmd_relabel(struct cli *cli, int argc, char **argv);
int cmd_show(struct cli *cli, int argc, char **argv);
int cmd_export(struct cli *cli, int argc, char **argv);
int cmd_import(struct cli *cli, int argc, char **argv);

/*
 * The config file ($KAB_CONFIG, else $XDG_CONFIG_HOME/kab/config):
 * loaded once (0, or EXIT_USAGE with file:line printed; a section is
 * [core], [lava] or one of the nr commands names); [core] db;
 * a command's defaults as options put before its own (skip: argv's
 * command words); the config's line of an option at argv index argi of
 * the command, or 0.
 */
int cli_config_load(const char *const *names, size_t nr);
const char *cli_config_db(void);
/* The last value of [section] key in the config file, or NULL. */
const char *cli_config_get(const char *section, const char *key);
const char *cli_config_path(void);
char **cli_config_argv(const char *section, int skip, int *argc,
		       char **argv);
int cli_config_line(int argi);

/*
 * Values for shell completion ('kab --completion-helper WHAT [CMD]'):
 * WHAT metrics (of the newest runs), params (KEY= of every job),
 * monitors, formats (CMD's --format values).  EXIT_OK when printed, -1
 * when WHAT is none of them.
 */
int cli_complete_values(struct cli *cli, const char *what, const char *cmd);

/* "kab: <message>" on stderr; returns code. */
int cli_error(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Each line of notes (or none) as "kab: note: <line>" on stderr. */
void cli_notes(const char *notes);
/* "kab: note: <message>" on stderr, unless --quiet. */
void cli_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * --quiet (-1: errors and results only, no progress or notes), none
 * (0), --verbose (1: also the commands kab runs, QEMU's among them).
 * Every command takes them, before or after its name.
 */
extern int cli_verbosity;
/* Progress lines at all (not --quiet). */
bool cli_progress(void);
/* A live progress line (\r, \e[K): stderr a terminal that is not dumb. */
bool cli_live_progress(void);
/* --verbose: argv as a shell command line on stderr. */
void cli_show_command(void *ctx, const char *const *argv);
/* 0, or EXIT_USAGE with the error printed: what --monitors may say. */
int cli_check_monitors(const char *list);
/* 0, or EXIT_USAGE with the error printed: a --kconfig to read. */
int cli_check_kconfig(const char *path);
/*
 * A job file's jobs (sel: --set and --only); what the file holds that
 * kab leaves out said in a note on stderr.  0, or EXIT_USAGE with the
 * error printed.
 */
struct kab_jobsel;
struct kab_joblist;
/* Append arg to the array *v of *n (a repeatable option's values). */
void cli_push_arg(char ***v, int *n, char *arg);
int cli_load_jobs(const char *path, const struct kab_jobsel *sel,
		  struct kab_joblist *out);
/* kab run --list-jobs: each job by name and file, then the job path. */
void cli_list_jobs(FILE *out);
/*
 * Stored text made visible for one printf (terminal escapes and
 * control characters shown, not obeyed); valid for 16 more calls.
 */
const char *cli_vis(const char *s);
/* "kab [--db PATH] CMD --resume ID", --db when it is not the default. */
char *cli_resume_hint(const char *db_path, const char *cmd, long long id);
/*
 * A stored argument list (an A/B's, a bisect's): a JSON array of
 * printable strings, else NULL with one line printed.  argv[0] is cmd;
 * room for 3 more; the strings are the array's.
 */
char **cli_stored_argv(const json_t *args, const char *cmd, const char *what,
		       long long id, int *argc);

/* A writer waits for another's lock while not stopped, saying so. */
void cli_db_patient(struct kab_db *db);
/* Open the database named by --db, $KAB_DB or the default. */
int cli_open_db(struct cli *cli, const char *opt_db, enum kab_db_mode mode,
		struct kab_db **db);
/*
 * $XDG_CACHE_HOME/kab or ~/.cache/kab, created; NULL with an error
 * printed when it cannot be.
 */
char *cli_cache_dir(void);
/*
 * getopt_long()'s '?' or ':' (optstrings start with ':') as one line:
 * the option and where the options are listed.  Returns EXIT_USAGE.
 */
struct option;
/*
 * getopt_long's complaint in one line, with the nearest of opts when
 * the word looks like a misspelling of it; the exit code.
 */
int cli_bad_option(const char *cmd, int opt, char *const argv[],
		   const struct option *opts);
/*
 * getopt_long() for every command.  'kab CMD --completion-helper'
 * (hidden, as git's --git-completion-helper) prints the command's long
 * options from opts, one a line ("--runs=" takes a value), and exits:
 * what shell completion offers and what the man page test checks.
 */
int cli_getopt(int argc, char *const argv[], const char *shortopts,
	       const struct option *opts);
/* A run id from the command line, or -1 with a usage error printed. */
long long cli_run_id(const char *s);
/* Shortest text that reads back as exactly v. */
void cli_fmt_double(double v, char *buf, size_t n);
/* A value for a table: integers whole, small numbers to 2 places. */
void cli_fmt_value(double v, char *buf, size_t n);
/*
 * Several runs (ids "3,5,7" or a kernel label) pooled per job, with
 * the variance between boots against within them.  1 when SPEC names
 * no stored run, -1 when the database failed.
 */
int cli_show_boots(FILE *out, struct kab_db *db, const char *spec,
		   const char *glob, struct kab_err *err);
/* Print per-metric n / mean / stddev of a run; glob filters metrics. */
/*
 * Where a metric is printed: 0 the KPI, 1 the suite's own (suite.*),
 * 2 a monitor, 3 a perf-profile row (shown only when asked for).
 */
int cli_metric_rank(const char *metric, const char *kpi, const char *suite);
/* 1 with "no metric of run N matches GLOB" (and the nearest) in err. */
int cli_summary_no_match(struct kab_db *db, long long run_id,
			 const char *glob, struct kab_err *err);
int cli_print_summary(FILE *out, struct kab_db *db, long long run_id,
		      const char *glob, struct kab_err *err);
void cli_print_run_header(FILE *out, const struct kab_run *r);
/* A number for JSON: null when it is not finite (NaN, inf). */
/*
 * doc as json_dumps() would write it, each real in the fewest digits
 * that read back as the same double (malloc'd, or NULL); and on out.
 */
char *cli_json_text(const json_t *doc, size_t flags);
int cli_json_dumpf(const json_t *doc, FILE *out, size_t flags);
json_t *cli_json_num(double v);
/* A run as JSON (kab ls and kab show --format json). */
json_t *cli_run_json(const struct kab_run *r);
/* Per-metric n, mean, stddev, %stddev, median, min, max, as JSON. */
json_t *cli_summary_json(struct kab_db *db, long long run_id,
			 const char *glob, struct kab_err *err);
/* cli_show_boots' groups as JSON, appended to items; as it returns. */
int cli_show_boots_json(json_t *items, struct kab_db *db, const char *spec,
			const char *glob, struct kab_err *err);

#endif /* KAB_CLI_H */
