// SPDX-License-Identifier: GPL-2.0
/*
 * revlist.c - the commits of a branch from a base to its head, oldest
 * first, with their subjects: the series kab watch measures.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void kab_commits_free(struct kab_commit *c, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(c[i].sha);
		free(c[i].subject);
	}
	free(c);
}

static void add(struct kab_commit **c, size_t *nr, size_t *alloc,
		const char *sha, size_t len, const char *subject, bool merge)
{
	if (*nr == *alloc) {
		*alloc = *alloc ? 2 * *alloc : 64;
		*c = xrealloc(*c, *alloc * sizeof(**c));
	}
	(*c)[*nr].sha = xstrndup(sha, len);
	(*c)[*nr].subject = xstrdup(subject);
	(*c)[*nr].merge = merge;
	(*nr)++;
}

int kab_tree_revlist(const char *tree, const char *base, const char *head,
		     bool first_parent, struct kab_commit **out, size_t *nr,
		     struct kab_err *err)
{
	struct strbuf o = STRBUF_INIT;
	char *b, *h, *range, *line, *next, *tab;
	const char *argv[8];
	struct kab_spawn s = { .argv = (char *const *)argv, .cwd = tree,
			       .quiet = true };
	struct kab_commit *c = NULL;
	size_t n = 0, alloc = 0;
	int i = 0, rc;

	*out = NULL;
	*nr = 0;
	b = kab_tree_commit(tree, base, err);
	if (!b)
		return -1;
	h = kab_tree_commit(tree, head, err);
	if (!h) {
		free(b);
		return -1;
	}
	if (strcmp(b, h) && !kab_tree_is_ancestor(tree, b, h)) {
		kab_err_set(err, "%s is not an ancestor of %s in %s: give "
			    "--from a commit the branch grew from", base,
			    head, tree);
		free(b);
		free(h);
		return -1;
	}
	range = xasprintf("%s..%s", b, h);
	argv[i++] = "git";
	argv[i++] = "log";
	argv[i++] = "--reverse";
	if (first_parent)
		argv[i++] = "--first-parent";
	/* the parents, then the subject after a byte no name has */
	argv[i++] = "--format=%H %P%x01%s";
	argv[i++] = range;
	argv[i] = NULL;
	rc = kab_run_capture(&s, &o, err);
	free(range);
	if (rc) {
		if (rc > 0)
			kab_err_set(err, "git log %s..%s failed in %s (exit "
				    "%d)", base, head, tree, rc);
		goto fail;
	}
	/* the base is the series' first point */
	tab = kab_cmd_line(tree, err, "git", "log", "-1", "--format=%s", b,
			   NULL);
	if (!tab)
		goto fail;
	add(&c, &n, &alloc, b, strlen(b), tab, false);
	free(tab);
	for (line = o.buf; line && *line; line = next) {
		char *subject;
		size_t len;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		tab = strchr(line, ' ');
		subject = strchr(line, '\x01');
		/* a sha-1 or a sha-256 object name, then its parents' */
		if (!tab || !subject || subject < tab ||
		    (tab - line != 40 && tab - line != 64) ||
		    strspn(line, "0123456789abcdef") != (size_t)(tab - line))
			continue;
		len = (size_t)(tab - line);
		*subject++ = '\0';
		/* "P1 P2": a second parent's name after a space */
		add(&c, &n, &alloc, line, len, subject,
		    strchr(tab + 1, ' ') != NULL);
	}
	strbuf_release(&o);
	free(b);
	free(h);
	*out = c;
	*nr = n;
	return 0;
fail:
	strbuf_release(&o);
	kab_commits_free(c, n);
	free(b);
	free(h);
	return -1;
}
