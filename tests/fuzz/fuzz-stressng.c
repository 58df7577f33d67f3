// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-stressng.c - libFuzzer: bytes as stress-ng's --yaml output, which
 * the agent reads inside the guest.
 */
#include "../../runner/runner.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct kab_stressng_result res;
	struct kab_err err;

	kab_stressng_parse_yaml((const char *)data, size, "radixsort", &res,
				&err);
	return 0;
}
