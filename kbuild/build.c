// SPDX-License-Identifier: GPL-2.0
/*
 * build.c - kab_build_kernel(): source, config, cache lookup, make,
 * cache store.
 *
 * Layout under the cache directory:
 *   build/<tree>/src      kab's git worktree (git trees only)
 *   build/<tree>/cfg      where the final .config is worked out
 *   build/<tree>/out      O=: the one build directory of the tree, so a
 *                         new revision or config rebuilds what changed
 *   build/<tree>/lock     one kab building a tree at a time
 *   kernels/<key>/        bzImage, config, build.log, info.json
 * where key hashes the source (commit or tree fingerprint), the final
 * config and the compiler: the same three never build twice.
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/* Copy a file, atomically (temp name, then rename). */
static int copy_file(const char *from, const char *to, struct kab_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = -1;

	if (!read_file(from, &sb, err))
		ret = write_file_atomic(to, sb.buf, sb.len, err);
	strbuf_release(&sb);
	return ret;
}

static bool same_file(const char *a, const char *b)
{
	struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
	bool same = !read_file(a, &x, NULL) && !read_file(b, &y, NULL) &&
		    x.len == y.len && !memcmp(x.buf, y.buf, x.len);

	strbuf_release(&x);
	strbuf_release(&y);
	return same;
}

static char *dup_or_null(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? xstrdup(s) : NULL;
}

static int load_info(const char *dir, struct kab_build *b)
{
	char *path = xasprintf("%s/info.json", dir);
	json_t *j = json_load_file(path, 0, NULL);

	free(path);
	if (!j)
		return -1;
	free(b->release);
	b->release = dup_or_null(j, "release");
	if (!b->config_sha256)
		b->config_sha256 = dup_or_null(j, "config_sha256");
	b->seconds = json_real_value(json_object_get(j, "seconds"));
	json_decref(j);
	return b->release ? 0 : -1;
}

static int store_info(const char *dir, const struct kab_build *b,
		      struct kab_err *err)
{
	char *path = xasprintf("%s/info.json", dir), *text = NULL;
	json_t *j = json_pack("{s:s, s:s?, s:s?, s:s, s:s, s:s, s:s, s:f, "
			      "s:i}", "source", b->source_id, "commit",
			      b->commit, "subject", b->subject, "tree",
			      b->tree, "compiler", b->compiler, "config_sha256",
			      b->config_sha256, "release", b->release,
			      "seconds", b->seconds, "objects", b->objects);
	int ret = 0;

	if (j)
		text = json_dumps(j, JSON_INDENT(1));
	if (!text)
		ret = kab_err_set(err, "cannot write %s", path);
	else
		ret = write_file_atomic(path, text, strlen(text), err);
	json_decref(j);
	free(text);
	free(path);
	return ret;
}

/* The source to build: kab's worktree at the commit, or the tree. */
static char *source(const struct kab_build_opts *o, struct kab_build *b,
		    struct kab_err *err)
{
	if (!o->rev) {
		b->source_id = kab_tree_fingerprint(b->tree, err);
		if (!b->source_id)
			return NULL;
		if (kab_tree_is_git(b->tree))
			b->commit = kab_cmd_line(b->tree, NULL, "git",
						 "rev-parse", "HEAD", NULL);
		return xstrdup(b->tree);
	}
	if (!kab_tree_is_git(b->tree)) {
		kab_err_set(err, "--rev %s needs a git tree, and %s is not "
			    "one: leave --rev out to build the tree as it is",
			    o->rev, b->tree);
		return NULL;
	}
	b->commit = kab_tree_commit(b->tree, o->rev, err);
	if (!b->commit)
		return NULL;
	b->subject = kab_cmd_line(b->tree, NULL, "git", "log", "-1",
				  "--format=%s", b->commit, NULL);
	b->source_id = xstrdup(b->commit);
	return kab_tree_checkout(b->tree, b->commit, o->cache_dir, err);
}

static char *key_of(const struct kab_build *b)
{
	char *s = xasprintf("source %s\nconfig %s\ncompiler %s\n",
			    b->source_id, b->config_sha256, b->compiler);
	char *k = kbuild_name_hash(s);

	free(s);
	return k;
}

/*
 * What determines the final config: the source, the compiler (and ld
 * and make), the base and the fragments' contents.  Kconfig is deterministic, so the same
 * inputs map to the same cached kernel without working the config out
 * again (which costs seconds of make).
 */
static char *input_key(const struct kab_build *b, const char *base,
		       const char *const *frags, size_t nr)
{
	struct strbuf sb = STRBUF_INIT;
	char *h, *k;
	size_t i;

	strbuf_addf(&sb, "source %s\ncompiler %s\n", b->source_id,
		    b->compiler);
	/* Kconfig asks the linker and make about themselves too */
	for (i = 0; i < 2; i++) {
		h = kab_cmd_line(NULL, NULL, i ? "make" : "ld", "--version",
				 NULL);
		strbuf_addf(&sb, "%s %.*s\n", i ? "make" : "ld",
			    h ? (int)strcspn(h, "\n") : 0, h ? h : "");
		free(h);
	}
	if (kbuild_base_is_target(base)) {
		strbuf_addf(&sb, "base %s\n", base);
	} else {
		h = kab_file_sha256(base, NULL);
		if (!h)
			goto fail;
		strbuf_addf(&sb, "base file %s\n", h);
		free(h);
	}
	for (i = 0; i < nr; i++) {
		h = kab_file_sha256(frags[i], NULL);
		if (!h)
			goto fail;
		strbuf_addf(&sb, "fragment %s\n", h);
		free(h);
	}
	k = kbuild_name_hash(sb.buf);
	strbuf_release(&sb);
	return k;
fail:
	strbuf_release(&sb);
	return NULL;
}

/* kernels/<key>/ holds a whole build: fill b from it. */
static bool from_cache(const char *cache_dir, const char *key,
		       struct kab_build *b)
{
	char *kdir = xasprintf("%s/kernels/%s", cache_dir, key);
	char *image = xasprintf("%s/bzImage", kdir);
	bool ok = !access(image, R_OK) && !load_info(kdir, b);

	if (ok) {
		free(b->key);
		free(b->image);
		free(b->config_path);
		free(b->log_path);
		b->key = xstrdup(key);
		b->image = image;
		b->config_path = xasprintf("%s/config", kdir);
		b->log_path = xasprintf("%s/build.log", kdir);
		b->cached = true;
	} else {
		free(image);
	}
	free(kdir);
	return ok;
}

static void remember_inputs(const char *cache_dir, const char *ikey,
			    const char *key)
{
	char *dir = xasprintf("%s/inputs", cache_dir);
	char *path = xasprintf("%s/%s", dir, ikey);

	if (!mkdir_p(dir, 0755))
		write_file_atomic(path, key, strlen(key), NULL);
	free(path);
	free(dir);
}

/* The last lines of a log, indented, for the error message. */
static void print_tail(const char *log, int lines)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;
	char *title;
	int n = 0;

	if (read_file(log, &sb, NULL))
		return;
	p = sb.buf + sb.len;
	while (p > sb.buf && n <= lines)
		if (*--p == '\n')
			n++;
	if (*p == '\n')
		p++;
	title = xasprintf("the build log's last lines (%s)", log);
	fput_note_lines(stderr, title, p);
	free(title);
	strbuf_release(&sb);
}

int kab_build_kernel(const struct kab_build_opts *o, struct kab_build *b,
		     struct kab_err *err)
{
	char *bdir = NULL, *src = NULL, *cfg = NULL, *out = NULL;
	char *kdir = NULL, *image = NULL, *lock = NULL, *tmplog = NULL;
	char *frag_paths[2] = { NULL, NULL }, *missing, *p, *ikey = NULL;
	const char **frags = NULL;
	size_t nr = 0, i;
	double t0;
	int lockfd = -1, ret = -1;

	memset(b, 0, sizeof(*b));
	err->msg[0] = '\0';
	b->tree = realpath(o->tree, NULL);
	if (!b->tree) {
		kab_err_set(err, "source tree %s: %s: give the top of a kernel "
			    "tree with --tree DIR", o->tree, strerror(errno));
		return -1;
	}
	/* make's "No rule to make target 'tinyconfig'" says it worse */
	{
		char *k = xasprintf("%s/Kconfig", b->tree);
		char *x = xasprintf("%s/arch/x86/Kconfig", b->tree);
		bool kernel = !access(k, F_OK) && !access(x, F_OK);

		free(k);
		free(x);
		if (!kernel) {
			kab_err_set(err, "%s is not the top of a kernel tree (no "
				    "Kconfig and arch/x86/Kconfig there): give "
				    "one with --tree DIR", b->tree);
			return -1;
		}
	}
	b->compiler = kbuild_compiler(err);
	bdir = b->compiler ? kbuild_dir(b->tree, o->cache_dir, err) : NULL;
	if (!bdir)
		goto out;
	lock = xasprintf("%s/lock", bdir);
	lockfd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (lockfd >= 0 && flock(lockfd, LOCK_EX | LOCK_NB)) {
		fprintf(stderr, "kab: waiting for another kab building this "
			"tree\n");
		flock(lockfd, LOCK_EX);
	}
	src = source(o, b, err);
	if (!src)
		goto out;
	/* kab's fragments first: the user's override them */
	frags = xcalloc(o->nr_fragments + 2, sizeof(*frags));
	if (!o->no_kab_fragments) {
		if (kab_kab_fragments(bdir, frag_paths, err))
			goto out;
		frags[nr++] = frag_paths[0];
		frags[nr++] = frag_paths[1];
	}
	for (i = 0; i < o->nr_fragments; i++) {
		if (access(o->fragments[i], R_OK)) {
			kab_err_set(err, "config fragment %s: %s",
				    o->fragments[i], strerror(errno));
			goto out;
		}
		frags[nr++] = o->fragments[i];
	}
	ikey = input_key(b, o->base ? o->base : "tinyconfig", frags, nr);
	if (ikey) {
		char *path = xasprintf("%s/inputs/%s", o->cache_dir, ikey);
		struct strbuf known = STRBUF_INIT;
		bool hit = !read_file(path, &known, NULL) && known.len &&
			   from_cache(o->cache_dir, known.buf, b);

		free(path);
		strbuf_release(&known);
		if (hit) {
			ret = 0;
			goto out;
		}
	}
	cfg = xasprintf("%s/cfg", bdir);
	if (o->progress)
		fprintf(stderr, "\rkab: configuring %s", o->label ? o->label :
			"kernel");
	if (kbuild_make_config(src, cfg, o, frags, nr, err))
		goto out;
	if (o->progress)
		fprintf(stderr, "\r\033[K");
	p = xasprintf("%s/.config", cfg);
	missing = kab_config_missing(p, frags, nr, err);
	b->config_sha256 = missing || err->msg[0] ? NULL :
			   kab_file_sha256(p, err);
	if (missing) {
		char *nl = strchr(missing, '\n');

		kab_err_set(err, "the final .config lacks %.*s%s: Kconfig "
			    "dropped it, so add what it depends on to a "
			    "fragment (make O=%s menuconfig shows why)",
			    (int)(nl ? nl - missing : (long)strlen(missing)),
			    missing, nl && nl[1] ? " and more" : "", cfg);
		fput_note_lines(stderr, "options the fragments asked for and "
				"the final .config does not have", missing);
		free(missing);
		free(p);
		goto out;
	}
	if (!b->config_sha256) {
		free(p);
		goto out;
	}
	b->key = key_of(b);
	kdir = xasprintf("%s/kernels/%s", o->cache_dir, b->key);
	image = xasprintf("%s/bzImage", kdir);
	b->image = xstrdup(image);
	b->config_path = xasprintf("%s/config", kdir);
	b->log_path = xasprintf("%s/build.log", kdir);
	if (!access(image, R_OK) && !load_info(kdir, b)) {
		b->cached = true;
		free(p);
		if (ikey)
			remember_inputs(o->cache_dir, ikey, b->key);
		ret = 0;
		goto out;
	}
	b->release = NULL;
	out = xasprintf("%s/out", bdir);
	if (mkdir_p(kdir, 0755) || mkdir_p(out, 0755)) {
		kab_err_set(err, "cannot create %s: %s", kdir, strerror(errno));
		free(p);
		goto out;
	}
	/* a .config that did not change keeps make incremental */
	{
		char *outcfg = xasprintf("%s/.config", out);
		int rc = same_file(p, outcfg) ? 0 : copy_file(p, outcfg, err);

		if (!rc)
			rc = copy_file(p, b->config_path, err);
		free(outcfg);
		free(p);
		if (rc)
			goto out;
	}
	tmplog = xasprintf("%s/build.log", bdir);
	t0 = now_mono();
	if (kbuild_make(src, out, tmplog, o, &b->objects, err)) {
		b->failed = true;
		copy_file(tmplog, b->log_path, NULL);
		print_tail(tmplog, 20);
		kab_err_prefix(err, "building %s", o->rev ? o->rev : b->tree);
		goto out;
	}
	b->seconds = now_mono() - t0;
	p = xasprintf("%s/include/config/kernel.release", out);
	{
		struct strbuf rel = STRBUF_INIT;

		if (!read_file(p, &rel, NULL)) {
			while (rel.len && rel.buf[rel.len - 1] == '\n')
				rel.buf[--rel.len] = '\0';
			b->release = strbuf_detach(&rel);
		} else {
			b->release = xstrdup("unknown");
		}
	}
	free(p);
	p = xasprintf("%s/arch/x86/boot/bzImage", out);
	ret = copy_file(tmplog, b->log_path, err) ||
	      copy_file(p, image, err) || store_info(kdir, b, err) ? -1 : 0;
	free(p);
	if (!ret && ikey)
		remember_inputs(o->cache_dir, ikey, b->key);
out:
	if (lockfd >= 0)
		close(lockfd);
	free(ikey);
	free(frag_paths[0]);
	free(frag_paths[1]);
	free(frags);
	free(bdir);
	free(src);
	free(cfg);
	free(out);
	free(kdir);
	free(image);
	free(lock);
	free(tmplog);
	return ret;
}

void kab_build_free(struct kab_build *b)
{
	free(b->image);
	free(b->key);
	free(b->source_id);
	free(b->commit);
	free(b->subject);
	free(b->tree);
	free(b->compiler);
	free(b->config_sha256);
	free(b->release);
	free(b->config_path);
	free(b->log_path);
	memset(b, 0, sizeof(*b));
}
