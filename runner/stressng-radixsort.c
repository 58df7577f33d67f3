// SPDX-License-Identifier: GPL-2.0
/*
 * stressng-radixsort.c - stress-ng's radixsort stressor, run the way lkp
 * runs it: the real stress-ng binary with --timeout, --times, --verify,
 * --metrics, --no-rand-seed and --radixsort N (and --radixsort-method
 * when the job gives a method), its --yaml report read with libyaml.
 *
 * When time is guest instructions (exact mode) an iteration is fixed
 * work, --radixsort-ops: the bogo-ops that fit in a fixed time are a
 * whole number, 20 in every 2 s iteration of every kernel under TCG,
 * while the time of a fixed number of them is not rounded at all.
 */
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

/* $KAB_STRESS_NG, else stress-ng from $PATH. */
static char *find_stressng(void)
{
	const char *env = getenv("KAB_STRESS_NG");

	if (env && *env)
		return access(env, X_OK) ? NULL : xstrdup(env);
	return find_in_path("stress-ng");
}

/* The last non-empty line of the log, to say why stress-ng failed. */
static void last_line(const char *log, char *buf, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	char *end, *start;

	buf[0] = '\0';
	if (read_file(log, &sb, NULL) || !sb.len)
		goto out;
	end = sb.buf + sb.len;
	while (end > sb.buf && (end[-1] == '\n' || end[-1] == ' '))
		*--end = '\0';
	start = strrchr(sb.buf, '\n');
	start = start ? start + 1 : sb.buf;
	snprintf(buf, n, "%s", start);
out:
	strbuf_release(&sb);
}

/* Does the log hold what (stress-ng's complaint about an option)? */
static bool log_says(const char *log, const char *what)
{
	struct strbuf sb = STRBUF_INIT;
	bool says;

	says = !read_file(log, &sb, NULL) && sb.len && strstr(sb.buf, what);
	strbuf_release(&sb);
	return says;
}

/*
 * Fixed work: the job's ops; in exact mode without them, RATE bogo-ops
 * a worker for each second of testtime (about what a worker does in
 * that much guest time at icount shift 0, a 1 GHz guest); else none.
 */
#define RATE 10

static long fixed_ops(const struct kab_runctx *ctx, int workers, double secs)
{
	const char *ops = kab_job_get(ctx->job, "ops");
	long n = ops && *ops ? atol(ops) : 0;

	if (n > 0 || !ctx->exact)
		return n;
	n = (long)(secs * RATE + 0.5) * workers;
	return n > 0 ? n : 1;
}

static int radixsort_run(const struct kab_runctx *ctx, struct kab_metrics *out,
			 struct kab_err *err)
{
	const struct kab_job *job = ctx->job;
	const char *method = kab_job_get(job, "method");
	char *bin, *yaml, *log, nthreads[16], timeout[32], why[256];
	const char *argv[20];
	char opsbuf[24];
	struct kab_stressng_result res;
	struct strbuf sb = STRBUF_INIT;
	int n, status, ret = -1, argc = 0;
	long ops = 0;
	double secs;
	pid_t pid;

	if (kab_parse_tasks(kab_job_get(job, "nr_threads"), ctx->nr_cpus, &n,
			    err))
		return kab_err_prefix(err, "nr_threads");
	if (kab_parse_seconds(kab_job_get(job, "testtime"), &secs, err))
		return kab_err_prefix(err, "testtime");
	bin = find_stressng();
	if (!bin)
		return kab_err_set(err, "stress-ng is not installed (not found "
				   "in PATH): install it with 'apt-get install "
				   "stress-ng' or 'make deps', or point "
				   "KAB_STRESS_NG at it");
	snprintf(nthreads, sizeof(nthreads), "%d", n);
	snprintf(timeout, sizeof(timeout), "%ds", secs < 1 ? 1 : (int)secs);
	ops = fixed_ops(ctx, n, secs);
	if (ops) {
		/* fixed work; the timeout only ends a run that hangs */
		snprintf(opsbuf, sizeof(opsbuf), "%ld", ops);
		snprintf(timeout, sizeof(timeout), "%lds",
			 100 * (long)(secs < 1 ? 1 : secs) + 600);
	}
	yaml = xasprintf("%s/stress-ng.yaml", ctx->tmpdir);
	log = xasprintf("%s/stress-ng.log", ctx->tmpdir);
	unlink(yaml);
	argv[argc++] = "stress-ng";
	argv[argc++] = "--timeout";
	argv[argc++] = timeout;
	argv[argc++] = "--times";
	argv[argc++] = "--verify";
	argv[argc++] = "--metrics";
	argv[argc++] = "--no-rand-seed";
	argv[argc++] = "--radixsort";
	argv[argc++] = nthreads;
	if (method) {
		argv[argc++] = "--radixsort-method";
		argv[argc++] = method;
	}
	if (ops) {
		argv[argc++] = "--radixsort-ops";
		argv[argc++] = opsbuf;
	}
	argv[argc++] = "--yaml";
	argv[argc++] = yaml;
	argv[argc] = NULL;

	pid = fork();
	if (pid < 0) {
		kab_err_set(err, "cannot fork stress-ng: %s", strerror(errno));
		goto out;
	}
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			      0644);

		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execv(bin, (char *const *)argv);
		dprintf(2, "cannot run %s: %s\n", bin, strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			kab_err_set(err, "waitpid: %s", strerror(errno));
			goto out;
		}
	last_line(log, why, sizeof(why));
	if (WIFSIGNALED(status)) {
		kab_err_set(err, "stress-ng was killed by signal %d (%s)",
			    WTERMSIG(status), strsignal(WTERMSIG(status)));
		goto out;
	}
	if (WEXITSTATUS(status) == 127) {
		kab_err_set(err, "%s", why[0] ? why : "cannot run stress-ng");
		goto out;
	}
	if (method && WEXITSTATUS(status) == 1 &&
	    log_says(log, "--radixsort-method")) {
		kab_err_set(err, "this stress-ng has no --radixsort-method, "
			    "which the job's method '%s' needs (stress-ng "
			    "0.17.04 or later): install a newer stress-ng "
			    "(KAB_STRESS_NG=PATH), or leave the method out "
			    "with --set method=",
			    method);
		goto out;
	}
	if (WEXITSTATUS(status)) {
		kab_err_set(err, "%s%s%s", kab_stressng_exit_reason(
				    WEXITSTATUS(status)),
			    why[0] ? "; it said: " : "", why);
		goto out;
	}
	if (read_file(yaml, &sb, err)) {
		kab_err_prefix(err, "stress-ng wrote no report");
		goto out;
	}
	if (kab_stressng_parse_yaml(sb.buf, sb.len, "radixsort", &res, err))
		goto out;
	if (ops && res.bogo_ops != ops) {
		kab_err_set(err, "stress-ng did %.0f of its %ld bogo-ops before "
			    "its timeout (%s): give fewer with --set ops=N",
			    res.bogo_ops, ops, timeout);
		goto out;
	}
	kab_metrics_add(out, "stress-ng.radixsort.ops", res.bogo_ops);
	kab_metrics_add(out, "stress-ng.radixsort.ops_per_sec",
			res.ops_per_sec_real);
	ret = 0;
out:
	strbuf_release(&sb);
	free(bin);
	free(yaml);
	free(log);
	return ret;
}

static double radixsort_expected(const struct kab_job *job, int nr_cpus)
{
	double secs;

	(void)nr_cpus;
	if (kab_parse_seconds(kab_job_get(job, "testtime"), &secs, NULL))
		return 0;
	return secs + 0.3;
}

static const struct kab_pdesc radixsort_params[] = {
	{ "nr_threads", KAB_P_TASKS, "100%", NULL,
	  "stress-ng workers, or a percentage of the CPUs" },
	{ "testtime", KAB_P_SECONDS, "60s", NULL,
	  "stress-ng --timeout" },
	{ "method", KAB_P_WORD, NULL, NULL,
	  "stress-ng --radixsort-method (0.17.04 and later), as lkp's jobs "
	  "give it" },
	{ "ops", KAB_P_COUNT, NULL, NULL,
	  "fixed work: bogo-ops an iteration, in all (--radixsort-ops); "
	  "under --clock icount 10 a worker for each second of testtime "
	  "unless given" },
	{ NULL, 0, NULL, NULL, NULL },
};

static const char *const radixsort_kpis[] = {
	"stress-ng.radixsort.ops_per_sec", NULL
};

const struct kab_workload kab_workload_radixsort = {
	.suite = "stress-ng",
	.test = "radixsort",
	.help = "stress-ng radixsort: bogo ops of the real stress-ng binary",
	.params = radixsort_params,
	.run = radixsort_run,
	.expected_seconds = radixsort_expected,
	.program = "stress-ng",
	.ops_metric = "stress-ng.radixsort.ops",
	.kpis = radixsort_kpis,
};
