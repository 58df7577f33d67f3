// SPDX-License-Identifier: GPL-2.0
/*
 * test-monitors.c - the parsers behind proc-vmstat and meminfo, the
 * perf-stat derivations (including the hardware path this VM cannot
 * exercise for real), and the summary statistics.
 */
#include <math.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"
#include "../../analysis/analysis.h"
#include "../../runner/runner.h"

static double kv_get(const struct kab_kv *kv, const char *key)
{
	int i;

	for (i = 0; i < kv->nr; i++)
		if (!strcmp(kv->key[i], key))
			return kv->val[i];
	return NAN;
}

static void test_vmstat(void **state)
{
	struct kab_kv kv = { 0 };
	char *t = fixture("proc-vmstat.txt", NULL);

	assert_int_equal(kab_parse_vmstat(t, &kv), 0);
	assert_int_equal(kv.nr, 40);
	assert_false(isnan(kv_get(&kv, "nr_free_pages")));
	kab_kv_free(&kv);
	free(t);

	t = fixture("proc-vmstat-odd.txt", NULL);
	assert_int_equal(kab_parse_vmstat(t, &kv), 0);
	assert_int_equal(kv.nr, 2);	/* the odd lines are skipped */
	assert_true(kv_get(&kv, "pgfault") == 1234567890123.0);
	kab_kv_free(&kv);
	free(t);
	assert_int_equal(kab_parse_vmstat("", &kv), -1);
}

static void test_interrupts(void **state)
{
	struct kab_kv kv = { 0 };
	char *t = fixture("proc-interrupts.txt", NULL);

	assert_int_equal(kab_parse_interrupts(t, &kv), 0);
	/* lkp's names; CPU2 after CPU0: the hole of a CPU taken offline */
	assert_true(kv_get(&kv, "CPU0.LOC:Local_timer_interrupts") == 486401);
	assert_true(kv_get(&kv, "CPU2.LOC:Local_timer_interrupts") == 204580);
	assert_true(kv_get(&kv, "LOC:Local_timer_interrupts") == 486401 + 204580);
	assert_true(kv_get(&kv, "CAL:Function_call_interrupts") == 7417 + 3490);
	assert_true(kv_get(&kv, "9:IO-APIC.9-fasteoi.acpi") == 441);
	assert_true(kv_get(&kv, "CPU2.9:IO-APIC.9-fasteoi.acpi") == 100);
	assert_true(kv_get(&kv, "24:PCI-MSI.65536-edge.virtio0-config") == 12);
	assert_true(kv_get(&kv, "NMI:Non-maskable_interrupts") == 0);
	/* one count for all CPUs: the sum only */
	assert_true(kv_get(&kv, "MIS:") == 3);
	assert_true(isnan(kv_get(&kv, "CPU0.MIS:")));
	assert_true(isnan(kv_get(&kv, "CPU1.LOC:Local_timer_interrupts")));
	assert_int_equal(kv.nr, 6 * 3 + 2);
	kab_kv_free(&kv);
	free(t);
	assert_int_equal(kab_parse_interrupts("no header\n", &kv), -1);
	assert_int_equal(kab_parse_interrupts("", &kv), -1);

	t = fixture("proc-softirqs.txt", NULL);
	assert_int_equal(kab_parse_softirqs(t, &kv), 0);
	assert_true(kv_get(&kv, "CPU0.RCU") == 50384);
	assert_true(kv_get(&kv, "CPU2.TIMER") == 60141);
	assert_true(kv_get(&kv, "RCU") == 50384 + 33143);
	assert_true(kv_get(&kv, "NET_RX") == 4);
	assert_int_equal(kv.nr, 4 * 3);
	kab_kv_free(&kv);
	free(t);
}

static void test_dmesg(void **state)
{
	static const char *const log[] = {
		"WARNING: CPU: 0 PID: 1 at mm/page_alloc.c:4416 __alloc_pages",
		"BUG: unable to handle page fault for address: 0000000000000008",
		"Oops: 0000 [#1] PREEMPT SMP NOPTI",
		"watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [malloc1:42]",
		"rcu: INFO: rcu_preempt self-detected stall on CPU",
		"random: crng init done",
	};
	struct kab_metrics m = { 0 };
	double n[5] = { 0 };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(log); i++)
		kab_dmesg_count(log[i], strlen(log[i]), n);
	/* a quiet kernel's log counts nothing, but says so */
	kab_dmesg_metrics(n, &m);
	assert_int_equal(m.nr, 5);
	assert_true(kab_metrics_find(&m, "dmesg.WARNING")->value == 1);
	/* the soft lockup is a BUG: line too, as the kernel prints it */
	assert_true(kab_metrics_find(&m, "dmesg.BUG")->value == 2);
	assert_true(kab_metrics_find(&m, "dmesg.Oops")->value == 1);
	assert_true(kab_metrics_find(&m, "dmesg.soft_lockup")->value == 1);
	assert_true(kab_metrics_find(&m, "dmesg.RCU_stall")->value == 1);
	kab_metrics_free(&m);
	memset(n, 0, sizeof(n));
	kab_dmesg_count("a WARNING: x", 3, n);	/* only len bytes count */
	kab_dmesg_metrics(n, &m);
	assert_true(kab_metrics_find(&m, "dmesg.WARNING")->value == 0);
	kab_metrics_free(&m);
}

static void test_meminfo(void **state)
{
	struct kab_kv kv = { 0 };
	char *t = fixture("proc-meminfo.txt", NULL);

	assert_int_equal(kab_parse_meminfo(t, &kv), 0);
	assert_true(kv_get(&kv, "MemTotal") > 1000);
	assert_false(isnan(kv_get(&kv, "AnonHugePages")));
	assert_false(isnan(kv_get(&kv, "Active(anon)")));
	kab_kv_free(&kv);
	free(t);
}

static void test_numa_nodes(void **state)
{
	struct kab_kv kv = { 0 };
	const char *fx = getenv("KAB_FIXTURES");
	char *dir;
	int i;

	assert_non_null(fx);
	dir = xasprintf("%s/sys-node", fx);
	/* node0 and node2 (a hole), not nodeX, power or the files */
	assert_int_equal(kab_read_nodes(dir, "meminfo", &kv), 0);
	assert_true(kv_get(&kv, "node0.MemTotal") == 12281592);
	assert_true(kv_get(&kv, "node2.MemTotal") == 12288000);
	assert_false(isnan(kv_get(&kv, "node2.HugePages_Total")));
	for (i = 0; i < kv.nr; i++) {
		assert_true(!strncmp(kv.key[i], "node0.", 6) ||
			    !strncmp(kv.key[i], "node2.", 6));
		assert_null(strstr(kv.key[i], "Node"));
	}
	kab_kv_free(&kv);
	assert_int_equal(kab_read_nodes(dir, "vmstat", &kv), 0);
	assert_int_equal(kv.nr, 14);
	assert_true(kv_get(&kv, "node2.nr_free_pages") == 42);
	assert_true(kv_get(&kv, "node0.numa_hit") == 2397787881.0);
	assert_true(isnan(kv_get(&kv, "nodeX.nr_free_pages")));
	kab_kv_free(&kv);
	free(dir);
	/* a kernel without NUMA has no node directory: nothing, no crash */
	assert_int_equal(kab_read_nodes("/nonexistent", "vmstat", &kv), -1);
	assert_int_equal(kv.nr, 0);
}

static void expect_bad(const char *list, const char *want)
{
	char *bad = kab_monitor_check(list);

	if (!bad || strcmp(bad, want))
		fail_msg("'%s': bad item '%s', not '%s'", list,
			 bad ? bad : "(none)", want);
	free(bad);
}

static void test_monitor_list(void **state)
{
	const char *ok[] = {
		"all", "none", "perf-profile", "perf-profile=4000",
		"all,perf-profile=100", "proc-vmstat,numa-meminfo,dmesg",
		"perf-profile=20000,interrupts",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ok); i++)
		assert_null(kab_monitor_check(ok[i]));
	expect_bad("nosuch", "nosuch");
	expect_bad("proc-vmstat,proc-vmstatx", "proc-vmstatx");
	expect_bad("perf-profile=99", "perf-profile=99");
	expect_bad("perf-profile=20001", "perf-profile=20001");
	expect_bad("perf-profile=4k", "perf-profile=4k");
	expect_bad("perf-profile=", "perf-profile=");
	expect_bad("meminfo=3", "meminfo=3");
	expect_bad("none,meminfo", "none");
	/* what would reach a guest's kernel command line */
	expect_bad("all rdinit=/bin/sh", "all rdinit=/bin/sh");
	expect_bad("", "");
	expect_bad("meminfo,", "");
	expect_bad("meminfo,,dmesg", "");

	assert_true(kab_monitor_selected(NULL, "meminfo"));
	assert_true(kab_monitor_selected("all,perf-profile=4000", "meminfo"));
	assert_true(kab_monitor_selected("perf-profile=4000", "perf-profile"));
	assert_false(kab_monitor_selected("perf-profile=4000", "proc-vmstat"));
	assert_false(kab_monitor_selected("numa-vmstat", "numa-vmstat-x"));
	assert_false(kab_monitor_selected("none", "meminfo"));

	assert_int_equal(kab_monitor_profile_freq(NULL), KAB_PROFILE_FREQ);
	assert_int_equal(kab_monitor_profile_freq("all"), KAB_PROFILE_FREQ);
	assert_int_equal(kab_monitor_profile_freq("dmesg,perf-profile=4000"),
			 4000);
	(void)state;
}

static double m_get(const struct kab_metrics *m, const char *name)
{
	const struct kab_metric *x = kab_metrics_find(m, name);

	return x ? x->value : NAN;
}

static void test_perf_derive_hardware(void **state)
{
	struct kab_metrics raw = { 0 }, out = { 0 };

	kab_metrics_add(&raw, "cpu-cycles", 4e9);
	kab_metrics_add(&raw, "instructions", 1e9);
	kab_metrics_add(&raw, "branch-instructions", 2e8);
	kab_metrics_add(&raw, "branch-misses", 1e6);
	kab_metrics_add(&raw, "page-faults", 500);
	kab_perf_derive(&raw, 2.0, &out);
	assert_true(m_get(&out, "perf-stat.total.instructions") == 1e9);
	assert_true(m_get(&out, "perf-stat.ps.instructions") == 5e8);
	assert_true(m_get(&out, "perf-stat.ps.page-faults") == 250);
	assert_true(m_get(&out, "perf-stat.overall.ipc") == 0.25);
	assert_true(m_get(&out, "perf-stat.overall.cpi") == 4);
	assert_true(m_get(&out, "perf-stat.overall.branch-miss-rate%") == 0.5);
	assert_true(isnan(m_get(&out, "perf-stat.overall.cache-miss-rate%")));
	kab_metrics_free(&raw);
	kab_metrics_free(&out);
}

static void test_perf_derive_software_only(void **state)
{
	struct kab_metrics raw = { 0 }, out = { 0 };

	kab_metrics_add(&raw, "task-clock", 1500);
	kab_perf_derive(&raw, 0, &out);
	assert_int_equal(out.nr, 1);	/* no per-second without time */
	assert_true(isnan(m_get(&out, "perf-stat.overall.ipc")));
	kab_metrics_free(&raw);
	kab_metrics_free(&out);
}

/* Population stddev, as lkp prints it; compared with numbers by hand. */
static void test_summary(void **state)
{
	double v[] = { 4, 2, 5, 5, 4, 7, 9, 4 };
	double one[] = { 3 };
	struct kab_summary s;

	kab_summarize(v, 8, &s);
	assert_int_equal(s.n, 8);
	assert_true(s.mean == 5);
	assert_true(s.stddev == 2);	/* sqrt(32 / 8) */
	assert_true(s.median == 4.5);
	assert_true(s.min == 2 && s.max == 9);
	assert_true(kab_summary_pct(&s) == 40);
	kab_summarize(one, 1, &s);
	assert_true(s.stddev == 0);
	kab_summarize(NULL, 0, &s);
	assert_int_equal(s.n, 0);
}

/* Until this process has used n clock ticks of CPU more. */
static void burn_ticks(clock_t n)
{
	struct tms t;
	clock_t end;
	volatile unsigned long x = 0;

	times(&t);
	end = t.tms_utime + t.tms_stime + n;
	do {
		for (int i = 0; i < 100000; i++)
			x += i;
		times(&t);
	} while (t.tms_utime + t.tms_stime < end);
}

/*
 * A process's CPU time from /proc/PID/stat: QEMU's progress, which
 * times a boot out.  Its command's name may hold anything, ") 9 9 ("
 * too: the fields are read after the last ')'.
 */
static void test_proc_cpu_seconds(void **state)
{
	double tick = (double)sysconf(_SC_CLK_TCK), self;
	struct tms t;
	int fd[2];
	char c;
	pid_t pid;

	(void)state;
	burn_ticks(5);
	self = kab_proc_cpu_seconds(getpid());
	times(&t);
	assert_true(fabs(self - (t.tms_utime + t.tms_stime) / tick) <=
		    2 / tick);
	assert_int_equal(pipe(fd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		prctl(PR_SET_NAME, "q) 7 7 7 (x");
		burn_ticks(30);
		if (write(fd[1], "!", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	/* read, then end the child before any assertion can fail */
	self = read(fd[0], &c, 1) == 1 ? kab_proc_cpu_seconds(pid) : -2;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	/* at least the 30 ticks it burnt, and not what it did not */
	assert_true(self >= 30 / tick && self < 30 / tick + 1);
	/* gone: no figure */
	assert_true(kab_proc_cpu_seconds(pid) == -1);
	close(fd[0]);
	close(fd[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vmstat),
		cmocka_unit_test(test_meminfo),
		cmocka_unit_test(test_interrupts),
		cmocka_unit_test(test_numa_nodes),
		cmocka_unit_test(test_monitor_list),
		cmocka_unit_test(test_dmesg),
		cmocka_unit_test(test_perf_derive_hardware),
		cmocka_unit_test(test_perf_derive_software_only),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_proc_cpu_seconds),
	};

	return cmocka_run_group_tests_name("monitors", tests, NULL, NULL);
}
