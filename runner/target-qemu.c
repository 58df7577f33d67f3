// SPDX-License-Identifier: GPL-2.0
/*
 * target-qemu.c - boot a kernel under QEMU with kab-agent as /init and
 * read the record stream from the guest's second serial port.
 *
 * ttyS0 (the console) goes to a file; ttyS1 (the stream) to QEMU's
 * stdout, so kernel messages never interleave with data.  A broken
 * kernel must end the boot rather than hang it: panic=-1 and oops=panic
 * on the command line, -no-reboot for QEMU, and a host-side deadline
 * after which QEMU is killed.  QEMU's exit status proves nothing: only
 * the agent's end record says the job ran.
 *
 * The clock (kab_clock): under icount the guest's time is its
 * instruction count and the agent runs each iteration as fixed work
 * (--exact).  icount runs every vCPU round-robin in one host thread,
 * and QEMU 7.2 never schedules a secondary CPU again once the boot CPU
 * waits for it to come up: the boot stalls at "Booting SMP
 * configuration".  So icount has one vCPU, and auto picks it only then.
 *
 * The plugin (plugin/insn.c) writes its instruction counts at the
 * agent's marks into a file without a name, as the console; at each
 * iteration's end kab reads them and adds lkp's perf-stat rows.
 */
#include <dirent.h>
#include <sched.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"

const char *kab_boot_outcome_name(enum kab_boot_outcome o)
{
	static const char *const names[] = {
		[KAB_BOOT_OK] = "ok",
		[KAB_BOOT_JOB_FAILED] = "job-failure",
		[KAB_BOOT_FAILED] = "boot-failure",
		[KAB_BOOT_PANIC] = "panic",
		[KAB_BOOT_TIMEOUT] = "timeout",
		[KAB_BOOT_HOST_STALL] = "host-stall",
		[KAB_BOOT_INTERRUPTED] = "interrupted",
	};

	return o < ARRAY_SIZE(names) ? names[o] : "unknown";
}

/* The first line of the console that says the kernel is in trouble. */
char *kab_console_problem(const char *log, size_t len)
{
	static const char *const bad[] = {
		"Kernel panic", "Oops", "BUG:", "WARNING:", "Call Trace:",
		"soft lockup", "hard LOCKUP", "rcu_sched detected stall",
		"rcu: INFO:", "self-detected stall",
	};
	const char *line = log, *end = log + len;
	size_t i;

	while (line < end) {
		const char *nl = memchr(line, '\n', end - line);
		size_t n = nl ? (size_t)(nl - line) : (size_t)(end - line);

		for (i = 0; i < ARRAY_SIZE(bad); i++)
			if (memmem(line, n, bad[i], strlen(bad[i]))) {
				char *out = xmalloc(n + 1), *p;

				memcpy(out, line, n);
				out[n] = '\0';
				for (p = out; *p; p++)
					if (*p < ' ' || *p > '~')
						*p = ' ';
				return out;
			}
		line = nl ? nl + 1 : end;
	}
	return NULL;
}

static bool line_has(const char *line, size_t n, const char *const *v,
		     size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (memmem(line, n, v[i], strlen(v[i])))
			return true;
	return false;
}

bool kab_console_stalled(const char *log, size_t len)
{
	static const char *const stall[] = {
		"soft lockup", "hard LOCKUP", "Hard LOCKUP",
		"self-detected stall", "detected stalls on CPU",
		"detected stall",
	};
	/* what a kernel bug prints; a stall's own panic is not one */
	static const char *const bug[] = { "Oops", "BUG:", "Kernel panic" };
	const char *line = log, *end = log + len;
	bool stalled = false;

	while (line < end) {
		const char *nl = memchr(line, '\n', end - line);
		size_t n = nl ? (size_t)(nl - line) : (size_t)(end - line);

		if (line_has(line, n, stall, ARRAY_SIZE(stall)))
			stalled = true;
		else if (line_has(line, n, bug, ARRAY_SIZE(bug)) &&
			 !memmem(line, n, "softlockup", 10) &&
			 !memmem(line, n, "LOCKUP", 6))
			return false;
		line = nl ? nl + 1 : end;
	}
	return stalled;
}

/* Debian's linux-image-amd64: the newest /boot/vmlinuz-*. */
char *kab_default_kernel(void)
{
	struct dirent *de;
	char *best = NULL;
	DIR *d = opendir("/boot");

	if (!d)
		return NULL;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "vmlinuz-", 8) &&
		    (!best || strverscmp(de->d_name, best) > 0)) {
			free(best);
			best = xstrdup(de->d_name);
		}
	closedir(d);
	if (best) {
		char *path = xasprintf("/boot/%s", best);

		free(best);
		return path;
	}
	return NULL;
}

/* Has the guest written nothing to its console (ttyS0) at all? */
static bool console_empty(int logfd)
{
	struct stat st;

	return !fstat(logfd, &st) && st.st_size == 0;
}

void kab_qemu_version(const char *qemu, char *buf, size_t n)
{
	char *cmd = xasprintf("'%s' --version 2>/dev/null", qemu);
	FILE *f = popen(cmd, "r");

	buf[0] = '\0';
	if (f) {
		if (fgets(buf, n, f))
			buf[strcspn(buf, "\n")] = '\0';
		pclose(f);
	}
	free(cmd);
}

int kab_qemu_release(const char *qemu, char *buf, size_t n)
{
	char line[256];
	const char *v;
	int major;

	buf[0] = '\0';
	kab_qemu_version(qemu, line, sizeof(line));
	v = strstr(line, "version ");
	if (!v || sscanf(v + 8, "%d.", &major) != 1 || major < 0)
		return -1;
	v += 8;
	snprintf(buf, n, "%.*s", (int)strcspn(v, " "), v);
	return major;
}

char *kab_qemu_find(void)
{
	const char *env = getenv("KAB_QEMU");

	if (env && *env)
		return xstrdup(env);
	return find_in_path("qemu-system-x86_64");
}

/* A bzImage has "HdrS" at offset 0x202. */
int kab_kernel_check(const char *path, struct kab_err *err)
{
	char magic[4];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return kab_err_set(err, "kernel %s: %s: give a bzImage path "
				   "(e.g. /boot/vmlinuz-*)", path,
				   strerror(errno));
	n = pread(fd, magic, sizeof(magic), 0x202);
	close(fd);
	if (n != sizeof(magic) || memcmp(magic, "HdrS", 4))
		return kab_err_set(err, "kernel %s is not a bzImage (no x86 "
				   "boot header): give arch/x86/boot/bzImage "
				   "or /boot/vmlinuz-*", path);
	return 0;
}

/*
 * Exact mode leaves the guest no luck but its layout seed: no RDRAND or
 * RDSEED (TCG's come from the host's entropy) to seed the kernel's
 * randomness, a calendar that starts at the same second, no
 * address-space randomization (norandmaps: it would draw from each
 * kernel's own entropy), and the seed (kab_layout_cmdline, the agent's
 * --seed), which places the workload's mappings, stack and heap and
 * seeds the kernel's pool.  Each seed is one layout, repeated exactly;
 * several seeds sample the layouts a real machine would show.
 */
#define EXACT_CPU	"max,-rdrand,-rdseed"
#define EXACT_RTC	"base=2026-01-01T00:00:00,clock=vm"
#define EXACT_CMDLINE	"norandmaps"

/* Does this QEMU load TCG plugins (-plugin in its -help)?  Asked once. */
static bool qemu_has_plugins(const char *qemu)
{
	static char *asked;
	static bool has;
	char *cmd, line[256];
	FILE *f;

	if (asked && !strcmp(asked, qemu))
		return has;
	free(asked);
	asked = xstrdup(qemu);
	has = false;
	cmd = xasprintf("'%s' -help 2>/dev/null", qemu);
	f = popen(cmd, "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "-plugin ", 8))
			has = true;
	if (f)
		pclose(f);
	free(cmd);
	return has;
}

/*
 * The clock and CPUs of a boot: auto is icount under TCG with one vCPU
 * (smp 0, the default, is one under icount and two otherwise), else
 * wall.  kvm is false under icount, which only TCG has.
 */
static void resolve_clock(const struct kab_qemu_opts *q, bool kvm,
			  struct kab_clock *clock, int *smp)
{
	*clock = q->clock;
	if (clock->kind == KAB_CLOCK_AUTO) {
		clock->kind = !kvm && q->smp <= 1 ? KAB_CLOCK_ICOUNT :
						    KAB_CLOCK_WALL;
		clock->shift = KAB_ICOUNT_SHIFT;
	}
	*smp = q->smp ? q->smp : clock->kind == KAB_CLOCK_ICOUNT ? 1 : 2;
}

/* The plugin's counts of an iteration, as perf-stat rows. */
struct insn_ctx {
	int fd;			/* the plugin's output, unlinked */
	const struct kab_workload *w;
	const char *suite;
	const char *model;	/* the cost model asked for, or NULL */
};

static void add_insns(void *arg, int it, struct kab_metrics *m)
{
	struct insn_ctx *x = arg;
	struct strbuf sb = STRBUF_INIT;
	struct kab_cost_row cost;
	uint64_t user, kernel;
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", x->fd);
	if (!read_file(path, &sb, NULL) && sb.buf &&
	    !kab_insn_counts(sb.buf, sb.len, it, &user, &kernel))
		kab_insn_metrics(user, kernel, x->suite,
				 x->w ? x->w->ops_metric : NULL, m);
	if (x->model && sb.buf && !kab_insn_cost(sb.buf, sb.len, it, &cost) &&
	    !strcmp(cost.model, x->model))
		kab_cost_metrics(&cost, x->suite, x->w ? x->w->kpis : NULL, m);
	strbuf_release(&sb);
}

/*
 * KVM that runs a guest for a while and then cannot (an emulation
 * failure under a host without VMX was seen 40 s into a boot): QEMU
 * says "KVM internal error" and pauses the guest for good.  The tick
 * watches QEMU's stderr for it and kills QEMU at once.
 */
struct kvm_watch {
	const struct kab_target_opts *o;
	int errfd;
	pid_t pid;
	off_t seen;
	bool failed;
	double cpu_budget;	/* QEMU's CPU seconds a boot may take */
	bool cpu_out;		/* ... and took */
};

static void kvm_tick(void *arg)
{
	struct kvm_watch *w = arg;
	struct stat st;

	if (w->o->tick)
		w->o->tick(w->o->tick_ctx);
	/*
	 * A guest's progress is QEMU's CPU time, not the host's clock: a
	 * busy host slows a healthy guest down and costs time, never the
	 * boot.  A guest that spins past its budget is hung.
	 */
	if (w->cpu_budget > 0 && !w->cpu_out &&
	    kab_proc_cpu_seconds(w->pid) > w->cpu_budget) {
		w->cpu_out = true;
		kill(w->pid, SIGKILL);
	}
	if (w->failed || w->errfd < 0 || fstat(w->errfd, &st) ||
	    st.st_size == w->seen)
		return;
	w->seen = st.st_size;
	{
		char buf[8192];
		ssize_t n = pread(w->errfd, buf, sizeof(buf) - 1, 0);

		if (n > 0) {
			buf[n] = '\0';
			if (memmem(buf, n, "KVM internal error", 18)) {
				w->failed = true;
				kill(w->pid, SIGKILL);
			}
		}
	}
}

/* KAB_QEMU_PREALLOC=0 boots without -mem-prealloc (make bench's before). */
static bool prealloc(void)
{
	const char *e = getenv("KAB_QEMU_PREALLOC");

	return !e || strcmp(e, "0");
}

int kab_target_qemu(const struct kab_target_opts *o,
		    const struct kab_qemu_opts *q, struct kab_collector *c,
		    struct kab_boot *boot, struct kab_err *err)
{
	const struct kab_workload *w = kab_workload_find(o->job->suite,
							 o->job->test);
	char *qemu = NULL, *stressng = NULL, *initrd = NULL, *append = NULL;
	char *serial0 = NULL, *job = NULL, *vmlinux = NULL, smp[16], log[] =
		"/tmp/kab-console.XXXXXX", ilog[] = "/tmp/kab-insn.XXXXXX";
	char *icount = NULL, *plugin = NULL, *layout = NULL, seedarg[32];
	struct insn_ctx insn = { .fd = -1 };
	struct kab_clock clock;
	struct strbuf console = STRBUF_INIT;
	const char *env = getenv("KAB_STRESS_NG");
	bool cached, timed_out = false, kvm, kvm_failed = false;
	bool cpu_out = false;
	struct kab_pump_times times = { 0, 0 };
	struct kab_hostload load;
	double t0, deadline, budget;
	int fds[2], status, logfd, errfd, ret = -1;
	char *said, last[512];
	const char *argv[40];
	json_t *jj;
	pid_t pid;

	memset(boot, 0, sizeof(*boot));
	boot->host_busy = -1;
	boot->outcome = KAB_BOOT_FAILED;
	if (kab_kernel_check(q->kernel, err))
		return -1;
	qemu = kab_qemu_find();
	if (!qemu || access(qemu, X_OK)) {
		kab_err_set(err, "QEMU is not installed (no qemu-system-x86_64 "
			    "in PATH): apt-get install qemu-system-x86, or "
			    "make deps");
		goto out;
	}
	/*
	 * stress-ng and its libraries are most of an initramfs: a job
	 * that does not run it boots without them, a second sooner.
	 */
	if (w && w->program && !strcmp(w->program, "stress-ng"))
		stressng = env && *env ? xstrdup(env) :
			   find_in_path("stress-ng");
	jj = kab_job_to_json(o->job);
	job = json_dumps(jj, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(jj);
	initrd = kab_initramfs(o->agent_path, stressng, job, q->cache_dir,
			       &cached, err);
	if (!initrd)
		goto out;
	/*
	 * Under TCG a compressed kernel spends seconds decompressing
	 * itself at every boot: enter the unpacked one through PVH.
	 * KAB_BOOT=bzimage boots the image as given.
	 */
	if (!getenv("KAB_BOOT") || strcmp(getenv("KAB_BOOT"), "bzimage"))
		vmlinux = kab_kernel_unpacked(q->kernel, q->cache_dir);
	snprintf(boot->entry, sizeof(boot->entry), "%s",
		 vmlinux ? "pvh" : "bzimage");
	/*
	 * The console log has no name: QEMU opens it as /dev/fd/N, kab
	 * reads it through its descriptor, and a kab or QEMU killed with
	 * -9 leaves nothing in /tmp.
	 */
	logfd = mkostemp(log, O_CLOEXEC);
	if (logfd < 0) {
		kab_err_set(err, "cannot make a console log: %s",
			    strerror(errno));
		goto out;
	}
	unlink(log);
retry:
	kab_qemu_version(qemu, boot->qemu_version, sizeof(boot->qemu_version));
	kvm = q->clock.kind != KAB_CLOCK_ICOUNT &&
	      kab_kvm_usable(o, q->cache_dir, boot->qemu_version);
	resolve_clock(q, kvm, &clock, &boot->smp);
	kab_clock_name(&clock, boot->clock, sizeof(boot->clock));
	snprintf(boot->accel, sizeof(boot->accel), "%s", kvm ? "kvm" : "tcg");
	snprintf(smp, sizeof(smp), "%d", boot->smp);
	free(icount);
	icount = clock.kind == KAB_CLOCK_ICOUNT ?
		 xasprintf("shift=%d,sleep=off,align=off", clock.shift) : NULL;
	/* the plugin counts when perf-stat is asked for and QEMU can */
	if (q->plugin && insn.fd < 0 &&
	    kab_monitor_selected(o->monitors, "perf-stat") &&
	    qemu_has_plugins(qemu)) {
		insn.fd = mkostemp(ilog, O_CLOEXEC);
		if (insn.fd >= 0)
			unlink(ilog);
	}
	free(plugin);
	plugin = NULL;
	if (insn.fd >= 0) {
		struct strbuf sb = STRBUF_INIT;
		const char *p;

		/* a comma in QEMU's option values is written twice */
		for (p = q->plugin; *p; p++)
			strbuf_add(&sb, *p == ',' ? ",," : p, *p == ',' ? 2 : 1);
		strbuf_addf(&sb, ",out=/dev/fd/%d,threads=%d", insn.fd,
			    clock.kind == KAB_CLOCK_ICOUNT ? 1 : boot->smp);
		if (q->model)
			strbuf_addf(&sb, ",model=%s", q->model);
		plugin = strbuf_detach(&sb);
	}
	if (insn.fd >= 0) {
		insn.w = w;
		insn.suite = o->job->suite;
		insn.model = q->model;
		kab_collector_set_extra(c, add_insns, &insn);
	}
	/*
	 * Under TCG a vCPU thread the host does not schedule for a while
	 * sees its clock jump: give the lockup and stall detectors room,
	 * or a busy host makes a healthy kernel panic.
	 */
	boot->seed = icount ? q->seed : 0;
	free(layout);
	layout = !icount ? xstrdup("") : boot->seed ?
		 kab_layout_cmdline(boot->seed) : xstrdup(EXACT_CMDLINE);
	seedarg[0] = '\0';
	if (boot->seed)
		snprintf(seedarg, sizeof(seedarg), " --seed %llu", boot->seed);
	append = xasprintf("console=ttyS0 panic=-1 softlockup_panic=1 "
			   "nmi_watchdog=panic oops=panic loglevel=5%s "
			   "rdinit=/init%s%s%s%s -- --iterations %d --monitors "
			   "%s%s%s",
			   kvm ? "" : " watchdog_thresh=60 "
			   "rcupdate.rcu_cpu_stall_timeout=60",
			   *layout ? " " : "", layout,
			   q->cmdline && *q->cmdline ? " " : "",
			   q->cmdline ? q->cmdline : "", o->iterations,
			   o->monitors ? o->monitors : "all",
			   icount ? " --exact" : "", seedarg);
	serial0 = xasprintf("file:/dev/fd/%d", logfd);
	if (pipe2(fds, O_CLOEXEC)) {
		kab_err_set(err, "pipe: %s", strerror(errno));
		goto out_log;
	}
	/*
	 * Room for many iterations' records: while kab stores an
	 * iteration (slowly under ASan) QEMU must not find the stream
	 * full, which holds the guest's UART back; a hung guest after 1-2
	 * iterations under SAN=1 may have been that.
	 */
	fcntl(fds[1], F_SETPIPE_SZ, 1 << 20);
	{
		size_t n = 0;
		const char *const fixed[] = {
			qemu, "-name", "kab", "-nodefaults",
			"-display", "none",
			"-no-reboot", "-accel", kvm ? "kvm" : "tcg",
			"-cpu", kvm ? "host" : icount ? EXACT_CPU : "max",
			"-smp", smp, "-m", q->mem, "-kernel",
			vmlinux ? vmlinux : q->kernel, "-initrd",
			initrd, "-append", append, "-serial", serial0,
			"-serial", "stdio",
		};

		memcpy(argv, fixed, sizeof(fixed));
		n = ARRAY_SIZE(fixed);
		/*
		 * All guest RAM touched before the guest runs: the host's
		 * page faults and THP luck stop landing in the measurement.
		 * Between-boot spread of malloc1 under TCG: 20% -> 10%.
		 */
		if (prealloc())
			argv[n++] = "-mem-prealloc";
		/* the guest's clock is its instructions */
		if (icount) {
			argv[n++] = "-icount";
			argv[n++] = icount;
			argv[n++] = "-rtc";
			argv[n++] = EXACT_RTC;
		}
		if (plugin) {
			argv[n++] = "-plugin";
			argv[n++] = plugin;
		}
		argv[n] = NULL;
	}
	if (o->command)
		o->command(o->tick_ctx, argv);
	/* what QEMU says comes out as kab's notes, not raw */
	errfd = kab_stderr_file();
	kab_hostload_start(&load);
	t0 = now_mono();
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(null, 0);
		dup2(fds[1], 1);
		if (errfd >= 0)
			dup2(errfd, 2);
		setpgid(0, 0);
		fcntl(logfd, F_SETFD, 0);	/* for QEMU's -serial file: */
		if (insn.fd >= 0)
			fcntl(insn.fd, F_SETFD, 0);	/* for the plugin */
		/* A QEMU whose kab is gone has nobody to report to. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		/* --pin: QEMU and so its vCPU threads on those CPUs only. */
		if (q->pin) {
			cpu_set_t set;

			if (!kab_parse_cpulist(q->pin, &set, NULL))
				sched_setaffinity(0, sizeof(set), &set);
		}
		signal(SIGINT, SIG_DFL);
		execv(qemu, (char *const *)argv);
		_exit(127);
	}
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		free(kab_stderr_read(errfd));
		kab_err_set(err, "fork: %s", strerror(errno));
		goto out_log;
	}
	/*
	 * Under icount a guest second costs QEMU from about 2 s (shift 3)
	 * to 15 s (shift 0) of CPU here: the budget, which only ends a
	 * hung boot, allows 20, counted in QEMU's CPU time so that a
	 * busy host (which gives QEMU less of it) never ends a healthy
	 * boot.  The host's clock ends only a guest that neither runs nor
	 * ends, at ten times the budget.  --timeout is the user's, in the
	 * host's seconds.
	 */
	budget = q->boot_timeout + 30 + o->iterations *
		 ((w ? w->expected_seconds(o->job, boot->smp) : 60) *
		  (icount ? 20 : 1) + 10);
	deadline = t0 + (q->timeout > 0 ? q->timeout : 10 * budget);
	{
		struct kab_target_opts wo = *o;
		struct kvm_watch kw = { .o = o, .errfd = kvm ? errfd : -1,
					.pid = pid,
					.cpu_budget = q->timeout > 0 ? 0 :
						      budget };

		wo.tick = kvm_tick;
		wo.tick_ctx = &kw;
		kab_pump(pid, fds[0], c, &wo, deadline, &timed_out, &status,
			 &times, err);
		kvm_failed = kw.failed;
		timed_out |= kw.cpu_out;
		cpu_out = kw.cpu_out;
	}
	boot->seconds = now_mono() - t0;
	boot->host_busy = kab_hostload_other(&load);
	boot->hello = times.hello ? times.hello - t0 : 0;
	boot->first_sample = times.first_sample ? times.first_sample - t0 : 0;
	said = kab_stderr_read(errfd);
	/*
	 * A /dev/kvm that opens but cannot run this CPU model (nested
	 * virtualisation, say) makes QEMU die before the guest prints a
	 * thing (at once, or after -mem-prealloc's seconds on a busy
	 * host: 20 s were seen): use TCG instead.
	 */
	if (kvm && !kab_collector_started(c) &&
	    (kvm_failed || (console_empty(logfd) &&
			    ((WIFEXITED(status) && WEXITSTATUS(status)) ||
			     WIFSIGNALED(status)))) &&
	    !(getenv("KAB_ACCEL") && *getenv("KAB_ACCEL"))) {
		kab_last_line(said, last, sizeof(last));
		kab_kvm_broken(o, q->cache_dir, boot->qemu_version,
			       kvm_failed ? "KVM internal error during the boot" :
			       *last ? last : "it died at once");
		/* the next boot's console starts empty */
		if (ftruncate(logfd, 0) == 0)
			lseek(logfd, 0, SEEK_SET);
		timed_out = false;
		free(said);
		free(append);
		free(serial0);
		times.hello = times.first_sample = 0;
		goto retry;
	}
	if (*said)
		kab_target_note_lines(o, "QEMU said", said);
	free(said);
	{
		char *path = xasprintf("/proc/self/fd/%d", logfd);

		read_file(path, &console, NULL);
		free(path);
	}
	boot->console = console.buf ? strbuf_detach(&console) : xstrdup("");
	boot->console_len = strlen(boot->console);
	boot->problem = kab_console_problem(boot->console, boot->console_len);
	if (kvm_failed) {
		/* the agent had started: this boot is lost, the next is TCG */
		kab_kvm_broken(o, q->cache_dir, boot->qemu_version,
			       "KVM internal error during the boot");
		free(boot->problem);
		boot->problem = xstrdup("QEMU: KVM internal error");
	}
	if (cpu_out && !boot->problem)
		boot->problem = xasprintf("the guest used %.0f s of QEMU's "
					  "CPU, its budget, without ending",
					  budget);
	ret = 0;
out_log:
	close(logfd);
out:
	free(qemu);
	free(stressng);
	free(initrd);
	free(vmlinux);
	free(append);
	free(serial0);
	free(job);
	free(icount);
	free(plugin);
	free(layout);
	if (insn.fd >= 0) {
		kab_collector_set_extra(c, NULL, NULL);
		close(insn.fd);
	}
	if (!ret)
		boot->timed_out = timed_out;
	return ret;
}

void kab_boot_free(struct kab_boot *b)
{
	free(b->console);
	free(b->problem);
	memset(b, 0, sizeof(*b));
}

enum kab_boot_outcome kab_boot_classify(const struct kab_boot *b,
					bool started,
					enum kab_run_status status,
					bool interrupted)
{
	if (interrupted)
		return KAB_BOOT_INTERRUPTED;
	/* samples of a starved guest are the host's, not the kernel's */
	if (b->console && kab_console_stalled(b->console, b->console_len))
		return KAB_BOOT_HOST_STALL;
	if (status == KAB_RUN_OK)
		return KAB_BOOT_OK;
	if (b->problem && (strstr(b->problem, "Kernel panic") ||
			   strstr(b->problem, "Oops") ||
			   strstr(b->problem, "BUG:") ||
			   strstr(b->problem, "lockup") ||
			   strstr(b->problem, "stall")))
		return KAB_BOOT_PANIC;
	if (b->timed_out)
		return KAB_BOOT_TIMEOUT;
	if (status == KAB_RUN_FAILED)
		return KAB_BOOT_JOB_FAILED;
	return started ? KAB_BOOT_JOB_FAILED : KAB_BOOT_FAILED;
}

int kab_parse_cpulist(const char *s, void *cpu_set, struct kab_err *err)
{
	cpu_set_t *set = cpu_set;
	const char *p = s;

	CPU_ZERO(set);
	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b;

		if (end == p || a < 0 || a >= CPU_SETSIZE)
			goto bad;
		b = a;
		if (*end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
			if (end == p || b < a || b >= CPU_SETSIZE)
				goto bad;
		}
		for (; a <= b; a++)
			CPU_SET(a, set);
		if (*end == ',')
			end++;
		else if (*end)
			goto bad;
		p = end;
	}
	if (CPU_COUNT(set))
		return 0;
bad:
	return kab_err_set(err, "'%s' is not a CPU list: write it like 0-1 "
			   "or 0,2", s);
}
