// SPDX-License-Identifier: GPL-2.0
/*
 * test-driver.c - the experiment driver (driver/driver.h) with no
 * command line: a run on this machine, an A/B booting the real kernel
 * under QEMU, an A/B stopped in its first boot, and the looks, each
 * seen through the hooks a front end gives it and in the database.
 */
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "test.h"
#include "../../driver/driver.h"

/* What a front end saw. */
struct seen {
	int booting, iterations, ticks, done, errors, notes, looks;
	int ok_runs;
	char order[16];			/* the labels' first letters */
	int stop_at_boot;		/* set kab_stop_requested at boot N */
	char last_error[512];
	char qemu_said[512];		/* the first note of what QEMU said */
	size_t look_nr;
};

static void on_error(void *ctx, const char *msg)
{
	struct seen *s = ctx;

	s->errors++;
	snprintf(s->last_error, sizeof(s->last_error), "%s", msg);
}

static void on_note(void *ctx, const char *msg)
{
	struct seen *s = ctx;

	s->notes++;
	if (!s->qemu_said[0] && !strncmp(msg, "QEMU said:", 10))
		snprintf(s->qemu_said, sizeof(s->qemu_said), "%s", msg);
}

static void on_progress(void *ctx, const struct kab_drv_run *r,
			enum kab_drv_step step)
{
	struct seen *s = ctx;

	if (step == KAB_DRV_BOOTING) {
		s->booting++;
		if (s->stop_at_boot == s->booting)
			kab_stop_requested = SIGINT;
	} else if (step == KAB_DRV_ITERATION) {
		s->iterations++;
	} else {
		s->ticks++;
	}
}

static void on_done(void *ctx, const struct kab_drv_run *r,
		    const struct kab_drv_done *d)
{
	struct seen *s = ctx;
	size_t n = strlen(s->order);

	s->done++;
	s->ok_runs += d->status == KAB_RUN_OK;
	if (n + 1 < sizeof(s->order) && r->label) {
		s->order[n] = r->label[0];
		s->order[n + 1] = '\0';
	}
}

static void on_look(void *ctx, const struct kab_drv_look *l)
{
	struct seen *s = ctx;

	s->looks++;
	s->look_nr = l->look_nr;
}

static struct kab_drv_ui ui_for(struct seen *s)
{
	return (struct kab_drv_ui){
		.ctx = s,
		.error = on_error,
		.note = on_note,
		.progress = on_progress,
		.run_done = on_done,
		.look = on_look,
	};
}

static char *top_path(const char *rel)
{
	const char *top = getenv("KAB_TOP");

	return xasprintf("%s/%s", top ? top : ".", rel);
}

/*
 * The agent of this build; under ASan the plain build's, as the command
 * line's tests boot it (ASan's malloc is not malloc1's).
 */
static char *agent_path(void)
{
	const char *b = getenv("KAB_BUILD");
	char *plain = top_path("build/kab-agent");

	if (getenv("KAB_SAN") && !access(plain, X_OK))
		return plain;
	free(plain);
	return b ? xasprintf("%s/kab-agent", b) : xstrdup("build/kab-agent");
}

struct fix {
	char dir[64];
	char *db_path;
	struct kab_db *db;
	struct kab_joblist jobs;
	char *agent;
};

static void fix_open(struct fix *f, char **sets, int nr_sets)
{
	struct kab_jobsel sel = { sets, nr_sets, NULL, 0 };
	struct kab_err err;
	char *job = top_path("jobs/will-it-scale-malloc1.yaml");

	snprintf(f->dir, sizeof(f->dir), "/tmp/kab-test-driver.XXXXXX");
	if (!mkdtemp(f->dir))
		fail_msg("mkdtemp");
	f->db_path = xasprintf("%s/kab.db", f->dir);
	if (kab_db_open(f->db_path, KAB_DB_WRITE, &f->db, &err))
		fail_msg("%s", err.msg);
	if (kab_job_load_sel(job, &sel, &f->jobs, &err))
		fail_msg("%s", err.msg);
	free(job);
	f->agent = agent_path();
	kab_stop_requested = 0;
}

static void fix_close(struct fix *f)
{
	char *cmd = xasprintf("rm -rf %s", f->dir);

	kab_db_close(f->db);
	kab_joblist_free(&f->jobs);
	free(f->db_path);
	free(f->agent);
	if (system(cmd))
		fprintf(stderr, "# could not remove %s\n", f->dir);
	free(cmd);
	kab_stop_requested = 0;
}

static char *fast_sets[] = { "nr_task=1", "warmup=0", "testtime=1s" };

/* A run on this machine: each iteration said as it starts, and stored. */
static void test_run_local(void **state)
{
	struct seen s = { 0 };
	struct kab_drv_ui ui = ui_for(&s);
	struct fix f;
	struct kab_drv_run r = { .iterations = 2 };
	struct kab_run run;
	struct kab_err err;
	bool fatal = false;

	fix_open(&f, fast_sets, 3);
	r.db = f.db;
	r.job = &f.jobs.jobs[0];
	r.label = "here";
	r.agent = f.agent;
	r.ui = &ui;
	r.job_nr = r.nr_jobs = 1;
	assert_int_equal(kab_drv_run_one(&r, &fatal), 0);
	assert_false(fatal);
	assert_int_equal(s.errors, 0);
	assert_int_equal(s.iterations, 2);
	assert_int_equal(s.booting, 0);
	assert_int_equal(s.done, 1);
	assert_int_equal(s.ok_runs, 1);
	assert_true(r.run_id > 0);
	assert_int_equal(kab_db_run_get(f.db, r.run_id, &run, &err), 0);
	assert_string_equal(run.status, "ok");
	assert_string_equal(run.kernel.label, "here");
	assert_string_equal(run.target, "local");
	assert_int_equal(run.nr_iterations, 2);
	kab_run_free(&run);
	fix_close(&f);
}

/* An A/B of one kernel with itself under QEMU: A B, stored as boots. */
static void ab_setup(struct kab_drv_ab *ab, struct fix *f, struct seen *s,
		     struct kab_drv_ui *ui, char *kernel, char *cache)
{
	struct kab_err err;
	int i;

	memset(ab, 0, sizeof(*ab));
	*ui = ui_for(s);
	ab->db = f->db;
	ab->jobs = &f->jobs;
	ab->boots = ab->max_boots = 1;
	ab->iterations = 1;
	ab->agent = f->agent;
	ab->ui = ui;
	ab->sides[0].label = "A";
	ab->sides[1].label = "B";
	for (i = 0; i < 2; i++) {
		struct kab_qemu_opts *q = &ab->sides[i].q;

		q->kernel = kernel;
		q->cache_dir = cache;
		q->mem = "1G";
		q->boot_timeout = 120;
		q->clock.kind = KAB_CLOCK_WALL;
		q->smp = 1;
	}
	kab_drv_looks_init(&ab->looks, &f->jobs, NULL, 1, 1, 0.05, -1);
	if (kab_db_ab_create(f->db, "[\"test\"]", &ab->id, &err))
		fail_msg("%s", err.msg);
}

static void test_ab_qemu(void **state)
{
	char *kernel = kab_default_kernel();
	struct kab_drv_ab ab;
	struct kab_drv_ui ui;
	struct seen s = { 0 };
	struct fix f;
	char *cache, *wrapper, *errpath;
	int saved, errfd, rc;
	FILE *fp;

	if (!kernel)
		skip();		/* no kernel in /boot: make deps installs one */
	fix_open(&f, fast_sets, 3);
	cache = xasprintf("%s/cache", f.dir);
	/* QEMU's own words reach the ui's note, not kab's stderr */
	wrapper = xasprintf("%s/qemu", f.dir);
	errpath = xasprintf("%s/stderr", f.dir);
	fp = fopen(wrapper, "w");
	assert_non_null(fp);
	fprintf(fp, "#!/bin/sh\necho 'a word from QEMU' >&2\n"
		"exec qemu-system-x86_64 \"$@\"\n");
	fclose(fp);
	assert_int_equal(chmod(wrapper, 0755), 0);
	setenv("KAB_QEMU", wrapper, 1);
	fflush(stderr);
	saved = dup(2);
	errfd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(saved >= 0 && errfd >= 0);
	dup2(errfd, 2);
	ab_setup(&ab, &f, &s, &ui, kernel, cache);
	rc = kab_drv_ab_run(&ab);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(errfd);
	unsetenv("KAB_QEMU");
	assert_int_equal(rc, 0);
	if (s.errors)
		fail_msg("%s", s.last_error);
	assert_false(ab.fatal);
	if (strncmp(s.qemu_said, "QEMU said:\n| a word from QEMU", 30))
		fail_msg("the ui's note of QEMU's words: '%s'", s.qemu_said);
	{
		struct strbuf err = STRBUF_INIT;

		read_file(errpath, &err, NULL);
		if (err.buf && strstr(err.buf, "QEMU said"))
			fail_msg("kab's stderr got it: %s", err.buf);
		strbuf_release(&err);
	}
	free(wrapper);
	free(errpath);
	assert_string_equal(s.order, "AB");
	assert_int_equal(s.booting, 2);
	assert_int_equal(ab.sides[0].outcomes[KAB_BOOT_OK], 1);
	assert_int_equal(ab.sides[1].outcomes[KAB_BOOT_OK], 1);
	assert_int_equal(ab.rounds, 1);
	/* both turns are stored as done: a resume boots nothing again */
	assert_true(kab_db_ab_seq_done(f.db, ab.id, 0));
	assert_true(kab_db_ab_seq_done(f.db, ab.id, 1));
	memset(&s, 0, sizeof(s));
	ab.sides[0].earlier = ab.sides[1].earlier = 0;
	assert_int_equal(kab_drv_ab_run(&ab), 0);
	assert_int_equal(s.booting, 0);
	assert_int_equal(ab.sides[0].earlier, 1);
	assert_int_equal(ab.sides[1].earlier, 1);
	kab_drv_looks_free(&ab.looks);
	free(cache);
	free(kernel);
	fix_close(&f);
}

/* A stop asked for in A's boot: that boot is interrupted, B never runs. */
static void test_ab_stop(void **state)
{
	char *kernel = kab_default_kernel();
	struct kab_drv_ab ab;
	struct kab_drv_ui ui;
	struct seen s = { .stop_at_boot = 1 };
	struct fix f;
	char *cache;

	if (!kernel)
		skip();
	fix_open(&f, fast_sets, 3);
	cache = xasprintf("%s/cache", f.dir);
	ab_setup(&ab, &f, &s, &ui, kernel, cache);
	ab.boots = ab.max_boots = 3;
	assert_int_equal(kab_drv_ab_run(&ab), -1);
	assert_int_equal(s.booting, 1);
	assert_string_equal(s.order, "A");
	assert_int_equal(ab.sides[0].outcomes[KAB_BOOT_INTERRUPTED], 1);
	assert_int_equal(ab.sides[1].outcomes[KAB_BOOT_OK] +
			 ab.sides[1].outcomes[KAB_BOOT_INTERRUPTED], 0);
	assert_int_equal(ab.rounds, 0);
	assert_false(kab_db_ab_seq_done(f.db, ab.id, 1));
	kab_drv_looks_free(&ab.looks);
	free(cache);
	free(kernel);
	fix_close(&f);
}

/* The looks: a clear change answers a KPI at its first look. */
static void test_looks(void **state)
{
	static const double a[] = { 100, 101, 99, 100.5, 99.5 };
	static const double b[] = { 150, 151, 149, 150.5, 149.5 };
	const char *labels[2] = { "base", "head" };
	struct kab_drv_looks looks;
	struct kab_joblist jobs = { 0 };
	struct kab_job job = { 0 };
	struct kab_drv_ui ui;
	struct seen s = { 0 };
	size_t nr;
	struct cmp_seq *v;

	ui = ui_for(&s);
	jobs.jobs = &job;
	jobs.nr = 1;
	kab_drv_looks_init(&looks, &jobs, "will-it-scale.per_process_ops", 2,
			   10, 0.05, 1);
	/* before the first look's round, nothing is looked at */
	assert_false(kab_drv_looks_round(&looks, 1, labels, &ui));
	assert_int_equal(s.looks, 0);
	looks.l[0].means[0] = xmalloc(sizeof(a));
	looks.l[0].means[1] = xmalloc(sizeof(b));
	memcpy(looks.l[0].means[0], a, sizeof(a));
	memcpy(looks.l[0].means[1], b, sizeof(b));
	looks.l[0].n[0] = looks.l[0].n[1] = 5;
	looks.l[0].head_run = 7;
	assert_true(kab_drv_looks_round(&looks, 5, labels, &ui));
	assert_int_equal(s.looks, 1);
	assert_int_equal(s.look_nr, 4);
	assert_int_equal(looks.l[0].seq.verdict, KAB_SEQ_CHANGED);
	v = kab_drv_looks_verdicts(&looks, &nr);
	assert_int_equal(nr, 1);
	assert_int_equal(v[0].run_id, 7);
	free(v);
	/* an answered KPI is not looked at again */
	assert_true(kab_drv_looks_round(&looks, 6, labels, &ui));
	assert_int_equal(s.looks, 1);
	assert_int_equal(looks.l[0].look_nr, 4);
	kab_drv_looks_free(&looks);
}

/*
 * Exact mode's looks pair boots by layout seed: a 1% change under a
 * layout whose seed 3 costs 11% on both sides is answered at the
 * first look; the same boot means without seeds are not.
 */
static void test_looks_paired(void **state)
{
	static const double a[] = { 1000, 1002, 890, 1001 };
	static const double b[] = { 1010, 1012.2, 898.9, 1011.1 };
	static const unsigned long long seeds[] = { 1, 2, 3, 4 };
	const char *labels[2] = { "base", "head" };
	struct kab_drv_looks looks;
	struct kab_joblist jobs = { 0 };
	struct kab_job job = { 0 };
	struct kab_drv_ui ui;
	struct seen s = { 0 };
	int paired;

	ui = ui_for(&s);
	jobs.jobs = &job;
	jobs.nr = 1;
	for (paired = 0; paired < 2; paired++) {
		struct kab_drv_look *l;
		int side;

		kab_drv_looks_init(&looks, &jobs,
				   "will-it-scale.per_process_ops", 4, 4,
				   0.05, 0.5);
		looks.floor = kab_exact_floor();
		l = &looks.l[0];
		for (side = 0; side < 2; side++) {
			l->means[side] = xmalloc(sizeof(a));
			memcpy(l->means[side], side ? b : a, sizeof(a));
			l->n[side] = 4;
			if (paired) {
				/* the head's in another order: by seed */
				l->seeds[side] = xmalloc(sizeof(seeds));
				memcpy(l->seeds[side], seeds, sizeof(seeds));
			}
		}
		if (paired) {
			l->seeds[1][0] = 2;
			l->seeds[1][1] = 1;
			l->means[1][0] = b[1];
			l->means[1][1] = b[0];
		}
		kab_drv_looks_round(&looks, 4, labels, &ui);
		assert_int_equal(l->seq.verdict, paired ? KAB_SEQ_CHANGED :
				 KAB_SEQ_UNDECIDED);
		if (paired)
			assert_true(l->seq.lo > 0.5 && l->seq.hi < 1.5);
		kab_drv_looks_free(&looks);
	}
}

/*
 * What a look reads of a stored boot: its KPI's mean, its layout seed
 * and its clock.  The boots of test_looks_paired stored as icount runs
 * at seeds 1-4 (the head's first two the other way round) are paired
 * by their seeds and called at the first look.
 */
static void test_looks_add_reads_seeds(void **state)
{
	static const double a[] = { 1000, 1002, 890, 1001 };
	static const double b[] = { 1010, 1012.2, 898.9, 1011.1 };
	static const int order[] = { 2, 1, 3, 4 };
	const char *labels[2] = { "base", "head" };
	struct kab_drv_looks looks;
	struct kab_drv_ui ui;
	struct seen s = { 0 };
	struct fix f;
	sqlite3 *h;
	int side, i, id = 0;

	ui = ui_for(&s);
	fix_open(&f, fast_sets, 3);
	assert_int_equal(sqlite3_open(f.db_path, &h), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, "INSERT INTO kernels (id, label) "
				      "VALUES (1, 'base'), (2, 'head')",
				      NULL, NULL, NULL), SQLITE_OK);
	for (side = 0; side < 2; side++)
		for (i = 0; i < 4; i++) {
			int seed = side ? order[i] : i + 1;
			double mean = side ? b[seed - 1] : a[seed - 1];
			char *sql;

			id++;
			sql = xasprintf(
				"INSERT INTO runs (id, uuid, kernel_id, job, "
				"suite, test, params, target, started_at, "
				"status, clock, seed) VALUES (%d, 'u%d', %d, "
				"'j', 'will-it-scale', 'malloc1', '{}', "
				"'qemu', '2026-12-06T00:00:00Z', 'ok', "
				"'icount:3', %d); INSERT INTO samples VALUES "
				"(%d, 1, 'will-it-scale.per_process_ops', "
				"%.17g)", id, id, side + 1, seed, id, mean);

			assert_int_equal(sqlite3_exec(h, sql, NULL, NULL,
						      NULL), SQLITE_OK);
			free(sql);
		}
	sqlite3_close(h);
	kab_drv_looks_init(&looks, &f.jobs, "will-it-scale.per_process_ops",
			   4, 4, 0.05, 0.5);
	for (id = 1; id <= 8; id++)
		kab_drv_looks_add(&looks, f.db, 0, id > 4, id);
	assert_int_equal(looks.l[0].n[0], 4);
	assert_int_equal(looks.l[0].n[1], 4);
	assert_non_null(looks.l[0].seeds[1]);
	assert_int_equal(looks.l[0].seeds[1][0], 2);
	assert_true(looks.floor == kab_exact_floor());
	assert_int_equal(looks.l[0].head_run, 8);
	kab_drv_looks_round(&looks, 4, labels, &ui);
	assert_int_equal(looks.l[0].seq.verdict, KAB_SEQ_CHANGED);
	/* the look of all four pairs, each at its seed */
	{
		struct kab_seq want;

		kab_seq_look_paired(a, b, 4, 0.5, kab_exact_floor(), 1, 1,
				    0.05, &want);
		assert_true(fabs(looks.l[0].seq.change - want.change) < 1e-12);
		assert_true(fabs(looks.l[0].seq.lo - want.lo) < 1e-12);
	}
	kab_drv_looks_free(&looks);
	fix_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_looks),
		cmocka_unit_test(test_looks_add_reads_seeds),
		cmocka_unit_test(test_looks_paired),
		cmocka_unit_test(test_run_local),
		cmocka_unit_test(test_ab_stop),
		cmocka_unit_test(test_ab_qemu),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
