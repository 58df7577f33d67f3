/* SPDX-License-Identifier: GPL-2.0 */
/*
 * runjob.h - the driver (driver/driver.h) on the command line: its
 * events printed, the options kab run, ab and bisect share.
 */
#ifndef KAB_CLI_RUNJOB_H
#define KAB_CLI_RUNJOB_H

#include "cli.h"
#include "../driver/driver.h"

/* The command line's struct kab_drv_ui: pass &u->ui to the driver. */
struct runjob_ui {
	struct kab_drv_ui ui;
	bool tty;		/* a live progress line on the terminal */
	bool brief;		/* a line per run, not its summary */
};

void runjob_ui_init(struct runjob_ui *u, bool brief);
/* SIGINT's and SIGTERM's handler: sets kab_stop_requested. */
void runjob_on_signal(int sig);
/*
 * A command's exit code once the work is stopped and what was stored
 * kept: 128 + the signal after a signal (130 for ^C, 143 for SIGTERM),
 * else rc.
 */
int runjob_stop_code(int rc);
/* --clock ARG into q->clock: 0, or EXIT_USAGE once said. */
int runjob_clock_opt(const char *arg, struct kab_qemu_opts *q);
/*
 * --layout-seed ARG: exact mode's first layout seed, boots after it
 * taking the next ones (boots more: their count), each checked to fit.
 * 0, or EXIT_USAGE once said.
 */
int runjob_layout_seed_opt(const char *arg, unsigned long long *first);
int runjob_layout_seeds_fit(unsigned long long first, long boots);
/* What QEMU cannot do (icount with several vCPUs): 0 or EXIT_USAGE. */
int runjob_qemu_check(const struct kab_qemu_opts *q);
/*
 * --model's target (NULL: qemu) and monitors (NULL: all): the plugin
 * that counts it runs under the qemu target, with perf-stat's rows.
 * 0, or EXIT_USAGE having said so.
 */
int runjob_model_check(const struct kab_qemu_opts *q, const char *target,
		       const char *monitors);
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
int runjob_dry_run(int iterations, const char *monitors,
		   const struct kab_qemu_opts *q,
		   const struct kab_lava_opts *l,
		   const struct kab_joblist *lists, int nr_files);

#endif /* KAB_CLI_RUNJOB_H */
