// SPDX-License-Identifier: GPL-2.0
/*
 * test-cost.c - the cost model of exact mode against arithmetic: a walk
 * over N pages gives the TLB misses and walks the model's TLB sizes
 * imply, for 4 KiB and for 2 MiB pages; a stride walk over buffers
 * across L1d, L2 and LLC steps at their sizes; walks read the page
 * tables through the caches; flushes drop what they name; the same
 * accesses count the same.  And the instructions that flush, decoded.
 */
#include <errno.h>

#include "test.h"
#include "../../plugin/cost.h"
#include "../../plugin/tlbflush.h"

#define BASE	(1ULL << 40)	/* 1 GiB aligned */
#define PT	(1ULL << 36)	/* where the page tables are */

/* The page tables of the test: one page size for everything. */
struct pages {
	enum kab_page size;
	unsigned int walks;
	uint64_t global_below;	/* pages below this address are global */
};

static bool walk(void *ctx, uint64_t vaddr, uint64_t pte[KAB_WALK_MAX],
		 unsigned int *n, enum kab_page *page, bool *global)
{
	static const unsigned int shift[] = { 39, 30, 21, 12 };
	struct pages *p = ctx;
	unsigned int levels = 4 - p->size, i;

	/* level i's entries for consecutive pages sit side by side */
	for (i = 0; i < levels; i++)
		pte[i] = PT + ((uint64_t)i << 32) + (vaddr >> shift[i]) * 8;
	*n = levels;
	*page = p->size;
	*global = vaddr < p->global_below;
	p->walks++;
	return true;
}

/* the core the arithmetic below is done for: spr unless set */
static const struct kab_cost_params *core;

static void model(struct kab_cost *m, struct pages *pg, enum kab_page size)
{
	pg->size = size;
	pg->walks = 0;
	pg->global_below = 0;
	assert_int_equal(kab_cost_init(m, core ? core :
				       kab_cost_params_find("spr"), walk, pg),
			 0);
}

/* One load a page, over n pages, rounds times. */
static void chase(struct kab_cost *m, uint64_t n, int rounds)
{
	uint64_t i;
	int r;

	for (r = 0; r < rounds; r++)
		for (i = 0; i < n; i++)
			kab_cost_access(m, BASE + i * 4096 + 128,
					BASE + i * 4096 + 128, false);
}

static void tlb_reach(const struct kab_cost_params *p)
{
	uint64_t l1 = p->dtlb[KAB_PAGE_4K].entries, l2 = p->stlb.entries;
	struct kab_cost m;
	struct pages pg;

	core = p;
	/* within the L1 dTLB: the first round misses, no other */
	model(&m, &pg, KAB_PAGE_4K);
	chase(&m, l1, 4);
	assert_int_equal(m.n.loads, 4 * l1);
	assert_int_equal(m.n.dtlb_load_misses, l1);
	assert_int_equal(m.n.load_walks, l1);
	assert_int_equal(pg.walks, l1);
	kab_cost_free(&m);
	/* past it, within the STLB: every load misses L1, walks once */
	model(&m, &pg, KAB_PAGE_4K);
	chase(&m, 2 * l1, 4);
	assert_int_equal(m.n.dtlb_load_misses, 4 * 2 * l1);
	assert_int_equal(m.n.load_walks, 2 * l1);
	kab_cost_free(&m);
	model(&m, &pg, KAB_PAGE_4K);
	chase(&m, l2, 4);
	assert_int_equal(m.n.load_walks, l2);
	kab_cost_free(&m);
	/* past the STLB: every load walks, four entries each */
	model(&m, &pg, KAB_PAGE_4K);
	chase(&m, 2 * l2, 4);
	assert_int_equal(m.n.load_walks, 4 * 2 * l2);
	assert_int_equal(m.n.walk_refs, 4 * m.n.load_walks);
	assert_int_equal(m.n.dtlb_store_misses + m.n.store_walks, 0);
	kab_cost_free(&m);
	/* the same bytes in 2 MiB pages: one walk a huge page, of three */
	model(&m, &pg, KAB_PAGE_2M);
	chase(&m, 2 * l2, 4);
	assert_int_equal(m.n.load_walks, 2 * l2 / 512);
	assert_int_equal(m.n.dtlb_load_misses, 2 * l2 / 512);
	assert_int_equal(m.n.walk_refs, 3 * m.n.load_walks);
	kab_cost_free(&m);
	core = NULL;
}

/* A core of half spr's sizes: the steps move with them. */
static struct kab_cost_params half(void)
{
	struct kab_cost_params h = *kab_cost_params_find("spr");

	h.name = "half";
	h.l1d.bytes /= 2;
	h.l2.bytes /= 2;
	h.llc.bytes /= 2;
	h.dtlb[KAB_PAGE_4K].entries /= 2;
	h.stlb.entries /= 2;
	return h;
}

static void test_tlb_reach(void **state)
{
	struct kab_cost_params h = half();
	const struct kab_cost_params *p;
	unsigned int i;

	(void)state;
	for (i = 0; (p = kab_cost_params_at(i)); i++)
		tlb_reach(p);
	tlb_reach(&h);
}

/* The arithmetic of the seed's radixsort: huge pages walk less. */
static void test_huge_pages_cost_less(void **state)
{
	const struct kab_cost_params *p = kab_cost_params_find("spr");
	uint64_t n = 4 * p->stlb.entries, c4k, c2m;
	struct kab_cost m;
	struct pages pg;

	(void)state;
	model(&m, &pg, KAB_PAGE_4K);
	chase(&m, n, 3);
	kab_cost_insns(&m, 10 * m.n.loads);
	c4k = kab_cost_cycles(&m);
	assert_true(m.n.walk_cycles >= m.n.walk_refs * p->l1d.latency);
	assert_int_equal(kab_cost_cycles(&m),
			 m.n.instructions * p->core_milli_cpi / 1000 +
			 m.n.stall_cycles);
	kab_cost_free(&m);
	model(&m, &pg, KAB_PAGE_2M);
	chase(&m, n, 3);
	kab_cost_insns(&m, 10 * m.n.loads);
	c2m = kab_cost_cycles(&m);
	kab_cost_free(&m);
	/* same instructions and lines, fewer walks: fewer cycles */
	assert_true(c2m < c4k);
}

/* One load a line over bytes, rounds times, in one 1 GiB page. */
static void stride(struct kab_cost *m, uint64_t bytes, int rounds)
{
	uint64_t i;
	int r;

	for (r = 0; r < rounds; r++)
		for (i = 0; i < bytes; i += 64)
			kab_cost_access(m, BASE + i, BASE + i, false);
}

static void cache_steps(const struct kab_cost_params *p)
{
	uint64_t l1 = p->l1d.bytes, l2 = p->l2.bytes, llc = p->llc.bytes;
	struct kab_cost m;
	struct pages pg;

	core = p;
	/*
	 * up to L1d's size: lines miss once (and so do the walk's two
	 * entries, the oldest lines, out before the data needs their ways)
	 */
	model(&m, &pg, KAB_PAGE_1G);
	stride(&m, l1, 3);
	assert_int_equal(m.n.walk_refs, 2);
	assert_int_equal(m.n.l1d_misses, l1 / 64 + 2);
	assert_int_equal(m.n.llc_misses, l1 / 64 + 2);
	kab_cost_free(&m);
	/* twice L1d, within L2: every line misses L1d, L2 once */
	model(&m, &pg, KAB_PAGE_1G);
	stride(&m, 2 * l1, 3);
	assert_int_equal(m.n.l1d_misses, 3 * 2 * l1 / 64 + 2);
	assert_int_equal(m.n.l2_misses, 2 * l1 / 64 + 2);
	kab_cost_free(&m);
	/* past L2, within L2 and the victim LLC: L2 misses, LLC hits */
	model(&m, &pg, KAB_PAGE_1G);
	stride(&m, l2 + llc, 3);
	assert_int_equal(m.n.l2_misses, 3 * (l2 + llc) / 64 + 2);
	assert_int_equal(m.n.llc_misses, (l2 + llc) / 64 + 2);
	kab_cost_free(&m);
	/* past both: every line from memory */
	model(&m, &pg, KAB_PAGE_1G);
	stride(&m, 2 * (l2 + llc), 3);
	assert_int_equal(m.n.llc_misses, 3 * 2 * (l2 + llc) / 64 + 2);
	/* each at memory's latency past an L1 hit */
	assert_int_equal(m.n.stall_cycles - m.n.walk_cycles -
			 m.n.dtlb_load_misses * p->stlb_latency,
			 (m.n.llc_misses - 2) *
			 (p->mem_latency - p->l1d.latency));
	kab_cost_free(&m);
	core = NULL;
}

static void test_cache_steps(void **state)
{
	struct kab_cost_params h = half();
	const struct kab_cost_params *p;
	unsigned int i;

	(void)state;
	for (i = 0; (p = kab_cost_params_at(i)); i++)
		cache_steps(p);
	cache_steps(&h);
}

/* The sizes doc/exact.md publishes, each model's as Intel gives them. */
static void test_published_sizes(void **state)
{
	static const struct {
		const char *name;
		uint32_t l1d, l1d_ways, l2, llc, dtlb[KAB_PAGES], stlb;
	} pub[] = {
		{ "spr", 48 << 10, 12, 2 << 20, 1920 << 10, { 96, 32, 8 },
		  2048 },
		{ "cpl", 32 << 10, 8, 1 << 20, 1408 << 10, { 64, 32, 4 },
		  1536 },
	};
	unsigned int i, k;

	(void)state;
	for (i = 0; i < sizeof(pub) / sizeof(pub[0]); i++) {
		const struct kab_cost_params *p =
			kab_cost_params_find(pub[i].name);

		assert_non_null(p);
		assert_int_equal(p->l1d.bytes, pub[i].l1d);
		assert_int_equal(p->l1d.ways, pub[i].l1d_ways);
		assert_int_equal(p->l2.bytes, pub[i].l2);
		assert_int_equal(p->llc.bytes, pub[i].llc);
		for (k = 0; k < KAB_PAGES; k++)
			assert_int_equal(p->dtlb[k].entries, pub[i].dtlb[k]);
		assert_int_equal(p->stlb.entries, pub[i].stlb);
	}
}

static void test_stores_and_repeats(void **state)
{
	const struct kab_cost_params *p = kab_cost_params_find("spr");
	struct kab_cost m;
	struct pages pg;
	uint64_t before;

	(void)state;
	model(&m, &pg, KAB_PAGE_1G);
	kab_cost_access(&m, BASE, BASE, true);
	assert_int_equal(m.n.stores, 1);
	assert_int_equal(m.n.dtlb_store_misses, 1);
	assert_int_equal(m.n.store_walks, 1);
	assert_int_equal(m.n.llc_misses, 1 + m.n.walk_refs);
	before = m.n.stall_cycles - m.n.walk_cycles - p->stlb_latency;
	assert_int_equal(before,
			 (p->mem_latency - p->l1d.latency) / p->store_hide);
	/* the same line again: counted, and a hit */
	before = m.n.stall_cycles;
	kab_cost_access(&m, BASE + 8, BASE + 8, false);
	kab_cost_access(&m, BASE + 16, BASE + 16, true);
	assert_int_equal(m.n.loads, 1);
	assert_int_equal(m.n.stores, 2);
	assert_int_equal(m.n.stall_cycles, before);
	assert_int_equal(m.n.l1d_misses, 1 + m.n.walk_refs);
	/* counts back to 0, what the caches hold kept */
	kab_cost_reset(&m);
	kab_cost_access(&m, BASE + 4096, BASE + 64, false);
	assert_int_equal(m.n.loads, 1);
	assert_int_equal(m.n.l1d_misses, 1);
	assert_int_equal(m.n.dtlb_load_misses, 0);
	kab_cost_free(&m);
}

static void test_flushes(void **state)
{
	struct kab_cost m;
	struct pages pg;

	(void)state;
	model(&m, &pg, KAB_PAGE_4K);
	chase(&m, 8, 1);
	assert_int_equal(m.n.load_walks, 8);
	/* one page dropped: it alone walks again */
	kab_cost_flush_page(&m, BASE + 3 * 4096 + 5);
	chase(&m, 8, 1);
	assert_int_equal(m.n.load_walks, 9);
	assert_int_equal(m.n.dtlb_load_misses, 9);
	/* the same page twice running, flushed between */
	kab_cost_access(&m, BASE, BASE, false);
	kab_cost_flush_page(&m, BASE);
	kab_cost_access(&m, BASE, BASE, false);
	assert_int_equal(m.n.load_walks, 10);
	/* all dropped: every page walks */
	kab_cost_flush_tlb(&m, false);
	chase(&m, 8, 1);
	assert_int_equal(m.n.load_walks, 18);
	kab_cost_free(&m);
	/*
	 * global pages (the first 3 here) outlive a CR3 load, in the L1
	 * dTLB and in the STLB, but not a flush of everything
	 */
	model(&m, &pg, KAB_PAGE_4K);
	pg.global_below = BASE + 3 * 4096;
	chase(&m, 8, 1);
	kab_cost_flush_tlb(&m, false);
	chase(&m, 8, 1);
	assert_int_equal(m.n.load_walks, 8 + 5);
	assert_int_equal(m.n.dtlb_load_misses, 8 + 5);
	/* out of the L1 dTLB, still in the STLB, still global */
	chase(&m, 2 * kab_cost_params_find("spr")->dtlb[0].entries, 1);
	kab_cost_reset(&m);
	kab_cost_flush_tlb(&m, false);
	chase(&m, 3, 1);
	assert_int_equal(m.n.dtlb_load_misses, 3);
	assert_int_equal(m.n.load_walks, 0);
	/* refilled from the STLB, each is global in the L1 dTLB too */
	kab_cost_reset(&m);
	kab_cost_flush_tlb(&m, false);
	chase(&m, 3, 1);
	assert_int_equal(m.n.dtlb_load_misses, 0);
	kab_cost_flush_tlb(&m, true);
	chase(&m, 8, 1);
	assert_int_equal(m.n.load_walks, 8);
	kab_cost_free(&m);
	/* a huge page is dropped by any address in it */
	model(&m, &pg, KAB_PAGE_2M);
	chase(&m, 8, 1);
	kab_cost_flush_page(&m, BASE + 7 * 4096);
	kab_cost_access(&m, BASE + 4096 * 2, BASE, false);
	assert_int_equal(m.n.load_walks, 2);
	kab_cost_free(&m);
	/* and a 1 GiB page */
	model(&m, &pg, KAB_PAGE_1G);
	chase(&m, 8, 1);
	kab_cost_flush_page(&m, BASE + (1 << 29));
	chase(&m, 1, 1);
	assert_int_equal(m.n.load_walks, 2);
	assert_int_equal(m.n.walk_refs, 2 * 2);
	kab_cost_free(&m);
}

/* No mapping: the walk fails, nothing is filled, nothing goes on. */
static bool unmapped(void *ctx, uint64_t vaddr, uint64_t pte[KAB_WALK_MAX],
		     unsigned int *n, enum kab_page *page, bool *global)
{
	(void)ctx;
	(void)vaddr;
	(void)pte;
	(void)page;
	(void)global;
	*n = 0;
	return false;
}

static void test_unmapped(void **state)
{
	struct kab_cost m;

	(void)state;
	assert_int_equal(kab_cost_init(&m, kab_cost_params_find("cpl"),
				       unmapped, NULL), 0);
	kab_cost_access(&m, BASE, BASE, false);
	kab_cost_access(&m, BASE, BASE, false);
	assert_int_equal(m.n.load_walks, 2);
	assert_int_equal(m.n.l1d_misses, 0);
	kab_cost_free(&m);
}

/* A walker that answers a page size that is none. */
static bool bad_size(void *ctx, uint64_t vaddr, uint64_t pte[KAB_WALK_MAX],
		     unsigned int *n, enum kab_page *page, bool *global)
{
	(void)ctx;
	(void)vaddr;
	(void)global;
	pte[0] = PT;
	*n = 1;
	*page = KAB_PAGES;
	return true;
}

/* The first access and the first after a flush are no repeats. */
static void test_firsts(void **state)
{
	struct kab_cost m;
	struct pages pg;

	(void)state;
	/* physical line 0 and virtual page 0 are lines and pages too */
	model(&m, &pg, KAB_PAGE_4K);
	kab_cost_access(&m, 0, 0, false);
	assert_int_equal(m.n.load_walks, 1);
	assert_int_equal(m.n.l1d_misses, 1 + m.n.walk_refs);
	kab_cost_free(&m);
	/* the same page again after a CR3 load walks again */
	model(&m, &pg, KAB_PAGE_4K);
	kab_cost_access(&m, BASE, BASE, false);
	kab_cost_flush_tlb(&m, false);
	kab_cost_access(&m, BASE + 8, BASE + 8, false);
	assert_int_equal(m.n.load_walks, 2);
	kab_cost_free(&m);
	/* a size that is none fills nothing: the page walks each time */
	assert_int_equal(kab_cost_init(&m, kab_cost_params_find("spr"),
				       bad_size, NULL), 0);
	kab_cost_access(&m, BASE, BASE, false);
	kab_cost_access(&m, BASE + 4096, BASE, false);
	kab_cost_access(&m, BASE, BASE, false);
	assert_int_equal(m.n.load_walks, 3);
	assert_int_equal(m.n.walk_refs, 0);
	kab_cost_free(&m);
}

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void test_deterministic(void **state)
{
	struct kab_cost a, b;
	struct pages pa, pb;
	unsigned int k;
	uint64_t sa = 42, sb = 42;

	(void)state;
	model(&a, &pa, KAB_PAGE_4K);
	model(&b, &pb, KAB_PAGE_4K);
	for (k = 0; k < 200000; k++) {
		uint64_t va = BASE + xorshift(&sa) % (64 << 20);
		uint64_t vb = BASE + xorshift(&sb) % (64 << 20);

		kab_cost_access(&a, va, va, k & 1);
		kab_cost_access(&b, vb, vb, k & 1);
	}
	assert_memory_equal(&a.n, &b.n, sizeof(a.n));
	assert_true(a.n.load_walks > 0 && a.n.llc_misses > 0);
	kab_cost_free(&a);
	kab_cost_free(&b);
}

static void test_cores(void **state)
{
	struct kab_cost_params bad = *kab_cost_params_find("spr");
	const struct kab_cost_params *p;
	struct kab_cost m;
	unsigned int i;

	(void)state;
	for (i = 0; (p = kab_cost_params_at(i)); i++) {
		assert_ptr_equal(kab_cost_params_find(p->name), p);
		assert_int_equal(kab_cost_init(&m, p, walk, NULL), 0);
		kab_cost_free(&m);
	}
	assert_true(i >= 2);
	assert_null(kab_cost_params_find("skylake"));
	/* 12 ways of 96 entries: 8 sets; 7 ways: not whole sets */
	bad.dtlb[KAB_PAGE_4K].ways = 7;
	errno = 0;
	assert_int_equal(kab_cost_init(&m, &bad, walk, NULL), -1);
	assert_int_equal(errno, EINVAL);
	/* 6 sets: not a power of two */
	bad.dtlb[KAB_PAGE_4K].ways = 16;
	assert_int_equal(kab_cost_init(&m, &bad, walk, NULL), -1);
}

/* bytes, what they drop, and INVLPG's operand or cr3's source */
static const struct {
	const char *name;
	unsigned char b[12];
	size_t n;
	enum kab_flush_kind kind;
	unsigned int base, index, scale;
	int32_t disp;
} flushes[] = {
	{ "mov %rax,%cr3", { 0x0f, 0x22, 0xd8 }, 3, KAB_FLUSH_CR3, 0,
	  KAB_FLUSH_NOREG, 0, 0 },
	{ "mov %r15,%cr3", { 0x41, 0x0f, 0x22, 0xdf }, 4, KAB_FLUSH_CR3, 15,
	  KAB_FLUSH_NOREG, 0, 0 },
	{ "mov %rax,%cr4", { 0x0f, 0x22, 0xe0 }, 3, KAB_FLUSH_NONE,
	  KAB_FLUSH_NOREG, KAB_FLUSH_NOREG, 0, 0 },
	{ "invlpg (%rdi)", { 0x0f, 0x01, 0x3f }, 3, KAB_FLUSH_PAGE, 7,
	  KAB_FLUSH_NOREG, 0, 0 },
	{ "invlpg (%r8)", { 0x41, 0x0f, 0x01, 0x38 }, 4, KAB_FLUSH_PAGE, 8,
	  KAB_FLUSH_NOREG, 0, 0 },
	{ "invlpg 0x8(%rsp)", { 0x0f, 0x01, 0x7c, 0x24, 0x08 }, 5,
	  KAB_FLUSH_PAGE, 4, KAB_FLUSH_NOREG, 0, 8 },
	{ "invlpg -0x10(%rbp)", { 0x0f, 0x01, 0x7d, 0xf0 }, 4,
	  KAB_FLUSH_PAGE, 5, KAB_FLUSH_NOREG, 0, -16 },
	{ "invlpg 0x1000(%rbx,%rax,8)",
	  { 0x0f, 0x01, 0xbc, 0xc3, 0x00, 0x10, 0x00, 0x00 }, 8,
	  KAB_FLUSH_PAGE, 3, 0, 3, 4096 },
	{ "invlpg -0x10(,%r8,4)",
	  { 0x42, 0x0f, 0x01, 0x3c, 0x85, 0xf0, 0xff, 0xff, 0xff }, 9,
	  KAB_FLUSH_PAGE, KAB_FLUSH_NOREG, 8, 2, -16 },
	{ "invlpg 0x12345678(%rbx)",
	  { 0x0f, 0x01, 0xbb, 0x78, 0x56, 0x34, 0x12 }, 7, KAB_FLUSH_PAGE,
	  3, KAB_FLUSH_NOREG, 0, 0x12345678 },
	{ "invlpg (%r12,%r13,2)", { 0x43, 0x0f, 0x01, 0x3c, 0x6c }, 5,
	  KAB_FLUSH_PAGE, 12, 13, 1, 0 },
	/* not decoded: as much as a write to cr3 */
	{ "invlpg 0x0(%rip)", { 0x0f, 0x01, 0x3d, 0, 0, 0, 0 }, 7,
	  KAB_FLUSH_NONGLOBAL, KAB_FLUSH_NOREG, KAB_FLUSH_NOREG, 0, 0 },
	{ "invlpg %gs:(%rax)", { 0x65, 0x0f, 0x01, 0x38 }, 4,
	  KAB_FLUSH_NONGLOBAL, KAB_FLUSH_NOREG, KAB_FLUSH_NOREG, 0, 0 },
	{ "invlpg (%eax)", { 0x67, 0x0f, 0x01, 0x38 }, 4,
	  KAB_FLUSH_NONGLOBAL, KAB_FLUSH_NOREG, KAB_FLUSH_NOREG, 0, 0 },
	{ "invlpg 0x8(%rsp), cut short", { 0x0f, 0x01, 0x7c, 0x24 }, 4,
	  KAB_FLUSH_NONGLOBAL, KAB_FLUSH_NOREG, KAB_FLUSH_NOREG, 0, 0 },
	{ "invlpg 0x1000(%rbx), cut short", { 0x0f, 0x01, 0xbb, 0x00, 0x10 },
	  5, KAB_FLUSH_NONGLOBAL, KAB_FLUSH_NOREG, KAB_FLUSH_NOREG, 0, 0 },
	{ "invlpg 0x12345678(%rbx), a byte short",
	  { 0x0f, 0x01, 0xbb, 0x78, 0x56, 0x34 }, 6, KAB_FLUSH_NONGLOBAL,
	  KAB_FLUSH_NOREG, KAB_FLUSH_NOREG, 0, 0 },
	{ "invlpg 0x8(%rbx,%rax,8), cut short", { 0x0f, 0x01, 0x7c, 0xc3 }, 4,
	  KAB_FLUSH_NONGLOBAL, KAB_FLUSH_NOREG, KAB_FLUSH_NOREG, 0, 0 },
	{ "prefixes alone", { 0x66, 0x3e, 0x67 }, 3, KAB_FLUSH_NONE,
	  KAB_FLUSH_NOREG, KAB_FLUSH_NOREG, 0, 0 },
	{ "invlpg (%rax,%rcx,8), no SIB", { 0x0f, 0x01, 0x3c }, 3,
	  KAB_FLUSH_NONGLOBAL, KAB_FLUSH_NOREG, KAB_FLUSH_NOREG, 0, 0 },
	{ "swapgs", { 0x0f, 0x01, 0xf8 }, 3, KAB_FLUSH_NONE,
	  KAB_FLUSH_NOREG, KAB_FLUSH_NOREG, 0, 0 },
	{ "invpcid (%rdi),%rax", { 0x66, 0x0f, 0x38, 0x82, 0x07 }, 5,
	  KAB_FLUSH_ALL, KAB_FLUSH_NOREG, KAB_FLUSH_NOREG, 0, 0 },
	{ "0f 38 82 without 66", { 0x0f, 0x38, 0x82, 0x07 }, 4,
	  KAB_FLUSH_NONE, KAB_FLUSH_NOREG, KAB_FLUSH_NOREG, 0, 0 },
	{ "invlpg %ds:(%rax), 5 prefixes",
	  { 0x3e, 0x3e, 0x3e, 0x3e, 0x3e, 0x0f, 0x01, 0x38 }, 8,
	  KAB_FLUSH_NONGLOBAL, KAB_FLUSH_NOREG, KAB_FLUSH_NOREG, 0, 0 },
	{ "nop", { 0x90 }, 1, KAB_FLUSH_NONE, KAB_FLUSH_NOREG,
	  KAB_FLUSH_NOREG, 0, 0 },
};

static void test_flush_decode(void **state)
{
	struct kab_flush f, g;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(flushes) / sizeof(flushes[0]); i++) {
		/* a copy of exactly its bytes: ASan sees a read past them */
		unsigned char *b = malloc(flushes[i].n);

		assert_non_null(b);
		memcpy(b, flushes[i].b, flushes[i].n);
		print_message("%s\n", flushes[i].name);
		kab_flush_decode(b, flushes[i].n, &f);
		free(b);
		assert_int_equal(f.kind, flushes[i].kind);
		assert_int_equal(f.base, flushes[i].base);
		assert_int_equal(f.index, flushes[i].index);
		assert_int_equal(f.scale, flushes[i].scale);
		assert_int_equal(f.disp, flushes[i].disp);
		/* through a callback's user data and back */
		kab_flush_unpack(kab_flush_pack(&f), &g);
		assert_int_equal(g.kind, f.kind);
		assert_int_equal(g.base, f.base);
		assert_int_equal(g.index, f.index);
		assert_int_equal(g.scale, f.scale);
		assert_int_equal(g.disp, f.disp);
	}
	/* the CR3 kind's register survives packing too */
	kab_flush_decode(flushes[1].b, flushes[1].n, &f);
	kab_flush_unpack(kab_flush_pack(&f), &g);
	assert_int_equal(g.kind, KAB_FLUSH_CR3);
	assert_int_equal(g.base, 15);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tlb_reach),
		cmocka_unit_test(test_huge_pages_cost_less),
		cmocka_unit_test(test_cache_steps),
		cmocka_unit_test(test_published_sizes),
		cmocka_unit_test(test_stores_and_repeats),
		cmocka_unit_test(test_flushes),
		cmocka_unit_test(test_unmapped),
		cmocka_unit_test(test_firsts),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_cores),
		cmocka_unit_test(test_flush_decode),
	};

	return cmocka_run_group_tests(tests, 0, NULL);
}
