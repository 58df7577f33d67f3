/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cost.h - a model of one core's data side, for kab's exact mode: L1d,
 * L2 and LLC caches (set-associative, LRU, physically indexed), an L1
 * dTLB for each page size and a second-level TLB, page walks whose
 * references go through the caches as a hardware walker's do, and a
 * cost in cycles for each event.
 *
 * Deterministic: the same accesses in the same order give the same
 * counts, whatever the host.  Built into kab's QEMU plugin and into its
 * tests; nothing else of kab's is linked with it.
 */
#ifndef KAB_PLUGIN_COST_H
#define KAB_PLUGIN_COST_H

#include <stdbool.h>
#include <stdint.h>

enum kab_page { KAB_PAGE_4K, KAB_PAGE_2M, KAB_PAGE_1G, KAB_PAGES };

/* The most page-table entries a walk reads (5-level paging). */
#define KAB_WALK_MAX	5

struct kab_cache_geom {
	uint32_t bytes;
	uint32_t ways;
	uint32_t latency;	/* load to use, cycles, of a hit here */
};

struct kab_tlb_geom {
	uint32_t entries;
	uint32_t ways;
};

/* A named core; every set count a power of two. */
struct kab_cost_params {
	const char *name;
	const char *core;	/* what it models, one line */
	struct kab_cache_geom l1d, l2, llc;
	uint32_t mem_latency;
	struct kab_tlb_geom dtlb[KAB_PAGES];
	struct kab_tlb_geom stlb;	/* 4 KiB and 2 MiB pages */
	struct kab_tlb_geom stlb_1g;
	uint32_t stlb_latency;	/* an L1 dTLB miss the STLB hits */
	uint32_t core_milli_cpi;	/* per 1000 instructions, memory aside */
	uint32_t mhz;		/* its clock, for seconds of cycles */
	uint32_t store_hide;	/* a store's miss costs 1/store_hide a load's */
};

/* The models kab knows, NULL past the last; by name, NULL if none. */
const struct kab_cost_params *kab_cost_params_at(unsigned int i);
const struct kab_cost_params *kab_cost_params_find(const char *name);

/*
 * A walk of vaddr from the current page tables: the physical addresses
 * of the entries read, outermost first, the size of the page it ends
 * in and whether the page is global; false if vaddr is not mapped
 * (nothing is filled).
 */
typedef bool (*kab_walk_fn)(void *ctx, uint64_t vaddr,
			    uint64_t pte[KAB_WALK_MAX], unsigned int *n,
			    enum kab_page *page, bool *global);

struct kab_cost_counts {
	uint64_t instructions;
	uint64_t loads, stores;
	uint64_t l1d_misses, l2_misses, llc_misses;
	uint64_t dtlb_load_misses, dtlb_store_misses;	/* L1 dTLB */
	uint64_t load_walks, store_walks;	/* second level missed too */
	uint64_t walk_refs, walk_cycles;
	uint64_t stall_cycles;	/* the walks' included */
};

struct kab_sa;

struct kab_cost {
	const struct kab_cost_params *p;
	struct kab_sa *l1d, *l2, *llc;
	struct kab_sa *dtlb[KAB_PAGES], *stlb, *stlb_1g;
	kab_walk_fn walk;
	void *walk_ctx;
	/* the last access's 4 KiB page and line: hits, and already MRU */
	uint64_t last_vpn, last_line;
	struct kab_cost_counts n;
};

/* 0, or -1 with errno (ENOMEM; EINVAL for a set count not 2^n). */
int kab_cost_init(struct kab_cost *m, const struct kab_cost_params *p,
		  kab_walk_fn walk, void *walk_ctx);
void kab_cost_free(struct kab_cost *m);

void kab_cost_access(struct kab_cost *m, uint64_t vaddr, uint64_t paddr,
		     bool store);
static inline void kab_cost_insns(struct kab_cost *m, uint64_t n)
{
	m->n.instructions += n;
}

/*
 * The TLBs emptied: of all but global pages (a CR3 load), or of every
 * entry; or of one page's entries (INVLPG).
 */
void kab_cost_flush_tlb(struct kab_cost *m, bool globals);
void kab_cost_flush_page(struct kab_cost *m, uint64_t vaddr);
/* Counts back to 0; caches and TLBs keep what they hold. */
void kab_cost_reset(struct kab_cost *m);

/* Cycles of what was counted: the core's, then the stalls. */
uint64_t kab_cost_cycles(const struct kab_cost *m);

#endif
