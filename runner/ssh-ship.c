// SPDX-License-Identifier: GPL-2.0
/*
 * ssh-ship.c - a file sent to a test machine once per content: a
 * kernel's image that the machine's setup command boots.  It lands at
 * $XDG_CACHE_HOME/kab/kernels/<hash>/NAME there, with a marker beside
 * it written last: a directory without its marker is shipped again.
 */
#include <errno.h>
#include <fcntl.h>
#include <nettle/sha2.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

static char *content_hash(int fd, const char *path, struct kab_err *err)
{
	struct sha256_ctx h;
	uint8_t d[SHA256_DIGEST_SIZE], buf[65536];
	ssize_t n;

	sha256_init(&h);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		sha256_update(&h, (size_t)n, buf);
	if (n < 0) {
		kab_err_set(err, "cannot read %s: %s", path, strerror(errno));
		return NULL;
	}
	sha256_digest(&h, sizeof(d), d);
	return kab_sha256_hex(d, sizeof(d), 16);
}

static int copy_out(int from, int to, struct kab_err *err)
{
	char buf[65536];
	ssize_t n, w, off;

	if (lseek(from, 0, SEEK_SET) < 0)
		return kab_err_set(err, "cannot read: %s", strerror(errno));
	while ((n = read(from, buf, sizeof(buf))) > 0)
		for (off = 0; off < n; off += w) {
			w = write(to, buf + off, (size_t)(n - off));
			if (w < 0 && errno == EINTR) {
				w = 0;
				continue;
			}
			if (w < 0)
				return kab_err_set(err, "the connection "
						   "closed: %s",
						   strerror(errno));
		}
	return n < 0 ? kab_err_set(err, "cannot read: %s", strerror(errno)) :
		       0;
}

static int send_file(struct kab_ssh *s, int fd, const char *dir,
		     const char *dest, const char *done, struct kab_err *err)
{
	const char *const words[] = {
		"sh", "-c", "mkdir -p \"$1\" && cat > \"$2\" && touch \"$3\"",
		"sh", dir, dest, done, NULL };
	int in_fd, efd = -1, status, rc;
	char *said, last[256];
	pid_t pid;

	pid = kab_ssh_spawn(s, words, &in_fd, NULL, &efd, err);
	if (pid < 0)
		return -1;
	signal(SIGPIPE, SIG_IGN);
	rc = copy_out(fd, in_fd, err);
	close(in_fd);
	status = kab_wait(pid);
	said = kab_stderr_read(efd);
	kab_last_line(said, last, sizeof(last));
	if (status && !rc)
		rc = kab_err_set(err, "cannot write %s on %s (%s): is there "
				 "room in the home?", dest, s->dest,
				 *last ? last : "no word of why");
	free(said);
	return rc;
}

int kab_ssh_ship(struct kab_ssh *s, const char *path, const char *name,
		 char **remote, struct kab_err *err)
{
	char *hash = NULL, *dir = NULL, *dest = NULL, *done = NULL;
	int fd, rc = -1;

	*remote = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return kab_err_set(err, "%s: %s", path, strerror(errno));
	if (!s->home && kab_ssh_probe(s, err))
		goto out;
	hash = content_hash(fd, path, err);
	if (!hash)
		goto out;
	dir = xasprintf("%s/kab/kernels/%s", s->home, hash);
	dest = xasprintf("%s/%s", dir, name);
	done = xasprintf("%s/.complete", dir);
	{
		const char *const test[] = { "test", "-e", done, NULL };

		rc = kab_ssh_run(s, test, NULL, err);
	}
	if (rc < 0 || rc == 255) {
		rc = -1;
		goto out;
	}
	if (rc && send_file(s, fd, dir, dest, done, err)) {
		rc = -1;
		goto out;
	}
	rc = 0;
	*remote = dest;
	dest = NULL;
out:
	close(fd);
	free(hash);
	free(dir);
	free(dest);
	free(done);
	return rc;
}
