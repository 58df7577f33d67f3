// SPDX-License-Identifier: GPL-2.0
/*
 * agent.c - execute a job on the machine under test and write records.
 *
 * The same code runs as a child of kab (local target), as a guest's
 * /init (qemu target) and over ssh.  For every iteration it forks the
 * workload into a child that waits on a pipe, starts the monitors on
 * that child, releases it, samples the monitors every second, and when
 * the child exits adds its rusage as <suite>.time.* metrics.  All
 * metrics of an iteration go out before the iteration's "iter_end", so
 * the host can store an iteration whole or not at all.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"
#include "mark.h"

static volatile sig_atomic_t agent_stop;

/* Stop at the next chance; an agent that cannot stop in 30 s dies. */
static void on_signal(int sig)
{
	if (!agent_stop)
		alarm(30);
	agent_stop = sig;
}

struct agent {
	const struct kab_agent_opts *o;
	const struct kab_workload *w;
	int nr_cpus;
	bool dead_host;		/* the stream cannot be written any more */
	json_int_t seq;		/* records numbered on a lossy console */
};

/*
 * One record; on a console that loses bytes, numbered and written twice
 * (the reader keeps the first whole copy), but for a profile's stacks:
 * large, and an iteration is whole without them.
 */
static void emit(struct agent *a, const char *type, json_t *body)
{
	int copies = 1;

	if (a->o->twice && strcmp(type, "stacks")) {
		json_object_set_new(body, "seq", json_integer(++a->seq));
		copies = 2;
	}
	while (copies-- && !a->dead_host)
		if (kab_record_write(a->o->out_fd, type, body))
			a->dead_host = true;
	json_decref(body);
}

static void emit_msg(struct agent *a, const char *type, const char *msg)
{
	emit(a, type, json_pack("{s:s}", "message", msg));
}

static void emit_metrics(struct agent *a, const char *type, int iteration,
			 const char *source, const struct kab_metrics *m)
{
	json_t *vals = json_object();
	int i;

	for (i = 0; i < m->nr; i++)
		json_object_set_new(vals, m->v[i].name, json_real(m->v[i].value));
	emit(a, type, json_pack("{s:i, s:s, s:o}", "iteration", iteration,
				"source", source, "metrics", vals));
}

/*
 * A profile's folded stacks, for flame graphs: a record of its own, not
 * counted in iter_end's records (a kab that does not know the type
 * drops it and keeps the iteration), at most half a record's bytes.
 */
static void emit_stacks(struct agent *a, int iteration, const char *source,
			const struct kab_stacks *st)
{
	json_t *stacks = json_object();
	size_t i, bytes = 0;

	for (i = 0; i < st->nr; i++) {
		bytes += strlen(st->stack[i]) + 24;
		if (bytes > KAB_RECORD_MAX / 2)
			break;
		json_object_set_new(stacks, st->stack[i],
				    json_integer((json_int_t)st->n[i]));
	}
	emit(a, "stacks", json_pack("{s:i, s:s, s:s, s:I, s:o}", "iteration",
				    iteration, "source", source, "event",
				    st->event ? st->event : "",
				    "samples", (json_int_t)st->samples,
				    "stacks", stacks));
}

/* The child: run one iteration and write "M name value" / "E msg" lines. */
static void child_main(struct agent *a, int go_fd, int res_fd)
{
	struct kab_runctx ctx = {
		.job = a->o->job,
		.nr_cpus = a->nr_cpus,
		.tmpdir = a->o->tmpdir,
		.exact = a->o->exact,
	};
	struct kab_metrics m = { 0 };
	struct strbuf sb = STRBUF_INIT;
	struct kab_err err = { { 0 } };
	char c;
	int i, ret;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	while (read(go_fd, &c, 1) < 0 && errno == EINTR)
		;
	close(go_fd);
	ret = a->w->run(&ctx, &m, &err);
	if (ret) {
		strbuf_addf(&sb, "E %s\n", err.msg[0] ? err.msg :
			    "the workload failed");
	} else {
		for (i = 0; i < m.nr; i++)
			strbuf_addf(&sb, "M %s %.17g\n", m.v[i].name,
				    m.v[i].value);
	}
	write_all(res_fd, sb.buf, sb.len);
	kab_child_exit(ret ? 1 : 0);
}

/* Parse the child's lines; returns -1 with err on "E" or garbage. */
static int parse_child(const char *text, struct kab_metrics *m,
		       struct kab_err *err)
{
	char *copy = xstrdup(text), *line, *save;
	int ret = 0;

	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *sp, *end;
		double v;

		if (line[0] == 'E' && line[1] == ' ') {
			ret = kab_err_set(err, "%s", line + 2);
			break;
		}
		sp = strrchr(line, ' ');
		if (line[0] != 'M' || line[1] != ' ' || !sp || sp == line + 1)
			continue;
		*sp = '\0';
		v = strtod(sp + 1, &end);
		if (end != sp + 1 && !*end)
			kab_metrics_add(m, line + 2, v);
	}
	free(copy);
	if (!ret && !m->nr)
		ret = kab_err_set(err, "the workload reported no metrics");
	return ret;
}

static void time_metrics(const char *suite, const struct rusage *ru,
			 double elapsed, struct kab_metrics *m)
{
	double u = ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6;
	double s = ru->ru_stime.tv_sec + ru->ru_stime.tv_usec / 1e6;

	kab_metrics_addf(m, u, "%s.time.user_time", suite);
	kab_metrics_addf(m, s, "%s.time.system_time", suite);
	kab_metrics_addf(m, elapsed, "%s.time.elapsed_time", suite);
	kab_metrics_addf(m, elapsed > 0 ? (long)(100 * (u + s) / elapsed) : 0,
			 "%s.time.percent_of_cpu_this_job_got", suite);
	kab_metrics_addf(m, ru->ru_maxrss,
			 "%s.time.maximum_resident_set_size", suite);
	kab_metrics_addf(m, ru->ru_minflt, "%s.time.minor_page_faults", suite);
	kab_metrics_addf(m, ru->ru_majflt, "%s.time.major_page_faults", suite);
	kab_metrics_addf(m, ru->ru_nvcsw,
			 "%s.time.voluntary_context_switches", suite);
	kab_metrics_addf(m, ru->ru_nivcsw,
			 "%s.time.involuntary_context_switches", suite);
}

struct running {
	const struct kab_monitor *mon;
	struct kab_monitor_state *st;
};

/*
 * One iteration; 0 ok, -1 failed (err set), 1 interrupted.  *records
 * counts the metric records sent, for the iter_end record.
 */
static int iteration(struct agent *a, int it, int *records,
		     struct kab_err *err)
{
	struct running *mons;
	struct kab_metrics m = { 0 };
	struct strbuf out = STRBUF_INIT;
	int go[2], res[2], status, nr_mons = 0, i, ret = -1;
	double t0, next_tick, elapsed;
	struct rusage ru;
	pid_t pid;

	if (pipe2(go, O_CLOEXEC) || pipe2(res, O_CLOEXEC))
		return kab_err_set(err, "pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		return kab_err_set(err, "fork: %s", strerror(errno));
	if (pid == 0) {
		close(go[1]);
		close(res[0]);
		child_main(a, go[0], res[1]);
	}
	close(go[0]);
	close(res[1]);

	/* room for every monitor there is, however many are selected */
	for (i = 0; kab_monitors[i]; i++)
		;
	mons = xcalloc(i, sizeof(*mons));
	kab_profile_set_freq(kab_monitor_profile_freq(a->o->monitors));
	kab_profile_set_machine(a->o->guest);
	for (i = 0; kab_monitors[i]; i++) {
		struct kab_err note = { { 0 } };
		struct kab_monitor_state *st;

		if (!kab_monitor_selected(a->o->monitors, kab_monitors[i]->name))
			continue;
		st = kab_monitors[i]->start(pid, &note);
		if (note.msg[0] && it == 1)
			emit_msg(a, "log", note.msg);
		if (!st)
			continue;
		mons[nr_mons].mon = kab_monitors[i];
		mons[nr_mons++].st = st;
	}
	t0 = now_mono();
	next_tick = t0 + 1;
	/* the iteration's instructions are counted from here (mark.h) */
	KAB_MARK(KAB_MARK_START);
	close(go[1]);		/* go */

	for (;;) {
		struct pollfd pfd = { .fd = res[0], .events = POLLIN };
		int wait_ms = (int)((next_tick - now_mono()) * 1000);
		char buf[4096];
		ssize_t n;

		if (agent_stop) {
			kill(pid, SIGKILL);
			ret = 1;
		}
		if (wait_ms < 0)
			wait_ms = 0;
		n = poll(&pfd, 1, ret == 1 ? 0 : wait_ms);
		if (n > 0) {
			n = read(res[0], buf, sizeof(buf));
			if (n > 0)
				strbuf_add(&out, buf, n);
			if (n == 0)
				break;
		} else if (ret == 1) {
			break;
		}
		if (now_mono() >= next_tick) {
			for (i = 0; i < nr_mons; i++)
				if (mons[i].mon->tick)
					mons[i].mon->tick(mons[i].st);
			next_tick += 1;
		}
	}
	close(res[0]);
	while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR)
		;
	KAB_MARK(KAB_MARK_END);
	elapsed = now_mono() - t0;
	kab_reap_orphans();

	if (ret == 1 || agent_stop) {
		for (i = 0; i < nr_mons; i++) {
			struct kab_metrics drop = { 0 };

			mons[i].mon->stop(mons[i].st, elapsed, &drop, NULL);
			kab_metrics_free(&drop);
		}
		free(mons);
		strbuf_release(&out);
		return 1;
	}
	ret = parse_child(out.buf ? out.buf : "", &m, err);
	if (ret && WIFSIGNALED(status))
		kab_err_set(err, "the workload died of signal %d (%s)",
			    WTERMSIG(status), strsignal(WTERMSIG(status)));
	if (!ret) {
		time_metrics(a->o->job->suite, &ru, elapsed, &m);
		emit_metrics(a, "sample", it, a->o->job->test, &m);
		(*records)++;
	}
	for (i = 0; i < nr_mons; i++) {
		struct kab_metrics mm = { 0 };
		struct kab_stacks stacks = { 0 };

		mons[i].mon->stop(mons[i].st, elapsed, &mm, &stacks);
		if (!ret && mm.nr) {
			emit_metrics(a, "monitor", it, mons[i].mon->name, &mm);
			(*records)++;
		}
		if (!ret && stacks.nr)
			emit_stacks(a, it, mons[i].mon->name, &stacks);
		kab_metrics_free(&mm);
		kab_stacks_free(&stacks);
	}
	free(mons);
	kab_metrics_free(&m);
	strbuf_release(&out);
	return ret;
}

/* Parameters that depend on the machine, resolved here. */
static json_t *resolved_params(struct agent *a)
{
	const struct kab_pdesc *d;
	json_t *o = json_object();
	int n;

	for (d = a->w->params; d->key; d++) {
		const char *v = kab_job_get(a->o->job, d->key);

		if (d->type == KAB_P_TASKS && v &&
		    !kab_parse_tasks(v, a->nr_cpus, &n, NULL))
			json_object_set_new(o, d->key, json_integer(n));
	}
	return o;
}

/*
 * Other processes' share of the machine's CPUs over the run (the
 * agent's own and its workload's left out), said when it is more than
 * KAB_HOST_BUSY: here or on a test machine, the numbers are theirs as
 * much as the kernel's.
 */
static void say_host_load(struct agent *a, const struct kab_hostload *l)
{
	char msg[256];

	if (kab_host_busy_msg(kab_hostload_other(l), msg, sizeof(msg)))
		emit_msg(a, "log", msg);
}

int kab_agent_run(const struct kab_agent_opts *opts)
{
	struct agent a = { .o = opts, .nr_cpus = kab_nr_cpus() };
	struct sigaction sa = { .sa_handler = on_signal };
	const char *status = "ok";
	struct kab_err err = { { 0 } };
	struct kab_hostload load;
	int it, rc;

	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);	/* an ssh connection that dropped */
	signal(SIGPIPE, SIG_IGN);
	prctl(PR_SET_CHILD_SUBREAPER, 1);

	a.w = kab_workload_find(opts->job->suite, opts->job->test);
	if (!a.w || kab_workload_validate(opts->job, &err)) {
		if (!a.w)
			kab_err_set(&err, "this agent has no workload %s %s: "
				    "it is older than kab", opts->job->suite,
				    opts->job->test);
		emit_msg(&a, "error", err.msg);
		emit(&a, "end", json_pack("{s:s}", "status", "failed"));
		return 1;
	}
	if (kab_apply_settings(opts->job, opts->guest, &err)) {
		emit_msg(&a, "error", err.msg);
		emit(&a, "end", json_pack("{s:s}", "status", "failed"));
		return 1;
	}
	/* a machine others use: how much of it they took is said */
	kab_hostload_start(&load);
	emit(&a, "start", json_pack("{s:o, s:o, s:o, s:i, s:f}",
				    "job", kab_job_to_json(opts->job),
				    "host", kab_host_facts(),
				    "resolved", resolved_params(&a),
				    "iterations", opts->iterations,
				    "expected_seconds",
				    a.w->expected_seconds(opts->job,
							  a.nr_cpus)));
	for (it = 1; it <= opts->iterations; it++) {
		int records = 0;

		emit(&a, "iter", json_pack("{s:i}", "iteration", it));
		rc = iteration(&a, it, &records, &err);
		if (rc == 1 || a.dead_host) {
			status = "interrupted";
			emit_msg(&a, "error", "interrupted by a signal: the "
				 "iteration in flight was dropped");
			break;
		}
		if (rc) {
			status = "failed";
			emit_msg(&a, "error", err.msg);
			break;
		}
		emit(&a, "iter_end", json_pack("{s:i, s:i}", "iteration", it,
					       "records", records));
	}
	if (opts->host_load)
		say_host_load(&a, &load);
	emit(&a, "end", json_pack("{s:s, s:i}", "status", status,
				  "iterations", it - 1));
	return strcmp(status, "ok") ? 1 : 0;
}

/*
 * Processes orphaned by the workload (a stress-ng worker whose parent
 * died, say) were reparented to us as subreaper: kill and reap them so
 * nothing from one iteration runs into the next.
 */
void kab_reap_orphans(void)
{
	pid_t self = getpid();
	struct dirent *de;
	DIR *d;

	d = opendir("/proc");
	if (d) {
		while ((de = readdir(d))) {
			char path[64], *rp;
			struct strbuf sb = STRBUF_INIT;
			pid_t pid = atoi(de->d_name), ppid;

			if (pid <= 0)
				continue;
			snprintf(path, sizeof(path), "/proc/%d/stat", pid);
			if (!read_file(path, &sb, NULL) &&
			    (rp = strrchr(sb.buf, ')')) &&
			    sscanf(rp + 1, " %*c %d", &ppid) == 1 &&
			    ppid == self)
				kill(pid, SIGKILL);
			strbuf_release(&sb);
		}
		closedir(d);
	}
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}
