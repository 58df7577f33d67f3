// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-lkp-result.c - libFuzzer: bytes as lkp's result root of a run,
 * job.yaml then a NUL then stats.json, through kab import --lkp's
 * reader and lkp's unite into a database in memory.  A run it makes
 * (an incomplete one failed) must be stored whole, read back and pass the rules (kab_run_check) it was stored by;
 * a message is one line of text.
 */
#include <stdlib.h>
#include <string.h>

#include "../../runner/runner.h"
#include "../../db/db.h"
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
	const unsigned char *nul = memchr(data, '\0', size);
	struct strbuf job = STRBUF_INIT, stats = STRBUF_INIT;
	struct kab_db *db;
	struct kab_err err;
	json_t *run;
	bool skipped;

	strbuf_add(&job, data, nul ? (size_t)(nul - data) : size);
	if (nul)
		strbuf_add(&stats, nul + 1, size - (nul + 1 - data));
	run = kab_lkp_result_parse("fuzz", &job, &stats, 0, &err);
	if (!run && (strchr(err.msg, '\n') || !kab_text_ok(err.msg, 4096)))
		abort();
	if (run) {
		struct kab_lkp_unite u = { 0 };

		kab_lkp_unite(&run, 1, &u);
		json_decref(u.zero);
		json_decref(u.function_stats);
		db = fuzz_db();
		/* what the reader made, the store takes */
		if (kab_db_import_run(db, run, 0, &skipped, &err) ||
		    kab_db_runs_foreach(db, reread, NULL, &err))
			abort();
		fuzz_db_empty(db);
	}
	json_decref(run);
	strbuf_release(&job);
	strbuf_release(&stats);
	return 0;
}
