/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bisect.h - kab bisect and kab bisect-step: the options they share,
 * measuring one commit (build, boot, run), and reading its samples.
 */
#ifndef KAB_CLI_BISECT_H
#define KAB_CLI_BISECT_H

#include <stdint.h>

#include "runjob.h"
#include "../model/model.h"

/* git bisect run: 0 old/good, 1 new/bad, 125 skip, >127 aborts it. */
#define STEP_GOOD	0
#define STEP_BAD	1
#define STEP_SKIP	125
#define STEP_ABORT	255

struct bisect_opts {
	const char *tree;
	const char *good, *bad;
	const char *job;
	const char *metric;
	char **sets;
	int nr_sets;
	char **only;		/* --only KEY=VALUE: the one job of a file */
	int nr_only;
	int runs;		/* iterations per boot */
	int boots;		/* boots of each endpoint */
	int max_boots;		/* boots of a commit before it is skipped */
	double alpha;
	double noise;		/* smallest |%change| worth bisecting */
	const char *cmdline;
	const char *build_cmd;
	const char *term_old, *term_new;
	const char *monitors;
	int smp;		/* 0: 1 under icount, else 2 */
	struct kab_qemu_opts clock;	/* --clock, in .clock */
	const char *mem;
	double timeout;
	const char *target;	/* NULL or qemu, lava:URL, lava:local,
				   ssh://[user@]host[:port] */
	struct kab_lava_opts lava;	/* its LAVA options */
	const char *setup;	/* ssh://: boots a commit's kernel there */
	double setup_timeout;
	struct kab_drv_build_args build;
	/* bisect-step only */
	long long bisect_id;
	int owner;		/* the kab bisect that started it */
	const char *good_runs, *bad_runs;
	/* kab bisect only */
	long long resume, show;
	bool list;
	const char *db;
	/* kab watch only */
	const char *from, *branch, *name;
	int every, max_points;
	double interval;
	bool once, all_commits, merges;
	const char *mbox, *mail_from;	/* the robot's messages */
	char **mail_to, **mail_cc, **trailers;
	int nr_mail_to, nr_mail_cc, nr_trailers;
	const char *sendmail;		/* sh -c CMD, the message on stdin */
	const char *html;		/* the series' page: a directory */
	const char *fetch;		/* git fetch REMOTE before a pass */
};

/* Which command's options: they share most. */
enum bisect_cmd {
	CMD_BISECT,
	CMD_BISECT_STEP,
	CMD_WATCH,
};

/*
 * Parse kab bisect's or kab bisect-step's options (argv[0] is the
 * command).  0, or an exit status with the error printed.
 */
/* The options kab bisect and bisect-step share, for their --help. */
void bisect_options_help(FILE *f, bool watch);
int bisect_parse(int argc, char **argv, enum bisect_cmd cmd,
		 struct bisect_opts *o);
void bisect_opts_free(struct bisect_opts *o);

/* A bisect's measuring: the driver's, set up from the options. */
struct bisect_ctx {
	const struct bisect_opts *o;
	struct kab_drv_bisect d;
	struct kab_drv_build_args build;	/* o's, in kab's cache */
	struct runjob_ui ui;
	struct kab_joblist jobs;	/* exactly one job */
	struct kab_ssh ssh;		/* --target ssh:// */
	char *agent;
	char *cache;
	char *plugin;
};

/* 0 when the job file gives one job, else EXIT_USAGE, said. */
int bisect_check_job(const struct bisect_opts *o);
int bisect_ctx_init(struct bisect_ctx *b, const struct bisect_opts *o,
		    struct kab_db *db);
void bisect_ctx_free(struct bisect_ctx *b);

/* kab_drv_measure() of the bisect's commit: see driver/driver.h. */
int bisect_measure(struct bisect_ctx *b, const char *commit, int boots,
		   struct kab_drv_measured *m);

/* Print a finished (or running) bisect: the result, table, steps, plot. */
int bisect_show(struct kab_db *db, long long id);
/*
 * The git tree bisect ID ran in, from its stored options (malloc'd), or
 * NULL: what puts its tested commits in history order.
 */
char *bisect_stored_tree(struct kab_db *db, int64_t id);

#endif /* KAB_CLI_BISECT_H */
