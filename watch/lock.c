// SPDX-License-Identifier: GPL-2.0
/*
 * lock.c - one kab watch a database: a lock file beside it, held with
 * flock(2), which the kernel drops when the process ends (a kill -9, a
 * reboot), so a lock is never stale.  The database file itself is not
 * locked this way: closing a descriptor of it would drop SQLite's own
 * POSIX locks of this process.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "internal.h"

int kab_watch_lock(const char *db_path, struct kab_err *err)
{
	char *path = xasprintf("%s-watch.lock", db_path);
	int fd;

	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0) {
		kab_err_set(err, "%s: %s: kab watch keeps its lock beside "
			    "the database; give a --db in a directory you "
			    "can write", path, strerror(errno));
		free(path);
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno == EWOULDBLOCK)
			kab_err_set(err, "another kab watch is following "
				    "branches into %s (it holds %s): one "
				    "watch a database; stop it, or give this "
				    "one another --db", db_path, path);
		else
			kab_err_set(err, "%s: %s", path, strerror(errno));
		close(fd);
		free(path);
		return -1;
	}
	free(path);
	return fd;
}
