// SPDX-License-Identifier: GPL-2.0
/*
 * stacks.c - the perf-profile monitor's folded call stacks, an
 * iteration's at a time, for the report's flame graphs: each stack
 * ("root;caller;leaf") and how many of the iteration's samples ended
 * in it, beside the iteration's samples in all (the shares'
 * denominator: stacks under 0.05% are not kept).
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int kab_db_stack_add(struct kab_db *db, int64_t run_id, int iteration,
		     const char *event, const char *stack, uint64_t n,
		     uint64_t total, struct kab_err *err)
{
	sqlite3_stmt *st;

	st = db_stmt(db, DB_STACK_INSERT, "INSERT INTO stacks (run_id, "
		     "iteration, event, stack, samples, total) "
		     "VALUES (?, ?, ?, ?, ?, ?)", err);
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_int(st, 2, iteration);
	sqlite3_bind_text(st, 3, event, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, stack, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, (sqlite3_int64)n);
	sqlite3_bind_int64(st, 6, (sqlite3_int64)total);
	if (sqlite3_step(st) != SQLITE_DONE)
		return db_fail(db, err, "storing the profile's stacks");
	sqlite3_reset(st);
	return 0;
}

int kab_db_stacks_store(struct kab_db *db, int64_t run_id, int iteration,
			const char *event, uint64_t total, size_t nr,
			const char *const *stack, const uint64_t *n,
			struct kab_err *err)
{
	size_t i;

	if (kab_db_begin(db, err))
		return -1;
	for (i = 0; i < nr; i++) {
		if (kab_db_stack_add(db, run_id, iteration, event, stack[i],
				     n[i], total, err)) {
			kab_db_rollback(db);
			return -1;
		}
	}
	return kab_db_commit(db, err);
}

int kab_db_run_stacks_foreach(struct kab_db *db, int64_t run_id,
			      kab_run_stack_fn fn, void *ctx,
			      struct kab_err *err)
{
	sqlite3_stmt *st;
	int rc, ret = 0;

	if (sqlite3_prepare_v2(db->h, "SELECT iteration, event, stack, "
			       "samples, total FROM stacks WHERE run_id = ? "
			       "ORDER BY iteration, samples DESC, stack", -1,
			       &st, NULL))
		return db_fail(db, err, "reading the profile's stacks");
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		ret = fn(ctx, sqlite3_column_int(st, 0),
			 (const char *)sqlite3_column_text(st, 1),
			 (const char *)sqlite3_column_text(st, 2),
			 (uint64_t)sqlite3_column_int64(st, 3),
			 (uint64_t)sqlite3_column_int64(st, 4));
		if (ret)
			break;
	}
	sqlite3_finalize(st);
	if (!ret && rc != SQLITE_DONE)
		return db_fail(db, err, "reading the profile's stacks");
	return ret;
}

int kab_db_stacks_foreach(struct kab_db *db, const int64_t *runs,
			  size_t nr_runs, kab_stack_fn fn, void *ctx,
			  struct kab_err *err)
{
	sqlite3_stmt *st;
	size_t i;
	int rc = SQLITE_DONE, ret = 0;

	/* summed over the runs' iterations, the biggest first */
	if (sqlite3_prepare_v2(db->h, "SELECT event, stack, sum(samples) "
			       "FROM stacks WHERE run_id = ? GROUP BY event, "
			       "stack ORDER BY 3 DESC, 2", -1, &st, NULL))
		return db_fail(db, err, "reading the profile's stacks");
	for (i = 0; i < nr_runs && !ret; i++) {
		sqlite3_bind_int64(st, 1, runs[i]);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			ret = fn(ctx, runs[i],
				 (const char *)sqlite3_column_text(st, 0),
				 (const char *)sqlite3_column_text(st, 1),
				 (uint64_t)sqlite3_column_int64(st, 2));
			if (ret)
				break;
		}
		sqlite3_reset(st);
		if (!ret && rc != SQLITE_DONE)
			break;
	}
	sqlite3_finalize(st);
	if (!ret && rc != SQLITE_DONE)
		return db_fail(db, err, "reading the profile's stacks");
	return ret;
}

int kab_db_stacks_total(struct kab_db *db, int64_t run_id, uint64_t *total,
			struct kab_err *err)
{
	sqlite3_stmt *st;
	int rc;

	*total = 0;
	if (sqlite3_prepare_v2(db->h, "SELECT sum(total) FROM (SELECT "
			       "DISTINCT iteration, total FROM stacks WHERE "
			       "run_id = ?)", -1, &st, NULL))
		return db_fail(db, err, "reading the profile's stacks");
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*total = (uint64_t)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return db_fail(db, err, "reading the profile's stacks");
	return 0;
}
