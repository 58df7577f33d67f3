/* SPDX-License-Identifier: GPL-2.0 */
/*
 * internal.h - shared inside the db library only.
 */
#ifndef KAB_DB_INTERNAL_H
#define KAB_DB_INTERNAL_H

#include <sqlite3.h>

#include "db.h"

enum db_stmt_id {
	DB_KERNEL_INSERT,
	DB_RUN_INSERT,
	DB_RUN_FINISH,
	DB_RUN_EXISTS,
	DB_RUN_GET,
	DB_RUN_LIST,
	DB_SAMPLE_INSERT,
	DB_SAMPLE_LIST,
	DB_SAMPLE_METRICS,
	DB_BOOT_INSERT,
	DB_BOOT_CONSOLE,
	DB_STACK_INSERT,
	DB_NR_STMTS,
};

struct kab_db {
	sqlite3 *h;
	char *path;
	enum kab_db_mode mode;
	sqlite3_stmt *stmt[DB_NR_STMTS];
	/* kab_db_set_patience(): how a write waits for another's lock */
	double wait;
	const volatile int *stop;
	void (*note)(void *arg, const char *path, double waited);
	void *note_arg;
	double busy_since, noted;
};

int db_fail(struct kab_db *db, struct kab_err *err, const char *what);
int db_exec(struct kab_db *db, const char *sql, struct kab_err *err);
/* A cached prepared statement, reset and unbound. */
sqlite3_stmt *db_stmt(struct kab_db *db, enum db_stmt_id id, const char *sql,
		      struct kab_err *err);
/* Refuse a run holding more than KAB_RUN_METRICS_MAX distinct metrics. */
int db_check_run_metrics(struct kab_db *db, int64_t run_id, const char *what,
			 struct kab_err *err);
/* Mark runs whose kab process died as interrupted. */
int db_reap_stale_runs(struct kab_db *db, struct kab_err *err);

#endif /* KAB_DB_INTERNAL_H */
