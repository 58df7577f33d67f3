/* SPDX-License-Identifier: GPL-2.0 */
/*
 * runjob.h - running one expanded job on a target and storing what
 * comes back; shared by kab run and kab ab.
 */
#ifndef KAB_CLI_RUNJOB_H
#define KAB_CLI_RUNJOB_H

#include "cli.h"
#include "../runner/runner.h"

struct run_ctx {
	struct kab_db *db;
	const struct kab_job *job;
	const char *label;
	const char *commit;			/* of a kernel kab built, or NULL */
	const char *monitors;
	const struct kab_qemu_opts *qemu;	/* NULL: the local target */
	const struct kab_boot *boot;		/* the qemu boot in flight */
	struct kab_ssh *ssh;			/* or a machine over ssh */
	const struct kab_lava_opts *lava;	/* with qemu: boots as LAVA
						   jobs */
	enum kab_boot_outcome last_outcome;	/* of the last boot */
	bool brief;				/* one line per run */
	int64_t ab_id;				/* kab ab's plan, or 0 */
	double t_all;				/* when the first job began */
	int done_all;				/* jobs finished since */
	int ab_seq;
	int64_t run_id;
	struct kab_err err;
	bool failed_store;
	char busy[256];		/* the agent's "other processes kept ..." */
	/* progress */
	bool tty;
	int job_nr, nr_jobs;
	int iterations, cur;
	double t0, t_iter, expected;
};

/* The signal (SIGINT, SIGTERM) that asked kab to stop; every target
 * watches it. */
extern volatile int stop_requested;
void runjob_on_signal(int sig);
/*
 * A command's exit code once the work is stopped and what was stored
 * kept: 128 + the signal after a signal (130 for ^C, 143 for SIGTERM),
 * else rc.
 */
int runjob_stop_code(int rc);
/* $KAB_AGENT, kab-agent beside kab, or <bindir>/../libexec/kab/kab-agent. */
char *runjob_agent_path(void);
/*
 * kab's QEMU plugin the same way ($KAB_PLUGIN, empty: none), or NULL
 * when there is none (a QEMU without plugins built none).
 */
char *runjob_plugin_path(void);
/* --clock ARG into q->clock: 0, or EXIT_USAGE once said. */
int runjob_clock_opt(const char *arg, struct kab_qemu_opts *q);
/* What QEMU cannot do (icount with several vCPUs): 0 or EXIT_USAGE. */
int runjob_qemu_check(const struct kab_qemu_opts *q);
/*
 * Run c->job once on the local target, or as one boot when c->qemu is
 * set (booted again once when the host starved the guest: a
 * host-stall); 0 when the run is ok.  *fatal when storing failed.
 */
int runjob_one(struct run_ctx *c, const char *agent, bool *fatal);
/*
 * --target lava:URL (lava:local, or a server's http(s) URL) into l:
 * the token from $KAB_LAVA_TOKEN, else [lava] token (a server needs
 * one unless dry_run), the files' place from [lava] files and
 * files-url.  0, or EXIT_USAGE once said.
 */
int runjob_lava_target(const char *target, bool dry_run,
		       struct kab_lava_opts *l);
/*
 * --dry-run: the LAVA job definition of each job's boot on stdout, as
 * YAML documents; nothing is run or stored.  An exit status.
 */
int runjob_dry_run(struct run_ctx *c, struct kab_qemu_opts *q,
		   const struct kab_lava_opts *l,
		   const struct kab_joblist *lists, int nr_files);

#endif /* KAB_CLI_RUNJOB_H */
