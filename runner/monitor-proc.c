// SPDX-License-Identifier: GPL-2.0
/*
 * monitor-proc.c - the proc-vmstat, meminfo, numa-vmstat, numa-meminfo,
 * interrupts and softirqs monitors.
 *
 * Each reads its file when the workload starts and when it ends, and
 * those with gauges every second while it runs.  proc-vmstat reports event counters as the
 * difference between the last and the first reading and nr_* gauges as
 * the mean of the readings, as lkp does; meminfo reports means;
 * numa-vmstat and numa-meminfo are the same, node by node (node<n>.*,
 * none on a kernel without NUMA);
 * interrupts and softirqs are counters, per CPU (when it took any: a
 * machine of hundreds of CPUs has thousands of idle pairs) and summed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

#define NODE_DIR "/sys/devices/system/node"

struct kab_monitor_state {
	const char *path;
	const char *node_file;	/* numa-*: each node's, under path */
	const char *prefix;
	int (*parse)(const char *text, struct kab_kv *out);
	bool counters;		/* vmstat: non-nr_ fields are counters */
	bool skip_idle_cpus;	/* interrupts: no CPU<n>.* row that is 0 */
	struct kab_kv first;
	struct kab_kv last;
	double *sum;
	int samples;
};

static int reading(struct kab_monitor_state *st, struct kab_kv *kv)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	kab_kv_free(kv);
	if (st->node_file)
		return kab_read_nodes(st->path, st->node_file, kv);
	if (read_file(st->path, &sb, NULL)) {
		strbuf_release(&sb);
		return -1;
	}
	ret = st->parse(sb.buf, kv);
	strbuf_release(&sb);
	return ret;
}

static void accumulate(struct kab_monitor_state *st, const struct kab_kv *kv)
{
	int i;

	/* Fields are matched by position; the file's layout never moves. */
	for (i = 0; i < st->first.nr && i < kv->nr; i++)
		if (!strcmp(st->first.key[i], kv->key[i]))
			st->sum[i] += kv->val[i];
	st->samples++;
}

static struct kab_monitor_state *proc_start(const char *path,
					    const char *prefix,
					    int (*parse)(const char *,
							 struct kab_kv *),
					    bool counters, struct kab_err *err)
{
	struct kab_monitor_state *st = xcalloc(1, sizeof(*st));

	st->path = path;
	st->prefix = prefix;
	st->parse = parse;
	st->counters = counters;
	if (!parse)
		st->node_file = !strcmp(prefix, "numa-vmstat") ? "vmstat" :
								  "meminfo";
	if (reading(st, &st->first)) {
		/* no node at all is a kernel without NUMA, not a problem */
		if (!st->node_file)
			kab_err_set(err, "cannot read %s", path);
		free(st);
		return NULL;
	}
	st->sum = xcalloc(st->first.nr, sizeof(*st->sum));
	accumulate(st, &st->first);
	return st;
}

static void proc_tick(struct kab_monitor_state *st)
{
	struct kab_kv kv = { 0 };

	if (!reading(st, &kv))
		accumulate(st, &kv);
	kab_kv_free(&kv);
}

static void proc_stop(struct kab_monitor_state *st, double elapsed,
		      struct kab_metrics *out, struct kab_stacks *stacks)
{
	(void)stacks;
	int i;

	(void)elapsed;
	if (!reading(st, &st->last))
		accumulate(st, &st->last);
	for (i = 0; i < st->first.nr; i++) {
		const char *k = st->first.key[i];
		/* numa-vmstat's field follows its node<n>. */
		const char *dot = strchr(k, '.');
		const char *field = st->node_file && dot ? dot + 1 : k;
		double v = st->sum[i] / st->samples;

		if (st->counters && strncmp(field, "nr_", 3)) {
			if (i >= st->last.nr || strcmp(st->last.key[i], k))
				continue;
			v = st->last.val[i] - st->first.val[i];
			if (st->skip_idle_cpus && !v && !strncmp(k, "CPU", 3))
				continue;
		}
		kab_metrics_addf(out, v, "%s.%s", st->prefix, k);
	}
	kab_kv_free(&st->first);
	kab_kv_free(&st->last);
	free(st->sum);
	free(st);
}

static struct kab_monitor_state *vmstat_start(pid_t child, struct kab_err *err)
{
	(void)child;
	return proc_start("/proc/vmstat", "proc-vmstat", kab_parse_vmstat,
			  true, err);
}

static struct kab_monitor_state *meminfo_start(pid_t child,
					       struct kab_err *err)
{
	(void)child;
	return proc_start("/proc/meminfo", "meminfo", kab_parse_meminfo,
			  false, err);
}

static struct kab_monitor_state *numa_vmstat_start(pid_t child,
						   struct kab_err *err)
{
	(void)child;
	return proc_start(NODE_DIR, "numa-vmstat", NULL, true, err);
}

static struct kab_monitor_state *numa_meminfo_start(pid_t child,
						    struct kab_err *err)
{
	(void)child;
	return proc_start(NODE_DIR, "numa-meminfo", NULL, false, err);
}

static struct kab_monitor_state *irq_start(const char *path,
					   const char *prefix,
					   int (*parse)(const char *,
							struct kab_kv *),
					   struct kab_err *err)
{
	struct kab_monitor_state *st = proc_start(path, prefix, parse, true,
						  err);

	if (st)
		st->skip_idle_cpus = true;
	return st;
}

static struct kab_monitor_state *interrupts_start(pid_t child,
						  struct kab_err *err)
{
	(void)child;
	return irq_start("/proc/interrupts", "interrupts",
			 kab_parse_interrupts, err);
}

static struct kab_monitor_state *softirqs_start(pid_t child,
						struct kab_err *err)
{
	(void)child;
	return irq_start("/proc/softirqs", "softirqs", kab_parse_softirqs,
			 err);
}

const struct kab_monitor kab_monitor_interrupts = {
	.name = "interrupts",
	.start = interrupts_start,
	/* counters only: the first and the last reading are enough */
	.stop = proc_stop,
};

const struct kab_monitor kab_monitor_softirqs = {
	.name = "softirqs",
	.start = softirqs_start,
	/* counters only: the first and the last reading are enough */
	.stop = proc_stop,
};

const struct kab_monitor kab_monitor_vmstat = {
	.name = "proc-vmstat",
	.start = vmstat_start,
	.tick = proc_tick,
	.stop = proc_stop,
};

const struct kab_monitor kab_monitor_numa_vmstat = {
	.name = "numa-vmstat",
	.start = numa_vmstat_start,
	.tick = proc_tick,
	.stop = proc_stop,
};

const struct kab_monitor kab_monitor_numa_meminfo = {
	.name = "numa-meminfo",
	.start = numa_meminfo_start,
	.tick = proc_tick,
	.stop = proc_stop,
};

const struct kab_monitor kab_monitor_meminfo = {
	.name = "meminfo",
	.start = meminfo_start,
	.tick = proc_tick,
	.stop = proc_stop,
};
