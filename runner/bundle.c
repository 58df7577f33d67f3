// SPDX-License-Identifier: GPL-2.0
/*
 * bundle.c - a binary and the shared libraries it needs, as the dynamic
 * loader resolves them: what goes into a guest's initramfs, or into the
 * directory the ssh target unpacks on a test machine.
 */
#include <errno.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"

/* Where a library goes: its own path, or libdir/<its name>. */
static void add_lib(struct kab_files *l, const char *path, const char *libdir)
{
	const char *base = strrchr(path, '/');
	char *to;

	if (!libdir) {
		kab_files_add(l, path, path);
		return;
	}
	to = xasprintf("%s/%s", libdir, base ? base + 1 : path);
	kab_files_add(l, path, to);
	free(to);
}


void kab_files_add(struct kab_files *l, const char *host, const char *guest)
{
	int i;

	for (i = 0; i < l->nr; i++)
		if (!strcmp(l->guest[i], guest))
			return;
	l->host = xrealloc(l->host, (l->nr + 1) * sizeof(*l->host));
	l->guest = xrealloc(l->guest, (l->nr + 1) * sizeof(*l->guest));
	l->host[l->nr] = xstrdup(host);
	l->guest[l->nr] = xstrdup(guest);
	l->nr++;
}

void kab_files_free(struct kab_files *l)
{
	int i;

	for (i = 0; i < l->nr; i++) {
		free(l->host[i]);
		free(l->guest[i]);
	}
	free(l->host);
	free(l->guest);
}

/*
 * The libraries a binary needs, as the dynamic loader itself resolves
 * them ("ld.so --list"): lines "name => /path (addr)" or "/path (addr)".
 */
int kab_files_add_deps(struct kab_files *l, const char *bin,
		       const char *libdir, struct kab_err *err)
{
	static const char *const loader = "/lib64/ld-linux-x86-64.so.2";
	int fds[2], status;
	char buf[256];
	FILE *f;
	pid_t pid;

	if (pipe(fds))
		return kab_err_set(err, "pipe: %s", strerror(errno));
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		execl(loader, loader, "--list", bin, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	f = fdopen(fds[0], "r");
	while (f && fgets(buf, sizeof(buf), f)) {
		char *p = strstr(buf, "=> "), *end;

		p = p ? p + 3 : buf;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != '/')
			continue;
		end = strchr(p, ' ');
		if (end)
			*end = '\0';
		add_lib(l, p, libdir);
	}
	if (f)
		fclose(f);
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return kab_err_set(err, "cannot list the libraries of %s: is it "
				   "a dynamic x86-64 binary?", bin);
	add_lib(l, loader, libdir);
	return 0;
}

int kab_files_hash_one(struct sha256_ctx *h, const char *path,
		     struct kab_err *err)
{
	struct strbuf sb = STRBUF_INIT;

	if (read_file(path, &sb, err))
		return -1;
	sha256_update(h, strlen(path) + 1, (const uint8_t *)path);
	sha256_update(h, sb.len, (const uint8_t *)sb.buf);
	strbuf_release(&sb);
	return 0;
}

