// SPDX-License-Identifier: GPL-2.0
/*
 * tree.c - what a source tree is: a git repository (a revision is
 * checked out in kab's own worktree of it, one per repository, so that
 * going from one revision to the next touches only the files that
 * differ and the build after it is incremental) or a plain tree (named
 * by a fingerprint of its files).
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

bool kab_tree_is_git(const char *dir)
{
	char *top = kab_cmd_line(dir, NULL, "git", "rev-parse",
				 "--show-toplevel", NULL);
	char real[PATH_MAX];
	bool ok;

	if (!top)
		return false;
	ok = realpath(dir, real) && !strcmp(real, top);
	free(top);
	return ok;
}

char *kab_tree_commit(const char *tree, const char *rev, struct kab_err *err)
{
	char *spec = xasprintf("%s^{commit}", rev), *sha;

	sha = kab_cmd_line(tree, err, "git", "rev-parse", "--verify", "-q",
			   spec, NULL);
	free(spec);
	if (!sha)
		kab_err_set(err, "%s: no commit '%s' in this git tree: "
			    "'git -C %s log --oneline' lists them", tree, rev,
			    tree);
	return sha;
}

bool kab_tree_is_ancestor(const char *tree, const char *a, const char *b)
{
	pid_t pid = kab_spawn(&(struct kab_spawn){
			.argv = (char *const[]){ "git", "merge-base",
						 "--is-ancestor", (char *)a,
						 (char *)b, NULL },
			.cwd = tree, .quiet = true }, NULL, NULL);

	return pid > 0 && kab_wait(pid) == 0;
}

/* A short stable name for a path or a repository. */
char *kbuild_name_hash(const char *s)
{
	return kab_sha256_hex(s, strlen(s), 16);
}

/*
 * The directory kab builds a tree in: one per git repository (its
 * common directory, so that a worktree of it is the same repository)
 * or per plain tree path.
 */
char *kbuild_dir(const char *tree, const char *cache_dir,
		 struct kab_err *err)
{
	char real[PATH_MAX], *common = NULL, *name, *dir;

	if (!realpath(tree, real)) {
		kab_err_set(err, "source tree %s: %s: give the top of a "
			    "kernel tree (--tree DIR)", tree, strerror(errno));
		return NULL;
	}
	if (kab_tree_is_git(real))
		common = kab_cmd_line(real, NULL, "git", "rev-parse",
				      "--path-format=absolute",
				      "--git-common-dir", NULL);
	name = kbuild_name_hash(common ? common : real);
	dir = xasprintf("%s/build/%s", cache_dir, name);
	free(name);
	free(common);
	if (mkdir_p(dir, 0755)) {
		kab_err_set(err, "cannot create %s: %s", dir, strerror(errno));
		free(dir);
		return NULL;
	}
	return dir;
}

char *kab_tree_worktree(const char *tree, const char *cache_dir,
			struct kab_err *err)
{
	char *dir = kbuild_dir(tree, cache_dir, err), *wt, *top;

	if (!dir)
		return NULL;
	wt = xasprintf("%s/src", dir);
	free(dir);
	top = kab_cmd_line(wt, NULL, "git", "rev-parse", "--show-toplevel",
			   NULL);
	if (top && !strcmp(top, wt)) {
		free(top);
		return wt;
	}
	free(top);
	/* gone or half made: let git forget it, then add it afresh */
	free(kab_cmd_line(tree, NULL, "git", "worktree", "prune", NULL));
	free(kab_cmd_line(tree, NULL, "rm", "-rf", wt, NULL));
	top = kab_cmd_line(tree, err, "git", "worktree", "add", "--detach",
			   "-q", wt, "HEAD", NULL);
	if (!top) {
		kab_err_prefix(err, "cannot add kab's worktree %s to %s", wt,
			       tree);
		free(wt);
		return NULL;
	}
	free(top);
	return wt;
}

int kab_tree_lock(const char *tree, const char *cache_dir,
		  struct kab_err *err)
{
	char *dir = kbuild_dir(tree, cache_dir, err), *path;
	struct strbuf owner = STRBUF_INIT;
	int fd;

	if (!dir)
		return -1;
	path = xasprintf("%s/bisect.lock", dir);
	free(dir);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		kab_err_set(err, "cannot open %s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		read_file(path, &owner, NULL);
		fprintf(stderr, "kab: waiting for the kab bisect of %s that "
			"is running (pid %d): one bisect of a tree at a "
			"time\n", tree, owner.buf ? atoi(owner.buf) : 0);
		strbuf_release(&owner);
		/* ^C (kab's handlers do not restart) ends the wait */
		if (flock(fd, LOCK_EX)) {
			kab_err_set(err, "interrupted while waiting for the "
				    "other kab bisect of %s", tree);
			close(fd);
			free(path);
			return -1;
		}
	}
	free(path);
	if (!ftruncate(fd, 0))
		dprintf(fd, "%d\n", (int)getpid());
	return fd;
}

char *kab_tree_checkout(const char *tree, const char *commit,
			const char *cache_dir, struct kab_err *err)
{
	char *wt = kab_tree_worktree(tree, cache_dir, err), *r;

	if (!wt)
		return NULL;
	/* only the files that differ change (and get a new mtime) */
	r = kab_cmd_line(wt, err, "git", "checkout", "-q", "--detach",
			 "--force", commit, NULL);
	if (!r) {
		kab_err_prefix(err, "cannot check out %s in %s", commit, wt);
		free(wt);
		return NULL;
	}
	free(r);
	return wt;
}

/* ---- plain trees ---- */

static struct sha256_ctx *fp_ctx;
static size_t fp_root;

static int fp_one(const char *path, const struct stat *st, int type,
		  struct FTW *f)
{
	char line[64];

	if (type == FTW_D && !strcmp(path + f->base, ".git"))
		return FTW_SKIP_SUBTREE;
	if (type != FTW_F && type != FTW_SL)
		return FTW_CONTINUE;
	sha256_update(fp_ctx, strlen(path + fp_root) + 1,
		      (const uint8_t *)path + fp_root);
	snprintf(line, sizeof(line), "%lld %lld.%09ld",
		 (long long)st->st_size, (long long)st->st_mtim.tv_sec,
		 st->st_mtim.tv_nsec);
	sha256_update(fp_ctx, strlen(line) + 1, (const uint8_t *)line);
	return FTW_CONTINUE;
}

/*
 * nftw walks a directory in readdir order, which is stable for an
 * unchanged directory on one file system: good enough for a cache key
 * (a false miss costs one build, never a wrong image).
 */
char *kab_tree_fingerprint(const char *dir, struct kab_err *err)
{
	uint8_t d[SHA256_DIGEST_SIZE];
	struct sha256_ctx h;
	char hex[25];
	int i;

	sha256_init(&h);
	fp_ctx = &h;
	fp_root = strlen(dir);
	if (nftw(dir, fp_one, 64, FTW_PHYS | FTW_ACTIONRETVAL)) {
		kab_err_set(err, "cannot read the tree %s: %s", dir,
			    strerror(errno));
		return NULL;
	}
	sha256_digest(&h, sizeof(d), d);
	for (i = 0; i < 12; i++)
		sprintf(hex + 2 * i, "%02x", d[i]);
	return xasprintf("tree-%s", hex);
}
