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

int kab_db_stacks_store(struct kab_db *db, int64_t run_id, int iteration,
			const char *event, uint64_t total, size_t nr,
			const char *const *stack, const uint64_t *n,
			struct kab_err *err)
{
	sqlite3_stmt *st;
	size_t i;

	if (kab_db_begin(db, err))
		return -1;
	if (sqlite3_prepare_v2(db->h, "INSERT INTO stacks (run_id, "
			       "iteration, event, stack, samples, total) "
			       "VALUES (?, ?, ?, ?, ?, ?)", -1, &st, NULL)) {
		kab_db_rollback(db);
		return db_fail(db, err, "storing the profile's stacks");
	}
	for (i = 0; i < nr; i++) {
		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_int(st, 2, iteration);
		sqlite3_bind_text(st, 3, event, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, stack[i], -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 5, (sqlite3_int64)n[i]);
		sqlite3_bind_int64(st, 6, (sqlite3_int64)total);
		if (sqlite3_step(st) != SQLITE_DONE) {
			sqlite3_finalize(st);
			kab_db_rollback(db);
			return db_fail(db, err, "storing the profile's stacks");
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return kab_db_commit(db, err);
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
