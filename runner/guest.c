// SPDX-License-Identifier: GPL-2.0
/*
 * guest.c - what the agent does when it is a guest's /init: mount what
 * a job needs, and power the machine off at the end.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runner.h"

static int mnt(const char *src, const char *dst, const char *type,
	       struct kab_err *err)
{
	mkdir(dst, 0755);
	if (mount(src, dst, type, 0, NULL) && errno != EBUSY)
		return kab_err_set(err, "cannot mount %s on %s: %s", type, dst,
				   strerror(errno));
	return 0;
}

int kab_guest_setup(struct kab_err *err)
{
	if (mnt("proc", "/proc", "proc", err) ||
	    mnt("sysfs", "/sys", "sysfs", err) ||
	    mnt("devtmpfs", "/dev", "devtmpfs", err) ||
	    mnt("tmpfs", "/tmp", "tmpfs", err))
		return -1;
	setenv("PATH", "/usr/bin:/bin:/usr/sbin:/sbin", 1);
	return 0;
}

void kab_guest_poweroff(void)
{
	sync();
	reboot(RB_POWER_OFF);
	/* Still here: let the kernel panic, which -no-reboot turns into
	 * QEMU's exit. */
	_exit(0);
}
