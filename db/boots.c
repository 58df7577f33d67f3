// SPDX-License-Identifier: GPL-2.0
/*
 * boots.c - boots of the qemu target and their console logs, kept
 * compressed: a console is the evidence when a kernel fails.
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "internal.h"

int kab_db_boot_insert(struct kab_db *db, const struct kab_boot_row *b,
		       int64_t *id, struct kab_err *err)
{
	uLongf zlen = compressBound(b->console_len);
	unsigned char *z = xmalloc(zlen);
	sqlite3_stmt *st;
	char now[32];
	int ret = -1;

	if (compress2(z, &zlen, (const Bytef *)b->console, b->console_len,
		      6) != Z_OK) {
		free(z);
		return kab_err_set(err, "cannot compress the console log");
	}
	st = db_stmt(db, DB_BOOT_INSERT, "INSERT INTO boots (run_id, "
		     "kernel_label, kernel_path, cmdline, outcome, problem, "
		     "accel, qemu_version, smp, mem, seconds, console, "
		     "console_bytes, started_at, ab_id, ab_seq, entry, hello, "
		     "first_sample, host_busy) VALUES (?, ?, ?, ?, ?, ?, ?, ?, "
		     "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", err);
	if (!st)
		goto out;
	iso8601_utc(now_wall() - b->seconds, now, sizeof(now));
	if (b->run_id > 0)
		sqlite3_bind_int64(st, 1, b->run_id);
	else
		sqlite3_bind_null(st, 1);
	sqlite3_bind_text(st, 2, b->kernel_label, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, b->kernel_path, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, b->cmdline, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, b->outcome, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, b->problem, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, b->accel, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 8, b->qemu_version, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 9, b->smp);
	sqlite3_bind_text(st, 10, b->mem, -1, SQLITE_STATIC);
	sqlite3_bind_double(st, 11, b->seconds);
	sqlite3_bind_blob(st, 12, z, zlen, SQLITE_STATIC);
	sqlite3_bind_int64(st, 13, b->console_len);
	sqlite3_bind_text(st, 14, now, -1, SQLITE_STATIC);
	if (b->ab_id > 0) {
		sqlite3_bind_int64(st, 15, b->ab_id);
		sqlite3_bind_int(st, 16, b->ab_seq);
	}
	sqlite3_bind_text(st, 17, b->entry, -1, SQLITE_STATIC);
	if (b->hello > 0)
		sqlite3_bind_double(st, 18, b->hello);
	if (b->first_sample > 0)
		sqlite3_bind_double(st, 19, b->first_sample);
	if (b->host_busy >= 0)
		sqlite3_bind_double(st, 20, b->host_busy);
	if (sqlite3_step(st) != SQLITE_DONE) {
		db_fail(db, err, "storing the boot");
		goto out;
	}
	if (id)
		*id = sqlite3_last_insert_rowid(db->h);
	ret = 0;
out:
	if (st)
		sqlite3_reset(st);
	free(z);
	return ret;
}

char *kab_db_boot_console(struct kab_db *db, int64_t boot_id, size_t *len,
			  struct kab_err *err)
{
	sqlite3_stmt *st;
	char *out = NULL;
	uLongf n;

	st = db_stmt(db, DB_BOOT_CONSOLE, "SELECT console, console_bytes "
		     "FROM boots WHERE id = ?", err);
	if (!st)
		return NULL;
	sqlite3_bind_int64(st, 1, boot_id);
	if (sqlite3_step(st) != SQLITE_ROW) {
		kab_err_set(err, "no boot %lld", (long long)boot_id);
		goto out;
	}
	n = sqlite3_column_int64(st, 1);
	out = xmalloc(n + 1);
	if (uncompress((Bytef *)out, &n, sqlite3_column_blob(st, 0),
		       sqlite3_column_bytes(st, 0)) != Z_OK) {
		kab_err_set(err, "the console of boot %lld is damaged",
			    (long long)boot_id);
		free(out);
		out = NULL;
		goto out;
	}
	out[n] = '\0';
	*len = n;
out:
	sqlite3_reset(st);
	return out;
}

int kab_db_ab_create(struct kab_db *db, const char *argv_json, int64_t *id,
		     struct kab_err *err)
{
	sqlite3_stmt *st;
	char now[32];
	int rc;

	if (sqlite3_prepare_v2(db->h, "INSERT INTO abs (argv, created_at) "
			       "VALUES (?, ?)", -1, &st, NULL))
		return db_fail(db, err, "storing the A/B");
	iso8601_utc(now_wall(), now, sizeof(now));
	sqlite3_bind_text(st, 1, argv_json, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, now, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(db, err, "storing the A/B");
	*id = sqlite3_last_insert_rowid(db->h);
	return 0;
}

static char *column_dup(sqlite3_stmt *st, int i)
{
	const char *t = (const char *)sqlite3_column_text(st, i);

	return t ? xstrdup(t) : NULL;
}

int kab_db_ab_get(struct kab_db *db, int64_t id, struct kab_db_ab *out,
		  struct kab_err *err)
{
	sqlite3_stmt *st;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (sqlite3_prepare_v2(db->h, "SELECT argv, status, merged_from FROM "
			       "abs WHERE id = ?", -1, &st, NULL))
		return db_fail(db, err, "reading the A/B");
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		out->argv = column_dup(st, 0);
		out->status = column_dup(st, 1);
		out->merged_from = column_dup(st, 2);
		rc = 0;
	} else {
		kab_err_set(err, "no A/B %lld in %s: the number is the one "
			    "kab ab printed when it started", (long long)id,
			    db->path);
	}
	sqlite3_finalize(st);
	return rc;
}

void kab_db_ab_release(struct kab_db_ab *ab)
{
	free(ab->argv);
	free(ab->status);
	free(ab->merged_from);
	memset(ab, 0, sizeof(*ab));
}

int kab_db_ab_finish(struct kab_db *db, int64_t id, const char *status,
		     struct kab_err *err)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db->h, "UPDATE abs SET status = ? WHERE id = ?",
			       -1, &st, NULL))
		return db_fail(db, err, "finishing the A/B");
	sqlite3_bind_text(st, 1, status, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, id);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_fail(db, err, "finishing the A/B");
}

bool kab_db_ab_seq_done(struct kab_db *db, int64_t id, int seq)
{
	sqlite3_stmt *st;
	bool done;

	if (sqlite3_prepare_v2(db->h, "SELECT 1 FROM boots WHERE ab_id = ? "
			       "AND ab_seq = ? AND outcome != 'interrupted'",
			       -1, &st, NULL))
		return false;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int(st, 2, seq);
	done = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return done;
}

int64_t kab_db_ab_seq_run(struct kab_db *db, int64_t id, int seq)
{
	sqlite3_stmt *st;
	int64_t run = 0;

	if (sqlite3_prepare_v2(db->h, "SELECT run_id FROM boots WHERE ab_id = "
			       "? AND ab_seq = ? AND outcome = 'ok' AND run_id "
			       "IS NOT NULL ORDER BY id DESC LIMIT 1", -1, &st,
			       NULL))
		return 0;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int(st, 2, seq);
	if (sqlite3_step(st) == SQLITE_ROW)
		run = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return run;
}

int kab_db_ab_job_set(struct kab_db *db, int64_t id, int seq,
		      const char *server, long job, struct kab_err *err)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db->h, "INSERT OR REPLACE INTO ab_jobs (ab_id, "
			       "ab_seq, server, job) VALUES (?, ?, ?, ?)", -1,
			       &st, NULL))
		return db_fail(db, err, "storing the A/B's LAVA job");
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int(st, 2, seq);
	sqlite3_bind_text(st, 3, server, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, job);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 :
	       db_fail(db, err, "storing the A/B's LAVA job");
}

long kab_db_ab_job_get(struct kab_db *db, int64_t id, int seq,
		       const char *server)
{
	sqlite3_stmt *st;
	long job = 0;

	if (sqlite3_prepare_v2(db->h, "SELECT job FROM ab_jobs WHERE ab_id = ? "
			       "AND ab_seq = ? AND server = ?", -1, &st, NULL))
		return 0;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int(st, 2, seq);
	sqlite3_bind_text(st, 3, server, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		job = (long)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return job;
}

char *kab_db_ab_side_runs(struct kab_db *db, int64_t id, const char *label,
			  struct kab_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db->h, "SELECT DISTINCT b.run_id FROM boots b "
			       "JOIN runs r ON r.id = b.run_id WHERE "
			       "b.ab_id = ? AND b.kernel_label = ? AND "
			       "r.status = 'ok' ORDER BY b.run_id", -1, &st,
			       NULL)) {
		db_fail(db, err, "reading the A/B's runs");
		return NULL;
	}
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_text(st, 2, label, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW)
		strbuf_addf(&sb, "%s%lld", sb.len ? "," : "",
			    (long long)sqlite3_column_int64(st, 0));
	sqlite3_finalize(st);
	if (!sb.len) {
		kab_err_set(err, "A/B %lld has no complete run of %s",
			    (long long)id, label);
		return NULL;
	}
	return strbuf_detach(&sb);
}
