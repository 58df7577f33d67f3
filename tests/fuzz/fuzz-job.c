// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-job.c - libFuzzer: bytes as a job file (YAML).  A job that
 * parses must be one the database would store.
 */
#include <stdlib.h>

#include "../../runner/runner.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct kab_joblist list = { 0 };
	struct kab_err err;
	int i, k;

	if (kab_job_parse((const char *)data, size, "fuzz", NULL, 0, &list,
			  &err))
		return 0;
	/* the note goes to a terminal: one line of text */
	if (list.note && !kab_text_ok(list.note, 1 << 20))
		abort();
	for (i = 0; i < list.nr; i++)
		for (k = 0; k < list.jobs[i].nr_params; k++)
			if (!kab_text_ok(list.jobs[i].params[k].value, 256))
				abort();
	kab_joblist_free(&list);
	return 0;
}
