// SPDX-License-Identifier: GPL-2.0
/*
 * samples.c - one row per (run, iteration, metric).
 */
#include "internal.h"

int db_check_run_metrics(struct kab_db *db, int64_t run_id, const char *what,
			 struct kab_err *err)
{
	sqlite3_stmt *st;
	int64_t n;

	st = db_stmt(db, DB_SAMPLE_METRICS, "SELECT count(DISTINCT metric) "
		     "FROM samples WHERE run_id = ?", err);
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	if (sqlite3_step(st) != SQLITE_ROW)
		return db_fail(db, err, "counting a run's metrics");
	n = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	if (n > KAB_RUN_METRICS_MAX)
		return kab_err_set(err, "%s has %lld distinct metrics, more "
				   "than a run may hold (%d): it is broken or "
				   "not kab's; nothing of it was stored", what,
				   (long long)n, KAB_RUN_METRICS_MAX);
	return 0;
}

int kab_db_sample_add(struct kab_db *db, int64_t run_id, int iteration,
		      const char *metric, double value, struct kab_err *err)
{
	sqlite3_stmt *st;

	st = db_stmt(db, DB_SAMPLE_INSERT, "INSERT INTO samples (run_id, "
		     "iteration, metric, value) VALUES (?, ?, ?, ?)", err);
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_int(st, 2, iteration);
	sqlite3_bind_text(st, 3, metric, -1, SQLITE_STATIC);
	sqlite3_bind_double(st, 4, value);
	if (sqlite3_step(st) != SQLITE_DONE)
		return db_fail(db, err, "storing a sample");
	return 0;
}

int kab_db_iteration_store(struct kab_db *db, int64_t run_id, int iteration,
			   const char *const *metrics, const double *values,
			   int n, struct kab_err *err)
{
	int i;

	if (kab_db_begin(db, err))
		return -1;
	for (i = 0; i < n; i++) {
		if (kab_db_sample_add(db, run_id, iteration, metrics[i],
				      values[i], err)) {
			kab_db_rollback(db);
			return -1;
		}
	}
	return kab_db_commit(db, err);
}

int kab_db_samples_foreach(struct kab_db *db, int64_t run_id,
			   kab_sample_fn fn, void *ctx, struct kab_err *err)
{
	sqlite3_stmt *st;
	int rc, ret = 0;

	st = db_stmt(db, DB_SAMPLE_LIST, "SELECT iteration, metric, value "
		     "FROM samples WHERE run_id = ? ORDER BY iteration, metric",
		     err);
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		ret = fn(ctx, sqlite3_column_int(st, 0),
			 (const char *)sqlite3_column_text(st, 1),
			 sqlite3_column_double(st, 2));
		if (ret)
			break;
	}
	sqlite3_reset(st);
	if (!ret && rc != SQLITE_DONE)
		return db_fail(db, err, "reading the samples");
	return ret;
}

int kab_db_run_mean(struct kab_db *db, int64_t run_id, const char *metric,
		    double *mean)
{
	sqlite3_stmt *st;
	int rc = 1;

	if (sqlite3_prepare_v2(db->h, "SELECT AVG(value), COUNT(*) FROM "
			       "samples WHERE run_id = ? AND metric = ?", -1,
			       &st, NULL))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, metric, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 1) > 0) {
		*mean = sqlite3_column_double(st, 0);
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}
