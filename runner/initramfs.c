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
#include <unistd.h>

#include "internal.h"

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
			 struct kab_files *dirs)
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
			kab_files_add(dirs, copy, copy + 1);
			ret = write_entry(a, copy + 1, S_IFDIR | 0755, NULL, 0);
		}
		*p = '/';
	}
	free(copy);
	return ret;
}

static int write_cpio(const char *out, const struct kab_files *l,
		      const char *job, struct kab_err *err)
{
	static const char *const mounts[] = { "dev", "proc", "sys", "tmp" };
	struct kab_files dirs = { 0 };
	struct archive *a = archive_write_new();
	char *tmp = xasprintf("%s.tmp.%d.%d", out, getpid(), gettid());
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
	kab_files_free(&dirs);
	free(tmp);
	return ret;
}

char *kab_initramfs(const char *agent, const char *stressng, const char *job,
		    const char *cache_dir, bool *cached, struct kab_err *err)
{
	struct kab_files l = { 0 };
	struct sha256_ctx h;
	uint8_t digest[SHA256_DIGEST_SIZE];
	char hex[2 * SHA256_DIGEST_SIZE + 1], *out = NULL;
	int i;

	*cached = false;
	err->msg[0] = '\0';
	kab_files_add(&l, agent, "/init");
	if (kab_files_add_deps(&l, agent, NULL, err))
		goto out;
	if (stressng) {
		kab_files_add(&l, stressng, "/usr/bin/stress-ng");
		if (kab_files_add_deps(&l, stressng, NULL, err))
			goto out;
	}
	sha256_init(&h);
	for (i = 0; i < l.nr; i++)
		if (kab_files_hash_one(&h, l.host[i], err))
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
	kab_files_free(&l);
	return out;
}
