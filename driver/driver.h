/* SPDX-License-Identifier: GPL-2.0 */
/*
 * driver.h - kab's experiment driver: a job run on a target and stored
 * as it arrives, an A/B's interleaved boots and its looks, a bisect's
 * measuring of one commit, a kernel built and recorded.
 *
 * Every target (the local machine, QEMU, a test machine over ssh, a
 * LAVA lab) is driven through these calls alike.  The driver prints
 * nothing: it tells its front end what happens through struct
 * kab_drv_ui, and the front end (kab's command line, a test) says it
 * as it likes.  Data flows one way: the target's records into the
 * database, events out to the front end.
 */
#ifndef KAB_DRIVER_H
#define KAB_DRIVER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "../common/common.h"
#include "../analysis/analysis.h"
#include "../db/db.h"
#include "../kbuild/kbuild.h"
#include "../runner/runner.h"
#include "../model/model.h"

struct kab_drv_run;
struct kab_drv_done;
struct kab_drv_look;

/* Where a run is, for a progress line. */
enum kab_drv_step {
	KAB_DRV_BOOTING,	/* a boot (or a LAVA job) is starting */
	KAB_DRV_ITERATION,	/* iteration r->cur is starting */
	KAB_DRV_TICK,		/* about a second passed */
};

/*
 * What the driver says, to whoever drives it.  Any hook may be NULL
 * (then that is not said); ctx is passed back to each.
 */
struct kab_drv_ui {
	void *ctx;
	/* a one-line error: the call that said it fails (or goes on) */
	void (*error)(void *ctx, const char *msg);
	/* something the user should know, the run goes on */
	void (*note)(void *ctx, const char *msg);
	/* a line of progress: built, switching a machine, answered */
	void (*info)(void *ctx, const char *msg);
	void (*progress)(void *ctx, const struct kab_drv_run *r,
			 enum kab_drv_step step);
	/* a run ended (ok or not), stored as d says */
	void (*run_done)(void *ctx, const struct kab_drv_run *r,
			 const struct kab_drv_done *d);
	/*
	 * The boot went to a LAVA server as job id (followed: the job it
	 * went to before kab stopped, read now).
	 */
	void (*lava_job)(void *ctx, const struct kab_drv_run *r, long id,
			 bool followed);
	/* an A/B's look at a job's KPI after round rounds */
	void (*look)(void *ctx, const struct kab_drv_look *l);
	/* a command about to be run (the build, ssh), for -v */
	void (*command)(void *ctx, const char *const *argv);
	/* a build's live progress line on the terminal */
	bool live_build;
};

/*
 * The signal (SIGINT, SIGTERM) that asked kab to stop, or 0; every
 * target and every loop of the driver watches it.
 */
extern volatile int kab_stop_requested;
/* $KAB_AGENT, kab-agent beside kab, or <bindir>/../libexec/kab/kab-agent. */
char *kab_drv_agent_path(void);
/*
 * kab's QEMU plugin the same way ($KAB_PLUGIN, empty: none), or NULL
 * when there is none (a QEMU without plugins built none).
 */
char *kab_drv_plugin_path(void);
/* What QEMU cannot do (icount with several vCPUs): 0, or -1 and err. */
int kab_drv_qemu_check(const struct kab_qemu_opts *q, struct kab_err *err);

/*
 * One run of a job on a target.  The caller fills what the run is; the
 * driver the rest (the progress fields are for the front end's line).
 */
struct kab_drv_run {
	struct kab_db *db;
	const struct kab_job *job;
	const char *label;
	const char *commit;		/* of a kernel kab built, or NULL */
	const char *monitors;
	int iterations;
	const struct kab_qemu_opts *qemu;	/* NULL: not a boot */
	struct kab_ssh *ssh;			/* or a machine over ssh */
	const struct kab_lava_opts *lava;	/* with qemu: boots as LAVA
						   jobs */
	const char *agent;			/* kab_drv_agent_path() */
	const struct kab_drv_ui *ui;
	int64_t ab_id;				/* an A/B's, or 0 */
	int ab_seq;
	/* progress: the run's place in a list, and its pace */
	int job_nr, nr_jobs;
	int cur;				/* the iteration running */
	double t_all;				/* when the first run began */
	int done_all;				/* runs finished since */
	double t0, t_iter, expected;
	/* what the last run left */
	int64_t run_id;
	char stored_label[128];		/* its kernel's label: label, or the
					   release the target reported (a
					   utsname's, at most 64 bytes) */
	enum kab_boot_outcome last_outcome;
	bool lab_fault;				/* it failed for the lab's
						   reasons (kab_boot's) */
	const struct kab_boot *boot;		/* the boot in flight */
	/* private */
	pthread_mutex_t *lock;		/* runs in parallel: the db's, the
					   ui's */
	struct kab_err err;
	bool failed_store;
	char busy[256];
};

/* How a run ended, for kab_drv_ui.run_done. */
struct kab_drv_done {
	enum kab_run_status status;
	const char *msg;		/* why not ok, or an ok run's remark */
	int iterations;			/* stored */
	bool lost;			/* the stream lost records */
	bool started;			/* a run record exists (run_id) */
	uint64_t garbage_bytes, bad_records;
	enum kab_boot_outcome outcome;
	const struct kab_boot *boot;	/* a boot's facts and console, or
					   NULL */
};

/*
 * Run r->job once: on the local machine, over r->ssh, or as one boot
 * of r->qemu (QEMU, or a LAVA job with r->lava), booted once more when
 * the host starved the guest (a host-stall) or the lab failed it (an
 * infrastructure error).  Every iteration is stored
 * as it arrives, the run and its boot at the end.  0 when the run is
 * ok; *fatal when kab itself failed (storing, the target).
 */
int kab_drv_run_one(struct kab_drv_run *r, bool *fatal);

/* kab ab's looks: a sequential test of each job's KPI after a round. */
struct kab_drv_look {
	char *kpi;		/* the job's KPI, or NULL: never looked at */
	double *means[2];	/* each side's boot means of it */
	unsigned long long *seeds[2];	/* the layout seed of each, or 0 */
	size_t n[2];
	struct kab_seq seq;	/* the last look */
	bool looked, decided;
	long long head_run;	/* a run of B: finds the job's table */
	/* of the last look, for kab_drv_ui.look */
	size_t look_nr, looks;
	const char *labels[2];
};

struct kab_drv_looks {
	size_t nr;
	struct kab_drv_look *l;	/* one per job */
	size_t first, last;	/* rounds of the first and the last look */
	double alpha, noise;	/* over all the jobs' KPIs */
	double floor;		/* exact data's (kab_exact_floor), or 0 */
};

void kab_drv_looks_init(struct kab_drv_looks *a,
			const struct kab_joblist *jobs, const char *kpi,
			size_t first, size_t last, double alpha, double noise);
void kab_drv_looks_free(struct kab_drv_looks *a);
/* Run run_id of job j, side s (0 A, 1 B): its boot mean of the KPI. */
void kab_drv_looks_add(struct kab_drv_looks *a, struct kab_db *db, size_t j,
		       int s, int64_t run_id);
/*
 * The look after round (1-based) when it is one: each undecided KPI
 * tested, said through ui->look; true when every KPI is answered.
 */
bool kab_drv_looks_round(struct kab_drv_looks *a, size_t round,
			 const char *const *labels,
			 const struct kab_drv_ui *ui);
/* The KPIs looked at, with their last look, for compare's table. */
struct cmp_seq *kab_drv_looks_verdicts(const struct kab_drv_looks *a,
				       size_t *nr);

/*
 * A kernel on a test machine (a side of an A/B, a commit of a bisect):
 * how it is switched to.
 */
struct kab_drv_ssh_side {
	const char *label;
	const char *setup;	/* shell command run there, or NULL */
	const char *const *env;	/* NAME=VALUE each, set for it, or NULL */
	const char *release;	/* uname -r expected after it, or NULL */
	const char *version;	/* and uname -v, or NULL */
	/* for messages: the option that gave setup, and what release */
	const char *setup_opt;	/* "--a-setup" */
	const char *release_opt;	/* "--a-release" */
};

/*
 * Switch the machine s reaches to side's kernel: run its setup, wait
 * (up to timeout seconds) until the machine answers with the release
 * (and version) asked for.  0 with *release (malloc'd), else -1 said
 * through ui.
 */
int kab_drv_ssh_switch(struct kab_ssh *s, const struct kab_drv_ssh_side *side,
		       double timeout, const struct kab_drv_ui *ui,
		       char **release);

/* An A/B: two sides, booted in turn, each boot stored as it ends. */
struct kab_drv_side {
	const char *label;
	struct kab_qemu_opts q;		/* QEMU's or LAVA's boot */
	const char *commit;		/* a kernel kab built, or NULL */
	struct kab_drv_ssh_side ssh;	/* on a test machine */
	/* out: how its boots ended, and those a resume found done */
	int outcomes[KAB_BOOT_INTERRUPTED + 1];
	int earlier;
};

struct kab_drv_ab {
	struct kab_db *db;
	int64_t id;			/* kab_db_ab_create()'s */
	const struct kab_joblist *jobs;
	struct kab_drv_side sides[2];
	int boots, max_boots;		/* boots a side: before and after
					   looking */
	int iterations;			/* runs per boot */
	bool random;			/* a seeded random order a round */
	unsigned long seed;
	/*
	 * Exact mode's layout seed of round 1 (0: one fixed layout): round
	 * k of every side and device boots at seed layout_seed + k - 1, so
	 * that the sides are compared over the same layouts.
	 */
	unsigned long long layout_seed;
	const char *monitors;
	struct kab_ssh *ssh;		/* a test machine, or NULL */
	double setup_timeout;
	const struct kab_lava_opts *lava;	/* LAVA jobs, or NULL */
	/*
	 * A LAVA server's devices, each pinned by its tag: with several,
	 * each is a block (both sides every round), booted in parallel.
	 * NULL: one boot at a time on the device the lab picks.
	 */
	const struct kab_lava_device *devices;
	size_t nr_devices;
	const char *agent;
	struct kab_drv_looks looks;
	const struct kab_drv_ui *ui;
	/* out */
	int turns;			/* turns begun (or found done) */
	bool answered;			/* the looks stopped it early */
	int rounds;			/* rounds done */
	bool fatal;			/* kab itself failed */
};

/*
 * Run the A/B: max_boots rounds (fewer when the looks answer), each
 * job once on each side (on each device) a round, A then B (or a
 * random order); turns a resumed A/B has are skipped, and a LAVA job a
 * turn went to before is read, not submitted again.  0 when every boot
 * was ok, -1 when one was not (or kab failed: ab->fatal), stopped by
 * kab_stop_requested.
 */
int kab_drv_ab_run(struct kab_drv_ab *ab);

/* What kab builds a kernel from. */
struct kab_drv_build_args {
	const char *tree;
	const char **kconfigs;
	size_t nr_kconfigs;
	const char *base;
	int jobs;
	const char *cache_dir;
};

void kab_drv_build_args_add_kconfig(struct kab_drv_build_args *a,
				    const char *path);
/*
 * kab_build_kernel() of rev (label names it in progress), its record
 * stored in db (when not NULL) whether it built or not.  0; -1 when it
 * failed to build (b->failed, said); -2 when it could not be tried (a
 * bad tree or revision, said).
 */
int kab_drv_build(struct kab_db *db, const struct kab_drv_build_args *a,
		  const char *rev, const char *label,
		  const struct kab_drv_ui *ui, struct kab_build *b);

/* A bisect's measuring of one commit. */
struct kab_drv_bisect {
	struct kab_db *db;
	const struct kab_job *job;	/* the one job it follows */
	const char *tree;
	const char *build_cmd;		/* the user's, or NULL: kab builds */
	const struct kab_drv_build_args *build;
	const char *cmdline;
	const char *monitors;
	int iterations;			/* per boot */
	struct kab_qemu_opts q;		/* all but kernel and cmdline */
	const struct kab_lava_opts *lava;	/* boots as LAVA jobs, or
						   NULL */
	/*
	 * Or a test machine: before each boot its kernel's image is
	 * shipped there and setup run there (sh -c) with KAB_KERNEL (the
	 * image's path there), KAB_CMDLINE, KAB_COMMIT and KAB_RELEASE
	 * set; it boots that kernel (kexec, or a boot entry and a
	 * reboot), and kab waits up to setup_timeout seconds for the
	 * machine to run the image's release and version.
	 */
	struct kab_ssh *ssh;
	const char *setup;
	double setup_timeout;
	const char *agent;
	const struct kab_drv_ui *ui;
};

struct kab_drv_measured {
	int64_t *runs;
	size_t nr;
	size_t earlier;		/* the commit's boots before these: the
				   next is at layout seed earlier + nr + 1 */
	char *why;		/* why it was skipped */
	char *subject;
};

/*
 * Build commit, boot it boots times and run the job in each (its k-th
 * boot, counting m's and m->earlier, at exact mode's layout seed k); 0
 * with the runs appended to m, 1 when it is to be skipped (m->why says
 * why: it did not build or did not boot), -1 on an error of kab's own
 * (said).
 */
int kab_drv_measure(const struct kab_drv_bisect *b, const char *commit,
		    int boots, struct kab_drv_measured *m);
void kab_drv_measured_free(struct kab_drv_measured *m);

#endif /* KAB_DRIVER_H */
