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
	expect_error("suite: will-it-scale\ntest: malloc1\nfrob: 1\n", NULL,
		     "unknown parameter 'frob'");
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped_jobs),
		cmocka_unit_test(test_expansion),
		cmocka_unit_test(test_set_overrides),
		cmocka_unit_test(test_defaults_make_equal),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_job_load_missing_file),
		cmocka_unit_test(test_tasks_rounding),
		cmocka_unit_test(test_seconds),
		cmocka_unit_test(test_json_roundtrip),
	};

	return cmocka_run_group_tests_name("job", tests, NULL, NULL);
}
