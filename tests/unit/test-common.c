// SPDX-License-Identifier: GPL-2.0
/*
 * test-common.c - the allocation and string helpers every library
 * leans on: an empty result is a result, not an out-of-memory death;
 * an error's prefix goes before its message.
 */
#include "test.h"

static void test_empty_strings(void **state)
{
	char *p;

	(void)state;
	/* vasprintf() returns 0 for "": a string, not a failure */
	p = xasprintf("%s", "");
	assert_string_equal(p, "");
	free(p);
	p = xasprintf("%s%.0s", "", "dropped");
	assert_string_equal(p, "");
	free(p);
	p = xasprintf("%d-%s", 7, "x");
	assert_string_equal(p, "7-x");
	free(p);
	p = xstrdup(NULL);
	assert_string_equal(p, "");
	free(p);
	p = xstrndup("abcdef", 3);
	assert_string_equal(p, "abc");
	free(p);
	p = xstrndup("ab", 10);
	assert_string_equal(p, "ab");
	free(p);
	/* zero bytes asked: a pointer that can be freed, never NULL */
	p = xmalloc(0);
	assert_non_null(p);
	free(p);
	p = xcalloc(0, 8);
	assert_non_null(p);
	free(p);
	p = xrealloc(NULL, 0);
	assert_non_null(p);
	free(p);
}

static void test_err_prefix(void **state)
{
	struct kab_err err;

	(void)state;
	assert_int_equal(kab_err_set(&err, "disk %s", "full"), -1);
	assert_string_equal(err.msg, "disk full");
	assert_int_equal(kab_err_prefix(&err, "storing run %d", 3), -1);
	assert_string_equal(err.msg, "storing run 3: disk full");
	assert_int_equal(kab_err_set(NULL, "nowhere"), -1);
}

static void test_strbuf(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char *s;
	int i;

	(void)state;
	strbuf_addf(&sb, "%s", "");
	assert_int_equal(sb.len, 0);
	for (i = 0; i < 1000; i++)
		strbuf_addf(&sb, "%03d", i);
	assert_int_equal(sb.len, 3000);
	assert_memory_equal(sb.buf + 2997, "999", 4);
	s = strbuf_detach(&sb);
	assert_int_equal(strlen(s), 3000);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_strings),
		cmocka_unit_test(test_err_prefix),
		cmocka_unit_test(test_strbuf),
	};

	return cmocka_run_group_tests_name("common", tests, NULL, NULL);
}
