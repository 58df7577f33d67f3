// SPDX-License-Identifier: GPL-2.0
/*
 * edit.c - runs removed or given another kernel label (kab rm, kab
 * relabel), each a whole transaction: a failure or a crash half-way
 * leaves the database as it was.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static int prepare(struct kab_db *db, const char *sql, sqlite3_stmt **st,
		   struct kab_err *err)
{
	if (sqlite3_prepare_v2(db->h, sql, -1, st, NULL))
		return db_fail(db, err, "preparing a statement");
	return 0;
}

/* Run sql once for each id (bound to ?1), after bind of ?2 (text). */
static int each_id(struct kab_db *db, const char *sql, const int64_t *ids,
		   size_t n, const char *text, struct kab_err *err)
{
	sqlite3_stmt *st;
	size_t i;
	int rc = 0;

	if (prepare(db, sql, &st, err))
		return -1;
	for (i = 0; i < n && !rc; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, ids[i]);
		if (text)
			sqlite3_bind_text(st, 2, text, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = db_fail(db, err, "changing a run");
	}
	sqlite3_finalize(st);
	return rc;
}

/* Every id is a run, none still running under a live kab. */
static int check_runs(struct kab_db *db, const int64_t *ids, size_t n,
		      struct kab_err *err)
{
	sqlite3_stmt *st;
	size_t i;
	int rc = 0;

	if (prepare(db, "SELECT status FROM runs WHERE id = ?", &st, err))
		return -1;
	for (i = 0; i < n && !rc; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, ids[i]);
		if (sqlite3_step(st) != SQLITE_ROW)
			rc = kab_err_set(err, "run %lld is not there: 'kab ls' "
					 "lists the runs", (long long)ids[i]);
		else if (!strcmp((const char *)sqlite3_column_text(st, 0),
				 "running"))
			rc = kab_err_set(err, "run %lld is still running: let "
					 "it end or stop it first",
					 (long long)ids[i]);
	}
	sqlite3_finalize(st);
	return rc;
}

/* Kernels no run is of any more. */
static int drop_orphan_kernels(struct kab_db *db, struct kab_err *err)
{
	return db_exec(db, "DELETE FROM kernels WHERE id NOT IN "
		       "(SELECT kernel_id FROM runs)", err);
}

int kab_db_label_runs(struct kab_db *db, const char *label, int64_t **ids,
		      size_t *n, struct kab_err *err)
{
	sqlite3_stmt *st;
	int rc;

	*ids = NULL;
	*n = 0;
	if (prepare(db, "SELECT r.id FROM runs r JOIN kernels k ON k.id = "
		    "r.kernel_id WHERE k.label = ? ORDER BY r.id", &st, err))
		return -1;
	sqlite3_bind_text(st, 1, label, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*ids = xrealloc(*ids, (*n + 1) * sizeof(**ids));
		(*ids)[(*n)++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(*ids);
		*ids = NULL;
		*n = 0;
		return db_fail(db, err, "listing a label's runs");
	}
	return 0;
}

int kab_db_runs_delete(struct kab_db *db, const int64_t *ids, size_t n,
		       struct kab_err *err)
{
	if (kab_db_begin(db, err))
		return -1;
	/* samples and stacks go with their run (ON DELETE CASCADE) */
	if (check_runs(db, ids, n, err) ||
	    each_id(db, "DELETE FROM boots WHERE run_id = ?1", ids, n, NULL,
		    err) ||
	    each_id(db, "DELETE FROM runs WHERE id = ?1", ids, n, NULL,
		    err) ||
	    drop_orphan_kernels(db, err) || kab_db_commit(db, err)) {
		kab_db_rollback(db);
		return -1;
	}
	return 0;
}

int kab_db_runs_relabel(struct kab_db *db, const int64_t *ids, size_t n,
			const char *label, struct kab_err *err)
{
	if (kab_db_begin(db, err))
		return -1;
	/*
	 * The run's kernel as it was (release, command line, image,
	 * commit) under the new label: a kernel row of its own, or the
	 * one already there.
	 */
	if (check_runs(db, ids, n, err) ||
	    each_id(db, "INSERT INTO kernels (label, release, cmdline, "
		    "image_path, image_sha256, commit_sha) SELECT ?2, "
		    "k.release, k.cmdline, k.image_path, k.image_sha256, "
		    "k.commit_sha FROM runs r JOIN kernels k ON k.id = "
		    "r.kernel_id WHERE r.id = ?1 ON CONFLICT (label, release, "
		    "cmdline, image_sha256) DO NOTHING", ids, n, label, err) ||
	    each_id(db, "UPDATE runs SET kernel_id = (SELECT n.id FROM "
		    "kernels n, kernels k WHERE k.id = runs.kernel_id AND "
		    "n.label = ?2 AND n.release = k.release AND n.cmdline = "
		    "k.cmdline AND n.image_sha256 = k.image_sha256) WHERE id = "
		    "?1", ids, n, label, err) ||
	    each_id(db, "UPDATE boots SET kernel_label = ?2 WHERE run_id = "
		    "?1", ids, n, label, err) ||
	    drop_orphan_kernels(db, err) || kab_db_commit(db, err)) {
		kab_db_rollback(db);
		return -1;
	}
	return 0;
}
