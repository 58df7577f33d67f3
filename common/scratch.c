// SPDX-License-Identifier: GPL-2.0
/*
 * scratch.c - kab's temporary files and directories: in $TMPDIR (else
 * /tmp), named PREFIX.PID.XXXXXX, so that the ones a killed kab left
 * (kill -9 runs no cleanup) are known and removed by the next kab that
 * makes one of the same kind.
 */
#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"

const char *scratch_dir(void)
{
	const char *env = getenv("TMPDIR");

	return env && *env ? env : "/tmp";
}

char *scratch_template(const char *prefix)
{
	return xasprintf("%s/%s.%ld.XXXXXX", scratch_dir(), prefix,
			 (long)getpid());
}

/* rm -r path, not following symbolic links; errors ignored */
static void remove_tree(int dirfd, const char *name)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	int fd;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return;
	if (!S_ISDIR(st.st_mode)) {
		unlinkat(dirfd, name, 0);
		return;
	}
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
	if (fd < 0)
		return;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			remove_tree(fd, e->d_name);
	closedir(d);
	unlinkat(dirfd, name, AT_REMOVEDIR);
}

/*
 * The pid in "PREFIX.PID.XXXXXX", or 0 when name is not such a name.
 */
static long owner_pid(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	char *end;
	long pid;

	if (strncmp(name, prefix, n) || name[n] != '.')
		return 0;
	errno = 0;
	pid = strtol(name + n + 1, &end, 10);
	/* SQLite's -wal, -shm and -journal beside a database count too */
	if (errno || end == name + n + 1 || *end != '.' || pid <= 0 ||
	    strlen(end + 1) < 6)
		return 0;
	return pid;
}

size_t scratch_sweep(const char *prefix)
{
	DIR *d = opendir(scratch_dir());
	struct dirent *e;
	struct stat st;
	size_t n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		long pid = owner_pid(e->d_name, prefix);

		/* this user's, of a process that is gone */
		if (!pid || pid == (long)getpid() ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    st.st_uid != geteuid() ||
		    !(kill((pid_t)pid, 0) && errno == ESRCH))
			continue;
		remove_tree(dirfd(d), e->d_name);
		n++;
	}
	closedir(d);
	return n;
}

/*
 * A scratch database removed at SIGINT or SIGTERM (whose default would
 * leave it): the file and SQLite's files beside it, then the signal's
 * default.  Only while the signal's action is the default one.
 */
static char *doomed[4];

static void remove_doomed(int sig)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(doomed); i++)
		if (doomed[i])
			unlink(doomed[i]);
	signal(sig, SIG_DFL);
	raise(sig);
}

void scratch_remove_at_signal(const char *db)
{
	static const char *const sfx[] = { "", "-wal", "-shm", "-journal" };
	sigset_t all, old;
	struct sigaction sa, cur;
	size_t i;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	for (i = 0; i < ARRAY_SIZE(doomed); i++) {
		free(doomed[i]);
		doomed[i] = db ? xasprintf("%s%s", db, sfx[i]) : NULL;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = db ? remove_doomed : SIG_DFL;
	if (!sigaction(SIGINT, NULL, &cur) &&
	    (cur.sa_handler == SIG_DFL || cur.sa_handler == remove_doomed))
		sigaction(SIGINT, &sa, NULL);
	if (!sigaction(SIGTERM, NULL, &cur) &&
	    (cur.sa_handler == SIG_DFL || cur.sa_handler == remove_doomed))
		sigaction(SIGTERM, &sa, NULL);
	sigprocmask(SIG_SETMASK, &old, NULL);
}
