// SPDX-License-Identifier: GPL-2.0
/*
 * cost.c - the model of plugin/cost.h: set-associative arrays with LRU
 * replacement for the caches and the TLBs, and what one access costs.
 *
 * An access is translated first: the L1 dTLBs of the three page sizes
 * are looked up together (as hardware does), then the second-level TLB
 * (4 KiB and 2 MiB pages in one array, 1 GiB in its own), then the page
 * tables are walked: each entry the walk reads is a load through L1d,
 * L2 and LLC, paid in full (a walk is serial).  Then the data's line
 * goes through the caches (L1d and L2 filled on a miss, the LLC with
 * what L2 evicts).  A load's stall is its latency past an L1 hit; a
 * store's the same over store_hide (the store buffer hides most of it).
 * Instruction fetch, prefetchers and overlapping misses are not
 * modelled.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"

#define LINE_SHIFT	6

struct kab_sa {
	uint32_t ways;
	uint64_t set_mask;
	uint64_t clock;
	uint64_t *key;	/* key + 1; 0 is an empty way */
	uint64_t *used;	/* clock of the last touch; 0 never */
	bool *global;	/* a TLB's: the entry outlives a CR3 load */
};

static const unsigned int page_shift[KAB_PAGES] = { 12, 21, 30 };

static struct kab_sa *sa_new(uint32_t entries, uint32_t ways)
{
	struct kab_sa *s;
	uint32_t sets;

	if (!ways || !entries || entries % ways) {
		errno = EINVAL;
		return NULL;
	}
	sets = entries / ways;
	if (sets & (sets - 1)) {
		errno = EINVAL;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->ways = ways;
	s->set_mask = sets - 1;
	s->key = calloc(entries, sizeof(*s->key));
	s->used = calloc(entries, sizeof(*s->used));
	s->global = calloc(entries, sizeof(*s->global));
	if (!s->key || !s->used || !s->global) {
		free(s->key);
		free(s->used);
		free(s->global);
		free(s);
		errno = ENOMEM;
		return NULL;
	}
	return s;
}

static void sa_free(struct kab_sa *s)
{
	if (!s)
		return;
	free(s->key);
	free(s->used);
	free(s->global);
	free(s);
}

/*
 * Whether key is in its set (index picks the set); a hit becomes the
 * most recently used.  With fill, a miss takes the least recently used
 * way (an empty one first).
 */
static bool sa_fill(struct kab_sa *s, uint64_t key, uint64_t index,
		    bool fill, uint64_t *victim, bool global)
{
	uint64_t base = (index & s->set_mask) * s->ways;
	uint64_t *k = s->key + base, *u = s->used + base;
	uint32_t i, lru = 0;

	key++;
	for (i = 0; i < s->ways; i++) {
		if (k[i] == key) {
			u[i] = ++s->clock;
			return true;
		}
		if (u[i] < u[lru])
			lru = i;
	}
	if (fill) {
		if (victim)
			*victim = k[lru];	/* key + 1: 0, none */
		k[lru] = key;
		u[lru] = ++s->clock;
		s->global[base + lru] = global;
	}
	return false;
}

static bool sa_touch(struct kab_sa *s, uint64_t key, uint64_t index,
		     bool fill)
{
	return sa_fill(s, key, index, fill, NULL, false);
}

static void sa_drop(struct kab_sa *s, uint64_t key, uint64_t index)
{
	uint64_t base = (index & s->set_mask) * s->ways;
	uint32_t i;

	for (i = 0; i < s->ways; i++)
		if (s->key[base + i] == key + 1) {
			s->key[base + i] = 0;
			s->used[base + i] = 0;
		}
}

/* Empty every way, or every way but the global entries'. */
static void sa_clear(struct kab_sa *s, bool globals)
{
	size_t n = (s->set_mask + 1) * s->ways, i;

	for (i = 0; i < n; i++)
		if (globals || !s->global[i]) {
			s->key[i] = 0;
			s->used[i] = 0;
		}
}

int kab_cost_init(struct kab_cost *m, const struct kab_cost_params *p,
		  kab_walk_fn walk, void *walk_ctx)
{
	const uint32_t line = 1u << LINE_SHIFT;
	int i;

	memset(m, 0, sizeof(*m));
	m->p = p;
	m->walk = walk;
	m->walk_ctx = walk_ctx;
	m->last_vpn = m->last_line = UINT64_MAX;
	m->l1d = sa_new(p->l1d.bytes / line, p->l1d.ways);
	m->l2 = m->l1d ? sa_new(p->l2.bytes / line, p->l2.ways) : NULL;
	m->llc = m->l2 ? sa_new(p->llc.bytes / line, p->llc.ways) : NULL;
	m->stlb = m->llc ? sa_new(p->stlb.entries, p->stlb.ways) : NULL;
	m->stlb_1g = m->stlb ? sa_new(p->stlb_1g.entries, p->stlb_1g.ways) :
			       NULL;
	for (i = 0; m->stlb_1g && i < KAB_PAGES; i++) {
		m->dtlb[i] = sa_new(p->dtlb[i].entries, p->dtlb[i].ways);
		if (!m->dtlb[i])
			break;
	}
	if (!m->dtlb[KAB_PAGES - 1]) {
		int e = errno;

		kab_cost_free(m);
		errno = e;
		return -1;
	}
	return 0;
}

void kab_cost_free(struct kab_cost *m)
{
	int i;

	sa_free(m->l1d);
	sa_free(m->l2);
	sa_free(m->llc);
	sa_free(m->stlb);
	sa_free(m->stlb_1g);
	for (i = 0; i < KAB_PAGES; i++)
		sa_free(m->dtlb[i]);
	memset(m, 0, sizeof(*m));
}

/*
 * The latency of the level that held line.  L1d and L2 are filled on
 * their misses; the LLC holds what L2 evicts and gives a line it hits
 * back to L2 (a victim cache, exclusive of L2, as the LLCs of Skylake
 * server and Sapphire Rapids are, near enough).
 */
static uint32_t line_latency(struct kab_cost *m, uint64_t line)
{
	uint64_t victim = 0;
	bool llc_hit;

	if (sa_touch(m->l1d, line, line, true))
		return m->p->l1d.latency;
	m->n.l1d_misses++;
	if (sa_fill(m->l2, line, line, true, &victim, false))
		return m->p->l2.latency;
	m->n.l2_misses++;
	llc_hit = sa_touch(m->llc, line, line, false);
	if (llc_hit)
		sa_drop(m->llc, line, line);
	if (victim)
		sa_touch(m->llc, victim - 1, victim - 1, true);
	if (llc_hit)
		return m->p->llc.latency;
	m->n.llc_misses++;
	return m->p->mem_latency;
}

/* The second-level TLB's key: the page number and its size. */
static uint64_t stlb_key(uint64_t vaddr, enum kab_page pg)
{
	return (vaddr >> page_shift[pg]) << 2 | pg;
}

/* Fill the TLBs with vaddr's page of size pg. */
static void tlb_fill(struct kab_cost *m, uint64_t vaddr, enum kab_page pg,
		     bool second, bool global)
{
	uint64_t vpn = vaddr >> page_shift[pg];

	sa_fill(m->dtlb[pg], vpn, vpn, true, NULL, global);
	if (!second)
		return;
	if (pg == KAB_PAGE_1G)
		sa_fill(m->stlb_1g, vpn, vpn, true, NULL, global);
	else
		sa_fill(m->stlb, stlb_key(vaddr, pg), vpn, true, NULL, global);
}

/* Is the entry key hits in s global? (it was just touched: it is there) */
static bool sa_global(struct kab_sa *s, uint64_t key, uint64_t index)
{
	uint64_t base = (index & s->set_mask) * s->ways;
	uint32_t i;

	for (i = 0; i < s->ways; i++)
		if (s->key[base + i] == key + 1)
			return s->global[base + i];
	return false;
}

/* false: vaddr is not mapped, and nothing was filled */
static bool translate(struct kab_cost *m, uint64_t vaddr, bool store)
{
	uint64_t pte[KAB_WALK_MAX], cost;
	unsigned int n = 0, i;
	enum kab_page pg;
	bool global = false;

	for (pg = KAB_PAGE_4K; pg < KAB_PAGES; pg++)
		if (sa_touch(m->dtlb[pg], vaddr >> page_shift[pg],
			     vaddr >> page_shift[pg], false))
			return true;
	if (store)
		m->n.dtlb_store_misses++;
	else
		m->n.dtlb_load_misses++;
	m->n.stall_cycles += m->p->stlb_latency;
	for (pg = KAB_PAGE_4K; pg < KAB_PAGES; pg++) {
		uint64_t vpn = vaddr >> page_shift[pg];
		struct kab_sa *s = pg == KAB_PAGE_1G ? m->stlb_1g : m->stlb;
		uint64_t key = pg == KAB_PAGE_1G ? vpn : stlb_key(vaddr, pg);

		if (sa_touch(s, key, vpn, false)) {
			tlb_fill(m, vaddr, pg, false, sa_global(s, key, vpn));
			return true;
		}
	}
	if (store)
		m->n.store_walks++;
	else
		m->n.load_walks++;
	if (!m->walk(m->walk_ctx, vaddr, pte, &n, &pg, &global) ||
	    pg >= KAB_PAGES)
		return false;
	for (cost = 0, i = 0; i < n && i < KAB_WALK_MAX; i++) {
		cost += line_latency(m, pte[i] >> LINE_SHIFT);
		m->n.walk_refs++;
	}
	m->n.walk_cycles += cost;
	m->n.stall_cycles += cost;
	tlb_fill(m, vaddr, pg, true, global);
	return true;
}

void kab_cost_access(struct kab_cost *m, uint64_t vaddr, uint64_t paddr,
		     bool store)
{
	uint64_t vpn = vaddr >> 12, line = paddr >> LINE_SHIFT;

	if (store)
		m->n.stores++;
	else
		m->n.loads++;
	/* the same page and line as the last access: hits, already MRU */
	if (vpn != m->last_vpn) {
		m->last_vpn = translate(m, vaddr, store) ? vpn : UINT64_MAX;
		if (m->last_vpn == UINT64_MAX)
			return;
	}
	if (line != m->last_line) {
		uint32_t stall = line_latency(m, line) - m->p->l1d.latency;

		if (store && m->p->store_hide > 1)
			stall /= m->p->store_hide;
		m->n.stall_cycles += stall;
		m->last_line = line;
	}
}

void kab_cost_flush_tlb(struct kab_cost *m, bool globals)
{
	int i;

	for (i = 0; i < KAB_PAGES; i++)
		sa_clear(m->dtlb[i], globals);
	sa_clear(m->stlb, globals);
	sa_clear(m->stlb_1g, globals);
	m->last_vpn = UINT64_MAX;
}

void kab_cost_flush_page(struct kab_cost *m, uint64_t vaddr)
{
	enum kab_page pg;

	for (pg = KAB_PAGE_4K; pg < KAB_PAGES; pg++) {
		uint64_t vpn = vaddr >> page_shift[pg];

		sa_drop(m->dtlb[pg], vpn, vpn);
		if (pg == KAB_PAGE_1G)
			sa_drop(m->stlb_1g, vpn, vpn);
		else
			sa_drop(m->stlb, stlb_key(vaddr, pg), vpn);
	}
	m->last_vpn = UINT64_MAX;
}

void kab_cost_reset(struct kab_cost *m)
{
	memset(&m->n, 0, sizeof(m->n));
}

uint64_t kab_cost_cycles(const struct kab_cost *m)
{
	return m->n.instructions * m->p->core_milli_cpi / 1000 +
	       m->n.stall_cycles;
}
