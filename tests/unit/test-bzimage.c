// SPDX-License-Identifier: GPL-2.0
/*
 * test-bzimage.c - what a kernel image says of itself (its boot
 * header's version string): the release and version a test box must
 * report once it runs the image, and images that say neither.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "../../runner/runner.h"

/* Write at path a boot header whose version string is s, at offset off. */
static const char *image(const char *path, const char *s, unsigned off,
			 bool magic)
{
	char buf[4096] = { 0 };
	int fd = open(path, O_WRONLY | O_TRUNC);

	assert_true(fd >= 0);
	if (magic)
		memcpy(buf + 0x202, "HdrS", 4);
	buf[0x20e] = (char)(off & 0xff);
	buf[0x20f] = (char)(off >> 8);
	if (s && off)
		memcpy(buf + 0x200 + off, s, strlen(s) + 1);
	assert_int_equal(write(fd, buf, sizeof(buf)), sizeof(buf));
	close(fd);
	return path;
}

static void test_kernel_version(void **state)
{
	char path[] = "/tmp/kab-bzimage-XXXXXX", *rel, *ver;
	const char *p;
	struct kab_err err;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);

	p = image(path, "6.1.0-57-amd64 (debian-kernel@lists.debian.org) #1 SMP "
		  "PREEMPT_DYNAMIC Debian 6.1.192-3 (2026-11-26)", 0x600, true);
	assert_int_equal(kab_kernel_version(p, &rel, &ver, &err), 0);
	assert_string_equal(rel, "6.1.0-57-amd64");
	assert_string_equal(ver, "#1 SMP PREEMPT_DYNAMIC Debian 6.1.192-3 "
			    "(2026-11-26)");
	free(rel);
	free(ver);

	/* no builder's part: the release alone is checked */
	p = image(path, "6.1.192+", 0x800, true);
	assert_int_equal(kab_kernel_version(p, &rel, &ver, &err), 0);
	assert_string_equal(rel, "6.1.192+");
	assert_null(ver);
	free(rel);

	/* the release is a utsname's: 64 characters at most */
	{
		char longrel[80];

		memset(longrel, 'x', 65);
		longrel[65] = '\0';
		p = image(path, longrel, 0x800, true);
		assert_int_equal(kab_kernel_version(p, &rel, &ver, &err), -1);
		assert_non_null(strstr(err.msg, "not a kernel release"));
			longrel[64] = '\0';
		p = image(path, longrel, 0x800, true);
		assert_int_equal(kab_kernel_version(p, &rel, &ver, &err), 0);
		assert_int_equal(strlen(rel), 64);
		free(rel);
		}

	/* a terminal escape is no release */
	p = image(path, "6.1\033]0;x\a (a@b) #1", 0x800, true);
	assert_int_equal(kab_kernel_version(p, &rel, &ver, &err), -1);
	assert_null(rel);

	/* no pointer, or no bzImage at all */
	p = image(path, "6.1.0", 0, true);
	assert_int_equal(kab_kernel_version(p, &rel, &ver, &err), -1);
	assert_non_null(strstr(err.msg, "no version string"));
	p = image(path, "6.1.0", 0x800, false);
	assert_int_equal(kab_kernel_version(p, &rel, &ver, &err), -1);
	assert_non_null(strstr(err.msg, "not a bzImage"));
	/* a pointer past the end of the file */
	p = image(path, NULL, 0xf000, true);
	assert_int_equal(kab_kernel_version(p, &rel, &ver, &err), -1);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_version),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
