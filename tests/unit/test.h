/* SPDX-License-Identifier: GPL-2.0 */
/* test.h - what every cmocka test of kab includes. */
#ifndef KAB_TEST_H
#define KAB_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../common/common.h"

/* A fixture file's text; the test fails if it cannot be read. */
static inline char *fixture(const char *name, size_t *len)
{
	const char *dir = getenv("KAB_FIXTURES");
	struct strbuf sb = STRBUF_INIT;
	struct kab_err err;
	char *path = xasprintf("%s/%s", dir ? dir : "tests/fixtures", name);

	if (read_file(path, &sb, &err))
		fail_msg("%s", err.msg);
	free(path);
	if (len)
		*len = sb.len;
	return strbuf_detach(&sb);
}

#endif /* KAB_TEST_H */
