// SPDX-License-Identifier: GPL-2.0
/*
 * test-collect.c - the host side refuses what a hostile or broken agent
 * could send, and hands over only whole iterations.
 */
#include <math.h>

#include "test.h"
#include "../../runner/runner.h"

struct got {
	int started;
	int iterations[16];
	int nr_iter;
	int nr_metrics[16];
	double first_value[16];
	char error[256];
	int stacks_it[16];
	size_t stacks_nr[16];
	uint64_t stacks_first[16];
	int nr_stacks;
};

static int g_start(void *ctx, const struct kab_run_start *st)
{
	struct got *g = ctx;

	g->started++;
	assert_string_equal(st->release, "6.1.0-test");
	assert_true(st->iterations == 2 || st->iterations == 3);
	return 0;
}

static int g_iteration(void *ctx, int it, const struct kab_metrics *m)
{
	struct got *g = ctx;

	g->iterations[g->nr_iter] = it;
	g->nr_metrics[g->nr_iter] = m->nr;
	g->first_value[g->nr_iter] = m->nr ? m->v[0].value : NAN;
	g->nr_iter++;
	return 0;
}

static int g_stacks(void *ctx, int it, const struct kab_stacks *st)
{
	struct got *g = ctx;

	assert_string_equal(st->event, "cpu-clock");
	g->stacks_it[g->nr_stacks] = it;
	g->stacks_nr[g->nr_stacks] = st->nr;
	g->stacks_first[g->nr_stacks] = st->nr ? st->n[0] : 0;
	g->nr_stacks++;
	return 0;
}

static void g_error(void *ctx, const char *msg)
{
	struct got *g = ctx;

	snprintf(g->error, sizeof(g->error), "%s", msg);
}

static const struct kab_collect_ops ops = {
	.start = g_start,
	.iteration = g_iteration,
	.stacks = g_stacks,
	.error = g_error,
};

static void put(struct strbuf *sb, const char *type, const char *json)
{
	json_t *b = json_loads(json, 0, NULL);
	size_t len;
	char *r;

	assert_non_null(b);
	r = kab_record_encode(type, b, &len);
	strbuf_add(sb, r, len);
	free(r);
	json_decref(b);
}

/* A raw record whose JSON the encoder would never write. */
static void put_raw(struct strbuf *sb, const char *payload)
{
	strbuf_addf(sb, "@KAB1 %zu %08x %s\n", strlen(payload),
		    kab_crc32(payload, strlen(payload)), payload);
}

static const char *start =
	"{\"job\":{}, \"host\":{\"release\":\"6.1.0-test\"},"
	" \"resolved\":{}, \"iterations\":2, \"expected_seconds\":3.5}";

static enum kab_run_status run(struct strbuf *sb, struct got *g,
			       struct kab_reader_stats *stats,
			       const char **msg)
{
	struct kab_collector *c = kab_collector_new(&ops, g);
	enum kab_run_status st;

	kab_collector_feed(c, sb->buf, sb->len);
	st = kab_collector_finish(c, msg);
	kab_collector_stats(c, stats);
	if (msg && *msg) {
		static char keep[256];

		snprintf(keep, sizeof(keep), "%s", *msg);
		*msg = keep;
	}
	kab_collector_free(c);
	return st;
}

static void test_good_run(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct kab_reader_stats stats;
	struct got g = { 0 };

	put(&sb, "start", start);
	put(&sb, "iter", "{\"iteration\":1}");
	put(&sb, "sample", "{\"iteration\":1, \"metrics\":{\"a.ops\":10.5}}");
	put(&sb, "monitor", "{\"iteration\":1, \"metrics\":{\"meminfo.X\":3}}");
	put(&sb, "iter_end", "{\"iteration\":1}");
	strbuf_addstr(&sb, "[  1.0] kernel noise\n");
	put(&sb, "iter", "{\"iteration\":2}");
	put(&sb, "sample", "{\"iteration\":2, \"metrics\":{\"a.ops\":11}}");
	put(&sb, "iter_end", "{\"iteration\":2}");
	put(&sb, "end", "{\"status\":\"ok\"}");
	assert_int_equal(run(&sb, &g, &stats, NULL), KAB_RUN_OK);
	assert_int_equal(g.started, 1);
	assert_int_equal(g.nr_iter, 2);
	assert_int_equal(g.nr_metrics[0], 2);
	assert_true(g.first_value[0] == 10.5);
	assert_int_equal(stats.garbage_bytes, strlen("[  1.0] kernel noise\n"));
	assert_int_equal(stats.bad_records, 0);
	strbuf_release(&sb);
}

static void test_stacks(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct kab_reader_stats stats;
	struct got g = { 0 };
	const char *ok = "{\"iteration\":1, \"source\":\"perf-profile\","
			 " \"event\":\"cpu-clock\", \"samples\":10,"
			 " \"stacks\":{\"main;f\":7, \"main;g\":2}}";

	put(&sb, "start", start);
	put(&sb, "iter", "{\"iteration\":1}");
	put(&sb, "sample", "{\"iteration\":1, \"metrics\":{\"a.ops\":1}}");
	put(&sb, "stacks", ok);
	put(&sb, "stacks", ok);				/* twice */
	/* not counted in records: a kab that does not know them drops them */
	put(&sb, "iter_end", "{\"iteration\":1, \"records\":1}");
	put(&sb, "iter", "{\"iteration\":2}");
	put(&sb, "sample", "{\"iteration\":2, \"metrics\":{\"a.ops\":1}}");
	/*
	 * each refused whole: a frame with a space, an empty frame, an
	 * escape, more samples than the profile had, another iteration's
	 */
	put(&sb, "stacks", "{\"iteration\":2, \"source\":\"perf-profile\","
	    " \"event\":\"cpu-clock\", \"samples\":10, \"stacks\":"
	    "{\"main;f\":7, \"main;a b\":1}}");
	put(&sb, "stacks", "{\"iteration\":2, \"source\":\"perf-profile\","
	    " \"event\":\"cpu-clock\", \"samples\":10, \"stacks\":"
	    "{\"main;;f\":7}}");
	put(&sb, "stacks", "{\"iteration\":2, \"source\":\"perf-profile\","
	    " \"event\":\"cpu-clock\", \"samples\":10, \"stacks\":"
	    "{\"main;\\u001b[2J\":7}}");
	put(&sb, "stacks", "{\"iteration\":2, \"source\":\"perf-profile\","
	    " \"event\":\"cpu-clock\", \"samples\":10, \"stacks\":"
	    "{\"main;f\":11}}");
	put(&sb, "stacks", "{\"iteration\":1, \"source\":\"perf-profile\","
	    " \"event\":\"cpu-clock\", \"samples\":10, \"stacks\":"
	    "{\"main;f\":1}}");
	put(&sb, "iter_end", "{\"iteration\":2, \"records\":1}");
	put(&sb, "end", "{\"status\":\"ok\"}");
	assert_int_equal(run(&sb, &g, &stats, NULL), KAB_RUN_OK);
	assert_int_equal(g.nr_iter, 2);
	/* iteration 1's stacks, once; none of iteration 2's */
	assert_int_equal(g.nr_stacks, 1);
	assert_int_equal(g.stacks_it[0], 1);
	assert_int_equal(g.stacks_nr[0], 2);
	assert_int_equal(stats.bad_records, 6);
	strbuf_release(&sb);
}

static void test_hostile_values(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct kab_reader_stats stats;
	struct got g = { 0 };

	put(&sb, "sample", "{\"iteration\":1, \"metrics\":{\"early\":1}}");
	put(&sb, "start", start);
	put(&sb, "start", start);			/* twice */
	put(&sb, "iter", "{\"iteration\":1}");
	put(&sb, "iter", "{\"iteration\":1}");		/* again */
	put(&sb, "sample", "{\"iteration\":1, \"metrics\":{"
	    "\"ok.metric\":1, \"bad name\":2, \"bad,comma\":3,"
	    "\"str\":\"x\"}}");
	/* A record with a duplicate key is refused whole. */
	put_raw(&sb, "{\"t\":\"sample\",\"iteration\":1,"
		"\"metrics\":{\"dup\":1,\"dup\":2}}");
	put(&sb, "sample", "{\"iteration\":1, \"metrics\":{"
	    "\"good\":1, \"evil\\u0007\":2, \"huge\":1e308}}");
	put_raw(&sb, "{\"t\":\"sample\",\"iteration\":1,"
		"\"metrics\":{\"inf\":1e999}}");
	put(&sb, "sample", "{\"iteration\":7, \"metrics\":{\"late\":1}}");
	put(&sb, "iter_end", "{\"iteration\":1}");
	put(&sb, "error", "{\"message\":\"bad\\u001b[31m thing\"}");
	put(&sb, "end", "{\"status\":\"failed\"}");
	put(&sb, "iter", "{\"iteration\":2}");		/* after end */
	assert_int_equal(run(&sb, &g, &stats, NULL), KAB_RUN_FAILED);
	assert_int_equal(g.started, 1);
	assert_int_equal(g.nr_iter, 1);
	/*
	 * ok.metric and good survive; 1e308 is finite but beyond
	 * KAB_SAMPLE_MAX (its square is not), so it goes with the rest.
	 */
	assert_int_equal(g.nr_metrics[0], 2);
	assert_null(strchr(g.error, 0x1b));
	assert_true(stats.bad_records >= 6);
	strbuf_release(&sb);
}

/* A stream that stops mid-iteration: that iteration is never handed over. */
static void test_cut_stream(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct kab_reader_stats stats;
	struct got g = { 0 };
	const char *msg;

	put(&sb, "start", start);
	put(&sb, "iter", "{\"iteration\":1}");
	put(&sb, "sample", "{\"iteration\":1, \"metrics\":{\"a\":1}}");
	put(&sb, "iter_end", "{\"iteration\":1}");
	put(&sb, "iter", "{\"iteration\":2}");
	put(&sb, "sample", "{\"iteration\":2, \"metrics\":{\"a\":2}}");
	assert_int_equal(run(&sb, &g, &stats, &msg), KAB_RUN_INTERRUPTED);
	assert_int_equal(g.nr_iter, 1);
	assert_non_null(strstr(msg, "without an end record"));
	strbuf_release(&sb);
}

/* "ok" with fewer iterations than announced is not ok. */
static void test_short_ok_is_failure(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct kab_reader_stats stats;
	struct got g = { 0 };

	put(&sb, "start", start);
	put(&sb, "iter", "{\"iteration\":1}");
	put(&sb, "sample", "{\"iteration\":1, \"metrics\":{\"a\":1}}");
	put(&sb, "iter_end", "{\"iteration\":1}");
	put(&sb, "end", "{\"status\":\"ok\"}");
	assert_int_equal(run(&sb, &g, &stats, NULL), KAB_RUN_FAILED);
	strbuf_release(&sb);
}

/*
 * A start record damaged on a lossy console: the records after it are
 * refused, and the agent's "ok" at the end is no run that went well.
 */
static void test_lost_start_is_failure(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct kab_reader_stats stats;
	struct got g = { 0 };
	const char *msg = NULL;
	size_t at;
	int it;

	put(&sb, "start", start);
	at = sb.len / 2;
	sb.buf[at] = sb.buf[at] == 'x' ? 'y' : 'x';	/* a byte changed */
	for (it = 1; it <= 2; it++) {
		char body[64];

		snprintf(body, sizeof(body), "{\"iteration\":%d}", it);
		put(&sb, "iter", body);
		snprintf(body, sizeof(body),
			 "{\"iteration\":%d, \"metrics\":{\"a\":1}}", it);
		put(&sb, "sample", body);
		snprintf(body, sizeof(body), "{\"iteration\":%d}", it);
		put(&sb, "iter_end", body);
	}
	put(&sb, "end", "{\"status\":\"ok\"}");
	assert_int_equal(run(&sb, &g, &stats, &msg), KAB_RUN_FAILED);
	assert_int_equal(g.started, 0);
	assert_int_equal(g.nr_iter, 0);
	assert_non_null(msg);
	assert_non_null(strstr(msg, "start record was lost"));
	assert_int_equal(stats.bad_records, 7);
	strbuf_release(&sb);
}

/* An iteration missing a record is dropped whole; the next one counts. */
static void test_lost_record_drops_iteration(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct kab_reader_stats stats;
	struct got g = { 0 };
	const char *msg;

	put(&sb, "start", start);
	put(&sb, "iter", "{\"iteration\":1}");
	put(&sb, "sample", "{\"iteration\":1, \"metrics\":{\"a\":1}}");
	/* the monitor record of iteration 1 was destroyed on the way */
	put(&sb, "iter_end", "{\"iteration\":1, \"records\":2}");
	put(&sb, "iter", "{\"iteration\":2}");
	put(&sb, "sample", "{\"iteration\":2, \"metrics\":{\"a\":2}}");
	put(&sb, "monitor", "{\"iteration\":2, \"metrics\":{\"m\":2}}");
	put(&sb, "iter_end", "{\"iteration\":2, \"records\":2}");
	put(&sb, "end", "{\"status\":\"ok\"}");
	assert_int_equal(run(&sb, &g, &stats, &msg), KAB_RUN_OK);
	assert_int_equal(g.nr_iter, 1);
	assert_int_equal(g.iterations[0], 2);
	assert_int_equal(g.nr_metrics[0], 2);
	assert_non_null(strstr(msg, "1 iteration lost"));
	strbuf_release(&sb);
}

/* An iteration number seen before is refused, even after its iter_end. */
static void test_repeated_iteration_refused(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct kab_reader_stats stats;
	struct got g = { 0 };

	put(&sb, "start", start);
	put(&sb, "iter", "{\"iteration\":1}");
	put(&sb, "sample", "{\"iteration\":1, \"metrics\":{\"a\":1}}");
	put(&sb, "iter_end", "{\"iteration\":1}");
	/* iteration 1 again, whole, with another value */
	put(&sb, "iter", "{\"iteration\":1}");
	put(&sb, "sample", "{\"iteration\":1, \"metrics\":{\"a\":99}}");
	put(&sb, "iter_end", "{\"iteration\":1}");
	put(&sb, "iter", "{\"iteration\":2}");
	put(&sb, "sample", "{\"iteration\":2, \"metrics\":{\"a\":2}}");
	put(&sb, "iter_end", "{\"iteration\":2}");
	put(&sb, "end", "{\"status\":\"ok\"}");
	assert_int_equal(run(&sb, &g, &stats, NULL), KAB_RUN_OK);
	assert_int_equal(g.nr_iter, 2);
	assert_int_equal(g.iterations[0], 1);
	assert_true(g.first_value[0] == 1);
	assert_int_equal(g.iterations[1], 2);
	assert_true(g.first_value[1] == 2);
	/* the repeated iter, its sample and its iter_end */
	assert_int_equal(stats.bad_records, 3);
	strbuf_release(&sb);
}

/*
 * What the guest's console says decides a boot's outcome: an RCU stall
 * or a lockup alone (with the panic softlockup_panic=1 makes of it) is
 * a host-stall, booted again; an oops or a BUG of the kernel's own is a
 * panic, whatever stalled too.
 */
static void test_console_stall(void **state)
{
	static const char rcu[] =
		"[   62.1] rcu: INFO: rcu_sched self-detected stall on CPU\n"
		"[   62.1] Call Trace:\n";
	static const char soft[] =
		"[   70.0] watchdog: BUG: soft lockup - CPU#1 stuck for 61s!\n"
		"[   70.0] Kernel panic - not syncing: softlockup: hung tasks\n";
	static const char oops[] =
		"[    9.0] BUG: kernel NULL pointer dereference, address: 0\n"
		"[    9.1] Oops: 0002 [#1] PREEMPT SMP NOPTI\n"
		"[   70.0] rcu: INFO: rcu_sched detected stalls on CPUs/tasks:\n";
	static const char quiet[] = "[    1.0] Run /init as init process\n";
	struct kab_boot b = { .console = (char *)rcu,
			      .console_len = sizeof(rcu) - 1 };

	assert_true(kab_console_stalled(rcu, sizeof(rcu) - 1));
	assert_true(kab_console_stalled(soft, sizeof(soft) - 1));
	assert_false(kab_console_stalled(oops, sizeof(oops) - 1));
	assert_false(kab_console_stalled(quiet, sizeof(quiet) - 1));
	/* a run that ended well on a starved guest is a host-stall too */
	assert_int_equal(kab_boot_classify(&b, true, KAB_RUN_OK, false),
			 KAB_BOOT_HOST_STALL);
	assert_string_equal(kab_boot_outcome_name(KAB_BOOT_HOST_STALL),
			    "host-stall");
	b.console = (char *)oops;
	b.console_len = sizeof(oops) - 1;
	b.problem = "BUG: kernel NULL pointer dereference, address: 0";
	assert_int_equal(kab_boot_classify(&b, true, KAB_RUN_FAILED, false),
			 KAB_BOOT_PANIC);
	b.console = (char *)quiet;
	b.console_len = sizeof(quiet) - 1;
	b.problem = NULL;
	assert_int_equal(kab_boot_classify(&b, true, KAB_RUN_OK, false),
			 KAB_BOOT_OK);
}

/* The target's own metrics join a whole iteration, the guest unasked. */
static void add_extra(void *ctx, int it, struct kab_metrics *m)
{
	int *calls = ctx;

	(*calls)++;
	kab_metrics_add(m, "perf-stat.total.instructions", 1000.0 * it);
}

static void test_extra_metrics(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct got g = { 0 };
	struct kab_collector *c = kab_collector_new(&ops, &g);
	int calls = 0;

	kab_collector_set_extra(c, add_extra, &calls);
	put(&sb, "start", start);
	put(&sb, "iter", "{\"iteration\":1}");
	put(&sb, "sample", "{\"iteration\":1, \"metrics\":{\"a.ops\":1}}");
	put(&sb, "iter_end", "{\"iteration\":1}");
	/* a damaged iteration gets none: it is not delivered at all */
	put(&sb, "iter", "{\"iteration\":2}");
	put(&sb, "iter_end", "{\"iteration\":2, \"records\":1}");
	put(&sb, "end", "{\"status\":\"ok\"}");
	kab_collector_feed(c, sb.buf, sb.len);
	kab_collector_finish(c, NULL);
	kab_collector_free(c);
	assert_int_equal(calls, 1);
	assert_int_equal(g.nr_iter, 1);
	assert_int_equal(g.nr_metrics[0], 2);
	strbuf_release(&sb);
}

/* One iteration's sample record: n metrics "pfx.N" from first on. */
static void put_many(struct strbuf *sb, int it, const char *pfx, int first,
		     int n)
{
	struct strbuf j = STRBUF_INIT;
	int i;

	strbuf_addf(&j, "{\"iteration\":%d, \"metrics\":{", it);
	for (i = 0; i < n; i++)
		strbuf_addf(&j, "%s\"%s.%05d\":%d", i ? "," : "", pfx,
			    first + i, i);
	strbuf_addstr(&j, "}}");
	put(sb, "sample", j.buf);
	strbuf_release(&j);
}

/*
 * Each iteration may bring 10,000 metrics, a run 20,000 distinct ones:
 * the third iteration's names beyond that are rejected, its names seen
 * before are not.
 */
static void test_run_metric_cap(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct kab_reader_stats stats;
	struct got g = { 0 };
	int it;

	put(&sb, "start", "{\"job\":{}, \"host\":{\"release\":"
	    "\"6.1.0-test\"}, \"resolved\":{}, \"iterations\":3}");
	for (it = 1; it <= 3; it++) {
		char rec[64];

		snprintf(rec, sizeof(rec), "{\"iteration\":%d}", it);
		put(&sb, "iter", rec);
		/* 9,000 new names each time, and the first 500 again */
		put_many(&sb, it, "m", (it - 1) * 9000, 9000);
		if (it > 1)
			put_many(&sb, it, "m", 0, 500);
		put(&sb, "iter_end", rec);
	}
	put(&sb, "end", "{\"status\":\"ok\"}");
	run(&sb, &g, &stats, NULL);
	assert_int_equal(g.nr_iter, 3);
	assert_int_equal(g.nr_metrics[0], 9000);
	assert_int_equal(g.nr_metrics[1], 9500);
	/* 18,000 known: 2,000 new ones fit, 7,000 do not; 500 old do */
	assert_int_equal(g.nr_metrics[2], 2500);
	strbuf_release(&sb);
}

static double metric(const struct kab_metrics *m, const char *name)
{
	const struct kab_metric *x = kab_metrics_find(m, name);

	return x ? x->value : NAN;
}

/*
 * kab-insn.so's lines: iteration N is the (2N-1)th and 2Nth mark; a
 * mark out of order (a guest's own) or a count that runs backwards
 * gives no count rather than a wrong one.
 */
static void test_insn_counts(void **state)
{
	const char *good = "kab-insn 1 inline\n"
			   "mark 1 100 1000\n"
			   "mark 2 150 3000\n"
			   "mark 1 200 4000\n"
			   "mark 2 260 9000\n"
			   "mark 1 300";		/* being written */
	const char *const bad[] = {
		"kab-insn 1 inline\nmark 2 1 1\n",		/* end first */
		"kab-insn 1 inline\nmark 1 1 1\nmark 1 2 2\n",
		"kab-insn 1 inline\nmark 1 9 9\nmark 2 1 9\n", /* backwards */
		"kab-insn 1 inline\nmark 1 1 1\nmark 2 x 2\n",
		"kab-insn 1 inline\nmark 1 1 1\nmark 2 2 2 junk\n",
		"kab-insn 1 inline\nmark 3 1 1\nmark 2 2 2\n",
		"mark 1 1 1\nmark 2 2 2\n",			/* no header */
		"",
	};
	struct kab_metrics m = { 0 };
	uint64_t u, k;
	size_t i;

	/*
	 * Iteration 1's record is read with its two marks and at most the
	 * next iteration's start; the whole file is iteration 2's.
	 */
	const char *first = "kab-insn 1 inline\n"
			    "mark 1 100 1000\n"
			    "mark 2 150 3000\n"
			    "mark 1 200 4000\n";
	/* a guest process's balanced pair between the agent's */
	const char *foreign = "kab-insn 1 inline\n"
			      "mark 1 100 1000\n"
			      "mark 2 150 3000\n"
			      "mark 1 160 3100\n"
			      "mark 2 170 3200\n"
			      "mark 1 200 4000\n"
			      "mark 2 260 9000\n";

	assert_int_equal(kab_insn_counts(first, strlen(first), 1, &u, &k), 0);
	assert_true(u == 50 && k == 2000);
	assert_int_equal(kab_insn_counts(good, strlen(good), 2, &u, &k), 0);
	assert_true(u == 60 && k == 5000);
	/* more marks than the agent made by then: no count, not a wrong one */
	assert_int_equal(kab_insn_counts(good, strlen(good), 1, &u, &k), -1);
	assert_int_equal(kab_insn_counts(foreign, 82, 1, &u, &k), -1);
	assert_int_equal(kab_insn_counts(foreign, strlen(foreign), 2, &u, &k),
			 -1);
	/*
	 * A mark's line is 95 bytes at most (zeros in front of its
	 * numbers here): a longer one is no mark of kab's plugin.
	 */
	{
		char t[256], z[96];

		memset(z, '0', sizeof(z));
		snprintf(t, sizeof(t), "kab-insn 1 inline\nmark 1 %.*s1 1\n"
			 "mark 2 3 3\n", 95 - 10, z);
		assert_int_equal(kab_insn_counts(t, strlen(t), 1, &u, &k), 0);
		assert_true(u == 2 && k == 2);
		snprintf(t, sizeof(t), "kab-insn 1 inline\nmark 1 %.*s1 1\n"
			 "mark 2 3 3\n", 96 - 10, z);
		assert_int_equal(kab_insn_counts(t, strlen(t), 1, &u, &k), -1);
	}
	/* iteration 3 has begun, not ended; 0 is no iteration */
	assert_int_equal(kab_insn_counts(good, strlen(good), 3, &u, &k), -1);
	assert_int_equal(kab_insn_counts(good, strlen(good), 0, &u, &k), -1);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		assert_int_equal(kab_insn_counts(bad[i], strlen(bad[i]), 1, &u,
						 &k), -1);

	/* lkp's rows: per iteration, :u and :k, per second and per op */
	kab_metrics_add(&m, "stress-ng.radixsort.ops", 4);
	kab_metrics_add(&m, "stress-ng.time.elapsed_time", 2);
	kab_insn_metrics(60, 5000, "stress-ng", "stress-ng.radixsort.ops", &m);
	assert_true(metric(&m, "perf-stat.total.instructions") == 5060);
	assert_true(metric(&m, "perf-stat.total.instructions:u") == 60);
	assert_true(metric(&m, "perf-stat.total.instructions:k") == 5000);
	assert_true(metric(&m, "perf-stat.ps.instructions") == 2530);
	assert_true(metric(&m, "perf-stat.overall.path-length") == 1265);
	kab_metrics_free(&m);
	/* no ops, no time: no rows made of them */
	kab_insn_metrics(1, 1, "x", "x.ops", &m);
	assert_true(isnan(metric(&m, "perf-stat.overall.path-length")));
	assert_true(isnan(metric(&m, "perf-stat.ps.instructions")));
	kab_metrics_free(&m);
}

#define COST_FIELDS "cycles=2000 instructions=1000 loads=400 stores=100 " \
	"l1d_misses=40 l2_misses=20 llc_misses=5 dtlb_load_misses=30 " \
	"dtlb_store_misses=3 load_walks=8 store_walks=2 walk_refs=40 " \
	"walk_cycles=300"

/*
 * The cost model's line follows the end mark of its window; the marks
 * are counted as before, the model's lines passed over; a line that is
 * not whole (a field missing, twice, unknown, not a number, or the
 * page tables never found) gives no rows.
 */
static void test_insn_cost(void **state)
{
	const char *text = "kab-insn 1 scoreboard\n"
			   "mark 1 100 1000\n"
			   "mark 2 150 3000\n"
			   "cost 2 model=spr mhz=2000 direct_map=1 "
			   COST_FIELDS "\n"
			   "mark 1 200 4000\n"
			   "mark 2 260 9000\n"
			   "cost 2 model=spr mhz=2000 direct_map=1 "
			   "cycles=7 instructions=1000 loads=400 stores=100 "
			   "l1d_misses=40 l2_misses=20 llc_misses=5 "
			   "dtlb_load_misses=30 dtlb_store_misses=3 "
			   "load_walks=8 store_walks=2 walk_refs=40 "
			   "walk_cycles=300\n";
	static const char *const bad[] = {
		"cost 2 model=spr mhz=2000 direct_map=0 " COST_FIELDS,
		"cost 2 model=spr direct_map=1 " COST_FIELDS,
		"cost 2 mhz=2000 direct_map=1 " COST_FIELDS,
		"cost 2 model=spr mhz=2000 direct_map=1 " COST_FIELDS
		" cycles=1",
		"cost 2 model=spr mhz=2000 direct_map=1 " COST_FIELDS
		" bogus=1",
		"cost 2 model=spr mhz=2000 direct_map=1 cycles=x",
		"cost 2 model=spr mhz=2000 direct_map=1 cycles=-1 "
		COST_FIELDS,
		"cost 1 model=spr mhz=2000 direct_map=1 " COST_FIELDS,
		"cost 2 model=s.pr mhz=2000 direct_map=1 " COST_FIELDS,
		"cost 2 model=spr mhz=0 direct_map=1 " COST_FIELDS,
		"cost 2 model=spr mhz=2000 direct_map=1 " COST_FIELDS " junk",
	};
	const char *kpis[] = { "will-it-scale.per_process_ops", NULL };
	struct kab_metrics m = { 0 };
	struct kab_cost_row c;
	char t[1024];
	uint64_t u, k;
	size_t i;

	assert_int_equal(kab_insn_counts(text, strlen(text), 2, &u, &k), 0);
	assert_true(u == 60 && k == 5000);
	assert_int_equal(kab_insn_cost(text, strlen(text), 1, &c), 0);
	assert_string_equal(c.model, "spr");
	assert_int_equal(c.mhz, 2000);
	assert_int_equal(c.v[KAB_COST_CYCLES], 2000);
	assert_int_equal(c.v[KAB_COST_WALK_CYCLES], 300);
	assert_int_equal(kab_insn_cost(text, strlen(text), 2, &c), 0);
	assert_int_equal(c.v[KAB_COST_CYCLES], 7);
	/* iteration 3 never ended; iteration 1 without its line */
	assert_int_equal(kab_insn_cost(text, strlen(text), 3, &c), -1);
	assert_int_equal(kab_insn_cost(text, 58, 1, &c), -1);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(t, sizeof(t), "kab-insn 1 inline\nmark 1 1 1\n"
			 "mark 2 2 2\n%s\n", bad[i]);
		assert_int_equal(kab_insn_cost(t, strlen(t), 1, &c), -1);
		/* the counts are the marks' all the same */
		assert_int_equal(kab_insn_counts(t, strlen(t), 1, &u, &k), 0);
	}

	/* a number may begin with a 9; a line of 1024 bytes is too long */
	snprintf(t, sizeof(t), "kab-insn 1 inline\nmark 1 1 1\nmark 2 2 2\n"
		 "cost 2 model=spr mhz=2000 direct_map=1 %s\n",
		 "cycles=9 instructions=99 loads=400 stores=100 "
		 "l1d_misses=40 l2_misses=20 llc_misses=5 dtlb_load_misses=30 "
		 "dtlb_store_misses=3 load_walks=8 store_walks=2 walk_refs=40 "
		 "walk_cycles=300");
	assert_int_equal(kab_insn_cost(t, strlen(t), 1, &c), 0);
	assert_int_equal(c.v[KAB_COST_CYCLES], 9);
	{
		static const char prefix[] = "cost 2 model=spr mhz=2000 "
					     "direct_map=1 cycles=";
		const char *tail = COST_FIELDS + strlen("cycles=2000 ");
		char big[2048], *p;
		size_t len, z;

		/* the line (less its \n) 1023 bytes: cycles=000...2 */
		for (len = 1023; len <= 1024; len++) {
			z = len - strlen(prefix) - 2 - strlen(tail);
			p = big + sprintf(big, "kab-insn 1 inline\nmark 1 1 1\n"
					  "mark 2 2 2\n%s", prefix);
			memset(p, '0', z);
			p += z;
			p += sprintf(p, "2 %s", tail);
			assert_int_equal(strlen(strrchr(big, '\n') + 1), len);
			*p++ = '\n';
			assert_int_equal(kab_insn_cost(big, p - big, 1, &c),
					 len < 1024 ? 0 : -1);
		}
	}

	/* lkp's rows, named :MODEL, and the KPI at the model's clock */
	assert_int_equal(kab_insn_cost(text, strlen(text), 1, &c), 0);
	kab_metrics_add(&m, "will-it-scale.per_process_ops", 50);
	kab_metrics_add(&m, "will-it-scale.time.elapsed_time", 2);
	kab_cost_metrics(&c, "will-it-scale", kpis, &m);
	assert_true(metric(&m, "perf-stat.total.cycles:spr") == 2000);
	assert_true(metric(&m, "perf-stat.overall.cpi:spr") == 2);
	assert_true(metric(&m, "perf-stat.overall.ipc:spr") == 0.5);
	assert_true(metric(&m, "perf-stat.total.dTLB-loads:spr") == 400);
	assert_true(metric(&m, "perf-stat.total.dTLB-stores:spr") == 100);
	assert_true(metric(&m, "perf-stat.total.dTLB-load-misses:spr") == 8);
	assert_true(metric(&m, "perf-stat.total.dTLB-store-misses:spr") == 2);
	assert_true(metric(&m, "perf-stat.overall.dTLB-load-miss-rate%:spr") ==
		    2);
	assert_true(metric(&m,
			   "perf-stat.overall.dTLB-store-miss-rate%:spr") == 2);
	assert_true(metric(&m, "perf-stat.total.stlb-hits:spr") == 23);
	assert_true(metric(&m, "perf-stat.total.page-walk-refs:spr") == 40);
	assert_true(metric(&m, "perf-stat.total.page-walk-cycles:spr") == 300);
	assert_true(metric(&m, "perf-stat.total.L1-dcache-load-misses:spr") ==
		    40);
	assert_true(metric(&m, "perf-stat.total.cache-references:spr") == 20);
	assert_true(metric(&m, "perf-stat.total.cache-misses:spr") == 5);
	assert_true(metric(&m, "perf-stat.overall.cache-miss-rate%:spr") == 25);
	assert_true(metric(&m, "perf-stat.overall.MPKI:spr") == 5);
	/* 100 ops in 2 s; 2000 cycles at 2 GHz are 1 us: 1e8 ops/s */
	assert_true(fabs(metric(&m, "will-it-scale.per_process_ops:spr") /
			 1e8 - 1) < 1e-12);
	assert_true(isnan(metric(&m, "will-it-scale.per_thread_ops:spr")));
	kab_metrics_free(&m);
	/* no elapsed time, no KPI: no modelled KPI */
	kab_metrics_add(&m, "will-it-scale.per_process_ops", 50);
	kab_cost_metrics(&c, "will-it-scale", kpis, &m);
	assert_true(isnan(metric(&m, "will-it-scale.per_process_ops:spr")));
	assert_true(metric(&m, "perf-stat.total.cycles:spr") == 2000);
	kab_metrics_free(&m);
}

/* A busy host is one busier than KAB_HOST_BUSY, said with its share. */
static void test_host_busy_msg(void **state)
{
	char buf[256] = "untouched";

	(void)state;
	assert_false(kab_host_busy_msg(KAB_HOST_BUSY, buf, sizeof(buf)));
	assert_false(kab_host_busy_msg(-1, buf, sizeof(buf)));
	assert_false(kab_host_busy_msg(NAN, buf, sizeof(buf)));
	assert_string_equal(buf, "untouched");
	assert_true(kab_host_busy_msg(nextafter(KAB_HOST_BUSY, 1), buf,
				      sizeof(buf)));
	assert_true(kab_host_busy_msg(0.5, buf, sizeof(buf)));
	assert_true(!strncmp(buf, KAB_HOST_BUSY_MSG " 50% of this machine",
			     strlen(KAB_HOST_BUSY_MSG) + 20));
}

static void test_clock_names(void **state)
{
	static const char *const bad[] = { "icount:", "icount:11", "icount:-1",
					   "icount:3x", "Wall", "", "icount 3" };
	struct kab_clock c;
	struct kab_err err;
	char name[16];
	size_t i;

	assert_int_equal(kab_clock_parse("icount", &c, &err), 0);
	assert_int_equal(c.kind, KAB_CLOCK_ICOUNT);
	kab_clock_name(&c, name, sizeof(name));
	assert_string_equal(name, "icount:3");
	assert_true(kab_clock_stored_ok(name));
	assert_int_equal(kab_clock_parse("icount:0", &c, &err), 0);
	assert_int_equal(c.shift, 0);
	assert_int_equal(kab_clock_parse("icount:10", &c, &err), 0);
	assert_int_equal(kab_clock_parse("wall", &c, &err), 0);
	kab_clock_name(&c, name, sizeof(name));
	assert_string_equal(name, "wall");
	assert_int_equal(kab_clock_parse("auto", &c, &err), 0);
	assert_int_equal(c.kind, KAB_CLOCK_AUTO);
	/* auto is resolved before a boot: its name says it was not */
	kab_clock_name(&c, name, sizeof(name));
	assert_string_equal(name, "auto");
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		assert_int_equal(kab_clock_parse(bad[i], &c, &err), -1);
		assert_non_null(strstr(err.msg, "icount:N"));
		assert_false(kab_clock_stored_ok(bad[i]));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_run),
		cmocka_unit_test(test_stacks),
		cmocka_unit_test(test_hostile_values),
		cmocka_unit_test(test_cut_stream),
		cmocka_unit_test(test_short_ok_is_failure),
		cmocka_unit_test(test_lost_start_is_failure),
		cmocka_unit_test(test_lost_record_drops_iteration),
		cmocka_unit_test(test_repeated_iteration_refused),
		cmocka_unit_test(test_console_stall),
		cmocka_unit_test(test_extra_metrics),
		cmocka_unit_test(test_run_metric_cap),
		cmocka_unit_test(test_insn_counts),
		cmocka_unit_test(test_insn_cost),
		cmocka_unit_test(test_host_busy_msg),
		cmocka_unit_test(test_clock_names),
	};

	return cmocka_run_group_tests_name("collect", tests, NULL, NULL);
}
