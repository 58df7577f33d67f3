// SPDX-License-Identifier: GPL-2.0
/*
 * lkp-rule.c - lkp's own rule for which rows of a comparison changed,
 * as lkp ncompare applies it (lib/compare.rb calling lib/stats.rb's
 * StatCompare with lkp's defaults: no gap, no --more, perf-profile
 * threshold 5), for kab compare --test lkp.
 *
 * The facts this follows, from lkp-tests:
 * - a stat lkp does not bisect (etc/stat-denylist, less
 *   etc/stat-allowlist) is skipped unless etc/report-allowlist lists it;
 * - both sides with fewer than 3 runs: skipped;
 * - a stat the base lacks is skipped, unless it is a perf-profile or
 *   lock_stat one and the base ran that monitor (its values are then
 *   zeros); a side without the stat, or with fewer values than runs,
 *   is filled with zeros;
 * - each side: sorted, leading -1s dropped (lkp's "no data"), size >> 5
 *   samples (at most 3, at most 1 for the head when the base has <= 3)
 *   cut at each end; min, "mean" (the element at size / 2) and max;
 * - a perf-profile stat whose head "mean" is an integer (lkp's filled
 *   zeros: kab's stored values are floats) changed when either mean is
 *   above 5; any other stat when the ranges part around the means:
 *   min_b > mean_a && mean_b > max_a, or the other way round;
 * - then, except for perf-profile: the ratio of the higher mean to the
 *   lower (5 when the lower is <= 0, and at most 5) must exceed 1.01,
 *   and 1.05 unless the stat is a performance metric (the test suites'
 *   own, perf-stat., proc-vmstat., *.time.* ...), and the change must
 *   be big enough for etc/perf-metrics-threshold.yaml and the floors
 *   of reasonable_perf_change?.
 */
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "../common/common.h"

/* etc/stat-denylist, less the dmesg/kmsg/stderr/last_state lines */
static const char *const deny[] = {
	"Modules_linked_in", "Spectre_v2_mitigation",
	"^aim7\\.cpu", "^aim7\\.jobs-per-min-per-task", "^aim7\\.jti",
	"^aim7\\.real", "^boot-meminfo\\.", "^boot-slabinfo\\.",
	"^boot-time\\.", "^buddyinfo\\.", "^cpuidle\\.", "^diskstats\\.",
	"^ebizzy\\.throughput\\.per_thread\\.stddev_percent",
	"^interrupts\\.", "^iostat\\.",
	"^kernel-selftests\\.dma\\.dma_map_benchmark\\.average_map_latency",
	"^kernel-selftests\\.mqueue\\.nsec_per_msg",
	"^kvm-unit-tests-qemu\\.apic", "^kvm-unit-tests.*\\.pmu_pebs\\.fail",
	"^leaking-addresses\\.", "^libhugetlbfs-test\\..+\\.killed_by_signal",
	"^lkvs\\..*\\.na", "^lock_stat\\.", "^ltp\\..*\\.broken",
	"^max_iostat\\.", "^meminfo\\.", "^mpstat\\.", "^numa-meminfo\\.",
	"^numa-numastat\\.", "^numa-vmstat\\.", "^pagetypeinfo\\.",
	"^perf-event-tests\\..*\\.unimplemented", "^perf-profile.",
	"^perf-stat\\.", "^pmeter\\.fail", "^proc-vmstat\\.",
	"^rcutorture\\.cpuhotplug-.*\\.rcu_hotplug", "^sched_debug\\.",
	"^slabinfo\\.", "^softirqs\\.", "^tcrypt\\.", "^time\\.",
	"^turbostat\\.", "^upgrade-trinity\\.fail", "^uptime\\.",
	"^vmstat\\.", "^xfstests\\.btrfs\\.303\\.fail", "^zoneinfo\\.",
};

/* etc/stat-allowlist, its lines for stats kab can hold */
static const char *const allow[] = {
	"^stress-ng\\..+\\.fail",
};

/* etc/report-allowlist (its dots are regex dots, as in lkp) */
static const char *const report[] = {
	"^boot-meminfo.", "^boot-slabinfo.", "^boot-time.", "^cpuidle.",
	"^iostat.", "^lock_stat.", "^meminfo.", "^mpstat.",
	"^numa-meminfo.", "^numa-numastat.", "^numa-vmstat.",
	"^perf-profile.", "^perf-stat.", "^proc-vmstat.", "^sched_debug.",
	"^time.", "^turbostat.", "^uptime.", "^vmstat.",
};

/* etc/perf-metrics-patterns */
static const char *const perf[] = {
	"^(.*\\.)?time..*", "^lock_stat..*..contentions",
};

/* etc/perf-metrics-prefixes */
static const char *const perf_prefixes[] = {
	"boot-meminfo.DirectMap1G", "boot-meminfo.DirectMap2M",
	"boot-meminfo.DirectMap4k", "boot-meminfo.KernelStack",
	"boot-meminfo.MemFree", "boot-meminfo.MemTotal",
	"boot-meminfo.PageTables", "boot-meminfo.Slab",
	"boot-meminfo.VmallocUsed", "boot-memory.bootmem", "boot-memory.code",
	"boot-memory.init", "boot-slabinfo.", "boot-time.", "energy.",
	"interrupts.CAL:Function_call_interrupts", "iostat.",
	"perf-c2c.HITM.total",
	"perf-profile.children.cycles-pp.native_queued_spin_lock_slowpath",
	"perf-stat.", "pmeter.", "proc-vmstat.", "turbostat.%Busy",
	"turbostat.Bzy_MHz", "turbostat.C1%", "turbostat.C1E%",
	"turbostat.CorWatt", "turbostat.Pk%pc10", "turbostat.Pkg%pc2",
	"turbostat.Pkg%pc3", "turbostat.Pkg%pc6", "turbostat.Pkg%pc7",
	"turbostat.Pkg%pc8", "turbostat.Pkg%pc9", "turbostat.PkgTmp",
	"turbostat.PkgWatt", "turbostat.POLL%", "turbostat.RAMWatt",
	"turbostat.SYS%LPI", "vmstat.cpu.", "vmstat.io.", "vmstat.swap.",
	"vmstat.system.",
};

/* etc/perf-metrics-threshold.yaml, in its order: the first match rules */
static const struct threshold {
	const char *re;
	double v;
	bool integer;	/* a YAML integer: delta must reach v / 2 too */
} thresholds[] = {
	{ ".*.time.elapsed_time.*", 10, true },
	{ ".*.time.file_system_inputs", 10000, true },
	{ ".*.time.file_system_outputs", 10000, true },
	{ ".*.time.involuntary_context_switches", 1000, true },
	{ ".*.time.major_page_faults", 1000, true },
	{ ".*.time.minor_page_faults", 1000, true },
	{ ".*.time.socket_messages_received", 10000, true },
	{ ".*.time.socket_messages_sent", 10000, true },
	{ ".*.time.swaps", 1000, true },
	{ ".*.time.system_time", 10, true },
	{ ".*.time.user_time", 10, true },
	{ ".*.time.voluntary_context_switches", 1000, true },
	{ ".*vmstat.*nr_.*", 100, true },
	{ "dd.kill_time", 10, true },
	{ "dd.startup_time", 10, true },
	{ "interrupts.*", 100, true },
	{ "iostat.*.avgrq-sz", 200, true },
	{ "iostat.*.await", 50, true },
	{ "iostat.*.util", 10, true },
	{ "iostat.*.[rw]/s", 50, true },
	{ "iostat.*.[rw]kB/s", 100, true },
	{ "iostat.*.[rw]_await", 50, true },
	{ "perf-c2c.HITM.total", 3000, true },
	{ "perf-profile.*", 1, true },
	{ "perf-profile.children.cycles-pp.native_queued_spin_lock_slowpath",
	  2.00, false },
	{ "proc-vmstat.allocstall", 100, true },
	{ "proc-vmstat.compact_fail", 100, true },
	{ "proc-vmstat.compact_stall", 100, true },
	{ "proc-vmstat.htlb_buddy_alloc_fail", 100, true },
	{ "proc-vmstat.kswapd_high_wmark_hit_quickly", 100, true },
	{ "proc-vmstat.kswapd_low_wmark_hit_quickly", 100, true },
	{ "proc-vmstat.nr_vmscan_immediate_reclaim", 100, true },
	{ "proc-vmstat.nr_vmscan_write", 100, true },
	{ "proc-vmstat.pgmigrate_fail", 100, true },
	{ "sysbench-fileio.latency_95th_ms", 10, true },
	{ "vmstat.cpu.id", 10, true },
	{ "vmstat.cpu.st", 10, true },
	{ "vmstat.cpu.sy", 50, true },
	{ "vmstat.cpu.us", 10, true },
	{ "vmstat.cpu.wa", 10, true },
	{ "vmstat.io.bi", 100, true },
	{ "vmstat.io.bo", 100, true },
	{ "vmstat.system.cs", 100, true },
	{ "vmstat.system.in", 100, true },
	{ "xfstests.*.seconds", 10, true },
};

/*
 * Each list compiled once, on first use; a pattern that does not
 * compile (none should) never matches.
 */
struct compiled {
	regex_t *r;
	bool *ok;
};

static bool compile_list(const char *const *re, size_t nr, bool anchor,
			 struct compiled *c)
{
	size_t i;

	if (c->r)
		return true;
	c->r = calloc(nr, sizeof(*c->r));
	c->ok = calloc(nr, sizeof(*c->ok));
	if (!c->r || !c->ok) {
		free(c->r);
		free(c->ok);
		c->r = NULL;
		c->ok = NULL;
		return false;
	}
	for (i = 0; i < nr; i++) {
		size_t len = strlen(re[i]) + 5;
		char *full = malloc(len);

		if (!full)
			continue;
		snprintf(full, len, anchor ? "^(%s)$" : "%s", re[i]);
		c->ok[i] = !regcomp(&c->r[i], full, REG_EXTENDED | REG_NOSUB);
		free(full);
	}
	return true;
}

/* The index of the first pattern of the list that matches, or -1. */
static long first_match(const char *const *re, size_t nr, bool anchor,
			struct compiled *c, const char *s)
{
	size_t i;

	if (!compile_list(re, nr, anchor, c))
		return -1;
	for (i = 0; i < nr; i++)
		if (c->ok[i] && !regexec(&c->r[i], s, 0, NULL, 0))
			return (long)i;
	return -1;
}

static struct compiled deny_c, allow_c, report_c, perf_c;

#define MATCHES(list, s) \
	(first_match(list, ARRAY_SIZE(list), false, &list##_c, s) >= 0)

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* The part of a stat before its first dot: lkp's stat_key_base. */
static size_t base_len(const char *k)
{
	return strcspn(k, ".");
}

bool kab_lkp_is_suite(const char *metric, const char *const *suites,
		      size_t nr)
{
	static const char *const kab_suites[] = { "will-it-scale",
						  "stress-ng" };
	size_t i, n = base_len(metric);

	for (i = 0; i < ARRAY_SIZE(kab_suites); i++)
		if (strlen(kab_suites[i]) == n &&
		    !strncmp(metric, kab_suites[i], n))
			return true;
	for (i = 0; i < nr; i++)
		if (suites[i] && strlen(suites[i]) == n &&
		    !strncmp(metric, suites[i], n))
			return true;
	return false;
}

bool kab_lkp_reported(const char *k)
{
	if (MATCHES(allow, k))
		return true;	/* bisectable */
	if (!MATCHES(deny, k))
		return true;
	return MATCHES(report, k);
}

static bool perf_metric(const char *k, const struct kab_lkp_ctx *ctx)
{
	size_t i;

	if (MATCHES(perf, k))
		return true;
	for (i = 0; i < ARRAY_SIZE(perf_prefixes); i++)
		if (starts(k, perf_prefixes[i]))
			return true;
	/* a test suite's own stats ("will-it-scale.") */
	return k[base_len(k)] == '.' &&
	       kab_lkp_is_suite(k, ctx->suites, ctx->nr_suites);
}

static const char *threshold_re[ARRAY_SIZE(thresholds)];

static bool reasonable(const char *k, double delta, double max)
{
	static struct compiled c;
	const struct threshold *t;
	size_t i;
	long m;

	if (!threshold_re[0])	/* once */
		for (i = 0; i < ARRAY_SIZE(thresholds); i++)
			threshold_re[i] = thresholds[i].re;
	m = first_match(threshold_re, ARRAY_SIZE(thresholds), true, &c, k);
	if (m >= 0) {
		t = &thresholds[m];
		if (max < t->v)
			return false;
		/* Ruby's Integer / 2 */
		if (t->integer && delta < (double)((long long)t->v / 2))
			return false;
		return true;
	}
	if (starts(k, "iostat"))
		return max > 1;
	if (starts(k, "pagetypeinfo") || starts(k, "buddyinfo") ||
	    starts(k, "slabinfo"))
		return delta > 100;
	if (starts(k, "proc-vmstat") || strstr(k, "meminfo"))
		return max > 1000;
	if (starts(k, "lock_stat"))
		return strstr(k, "time") ? delta > 1000 : delta > 10000;
	if (starts(k, "interrupts") || starts(k, "softirqs"))
		return max > 10000;
	return true;
}

/* lkp's StatSummary of one side's values, zero-filled to its runs. */
struct summary {
	double *s;
	size_t n;
	bool int_mean;	/* the "mean" is a filled (integer) zero */
	double min, mean, max;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static bool summarize(const double *v, size_t n, size_t cols,
		      size_t max_margin, struct summary *out)
{
	size_t len = n > cols ? n : cols, i, lead = 0, margin;

	memset(out, 0, sizeof(*out));
	out->s = calloc(len ? len : 1, sizeof(*out->s));
	if (!out->s)
		return false;
	if (n)
		memcpy(out->s, v, n * sizeof(*v));
	qsort(out->s, len, sizeof(*out->s), cmp_double);
	while (lead < len && out->s[lead] == -1)
		lead++;
	margin = len >> 5;
	if (margin > max_margin)
		margin = max_margin;
	if (len - lead <= 2 * margin)
		return true;	/* empty */
	out->n = len - lead - 2 * margin;
	memmove(out->s, out->s + lead + margin, out->n * sizeof(*out->s));
	out->min = out->s[0];
	out->mean = out->s[out->n / 2];
	out->max = out->s[out->n - 1];
	/* only lkp's fills are integers: count the stored zeros */
	if (out->mean == 0 && len > n) {
		size_t zeros = 0;

		for (i = 0; i < n; i++)
			zeros += v[i] == 0;
		out->int_mean = !zeros;
	}
	return true;
}

bool kab_lkp_stat_changed(const char *k, const struct kab_lkp_values *head,
			  const struct kab_lkp_values *base,
			  const struct kab_lkp_ctx *ctx)
{
	struct summary a, b;
	double high, low, delta, ratio, max;
	bool pp = starts(k, "perf-profile."), changed = false;

	if (!kab_lkp_reported(k))
		return false;
	if (head->cols < 3 && base->cols < 3)
		return false;
	/* newly added monitors have nothing to compare in the base */
	if (!base->n && !((pp || starts(k, "lock_stat.")) && base->family))
		return false;
	if (!summarize(base->v, base->n, base->cols, 3, &b))
		return false;
	if (!b.n || !summarize(head->v, head->n, head->cols,
			       base->cols <= 3 ? 1 : 3, &a)) {
		free(b.s);
		return false;
	}
	if (!a.n)
		goto out;
	if (pp && a.int_mean) {
		changed = a.mean > 5 || b.mean > 5;
		goto out;
	}
	if (!((b.min > a.mean && b.mean > a.max) ||
	      (a.min > b.mean && a.mean > b.max)))
		goto out;
	if (pp) {
		changed = true;
		goto out;
	}
	max = a.max > b.max ? a.max : b.max;
	high = a.mean > b.mean ? a.mean : b.mean;
	low = a.mean > b.mean ? b.mean : a.mean;
	delta = high - low;
	ratio = low > 0 ? high / low : 5;
	if (ratio > 5)
		ratio = 5;
	changed = ratio > 1.01 && (ratio > 1.05 || perf_metric(k, ctx)) &&
		  reasonable(k, delta, max);
out:
	free(a.s);
	free(b.s);
	return changed;
}
