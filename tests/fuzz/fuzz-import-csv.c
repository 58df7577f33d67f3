// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-import-csv.c - libFuzzer: bytes as a CSV file for kab import
 * --format csv, into a database in memory.  A file refused stores
 * nothing; every run stored must read back and pass the rules
 * (kab_run_check) it was stored by; a message is one line.
 */
#include <string.h>

#include "fuzz-db.h"

static int reread(void *ctx, const struct kab_run *r)
{
	struct kab_err err;

	if (kab_run_check(r, &err))
		abort();
	(*(int *)ctx)++;
	return 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct kab_db *db = fuzz_db();
	struct kab_csv_job job = { 0 };
	struct kab_err err;
	int added = 0, skipped = 0, stored = 0, rc;

	rc = kab_db_import_csv(db, (const char *)data, size, "fuzz.csv", &job,
			       &added, &skipped, &err);
	if (rc && (strchr(err.msg, '\n') || !kab_text_ok(err.msg, 4096)))
		abort();
	if (kab_db_runs_foreach(db, reread, &stored, &err))
		abort();
	/* refused whole, or every run of it there */
	if ((rc > 0 && stored) || (!rc && stored != added))
		abort();
	fuzz_db_empty(db);
	return 0;
}
