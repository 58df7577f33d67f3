// SPDX-License-Identifier: GPL-2.0
/*
 * wis.c - a port of will-it-scale's harness.
 *
 * As upstream: N tasks (processes or threads) each run the test's loop
 * and bump their own counter; counters sit MAX_CACHELINE_SIZE apart in
 * a shared mapping; every task waits on one pipe and they all start
 * together; task i is bound to core i % cores in hwloc's logical order
 * (or to hardware threads, or not at all); the parent samples the
 * counters every second with sleep(1), drops the first warmup samples,
 * averages the rest without normalising by the real elapsed time.
 * Children die with their parent (PR_SET_PDEATHSIG instead of
 * upstream's one-second alarm, the same guarantee without a signal
 * per second in the measured loop).
 *
 * Exact mode (time is guest instructions): the harness runs the test's
 * loop itself, one() at a time, and each task notes its count and the
 * clock at the first loop boundary after the window opens and after it
 * closes; its rate is the whole loops between over their own time.  A
 * count of the loops that fit in a second would be rounded to a loop:
 * 0.2% of a kernel that does 449 a second.
 */
#include <errno.h>
#include <hwloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"

#define MAX_CACHELINE_SIZE 256

/* A task's line: its counter first, then its exact window. */
struct line {
	unsigned long long counter;
	unsigned long long count[2];	/* at the window's two boundaries */
	double when[2];			/* the clock there */
	int phase;			/* boundaries noted so far */
};

struct task {
	const struct wis_test *t;
	unsigned long long *counter;
	unsigned long nr;
	hwloc_topology_t topo;
	hwloc_cpuset_t cpuset;	/* NULL: no binding */
	int start_fd;
	int go_fd;		/* the parent's end, closed in children */
	const volatile int *phase;	/* exact mode's window, or NULL */
	pthread_t thread;
	pid_t pid;
};

static void wait_for_start(int fd)
{
	char c;

	/* The parent closes its end: every task wakes on EOF at once. */
	while (read(fd, &c, 1) < 0 && errno == EINTR)
		;
}

/*
 * The exact harness's loop: the parent moves *phase to 1 when the
 * window opens and to 2 when it closes; the task notes where it is at
 * its next loop boundary.
 */
static void exact_loop(struct task *tk)
{
	struct line *l = (struct line *)tk->counter;
	const volatile int *phase = tk->phase;

	for (;;) {
		int ph = *phase;

		if (ph > l->phase) {
			l->count[ph - 1] = l->counter;
			l->when[ph - 1] = now_mono();
			__atomic_store_n(&l->phase, ph, __ATOMIC_RELEASE);
		}
		tk->t->one(tk->nr);
		l->counter++;
	}
}

static void run_test(struct task *tk)
{
	if (tk->phase)
		exact_loop(tk);
	else
		tk->t->testcase(tk->counter, tk->nr);
}

static void *thread_main(void *arg)
{
	struct task *tk = arg;

	if (tk->cpuset)
		hwloc_set_cpubind(tk->topo, tk->cpuset, HWLOC_CPUBIND_THREAD);
	wait_for_start(tk->start_fd);
	run_test(tk);
	return NULL;
}

static void process_main(struct task *tk, pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		kab_child_exit(1);
	close(tk->go_fd);
	if (tk->cpuset &&
	    hwloc_set_cpubind(tk->topo, tk->cpuset, HWLOC_CPUBIND_PROCESS) < 0)
		kab_child_exit(3);
	wait_for_start(tk->start_fd);
	run_test(tk);
	kab_child_exit(0);
}

static int setup_binding(struct task *tasks, const struct wis_opts *o,
			 hwloc_topology_t topo, struct kab_err *err)
{
	hwloc_obj_type_t type = o->bind == WIS_BIND_SMT ? HWLOC_OBJ_PU :
							  HWLOC_OBJ_CORE;
	int n, i;

	if (o->bind == WIS_BIND_NONE)
		return 0;
	n = hwloc_get_nbobjs_by_type(topo, type);
	if (n <= 0 && type == HWLOC_OBJ_CORE) {
		type = HWLOC_OBJ_PU;
		n = hwloc_get_nbobjs_by_type(topo, type);
	}
	if (n <= 0)
		return kab_err_set(err, "hwloc finds no cores to bind to: "
				   "run with bind: none");
	for (i = 0; i < o->nr_tasks; i++) {
		hwloc_obj_t obj = hwloc_get_obj_by_type(topo, type, i % n);

		tasks[i].cpuset = hwloc_bitmap_dup(obj->cpuset);
		/* One hardware thread of the core, as upstream does. */
		hwloc_bitmap_singlify(tasks[i].cpuset);
	}
	return 0;
}

/* A task that died on its own means the run is worthless. */
static int check_tasks(struct task *tasks, int n, struct kab_err *err)
{
	int i, status;

	for (i = 0; i < n; i++) {
		if (!tasks[i].pid)
			continue;
		if (waitpid(tasks[i].pid, &status, WNOHANG) == tasks[i].pid) {
			tasks[i].pid = 0;
			if (WIFSIGNALED(status))
				return kab_err_set(err, "task %d died of signal "
						   "%d (%s)", i, WTERMSIG(status),
						   strsignal(WTERMSIG(status)));
			return kab_err_set(err, "task %d exited with status "
					   "%d%s", i, WEXITSTATUS(status),
					   WEXITSTATUS(status) == 3 ?
					   " (CPU binding failed: try bind: "
					   "none)" : "");
		}
	}
	return 0;
}

static void stop_tasks(struct task *tasks, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (tasks[i].pid > 0)
			kill(tasks[i].pid, SIGKILL);
	for (i = 0; i < n; i++)
		if (tasks[i].pid > 0)
			while (waitpid(tasks[i].pid, NULL, 0) < 0 &&
			       errno == EINTR)
				;
}

static int start_tasks(const struct wis_test *t, const struct wis_opts *o,
		       struct task *tasks, int start_fd, int go_fd,
		       struct kab_err *err)
{
	pid_t parent = getpid();
	int i;

	for (i = 0; i < o->nr_tasks; i++) {
		tasks[i].start_fd = start_fd;
		tasks[i].go_fd = go_fd;
		if (o->threads) {
			if (pthread_create(&tasks[i].thread, NULL, thread_main,
					   &tasks[i]))
				return kab_err_set(err, "cannot create thread "
						   "%d: %s", i, strerror(errno));
			continue;
		}
		tasks[i].pid = fork();
		if (tasks[i].pid < 0) {
			tasks[i].pid = 0;
			return kab_err_set(err, "cannot fork task %d: %s", i,
					   strerror(errno));
		}
		if (tasks[i].pid == 0)
			process_main(&tasks[i], parent);
	}
	(void)t;
	return 0;
}

/* Upstream's sampling: every second, the tasks' counters read. */
static int sample_seconds(struct task *tasks, const struct wis_opts *o,
			  struct wis_result *res, struct kab_err *err)
{
	unsigned long long *prev = xcalloc(o->nr_tasks, sizeof(*prev));
	unsigned long long total = 0;
	int i, iterations = 0, ret = -1;

	for (;;) {
		unsigned long long sum = 0, min = -1ULL, max = 0;

		sleep(1);
		if (!o->threads && check_tasks(tasks, o->nr_tasks, err))
			goto out;
		for (i = 0; i < o->nr_tasks; i++) {
			unsigned long long val =
				*(volatile unsigned long long *)tasks[i].counter;
			unsigned long long diff = val - prev[i];

			if (diff < min)
				min = diff;
			if (diff > max)
				max = diff;
			sum += diff;
			prev[i] = val;
		}
		if (iterations++ >= o->warmup) {
			total += sum;
			res->min = min;
			res->max = max;
		}
		if (iterations >= o->samples + o->warmup)
			break;
	}
	res->average = total / o->samples;
	ret = 0;
out:
	free(prev);
	return ret;
}

/* Seconds a task may take to reach its next loop boundary. */
#define EXACT_GRACE 120

/*
 * The exact harness: the window opens after the warmup and closes
 * samples seconds later, each task's rate is its own whole loops over
 * their own time.
 */
static int sample_exact(struct task *tasks, const struct wis_opts *o,
			volatile int *phase, struct wis_result *res,
			struct kab_err *err)
{
	double give_up;
	int i, s;

	for (s = 0; s < o->warmup + o->samples; s++) {
		if (s == o->warmup)
			*phase = 1;
		sleep(1);
		if (!o->threads && check_tasks(tasks, o->nr_tasks, err))
			return -1;
	}
	if (!o->warmup && !o->samples)
		*phase = 1;
	*phase = 2;
	give_up = now_mono() + EXACT_GRACE;
	for (i = 0; i < o->nr_tasks; i++) {
		struct line *l = (struct line *)tasks[i].counter;

		while (__atomic_load_n(&l->phase, __ATOMIC_ACQUIRE) < 2) {
			if (!o->threads && check_tasks(tasks, o->nr_tasks, err))
				return -1;
			if (now_mono() > give_up)
				return kab_err_set(err, "task %d did not finish "
						   "its loop in %d s", i,
						   EXACT_GRACE);
			usleep(1000);
		}
	}
	res->min = -1ULL;
	for (i = 0; i < o->nr_tasks; i++) {
		struct line *l = (struct line *)tasks[i].counter;
		double dt = l->when[1] - l->when[0];
		double r = dt > 0 ? (l->count[1] - l->count[0]) / dt : 0;

		res->rate += r;
		if ((unsigned long long)r < res->min)
			res->min = (unsigned long long)r;
		if ((unsigned long long)r > res->max)
			res->max = (unsigned long long)r;
	}
	return 0;
}

int wis_run(const struct wis_test *t, const struct wis_opts *o,
	    struct wis_result *res, struct kab_err *err)
{
	size_t size = (size_t)(o->nr_tasks + 1) * MAX_CACHELINE_SIZE;
	hwloc_topology_t topo;
	struct task *tasks;
	volatile int *phase;
	char *area;
	int fds[2], i, ret = -1;

	memset(res, 0, sizeof(*res));
	if (o->exact && !t->one)
		return kab_err_set(err, "%s has no exact harness: run it with "
				   "--clock wall", t->description);
	area = mmap(NULL, size, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED)
		return kab_err_set(err, "cannot map the counters: %s",
				   strerror(errno));
	if (pipe(fds)) {
		munmap(area, size);
		return kab_err_set(err, "pipe: %s", strerror(errno));
	}
	/* the window's phase has a line of its own, after the tasks' */
	phase = (volatile int *)&area[o->nr_tasks * MAX_CACHELINE_SIZE];
	tasks = xcalloc(o->nr_tasks, sizeof(*tasks));
	hwloc_topology_init(&topo);
	hwloc_topology_load(topo);
	for (i = 0; i < o->nr_tasks; i++) {
		tasks[i].t = t;
		tasks[i].nr = i;
		tasks[i].topo = topo;
		tasks[i].counter =
			(unsigned long long *)&area[i * MAX_CACHELINE_SIZE];
		tasks[i].phase = o->exact ? phase : NULL;
	}
	if (setup_binding(tasks, o, topo, err))
		goto out;
	if (start_tasks(t, o, tasks, fds[0], fds[1], err)) {
		close(fds[1]);
		fds[1] = -1;
		goto out_stop;
	}
	close(fds[1]);	/* go */
	fds[1] = -1;

	if (o->exact ? sample_exact(tasks, o, phase, res, err) :
		       sample_seconds(tasks, o, res, err))
		goto out_stop;
	for (i = 0; i < o->nr_tasks; i++)
		res->total += *(volatile unsigned long long *)tasks[i].counter;
	ret = 0;
out_stop:
	if (!o->threads)
		stop_tasks(tasks, o->nr_tasks);
	/*
	 * Threads keep spinning until the workload process exits, which
	 * it does right after reporting: they cannot be cancelled inside
	 * malloc() safely.
	 */
out:
	for (i = 0; i < o->nr_tasks; i++)
		if (tasks[i].cpuset)
			hwloc_bitmap_free(tasks[i].cpuset);
	if (fds[1] >= 0)
		close(fds[1]);
	if (!o->threads) {
		close(fds[0]);
		hwloc_topology_destroy(topo);
		free(tasks);
		munmap(area, size);
	}
	return ret;
}

int wis_opts_from_job(const struct kab_job *job, int nr_cpus,
		      struct wis_opts *o, struct kab_err *err)
{
	const char *mode = kab_job_get(job, "mode");
	const char *bind = kab_job_get(job, "bind");
	double secs;

	memset(o, 0, sizeof(*o));
	if (kab_parse_tasks(kab_job_get(job, "nr_task"), nr_cpus,
			    &o->nr_tasks, err))
		return kab_err_prefix(err, "nr_task");
	if (kab_parse_seconds(kab_job_get(job, "testtime"), &secs, err))
		return kab_err_prefix(err, "testtime");
	o->threads = mode && !strcmp(mode, "thread");
	o->bind = !strcmp(bind, "none") ? WIS_BIND_NONE :
		  !strcmp(bind, "smt") ? WIS_BIND_SMT : WIS_BIND_CORE;
	o->warmup = atoi(kab_job_get(job, "warmup"));
	o->samples = (int)secs;
	if (o->samples < 1)
		o->samples = 1;
	return 0;
}

void wis_metrics(const struct wis_opts *o, const struct wis_result *res,
		 struct kab_metrics *out)
{
	const char *kind = o->threads ? "thread" : "process";
	/* lkp truncates to whole operations; exact mode keeps the rest */
	double avg = o->exact ? res->rate : (double)res->average;
	double per = o->exact ? res->rate / o->nr_tasks :
			(double)(res->average / o->nr_tasks);

	kab_metrics_addf(out, per, "will-it-scale.per_%s_ops", kind);
	kab_metrics_add(out, "will-it-scale.workload", avg);
	kab_metrics_addf(out, avg, "will-it-scale.%d.%s",
			 o->nr_tasks, o->threads ? "threads" : "processes");
	kab_metrics_add(out, "will-it-scale.total_iterations",
			(double)res->total);
}

double wis_expected_seconds(const struct kab_job *job, int nr_cpus)
{
	struct wis_opts o;

	if (wis_opts_from_job(job, nr_cpus, &o, NULL))
		return 0;
	return o.warmup + o.samples + 0.2;
}
