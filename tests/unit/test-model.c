// SPDX-License-Identifier: GPL-2.0
/*
 * test-model.c - the model without the command line: sides resolved to
 * runs, tables per parameter set, what is refused and why, the notes,
 * the report of an A/B, the CI gate, a bisect's run lists and its
 * endpoints' test.
 */
#include <math.h>

#include "test.h"
#include "../../model/model.h"

static char dir[64];
static struct kab_db *db;

/* A run of malloc1 labelled LABEL with nr_task TASKS: two iterations. */
static int64_t add_run(const char *label, const char *tasks, double ops)
{
	const char *names[] = { "will-it-scale.per_process_ops" };
	struct kab_run r;
	struct kab_err err;
	double v;
	int it;

	memset(&r, 0, sizeof(r));
	r.kernel.label = (char *)label;
	r.kernel.release = "6.1.0";
	r.job = "will-it-scale-malloc1";
	r.suite = "will-it-scale";
	r.test = "malloc1";
	r.params = json_pack("{s:s, s:s, s:s, s:s}", "testcase",
			     "will-it-scale", "mode", "process", "nr_task",
			     tasks, "test", "malloc1");
	r.resolved = json_object();
	r.target = "local";
	r.host = json_pack("{s:s, s:i, s:i, s:i}", "cpu_model", "Test CPU",
			   "nr_cpus", 2, "sockets", 1, "mem_total_kb", 1048576);
	r.iterations_planned = 2;
	if (kab_db_run_insert(db, &r, &err))
		fail_msg("%s", err.msg);
	for (it = 1; it <= 2; it++) {
		v = ops - 1.5 + it;	/* iterations ops -+ 0.5 */
		if (kab_db_iteration_store(db, r.id, it, names, &v, 1, &err))
			fail_msg("%s", err.msg);
	}
	if (kab_db_run_finish(db, r.id, "ok", NULL, 0, 0, &err))
		fail_msg("%s", err.msg);
	json_decref(r.params);
	json_decref(r.resolved);
	json_decref(r.host);
	free(r.started_at);
	free(r.status);
	return r.id;
}

static int setup(void **state)
{
	struct kab_err err;
	char *p;
	int rc;

	snprintf(dir, sizeof(dir), "/tmp/kab-modeltest.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	p = xasprintf("%s/kab.db", dir);
	rc = kab_db_open(p, KAB_DB_WRITE, &db, &err);
	free(p);
	if (rc)
		return -1;
	/* three boots a side; head twice as fast; one set only in base */
	add_run("base", "1", 1000);
	add_run("base", "1", 1010);
	add_run("base", "1", 990);
	add_run("head", "1", 2000);
	add_run("head", "1", 2020);
	add_run("head", "1", 1980);
	add_run("base", "2", 500);
	add_run("other", "4", 700);
	add_run("other", "4", 710);
	return 0;
}

static int teardown(void **state)
{
	char *cmd = xasprintf("rm -rf %s", dir);
	int rc;

	kab_db_close(db);
	rc = system(cmd);
	free(cmd);
	return rc;
}

static const struct kab_compare_opts welch = {
	.test = KAB_TEST_WELCH, .fdr = 0.05, .noise = 1,
};

static int build(const char *a, const char *b, const struct cmp_sel *sel,
		 struct cmp_set *set, struct kab_err *err)
{
	char *specs[2] = { (char *)a, (char *)b };

	return cmp_set_build(db, specs, 2, &welch, sel, set, err);
}

static void test_tables_and_notes(void **state)
{
	struct cmp_sel sel = { 0 };
	const struct kab_row *kpi;
	struct kab_err err;
	struct cmp_set set;

	assert_int_equal(build("base", "head", &sel, &set, &err), 0);
	/* nr_task=2 ran on the base only: no table, and a note says so */
	assert_int_equal(set.nr, 1);
	assert_non_null(set.notes);
	assert_non_null(strstr(set.notes, "nr_task=2"));
	assert_non_null(strstr(set.notes, "no run of these parameters on "
				       "every side, skipped"));
	assert_null(strchr(set.notes, '\n'));
	assert_int_equal(set.t[0].runs[0].nr, 3);
	assert_int_equal(set.t[0].runs[1].nr, 3);
	kpi = cmp_table_kpi(&set.t[0], NULL);
	assert_non_null(kpi);
	assert_string_equal(kpi->metric, "will-it-scale.per_process_ops");
	assert_true(kpi->cells[0].significant);
	assert_true(kpi->cells[0].change > 99 && kpi->cells[0].change < 101);
	cmp_set_free(&set);
}

/*
 * kab ab's closing table: a KPI its looks decided takes their verdict,
 * whatever the fixed-sample test of the same boots says.
 */
static void test_sequential(void **state)
{
	struct cmp_seq q = { .run_id = 5,
			     .metric = "will-it-scale.per_process_ops",
			     .q = { .verdict = KAB_SEQ_UNDECIDED, .alpha = 0.01,
				    .change = 100, .lo = -5, .hi = 300 } };
	struct cmp_sel sel = { 0 };
	const struct kab_row *kpi;
	struct kab_err err;
	struct cmp_set set;

	/* base -> head doubles: the table alone calls it */
	assert_int_equal(build("base", "head", &sel, &set, &err), 0);
	kpi = cmp_table_kpi(&set.t[0], NULL);
	assert_true(kpi->cells[0].significant);
	/* a run of the base names no table's head: nothing changes */
	q.run_id = 1;
	cmp_set_sequential(&set, &q, 1);
	assert_false(kpi->cells[0].sequential);
	assert_true(kpi->cells[0].significant);
	/* undecided at the last look: not a change */
	q.run_id = 5;
	cmp_set_sequential(&set, &q, 1);
	assert_true(kpi->cells[0].sequential);
	assert_false(kpi->cells[0].significant);
	assert_int_equal(kpi->cells[0].verdict, 0);
	assert_true(kpi->cells[0].ci_lo == -5 && kpi->cells[0].ci_hi == 300);
	/* changed: an improvement of ops/s, with the looks' interval */
	q.q.verdict = KAB_SEQ_CHANGED;
	q.q.lo = 90;
	q.q.hi = 110;
	cmp_set_sequential(&set, &q, 1);
	assert_true(kpi->cells[0].significant);
	assert_int_equal(kpi->cells[0].verdict, 1);
	assert_true(kpi->cells[0].ci_lo == 90 && kpi->cells[0].ci_hi == 110);
	/* another metric is not the KPI's: untouched */
	cmp_set_free(&set);
	assert_int_equal(build("base", "head", &sel, &set, &err), 0);
	q.metric = "will-it-scale.workload";
	q.q.verdict = KAB_SEQ_SAME;
	cmp_set_sequential(&set, &q, 1);
	kpi = cmp_table_kpi(&set.t[0], NULL);
	assert_false(kpi->cells[0].sequential);
	assert_true(kpi->cells[0].significant);
	cmp_set_free(&set);
}

static void test_refusals(void **state)
{
	struct cmp_sel sel = { 0 };
	struct kab_err err;
	struct cmp_set set;

	/* a side against itself */
	assert_int_equal(build("base", "7,3,2,1", &sel, &set, &err),
			 KAB_MODEL_REFUSED);
	assert_non_null(strstr(err.msg, "are the same runs"));
	cmp_set_free(&set);
	/* a label nobody ran: not a database failure */
	assert_int_equal(build("base", "nosuch", &sel, &set, &err),
			 KAB_MODEL_REFUSED);
	assert_non_null(strstr(err.msg, "'nosuch' is neither a run id"));
	cmp_set_free(&set);
	/* no shared set: the parameter that differs, both values, the fix */
	assert_int_equal(build("head", "other", &sel, &set, &err),
			 KAB_MODEL_REFUSED);
	assert_non_null(strstr(err.msg, "nr_task (head: 1, other: 4)"));
	assert_non_null(strstr(err.msg, "--ignore-param nr_task"));
	cmp_set_free(&set);
	/* ... which then compares them */
	assert_int_equal(cmp_sel_ignore(&sel, "nr_task", &err), 0);
	assert_int_equal(build("head", "other", &sel, &set, &err), 0);
	assert_int_equal(set.nr, 1);
	assert_null(json_object_get(set.t[0].params_obj, "nr_task"));
	cmp_set_free(&set);
	/* what --ignore-param takes */
	assert_int_equal(cmp_sel_ignore(&sel, "a b", &err), -1);
	assert_non_null(strstr(err.msg, "name a job parameter"));
	while (sel.nr_ignore < CMP_MAX_IGNORE)
		assert_int_equal(cmp_sel_ignore(&sel, "x", &err), 0);
	assert_int_equal(cmp_sel_ignore(&sel, "x", &err), -1);
}

static void test_report(void **state)
{
	struct report_opts o = { .c = welch };
	const struct report_job *m;
	struct kab_err err;
	struct report r;
	char *change;

	assert_int_equal(report_build(db, "base", "head", &o, &r, &err), 0);
	m = report_main(&r);
	assert_true(m->noticed);
	assert_int_equal(m->kv.verdict, 1);
	change = report_change(m);
	assert_string_equal(change, "100.0% improvement");
	free(change);
	assert_null(report_unjudged(m));
	assert_string_equal(r.subject, "head: will-it-scale.per_process_ops "
				       "100.0% improvement");
	assert_string_equal(m->machine, "2 threads 1 sockets Test CPU with "
					"1G memory");
	/* the job file and both kernels, then the report again */
	assert_non_null(strstr(r.reproduce, "cat > will-it-scale-malloc1.yaml"
				       " <<'EOF'\n"));
	assert_non_null(strstr(r.reproduce, "nr_task: 1\n"));
	assert_non_null(strstr(r.reproduce, "# base: kernel 6.1.0"));
	assert_non_null(strstr(r.reproduce, "\nkab report base head\n"));
	assert_int_equal(r.nr_trend, 0);
	report_free(&r);
	/* a KPI the runs do not have is refused, naming the way out */
	o.kpi = "nosuch.metric";
	assert_int_equal(report_build(db, "base", "head", &o, &r, &err),
			 KAB_MODEL_REFUSED);
	assert_non_null(strstr(err.msg, "has the metric nosuch.metric"));
	report_free(&r);
}

static void test_run_lists(void **state)
{
	int64_t v[] = { 3, 4, 12 };
	size_t nr;
	char *s = runs_join(v, 3);
	int64_t *back = runs_split(s, &nr);
	double *means;

	assert_string_equal(s, "3,4,12");
	assert_int_equal(nr, 3);
	assert_memory_equal(back, v, sizeof(v));
	free(back);
	free(s);
	assert_null(runs_split("3,x", &nr));
	assert_int_equal(nr, 0);
	assert_null(runs_split("3,-4", &nr));
	/* the unit is the boot: one mean per run, not per sample */
	v[0] = 1;
	v[1] = 2;
	means = bisect_boot_means(db, "will-it-scale.per_process_ops", v, 2,
				  &nr);
	assert_int_equal(nr, 2);
	assert_true(means[0] == 1000 && means[1] == 1010);
	free(means);
}

static void test_gate(void **state)
{
	const char *nosuch[] = { "no.metric" };
	struct gate_opts o = { .threshold = 5 };
	struct kab_err err;
	struct gate g;

	/* twice as fast: an improvement does not fail a gate */
	assert_int_equal(gate_build(db, "base", "head", &o, &g, &err), 0);
	assert_int_equal(g.nr, 1);
	assert_false(g.v[0].failed);
	assert_int_equal(g.v[0].kv.verdict, 1);
	assert_string_equal(g.v[0].job, "will-it-scale: mode=process "
					 "nr_task=1 test=malloc1");
	assert_int_equal(gate_result(&g, &o), GATE_PASS);
	gate_free(&g);
	/* one boot a side (runs 1 and 4): not judged, so not a pass */
	assert_int_equal(gate_build(db, "1", "4", &o, &g, &err), 0);
	assert_true(g.v[0].inconclusive && !g.v[0].failed);
	assert_int_equal(g.inconclusive, 1);
	assert_int_equal(gate_result(&g, &o), GATE_INCONCLUSIVE);
	assert_string_equal(gate_result_name(gate_result(&g, &o)),
			    "inconclusive");
	o.allow_inconclusive = true;
	assert_int_equal(gate_result(&g, &o), GATE_PASS);
	o.allow_inconclusive = false;
	gate_free(&g);
	/* ... unless any change fails it */
	o.fail_on_change = true;
	assert_int_equal(gate_build(db, "base", "head", &o, &g, &err), 0);
	assert_true(g.v[0].failed);
	assert_int_equal(g.failed, 1);
	gate_free(&g);
	/* half as fast: a regression, failed beyond the threshold only */
	o.fail_on_change = false;
	assert_int_equal(gate_build(db, "head", "base", &o, &g, &err), 0);
	assert_true(g.v[0].failed && g.v[0].regressed);
	assert_non_null(strstr(g.v[0].what, "-50.0% regression (p = "));
	assert_int_equal(gate_result(&g, &o), GATE_FAIL);
	gate_free(&g);
	o.threshold = 60;
	assert_int_equal(gate_build(db, "head", "base", &o, &g, &err), 0);
	assert_false(g.v[0].failed);
	assert_true(g.v[0].regressed);
	gate_free(&g);
	/* a KPI the runs lack is the user's mistake, not a regression */
	o.kpi = nosuch;
	o.nr_kpi = 1;
	assert_int_equal(gate_build(db, "base", "head", &o, &g, &err),
			 KAB_MODEL_REFUSED);
	assert_non_null(strstr(err.msg, "has the metric no.metric"));
	gate_free(&g);
}

static void test_endpoints(void **state)
{
	const char *m = "will-it-scale.per_process_ops";
	struct bisect_endpoints e;
	struct kab_err err;

	/* three boots a side, twice as fast: it differs */
	assert_int_equal(bisect_endpoints_test(db, m, "1,2,3", "4,5,6", 0.05,
					       1, &e, &err), 0);
	assert_true(e.differs);
	assert_int_equal(e.good_boots, 3);
	assert_int_equal(e.bad_boots, 3);
	assert_true(e.good_mean == 1000 && e.bad_mean == 2000);
	assert_true(e.change == 100);
	assert_true(e.p < 1e-4);
	/* the floor is the larger spread of boot means, 1% here */
	assert_true(e.floor > 0.99 && e.floor < 1.01);
	/* a change below the floor the user set is not one */
	assert_int_equal(bisect_endpoints_test(db, m, "1,2,3", "4,5,6", 0.05,
					       150, &e, &err), 0);
	assert_false(e.differs);
	/* one boot a side is no test at all, however large the change */
	assert_int_equal(bisect_endpoints_test(db, m, "1", "4", 0.05, 1, &e,
					       &err), 0);
	assert_true(isnan(e.p));
	assert_false(e.differs);
	/* the unit is the boot: iterations of one boot are not boots */
	assert_int_equal(e.good_boots, 1);
	assert_int_equal(bisect_endpoints_test(db, "no.metric", "1", "4",
					       0.05, 1, &e, &err),
			 KAB_MODEL_REFUSED);
	assert_non_null(strstr(err.msg, "the endpoints have no no.metric "
				       "samples"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables_and_notes),
		cmocka_unit_test(test_sequential),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_report),
		cmocka_unit_test(test_run_lists),
		cmocka_unit_test(test_endpoints),
		cmocka_unit_test(test_gate),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
