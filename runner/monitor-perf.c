// SPDX-License-Identifier: GPL-2.0
/*
 * monitor-perf.c - the perf-stat monitor, through perf_event_open().
 *
 * Counts the workload process and everything it forks (inherit), from
 * the moment it is released until it exits.  Software events always
 * work where the kernel has CONFIG_PERF_EVENTS; hardware events are
 * tried and skipped cleanly when the machine (a VM, say) has none.
 * Counts are scaled when the kernel multiplexed a counter.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runner.h"

struct perf_ev {
	const char *name;
	uint32_t type;
	uint64_t config;
	double scale;		/* task-clock: ns -> ms */
};

static const struct perf_ev sw_events[] = {
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 1e-6 },
	{ "context-switches", PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_CONTEXT_SWITCHES, 1 },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, 1 },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 1 },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN, 1 },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ, 1 },
};

static const struct perf_ev hw_events[] = {
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 1 },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 1 },
	{ "branch-instructions", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 1 },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, 1 },
	{ "cache-references", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_CACHE_REFERENCES, 1 },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, 1 },
};

#define MAX_EVENTS (ARRAY_SIZE(sw_events) + ARRAY_SIZE(hw_events))

struct kab_monitor_state {
	int nr;
	int fd[MAX_EVENTS];
	const struct perf_ev *ev[MAX_EVENTS];
};

static int open_event(const struct perf_ev *ev, pid_t pid)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = ev->type;
	attr.config = ev->config;
	attr.inherit = 1;
	attr.disabled = 1;
	attr.exclude_hv = 1;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	return syscall(SYS_perf_event_open, &attr, pid, -1, -1,
		       PERF_FLAG_FD_CLOEXEC);
}

static struct kab_monitor_state *perf_start(pid_t child, struct kab_err *err)
{
	struct kab_monitor_state *st = xcalloc(1, sizeof(*st));
	size_t i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(sw_events); i++) {
		fd = open_event(&sw_events[i], child);
		if (fd < 0) {
			kab_err_set(err, "perf_event_open(%s): %s: no "
				    "perf-stat.* metrics (kernel without "
				    "CONFIG_PERF_EVENTS, or perf_event_paranoid)",
				    sw_events[i].name, strerror(errno));
			goto fail;
		}
		st->fd[st->nr] = fd;
		st->ev[st->nr++] = &sw_events[i];
	}
	/* Hardware counters: all or nothing, so ipc never lacks cycles. */
	for (i = 0; i < ARRAY_SIZE(hw_events); i++) {
		fd = open_event(&hw_events[i], child);
		if (fd < 0)
			break;
		st->fd[st->nr] = fd;
		st->ev[st->nr++] = &hw_events[i];
	}
	if (i < ARRAY_SIZE(hw_events)) {
		/* Not an error: the caller logs it as a note. */
		kab_err_set(err, "perf-stat: no hardware counters (%s %s): "
			    "cycles, instructions, ipc skipped",
			    hw_events[i].name, strerror(errno));
		while (st->nr > (int)ARRAY_SIZE(sw_events))
			close(st->fd[--st->nr]);
	}
	for (i = 0; i < (size_t)st->nr; i++)
		ioctl(st->fd[i], PERF_EVENT_IOC_ENABLE, 0);
	return st;
fail:
	while (st->nr)
		close(st->fd[--st->nr]);
	free(st);
	return NULL;
}

static void perf_tick(struct kab_monitor_state *st)
{
	(void)st;
}

static void perf_stop(struct kab_monitor_state *st, double elapsed,
		      struct kab_metrics *out, struct kab_stacks *stacks)
{
	(void)stacks;
	struct kab_metrics raw = { 0 };
	int i;

	for (i = 0; i < st->nr; i++) {
		uint64_t v[3];
		double count;

		if (read(st->fd[i], v, sizeof(v)) != sizeof(v)) {
			close(st->fd[i]);
			continue;
		}
		count = (double)v[0];
		if (v[2] && v[2] < v[1])
			count = count * v[1] / v[2];
		kab_metrics_add(&raw, st->ev[i]->name, count * st->ev[i]->scale);
		close(st->fd[i]);
	}
	kab_perf_derive(&raw, elapsed, out);
	kab_metrics_free(&raw);
	free(st);
}

static double raw_get(const struct kab_metrics *raw, const char *name)
{
	const struct kab_metric *m = kab_metrics_find(raw, name);

	return m ? m->value : -1;
}

/*
 * perf-stat.total.<event>, perf-stat.ps.<event> (per second) and, when
 * hardware counts exist, perf-stat.overall.{ipc,cpi,branch-miss-rate%,
 * cache-miss-rate%}.
 */
void kab_perf_derive(const struct kab_metrics *raw, double elapsed,
		     struct kab_metrics *out)
{
	double cyc, ins, br, brm, cref, cmiss;
	int i;

	for (i = 0; i < raw->nr; i++) {
		kab_metrics_addf(out, raw->v[i].value, "perf-stat.total.%s",
				 raw->v[i].name);
		if (elapsed > 0)
			kab_metrics_addf(out, raw->v[i].value / elapsed,
					 "perf-stat.ps.%s", raw->v[i].name);
	}
	cyc = raw_get(raw, "cpu-cycles");
	ins = raw_get(raw, "instructions");
	br = raw_get(raw, "branch-instructions");
	brm = raw_get(raw, "branch-misses");
	cref = raw_get(raw, "cache-references");
	cmiss = raw_get(raw, "cache-misses");
	if (cyc > 0 && ins > 0) {
		kab_metrics_add(out, "perf-stat.overall.ipc", ins / cyc);
		kab_metrics_add(out, "perf-stat.overall.cpi", cyc / ins);
	}
	if (br > 0 && brm >= 0)
		kab_metrics_add(out, "perf-stat.overall.branch-miss-rate%",
				100 * brm / br);
	if (cref > 0 && cmiss >= 0)
		kab_metrics_add(out, "perf-stat.overall.cache-miss-rate%",
				100 * cmiss / cref);
}

const struct kab_monitor kab_monitor_perf = {
	.name = "perf-stat",
	.start = perf_start,
	.tick = perf_tick,
	.stop = perf_stop,
};
