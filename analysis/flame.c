// SPDX-License-Identifier: GPL-2.0
/*
 * flame.c - a differential flame graph's model: the folded stacks of a
 * base and a head merged into one tree of frames, each with its
 * inclusive share (%) of each side's samples.  The drawing is the
 * writers' (a frame as wide as the head's share, coloured by the
 * change); what a side's kept stacks do not cover stays unassigned.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "../common/common.h"

static struct kab_flame_node *child(struct kab_flame_node *n,
				    const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < n->nr; i++)
		if (strlen(n->kid[i].name) == len &&
		    !memcmp(n->kid[i].name, name, len))
			return &n->kid[i];
	if (n->nr == n->alloc) {
		n->alloc = n->alloc ? 2 * n->alloc : 4;
		n->kid = xrealloc(n->kid, n->alloc * sizeof(*n->kid));
	}
	memset(&n->kid[n->nr], 0, sizeof(n->kid[n->nr]));
	n->kid[n->nr].name = xstrndup(name, len);
	return &n->kid[n->nr++];
}

void kab_flame_add(struct kab_flame *f, int side, const char *stack,
		   uint64_t n)
{
	struct kab_flame_node *node = &f->root;
	const char *p = stack, *semi;

	if (side < 0 || side > 1 || !kab_stack_ok(stack))
		return;
	node->count[side] += n;
	for (;;) {
		semi = strchrnul(p, ';');
		node = child(node, p, semi - p);
		node->count[side] += n;
		if (!*semi)
			break;
		p = semi + 1;
	}
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct kab_flame_node *)a)->name,
		      ((const struct kab_flame_node *)b)->name);
}

static void finish(struct kab_flame_node *n, const uint64_t *total,
		   int depth, int *max_depth)
{
	size_t i;
	int s;

	for (s = 0; s < 2; s++)
		n->share[s] = total[s] ? 100.0 * n->count[s] / total[s] : 0;
	if (depth > *max_depth)
		*max_depth = depth;
	/* frames in name order, as flame graphs draw them: stable */
	if (n->nr)
		qsort(n->kid, n->nr, sizeof(*n->kid), by_name);
	for (i = 0; i < n->nr; i++)
		finish(&n->kid[i], total, depth + 1, max_depth);
}

void kab_flame_finish(struct kab_flame *f)
{
	int s;

	/* stacks that claim more than all the samples (a damaged merge) */
	for (s = 0; s < 2; s++)
		if (f->root.count[s] > f->total[s])
			f->total[s] = f->root.count[s];
	f->max_depth = 0;
	finish(&f->root, f->total, 0, &f->max_depth);
}

static void node_free(struct kab_flame_node *n)
{
	size_t i;

	for (i = 0; i < n->nr; i++)
		node_free(&n->kid[i]);
	free(n->kid);
	free(n->name);
}

void kab_flame_free(struct kab_flame *f)
{
	if (!f)
		return;
	node_free(&f->root);
	free(f->event);
	memset(f, 0, sizeof(*f));
}
