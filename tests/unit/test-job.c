// SPDX-License-Identifier: GPL-2.0
/*
 * test-job.c - YAML job files: expansion, overrides, defaults, and a
 * clear error for each kind of bad input.
 */
#include "test.h"
#include "../../runner/runner.h"

static int parse(const char *yaml, char *const *sets, int nr,
		 struct kab_joblist *out, struct kab_err *err)
{
	return kab_job_parse(yaml, strlen(yaml), "t", sets, nr, out, err);
}

static void expect_error(const char *yaml, const char *set, const char *want)
{
	struct kab_joblist l;
	struct kab_err err = { { 0 } };
	char *sets[1] = { (char *)set };

	assert_int_equal(parse(yaml, sets, set ? 1 : 0, &l, &err), -1);
	if (!strstr(err.msg, want))
		fail_msg("error '%s' lacks '%s'", err.msg, want);
	assert_null(strchr(err.msg, '\n'));
}

static void test_shipped_jobs(void **state)
{
	const char *top = getenv("KAB_TOP");
	struct kab_joblist l;
	struct kab_err err;
	char *path;

	path = xasprintf("%s/jobs/will-it-scale-malloc1.yaml", top ? top : ".");
	if (kab_job_load(path, NULL, 0, &l, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(l.nr, 1);
	assert_string_equal(l.jobs[0].name, "will-it-scale-malloc1");
	assert_string_equal(l.jobs[0].suite, "will-it-scale");
	assert_string_equal(l.jobs[0].test, "malloc1");
	assert_string_equal(kab_job_get(&l.jobs[0], "nr_task"), "100%");
	assert_string_equal(kab_job_get(&l.jobs[0], "mode"), "process");
	assert_string_equal(kab_job_get(&l.jobs[0], "testcase"),
			    "will-it-scale");
	assert_null(kab_job_get(&l.jobs[0], "category"));
	kab_joblist_free(&l);
	free(path);

	path = xasprintf("%s/jobs/stress-ng-radixsort.yaml", top ? top : ".");
	if (kab_job_load(path, NULL, 0, &l, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(l.nr, 1);
	assert_string_equal(kab_job_get(&l.jobs[0], "nr_threads"), "100%");
	assert_string_equal(kab_job_get(&l.jobs[0], "testtime"), "60s");
	kab_joblist_free(&l);
	free(path);
}

/* Lists expand to their Cartesian product, parameters sorted by key. */
static void test_expansion(void **state)
{
	const char *yaml = "suite: will-it-scale\n"
			   "nr_task: [1, 50%, 100%]\n"
			   "will-it-scale:\n"
			   "  mode: [process, thread]\n"
			   "  test: malloc1\n";
	struct kab_joblist l;
	struct kab_err err;
	int i;

	if (parse(yaml, NULL, 0, &l, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(l.nr, 6);
	/* Keys in order, the last one varying fastest. */
	assert_string_equal(kab_job_get(&l.jobs[0], "mode"), "process");
	assert_string_equal(kab_job_get(&l.jobs[0], "nr_task"), "1");
	assert_string_equal(kab_job_get(&l.jobs[1], "mode"), "process");
	assert_string_equal(kab_job_get(&l.jobs[1], "nr_task"), "50%");
	assert_string_equal(kab_job_get(&l.jobs[3], "mode"), "thread");
	assert_string_equal(kab_job_get(&l.jobs[3], "nr_task"), "1");
	assert_string_equal(kab_job_get(&l.jobs[5], "nr_task"), "100%");
	for (i = 0; i < l.nr; i++) {
		int k;

		/* Defaults are filled in. */
		assert_string_equal(kab_job_get(&l.jobs[i], "warmup"), "6");
		assert_string_equal(kab_job_get(&l.jobs[i], "bind"), "core");
		for (k = 1; k < l.jobs[i].nr_params; k++)
			assert_true(strcmp(l.jobs[i].params[k - 1].key,
					   l.jobs[i].params[k].key) < 0);
	}
	kab_joblist_free(&l);
}

static void test_set_overrides(void **state)
{
	const char *yaml = "suite: stress-ng\ntest: radixsort\n"
			   "testtime: 60s\n";
	char *sets[] = { "testtime=5s", "nr_threads=[1, 2]" };
	struct kab_joblist l;
	struct kab_err err;

	if (parse(yaml, sets, 2, &l, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(l.nr, 2);
	assert_string_equal(kab_job_get(&l.jobs[0], "testtime"), "5s");
	assert_string_equal(kab_job_get(&l.jobs[0], "nr_threads"), "1");
	assert_string_equal(kab_job_get(&l.jobs[1], "nr_threads"), "2");
	kab_joblist_free(&l);
}

/* The same job spelled two ways is the same parameter set. */
static void test_defaults_make_equal(void **state)
{
	const char *a = "suite: stress-ng\ntest: radixsort\n";
	const char *b = "suite: stress-ng\ntestcase: stress-ng\n"
			"stress-ng:\n  test: radixsort\n  nr_threads: 100%\n"
			"  testtime: 60s\n";
	struct kab_joblist la, lb;
	struct kab_err err;
	char *da, *db;

	assert_int_equal(parse(a, NULL, 0, &la, &err), 0);
	assert_int_equal(parse(b, NULL, 0, &lb, &err), 0);
	da = kab_job_describe(&la.jobs[0]);
	db = kab_job_describe(&lb.jobs[0]);
	assert_string_equal(da, db);
	free(da);
	free(db);
	kab_joblist_free(&la);
	kab_joblist_free(&lb);
}

static void test_bad_input(void **state)
{
	expect_error("suite: will-it-scale\ntest: malloc9\n", NULL,
		     "unknown workload");
	expect_error("suite: nosuch\ntest: malloc1\n", NULL,
		     "unknown workload");
	expect_error("suite: will-it-scale\ntest: malloc1\n", "frob=1",
		     "unknown parameter 'frob'");
	expect_error("suite: will-it-scale\ntest: malloc1\nnr_tsak: 1\n",
		     NULL, "unknown parameter 'nr_tsak' for will-it-scale "
		     "malloc1: did you mean 'nr_task'?");
	expect_error("suite: will-it-scale\ntest: malloc1\n", "only",
		     "--set key=value");
	expect_error("suite: will-it-scale\ntest: malloc1\nnr_task: 0\n", NULL,
		     "not a task count");
	expect_error("suite: will-it-scale\ntest: malloc1\nnr_task: abc%\n",
		     NULL, "not a task count");
	expect_error("suite: will-it-scale\ntest: malloc1\nnr_task: -1\n",
		     NULL, "not a task count");
	expect_error("suite: will-it-scale\ntest: malloc1\nmode: fork\n", NULL,
		     "use one of process|thread");
	expect_error("suite: stress-ng\ntest: radixsort\ntesttime: soon\n",
		     NULL, "not a duration");
	expect_error("suite: will-it-scale\ntest: malloc1\nmode: [a\n", NULL,
		     "malformed YAML");
	expect_error("- a\n- b\n", NULL, "a YAML mapping");
	expect_error("test: malloc1\n", NULL, "no 'suite:'");
	expect_error("suite: will-it-scale\n", NULL, "no 'test:'");
	expect_error("suite: will-it-scale\ntest: malloc1\ntest: malloc1\n",
		     NULL, "given twice");
	expect_error("suite: will-it-scale\ntest: malloc1\nnr_task: []\n",
		     NULL, "empty list");
	expect_error("suite: will-it-scale\ntest: malloc1\n", "nr_task",
		     "--set key=value");
	expect_error("suite: will-it-scale\ntest: malloc1\n", "nr_task=0%",
		     "not a task count");
	expect_error("suite: will-it-scale\ntest: malloc1\nmode: a/b\n", NULL,
		     "not a plain value");
}

static int parse_sel(const char *yaml, const struct kab_jobsel *sel,
		     struct kab_joblist *out, struct kab_err *err)
{
	return kab_job_parse_sel(yaml, strlen(yaml), "t", sel, out, err);
}

/*
 * lkp's files as they are: every document on top of the first, the
 * suite's section only, jobs kab does not run and keys it does not use
 * named in one note, never a reason to refuse the file.
 */
static void test_lkp_documents(void **state)
{
	const char *yaml = "suite: stress-ng\ntestcase: stress-ng\n"
			   "category: cpu\nnr_threads: 100%\n"
			   "cpufreq_governor: performance\n"
			   "stress-ng:\n  test: [heapsort, radixsort]\n"
			   "---\nstress-ng:\n  test: flushcache\n"
			   "oom-killer:\n  ignored: 1\n"
			   "---\nnr_threads: 50%\nstress-ng:\n"
			   "  test: [qsort]\n  method: [qsort-bm, qsort-libc]\n"
			   "---\nstress-ng:\n  test: radixsort\n"
			   "  method: radixsort-nonlibc\n";
	struct kab_joblist l;
	struct kab_err err;

	if (parse(yaml, NULL, 0, &l, &err))
		fail_msg("%s", err.msg);
	/* document 1's radixsort, and document 4's with its method */
	assert_int_equal(l.nr, 2);
	assert_null(kab_job_get(&l.jobs[0], "method"));
	assert_string_equal(kab_job_get(&l.jobs[1], "method"),
			    "radixsort-nonlibc");
	/* document 3's nr_threads stays in document 3 */
	assert_string_equal(kab_job_get(&l.jobs[1], "nr_threads"), "100%");
	assert_null(kab_job_get(&l.jobs[0], "cpufreq_governor"));
	assert_null(kab_job_get(&l.jobs[0], "ignored"));
	assert_non_null(l.note);
	assert_non_null(strstr(l.note, "skips 4 jobs of workloads kab does "
			       "not run: stress-ng heapsort (document 1), "
			       "stress-ng flushcache (document 2), stress-ng "
			       "qsort (document 3)"));
	assert_non_null(strstr(l.note, "keys kab does not use: "
			       "cpufreq_governor"));
	assert_non_null(strstr(l.note, "sections kab does not use: "
			       "oom-killer"));
	assert_null(strchr(l.note, '\n'));
	kab_joblist_free(&l);
}

/* A first document without a test is the header of the others. */
static void test_lkp_header_only(void **state)
{
	const char *yaml = "suite: will-it-scale\nnr_task: 100%\n---\n"
			   "will-it-scale:\n  mode: [process, thread]\n"
			   "  test: malloc1\n";
	struct kab_joblist l;
	struct kab_err err;

	if (parse(yaml, NULL, 0, &l, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(l.nr, 2);
	assert_string_equal(kab_job_get(&l.jobs[0], "nr_task"), "100%");
	assert_null(l.note);
	kab_joblist_free(&l);
	/* a section replaces the first document's whole, as Hash#update */
	yaml = "suite: will-it-scale\nwill-it-scale:\n  test: malloc1\n"
	       "  mode: thread\n---\nwill-it-scale:\n  test: malloc1\n";
	if (parse(yaml, NULL, 0, &l, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(l.nr, 2);
	assert_string_equal(kab_job_get(&l.jobs[0], "mode"), "thread");
	assert_string_equal(kab_job_get(&l.jobs[1], "mode"), "process");
	kab_joblist_free(&l);
}

/* --only picks jobs; a job met twice is kept once; "key=" leaves out. */
static void test_only_and_dedupe(void **state)
{
	const char *yaml = "suite: will-it-scale\ntest: [malloc1, brk1]\n"
			   "mode: [process, thread]\nnr_task: [1, 2]\n"
			   "---\nsuite: will-it-scale\ntest: malloc1\n"
			   "mode: thread\nnr_task: 2\n";
	char *only[] = { "mode=thread", "nr_task=2" };
	char *sets[] = { "nr_task=", "mode=thread" };
	struct kab_jobsel sel = { .only = only, .nr_only = 2 };
	struct kab_joblist l;
	struct kab_err err;

	if (parse_sel(yaml, &sel, &l, &err))
		fail_msg("%s", err.msg);
	/* document 1's thread/2 and document 2's, which is the same */
	assert_int_equal(l.nr, 1);
	assert_string_equal(kab_job_get(&l.jobs[0], "test"), "malloc1");
	/* brk1's thread/2 was picked, then skipped: it says so */
	assert_non_null(strstr(l.note, "skips 1 job of workloads"));
	kab_joblist_free(&l);
	/* a default counts: mode=process is every job's that says nothing */
	only[0] = "bind=core";
	sel.nr_only = 1;
	if (parse_sel("suite: will-it-scale\ntest: malloc1\n", &sel, &l,
		      &err))
		fail_msg("%s", err.msg);
	assert_int_equal(l.nr, 1);
	kab_joblist_free(&l);
	only[0] = "mode=fork";
	assert_int_equal(parse_sel(yaml, &sel, &l, &err), -1);
	assert_non_null(strstr(err.msg, "--only mode=fork matches none of "
			       "its 9 jobs"));
	only[0] = "=x";
	assert_int_equal(parse_sel(yaml, &sel, &l, &err), -1);
	assert_non_null(strstr(err.msg, "use --only key=value"));
	/* nr_task= leaves nr_task out: the default comes back */
	sel = (struct kab_jobsel){ .sets = sets, .nr_sets = 2 };
	if (parse_sel(yaml, &sel, &l, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(l.nr, 1);
	assert_string_equal(kab_job_get(&l.jobs[0], "nr_task"), "100%");
	kab_joblist_free(&l);
	/* nothing runnable is an error naming what kab knows */
	assert_int_equal(parse("suite: will-it-scale\ntest: [brk1, dup1]\n",
			       NULL, 0, &l, &err), -1);
	assert_non_null(strstr(err.msg, "no job kab can run: unknown workload "
			       "will-it-scale brk1, will-it-scale dup1: kab "
			       "knows will-it-scale malloc1"));
}

static void test_job_load_missing_file(void **state)
{
	struct kab_joblist l;
	struct kab_err err;

	assert_int_equal(kab_job_load("/nonexistent/job.yaml", NULL, 0, &l,
				      &err), -1);
	assert_non_null(strstr(err.msg, "/nonexistent/job.yaml"));
}

static void test_tasks_rounding(void **state)
{
	struct kab_err err;
	int n;

	assert_int_equal(kab_parse_tasks("100%", 2, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(kab_parse_tasks("50%", 3, &n, &err), 0);
	assert_int_equal(n, 1);		/* 1.5 truncated */
	assert_int_equal(kab_parse_tasks("1%", 2, &n, &err), 0);
	assert_int_equal(n, 1);		/* at least one */
	assert_int_equal(kab_parse_tasks("200%", 224, &n, &err), 0);
	assert_int_equal(n, 448);
	assert_int_equal(kab_parse_tasks("7", 2, &n, &err), 0);
	assert_int_equal(n, 7);
	assert_int_equal(kab_parse_tasks("7.5", 2, &n, &err), -1);
	assert_int_equal(kab_parse_tasks("%", 2, &n, &err), -1);
	assert_int_equal(kab_parse_tasks("", 2, &n, &err), -1);
}

static void test_seconds(void **state)
{
	struct kab_err err;
	double s;

	assert_int_equal(kab_parse_seconds("60s", &s, &err), 0);
	assert_true(s == 60);
	assert_int_equal(kab_parse_seconds("2m", &s, &err), 0);
	assert_true(s == 120);
	assert_int_equal(kab_parse_seconds("90", &s, &err), 0);
	assert_true(s == 90);
	assert_int_equal(kab_parse_seconds("0s", &s, &err), -1);
	assert_int_equal(kab_parse_seconds("5x", &s, &err), -1);
	assert_int_equal(kab_parse_seconds("nan", &s, &err), -1);
}

static void test_json_roundtrip(void **state)
{
	const char *yaml = "suite: will-it-scale\ntest: malloc1\n";
	struct kab_joblist l;
	struct kab_job back;
	struct kab_err err;
	json_t *j;
	char *a, *b;

	assert_int_equal(parse(yaml, NULL, 0, &l, &err), 0);
	j = kab_job_to_json(&l.jobs[0]);
	assert_int_equal(kab_job_from_json(j, &back, &err), 0);
	a = kab_job_describe(&l.jobs[0]);
	b = kab_job_describe(&back);
	assert_string_equal(a, b);
	assert_string_equal(back.suite, "will-it-scale");
	free(a);
	free(b);
	json_decref(j);
	kab_job_free(&back);
	kab_joblist_free(&l);
}


/* An lkp run from job.yaml and stats.json text, as kab import --lkp. */
static json_t *lkp_run(const char *job, const char *stats)
{
	struct strbuf jb = STRBUF_INIT, sb = STRBUF_INIT;
	struct kab_err err;
	json_t *run;

	strbuf_add(&jb, job, strlen(job));
	strbuf_add(&sb, stats, strlen(stats));
	run = kab_lkp_result_parse("r", &jb, &sb, 0, &err);
	if (!run)
		fail_msg("%s", err.msg);
	strbuf_release(&jb);
	strbuf_release(&sb);
	return run;
}

static json_t *lkp_stats(json_t *run)
{
	return json_object_get(json_array_get(json_object_get(run,
							      "iterations"),
					      0), "metrics");
}

static void test_lkp_function_stats(void **state)
{
	static const char *const yes[] = {
		"dmesg.WARNING:at_mm/x.c:#f", "kmsg.foo", "last_state.booting",
		"last_state.is_incomplete_run", "stderr.has_stderr",
		"stress-ng.radixsort.fail", "ltp.a.pass", "xfstests.generic.001.fail",
		"libhugetlbfs-test.a.killed_by_signal", "x.error", "x.warning",
		"kmemleak.a.unreferenced_object.b",
	};
	static const char *const no[] = {
		"will-it-scale.per_process_ops", "x.time.dmesg",
		"will-it-scale.time.voluntary_context_switches",
		"stress-ng.radixsort.ops_per_sec", "x.fail_rate_ms", "x.passes",
		"proc-vmstat.pgfault", "x.timestamp:last_state",
		"sched_debug.cpu.nr_running.avg",
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(yes); i++)
		if (!kab_lkp_function_stat(yes[i]))
			fail_msg("%s is lkp's pass/fail stat", yes[i]);
	for (i = 0; i < ARRAY_SIZE(no); i++)
		if (kab_lkp_function_stat(no[i]))
			fail_msg("%s is a performance number", no[i]);
	assert_true(kab_lkp_per_cpu_stat("sched_debug.cpu.nr_running.3"));
	assert_true(kab_lkp_per_cpu_stat("sched_debug.cfs_rq:/.load.12"));
	assert_false(kab_lkp_per_cpu_stat("sched_debug.cpu.nr_running.avg"));
	assert_false(kab_lkp_per_cpu_stat("proc-vmstat.nr_zone_3"));
	assert_false(kab_lkp_per_cpu_stat("sched_debug.cpu.nr_running"));
}

static void test_lkp_unite(void **state)
{
	const char *job = "suite: will-it-scale\ntestcase: will-it-scale\n"
			  "will-it-scale:\n  test: malloc1\n";
	json_t *runs[3];
	struct kab_lkp_unite u = { 0 };
	json_t *s0, *s1, *s2;

	(void)state;
	runs[0] = lkp_run(job, "{\"a.x\": 1, \"a.z\": 0, \"a.f\": 0.0, "
			  "\"sched_debug.cpu.load.0\": 3, "
			  "\"dmesg.BUG:x\": 1}");
	runs[1] = lkp_run(job, "{\"a.x\": 2, \"a.y\": 5, \"a.f\": 0, "
			  "\"last_state.is_incomplete_run\": 0}");
	runs[2] = lkp_run(job, "{\"a.x\": 3, \"a.z\": 0, \"a.f\": 0, "
			  "\"last_state.is_incomplete_run\": 1}");
	kab_lkp_unite(runs, 3, &u);
	s0 = lkp_stats(runs[0]);
	s1 = lkp_stats(runs[1]);
	s2 = lkp_stats(runs[2]);
	/* integer 0 everywhere (or missing): gone; a float 0.0 keeps it */
	assert_null(json_object_get(s0, "a.z"));
	assert_null(json_object_get(s2, "a.z"));
	assert_non_null(json_object_get(s0, "a.f"));
	assert_non_null(json_object_get(s1, "a.f"));
	/* a stat some runs lack is not filled here: comparisons do that */
	assert_non_null(json_object_get(s1, "a.y"));
	assert_null(json_object_get(s0, "a.y"));
	/* per-CPU and pass/fail stats are not stored */
	assert_null(json_object_get(s0, "sched_debug.cpu.load.0"));
	assert_null(json_object_get(s0, "dmesg.BUG:x"));
	assert_null(json_object_get(s2, "last_state.is_incomplete_run"));
	assert_int_equal(json_object_size(u.zero), 1);
	assert_int_equal(json_object_size(u.function_stats), 2);
	assert_int_equal(u.per_cpu, 1);
	/* the incomplete run is a failed run, and says why */
	assert_int_equal(u.incomplete, 1);
	assert_string_equal(json_string_value(json_object_get(runs[2],
						"status")), "failed");
	assert_non_null(strstr(json_string_value(json_object_get(runs[2],
				"message")), "last_state.is_incomplete_run"));
	assert_string_equal(json_string_value(json_object_get(runs[0],
						"status")), "ok");
	assert_string_equal(json_string_value(json_object_get(runs[1],
						"status")), "ok");
	json_decref(u.zero);
	json_decref(u.function_stats);
	json_decref(runs[0]);
	json_decref(runs[1]);
	json_decref(runs[2]);
}

static const char *host_of(json_t *run, const char *key)
{
	return json_string_value(json_object_get(json_object_get(run, "host"),
						 key));
}

static const char *param_of(json_t *run, const char *key)
{
	return json_string_value(json_object_get(json_object_get(run,
								 "params"),
						 key));
}

static void test_lkp_axes(void **state)
{
	json_t *r;

	(void)state;
	/* no rootfs, no compiler: lkp's defaults; smt at the top level */
	r = lkp_run("suite: will-it-scale\nsmt: 1\nno_affinity: 1\n"
		    "nr_task: 16\ncategory: benchmark\nwill-it-scale:\n"
		    "  mode: process\n  test: malloc1\n", "{\"a.b\": 1}");
	assert_string_equal(host_of(r, "rootfs"), "debian-x86_64.cgz");
	assert_string_equal(host_of(r, "compiler"), "gcc-7");
	assert_string_equal(param_of(r, "smt"), "1");
	assert_string_equal(param_of(r, "no_affinity"), "1");
	assert_string_equal(param_of(r, "nr_task"), "16");
	assert_null(param_of(r, "category"));
	json_decref(r);
	/* a rootfs by its file name; stress-ng's own options */
	r = lkp_run("suite: stress-ng\nrootfs: /osimage/debian/"
		    "debian-12-x86_64-20240206.cgz\ncompiler: gcc-12\n"
		    "class: cpu\nsmt: 1\nstress-ng:\n  test: radixsort\n",
		    "{\"a.b\": 1}");
	assert_string_equal(host_of(r, "rootfs"),
			    "debian-12-x86_64-20240206.cgz");
	assert_string_equal(host_of(r, "compiler"), "gcc-12");
	assert_string_equal(param_of(r, "class"), "cpu");
	assert_null(param_of(r, "smt"));
	json_decref(r);
	r = lkp_run("suite: will-it-scale\nrootfs: a/b.cgz//\n",
		    "{\"a.b\": 1}");
	assert_string_equal(host_of(r, "rootfs"), "b.cgz");
	json_decref(r);
}

/* "did you mean": the one near name, never one of two as near */
static void test_nearest(void **state)
{
	static const char *const names[] = { "nr_task", "mode", "test",
					     "testtime", "warmup", "nr_tusk" };
	static const char *const cmds[] = { "run", "ls", "rm", "show" };

	(void)state;
	assert_int_equal(kab_edit_distance("testime", "testtime"), 1);
	assert_int_equal(kab_edit_distance("mdoe", "mode"), 1);
	assert_int_equal(kab_edit_distance("", "ls"), 2);
	assert_string_equal(kab_nearest("testime", names, 6), "testtime");
	assert_string_equal(kab_nearest("warmpu", names, 6), "warmup");
	/* nr_tsk is one edit from nr_task and from nr_tusk: no guess */
	assert_null(kab_nearest("nr_tsk", names, 6));
	/* three edits are too many, however long the word */
	assert_int_equal(kab_edit_distance("testtimexyz", "testtime"), 3);
	assert_null(kab_nearest("testtimexyz", names, 6));
	/* the same name twice is one name */
	assert_string_equal(kab_nearest("mdoe", (const char *const[]){
						"mode", "mode" }, 2), "mode");
	/* near, but as long as the word's half: not a guess */
	assert_null(kab_nearest("lx", cmds, 4));
	assert_string_equal(kab_nearest("shwo", cmds, 4), "show");
	assert_null(kab_nearest("deploy", cmds, 4));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped_jobs),
		cmocka_unit_test(test_expansion),
		cmocka_unit_test(test_set_overrides),
		cmocka_unit_test(test_defaults_make_equal),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_lkp_documents),
		cmocka_unit_test(test_lkp_header_only),
		cmocka_unit_test(test_only_and_dedupe),
		cmocka_unit_test(test_job_load_missing_file),
		cmocka_unit_test(test_tasks_rounding),
		cmocka_unit_test(test_seconds),
		cmocka_unit_test(test_json_roundtrip),
		cmocka_unit_test(test_lkp_function_stats),
		cmocka_unit_test(test_lkp_unite),
		cmocka_unit_test(test_lkp_axes),
		cmocka_unit_test(test_nearest),
	};

	return cmocka_run_group_tests_name("job", tests, NULL, NULL);
}
