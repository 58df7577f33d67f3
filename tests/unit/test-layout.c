// SPDX-License-Identifier: GPL-2.0
/*
 * test-layout.c - exact mode's layout seeds: one seed is one layout, the
 * seeds spread the layouts over their ranges, and the agent makes them.
 */
#include <errno.h>

#include "test.h"
#include "../../runner/runner.h"

#define SEEDS 1000

static void test_layout_repeats_and_spreads(void **state)
{
	struct kab_layout a, b;
	size_t i, env_lo = 0, env_hi = 0, gap_hi = 0, differ = 0;
	size_t cmdlen = 0;

	for (i = 1; i <= SEEDS; i++) {
		char *c1, *c2;

		kab_layout_of(i, &a);
		kab_layout_of(i, &b);
		assert_memory_equal(&a, &b, sizeof(a));
		assert_true(a.env < 4096);
		assert_true(a.stack < 4096 && a.stack % 16 == 0);
		assert_true(a.heap < 65536 && a.heap % 16 == 0);
		assert_true(a.gap < (2UL << 30) && a.gap % 4096 == 0);
		env_lo += a.env < 1024;
		env_hi += a.env >= 3072;
		gap_hi += a.gap >= (1UL << 30);
		if (i > 1) {
			kab_layout_of(i - 1, &b);
			differ += a.gap != b.gap && a.env != b.env &&
				  a.kernel != b.kernel;
		}
		/* a seed is as long on the command line as any other */
		c1 = kab_layout_cmdline(i);
		c2 = kab_layout_cmdline(i);
		assert_string_equal(c1, c2);
		assert_true(!strncmp(c1, "norandmaps kab.seed=", 20));
		assert_non_null(strstr(c1, " page_alloc.shuffle=1"));
		if (!cmdlen)
			cmdlen = strlen(c1);
		assert_int_equal(strlen(c1), cmdlen);
		free(c1);
		free(c2);
	}
	/* each range is used, about evenly: a quarter +- a lot */
	assert_true(env_lo > SEEDS / 8 && env_hi > SEEDS / 8);
	assert_true(gap_hi > SEEDS / 4 && gap_hi < 3 * SEEDS / 4);
	assert_true(differ > SEEDS - 10);
}

static void test_layout_seed_parse(void **state)
{
	static const char *const bad[] = { "0", "", "-1", "12x", " 3", "x",
					   "4294967296", "99999999999999999999",
					   "0x10" };
	unsigned long long s;
	struct kab_err err;
	size_t i;

	/* an errno left from before is not the parse's */
	errno = ERANGE;
	assert_int_equal(kab_layout_seed_parse("1", &s, &err), 0);
	assert_int_equal(s, 1);
	assert_int_equal(kab_layout_seed_parse("4294967295", &s, &err), 0);
	assert_int_equal(s, 4294967295ULL);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		assert_int_equal(kab_layout_seed_parse(bad[i], &s, &err), -1);
		assert_non_null(strstr(err.msg, "give a whole number from 1 "
					  "to 4294967295"));
	}
	assert_true(kab_layout_seed_ok(1));
	assert_false(kab_layout_seed_ok(0));
	assert_false(kab_layout_seed_ok(KAB_LAYOUT_SEED_MAX + 1));
}

/*
 * A seed names the same layout in every kab: runs stored at seed N are
 * compared with runs measured later at seed N, so the mapping from a
 * seed to its layout is pinned here, not only its ranges.
 */
static void test_layout_pinned(void **state)
{
	static const struct {
		unsigned long long seed;
		struct kab_layout l;
	} c[] = {
		{ 1, { 0xe9fd6049d65af21eULL, 1643, 48, 54832, 114126848 } },
		{ 4, { 0xb9b9dc59300f9a27ULL, 695, 608, 55232, 1954447360 } },
		{ 4294967295ULL, { 0x3336fa288cd353a9ULL, 3399, 3920, 59200,
				   1211916288 } },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		struct kab_layout l;

		kab_layout_of(c[i].seed, &l);
		assert_true(l.kernel == c[i].l.kernel);
		assert_int_equal(l.env, c[i].l.env);
		assert_int_equal(l.stack, c[i].l.stack);
		assert_int_equal(l.heap, c[i].l.heap);
		assert_int_equal(l.gap, c[i].l.gap);
	}
}

/* The agent's part: the environment's pad, and the gap it reserves. */
static void test_layout_apply(void **state)
{
	struct kab_layout l;
	unsigned long long seed;
	struct strbuf maps = STRBUF_INIT;
	struct kab_err err;
	char want[64];
	void *heap;

	for (seed = 1; ; seed++) {
		kab_layout_of(seed, &l);
		if (l.gap && l.env)
			break;
	}
	/* a pad the environment brought (an agent started by an agent) */
	setenv("KAB_LAYOUT", "x", 1);
	heap = kab_layout_apply(&l);
	assert_non_null(heap);
	assert_int_equal(strlen(getenv("KAB_LAYOUT")), l.env);
	assert_int_equal(read_file("/proc/self/maps", &maps, &err), 0);
	/* a reserved range of exactly the gap's size, never touched */
	{
		char *line = maps.buf;
		bool found = false;

		while (line && *line) {
			unsigned long lo, hi;
			char perms[8];

			if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3 &&
			    hi - lo == l.gap && !strcmp(perms, "---p"))
				found = true;
			line = strchr(line, '\n');
			line = line ? line + 1 : NULL;
		}
		snprintf(want, sizeof(want), "a ---p mapping of %zu bytes",
			 l.gap);
		if (!found)
			fail_msg("no %s in /proc/self/maps", want);
	}
	strbuf_release(&maps);
	free(heap);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_repeats_and_spreads),
		cmocka_unit_test(test_layout_seed_parse),
		cmocka_unit_test(test_layout_pinned),
		cmocka_unit_test(test_layout_apply),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
