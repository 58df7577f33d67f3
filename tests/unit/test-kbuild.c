// SPDX-License-Identifier: GPL-2.0
/*
 * test-kbuild.c - the parts of kab build that need no kernel tree: the
 * check of a final .config against what the fragments asked for, the
 * fingerprint of a plain tree, and kab's embedded fragments.
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"
#include "../../kbuild/kbuild.h"

static char dir[64];

static int setup(void **state)
{
	snprintf(dir, sizeof(dir), "/tmp/kab-kbuildtest.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char *cmd = xasprintf("rm -rf %s", dir);
	int rc = system(cmd);

	free(cmd);
	return rc;
}

static char *put(const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static void test_config_missing(void **state)
{
	char *config = put("config",
			   "CONFIG_A=y\n"
			   "CONFIG_B=m\n"
			   "# CONFIG_C is not set\n"
			   "CONFIG_E=\"x y\"\n"
			   "CONFIG_AB=y\n");
	char *f1 = put("f1", "# comment\n"
			     "CONFIG_A=y\n"
			     "CONFIG_B=y\n"
			     "CONFIG_C=y\n"
			     "# CONFIG_D is not set\n"
			     "CONFIG_E=\"x y\"\n"
			     "# CONFIG_A is not set\n");
	char *f2 = put("f2", "# CONFIG_C is not set\nCONFIG_A=y  \n"
			     "CONFIG_F=y\n");
	const char *frags[] = { f1, f2 };
	struct kab_err err;
	char *miss, *want;

	miss = kab_config_missing(config, frags, 2, &err);
	assert_non_null(miss);
	/* B asked as built in, is a module; F dropped; C and A overridden */
	want = xasprintf("CONFIG_B=y (from %s)\nCONFIG_F=y (from %s)\n", f1,
			 f2);
	assert_string_equal(miss, want);
	free(want);
	free(miss);
	/* f1 alone: its own "A is not set" wins over its "A=y" */
	miss = kab_config_missing(config, frags, 1, &err);
	assert_non_null(strstr(miss, "# CONFIG_A is not set (from"));
	assert_non_null(strstr(miss, "CONFIG_C=y (from"));
	assert_null(strstr(miss, "CONFIG_AB"));
	free(miss);
	/* a fragment that is not there is an error, not "all is well" */
	frags[1] = "/nonexistent/fragment";
	assert_null(kab_config_missing(config, frags, 2, &err));
	assert_non_null(strstr(err.msg, "/nonexistent/fragment"));
	free(config);
	free(f1);
	free(f2);
}

static void test_fingerprint(void **state)
{
	char *a, *b, *c, *mk;
	struct kab_err err;
	char *sub = xasprintf("%s/tree", dir), *git = xasprintf("%s/.git", sub);
	struct timespec t[2] = { { 1, 0 }, { 1, 0 } };

	mkdir(sub, 0755);
	mkdir(git, 0755);
	free(put("tree/Makefile", "all:\n"));
	free(git);
	a = kab_tree_fingerprint(sub, &err);
	assert_non_null(a);
	assert_int_equal(strncmp(a, "tree-", 5), 0);
	/* .git is not the source */
	free(put("tree/.git/HEAD", "ref: x\n"));
	b = kab_tree_fingerprint(sub, &err);
	assert_string_equal(a, b);
	/* a touched file is a different tree */
	mk = xasprintf("%s/Makefile", sub);
	utimensat(AT_FDCWD, mk, t, 0);
	free(mk);
	c = kab_tree_fingerprint(sub, &err);
	assert_string_not_equal(a, c);
	assert_false(kab_tree_is_git(sub));
	free(sub);
	free(a);
	free(b);
	free(c);
}

static void test_kab_fragments(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct kab_err err;
	char *paths[2];

	assert_int_equal(kab_kab_fragments(dir, paths, &err), 0);
	assert_int_equal(read_file(paths[0], &sb, &err), 0);
	assert_non_null(strstr(sb.buf, "CONFIG_SERIAL_8250_CONSOLE=y"));
	assert_non_null(strstr(sb.buf, "CONFIG_PVH=y"));
	strbuf_reset(&sb);
	assert_int_equal(read_file(paths[1], &sb, &err), 0);
	assert_non_null(strstr(sb.buf, "CONFIG_TRANSPARENT_HUGEPAGE=y"));
	strbuf_release(&sb);
	free(paths[0]);
	free(paths[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_missing),
		cmocka_unit_test(test_fingerprint),
		cmocka_unit_test(test_kab_fragments),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
