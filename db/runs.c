// SPDX-License-Identifier: GPL-2.0
/*
 * runs.c - kernels and runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "internal.h"

static void make_uuid(char *out, size_t n)
{
	unsigned char b[16];
	size_t got = 0;

	while (got < sizeof(b)) {
		ssize_t r = getrandom(b + got, sizeof(b) - got, 0);

		if (r <= 0)
			break;
		got += r;
	}
	b[6] = (b[6] & 0x0f) | 0x40;
	b[8] = (b[8] & 0x3f) | 0x80;
	snprintf(out, n, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		 "%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2], b[3], b[4],
		 b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
		 b[14], b[15]);
}

/* Start time of a process in clock ticks since boot, 0 if unknown. */
static long long proc_start_time(pid_t pid)
{
	struct strbuf sb = STRBUF_INIT;
	char path[64], *p;
	long long start = 0;
	int field;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (read_file(path, &sb, NULL))
		goto out;
	p = strrchr(sb.buf, ')');
	/* Field 22 is starttime; after ')' comes field 3. */
	for (field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (p)
		start = atoll(p + 1);
out:
	strbuf_release(&sb);
	return start;
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

static int64_t kernel_id(struct kab_db *db, const struct kab_kernel *k,
			 struct kab_err *err)
{
	sqlite3_stmt *st;
	int64_t id = -1;

	/*
	 * Insert unless there, in one statement that gives the row's id
	 * either way: another kab storing the same kernel at the same
	 * moment is not an error (a look-up first and an insert after
	 * could both miss it and one would fail).  The update is a no-op.
	 */
	st = db_stmt(db, DB_KERNEL_INSERT, "INSERT INTO kernels (label, "
		     "release, cmdline, image_path, image_sha256, commit_sha) "
		     "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (label, release, "
		     "cmdline, image_sha256) DO UPDATE SET label = "
		     "excluded.label RETURNING id", err);
	if (!st)
		return -1;
	bind_text(st, 1, k->label);
	bind_text(st, 2, k->release ? k->release : "");
	bind_text(st, 3, k->cmdline ? k->cmdline : "");
	bind_text(st, 4, k->image_path);
	bind_text(st, 5, k->image_sha256 ? k->image_sha256 : "");
	bind_text(st, 6, k->commit);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	else
		db_fail(db, err, "storing the kernel");
	sqlite3_reset(st);
	return id;
}

static char *dump(json_t *j)
{
	return j ? json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS |
			      JSON_REAL_PRECISION(17)) : xstrdup("{}");
}

static const char *host_str(json_t *host, const char *key)
{
	return json_string_value(json_object_get(host, key));
}

int kab_db_run_insert(struct kab_db *db, struct kab_run *r,
		      struct kab_err *err)
{
	char *params = NULL, *resolved = NULL, *host = NULL, hostname[256];
	char now[32];
	sqlite3_stmt *st;
	int64_t kid;
	int ret = -1;

	if (kab_run_check(r, err))
		return -1;
	if (!r->uuid[0])
		make_uuid(r->uuid, sizeof(r->uuid));
	if (!r->started_at) {
		iso8601_utc(now_wall(), now, sizeof(now));
		r->started_at = xstrdup(now);
	}
	if (!r->status)
		r->status = xstrdup("running");
	kid = kernel_id(db, &r->kernel, err);
	if (kid < 0)
		return -1;
	st = db_stmt(db, DB_RUN_INSERT, "INSERT INTO runs (uuid, kernel_id, "
		     "job, suite, test, params, resolved, target, host, "
		     "cpu_model, nr_cpus, mem_total_kb, thp_enabled, "
		     "thp_defrag, kab_version, iterations_planned, started_at,"
		     " ended_at, status, message, garbage_bytes, bad_records, "
		     "owner_host, owner_pid, owner_start, block, clock, seed) "
		     "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
		     "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", err);
	if (!st)
		return -1;
	params = dump(r->params);
	resolved = dump(r->resolved);
	host = dump(r->host);
	bind_text(st, 1, r->uuid);
	sqlite3_bind_int64(st, 2, kid);
	bind_text(st, 3, r->job);
	bind_text(st, 4, r->suite);
	bind_text(st, 5, r->test);
	bind_text(st, 6, params);
	bind_text(st, 7, resolved);
	bind_text(st, 8, r->target ? r->target : "local");
	bind_text(st, 9, host);
	bind_text(st, 10, host_str(r->host, "cpu_model"));
	sqlite3_bind_int64(st, 11, json_integer_value(
		json_object_get(r->host, "nr_cpus")));
	sqlite3_bind_int64(st, 12, json_integer_value(
		json_object_get(r->host, "mem_total_kb")));
	bind_text(st, 13, host_str(r->host, "thp_enabled"));
	bind_text(st, 14, host_str(r->host, "thp_defrag"));
	bind_text(st, 15, host_str(r->host, "kab_version"));
	sqlite3_bind_int(st, 16, r->iterations_planned);
	bind_text(st, 17, r->started_at);
	bind_text(st, 18, r->ended_at);
	bind_text(st, 19, r->status);
	bind_text(st, 20, r->message);
	sqlite3_bind_int64(st, 21, r->garbage_bytes);
	sqlite3_bind_int64(st, 22, r->bad_records);
	if (!strcmp(r->status, "running")) {
		gethostname(hostname, sizeof(hostname));
		hostname[sizeof(hostname) - 1] = '\0';
		bind_text(st, 23, hostname);
		sqlite3_bind_int64(st, 24, getpid());
		sqlite3_bind_int64(st, 25, proc_start_time(getpid()));
	}
	bind_text(st, 26, r->block);
	bind_text(st, 27, r->clock ? r->clock : "wall");
	if (r->seed)
		sqlite3_bind_int64(st, 28, (sqlite3_int64)r->seed);
	if (sqlite3_step(st) != SQLITE_DONE) {
		db_fail(db, err, "storing the run");
		goto out;
	}
	r->id = sqlite3_last_insert_rowid(db->h);
	ret = 0;
out:
	free(params);
	free(resolved);
	free(host);
	return ret;
}

int kab_db_run_finish(struct kab_db *db, int64_t id, const char *status,
		      const char *message, int64_t garbage, int64_t bad,
		      struct kab_err *err)
{
	sqlite3_stmt *st;
	char now[32], *clean;
	int rc;

	st = db_stmt(db, DB_RUN_FINISH, "UPDATE runs SET status = ?, "
		     "message = ?, ended_at = ?, garbage_bytes = ?, "
		     "bad_records = ?, owner_pid = NULL WHERE id = ?", err);
	if (!st)
		return -1;
	iso8601_utc(now_wall(), now, sizeof(now));
	/* a message may quote a guest: one line of text, as checked */
	clean = message ? kab_text_clean(message, 4096) : NULL;
	bind_text(st, 1, status);
	bind_text(st, 2, clean);
	bind_text(st, 3, now);
	sqlite3_bind_int64(st, 4, garbage);
	sqlite3_bind_int64(st, 5, bad);
	sqlite3_bind_int64(st, 6, id);
	rc = sqlite3_step(st);
	free(clean);
	if (rc != SQLITE_DONE)
		return db_fail(db, err, "finishing the run");
	return 0;
}

bool kab_db_run_exists(struct kab_db *db, const char *uuid)
{
	sqlite3_stmt *st;
	bool found;

	st = db_stmt(db, DB_RUN_EXISTS, "SELECT 1 FROM runs WHERE uuid = ?",
		     NULL);
	if (!st)
		return false;
	bind_text(st, 1, uuid);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_reset(st);
	return found;
}

int db_reap_stale_runs(struct kab_db *db, struct kab_err *err)
{
	sqlite3_stmt *st;
	char hostname[256];
	int64_t *ids = NULL;
	int nr = 0, i, ret = 0;

	gethostname(hostname, sizeof(hostname));
	hostname[sizeof(hostname) - 1] = '\0';
	if (sqlite3_prepare_v2(db->h, "SELECT id, owner_pid, owner_start "
			       "FROM runs WHERE status = 'running' AND "
			       "owner_host = ?", -1, &st, NULL))
		return db_fail(db, err, "checking for abandoned runs");
	bind_text(st, 1, hostname);
	while (sqlite3_step(st) == SQLITE_ROW) {
		pid_t pid = sqlite3_column_int(st, 1);
		long long start = sqlite3_column_int64(st, 2);

		if (pid > 0 && proc_start_time(pid) == start)
			continue;	/* its kab is still running */
		ids = xrealloc(ids, (nr + 1) * sizeof(*ids));
		ids[nr++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	for (i = 0; i < nr && !ret; i++)
		ret = kab_db_run_finish(db, ids[i], "interrupted",
					"kab stopped while the run was going "
					"(killed?): the iterations stored "
					"before are kept", 0, 0, err);
	free(ids);
	return ret;
}

static char *col_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return s ? xstrdup((const char *)s) : NULL;
}

static json_t *col_json(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	json_t *j = s ? json_loads((const char *)s, 0, NULL) : NULL;

	return j ? j : json_object();
}

#define RUN_COLUMNS \
	"r.id, r.uuid, k.label, k.release, k.cmdline, k.image_path, " \
	"k.image_sha256, k.commit_sha, r.job, r.suite, r.test, r.params, " \
	"r.resolved, r.target, r.host, r.iterations_planned, r.started_at, " \
	"r.ended_at, r.status, r.message, r.garbage_bytes, r.bad_records, " \
	"(SELECT count(DISTINCT iteration) FROM samples s " \
	" WHERE s.run_id = r.id), r.block, r.clock, r.seed " \
	"FROM runs r JOIN kernels k ON k.id = r.kernel_id "

static void run_from_row(sqlite3_stmt *st, struct kab_run *r)
{
	const unsigned char *uuid;

	memset(r, 0, sizeof(*r));
	r->id = sqlite3_column_int64(st, 0);
	uuid = sqlite3_column_text(st, 1);
	snprintf(r->uuid, sizeof(r->uuid), "%s", uuid ? (char *)uuid : "");
	r->kernel.label = col_dup(st, 2);
	r->kernel.release = col_dup(st, 3);
	r->kernel.cmdline = col_dup(st, 4);
	r->kernel.image_path = col_dup(st, 5);
	r->kernel.image_sha256 = col_dup(st, 6);
	r->kernel.commit = col_dup(st, 7);
	r->job = col_dup(st, 8);
	r->suite = col_dup(st, 9);
	r->test = col_dup(st, 10);
	r->params = col_json(st, 11);
	r->resolved = col_json(st, 12);
	r->target = col_dup(st, 13);
	r->host = col_json(st, 14);
	r->iterations_planned = sqlite3_column_int(st, 15);
	r->started_at = col_dup(st, 16);
	r->ended_at = col_dup(st, 17);
	r->status = col_dup(st, 18);
	r->message = col_dup(st, 19);
	r->garbage_bytes = sqlite3_column_int64(st, 20);
	r->bad_records = sqlite3_column_int64(st, 21);
	r->nr_iterations = sqlite3_column_int(st, 22);
	r->block = col_dup(st, 23);
	r->clock = col_dup(st, 24);
	r->seed = (unsigned long long)sqlite3_column_int64(st, 25);
}

void kab_run_free(struct kab_run *r)
{
	free(r->kernel.label);
	free(r->kernel.release);
	free(r->kernel.cmdline);
	free(r->kernel.image_path);
	free(r->kernel.image_sha256);
	free(r->kernel.commit);
	free(r->job);
	free(r->suite);
	free(r->test);
	json_decref(r->params);
	json_decref(r->resolved);
	free(r->target);
	json_decref(r->host);
	free(r->started_at);
	free(r->ended_at);
	free(r->block);
	free(r->clock);
	free(r->status);
	free(r->message);
	memset(r, 0, sizeof(*r));
}

int kab_db_run_get(struct kab_db *db, int64_t id, struct kab_run *out,
		   struct kab_err *err)
{
	sqlite3_stmt *st;
	int rc;

	st = db_stmt(db, DB_RUN_GET, "SELECT " RUN_COLUMNS "WHERE r.id = ?",
		     err);
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		run_from_row(st, out);
		sqlite3_reset(st);
		return 0;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return db_fail(db, err, "reading the run");
	kab_err_set(err, "no run %lld in %s: 'kab ls' lists the runs",
		    (long long)id, db->path);
	return 1;
}

int kab_db_runs_foreach(struct kab_db *db, kab_run_fn fn, void *ctx,
			struct kab_err *err)
{
	sqlite3_stmt *st;
	int rc, ret = 0;

	st = db_stmt(db, DB_RUN_LIST, "SELECT " RUN_COLUMNS "ORDER BY r.id",
		     err);
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct kab_run r;

		run_from_row(st, &r);
		ret = fn(ctx, &r);
		kab_run_free(&r);
		if (ret)
			break;
	}
	sqlite3_reset(st);
	if (!ret && rc != SQLITE_DONE)
		return db_fail(db, err, "listing the runs");
	return ret;
}
