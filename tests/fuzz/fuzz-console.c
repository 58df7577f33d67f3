// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-console.c - libFuzzer: bytes as a guest's serial console, which
 * kab reads after every boot to name what went wrong (a panic, an
 * oops, a stall the host caused).  What it names is stored and printed:
 * it must be one line of printable ASCII from the console.
 */
#include <stdlib.h>
#include <string.h>

#include "../../runner/runner.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	const char *log = (const char *)data;
	char *problem = kab_console_problem(log, size);
	const char *p;

	if (problem) {
		if (strlen(problem) > size)
			abort();
		for (p = problem; *p; p++)
			if (*p < ' ' || *p > '~')
				abort();
		free(problem);
	}
	kab_console_stalled(log, size);
	return 0;
}
