// SPDX-License-Identifier: GPL-2.0
/*
 * bisects.c - a bisection: how it was asked (to resume it), its
 * endpoints' runs, every commit it tested with its verdict, and the
 * first bad commit.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int kab_db_bisect_create(struct kab_db *db, const char *argv_json,
			 const char *metric, const char *good, const char *bad,
			 int64_t *id, struct kab_err *err)
{
	sqlite3_stmt *st;
	char now[32];
	int rc;

	if (sqlite3_prepare_v2(db->h, "INSERT INTO bisects (argv, metric, "
			       "good, bad, created_at) VALUES (?, ?, ?, ?, ?)",
			       -1, &st, NULL))
		return db_fail(db, err, "storing the bisect");
	iso8601_utc(now_wall(), now, sizeof(now));
	sqlite3_bind_text(st, 1, argv_json, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, metric, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, good, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, bad, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, now, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(db, err, "storing the bisect");
	*id = sqlite3_last_insert_rowid(db->h);
	return 0;
}

int kab_db_bisect_set(struct kab_db *db, int64_t id, const char *column,
		      const char *value, struct kab_err *err)
{
	static const char *const ok[] = { "good_runs", "bad_runs",
					  "first_bad", "message",
					  "parent_runs", "culprit_runs",
					  "verified", NULL };
	sqlite3_stmt *st;
	char *sql;
	int i, rc;

	for (i = 0; ok[i] && strcmp(ok[i], column); i++)
		;
	if (!ok[i])
		return kab_err_set(err, "no bisect column %s", column);
	sql = xasprintf("UPDATE bisects SET %s = ? WHERE id = ?", ok[i]);
	rc = sqlite3_prepare_v2(db->h, sql, -1, &st, NULL);
	free(sql);
	if (rc)
		return db_fail(db, err, "updating the bisect");
	sqlite3_bind_text(st, 1, value, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, id);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_fail(db, err, "updating the bisect");
}

int kab_db_bisect_finish(struct kab_db *db, int64_t id, const char *status,
			 const char *first_bad, const char *message,
			 struct kab_err *err)
{
	sqlite3_stmt *st;
	char now[32];
	int rc;

	if (sqlite3_prepare_v2(db->h, "UPDATE bisects SET status = ?, "
			       "first_bad = ?, message = ?, ended_at = ? "
			       "WHERE id = ?", -1, &st, NULL))
		return db_fail(db, err, "finishing the bisect");
	iso8601_utc(now_wall(), now, sizeof(now));
	sqlite3_bind_text(st, 1, status, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, first_bad, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, message, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, now, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, id);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 :
	       db_fail(db, err, "finishing the bisect");
}

static char *col(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return s ? xstrdup((const char *)s) : NULL;
}

int kab_db_bisect_get(struct kab_db *db, int64_t id,
		      struct kab_bisect_row *out, struct kab_err *err)
{
	sqlite3_stmt *st;
	int rc;

	memset(out, 0, sizeof(*out));
	if (sqlite3_prepare_v2(db->h, "SELECT argv, metric, good, bad, "
			       "good_runs, bad_runs, status, first_bad, "
			       "message, created_at, ended_at, parent_runs, "
			       "culprit_runs, verified FROM bisects "
			       "WHERE id = ?", -1, &st, NULL))
		return db_fail(db, err, "reading the bisect");
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		out->id = id;
		out->argv = col(st, 0);
		out->metric = col(st, 1);
		out->good = col(st, 2);
		out->bad = col(st, 3);
		out->good_runs = col(st, 4);
		out->bad_runs = col(st, 5);
		out->status = col(st, 6);
		out->first_bad = col(st, 7);
		out->message = col(st, 8);
		out->created_at = col(st, 9);
		out->ended_at = col(st, 10);
		out->parent_runs = col(st, 11);
		out->culprit_runs = col(st, 12);
		out->verified = col(st, 13);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 0;
	if (rc == SQLITE_DONE)
		return kab_err_set(err, "no bisect %lld in %s: 'kab bisect "
				   "--list' lists them", (long long)id,
				   db->path);
	return db_fail(db, err, "reading the bisect");
}

void kab_bisect_row_free(struct kab_bisect_row *r)
{
	free(r->argv);
	free(r->metric);
	free(r->good);
	free(r->bad);
	free(r->good_runs);
	free(r->bad_runs);
	free(r->status);
	free(r->first_bad);
	free(r->message);
	free(r->created_at);
	free(r->ended_at);
	free(r->parent_runs);
	free(r->culprit_runs);
	free(r->verified);
	memset(r, 0, sizeof(*r));
}

static void bind_real(sqlite3_stmt *st, int i, double v)
{
	if (!isnan(v))
		sqlite3_bind_double(st, i, v);
}

int kab_db_bisect_step_add(struct kab_db *db, int64_t bisect_id,
			   const struct kab_bisect_step *s,
			   struct kab_err *err)
{
	sqlite3_stmt *st;
	char now[32];
	int rc;

	if (sqlite3_prepare_v2(db->h, "INSERT INTO bisect_steps (bisect_id, "
			       "commit_sha, subject, verdict, reason, n, "
			       "median, p_good, p_bad, runs, created_at) "
			       "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", -1,
			       &st, NULL))
		return db_fail(db, err, "storing the bisect step");
	iso8601_utc(now_wall(), now, sizeof(now));
	sqlite3_bind_int64(st, 1, bisect_id);
	sqlite3_bind_text(st, 2, s->commit, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, s->subject, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, s->verdict, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, s->reason, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 6, s->n);
	bind_real(st, 7, s->median);
	bind_real(st, 8, s->p_good);
	bind_real(st, 9, s->p_bad);
	sqlite3_bind_text(st, 10, s->runs, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 11, now, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 :
	       db_fail(db, err, "storing the bisect step");
}

static double real_or_nan(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN :
	       sqlite3_column_double(st, i);
}

int kab_db_bisect_steps(struct kab_db *db, int64_t bisect_id,
			kab_step_fn fn, void *ctx, struct kab_err *err)
{
	sqlite3_stmt *st;
	int rc, ret = 0;

	if (sqlite3_prepare_v2(db->h, "SELECT commit_sha, subject, verdict, "
			       "reason, n, median, p_good, p_bad, runs, "
			       "created_at FROM bisect_steps WHERE bisect_id "
			       "= ? ORDER BY id", -1, &st, NULL))
		return db_fail(db, err, "reading the bisect steps");
	sqlite3_bind_int64(st, 1, bisect_id);
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct kab_bisect_step s = {
			.commit = (const char *)sqlite3_column_text(st, 0),
			.subject = (const char *)sqlite3_column_text(st, 1),
			.verdict = (const char *)sqlite3_column_text(st, 2),
			.reason = (const char *)sqlite3_column_text(st, 3),
			.n = sqlite3_column_int(st, 4),
			.median = real_or_nan(st, 5),
			.p_good = real_or_nan(st, 6),
			.p_bad = real_or_nan(st, 7),
			.runs = (const char *)sqlite3_column_text(st, 8),
		};

		ret = fn(ctx, &s, (const char *)sqlite3_column_text(st, 9));
	}
	if (!ret && rc != SQLITE_DONE)
		ret = db_fail(db, err, "reading the bisect steps");
	sqlite3_finalize(st);
	return ret;
}

int64_t kab_db_bisect_find(struct kab_db *db, const char *commit)
{
	sqlite3_stmt *st;
	int64_t id = 0;

	if (sqlite3_prepare_v2(db->h, "SELECT id FROM bisects WHERE "
			       "first_bad = ? AND status = 'done' ORDER BY id "
			       "DESC LIMIT 1", -1, &st, NULL))
		return 0;
	sqlite3_bind_text(st, 1, commit, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return id;
}

int64_t kab_db_bisect_find_range(struct kab_db *db, const char *good,
				 const char *bad)
{
	sqlite3_stmt *st;
	int64_t id = 0;

	if (sqlite3_prepare_v2(db->h, "SELECT id FROM bisects WHERE good = ? "
			       "AND bad = ? ORDER BY id DESC LIMIT 1", -1, &st,
			       NULL))
		return 0;
	sqlite3_bind_text(st, 1, good, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, bad, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return id;
}
