// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-import.c - libFuzzer: bytes as a file for kab import, into a
 * database in memory.  Every run stored must read back and pass the
 * rules (kab_run_check) it was stored by.
 */
#include "fuzz-db.h"

static int reread(void *ctx, const struct kab_run *r)
{
	struct kab_err err;

	if (kab_run_check(r, &err))
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct kab_db *db = fuzz_db();
	struct kab_err err;
	json_t *doc, *runs, *j;
	size_t i;

	doc = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES,
			 NULL);
	if (!doc)
		return 0;
	runs = json_object_get(doc, "runs");
	if (json_is_array(runs)) {
		json_array_foreach(runs, i, j) {
			bool skipped;

			if (kab_db_import_run(db, j, (int)i, &skipped, &err))
				break;
		}
		if (kab_db_runs_foreach(db, reread, NULL, &err))
			abort();
		fuzz_db_empty(db);
	}
	json_decref(doc);
	return 0;
}
