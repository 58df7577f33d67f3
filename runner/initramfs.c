// SPDX-License-Identifier: GPL-2.0
/*
 * initramfs.c - the guest's root: kab-agent as /init, stress-ng when the
 * job runs it, the shared libraries they need (as the dynamic loader
 * resolves them), and the job.  Written with libarchive as an uncompressed newc cpio: under
 * TCG the kernel's decompressor would cost more than the bytes do.
 * Cached by the sha256 of everything in it, so a second boot of the
 * same job reuses the file.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner.h"

struct file_list {
	int nr;
	char **host;		/* path on this machine */
	char **guest;		/* path in the initramfs */
};

static void add_file(struct file_list *l, const char *host, const char *guest)
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

static void free_list(struct file_list *l)
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
static int add_deps(struct file_list *l, const char *bin, struct kab_err *err)
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
		add_file(l, p, p);
	}
	if (f)
		fclose(f);
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return kab_err_set(err, "cannot list the libraries of %s: is it "
				   "a dynamic x86-64 binary?", bin);
	add_file(l, loader, loader);
	return 0;
}

static int hash_file(struct sha256_ctx *h, const char *path,
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

static int write_entry(struct archive *a, const char *name, mode_t mode,
		       const void *data, size_t len)
{
	struct archive_entry *e = archive_entry_new();
	int ret = 0;

	archive_entry_set_pathname(e, name);
	archive_entry_set_mode(e, mode);
	archive_entry_set_size(e, S_ISREG(mode) ? (la_int64_t)len : 0);
	archive_entry_set_uid(e, 0);
	archive_entry_set_gid(e, 0);
	archive_entry_set_nlink(e, S_ISDIR(mode) ? 2 : 1);
	if (archive_write_header(a, e) != ARCHIVE_OK ||
	    (S_ISREG(mode) && len &&
	     archive_write_data(a, data, len) != (la_ssize_t)len))
		ret = -1;
	archive_entry_free(e);
	return ret;
}

/* Every directory above path, once. */
static int write_parents(struct archive *a, const char *path,
			 struct file_list *dirs)
{
	char *copy = xstrdup(path), *p;
	int ret = 0;

	for (p = copy + 1; (p = strchr(p, '/')) && !ret; p++) {
		int i;

		*p = '\0';
		for (i = 0; i < dirs->nr; i++)
			if (!strcmp(dirs->guest[i], copy + 1))
				break;
		if (i == dirs->nr) {
			add_file(dirs, copy, copy + 1);
			ret = write_entry(a, copy + 1, S_IFDIR | 0755, NULL, 0);
		}
		*p = '/';
	}
	free(copy);
	return ret;
}

static int write_cpio(const char *out, const struct file_list *l,
		      const char *job, struct kab_err *err)
{
	static const char *const mounts[] = { "dev", "proc", "sys", "tmp" };
	struct file_list dirs = { 0 };
	struct archive *a = archive_write_new();
	char *tmp = xasprintf("%s.tmp.%d", out, getpid());
	size_t i;
	int ret = -1;

	archive_write_set_format_cpio_newc(a);
	archive_write_add_filter_none(a);
	if (archive_write_open_filename(a, tmp) != ARCHIVE_OK) {
		kab_err_set(err, "cannot write %s: %s", tmp,
			    archive_error_string(a));
		goto out;
	}
	for (i = 0; i < ARRAY_SIZE(mounts); i++)
		if (write_entry(a, mounts[i], S_IFDIR | 0755, NULL, 0))
			goto fail;
	for (i = 0; i < (size_t)l->nr; i++) {
		struct strbuf sb = STRBUF_INIT;
		struct stat st;
		int rc;

		if (stat(l->host[i], &st) || read_file(l->host[i], &sb, err))
			goto fail;
		rc = write_parents(a, l->guest[i], &dirs) ||
		     write_entry(a, l->guest[i] + (l->guest[i][0] == '/'),
				 S_IFREG | (st.st_mode & 0777), sb.buf, sb.len);
		strbuf_release(&sb);
		if (rc)
			goto fail;
	}
	if (write_entry(a, "job.json", S_IFREG | 0644, job, strlen(job)))
		goto fail;
	if (archive_write_close(a) != ARCHIVE_OK)
		goto fail;
	if (rename(tmp, out)) {
		kab_err_set(err, "cannot rename %s: %s", tmp, strerror(errno));
		goto out;
	}
	ret = 0;
	goto out;
fail:
	if (!err || !err->msg[0])
		kab_err_set(err, "cannot write the initramfs %s: %s", tmp,
			    archive_error_string(a));
	unlink(tmp);
out:
	archive_write_free(a);
	free_list(&dirs);
	free(tmp);
	return ret;
}

char *kab_initramfs(const char *agent, const char *stressng, const char *job,
		    const char *cache_dir, bool *cached, struct kab_err *err)
{
	struct file_list l = { 0 };
	struct sha256_ctx h;
	uint8_t digest[SHA256_DIGEST_SIZE];
	char hex[2 * SHA256_DIGEST_SIZE + 1], *out = NULL;
	int i;

	*cached = false;
	err->msg[0] = '\0';
	add_file(&l, agent, "/init");
	if (add_deps(&l, agent, err))
		goto out;
	if (stressng) {
		add_file(&l, stressng, "/usr/bin/stress-ng");
		if (add_deps(&l, stressng, err))
			goto out;
	}
	sha256_init(&h);
	for (i = 0; i < l.nr; i++)
		if (hash_file(&h, l.host[i], err))
			goto out;
	sha256_update(&h, strlen(job), (const uint8_t *)job);
	sha256_digest(&h, sizeof(digest), digest);
	for (i = 0; i < SHA256_DIGEST_SIZE; i++)
		snprintf(hex + 2 * i, 3, "%02x", digest[i]);
	mkdir(cache_dir, 0755);
	out = xasprintf("%s/initramfs-%.16s.cpio", cache_dir, hex);
	if (!access(out, R_OK)) {
		*cached = true;
		goto out;
	}
	if (write_cpio(out, &l, job, err)) {
		free(out);
		out = NULL;
	}
out:
	free_list(&l);
	return out;
}
