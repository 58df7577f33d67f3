// SPDX-License-Identifier: GPL-2.0
/*
 * revert.c - a commit reverted on top of another in kab's worktree (as
 * KernelCI checks a culprit: the head without it), kept under
 * refs/kab/reverts/ so that git's gc leaves it.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

char *kab_tree_revert(const char *tree, const char *commit, const char *onto,
		      const char *cache_dir, struct kab_err *err)
{
	char *wt, *parents, *sha = NULL, *out, *ref;
	bool merge;

	parents = kab_cmd_line(tree, err, "git", "rev-list", "--parents",
			       "-n", "1", commit, NULL);
	if (!parents)
		return NULL;
	/* "sha parent1 parent2": a merge is reverted against its first */
	merge = strchr(parents, ' ') && strchr(strchr(parents, ' ') + 1, ' ');
	free(parents);
	wt = kab_tree_checkout(tree, onto, cache_dir, err);
	if (!wt)
		return NULL;
	if (merge)
		out = kab_cmd_line(wt, err, "git", "-c", "user.name=kab", "-c",
				   "user.email=kab@localhost", "revert",
				   "--no-edit", "-m", "1", commit, NULL);
	else
		out = kab_cmd_line(wt, err, "git", "-c", "user.name=kab", "-c",
				   "user.email=kab@localhost", "revert",
				   "--no-edit", commit, NULL);
	if (!out) {
		free(kab_cmd_line(wt, NULL, "git", "revert", "--abort", NULL));
		kab_err_set(err, "%.12s does not revert cleanly on %.12s (a "
			    "later commit changed the same lines)", commit,
			    onto);
		free(wt);
		return NULL;
	}
	free(out);
	sha = kab_cmd_line(wt, err, "git", "rev-parse", "HEAD", NULL);
	if (sha) {
		ref = xasprintf("refs/kab/reverts/%s-on-%s", commit, onto);
		out = kab_cmd_line(tree, err, "git", "update-ref", ref, sha,
				   NULL);
		free(ref);
		if (!out) {
			free(sha);
			sha = NULL;
		}
		free(out);
	}
	free(wt);
	return sha;
}
