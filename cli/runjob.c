// SPDX-License-Identifier: GPL-2.0
/*
 * runjob.c - what the driver says, said on the command line: the
 * progress line (live on a terminal, a line per step off one), each
 * finished run's line or summary, notes and errors; and the options
 * kab run, ab and bisect share (--clock, --target lava:, --dry-run).
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runjob.h"

void runjob_on_signal(int sig)
{
	kab_stop_requested = sig;
}

int runjob_stop_code(int rc)
{
	/* as a shell reports a command killed by the signal: 130 for ^C */
	return kab_stop_requested && rc != EXIT_OK ?
	       128 + kab_stop_requested : rc;
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
static void progress_where(const struct kab_drv_run *c, char *buf, size_t n)
{
	snprintf(buf, n, "[%d/%d%s%s] %s %s", c->job_nr, c->nr_jobs,
		 c->label ? " " : "", c->label ? c->label : "", c->job->suite,
		 c->job->test);
}

/* The time the rest will take at the pace so far, into eta. */
static void progress_eta(const struct kab_drv_run *c, double now, char *eta,
			 size_t n, bool *of_all)
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
static void progress_plain(const struct kab_drv_run *c, bool boot)
{
	char where[512], el[48], eta[48];
	double now = now_mono();
	bool of_all;

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

static void progress_live(const struct kab_drv_run *c)
{
	char el[48], eta[48];
	double now = now_mono();
	bool of_all;

	if (!c->cur) {
		if (!c->qemu)
			return;
		fmt_secs(now - c->t0, el, sizeof(el));
		/* a lab's job waits for a device before it boots */
		if (c->boot && c->boot->lava_queued)
			fprintf(stderr, "\r[%d/%d%s%s] LAVA job %ld queued, "
				"waiting for a device, %s\033[K", c->job_nr,
				c->nr_jobs, c->label ? " " : "",
				c->label ? c->label : "", c->boot->lava_queued,
				el);
		else
			fprintf(stderr, "\r[%d/%d%s%s] booting %s, %s\033[K",
				c->job_nr, c->nr_jobs, c->label ? " " : "",
				c->label ? c->label : "", c->qemu->kernel, el);
		fflush(stderr);
		return;
	}
	fmt_secs(now - c->t0, el, sizeof(el));
	progress_eta(c, now, eta, sizeof(eta), &of_all);
	fprintf(stderr, "\r[%d/%d%s%s] %s %s: iteration %d of %d, elapsed %s, "
		"%s %s\033[K", c->job_nr, c->nr_jobs,
		c->qemu && c->label ? " " : "",
		c->qemu && c->label ? c->label : "", c->job->suite,
		c->job->test, c->cur,
		c->iterations, el, of_all ? "ETA of all" : "ETA", eta);
	fflush(stderr);
}

static void ui_progress(void *arg, const struct kab_drv_run *r,
			enum kab_drv_step step)
{
	struct runjob_ui *u = arg;

	if (u->tty)
		progress_live(r);
	else if (step != KAB_DRV_TICK && cli_progress())
		progress_plain(r, step == KAB_DRV_BOOTING);
}

static void progress_clear(struct runjob_ui *u)
{
	if (u->tty) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
}

static void ui_error(void *arg, const char *msg)
{
	progress_clear(arg);
	cli_error(EXIT_RUN, "%s", msg);
}

/* one note a line: what QEMU said comes as its title and its lines */
static void ui_note(void *arg, const char *msg)
{
	progress_clear(arg);
	cli_notes(msg);
}

static void ui_info(void *arg, const char *msg)
{
	struct strbuf vis = STRBUF_INIT;

	if (!cli_progress())
		return;
	progress_clear(arg);
	strbuf_add_visible(&vis, msg, strlen(msg));
	fprintf(stderr, "kab: %s\n", vis.buf ? vis.buf : "");
	strbuf_release(&vis);
}

static void ui_command(void *arg, const char *const *argv)
{
	cli_show_command(arg, argv);
}

/* A finished run: a line (kab ab, bisect) or its summary (kab run). */
static void ui_run_done(void *arg, const struct kab_drv_run *c,
			const struct kab_drv_done *d)
{
	struct runjob_ui *u = arg;
	const struct kab_boot *boot = d->boot;
	struct strbuf vis = STRBUF_INIT;
	const char *name;
	char *desc, *glob;
	struct kab_err err;

	progress_clear(u);
	/* the label, or the release the guest reported: shown, not obeyed */
	name = c->label ? c->label : c->stored_label;
	strbuf_add_visible(&vis, name, strlen(name));
	desc = kab_job_describe(c->job);
	if (!d->started) {
		cli_error(EXIT_RUN, "%s %s did not start: %s", c->job->suite,
			  c->job->test, d->msg ? d->msg : "no run record");
	} else if (d->status == KAB_RUN_OK && u->brief && !c->qemu) {
		printf("turn %d/%d %s: run %lld ok, %d iteration%s\n",
		       c->job_nr, c->nr_jobs, vis.buf, (long long)c->run_id,
		       d->iterations, d->iterations == 1 ? "" : "s");
		fflush(stdout);
	} else if (d->status == KAB_RUN_OK && u->brief && boot) {
		printf("boot %d/%d %s: run %lld ok, %d iteration%s, agent up "
		       "after %.1f s, first sample at %.1f s, %.0f s under "
		       "%s (%s)\n", c->job_nr, c->nr_jobs, vis.buf,
		       (long long)c->run_id, d->iterations,
		       d->iterations == 1 ? "" : "s", boot->hello,
		       boot->first_sample, boot->seconds, boot->accel,
		       boot->entry);
		fflush(stdout);
	} else if (d->status == KAB_RUN_OK) {
		printf("run %lld: %s %s (%s): %d iteration%s, stored in %s\n",
		       (long long)c->run_id, c->job->suite, c->job->test, desc,
		       d->iterations, d->iterations == 1 ? "" : "s",
		       kab_db_path(c->db));
		glob = xasprintf("%s.*", c->job->suite);
		cli_print_summary(stdout, c->db, c->run_id, glob, &err);
		free(glob);
		printf("\n");
	} else {
		cli_error(EXIT_RUN, "run %lld %s: %s %s: %s (%d of %d "
			  "iterations stored in %s)", (long long)c->run_id,
			  kab_run_status_name(d->status), c->job->suite,
			  c->job->test, d->msg ? d->msg : "no reason given",
			  d->iterations, c->iterations, kab_db_path(c->db));
	}
	if (d->status == KAB_RUN_OK && d->lost)
		cli_note("run %lld: %s", (long long)c->run_id, d->msg);
	if (d->garbage_bytes || d->bad_records) {
		char run[32] = "";

		if (d->started)
			snprintf(run, sizeof(run), "run %lld: ",
				 (long long)c->run_id);
		cli_note("%sskipped %llu bytes of noise and %llu bad records "
			 "in the stream", run,
			 (unsigned long long)d->garbage_bytes,
			 (unsigned long long)d->bad_records);
	}
	if (boot && d->outcome != KAB_BOOT_OK && boot->console_len) {
		/* The end of the console says why; all of it is kept. */
		const char *p = boot->console + boot->console_len;
		int lines = 0;

		while (p > boot->console && lines < 6)
			if (*--p == '\n')
				lines++;
		fput_note_lines(stderr, "the console's last lines",
				p + (*p == '\n'));
	}
	strbuf_release(&vis);
	free(desc);
}

/* Where the user finds the job LAVA took: its page on the server. */
static void ui_lava_job(void *arg, const struct kab_drv_run *c, long id,
			bool followed)
{
	const char *url = c->lava->url;
	size_t n = strlen(url);

	if (cli_verbosity < 0)
		return;
	progress_clear(arg);
	fprintf(stderr, "kab: [%d/%d%s%s] LAVA job %ld%s%s: %s%sscheduler/job/"
		"%ld\n", c->job_nr, c->nr_jobs, c->label ? " " : "",
		c->label ? c->label : "", id, c->lava->tag ? " on " : "",
		c->lava->tag ? c->lava->tag : "", url,
		n && url[n - 1] == '/' ? "" : "/", id);
	if (followed)
		fprintf(stderr, "kab: LAVA job %ld went on while kab was "
			"stopped: reading it, not booting again\n", id);
}

/* kab ab's look at a KPI. */
static void ui_look(void *arg, const struct kab_drv_look *l)
{
	const struct kab_seq *q = &l->seq;

	progress_clear(arg);
	fprintf(stderr, "kab: look %zu of %zu (%zu against %zu boots): "
		"%s %s -> %s ", l->look_nr, l->looks, l->n[0], l->n[1],
		l->kpi, l->labels[0], l->labels[1]);
	if (isnan(q->change))
		fprintf(stderr, "cannot be tested yet");
	else
		fprintf(stderr, "%+.1f%%, %.1f%% interval [%+.1f%%, "
			"%+.1f%%]", q->change, 100 * (1 - q->alpha),
			q->lo, q->hi);
	fprintf(stderr, ": %s%s\n", kab_seq_verdict_name(q->verdict),
		q->verdict == KAB_SEQ_CHANGED ? " beyond the noise" :
		q->verdict == KAB_SEQ_SAME ? " within the noise" :
		q->verdict != KAB_SEQ_UNDECIDED ? "" : l->looks > 1 ?
		" at --max-boots (more boots or a wider --noise "
		"could answer it)" : " (--max-boots N boots on until "
		"it is answered)");
}

void runjob_ui_init(struct runjob_ui *u, bool brief)
{
	memset(u, 0, sizeof(*u));
	u->tty = cli_live_progress();
	u->brief = brief;
	u->ui = (struct kab_drv_ui){
		.ctx = u,
		.error = ui_error,
		.note = ui_note,
		.info = ui_info,
		.progress = ui_progress,
		.run_done = ui_run_done,
		.lava_job = ui_lava_job,
		.look = ui_look,
		.command = ui_command,
		.live_build = u->tty,
	};
}

int runjob_clock_opt(const char *arg, struct kab_qemu_opts *q)
{
	struct kab_err err;

	if (kab_clock_parse(arg, &q->clock, &err))
		return cli_error(EXIT_USAGE, "%s", err.msg);
	return 0;
}

int runjob_layout_seed_opt(const char *arg, unsigned long long *first)
{
	struct kab_err err;

	if (kab_layout_seed_parse(arg, first, &err))
		return cli_error(EXIT_USAGE, "%s", err.msg);
	return 0;
}

int runjob_layout_seeds_fit(unsigned long long first, long boots)
{
	if (boots > 0 && first + (unsigned long long)boots - 1 >
	    KAB_LAYOUT_SEED_MAX)
		return cli_error(EXIT_USAGE, "--layout-seed %llu: %ld boots "
				 "take seeds past %llu; give a smaller one",
				 first, boots, KAB_LAYOUT_SEED_MAX);
	return 0;
}

int runjob_qemu_check(const struct kab_qemu_opts *q)
{
	struct kab_err err;

	if (kab_drv_qemu_check(q, &err))
		return cli_error(EXIT_USAGE, "%s", err.msg);
	return 0;
}

int runjob_model_check(const struct kab_qemu_opts *q, const char *target,
		       const char *monitors)
{
	if (!q->model || ((!target || !strcmp(target, "qemu")) &&
			  kab_monitor_selected(monitors, "perf-stat")))
		return 0;
	return cli_error(EXIT_USAGE, "--model %s: the model is counted by "
			 "kab's QEMU plugin, with perf-stat's rows: give "
			 "--target qemu and a --monitors with perf-stat",
			 q->model);
}

int runjob_dry_run(int iterations, const char *monitors,
		   const struct kab_qemu_opts *qemu,
		   const struct kab_lava_opts *l,
		   const struct kab_joblist *lists, int nr_files)
{
	char *kernel = NULL, *cache, *agent, *yaml, *desc;
	struct strbuf sb = STRBUF_INIT, vis = STRBUF_INIT;
	struct kab_qemu_opts boot = *qemu, *q = &boot;
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
	agent = kab_drv_agent_path();
	for (i = 0; i < nr_files && !rc; i++)
		for (j = 0; j < lists[i].nr && !rc; j++) {
			struct kab_target_opts o = {
				.job = &lists[i].jobs[j],
				.iterations = iterations,
				.agent_path = agent,
				.monitors = monitors,
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
			       iterations, iterations == 1 ? "" : "s",
			       yaml);
			strbuf_reset(&sb);
			strbuf_reset(&vis);
			free(desc);
			free(yaml);
		}
	strbuf_release(&sb);
	strbuf_release(&vis);
	free(kernel);
	free(cache);
	free(agent);
	return rc;
}

/* [lava] KEY: 1 to 86400 seconds, or left as it is when unset */
static int lava_seconds(const char *key, double *v)
{
	const char *s = cli_config_get("lava", key);
	char *end;

	if (!s)
		return 0;
	/* strtod's ERANGE is a value outside 1 to 86400 already */
	*v = strtod(s, &end);
	if (end == s || *end || !(*v >= 1) || *v > 86400)
		return cli_error(EXIT_USAGE, "%s: [lava] %s '%s' is not a "
				 "number of seconds from 1 to 86400",
				 cli_config_path(), key, s);
	return 0;
}

int runjob_lava_target(const char *target, bool dry_run,
		       struct kab_lava_opts *l)
{
	/* kept for the process: once read, the environment has it no more */
	static char *token;
	const char *env = getenv("KAB_LAVA_TOKEN");
	struct kab_lava_server srv;
	struct kab_err err;

	/*
	 * The token stays in kab: the children kab runs (git, make, QEMU,
	 * lava-run, a job's own commands) do not inherit it.
	 */
	if (env && *env && !token)
		token = xstrdup(env);
	unsetenv("KAB_LAVA_TOKEN");

	l->url = target + 5;
	l->lava_run = getenv("KAB_LAVA_RUN");
	l->method = l->device_type && strcmp(l->device_type, "qemu") ?
		    "tftp" : "qemu";
	l->files_dir = cli_config_get("lava", "files");
	l->files_url = cli_config_get("lava", "files-url");
	if (!l->files_dir != !l->files_url)
		return cli_error(EXIT_USAGE, "%s: [lava] files and files-url "
				 "go together: the directory the lab fetches "
				 "from and its URL", cli_config_path());
	if (lava_seconds("grace", &l->grace) ||
	    lava_seconds("boot-timeout", &l->boot_timeout))
		return EXIT_USAGE;
	if (!strcmp(l->url, "local"))
		return 0;
	l->token = token ? token : cli_config_get("lava", "token");
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
