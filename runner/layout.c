// SPDX-License-Identifier: GPL-2.0
/*
 * layout.c - a boot's layout seed: what exact mode varies on purpose so
 * that a kernel's layouts are sampled, not fixed at one (Mytkowicz et
 * al., ASPLOS 2009; STABILIZER, ASPLOS 2013), while every boot still
 * repeats itself to the last digit.
 *
 * A seed is two layouts.  The workload's, in user space, is the
 * agent's to make and is the same under any kernel: where its mappings
 * land (a gap of up to 2 GiB below the ones it has, so that malloc1's
 * 128 MiB mapping falls anywhere across 2 MiB and 1 GiB boundaries),
 * the size of its environment, the offset of its stack and its heap.
 * The kernel's address-space randomization stays off (norandmaps): it
 * draws from the kernel's own entropy, which differs between any two
 * kernels, so it would give A and B different layouts for one seed.
 * So boot i of every side runs at one user-space layout, and a change
 * is measured across the same layouts.  The kernel's own layout takes
 * the seed from the command line, which the kernel mixes into its
 * entropy pool (an icount guest without RDRAND has no other luck): its
 * slab freelists' order and the page allocator's shuffle.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "runner.h"

/* splitmix64: each of a seed's draws from a mixed counter */
static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

bool kab_layout_seed_ok(unsigned long long seed)
{
	return seed >= 1 && seed <= KAB_LAYOUT_SEED_MAX;
}

int kab_layout_seed_parse(const char *s, unsigned long long *out,
			  struct kab_err *err)
{
	char *end = NULL;

	errno = 0;
	*out = s && *s >= '0' && *s <= '9' ? strtoull(s, &end, 10) : 0;
	if (!end || errno || *end || !kab_layout_seed_ok(*out))
		return kab_err_set(err, "--layout-seed '%s': give a whole "
				   "number from 1 to %llu", s ? s : "",
				   (unsigned long long)KAB_LAYOUT_SEED_MAX);
	return 0;
}

void kab_layout_of(unsigned long long seed, struct kab_layout *l)
{
	uint64_t x = mix(seed);

	l->kernel = mix(x ^ 1);
	/* a page's worth of environment, stack offset in 16 bytes */
	l->env = mix(x ^ 2) % 4096;
	l->stack = (mix(x ^ 3) % 256) * 16;
	/* up to 64 KiB of heap before the workload's first allocation */
	l->heap = (mix(x ^ 4) % 4096) * 16;
	/* a gap of up to 2 GiB, in 4 KiB pages, below the mappings */
	l->gap = (mix(x ^ 5) % (1u << 19)) * 4096;
}

char *kab_layout_cmdline(unsigned long long seed)
{
	struct kab_layout l;

	kab_layout_of(seed, &l);
	/* fixed width: every seed's command line is as long */
	return xasprintf("norandmaps kab.seed=%016llx page_alloc.shuffle=1",
			 (unsigned long long)l.kernel);
}

void *kab_layout_apply(const struct kab_layout *l)
{
	char *pad = xmalloc(l->env + 1);
	char *heap;

	memset(pad, 'x', l->env);
	pad[l->env] = '\0';
	setenv("KAB_LAYOUT", pad, 1);
	free(pad);
	/* kept for the process's life: what the workload allocates after */
	heap = xmalloc(l->heap + 16);
	memset(heap, 0, l->heap + 16);
	/*
	 * The gap: reserved, never touched.  Mappings go top down, so
	 * every mapping made after it lands l->gap lower.
	 */
	if (l->gap)
		mmap(NULL, l->gap, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS |
		     MAP_NORESERVE, -1, 0);
	return heap;
}
