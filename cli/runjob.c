// SPDX-License-Identifier: GPL-2.0
/*
 * runjob.c - one job on one target, stored as it arrives.
 *
 * The runner's collector hands over whole iterations; each goes into
 * the database in a transaction of its own, so a kab killed in the
 * middle of a run loses only the iteration in flight.  A boot of the
 * qemu target is stored too, with its console.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runjob.h"

volatile int stop_requested;

void runjob_on_signal(int sig)
{
	stop_requested = sig;
}

int runjob_stop_code(int rc)
{
	/* as a shell reports a command killed by the signal: 130 for ^C */
	return stop_requested && rc != EXIT_OK ? 128 + stop_requested : rc;
}



static void fmt_secs(double s, char *buf, size_t n)
{
	long t = s < 0 ? 0 : (long)(s + 0.5);

	if (t >= 3600)
		snprintf(buf, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60,
			 t % 60);
	else
		snprintf(buf, n, "%ld:%02ld", t / 60, t % 60);
}

/* Where the run is: "[2/4 base] will-it-scale malloc1", say. */
static void progress_where(struct run_ctx *c, char *buf, size_t n)
{
	snprintf(buf, n, "[%d/%d%s%s] %s %s", c->job_nr, c->nr_jobs,
		 c->label ? " " : "", c->label ? c->label : "", c->job->suite,
		 c->job->test);
}

/* The time the rest will take at the pace so far, into eta. */
static void progress_eta(struct run_ctx *c, double now, char *eta, size_t n,
			 bool *of_all)
{
	double per, left;

	per = c->cur > 1 ? (c->t_iter - c->t0) / (c->cur - 1) : c->expected;
	left = per * (c->iterations - c->cur + 1) - (now - c->t_iter);
	*of_all = c->nr_jobs > 1 && c->done_all;
	if (*of_all) {
		/* The rest of the list at the pace so far. */
		double per_job = (c->t0 - c->t_all) / c->done_all;

		left += per_job * (c->nr_jobs - c->job_nr);
	}
	fmt_secs(left, eta, n);
}

/*
 * Off a terminal (a CI log, | tee) a plain line for each boot and each
 * iteration as it starts, with the time so far and the ETA: never the
 * live line's carriage returns, never minutes of silence.
 */
static void progress_plain(struct run_ctx *c, bool boot)
{
	char where[512], el[48], eta[48];
	double now = now_mono();
	bool of_all;

	if (c->tty || !cli_progress())
		return;
	progress_where(c, where, sizeof(where));
	fmt_secs(now - (c->t_all ? c->t_all : now), el, sizeof(el));
	if (boot) {
		fprintf(stderr, "kab: %s: booting %s, elapsed %s\n", where,
			c->qemu->kernel, el);
		return;
	}
	progress_eta(c, now, eta, sizeof(eta), &of_all);
	fprintf(stderr, "kab: %s: iteration %d of %d, elapsed %s, %s %s\n",
		where, c->cur, c->iterations, el, of_all ? "ETA of all" : "ETA",
		eta);
}

static void progress(void *arg)
{
	struct run_ctx *c = arg;
	char el[48], eta[48];
	double now = now_mono();
	bool of_all;

	if (!c->tty)
		return;
	if (!c->cur) {
		if (c->qemu) {
			fmt_secs(now - c->t0, el, sizeof(el));
			fprintf(stderr, "\r[%d/%d %s] booting %s, %s\033[K",
				c->job_nr, c->nr_jobs, c->label, c->qemu->kernel,
				el);
			fflush(stderr);
		}
		return;
	}
	fmt_secs(now - c->t0, el, sizeof(el));
	progress_eta(c, now, eta, sizeof(eta), &of_all);
	fprintf(stderr, "\r[%d/%d%s%s] %s %s: iteration %d of %d, elapsed %s, "
		"%s %s\033[K", c->job_nr, c->nr_jobs, c->qemu ? " " : "",
		c->qemu ? c->label : "", c->job->suite, c->job->test, c->cur,
		c->iterations, el, of_all ? "ETA of all" : "ETA", eta);
	fflush(stderr);
}

static void progress_clear(struct run_ctx *c)
{
	if (c->tty) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
}

static int on_start(void *arg, const struct kab_run_start *st)
{
	struct run_ctx *c = arg;
	json_t *jj = kab_job_to_json(c->job);
	struct kab_run r = { 0 };
	int ret;

	r.kernel.label = (char *)(c->label ? c->label :
				  st->release ? st->release : "unknown");
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
	if (c->qemu)
		r.kernel.image_path = (char *)c->qemu->kernel;
	r.host = st->host;
	r.iterations_planned = st->iterations;
	ret = kab_db_run_insert(c->db, &r, &c->err);
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
	struct run_ctx *c = arg;

	c->cur = it;
	c->t_iter = now_mono();
	progress(c);
	progress_plain(c, false);
}

static int on_iteration(void *arg, int it, const struct kab_metrics *m)
{
	struct run_ctx *c = arg;
	const char **names = xcalloc(m->nr, sizeof(*names));
	double *vals = xcalloc(m->nr, sizeof(*vals));
	int i, ret;

	for (i = 0; i < m->nr; i++) {
		names[i] = m->v[i].name;
		vals[i] = m->v[i].value;
	}
	ret = kab_db_iteration_store(c->db, c->run_id, it, names, vals, m->nr,
				     &c->err);
	free(names);
	free(vals);
	if (ret)
		c->failed_store = true;
	return ret;
}

static int on_stacks(void *arg, int it, const struct kab_stacks *s)
{
	struct run_ctx *c = arg;
	int ret;

	ret = kab_db_stacks_store(c->db, c->run_id, it, s->event, s->samples,
				  s->nr,
				  (const char *const *)s->stack, s->n, &c->err);
	if (ret)
		c->failed_store = true;
	return ret;
}

static void on_log(void *arg, const char *msg)
{
	static char last[1024];
	struct run_ctx *c = arg;

	/* the machine was busy (here or there): this run's, kept with it */
	if (!strncmp(msg, KAB_HOST_BUSY_MSG, strlen(KAB_HOST_BUSY_MSG))) {
		snprintf(c->busy, sizeof(c->busy), "%s", msg);
		progress_clear(c);
		cli_note("run %lld: %s", (long long)c->run_id, msg);
		return;
	}
	/* The same note for every run of a job list is said once. */
	if (!strcmp(last, msg))
		return;
	snprintf(last, sizeof(last), "%s", msg);
	progress_clear(c);
	cli_note("%s", msg);
}

static const struct kab_collect_ops store_ops = {
	.start = on_start,
	.iter_start = on_iter_start,
	.iteration = on_iteration,
	.stacks = on_stacks,
	.log = on_log,
};

char *runjob_agent_path(void)
{
	const char *env = getenv("KAB_AGENT");
	char *dir, *p;

	if (env && *env)
		return xstrdup(env);
	dir = kab_exe_dir();
	if (!dir)
		return xstrdup("kab-agent");
	/* a build tree's agent is beside kab; an installed one in libexec */
	p = xasprintf("%s/kab-agent", dir);
	if (access(p, X_OK)) {
		free(p);
		p = xasprintf("%s/../libexec/kab/kab-agent", dir);
	}
	free(dir);
	return p;
}

int runjob_clock_opt(const char *arg, struct kab_qemu_opts *q)
{
	struct kab_err err;

	if (kab_clock_parse(arg, &q->clock, &err))
		return cli_error(EXIT_USAGE, "%s", err.msg);
	return 0;
}

int runjob_qemu_check(const struct kab_qemu_opts *q)
{
	if (q->clock.kind == KAB_CLOCK_ICOUNT && q->smp > 1)
		return cli_error(EXIT_USAGE, "--smp %d with --clock icount: "
				 "QEMU 7.2 runs icount's vCPUs in turn in one "
				 "thread and never again runs a CPU the boot "
				 "CPU waits for (the boot stalls at \"Booting "
				 "SMP configuration\"): use --smp 1, or --clock "
				 "wall for more CPUs", q->smp);
	return 0;
}

char *runjob_plugin_path(void)
{
	const char *env = getenv("KAB_PLUGIN");
	char *dir, *p;

	if (env)
		return *env ? xstrdup(env) : NULL;
	dir = kab_exe_dir();
	if (!dir)
		return NULL;
	/* beside kab in a build tree, in libexec once installed */
	p = xasprintf("%s/kab-insn.so", dir);
	if (access(p, R_OK)) {
		free(p);
		p = xasprintf("%s/../libexec/kab/kab-insn.so", dir);
		if (access(p, R_OK)) {
			free(p);
			p = NULL;
		}
	}
	free(dir);
	return p;
}

/*
 * A turn of an A/B on a test machine is stored as a boot too (without
 * QEMU's facts), so that --resume knows it is done.
 */
static void store_turn(struct run_ctx *c, int ret, enum kab_run_status st,
		       const char *msg, bool *fatal)
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
	if (kab_db_boot_insert(c->db, &row, NULL, &err)) {
		cli_error(EXIT_RUN, "%s", err.msg);
		*fatal = true;
	}
}

/* Run one expanded job; returns 0 when it ran ok. */
static int run_once(struct run_ctx *c, const char *agent, bool *fatal)
{
	struct kab_target_opts o = {
		.job = c->job,
		.iterations = c->iterations,
		.agent_path = agent,
		.monitors = c->monitors,
		.stop = &stop_requested,
		.tick = progress,
		.tick_ctx = c,
		.command = cli_show_command,
	};
	struct kab_collector *col = kab_collector_new(&store_ops, c);
	struct kab_reader_stats stats;
	enum kab_run_status status;
	const char *msg = NULL;
	struct kab_err err;
	struct kab_boot boot = { 0 };
	enum kab_boot_outcome outcome = KAB_BOOT_OK;
	char *desc, *glob, bootmsg[512];
	double busy = -1;
	int ret;

	c->run_id = -1;
	c->busy[0] = '\0';
	c->cur = 0;
	c->t0 = now_mono();
	if (!c->t_all)
		c->t_all = c->t0;
	if (c->qemu) {
		progress_plain(c, true);
		c->boot = &boot;
		ret = c->lava ? kab_target_lava(&o, c->qemu, c->lava, col,
						&boot, &err) :
				kab_target_qemu(&o, c->qemu, col, &boot, &err);
		status = kab_collector_finish(col, &msg);
		if (!ret)
			outcome = kab_boot_classify(&boot,
						    kab_collector_started(col),
						    status, stop_requested);
		if (!ret && outcome != KAB_BOOT_OK) {
			/* Say what the boot did, not what the stream did. */
			snprintf(bootmsg, sizeof(bootmsg), "boot %s%s%s (%.0f s "
				 "under %s)", kab_boot_outcome_name(outcome),
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
		if (!ret && status == KAB_RUN_INTERRUPTED && !stop_requested)
			msg = "the connection dropped (or the agent died) "
			      "before the run ended";
	} else {
		o.host_busy = &busy;
		ret = kab_target_local(&o, col, &err);
		status = kab_collector_finish(col, &msg);
		if (!ret && kab_host_busy_msg(busy, c->busy,
					      sizeof(c->busy)))
			cli_note("run %lld: %s", (long long)c->run_id,
				 c->busy);
	}
	/* the machine was busy (said above, or by the agent over ssh) */
	if (!ret && status == KAB_RUN_OK && !msg && c->busy[0])
		msg = c->busy;
	kab_collector_stats(col, &stats);
	progress_clear(c);
	if (c->failed_store) {
		status = KAB_RUN_FAILED;
		msg = c->err.msg;
		*fatal = true;
	} else if (ret) {
		msg = err.msg;
		*fatal = true;
	}
	if (c->run_id > 0 &&
	    kab_db_run_finish(c->db, c->run_id, kab_run_status_name(status),
			      status == KAB_RUN_OK && msg != c->busy &&
			      !kab_collector_lost(col) ? NULL : msg,
			      stats.garbage_bytes, stats.bad_records, &err)) {
		cli_error(EXIT_RUN, "%s", err.msg);
		*fatal = true;
	}
	desc = kab_job_describe(c->job);
	if (c->run_id <= 0) {
		cli_error(EXIT_RUN, "%s %s did not start: %s", c->job->suite,
			  c->job->test, msg ? msg : "no run record");
	} else if (status == KAB_RUN_OK && c->brief && !c->qemu) {
		printf("turn %d/%d %s: run %lld ok, %d iteration%s\n",
		       c->job_nr, c->nr_jobs, c->label, (long long)c->run_id,
		       kab_collector_iterations(col),
		       kab_collector_iterations(col) == 1 ? "" : "s");
		fflush(stdout);
	} else if (status == KAB_RUN_OK && c->brief) {
		printf("boot %d/%d %s: run %lld ok, %d iteration%s, agent up "
		       "after %.1f s, first sample at %.1f s, %.0f s under "
		       "%s (%s)\n", c->job_nr, c->nr_jobs, c->label,
		       (long long)c->run_id, kab_collector_iterations(col),
		       kab_collector_iterations(col) == 1 ? "" : "s",
		       boot.hello, boot.first_sample, boot.seconds, boot.accel,
		       boot.entry);
		fflush(stdout);
	} else if (status == KAB_RUN_OK) {
		printf("run %lld: %s %s (%s): %d iteration%s, stored in %s\n",
		       (long long)c->run_id, c->job->suite, c->job->test, desc,
		       kab_collector_iterations(col),
		       kab_collector_iterations(col) == 1 ? "" : "s",
		       kab_db_path(c->db));
		glob = xasprintf("%s.*", c->job->suite);
		cli_print_summary(stdout, c->db, c->run_id, glob, &err);
		free(glob);
		printf("\n");
	} else {
		cli_error(EXIT_RUN, "run %lld %s: %s %s: %s (%d of %d "
			  "iterations stored in %s)", (long long)c->run_id,
			  kab_run_status_name(status), c->job->suite,
			  c->job->test, msg ? msg : "no reason given",
			  kab_collector_iterations(col), c->iterations,
			  kab_db_path(c->db));
	}
	if (status == KAB_RUN_OK && kab_collector_lost(col))
		cli_note("run %lld: %s",
			(long long)c->run_id, msg);
	if (stats.garbage_bytes || stats.bad_records) {
		char run[32] = "";

		if (c->run_id > 0)
			snprintf(run, sizeof(run), "run %lld: ",
				 (long long)c->run_id);
		cli_note("%sskipped %llu bytes of noise and "
			"%llu bad records in the stream", run,
			(unsigned long long)stats.garbage_bytes,
			(unsigned long long)stats.bad_records);
	}
	c->last_outcome = ret ? KAB_BOOT_FAILED : outcome;
	if (c->qemu && !ret) {
		struct kab_boot_row row = {
			.run_id = c->run_id,
			.kernel_label = c->label ? c->label : c->qemu->kernel,
			.kernel_path = c->qemu->kernel,
			.cmdline = c->qemu->cmdline,
			.outcome = kab_boot_outcome_name(outcome),
			.problem = boot.problem,
			.accel = boot.accel,
			.qemu_version = boot.qemu_version,
			.smp = boot.smp,
			.mem = c->qemu->mem,
			.seconds = boot.seconds,
			.hello = boot.hello,
			.first_sample = boot.first_sample,
			.entry = boot.entry,
			.console = boot.console,
			.console_len = boot.console_len,
			.ab_id = c->ab_id,
			.ab_seq = c->ab_seq,
			.host_busy = boot.host_busy,
		};

		/* under icount the host's load is out of the numbers */
		if (boot.host_busy > KAB_HOST_BUSY &&
		    strncmp(boot.clock, "icount", 6))
			cli_note("run %lld: other processes "
				"kept %.0f%% of the host's CPUs busy during this "
				"boot: under %s its numbers are the host's as "
				"much as the kernel's; run kab alone",
				(long long)c->run_id, 100 * boot.host_busy,
				boot.accel);
		if (kab_db_boot_insert(c->db, &row, NULL, &err)) {
			cli_error(EXIT_RUN, "%s", err.msg);
			*fatal = true;
		}
	}
	if (c->ssh && c->ab_id)
		store_turn(c, ret, status, msg, fatal);
	if (c->qemu && !ret && outcome != KAB_BOOT_OK && boot.console_len) {
		/* The end of the console says why; all of it is kept. */
		const char *p = boot.console + boot.console_len;
		int lines = 0;

		while (p > boot.console && lines < 6)
			if (*--p == '\n')
				lines++;
		fput_note_lines(stderr, "the console's last lines",
				p + (*p == '\n'));
	}
	kab_boot_free(&boot);
	c->boot = NULL;
	free(desc);
	kab_collector_free(col);
	c->done_all++;
	return status == KAB_RUN_OK ? 0 : -1;
}

/*
 * A host-stall is the host's fault, not the kernel's: boot once more.
 * Twice in a row it stays what it is, and the caller says so.
 */
int runjob_one(struct run_ctx *c, const char *agent, bool *fatal)
{
	int rc = run_once(c, agent, fatal);

	if (c->qemu && c->last_outcome == KAB_BOOT_HOST_STALL && !*fatal &&
	    !stop_requested) {
		cli_note("the guest reported an RCU stall "
			"or a lockup, as an emulated CPU the host does not run "
			"for a minute does: that boot is a host-stall, its "
			"samples are not used; booting once more");
		rc = run_once(c, agent, fatal);
	}
	return rc;
}

int runjob_dry_run(struct run_ctx *c, struct kab_qemu_opts *q,
		   const struct kab_lava_opts *l,
		   const struct kab_joblist *lists, int nr_files)
{
	char *kernel = NULL, *cache, *agent, *yaml, *desc;
	struct strbuf sb = STRBUF_INIT, vis = STRBUF_INIT;
	struct kab_err err;
	int i, j, rc = EXIT_OK;

	if (!q->kernel) {
		kernel = kab_default_kernel();
		if (!kernel)
			return cli_error(EXIT_USAGE, "no kernel in /boot: give "
					 "--kernel PATH, or install "
					 "linux-image-amd64 (make deps)");
		q->kernel = kernel;
	}
	cache = cli_cache_dir();
	if (!cache) {
		free(kernel);
		return EXIT_RUN;
	}
	q->cache_dir = cache;
	agent = runjob_agent_path();
	for (i = 0; i < nr_files && !rc; i++)
		for (j = 0; j < lists[i].nr && !rc; j++) {
			struct kab_target_opts o = {
				.job = &lists[i].jobs[j],
				.iterations = c->iterations,
				.agent_path = agent,
				.monitors = c->monitors,
			};

			yaml = kab_lava_definition(&o, q, l, &err);
			if (!yaml) {
				rc = cli_error(kab_kernel_check(q->kernel, NULL) ?
					       EXIT_USAGE : EXIT_RUN, "%s",
					       err.msg);
				break;
			}
			desc = kab_job_describe(o.job);
			/* a comment stays one line: \n shows as \\n */
			strbuf_addf(&sb, "%s %s (%s)", o.job->suite,
				    o.job->test, desc);
			strbuf_add_visible(&vis, sb.buf, sb.len);
			printf("---\n# kab: %s, %d iteration%s\n%s", vis.buf,
			       c->iterations, c->iterations == 1 ? "" : "s",
			       yaml);
			strbuf_reset(&sb);
			strbuf_reset(&vis);
			free(desc);
			free(yaml);
		}
	q->kernel = NULL;
	q->cache_dir = NULL;
	strbuf_release(&sb);
	strbuf_release(&vis);
	free(kernel);
	free(cache);
	free(agent);
	return rc;
}

/* Where the user finds the job LAVA took: its page on the server. */
static void lava_submitted(void *arg, long id)
{
	struct run_ctx *c = arg;
	const char *url = c->lava->url;
	size_t n = strlen(url);

	if (cli_verbosity < 0)
		return;
	if (c->tty)
		fputs("\r\033[K", stderr);
	fprintf(stderr, "kab: [%d/%d] LAVA job %ld: %s%sscheduler/job/%ld\n",
		c->job_nr, c->nr_jobs, id, url,
		n && url[n - 1] == '/' ? "" : "/", id);
}

int runjob_lava_target(const char *target, bool dry_run,
		       struct kab_lava_opts *l)
{
	const char *env = getenv("KAB_LAVA_TOKEN");
	struct kab_lava_server srv;
	struct kab_err err;

	l->url = target + 5;
	l->lava_run = getenv("KAB_LAVA_RUN");
	l->submitted = lava_submitted;
	l->method = l->device_type && strcmp(l->device_type, "qemu") ?
		    "tftp" : "qemu";
	l->files_dir = cli_config_get("lava", "files");
	l->files_url = cli_config_get("lava", "files-url");
	if (!l->files_dir != !l->files_url)
		return cli_error(EXIT_USAGE, "%s: [lava] files and files-url "
				 "go together: the directory the lab fetches "
				 "from and its URL", cli_config_path());
	if (!strcmp(l->url, "local"))
		return 0;
	l->token = env && *env ? env : cli_config_get("lava", "token");
	if (kab_lava_server_init(&srv, l->url, l->token, &err))
		return cli_error(EXIT_USAGE, "%s", err.msg);
	kab_lava_server_free(&srv);
	if (!l->token && !dry_run)
		return cli_error(EXIT_USAGE, "no LAVA token: set KAB_LAVA_TOKEN "
				 "or [lava] token in %s to a user token of the "
				 "lab (never on the command line)",
				 cli_config_path() ? cli_config_path() :
				 "~/.config/kab/config");
	return 0;
}
