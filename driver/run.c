// SPDX-License-Identifier: GPL-2.0
/*
 * run.c - one job on one target, stored as it arrives.
 *
 * The runner's collector hands over whole iterations; each goes into
 * the database in a transaction of its own, so a kab killed in the
 * middle of a run loses only the iteration in flight.  A boot (QEMU's,
 * a LAVA job) is stored too, with its console; so is a turn of an A/B
 * on a test machine, so that a resume knows it is done.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Runs in parallel (an A/B's devices) share the database and the ui. */
static void lock(struct kab_drv_run *c)
{
	if (c->lock)
		pthread_mutex_lock(c->lock);
}

static void unlock(struct kab_drv_run *c)
{
	if (c->lock)
		pthread_mutex_unlock(c->lock);
}

static void progress(struct kab_drv_run *r, enum kab_drv_step step)
{
	if (!r->ui || !r->ui->progress)
		return;
	lock(r);
	r->ui->progress(r->ui->ctx, r, step);
	unlock(r);
}

static void tick(void *arg)
{
	progress(arg, KAB_DRV_TICK);
}

static int on_start(void *arg, const struct kab_run_start *st)
{
	struct kab_drv_run *c = arg;
	json_t *jj = kab_job_to_json(c->job);
	struct kab_run r = { 0 };
	const char *device;
	int ret;

	r.kernel.label = (char *)(c->label ? c->label :
				  st->release ? st->release : "unknown");
	snprintf(c->stored_label, sizeof(c->stored_label), "%s",
		 r.kernel.label);
	r.kernel.release = (char *)st->release;
	r.kernel.cmdline = (char *)st->cmdline;
	r.kernel.commit = (char *)c->commit;
	r.job = c->job->name;
	r.suite = c->job->suite;
	r.test = c->job->test;
	r.params = json_object_get(jj, "params");
	r.resolved = st->resolved;
	r.target = c->lava ? "lava" : c->qemu ? "qemu" : c->ssh ? "ssh" :
								 "local";
	/* the boot's clock, resolved before QEMU started */
	r.clock = c->qemu && c->boot && *c->boot->clock ?
		  (char *)c->boot->clock : "wall";
	/* and its layout seed, when exact mode gave it one */
	r.seed = c->qemu && c->boot ? c->boot->seed : 0;
	if (c->qemu)
		r.kernel.image_path = (char *)c->qemu->kernel;
	r.host = st->host;
	r.iterations_planned = st->iterations;
	/* a lab's device is a machine of its own: a block */
	device = json_string_value(json_object_get(st->host, "lava_device"));
	if (c->lava && device && *device)
		r.block = (char *)device;
	lock(c);
	ret = kab_db_run_insert(c->db, &r, &c->err);
	unlock(c);
	free(r.started_at);
	free(r.status);
	json_decref(jj);
	if (ret) {
		c->failed_store = true;
		return -1;
	}
	c->run_id = r.id;
	c->expected = st->expected_seconds;
	return 0;
}

static void on_iter_start(void *arg, int it)
{
	struct kab_drv_run *c = arg;

	c->cur = it;
	c->t_iter = now_mono();
	progress(c, KAB_DRV_ITERATION);
}

static int on_iteration(void *arg, int it, const struct kab_metrics *m)
{
	struct kab_drv_run *c = arg;
	const char **names = xcalloc(m->nr, sizeof(*names));
	double *vals = xcalloc(m->nr, sizeof(*vals));
	int i, ret;

	for (i = 0; i < m->nr; i++) {
		names[i] = m->v[i].name;
		vals[i] = m->v[i].value;
	}
	lock(c);
	ret = kab_db_iteration_store(c->db, c->run_id, it, names, vals, m->nr,
				     &c->err);
	unlock(c);
	free(names);
	free(vals);
	if (ret)
		c->failed_store = true;
	return ret;
}

static int on_stacks(void *arg, int it, const struct kab_stacks *s)
{
	struct kab_drv_run *c = arg;
	int ret;

	lock(c);
	ret = kab_db_stacks_store(c->db, c->run_id, it, s->event, s->samples,
				  s->nr,
				  (const char *const *)s->stack, s->n, &c->err);
	unlock(c);
	if (ret)
		c->failed_store = true;
	return ret;
}

static void on_log(void *arg, const char *msg)
{
	static char last[1024];
	struct kab_drv_run *c = arg;

	lock(c);
	/* the machine was busy (here or there): this run's, kept with it */
	if (!strncmp(msg, KAB_HOST_BUSY_MSG, strlen(KAB_HOST_BUSY_MSG))) {
		snprintf(c->busy, sizeof(c->busy), "%s", msg);
		drv_note(c->ui, "run %lld: %s", (long long)c->run_id, msg);
	} else if (strcmp(last, msg)) {
		/* the same note for every run of a job list is said once */
		snprintf(last, sizeof(last), "%s", msg);
		drv_note(c->ui, "%s", msg);
	}
	unlock(c);
}

static const struct kab_collect_ops store_ops = {
	.start = on_start,
	.iter_start = on_iter_start,
	.iteration = on_iteration,
	.stacks = on_stacks,
	.log = on_log,
};

static void show_command(void *arg, const char *const *argv)
{
	struct kab_drv_run *c = arg;

	if (!c->ui || !c->ui->command)
		return;
	lock(c);
	c->ui->command(c->ui->ctx, argv);
	unlock(c);
}

/* What a target said (QEMU's words, a broken KVM): the ui's note. */
static void target_note(void *arg, const char *msg)
{
	struct kab_drv_run *c = arg;

	lock(c);
	drv_note(c->ui, "%s", msg);
	unlock(c);
}

static bool on_server(const struct kab_drv_run *c)
{
	return c->lava && strcmp(c->lava->url, "local");
}

/*
 * The target's ctx is the run's (tick_ctx).  A turn of an A/B keeps
 * its job's number: a resume reads that job rather than boot again.
 */
static void lava_submitted(void *arg, long id)
{
	struct kab_drv_run *c = arg;
	struct kab_err err;

	lock(c);
	if (c->ab_id && on_server(c) &&
	    kab_db_ab_job_set(c->db, c->ab_id, c->ab_seq, c->lava->url, id,
			      &err))
		drv_note(c->ui, "%s: a resume would boot this turn again",
			 err.msg);
	if (c->ui && c->ui->lava_job)
		c->ui->lava_job(c->ui->ctx, c, id, false);
	unlock(c);
}

static void lava_followed(void *arg, long id)
{
	struct kab_drv_run *c = arg;

	lock(c);
	if (c->ui && c->ui->lava_job)
		c->ui->lava_job(c->ui->ctx, c, id, true);
	unlock(c);
}

/* A turn of an A/B on a test machine is stored as a boot too. */
static void store_turn(struct kab_drv_run *c, int ret,
		       enum kab_run_status st, const char *msg, bool *fatal)
{
	struct kab_boot_row row = {
		.run_id = c->run_id,
		.kernel_label = c->label,
		.outcome = ret ? "boot-failure" : st == KAB_RUN_OK ? "ok" :
			   st == KAB_RUN_INTERRUPTED ? "interrupted" :
			   "job-failure",
		.problem = st == KAB_RUN_OK ? NULL : msg,
		.seconds = now_mono() - c->t0,
		.ab_id = c->ab_id,
		.ab_seq = c->ab_seq,
		.host_busy = -1,
	};
	struct kab_err err;

	c->last_outcome = ret ? KAB_BOOT_FAILED : st == KAB_RUN_OK ?
			  KAB_BOOT_OK : st == KAB_RUN_INTERRUPTED ?
			  KAB_BOOT_INTERRUPTED : KAB_BOOT_JOB_FAILED;
	lock(c);
	if (kab_db_boot_insert(c->db, &row, NULL, &err)) {
		drv_error(c->ui, -1, "%s", err.msg);
		*fatal = true;
	}
	unlock(c);
}

/* The boot's own row: its facts, its console, its place in an A/B. */
static void store_boot(struct kab_drv_run *c, const struct kab_boot *boot,
		       enum kab_boot_outcome outcome, bool *fatal)
{
	struct kab_boot_row row = {
		.run_id = c->run_id,
		.kernel_label = c->label ? c->label : c->qemu->kernel,
		.kernel_path = c->qemu->kernel,
		.cmdline = c->qemu->cmdline,
		.outcome = kab_boot_outcome_name(outcome),
		.problem = boot->problem,
		.accel = boot->accel,
		.qemu_version = boot->qemu_version,
		.smp = boot->smp,
		.mem = c->qemu->mem,
		.seconds = boot->seconds,
		.hello = boot->hello,
		.first_sample = boot->first_sample,
		.entry = boot->entry,
		.console = boot->console,
		.console_len = boot->console_len,
		.ab_id = c->ab_id,
		.ab_seq = c->ab_seq,
		.host_busy = boot->host_busy,
	};
	struct kab_err err;

	lock(c);
	/* under icount the host's load is out of the numbers */
	if (boot->host_busy > KAB_HOST_BUSY &&
	    strncmp(boot->clock, "icount", 6))
		drv_note(c->ui, "run %lld: other processes kept %.0f%% of the "
			 "host's CPUs busy during this boot: under %s its "
			 "numbers are the host's as much as the kernel's; run "
			 "kab alone", (long long)c->run_id,
			 100 * boot->host_busy, boot->accel);
	if (kab_db_boot_insert(c->db, &row, NULL, &err)) {
		drv_error(c->ui, -1, "%s", err.msg);
		*fatal = true;
	}
	unlock(c);
}

/*
 * Run one expanded job; returns 0 when it ran ok.  new_job: submit a
 * LAVA job, never follow the one an A/B stored for this turn.
 */
static int run_once(struct kab_drv_run *c, bool *fatal, bool new_job)
{
	struct kab_target_opts o = {
		.job = c->job,
		.iterations = c->iterations,
		.agent_path = c->agent,
		.monitors = c->monitors,
		.stop = &kab_stop_requested,
		.tick = tick,
		.tick_ctx = c,
		.command = show_command,
		.note = target_note,
	};
	struct kab_collector *col = kab_collector_new(&store_ops, c);
	struct kab_reader_stats stats;
	struct kab_drv_done d = { 0 };
	struct kab_lava_opts lava;
	const char *msg = NULL;
	struct kab_err err;
	struct kab_boot boot = { 0 };
	enum kab_boot_outcome outcome = KAB_BOOT_OK;
	enum kab_run_status status;
	char bootmsg[512];
	double busy = -1;
	int ret;

	c->run_id = -1;
	c->busy[0] = '\0';
	c->cur = 0;
	c->failed_store = false;
	c->t0 = now_mono();
	if (!c->t_all)
		c->t_all = c->t0;
	if (c->qemu) {
		progress(c, KAB_DRV_BOOTING);
		c->boot = &boot;
		if (c->lava) {
			lava = *c->lava;
			lava.submitted = lava_submitted;
			lava.followed = lava_followed;
			lock(c);
			lava.job = c->ab_id && on_server(c) && !new_job ?
				   kab_db_ab_job_get(c->db, c->ab_id,
						     c->ab_seq, c->lava->url) :
				   0;
			unlock(c);
		}
		ret = c->lava ? kab_target_lava(&o, c->qemu, &lava, col, &boot,
						&err) :
				kab_target_qemu(&o, c->qemu, col, &boot, &err);
		status = kab_collector_finish(col, &msg);
		if (!ret)
			outcome = kab_boot_classify(&boot,
						    kab_collector_started(col),
						    status, kab_stop_requested);
		if (!ret && outcome != KAB_BOOT_OK) {
			/* Say what the boot did, not what the stream did. */
			snprintf(bootmsg, sizeof(bootmsg),
				 "boot %s%s%s (%.0f s under %s)", kab_boot_outcome_name(outcome),
				 boot.problem ? ": " : "",
				 boot.problem ? boot.problem : "",
				 boot.seconds, boot.accel);
			msg = bootmsg;
			if (outcome != KAB_BOOT_INTERRUPTED)
				status = KAB_RUN_FAILED;
			else
				status = KAB_RUN_INTERRUPTED;
		}
	} else if (c->ssh) {
		ret = kab_target_ssh(&o, c->ssh, col, &err);
		status = kab_collector_finish(col, &msg);
		if (!ret && status == KAB_RUN_INTERRUPTED &&
		    !kab_stop_requested)
			msg = "the connection dropped (or the agent died) "
			      "before the run ended";
	} else {
		o.host_busy = &busy;
		ret = kab_target_local(&o, col, &err);
		status = kab_collector_finish(col, &msg);
		if (!ret && kab_host_busy_msg(busy, c->busy,
					      sizeof(c->busy))) {
			lock(c);
			drv_note(c->ui, "run %lld: %s", (long long)c->run_id,
				 c->busy);
			unlock(c);
		}
	}
	/* the machine was busy (said above, or by the agent over ssh) */
	if (!ret && status == KAB_RUN_OK && !msg && c->busy[0])
		msg = c->busy;
	kab_collector_stats(col, &stats);
	if (c->failed_store) {
		status = KAB_RUN_FAILED;
		msg = c->err.msg;
		*fatal = true;
	} else if (ret) {
		msg = err.msg;
		*fatal = true;
	}
	lock(c);
	if (c->run_id > 0 &&
	    kab_db_run_finish(c->db, c->run_id, kab_run_status_name(status),
			      status == KAB_RUN_OK && msg != c->busy &&
			      !kab_collector_lost(col) ? NULL : msg,
			      stats.garbage_bytes, stats.bad_records, &err)) {
		drv_error(c->ui, -1, "%s", err.msg);
		*fatal = true;
	}
	c->last_outcome = ret ? KAB_BOOT_FAILED : outcome;
	c->lab_fault = c->qemu && !ret && outcome != KAB_BOOT_OK &&
		       outcome != KAB_BOOT_INTERRUPTED && boot.lab_fault;
	d.status = status;
	d.msg = msg;
	d.iterations = kab_collector_iterations(col);
	d.lost = kab_collector_lost(col);
	d.started = c->run_id > 0;
	d.garbage_bytes = stats.garbage_bytes;
	d.bad_records = stats.bad_records;
	d.outcome = c->last_outcome;
	d.boot = c->qemu && !ret ? &boot : NULL;
	if (c->ui && c->ui->run_done)
		c->ui->run_done(c->ui->ctx, c, &d);
	unlock(c);
	if (c->qemu && !ret)
		store_boot(c, &boot, outcome, fatal);
	if (c->ssh && c->ab_id)
		store_turn(c, ret, status, msg, fatal);
	kab_boot_free(&boot);
	c->boot = NULL;
	kab_collector_free(col);
	c->done_all++;
	return status == KAB_RUN_OK ? 0 : -1;
}

/*
 * A host-stall is the host's fault, not the kernel's: boot once more.
 * Twice in a row it stays what it is, and the caller says so.
 */
int kab_drv_run_one(struct kab_drv_run *r, bool *fatal)
{
	int rc = run_once(r, fatal, false);

	if (r->qemu && r->last_outcome == KAB_BOOT_HOST_STALL && !*fatal &&
	    !kab_stop_requested) {
		lock(r);
		drv_note(r->ui, "the guest reported an RCU stall or a lockup, "
			 "as an emulated CPU the host does not run for a "
			 "minute does: that boot is a host-stall, its samples "
			 "are not used; booting once more");
		unlock(r);
		rc = run_once(r, fatal, false);
	} else if (r->lab_fault && !*fatal && !kab_stop_requested) {
		lock(r);
		drv_note(r->ui, "the lab ended that job for its own reasons "
			 "(an infrastructure error), which says nothing of the "
			 "kernel: booting once more");
		unlock(r);
		/* a new job: the A/B's stored one is the job that failed */
		rc = run_once(r, fatal, true);
	}
	return rc;
}
