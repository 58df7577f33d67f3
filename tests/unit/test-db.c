// SPDX-License-Identifier: GPL-2.0
/*
 * test-db.c - the SQLite store: round trip, refusal of what is not a
 * kab database of this version, and runs whose kab died.
 */
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"
#include "../../db/db.h"

static char dir[64];

static int setup(void **state)
{
	snprintf(dir, sizeof(dir), "/tmp/kab-dbtest.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	char *cmd = xasprintf("rm -rf %s", dir);
	int rc = system(cmd);

	free(cmd);
	return rc;
}

static char *path(const char *name)
{
	return xasprintf("%s/%s", dir, name);
}

static void fill_run(struct kab_run *r)
{
	memset(r, 0, sizeof(*r));
	r->kernel.label = "base";
	r->kernel.release = "6.1.0";
	r->kernel.cmdline = "console=ttyS0";
	r->job = "will-it-scale-malloc1";
	r->suite = "will-it-scale";
	r->test = "malloc1";
	r->params = json_pack("{s:s, s:s}", "mode", "process",
			      "nr_task", "100%");
	r->resolved = json_pack("{s:i}", "nr_task", 2);
	r->target = "local";
	r->host = json_pack("{s:s, s:i, s:i}", "cpu_model", "Test CPU",
			    "nr_cpus", 2, "mem_total_kb", 1024);
	r->iterations_planned = 2;
}

static void drop_run(struct kab_run *r)
{
	json_decref(r->params);
	json_decref(r->resolved);
	json_decref(r->host);
	free(r->started_at);
	free(r->status);
}

struct acc {
	int n;
	double sum;
};

static int acc_sample(void *ctx, int it, const char *m, double v)
{
	struct acc *a = ctx;

	a->n++;
	a->sum += v * it;
	return 0;
}

static void test_roundtrip(void **state)
{
	const char *names[] = { "a.ops", "b.faults" };
	double vals[] = { 0.1, 12345678901.5 };
	char *p = path("rt.db");
	struct kab_run r, back;
	struct kab_db *db;
	struct kab_err err;
	struct acc a = { 0 };

	if (kab_db_open(p, KAB_DB_WRITE, &db, &err))
		fail_msg("%s", err.msg);
	fill_run(&r);
	assert_int_equal(kab_db_run_insert(db, &r, &err), 0);
	assert_true(r.id > 0);
	assert_int_equal(strlen(r.uuid), 36);
	assert_int_equal(kab_db_iteration_store(db, r.id, 1, names, vals, 2,
						&err), 0);
	assert_int_equal(kab_db_iteration_store(db, r.id, 2, names, vals, 2,
						&err), 0);
	/* The same sample twice is refused, the iteration rolled back. */
	assert_int_equal(kab_db_iteration_store(db, r.id, 2, names, vals, 2,
						&err), -1);
	assert_int_equal(kab_db_run_finish(db, r.id, "ok", NULL, 3, 1, &err), 0);
	kab_db_close(db);

	assert_int_equal(kab_db_open(p, KAB_DB_READ, &db, &err), 0);
	assert_int_equal(kab_db_run_get(db, r.id, &back, &err), 0);
	assert_string_equal(back.uuid, r.uuid);
	assert_string_equal(back.kernel.label, "base");
	assert_string_equal(back.kernel.cmdline, "console=ttyS0");
	assert_string_equal(back.status, "ok");
	assert_int_equal(back.nr_iterations, 2);
	assert_int_equal(back.garbage_bytes, 3);
	assert_string_equal(json_string_value(json_object_get(back.params,
							      "nr_task")),
			    "100%");
	assert_int_equal(json_integer_value(json_object_get(back.host,
							    "nr_cpus")), 2);
	assert_non_null(back.ended_at);
	assert_int_equal(kab_db_samples_foreach(db, r.id, acc_sample, &a,
						&err), 0);
	assert_int_equal(a.n, 4);
	/* Doubles come back bit for bit. */
	assert_true(a.sum == 3 * (0.1 + 12345678901.5));
	assert_true(kab_db_run_exists(db, r.uuid));
	kab_run_free(&back);
	assert_int_equal(kab_db_run_get(db, 99, &back, &err), 1);
	assert_non_null(strstr(err.msg, "no run 99"));
	kab_db_close(db);
	drop_run(&r);
	free(p);
}

struct stack_acc {
	int n;
	uint64_t first;
	char first_stack[64];
};

static int acc_stack(void *ctx, int64_t run_id, const char *event,
		     const char *stack, uint64_t samples)
{
	struct stack_acc *a = ctx;

	assert_string_equal(event, "cpu-clock");
	if (!a->n++) {
		a->first = samples;
		snprintf(a->first_stack, sizeof(a->first_stack), "%s", stack);
	}
	return 0;
}

static void test_stacks(void **state)
{
	const char *stacks[] = { "main;f", "main;g;h" };
	const uint64_t n[] = { 70, 20 }, again[] = { 5, 50 };
	char *p = path("stacks.db");
	struct stack_acc a = { 0 };
	struct kab_run r;
	struct kab_db *db;
	struct kab_err err;
	uint64_t total;
	int64_t id;

	if (kab_db_open(p, KAB_DB_WRITE, &db, &err))
		fail_msg("%s", err.msg);
	fill_run(&r);
	assert_int_equal(kab_db_run_insert(db, &r, &err), 0);
	id = r.id;
	assert_int_equal(kab_db_stacks_store(db, id, 1, "cpu-clock", 100, 2,
					     stacks, n, &err), 0);
	assert_int_equal(kab_db_stacks_store(db, id, 2, "cpu-clock", 80, 2,
					     stacks, again, &err), 0);
	/* an iteration's stacks once: the second time is refused whole */
	assert_int_equal(kab_db_stacks_store(db, id, 2, "cpu-clock", 80, 2,
					     stacks, again, &err), -1);
	assert_int_equal(kab_db_stacks_total(db, id, &total, &err), 0);
	assert_int_equal(total, 180);
	/* summed over the iterations, the biggest first */
	assert_int_equal(kab_db_stacks_foreach(db, &id, 1, acc_stack, &a,
					       &err), 0);
	assert_int_equal(a.n, 2);
	assert_int_equal(a.first, 75);
	assert_string_equal(a.first_stack, "main;f");
	kab_db_close(db);
	drop_run(&r);
	free(p);
}

static void test_kernel_rows_shared(void **state)
{
	char *p = path("k.db");
	struct kab_run r1, r2;
	struct kab_db *db;
	struct kab_err err;
	sqlite3 *h;
	sqlite3_stmt *st;

	assert_int_equal(kab_db_open(p, KAB_DB_WRITE, &db, &err), 0);
	fill_run(&r1);
	fill_run(&r2);
	assert_int_equal(kab_db_run_insert(db, &r1, &err), 0);
	assert_int_equal(kab_db_run_insert(db, &r2, &err), 0);
	assert_string_not_equal(r1.uuid, r2.uuid);
	kab_db_close(db);
	assert_int_equal(sqlite3_open(p, &h), SQLITE_OK);
	sqlite3_prepare_v2(h, "SELECT count(*) FROM kernels", -1, &st, NULL);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(st, 0), 1);
	sqlite3_finalize(st);
	sqlite3_close(h);
	drop_run(&r1);
	drop_run(&r2);
	free(p);
}

/* The rule at the door: what kab_run_check lets into the database. */
static void test_run_check(void **state)
{
	struct kab_run r;
	struct kab_err err;
	char *c;

	fill_run(&r);
	assert_int_equal(kab_run_check(&r, &err), 0);
	r.kernel.label = "6.1 \xe2\x82\xac caf\xc3\xa9";	/* UTF-8 text */
	assert_int_equal(kab_run_check(&r, &err), 0);
	r.kernel.label = "a\x1b[2J";			/* C0: ESC */
	assert_int_equal(kab_run_check(&r, &err), -1);
	assert_non_null(strstr(err.msg, "kernel label"));
	r.kernel.label = "a\xc2\x9b" "2J";		/* C1 CSI as UTF-8 */
	assert_int_equal(kab_run_check(&r, &err), -1);
	r.kernel.label = "a\x9b" "2J";			/* a lone byte */
	assert_int_equal(kab_run_check(&r, &err), -1);
	r.kernel.label = "a\nBcc: x";
	assert_int_equal(kab_run_check(&r, &err), -1);
	r.kernel.label = "ok";
	r.kernel.commit = "$(rm)";
	assert_int_equal(kab_run_check(&r, &err), -1);
	r.kernel.commit = NULL;
	r.job = "x;y";
	assert_int_equal(kab_run_check(&r, &err), -1);
	r.job = "will-it-scale-malloc1";
	json_object_set_new(r.params, "v", json_string("a\nEOF"));
	assert_int_equal(kab_run_check(&r, &err), -1);
	json_object_del(r.params, "v");
	r.block = "ci\nBcc: x";		/* a merged database's path */
	assert_int_equal(kab_run_check(&r, &err), -1);
	assert_non_null(strstr(err.msg, "block"));
	r.block = "";
	assert_int_equal(kab_run_check(&r, &err), -1);
	r.block = "/ci/cell-1.db";
	assert_int_equal(kab_run_check(&r, &err), 0);
	r.block = NULL;
	assert_int_equal(kab_run_check(&r, &err), 0);
	/* what the collector stores in place of a bad string */
	c = kab_text_clean("6.1\x1b]0;x\x07\n\xc2\x9b\xe2\x82\xac", 255);
	assert_string_equal(c, "6.1?]0;x???\xe2\x82\xac");
	free(c);
	/* never half a character */
	c = kab_text_clean("\xe2\x82\xac\xe2\x82\xac", 4);
	assert_string_equal(c, "\xe2\x82\xac");
	free(c);
	/* what a terminal is given of an old database's string */
	{
		static const char s[] = "a\x1b[2J\xc2\x9b" "2J\x9b\xe2\x82\xac\t\n\xe2\x82";
		struct strbuf sb = STRBUF_INIT;

		strbuf_add_visible(&sb, s, sizeof(s) - 1);
		assert_string_equal(sb.buf, "a\\x1b[2J\\xc2\\x9b" "2J\\x9b"
				    "\xe2\x82\xac\\t\\n\\xe2\\x82");
		strbuf_release(&sb);
		/* never past n, even inside a character */
		strbuf_add_visible(&sb, "\xe2\x82\xac", 2);
		assert_string_equal(sb.buf, "\\xe2\\x82");
		strbuf_release(&sb);
	}
	assert_true(kab_sample_ok(1e30));
	assert_false(kab_sample_ok(1e308));
	assert_false(kab_sample_ok(-1e31));
	drop_run(&r);
}

static void exec_sql(const char *p, const char *sql)
{
	sqlite3 *h;

	assert_int_equal(sqlite3_open(p, &h), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
}

static void test_refusals(void **state)
{
	char *notdb = path("garbage.db"), *other = path("other.db");
	char *newer = path("newer.db"), *missing = path("missing.db");
	struct kab_db *db;
	struct kab_err err;
	FILE *f;

	f = fopen(notdb, "w");
	fputs("this is not an SQLite database, not even close\n", f);
	fclose(f);
	assert_int_equal(kab_db_open(notdb, KAB_DB_WRITE, &db, &err), -1);
	assert_non_null(strstr(err.msg, "not a usable database"));
	assert_non_null(strstr(err.msg, "--db"));

	exec_sql(other, "CREATE TABLE t (x)");
	assert_int_equal(kab_db_open(other, KAB_DB_WRITE, &db, &err), -1);
	assert_non_null(strstr(err.msg, "not kab's"));

	assert_int_equal(kab_db_open(newer, KAB_DB_WRITE, &db, &err), 0);
	kab_db_close(db);
	exec_sql(newer, "PRAGMA user_version = 99");
	assert_int_equal(kab_db_open(newer, KAB_DB_WRITE, &db, &err), -1);
	assert_non_null(strstr(err.msg, "newer than this kab"));

	assert_int_equal(kab_db_open(missing, KAB_DB_READ, &db, &err), -1);
	assert_non_null(strstr(err.msg, "no database"));
	assert_int_equal(access(missing, F_OK), -1);	/* not created */

	assert_int_equal(kab_db_open("/proc/version/kab.db", KAB_DB_WRITE, &db,
				     &err), -1);
	free(notdb);
	free(other);
	free(newer);
	free(missing);
}

/* A run whose kab process is gone is interrupted, its samples kept. */
static void test_stale_run(void **state)
{
	const char *names[] = { "a.ops" };
	double vals[] = { 5 };
	char *p = path("stale.db"), *sql;
	struct kab_run r, back;
	struct kab_db *db;
	struct kab_err err;

	assert_int_equal(kab_db_open(p, KAB_DB_WRITE, &db, &err), 0);
	fill_run(&r);
	assert_int_equal(kab_db_run_insert(db, &r, &err), 0);
	assert_int_equal(kab_db_iteration_store(db, r.id, 1, names, vals, 1,
						&err), 0);
	kab_db_close(db);

	/* Still ours: reopening leaves it running. */
	assert_int_equal(kab_db_open(p, KAB_DB_WRITE, &db, &err), 0);
	assert_int_equal(kab_db_run_get(db, r.id, &back, &err), 0);
	assert_string_equal(back.status, "running");
	kab_run_free(&back);
	kab_db_close(db);

	/* Pretend its owner was another, dead process. */
	sql = xasprintf("UPDATE runs SET owner_start = owner_start + 1");
	exec_sql(p, sql);
	free(sql);
	assert_int_equal(kab_db_open(p, KAB_DB_READ, &db, &err), 0);
	assert_int_equal(kab_db_run_get(db, r.id, &back, &err), 0);
	assert_string_equal(back.status, "interrupted");
	assert_int_equal(back.nr_iterations, 1);
	kab_run_free(&back);
	kab_db_close(db);
	drop_run(&r);
	free(p);
}

/* A run keeps the clock it was timed by; one no kab writes is refused. */
static void test_run_clock(void **state)
{
	static const char *const bad[] = { "icount", "icount:11", "icount:-1",
					   "icount:3x", "sundial", "" };
	char *p = path("clock.db");
	struct kab_db *db;
	struct kab_err err;
	struct kab_run r, back;
	size_t i;

	assert_int_equal(kab_db_open(p, KAB_DB_WRITE, &db, &err), 0);
	fill_run(&r);
	r.clock = "icount:3";
	assert_int_equal(kab_db_run_insert(db, &r, &err), 0);
	assert_int_equal(kab_db_run_get(db, r.id, &back, &err), 0);
	assert_string_equal(back.clock, "icount:3");
	kab_run_free(&back);
	drop_run(&r);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		fill_run(&r);
		r.clock = (char *)bad[i];
		assert_int_equal(kab_db_run_insert(db, &r, &err), -1);
		assert_non_null(strstr(err.msg, "clock"));
		drop_run(&r);
	}
	kab_db_close(db);
	free(p);
}

/* A version 1 database is migrated forward, its runs kept. */
static void test_migration_and_boots(void **state)
{
	char *p = path("v1.db"), *console;
	struct kab_db *db;
	struct kab_err err;
	struct kab_run r, back;
	struct kab_boot_row b = { 0 };
	const char *log = "[    0.000000] Linux version 6.1.0\n"
			  "[    2.000000] Kernel panic - not syncing: x\n";
	int64_t id;
	size_t len;

	assert_int_equal(kab_db_open(p, KAB_DB_WRITE, &db, &err), 0);
	fill_run(&r);
	assert_int_equal(kab_db_run_insert(db, &r, &err), 0);
	kab_db_close(db);
	exec_sql(p, "DROP TABLE watch_changes; DROP TABLE watch_points; DROP TABLE watches; "
		 "ALTER TABLE runs DROP COLUMN seed; DROP TABLE ab_jobs; DROP TABLE stacks; DROP TABLE boots; "
		 "DROP TABLE abs; "
		 "DROP TABLE builds; "
		 "DROP TABLE bisect_steps; DROP TABLE bisects; "
		 "ALTER TABLE runs DROP COLUMN block; "
		 "ALTER TABLE runs DROP COLUMN clock; "
		 "PRAGMA user_version = 1");
	assert_int_equal(kab_db_open(p, KAB_DB_WRITE, &db, &err), 0);
	assert_int_equal(kab_db_run_get(db, r.id, &back, &err), 0);
	kab_run_free(&back);
	b.run_id = r.id;
	b.kernel_label = "base";
	b.outcome = "panic";
	b.problem = "Kernel panic - not syncing: x";
	b.console = log;
	b.console_len = strlen(log);
	assert_int_equal(kab_db_boot_insert(db, &b, &id, &err), 0);
	console = kab_db_boot_console(db, id, &len, &err);
	assert_non_null(console);
	assert_int_equal(len, strlen(log));
	assert_string_equal(console, log);
	free(console);
	b.outcome = "exploded";	/* not an outcome */
	assert_int_equal(kab_db_boot_insert(db, &b, &id, &err), -1);
	kab_db_close(db);
	drop_run(&r);
	free(p);
}

/*
 * 5 -> 6 builds the boots table again (a CHECK cannot be altered): the
 * boots stored before are all there, with their consoles, and a
 * host-stall can be stored after.
 */
static void test_migration_host_stall(void **state)
{
	char *p = path("v5.db"), *console;
	struct kab_db *db;
	struct kab_err err;
	struct kab_run r;
	struct kab_boot_row b = { .kernel_label = "base", .outcome = "ok",
				  .console = "hello\n", .console_len = 6,
				  .host_busy = -1 };
	int64_t id, id2;
	size_t len;

	assert_int_equal(kab_db_open(p, KAB_DB_WRITE, &db, &err), 0);
	fill_run(&r);
	assert_int_equal(kab_db_run_insert(db, &r, &err), 0);
	b.run_id = r.id;
	assert_int_equal(kab_db_boot_insert(db, &b, &id, &err), 0);
	kab_db_close(db);
	/* what version 5 had: no host_busy, no host-stall, no block */
	exec_sql(p, "ALTER TABLE abs DROP COLUMN merged_from; "
		 "DROP TABLE watch_changes; DROP TABLE watch_points; DROP TABLE watches; "
		 "ALTER TABLE runs DROP COLUMN seed; DROP TABLE ab_jobs; DROP TABLE stacks; "
		 "ALTER TABLE boots DROP COLUMN host_busy; "
		 "ALTER TABLE runs DROP COLUMN block; "
		 "ALTER TABLE runs DROP COLUMN clock; "
		 "ALTER TABLE bisects DROP COLUMN parent_runs; "
		 "ALTER TABLE bisects DROP COLUMN culprit_runs; "
		 "ALTER TABLE bisects DROP COLUMN verified; "
		 "PRAGMA user_version = 5");
	assert_int_equal(kab_db_open(p, KAB_DB_WRITE, &db, &err), 0);
	console = kab_db_boot_console(db, id, &len, &err);
	assert_non_null(console);
	assert_string_equal(console, "hello\n");
	free(console);
	b.outcome = "host-stall";
	b.host_busy = 0.5;
	assert_int_equal(kab_db_boot_insert(db, &b, &id2, &err), 0);
	assert_true(id2 > id);
	kab_db_close(db);
	drop_run(&r);
	free(p);
}

static int file_user_version(const char *p)
{
	sqlite3_stmt *st;
	sqlite3 *h;
	int v;

	assert_int_equal(sqlite3_open(p, &h), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(h, "PRAGMA user_version", -1,
					    &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(h);
	return v;
}

/*
 * A command that only reads an older database reads it upgraded (in
 * memory), and leaves the file as it was: a writing command upgrades.
 */
static void test_reader_of_older_schema(void **state)
{
	char *p = path("v6.db");
	struct kab_db *db;
	struct kab_err err;
	struct kab_run r, back;
	uint64_t total = 1;

	assert_int_equal(kab_db_open(p, KAB_DB_WRITE, &db, &err), 0);
	fill_run(&r);
	assert_int_equal(kab_db_run_insert(db, &r, &err), 0);
	kab_db_close(db);
	exec_sql(p, "ALTER TABLE abs DROP COLUMN merged_from; "
		 "DROP TABLE watch_changes; DROP TABLE watch_points; DROP TABLE watches; "
		 "ALTER TABLE runs DROP COLUMN seed; DROP TABLE ab_jobs; DROP TABLE stacks; "
		 "ALTER TABLE runs DROP COLUMN clock; "
		 "ALTER TABLE bisects DROP COLUMN parent_runs; "
		 "ALTER TABLE bisects DROP COLUMN culprit_runs; "
		 "ALTER TABLE bisects DROP COLUMN verified; "
		 "PRAGMA user_version = 6");
	assert_int_equal(kab_db_open(p, KAB_DB_READ, &db, &err), 0);
	assert_int_equal(kab_db_run_get(db, r.id, &back, &err), 0);
	assert_string_equal(back.kernel.label, r.kernel.label);
	/* every run before clocks was timed by its machine's */
	assert_string_equal(back.clock, "wall");
	kab_run_free(&back);
	/* what version 7 added is there to read, empty */
	assert_int_equal(kab_db_stacks_total(db, r.id, &total, &err), 0);
	assert_int_equal(total, 0);
	kab_db_close(db);
	assert_int_equal(file_user_version(p), 6);
	assert_int_equal(kab_db_open(p, KAB_DB_WRITE, &db, &err), 0);
	kab_db_close(db);
	assert_int_equal(file_user_version(p), KAB_DB_SCHEMA_VERSION);
	drop_run(&r);
	free(p);
}

/*
 * What one kab bisect writes (its row, a build and a run with samples
 * for each tested commit, its steps, its end) from ten processes, and
 * what one kab ab writes from ten more, all at once into one fresh
 * database: nothing is lost, nothing refused.
 */
static int one_bisect_writer(const char *p, int k)
{
	const char *names[] = { "will-it-scale.per_process_ops" };
	struct kab_bisect_step st = { .subject = "s", .reason = "r", .n = 1,
				      .p_good = 0.5, .p_bad = 0.01 };
	struct kab_build_row b = { .status = "ok", .tree = "/t",
				   .compiler = "gcc", .seconds = 1 };
	struct kab_err err;
	struct kab_db *db;
	struct kab_run r;
	int64_t id, bid;
	char commit[41], key[32], runs[32];
	double v;
	int c, rc = 1;

	if (kab_db_open(p, KAB_DB_WRITE, &db, &err)) {
		fprintf(stderr, "writer %d: %s\n", k, err.msg);
		return 1;
	}
	/* as kab's commands that write: wait for the lock as long as it takes */
	kab_db_set_patience(db, -1, NULL, NULL, NULL);
	if (kab_db_bisect_create(db, "[]", names[0], "aaaa", "bbbb", &id,
				 &err))
		goto out;
	for (c = 0; c < 4; c++) {
		/* the same commits in every bisect: kernel rows shared */
		snprintf(commit, sizeof(commit), "%040x", c + 10);
		snprintf(key, sizeof(key), "key-%d-%d", k, c);
		b.commit = commit;
		b.cache_key = key;
		if (kab_db_build_insert(db, &b, &bid, &err))
			goto out;
		fill_run(&r);
		r.kernel.label = commit;
		r.kernel.commit = commit;
		v = 1000 + k;
		if (kab_db_run_insert(db, &r, &err) ||
		    kab_db_iteration_store(db, r.id, 1, names, &v, 1, &err) ||
		    kab_db_run_finish(db, r.id, "ok", NULL, 0, 0, &err)) {
			drop_run(&r);
			goto out;
		}
		snprintf(runs, sizeof(runs), "%lld", (long long)r.id);
		drop_run(&r);
		st.commit = commit;
		st.verdict = c & 1 ? "bad" : "good";
		st.median = v;
		st.runs = runs;
		if (kab_db_bisect_step_add(db, id, &st, &err))
			goto out;
	}
	rc = kab_db_bisect_set(db, id, "good_runs", "1", &err) ||
	     kab_db_bisect_finish(db, id, "done", commit, NULL, &err);
out:
	if (rc)
		fprintf(stderr, "writer %d: %s\n", k, err.msg);
	kab_db_close(db);
	return rc;
}

/* What one kab ab writes: its row, then a boot and a run per plan step. */
static int one_ab_writer(const char *p, int k)
{
	const char *names[] = { "will-it-scale.per_process_ops" };
	struct kab_boot_row b = { .outcome = "ok", .accel = "tcg",
				  .qemu_version = "7.2", .smp = 2,
				  .mem = "1G", .seconds = 10, .entry = "pvh",
				  .console = "[ 0.0] Linux version 6.1\n",
				  .host_busy = 0.1 };
	struct kab_err err;
	struct kab_db *db;
	struct kab_run r;
	int64_t id, bid;
	double v;
	int seq, rc = 1;

	if (kab_db_open(p, KAB_DB_WRITE, &db, &err)) {
		fprintf(stderr, "ab writer %d: %s\n", k, err.msg);
		return 1;
	}
	/* as kab's commands that write: wait for the lock as long as it takes */
	kab_db_set_patience(db, -1, NULL, NULL, NULL);
	if (kab_db_ab_create(db, "[]", &id, &err))
		goto out;
	for (seq = 0; seq < 4; seq++) {
		fill_run(&r);
		r.kernel.label = seq & 1 ? "head" : "base";
		r.target = "qemu";
		v = 1000 + seq;
		if (kab_db_run_insert(db, &r, &err) ||
		    kab_db_iteration_store(db, r.id, 1, names, &v, 1, &err) ||
		    kab_db_run_finish(db, r.id, "ok", NULL, 0, 0, &err)) {
			drop_run(&r);
			goto out;
		}
		b.run_id = r.id;
		b.kernel_label = r.kernel.label;
		b.console_len = strlen(b.console);
		b.ab_id = id;
		b.ab_seq = seq;
		drop_run(&r);
		if (kab_db_boot_insert(db, &b, &bid, &err))
			goto out;
	}
	rc = kab_db_ab_finish(db, id, "done", &err);
out:
	if (rc)
		fprintf(stderr, "ab writer %d: %s\n", k, err.msg);
	kab_db_close(db);
	return rc;
}

static void test_concurrent_writers(void **state)
{
	char *p = path("conc.db");
	struct kab_err err;
	struct kab_db *db;
	sqlite3 *h;
	sqlite3_stmt *st;
	const char *q[] = {
		"SELECT count(*) FROM bisects WHERE status = 'done'",
		"SELECT count(*) FROM bisect_steps",
		"SELECT count(*) FROM builds",
		"SELECT count(*) FROM runs WHERE status = 'ok'",
		"SELECT count(*) FROM samples",
		"SELECT count(*) FROM kernels",
		"SELECT count(*) FROM abs",
		"SELECT count(*) FROM boots WHERE ab_id IS NOT NULL",
	};
	const int want[] = { 10, 40, 40, 80, 80, 6, 10, 40 };
	int k, status, bad = 0;
	size_t i;

	for (k = 0; k < 20; k++)
		if (!fork())
			_exit(k < 10 ? one_bisect_writer(p, k) :
				       one_ab_writer(p, k));
	/* every writer reaped before the first assertion can return */
	for (k = 0; k < 20; k++)
		if (wait(&status) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			bad++;
	if (bad)
		fail_msg("%d of 20 writers failed", bad);
	assert_int_equal(kab_db_open(p, KAB_DB_READ, &db, &err), 0);
	kab_db_close(db);
	assert_int_equal(sqlite3_open(p, &h), SQLITE_OK);
	for (i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
		assert_int_equal(sqlite3_prepare_v2(h, q[i], -1, &st, NULL), 0);
		assert_int_equal(sqlite3_step(st), SQLITE_ROW);
		if (sqlite3_column_int(st, 0) != want[i])
			fail_msg("%s: %d, not %d", q[i],
				 sqlite3_column_int(st, 0), want[i]);
		sqlite3_finalize(st);
	}
	assert_int_equal(sqlite3_prepare_v2(h, "PRAGMA integrity_check", -1,
					    &st, NULL), 0);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(st, 0), "ok");
	sqlite3_finalize(st);
	sqlite3_close(h);
	free(p);
}

/* A child holds the write lock of p for hold seconds. */
static pid_t hold_lock(const char *p, double hold)
{
	int fd[2];
	pid_t pid;
	char c;

	assert_int_equal(pipe(fd), 0);
	pid = fork();
	if (!pid) {
		sqlite3 *h;

		if (sqlite3_open(p, &h) ||
		    sqlite3_exec(h, "BEGIN IMMEDIATE", NULL, NULL, NULL))
			_exit(1);
		if (write(fd[1], "x", 1) != 1)
			_exit(1);
		usleep(hold * 1e6);
		sqlite3_exec(h, "COMMIT", NULL, NULL, NULL);
		sqlite3_close(h);
		_exit(0);
	}
	close(fd[1]);
	assert_int_equal(read(fd[0], &c, 1), 1);
	close(fd[0]);
	return pid;
}

static void note_count(void *arg, const char *path, double waited)
{
	(*(int *)arg)++;
}

static void test_patience(void **state)
{
	char *p = path("patience.db");
	volatile int stop = 0;
	struct kab_err err;
	struct kab_db *db;
	int notes = 0, status;
	double t;
	pid_t pid;

	assert_int_equal(kab_db_open(p, KAB_DB_WRITE, &db, &err), 0);
	/* a set wait ends in an error naming the lock, after the wait */
	pid = hold_lock(p, 3);
	kab_db_set_patience(db, 0.5, NULL, note_count, &notes);
	t = now_mono();
	assert_int_not_equal(kab_db_begin(db, &err), 0);
	t = now_mono() - t;
	if (t < 0.5 || t > 2.5)
		fail_msg("gave up after %.2f s, not 0.5", t);
	assert_non_null(strstr(err.msg, "locked"));
	/* no wait: the stop flag ends it at once */
	kab_db_set_patience(db, -1, &stop, note_count, &notes);
	stop = 1;
	t = now_mono();
	assert_int_not_equal(kab_db_begin(db, &err), 0);
	assert_true(now_mono() - t < 0.5);
	/* not stopped: it waits for as long as the lock is held */
	stop = 0;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	pid = hold_lock(p, 1.5);
	t = now_mono();
	assert_int_equal(kab_db_begin(db, &err), 0);
	t = now_mono() - t;
	if (t < 1)
		fail_msg("got the lock after %.2f s of 1.5 held", t);
	assert_int_equal(kab_db_commit(db, &err), 0);
	assert_int_equal(notes, 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	kab_db_close(db);
	free(p);
}

/* The LAVA job of an A/B's turn: kept by server, replaced, found. */
static void test_ab_jobs(void **state)
{
	char *p = path("abjobs.db");
	struct kab_db *db;
	struct kab_err err;
	int64_t id;

	assert_int_equal(kab_db_open(p, KAB_DB_WRITE, &db, &err), 0);
	assert_int_equal(kab_db_ab_create(db, "[]", &id, &err), 0);
	assert_int_equal(kab_db_ab_job_get(db, id, 3, "http://a/"), 0);
	assert_int_equal(kab_db_ab_job_set(db, id, 3, "http://a/", 41, &err),
			 0);
	assert_int_equal(kab_db_ab_job_set(db, id, 3, "http://a/", 42, &err),
			 0);
	assert_int_equal(kab_db_ab_job_get(db, id, 3, "http://a/"), 42);
	/* another server's job 42 is not this one's */
	assert_int_equal(kab_db_ab_job_get(db, id, 3, "http://b/"), 0);
	assert_int_equal(kab_db_ab_job_get(db, id, 4, "http://a/"), 0);
	assert_int_equal(kab_db_ab_job_get(db, id + 1, 3, "http://a/"), 0);
	kab_db_close(db);
	free(p);
}

/*
 * A scratch database (a merge's copy of an older source) is removed, its
 * SQLite files beside it too, at SIGINT or SIGTERM, which then end the
 * process as they would have; once forgotten, it stays.
 */
static void test_scratch_at_signal(void **state)
{
	static const int sigs[] = { SIGINT, SIGTERM, 0 };
	char dir[] = "/tmp/kab-test-scratch.XXXXXX";
	char *db, *wal, *journal;
	size_t i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	db = xasprintf("%s/copy.db", dir);
	wal = xasprintf("%s-wal", db);
	journal = xasprintf("%s-journal", db);
	for (i = 0; i < ARRAY_SIZE(sigs); i++) {
		int sig = sigs[i] ? sigs[i] : SIGTERM, st;
		pid_t pid;

		fclose(fopen(db, "w"));
		fclose(fopen(wal, "w"));
		fclose(fopen(journal, "w"));
		pid = fork();
		assert_true(pid >= 0);
		if (!pid) {
			/* as in a foreground shell (a background one ignores
			 * SIGINT, which kab then leaves alone) */
			signal(SIGINT, SIG_DFL);
			signal(SIGTERM, SIG_DFL);
			scratch_remove_at_signal(db);
			/* the last: forgotten before the signal */
			if (!sigs[i])
				scratch_remove_at_signal(NULL);
			raise(sig);
			_exit(0);
		}
		assert_int_equal(waitpid(pid, &st, 0), pid);
		assert_true(WIFSIGNALED(st));
		assert_int_equal(WTERMSIG(st), sig);
		assert_int_equal(access(db, F_OK), sigs[i] ? -1 : 0);
		assert_int_equal(access(wal, F_OK), sigs[i] ? -1 : 0);
		assert_int_equal(access(journal, F_OK), sigs[i] ? -1 : 0);
	}
	unlink(db);
	unlink(wal);
	unlink(journal);
	rmdir(dir);
	free(db);
	free(wal);
	free(journal);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_stacks),
		cmocka_unit_test(test_kernel_rows_shared),
		cmocka_unit_test(test_run_check),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_stale_run),
		cmocka_unit_test(test_migration_and_boots),
		cmocka_unit_test(test_migration_host_stall),
		cmocka_unit_test(test_run_clock),
		cmocka_unit_test(test_reader_of_older_schema),
		cmocka_unit_test(test_concurrent_writers),
		cmocka_unit_test(test_patience),
		cmocka_unit_test(test_ab_jobs),
		cmocka_unit_test(test_scratch_at_signal),
	};

	return cmocka_run_group_tests_name("db", tests, setup, teardown);
}
