/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz-db.h - the harnesses' database in memory: made once, emptied
 * after each input.  Making one (its schema, its statements) cost most
 * of an input's time: the CSV harness ran 35 inputs a second with a
 * database each, ~1,000 with this one.
 */
#ifndef KAB_FUZZ_DB_H
#define KAB_FUZZ_DB_H

#include <sqlite3.h>
#include <stdlib.h>

#include "../../db/db.h"
#include "../../db/internal.h"

static inline struct kab_db *fuzz_db(void)
{
	static struct kab_db *db;
	struct kab_err err;

	if (!db && kab_db_open(":memory:", KAB_DB_WRITE, &db, &err))
		abort();
	return db;
}

/* Every row of every table gone, the schema and its rules kept. */
static inline void fuzz_db_empty(struct kab_db *db)
{
	static const char *const sql =
		"PRAGMA foreign_keys = OFF;"
		"DELETE FROM stacks; DELETE FROM samples; DELETE FROM boots;"
		"DELETE FROM bisect_steps; DELETE FROM bisects;"
		"DELETE FROM abs; DELETE FROM builds; DELETE FROM runs;"
		"DELETE FROM kernels;"
		"PRAGMA foreign_keys = ON;";

	if (sqlite3_exec(db->h, sql, NULL, NULL, NULL))
		abort();
}

#endif /* KAB_FUZZ_DB_H */
