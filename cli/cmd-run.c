// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-run.c - kab run: execute jobs on this machine and store them.
 *
 * The runner's collector hands over whole iterations; each goes into
 * the database in a transaction of its own, so a kab killed in the
 * middle of a run loses only the iteration in flight.
 */
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "../runner/runner.h"

static volatile int stop_requested;

static void on_sigint(int sig)
{
	(void)sig;
	stop_requested = 1;
}

struct run_ctx {
	struct kab_db *db;
	const struct kab_job *job;
	const char *label;
	const char *monitors;
	const struct kab_qemu_opts *qemu;	/* NULL: the local target */
	int64_t run_id;
	struct kab_err err;
	bool failed_store;
	/* progress */
	bool tty;
	int job_nr, nr_jobs;
	int iterations, cur;
	double t0, t_iter, expected;
};

static void fmt_secs(double s, char *buf, size_t n)
{
	long t = s < 0 ? 0 : (long)(s + 0.5);

	if (t >= 3600)
		snprintf(buf, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60,
			 t % 60);
	else
		snprintf(buf, n, "%ld:%02ld", t / 60, t % 60);
}

static void progress(void *arg)
{
	struct run_ctx *c = arg;
	char el[48], eta[48];
	double now = now_mono(), per, left;

	if (!c->tty || !c->cur)
		return;
	per = c->cur > 1 ? (c->t_iter - c->t0) / (c->cur - 1) : c->expected;
	left = per * (c->iterations - c->cur + 1) - (now - c->t_iter);
	fmt_secs(now - c->t0, el, sizeof(el));
	fmt_secs(left, eta, sizeof(eta));
	fprintf(stderr, "\r[%d/%d] %s %s: iteration %d of %d, elapsed %s, "
		"ETA %s\033[K", c->job_nr, c->nr_jobs, c->job->suite,
		c->job->test, c->cur, c->iterations, el, eta);
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
	r.job = c->job->name;
	r.suite = c->job->suite;
	r.test = c->job->test;
	r.params = json_object_get(jj, "params");
	r.resolved = st->resolved;
	r.target = c->qemu ? "qemu" : "local";
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

static void on_log(void *arg, const char *msg)
{
	static char last[1024];
	struct run_ctx *c = arg;

	/* The same note for every run of a job list is said once. */
	if (!strcmp(last, msg))
		return;
	snprintf(last, sizeof(last), "%s", msg);
	progress_clear(c);
	fprintf(stderr, "kab: note: %s\n", msg);
}

static const struct kab_collect_ops store_ops = {
	.start = on_start,
	.iter_start = on_iter_start,
	.iteration = on_iteration,
	.log = on_log,
};

static char *agent_path(void)
{
	const char *env = getenv("KAB_AGENT");
	char self[PATH_MAX], *slash;
	ssize_t n;

	if (env && *env)
		return xstrdup(env);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return xstrdup("kab-agent");
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (slash)
		*slash = '\0';
	return xasprintf("%s/kab-agent", self);
}

/* Run one expanded job; returns 0 when it ran ok. */
static int run_one(struct run_ctx *c, const char *agent, bool *fatal)
{
	struct kab_target_opts o = {
		.job = c->job,
		.iterations = c->iterations,
		.agent_path = agent,
		.monitors = c->monitors,
		.stop = &stop_requested,
		.tick = progress,
		.tick_ctx = c,
	};
	struct kab_collector *col = kab_collector_new(&store_ops, c);
	struct kab_reader_stats stats;
	enum kab_run_status status;
	const char *msg = NULL;
	struct kab_err err;
	struct kab_boot boot = { 0 };
	enum kab_boot_outcome outcome = KAB_BOOT_OK;
	char *desc, *glob, bootmsg[512];
	int ret;

	c->run_id = -1;
	c->cur = 0;
	c->t0 = now_mono();
	if (c->qemu) {
		ret = kab_target_qemu(&o, c->qemu, col, &boot, &err);
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
	} else {
		ret = kab_target_local(&o, col, &err);
		status = kab_collector_finish(col, &msg);
	}
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
			      status == KAB_RUN_OK &&
			      !kab_collector_lost(col) ? NULL : msg,
			      stats.garbage_bytes, stats.bad_records, &err)) {
		cli_error(EXIT_RUN, "%s", err.msg);
		*fatal = true;
	}
	desc = kab_job_describe(c->job);
	if (c->run_id <= 0) {
		cli_error(EXIT_RUN, "%s %s did not start: %s", c->job->suite,
			  c->job->test, msg ? msg : "no run record");
	} else if (status == KAB_RUN_OK) {
		printf("run %lld: %s %s (%s): %d iterations, stored in %s\n",
		       (long long)c->run_id, c->job->suite, c->job->test, desc,
		       kab_collector_iterations(col), kab_db_path(c->db));
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
		fprintf(stderr, "kab: note: run %lld: %s\n",
			(long long)c->run_id, msg);
	if (stats.garbage_bytes || stats.bad_records)
		fprintf(stderr, "kab: note: run %lld: skipped %llu bytes of "
			"noise and %llu bad records in the stream\n",
			(long long)c->run_id,
			(unsigned long long)stats.garbage_bytes,
			(unsigned long long)stats.bad_records);
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
			.smp = c->qemu->smp,
			.mem = c->qemu->mem,
			.seconds = boot.seconds,
			.console = boot.console,
			.console_len = boot.console_len,
		};

		if (kab_db_boot_insert(c->db, &row, NULL, &err)) {
			cli_error(EXIT_RUN, "%s", err.msg);
			*fatal = true;
		}
	}
	if (c->qemu && !ret && outcome != KAB_BOOT_OK && boot.console_len) {
		/* The end of the console says why; all of it is kept. */
		const char *p = boot.console + boot.console_len;
		int lines = 0;

		while (p > boot.console && lines < 6)
			if (*--p == '\n')
				lines++;
		fprintf(stderr, "kab: the console's last lines:\n%s\n",
			p + (*p == '\n'));
	}
	kab_boot_free(&boot);
	free(desc);
	kab_collector_free(col);
	return status == KAB_RUN_OK ? 0 : -1;
}

static void run_usage(FILE *f)
{
	fprintf(f,
		"usage: kab run [options] JOB.yaml...\n"
		"\n"
		"Runs each job (every parameter set its lists expand to) on "
		"this machine,\n--runs times, and stores every sample.\n"
		"\n"
		"  --kernel-label L  name of what is measured (default: the "
		"running kernel's\n"
		"                    release)\n"
		"  --runs N          iterations of each job (default 3)\n"
		"  --set KEY=VALUE   override a job parameter; a list is "
		"[a, b]\n"
		"  --monitors LIST   all (default), none, or some of "
		"proc-vmstat,meminfo,perf-stat\n"
		"  --target T        local (default: this machine) or qemu\n"
		"  --kernel PATH     qemu: the bzImage to boot (default: the "
		"newest /boot/vmlinuz-*)\n"
		"  --cmdline S       qemu: added to the kernel command line\n"
		"  --smp N, --mem M  qemu: CPUs (2) and memory (2G) of the "
		"guest\n"
		"  --db PATH         database (default $KAB_DB, else "
		"~/.local/share/kab/kab.db)\n"
		"\n"
		"A progress line goes to stderr when it is a terminal.\n"
		"Exit status: 0 every run ok, 1 a run failed or was "
		"interrupted, 2 usage.\n");
}

int cmd_run(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "kernel-label", required_argument, NULL, 'l' },
		{ "runs", required_argument, NULL, 'n' },
		{ "set", required_argument, NULL, 's' },
		{ "monitors", required_argument, NULL, 'm' },
		{ "target", required_argument, NULL, 't' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "cmdline", required_argument, NULL, 'c' },
		{ "smp", required_argument, NULL, 'S' },
		{ "mem", required_argument, NULL, 'M' },
		{ "db", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct run_ctx c = { .iterations = 3 };
	struct kab_qemu_opts q = { .smp = 2, .mem = "2G", .boot_timeout = 120 };
	const char *target = "local";
	char *default_kernel = NULL, *cache = NULL;
	struct kab_joblist *lists;
	struct sigaction sa = { .sa_handler = on_sigint };
	const char *db_opt = NULL;
	char **sets = NULL, *agent, *end, *bad;
	int nr_sets = 0, opt, i, j, nr_files, rc = EXIT_OK;
	bool fatal = false;
	struct kab_err err;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'l':
			c.label = optarg;
			break;
		case 'n':
			c.iterations = strtol(optarg, &end, 10);
			if (*end || c.iterations < 1 || c.iterations > 100000) {
				free(sets);
				return cli_error(EXIT_USAGE, "--runs '%s': give "
						 "a number of iterations from "
						 "1 to 100000", optarg);
			}
			break;
		case 's':
			sets = xrealloc(sets, (nr_sets + 1) * sizeof(*sets));
			sets[nr_sets++] = optarg;
			break;
		case 'd':
			db_opt = optarg;
			break;
		case 'm':
			c.monitors = optarg;
			bad = kab_monitor_check(optarg);
			if (bad) {
				cli_error(EXIT_USAGE, "--monitors: no monitor "
					  "'%s': use all, none, or some of "
					  "proc-vmstat,meminfo,perf-stat", bad);
				free(bad);
				free(sets);
				return EXIT_USAGE;
			}
			break;
		case 't':
			if (strcmp(optarg, "local") && strcmp(optarg, "qemu")) {
				free(sets);
				return cli_error(EXIT_USAGE, "--target '%s': use "
						 "local or qemu", optarg);
			}
			target = optarg;
			break;
		case 'k':
			q.kernel = optarg;
			break;
		case 'c':
			q.cmdline = optarg;
			break;
		case 'S':
			q.smp = strtol(optarg, &end, 10);
			if (*end || q.smp < 1 || q.smp > 256) {
				free(sets);
				return cli_error(EXIT_USAGE, "--smp '%s': give "
						 "1 to 256 CPUs", optarg);
			}
			break;
		case 'M':
			q.mem = optarg;
			break;
		case 'h':
			run_usage(stdout);
			free(sets);
			return EXIT_OK;
		default:
			run_usage(stderr);
			free(sets);
			return EXIT_USAGE;
		}
	}
	nr_files = argc - optind;
	if (!nr_files) {
		free(sets);
		return cli_error(EXIT_USAGE, "no job file: try 'kab run "
				 "jobs/will-it-scale-malloc1.yaml'");
	}
	lists = xcalloc(nr_files, sizeof(*lists));
	for (i = 0; i < nr_files; i++) {
		if (kab_job_load(argv[optind + i], sets, nr_sets, &lists[i],
				 &err)) {
			rc = cli_error(EXIT_USAGE, "%s", err.msg);
			goto out;
		}
		c.nr_jobs += lists[i].nr;
	}
	if (!strcmp(target, "qemu")) {
		const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

		if (!q.kernel) {
			default_kernel = kab_default_kernel();
			if (!default_kernel) {
				rc = cli_error(EXIT_USAGE, "no kernel in /boot: "
					       "give --kernel PATH, or install "
					       "linux-image-amd64 (make deps)");
				goto out;
			}
			q.kernel = default_kernel;
		}
		cache = xdg && *xdg ? xasprintf("%s/kab", xdg) :
			xasprintf("%s/.cache/kab", home ? home : "/tmp");
		if (mkdir_p(cache, 0755)) {
			rc = cli_error(EXIT_RUN, "cannot create the cache %s: "
				       "%m: set XDG_CACHE_HOME", cache);
			goto out;
		}
		q.cache_dir = cache;
		c.qemu = &q;
		if (kab_kernel_check(q.kernel, &err)) {
			rc = cli_error(EXIT_USAGE, "%s", err.msg);
			goto out;
		}
	} else if (q.kernel || q.cmdline) {
		rc = cli_error(EXIT_USAGE, "--kernel and --cmdline need "
			       "--target qemu");
		goto out;
	}
	if (cli_open_db(cli, db_opt, KAB_DB_WRITE, &c.db)) {
		rc = EXIT_RUN;
		goto out;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	c.tty = isatty(2);
	agent = agent_path();
	for (i = 0; i < nr_files && !fatal && !stop_requested; i++) {
		for (j = 0; j < lists[i].nr && !fatal && !stop_requested; j++) {
			c.job = &lists[i].jobs[j];
			c.job_nr++;
			if (run_one(&c, agent, &fatal))
				rc = EXIT_RUN;
		}
	}
	if (stop_requested)
		rc = cli_error(EXIT_RUN, "interrupted: runs not started were "
			       "skipped; what was stored is kept in %s",
			       kab_db_path(c.db));
	free(agent);
	kab_db_close(c.db);
out:
	for (i = 0; i < nr_files; i++)
		kab_joblist_free(&lists[i]);
	free(lists);
	free(sets);
	free(default_kernel);
	free(cache);
	return rc;
}
