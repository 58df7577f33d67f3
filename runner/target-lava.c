// SPDX-License-Identifier: GPL-2.0
/*
 * target-lava.c - a boot as a LAVA job.
 *
 * kab writes the job definition of one boot (lava-job.c): the kernel
 * and kab's initramfs deployed, booted, and a monitor waiting for the
 * agent's last line.  The agent writes its records on the console
 * (--out /dev/console --console), which LAVA logs line by line; kab
 * reads the console back out of the log (lava-log.c) into the
 * collector, as it reads QEMU's serial port.  Only the agent's end
 * record makes a run: a job LAVA calls complete whose stream stopped
 * short is a failed boot, with LAVA's words when it said any.
 *
 * "local" runs the job with the dispatcher on this machine (lava-run,
 * Debian's lava-dispatcher), on a qemu device dictionary kab writes:
 * the whole of LAVA's path from definition to log, without a server.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"

/* A file:// URL of path, made absolute, with bytes a URL escapes. */
static char *file_url(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char *abs = realpath(path, NULL);
	const unsigned char *p;

	strbuf_addstr(&sb, "file://");
	for (p = (const unsigned char *)(abs ? abs : path); *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("/._-~+", *p))
			strbuf_add(&sb, p, 1);
		else
			strbuf_addf(&sb, "%%%02X", *p);
	}
	free(abs);
	return strbuf_detach(&sb);
}

/*
 * path where the lab fetches it: copied once into l->files_dir under
 * its content's name (kernel-<sha>, initramfs-<sha>.cpio), served as
 * l->files_url; a file:// URL without them.
 */
static char *publish(const struct kab_lava_opts *l, const char *path,
		     const char *kind, struct kab_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	char *sha, *name, *dst;
	size_t n;

	if (!l->files_dir || !l->files_url)
		return file_url(path);
	sha = kab_file_sha256(path, err);
	if (!sha)
		return NULL;
	name = xasprintf("%s-%.16s%s", kind, sha, strcmp(kind, "initramfs") ?
			 "" : ".cpio");
	free(sha);
	dst = xasprintf("%s/%s", l->files_dir, name);
	if (access(dst, R_OK)) {
		if (read_file(path, &sb, err) ||
		    write_file_atomic(dst, sb.buf ? sb.buf : "", sb.len, err)) {
			strbuf_release(&sb);
			free(dst);
			free(name);
			return NULL;
		}
		chmod(dst, 0644);
	}
	strbuf_release(&sb);
	free(dst);
	n = strlen(l->files_url);
	dst = xasprintf("%s%s%s", l->files_url,
			n && l->files_url[n - 1] == '/' ? "" : "/", name);
	free(name);
	return dst;
}

static const char *device_type(const struct kab_lava_opts *l)
{
	return l->device_type && *l->device_type ? l->device_type : "qemu";
}

static bool on_qemu(const struct kab_lava_opts *l)
{
	return !l->method || strcmp(l->method, "tftp");
}

/* The seconds a boot's test action may take: the job's, and room. */
static double test_seconds(const struct kab_target_opts *o)
{
	const struct kab_workload *w = kab_workload_find(o->job->suite,
							 o->job->test);

	return 60 + o->iterations *
		    ((w ? w->expected_seconds(o->job, 2) : 60) + 10);
}

/*
 * The seconds a running job may take before its test's time counts:
 * [lava] boot-timeout, else the dispatcher's 120 s and QEMU's boot time.
 */
static double boot_allowed(const struct kab_qemu_opts *q,
			   const struct kab_lava_opts *l)
{
	if (l->boot_timeout > 0)
		return l->boot_timeout;
	return 120 + (q->boot_timeout > 0 ? q->boot_timeout : 300);
}

/* A running job's seconds in all: its boot's, then its test's. */
static double job_allowed(const struct kab_target_opts *o,
			  const struct kab_qemu_opts *q,
			  const struct kab_lava_opts *l)
{
	return boot_allowed(q, l) +
	       (q->timeout > 0 ? q->timeout : test_seconds(o));
}

/* The job of one boot, with the initramfs it deploys (built once). */
static json_t *lava_job(const struct kab_target_opts *o,
			const struct kab_qemu_opts *q,
			const struct kab_lava_opts *l, struct kab_err *err)
{
	const struct kab_workload *w = kab_workload_find(o->job->suite,
							 o->job->test);
	const char *env = getenv("KAB_STRESS_NG");
	char *stressng = NULL, *job, *initrd, *kurl, *rurl, *kargs, *aargs;
	char *name;
	struct kab_lava_job_opts jo = { 0 };
	bool cached;
	json_t *jj, *def;

	if (kab_kernel_check(q->kernel, err))
		return NULL;
	if (q->cmdline && kab_lava_cmdline_check(q->cmdline, err))
		return NULL;
	if (w && w->program && !strcmp(w->program, "stress-ng"))
		stressng = env && *env ? xstrdup(env) :
			   find_in_path("stress-ng");
	jj = kab_job_to_json(o->job);
	job = json_dumps(jj, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(jj);
	initrd = kab_initramfs(o->agent_path, stressng, job, q->cache_dir,
			       &cached, err);
	free(stressng);
	free(job);
	if (!initrd)
		return NULL;
	kurl = publish(l, q->kernel, "kernel", err);
	rurl = kurl ? publish(l, initrd, "initramfs", err) : NULL;
	if (!kurl || !rurl) {
		free(kurl);
		free(initrd);
		return NULL;
	}
	/*
	 * The kernel prints "Linux version" (LAVA waits for it), so no
	 * quiet and no low loglevel here: the agent lowers the console's
	 * level once it runs.  A TCG guest's watchdogs get room as under
	 * the qemu target; a board's console is its device dictionary's.
	 */
	kargs = xasprintf("%spanic=-1 softlockup_panic=1 oops=panic "
			  "rdinit=/init%s%s%s",
			  on_qemu(l) ? "console=ttyS0,115200 " : "",
			  on_qemu(l) ? " watchdog_thresh=60 "
			  "rcupdate.rcu_cpu_stall_timeout=60" : "",
			  q->cmdline && *q->cmdline ? " " : "",
			  q->cmdline ? q->cmdline : "");
	aargs = xasprintf("--iterations %d --monitors %s --out /dev/console "
			  "--console", o->iterations,
			  o->monitors ? o->monitors : "all");
	name = xasprintf("kab %s %s", o->job->suite, o->job->test);
	jo.name = name;
	jo.device_type = device_type(l);
	jo.method = on_qemu(l) ? "qemu" : "tftp";
	jo.kernel_url = kurl;
	jo.ramdisk_url = rurl;
	jo.kernel_args = kargs;
	jo.agent_args = aargs;
	jo.boot_seconds = q->boot_timeout > 0 ? q->boot_timeout : 300;
	jo.test_seconds = q->timeout > 0 ? q->timeout : test_seconds(o);
	jo.tag = l->tag;
	def = kab_lava_job(&jo);
	free(initrd);
	free(kurl);
	free(rurl);
	free(kargs);
	free(aargs);
	free(name);
	return def;
}

char *kab_lava_definition(const struct kab_target_opts *o,
			  const struct kab_qemu_opts *q,
			  const struct kab_lava_opts *l, struct kab_err *err)
{
	json_t *def = lava_job(o, q, l, err);
	char *yaml;

	if (!def)
		return NULL;
	yaml = kab_yaml_from_json(def, err);
	json_decref(def);
	return yaml;
}

/* The log's console lines: into the console and the collector. */
struct lava_feed {
	struct kab_lava_log log;
	struct kab_collector *c;
	struct strbuf console;
};

static int on_line(void *arg, const char *line, size_t n)
{
	struct lava_feed *f = arg;

	const char *rec = memmem(line, n, KAB_RECORD_MAGIC,
				 strlen(KAB_RECORD_MAGIC));

	/*
	 * The kernel's lines are the console's, not noise in the stream;
	 * a record's line is the samples' (what precedes it on the line,
	 * a kernel message that split it, stays the console's).
	 */
	strbuf_add(&f->console, line, rec ? (size_t)(rec - line) : n);
	if (!rec || rec > line)
		strbuf_add(&f->console, "\n", 1);
	if (!rec)
		return 0;
	if (kab_collector_feed(f->c, rec, line + n - rec))
		return -1;
	return kab_collector_feed(f->c, "\n", 1);
}

static int feed_log(void *arg, const void *buf, size_t n)
{
	struct lava_feed *f = arg;

	return kab_lava_log_feed(&f->log, buf, n);
}

static int write_yaml(const char *dir, const char *name, json_t *v,
		      struct kab_err *err)
{
	char *yaml = kab_yaml_from_json(v, err), *path;
	int fd, rc;

	if (!yaml)
		return -1;
	path = xasprintf("%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	rc = fd < 0 || write_all(fd, yaml, strlen(yaml)) ? -1 : 0;
	if (fd >= 0 && close(fd))
		rc = -1;
	if (rc)
		kab_err_set(err, "cannot write %s: %s", path, strerror(errno));
	free(path);
	free(yaml);
	return rc;
}

static void remove_dir(const char *dir)
{
	static const char *const files[] = { "job.yaml", "device.yaml",
		"out/description.yaml", "out/result.yaml", "out" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		char *p = xasprintf("%s/%s", dir, files[i]);

		if (unlink(p) && errno == EISDIR)
			rmdir(p);
		else if (errno == EISDIR || errno == EPERM)
			rmdir(p);
		free(p);
	}
	rmdir(dir);
}

/* Why the stream stopped short, in LAVA's words when it gave any. */
static char *lava_problem(const struct kab_lava_log *log,
			  const struct kab_collector *c, bool timed_out)
{
	if (log->error_type || log->error_msg)
		return xasprintf("LAVA: %s%s%s", log->error_type ?
				 log->error_type : "error", log->error_msg ?
				 ": " : "", log->error_msg ?
				 log->error_msg : "");
	if (log->first_error)
		return xasprintf("LAVA: %s", log->first_error);
	if (timed_out)
		return NULL;
	if (log->result && !strcmp(log->result, "pass"))
		return xasprintf("LAVA completed the job, but the record "
				 "stream stopped after %d iteration%s without "
				 "the agent's end record",
				 kab_collector_iterations(c),
				 kab_collector_iterations(c) == 1 ? "" : "s");
	return NULL;
}

/*
 * What a boot's job left: the console, the dispatcher, and why the
 * stream stopped short when it did (the console's trouble first).
 */
static void finish_boot(struct kab_boot *boot, struct lava_feed *f,
			const struct kab_collector *c, int smp, bool timed_out)
{
	snprintf(boot->accel, sizeof(boot->accel), "lava");
	if (f->log.version)
		snprintf(boot->qemu_version, sizeof(boot->qemu_version),
			 "lava-dispatcher %s", f->log.version);
	snprintf(boot->entry, sizeof(boot->entry), "bzimage");
	snprintf(boot->clock, sizeof(boot->clock), "wall");
	boot->smp = smp;
	boot->console_len = f->console.len;
	boot->console = f->console.buf ? strbuf_detach(&f->console) :
					 xstrdup("");
	boot->problem = kab_console_problem(boot->console, boot->console_len);
	if (!boot->problem && !kab_collector_ended(c)) {
		boot->problem = lava_problem(&f->log, c, timed_out);
		boot->lab_fault = f->log.error_type &&
				  !strcmp(f->log.error_type, "Infrastructure");
	}
	boot->timed_out = timed_out;
}

static int run_local(const struct kab_target_opts *o,
		     const struct kab_qemu_opts *q,
		     const struct kab_lava_opts *l, json_t *def,
		     struct kab_collector *c, struct kab_boot *boot,
		     struct kab_err *err)
{
	static int seq;
	struct kab_lava_device_opts d = {
		.mem = q->mem && *q->mem ? q->mem : "2G",
		.smp = q->smp > 0 ? q->smp : 2,
	};
	struct lava_feed f = { .c = c, .console = STRBUF_INIT };
	struct kab_pump_times times = { 0, 0 };
	struct kab_hostload load;
	char *qemu = NULL, *lrun = NULL, *path, *out = NULL, *said, id[32];
	char *dir = NULL;
	const char *argv[12];
	bool timed_out = false, kvm;
	double t0, deadline;
	int fds[2], errfd, status = 0, ret = -1;
	json_t *dev, *facts;
	pid_t pid;

	qemu = kab_qemu_find();
	lrun = l->lava_run ? xstrdup(l->lava_run) : find_in_path("lava-run");
	if (!lrun || access(lrun, X_OK)) {
		kab_err_set(err, "lava-run is not installed: apt-get install "
			    "lava-dispatcher (make deps)");
		goto out;
	}
	if (!qemu) {
		kab_err_set(err, "QEMU is not installed (no qemu-system-x86_64 "
			    "in PATH): apt-get install qemu-system-x86, or "
			    "make deps");
		goto out;
	}
	/* a kept directory is not swept: it has another name */
	scratch_sweep("kab-lava");
	dir = scratch_template(getenv("KAB_LAVA_KEEP") ? "kab-lava-kept" :
			       "kab-lava");
	if (!mkdtemp(dir)) {
		kab_err_set(err, "cannot make a directory in %s: %s: set "
			    "TMPDIR to a writable one", scratch_dir(),
			    strerror(errno));
		goto out;
	}
	kab_qemu_version(qemu, boot->qemu_version, sizeof(boot->qemu_version));
	/*
	 * LAVA runs QEMU, so kab cannot watch it fail under KVM and boot
	 * again (the qemu target does): KVM only when KAB_ACCEL says so,
	 * or the CPU has VMX or SVM and no boot found KVM broken here.
	 */
	kvm = getenv("KAB_ACCEL") && *getenv("KAB_ACCEL") ?
	      !strcmp(getenv("KAB_ACCEL"), "kvm") :
	      kab_cpu_has_virt() &&
	      kab_kvm_usable(o, q->cache_dir, boot->qemu_version);
	d.qemu = qemu;
	d.accel = kvm ? "kvm" : "tcg";
	dev = kab_lava_qemu_device(&d);
	ret = write_yaml(dir, "job.yaml", def, err) ||
	      write_yaml(dir, "device.yaml", dev, err) ? -1 : 0;
	json_decref(dev);
	if (ret)
		goto out_dir;
	ret = -1;
	snprintf(id, sizeof(id), "%d%03d", (int)getpid(),
		 __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED) % 1000);
	out = xasprintf("%s/out", dir);
	path = xasprintf("%s/device.yaml", dir);
	{
		char *jobf = xasprintf("%s/job.yaml", dir);
		size_t n = 0;

		argv[n++] = lrun;
		argv[n++] = "--job-id";
		argv[n++] = id;
		argv[n++] = "--output-dir";
		argv[n++] = out;
		argv[n++] = "--device";
		argv[n++] = path;
		argv[n++] = jobf;
		argv[n] = NULL;
		if (o->command)
			o->command(o->tick_ctx, argv);
		if (pipe2(fds, O_CLOEXEC)) {
			kab_err_set(err, "pipe: %s", strerror(errno));
			free(jobf);
			free(path);
			goto out_dir;
		}
		errfd = kab_stderr_file();
		/* the dispatcher's QEMU is this machine's: so is its load */
		kab_hostload_start(&load);
		t0 = now_mono();
		pid = fork();
		if (pid == 0) {
			int null = open("/dev/null", O_RDWR);

			/* lava-run logs on stderr */
			dup2(null, 0);
			dup2(errfd >= 0 ? errfd : null, 1);
			dup2(fds[1], 2);
			prctl(PR_SET_PDEATHSIG, SIGTERM);
			signal(SIGINT, SIG_IGN);
			execv(lrun, (char *const *)argv);
			_exit(127);
		}
		free(jobf);
		free(path);
	}
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		free(kab_stderr_read(errfd));
		kab_err_set(err, "fork: %s", strerror(errno));
		goto out_dir;
	}
	facts = json_pack("{s:s, s:s, s:s, s:I}", "lava_server", "local",
			  "lava_device_type", device_type(l), "lava_device",
			  "kab-qemu", "lava_job", (json_int_t)atoll(id));
	json_object_set_new(facts, "lava_allowed",
			    json_integer((json_int_t)llround(job_allowed(o, q,
								  l))));
	{
		char host[256];

		if (!gethostname(host, sizeof(host))) {
			host[sizeof(host) - 1] = '\0';
			json_object_set_new(facts, "lava_worker",
					    json_string(host));
		}
	}
	kab_collector_set_facts(c, facts);
	json_decref(facts);
	kab_lava_log_init(&f.log, on_line, &f);
	deadline = t0 + job_allowed(o, q, l);
	kab_pump_via(pid, fds[0], feed_log, &f, c, o, deadline, &timed_out,
		     &status, &times, err);
	kab_lava_log_finish(&f.log);
	boot->seconds = now_mono() - t0;
	boot->host_busy = kab_hostload_other(&load);
	boot->hello = times.hello ? times.hello - t0 : 0;
	boot->first_sample = times.first_sample ? times.first_sample - t0 : 0;
	said = kab_stderr_read(errfd);
	if (!f.log.target_lines && !kab_collector_started(c) &&
	    !(o->stop && *o->stop)) {
		char last[512];

		kab_last_line(said, last, sizeof(last));
		if (!f.log.result && !f.log.first_error) {
			kab_err_set(err, "lava-run failed (%s): %s", id,
				    *last ? last : "it said nothing");
			free(said);
			goto out_log;
		}
	}
	if (*said)
		kab_target_note_lines(o, "lava-run said", said);
	free(said);
	finish_boot(boot, &f, c, d.smp, timed_out);
	ret = 0;
out_log:
	kab_lava_log_release(&f.log);
	strbuf_release(&f.console);
out_dir:
	if (!getenv("KAB_LAVA_KEEP"))
		remove_dir(dir);
	else
		kab_target_note(o, "the LAVA job's files are in %s", dir);
out:
	free(dir);
	free(qemu);
	free(lrun);
	free(out);
	return ret;
}

/*
 * Sleep in ticks until t; at the user's stop, before the job is
 * cancelled, at once (once it is, the wait for LAVA goes on).
 */
static void wait_until(const struct kab_target_opts *o, double t,
		       bool cancelled)
{
	while (now_mono() < t && (cancelled || !(o->stop && *o->stop))) {
		if (o->tick)
			o->tick(o->tick_ctx);
		usleep(200 * 1000);
	}
}

/*
 * A job this boot went to before kab stopped: followed when the server
 * still has it and did not cancel it (kab cancels its jobs at ^C: those
 * boot again), else 0.
 */
static long follow(const struct kab_lava_server *srv, long job)
{
	struct kab_lava_job_state st;

	if (kab_lava_job_state(srv, job, &st, NULL) ||
	    !strcmp(st.health, "Canceled") || !strcmp(st.state, "Canceling"))
		return 0;
	return job;
}

static int run_server(const struct kab_target_opts *o,
		      const struct kab_qemu_opts *q,
		      const struct kab_lava_opts *l, json_t *def,
		      struct kab_collector *c, struct kab_boot *boot,
		      struct kab_err *err)
{
	struct lava_feed f = { .c = c, .console = STRBUF_INIT };
	struct kab_lava_server srv;
	struct kab_lava_job_state st = { "", "", "" };
	double t0, queued_until, deadline, hello = 0, first = 0, end_by = 0;
	double log_failing = 0;
	double grace = l->grace > 0 ? l->grace : 60;
	bool cancelled = false, running = false, timed_out = false;
	long id, line = 0, got;
	char *yaml;
	int ret = -1;

	if (kab_lava_server_init(&srv, l->url, l->token, err))
		return -1;
	if (kab_lava_check_device_type(&srv, device_type(l), err))
		goto out;
	id = l->job > 0 ? follow(&srv, l->job) : 0;
	if (id) {
		if (l->followed)
			l->followed(o->tick_ctx, id);
	} else {
		yaml = kab_yaml_from_json(def, err);
		if (!yaml)
			goto out;
		ret = kab_lava_submit(&srv, yaml, &id, err);
		free(yaml);
		if (ret)
			goto out;
		ret = -1;
		if (l->submitted)
			l->submitted(o->tick_ctx, id);
	}
	kab_lava_log_init(&f.log, on_line, &f);
	boot->lava_queued = id;
	t0 = now_mono();
	queued_until = t0 + (l->queue_timeout > 0 ? l->queue_timeout : 3600);
	deadline = 0;
	for (;;) {
		bool finished;

		if (o->stop && *o->stop && !cancelled) {
			kab_lava_cancel(&srv, id, NULL);
			cancelled = true;
		}
		if (kab_lava_job_state(&srv, id, &st, err)) {
			kab_lava_cancel(&srv, id, NULL);
			goto out_log;
		}
		finished = !strcmp(st.state, "Finished");
		if (!running && (finished || !strcmp(st.state, "Running"))) {
			json_t *facts;
			char worker[128];

			running = true;
			boot->lava_queued = 0;
			t0 = now_mono();
			deadline = t0 + job_allowed(o, q, l);
			facts = json_pack("{s:s, s:s, s:s, s:I, s:I}",
					  "lava_server", srv.url,
					  "lava_device_type", device_type(l),
					  "lava_device", st.device,
					  "lava_job", (json_int_t)id,
					  "lava_allowed",
					  (json_int_t)llround(deadline - t0));
			if (*st.device &&
			    !kab_lava_device_worker(&srv, st.device, worker,
						    sizeof(worker), NULL) &&
			    *worker)
				json_object_set_new(facts, "lava_worker",
						    json_string(worker));
			kab_collector_set_facts(c, facts);
			json_decref(facts);
		}
		if (!running && !cancelled && now_mono() > queued_until) {
			kab_lava_cancel(&srv, id, NULL);
			kab_err_set(err, "LAVA job %ld stayed queued for %.0f s: "
				    "no %s device took it; kab cancelled it "
				    "(a longer --timeout waits longer)", id,
				    now_mono() - (queued_until -
						  (l->queue_timeout > 0 ?
						   l->queue_timeout : 3600)),
				    device_type(l));
			goto out_log;
		}
		if (running) {
			got = kab_lava_job_log(&srv, id, line, &f.log, err);
			if (got == -2 && !cancelled) {
				kab_lava_cancel(&srv, id, NULL);
				cancelled = true;
				kab_err_set(err, "storing the results failed");
			} else if (got > 0) {
				line += got;
			}
			/*
			 * a log the server fails to give (HTTP 500, a proxy
			 * between restarts) is asked again, for grace seconds
			 */
			if (got != -1) {
				log_failing = 0;
			} else if (!log_failing) {
				log_failing = now_mono();
			} else if (now_mono() - log_failing > grace) {
				kab_lava_cancel(&srv, id, NULL);
				goto out_log;
			}
			if (!hello && kab_collector_started(c))
				hello = now_mono() - t0;
			if (!first && kab_collector_iterations(c) > 0)
				first = now_mono() - t0;
			/* the whole log is read once the job is over */
			if (finished && got <= 0)
				break;
			if (!timed_out && deadline && now_mono() > deadline) {
				kab_lava_cancel(&srv, id, NULL);
				timed_out = true;
			}
		}
		/*
		 * Every wait on the server ends: a job kab cancelled (at the
		 * user's stop, its deadline or a failed store) has grace
		 * seconds to finish, a finished one as long to send the rest
		 * of its log (5 s once the user stopped kab).
		 */
		if ((cancelled || timed_out || finished) && !end_by)
			end_by = now_mono() + grace;
		if (finished && o->stop && *o->stop &&
		    end_by > now_mono() + 5)
			end_by = now_mono() + 5;
		if (end_by && now_mono() > end_by) {
			if (finished)
				kab_err_set(err, "LAVA job %ld finished, but its "
					    "log did not end: the server at %s "
					    "does not honour ?start= (check its "
					    "version)", id, srv.url);
			else if (timed_out && !cancelled)
				kab_err_set(err, "LAVA job %ld ran past its "
					    "deadline (%.0f s): cancelled, but "
					    "the server has not ended it after "
					    "%.0f s: cancel it there", id,
					    deadline - t0, grace);
			else
				kab_err_set(err, "LAVA job %ld: cancelled, but "
					    "the server has not ended it after "
					    "%.0f s: cancel it there", id, grace);
			goto out_log;
		}
		if (!finished || running)
			wait_until(o, now_mono() + (running ? 1 : 2),
				   cancelled || timed_out);
	}
	kab_lava_log_finish(&f.log);
	boot->seconds = now_mono() - t0;
	boot->hello = hello;
	boot->first_sample = first;
	finish_boot(boot, &f, c, q->smp, timed_out);
	if (!boot->problem && !kab_collector_ended(c) &&
	    !strcmp(st.health, "Canceled"))
		boot->problem = xasprintf("LAVA cancelled job %ld", id);
	ret = 0;
out_log:
	kab_lava_log_release(&f.log);
	strbuf_release(&f.console);
out:
	kab_lava_server_free(&srv);
	return ret;
}

int kab_target_lava(const struct kab_target_opts *o,
		    const struct kab_qemu_opts *q,
		    const struct kab_lava_opts *l, struct kab_collector *c,
		    struct kab_boot *boot, struct kab_err *err)
{
	json_t *def;
	int ret;

	memset(boot, 0, sizeof(*boot));
	boot->host_busy = -1;
	boot->outcome = KAB_BOOT_FAILED;
	def = lava_job(o, q, l, err);
	if (!def)
		return -1;
	ret = strcmp(l->url, "local") ?
	      run_server(o, q, l, def, c, boot, err) :
	      run_local(o, q, l, def, c, boot, err);
	json_decref(def);
	return ret;
}
