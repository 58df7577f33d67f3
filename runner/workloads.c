// SPDX-License-Identifier: GPL-2.0
/*
 * workloads.c - the table of workloads.  Adding a workload is one file
 * and one line here; nothing else in kab names a workload.
 */
#include <string.h>

#include "runner.h"

extern const struct kab_workload kab_workload_malloc1;
extern const struct kab_workload kab_workload_radixsort;

const struct kab_workload *const kab_workloads[] = {
	&kab_workload_malloc1,
	&kab_workload_radixsort,
	NULL,
};

const struct kab_workload *kab_workload_find(const char *suite,
					     const char *test)
{
	int i;

	for (i = 0; kab_workloads[i]; i++)
		if (!strcmp(kab_workloads[i]->suite, suite) &&
		    !strcmp(kab_workloads[i]->test, test))
			return kab_workloads[i];
	return NULL;
}
