/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbuild.h - kernels built from a source tree: a git repository at a
 * revision (through a worktree kab owns, so the user's checkout is never
 * touched) or a plain tree such as Debian's linux-source tarball,
 * configured from a base and fragments, built out of tree, cached by
 * what went into them.
 */
#ifndef KAB_KBUILD_H
#define KAB_KBUILD_H

#include <stdbool.h>
#include <stddef.h>

#include "../common/common.h"

struct kab_build_opts {
	const char *tree;		/* source tree */
	const char *rev;		/* git revision, or NULL: the tree as is */
	const char *const *fragments;	/* config fragments, merged in order */
	size_t nr_fragments;
	bool no_kab_fragments;		/* leave out kab's own two */
	const char *base;		/* tinyconfig (default), defconfig,
					   or a config file */
	const char *cache_dir;		/* $XDG_CACHE_HOME/kab */
	int jobs;			/* make -j; 0: the number of CPUs */
	bool progress;			/* a live progress line on stderr */
	const char *label;		/* what progress calls it */
};

struct kab_build {
	char *image;		/* the cached bzImage */
	char *key;		/* cache key: source, config, compiler */
	char *source_id;	/* commit, or "tree-<fingerprint>" */
	char *commit;		/* full sha or NULL */
	char *subject;		/* commit subject or NULL */
	char *tree;		/* absolute path */
	char *compiler;		/* first line of $CC --version */
	char *config_sha256;
	char *release;		/* make kernelrelease */
	char *config_path;	/* the final .config, cached */
	char *log_path;		/* the build log, cached (also on failure) */
	double seconds;		/* 0 when cached */
	bool cached;
	bool failed;		/* make failed: log_path says why */
	int objects;		/* objects compiled by this build */
};

/*
 * Build (or find in the cache) the bzImage o describes.  Returns 0 and
 * fills b; -1 with err (b->failed and b->log_path set when make itself
 * failed; the error then quotes the log's last lines).
 */
int kab_build_kernel(const struct kab_build_opts *o, struct kab_build *b,
		     struct kab_err *err);
void kab_build_free(struct kab_build *b);

/* ---- pieces, public for tests and for kab bisect ---- */

/* Is dir the top of a git work tree? */
bool kab_tree_is_git(const char *dir);
/* The full sha of rev in tree, or NULL with err. */
char *kab_tree_commit(const char *tree, const char *rev, struct kab_err *err);
/* Is commit a an ancestor of commit b (or b itself) in tree? */
bool kab_tree_is_ancestor(const char *tree, const char *a, const char *b);
/* kab's worktree for tree (created at need), or NULL with err. */
char *kab_tree_worktree(const char *tree, const char *cache_dir,
			struct kab_err *err);
/*
 * Hold tree's bisect lock (waiting for another kab bisect of it): kab's
 * worktree, its checkout and git bisect's state, are one bisect's at a
 * time.  The descriptor to close, or -1 with err.
 */
int kab_tree_lock(const char *tree, const char *cache_dir,
		  struct kab_err *err);
/* kab's worktree of tree with commit checked out, or NULL with err. */
char *kab_tree_checkout(const char *tree, const char *commit,
			const char *cache_dir, struct kab_err *err);
/* A commit of a series: its full sha and subject (the commit's text). */
struct kab_commit {
	char *sha;
	char *subject;
	bool merge;		/* it has more than one parent */
};

/*
 * base and the commits of base..head, oldest first (the first-parent
 * line: a branch's own commits and its merges; else every commit), in
 * *out.  base must be an ancestor of head.  0, or -1 with err.
 */
int kab_tree_revlist(const char *tree, const char *base, const char *head,
		     bool first_parent, struct kab_commit **out, size_t *nr,
		     struct kab_err *err);
void kab_commits_free(struct kab_commit *c, size_t nr);
/*
 * commit reverted on top of onto (a merge against its first parent),
 * in kab's worktree of tree: the new commit's sha, kept as
 * refs/kab/reverts/COMMIT-on-ONTO; NULL with err when it does not
 * revert cleanly.  The caller holds the tree's lock.
 */
char *kab_tree_revert(const char *tree, const char *commit, const char *onto,
		      const char *cache_dir, struct kab_err *err);
/* Fingerprint of a plain tree: paths, sizes and mtimes, .git left out. */
char *kab_tree_fingerprint(const char *dir, struct kab_err *err);

/*
 * Every CONFIG_ line of the fragments that the final .config does not
 * honour, one per line ("CONFIG_X=y (from FILE)"), or NULL when all are.
 */
char *kab_config_missing(const char *config, const char *const *fragments,
			 size_t nr, struct kab_err *err);

/* kab's own fragments, written to dir: their two paths. */
int kab_kab_fragments(const char *dir, char *paths[2], struct kab_err *err);

#endif /* KAB_KBUILD_H */
