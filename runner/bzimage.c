// SPDX-License-Identifier: GPL-2.0
/*
 * bzimage.c - what an x86 kernel image says of itself: the version
 * string its boot header points at (Documentation/arch/x86/boot.rst,
 * kernel_version), which is what uname -r and uname -v print once it
 * runs: "RELEASE (BUILDER@HOST) #N SMP ...".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/* A utsname field holds 64 characters. */
#define UTS_LEN 64

static bool printable(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
			return false;
	return true;
}

int kab_kernel_version(const char *path, char **release, char **version,
		       struct kab_err *err)
{
	unsigned char ptr[2];
	char buf[256], *sp, *v;
	int fd;
	ssize_t n;
	size_t rlen;

	*release = *version = NULL;
	if (kab_kernel_check(path, err))
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return kab_err_set(err, "kernel %s: %s", path, strerror(errno));
	n = pread(fd, ptr, sizeof(ptr), 0x20e);
	if (n == (ssize_t)sizeof(ptr) && (ptr[0] | ptr[1]))
		n = pread(fd, buf, sizeof(buf) - 1,
			  0x200 + (off_t)(ptr[0] | ptr[1] << 8));
	else
		n = -1;
	close(fd);
	if (n <= 0)
		return kab_err_set(err, "kernel %s has no version string in "
				   "its boot header: give an image built "
				   "by the kernel's own make", path);
	buf[n] = '\0';
	rlen = strcspn(buf, " ");
	if (!rlen || rlen > UTS_LEN || !printable(buf, rlen))
		return kab_err_set(err, "kernel %s: its boot header's version "
				   "string is not a kernel release", path);
	*release = xstrndup(buf, rlen);
	/* "(builder@host) #N ...": uname -v is from the '#' on */
	sp = strstr(buf + rlen, ") #");
	if (sp) {
		v = sp + 2;
		if (strlen(v) <= UTS_LEN && printable(v, strlen(v)))
			*version = xstrdup(v);
	}
	return 0;
}
