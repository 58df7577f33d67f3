// SPDX-License-Identifier: GPL-2.0
/*
 * model.c - the plugin's cost model of the measured window
 * (model=NAME): every load and store the guest makes between the
 * agent's start and end marks goes through plugin/cost.c with its
 * virtual and physical address; the TLBs are filled by walking the
 * guest's own page tables, so a page's size is the one the guest gave
 * it.  Needs QEMU's plugin API 4 (QEMU 10): registers (cr3, cr4) and
 * guest memory.
 *
 * The page tables are read through the kernel's direct map of physical
 * memory, whose base KASLR moves: the plugin finds it from the kernel's
 * own accesses (a virtual address less its physical one, 1 GiB aligned,
 * in the range the direct map has under 4- or 5-level paging, below
 * vmalloc's and far below the kernel image's map) and keeps a candidate
 * only once a walk through it from cr3 ends at the physical address
 * QEMU gave for that access.
 *
 * Only the window's code carries the model's callbacks, and the code
 * run before the direct map is found: at each mark the plugin has QEMU
 * drop its translated code (qemu_plugin_reset), so that blocks are
 * translated again with or without them.  Boots and the time between
 * windows run at the speed of instruction counting alone.
 *
 * The TLBs drop entries as the guest kernel says (tlbflush.c): a write
 * to cr3 all but global pages' (none when its value has bit 63 set, as
 * Linux switches PCIDs it has kept), INVLPG its page's, INVPCID all.
 * Entries carry no PCID: one kept across a switch serves the next
 * process too.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cost.h"
#include "plugin.h"
#include "tlbflush.h"

#define GIB		(1ULL << 30)
/* where a direct map can start: 5-level's lowest, 4-level's highest */
#define DIRECT_LO	0xff11000000000000ULL
#define DIRECT_HI	0xffffc88000000000ULL
#define PHYS_MASK	0x000ffffffffff000ULL
#define CR4_LA57	(1ULL << 12)
#define CR3_NOFLUSH	(1ULL << 63)
#define PTE_GLOBAL	(1ULL << 8)
#define MAX_TRIES	64

static struct kab_cost model;
static qemu_plugin_id_t plugin_id;
static bool enabled, in_window;
/* a reset asked of QEMU and not done yet; another one wanted after it */
static bool resetting, reset_again;
static uint64_t direct_base, window_start;
/*
 * The page tables' root and paging depth, read at each start mark and
 * followed through every write to cr3, so that the memory callbacks
 * need no registers (TCG then keeps the guest's in host registers).
 */
static uint64_t cr3;
static int levels = 4;
/* kernel accesses that may show the direct map, tried at a mark */
static struct {
	uint64_t base, vaddr, paddr;
} cand[MAX_TRIES];
static unsigned int n_cand;
static struct qemu_plugin_register *reg_cr3, *reg_cr4;
static GByteArray *buf;

/* the general registers by their number in a ModRM byte (REX.B on) */
static const char *const gpr_names[16] = {
	"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
};
static struct qemu_plugin_register *gpr[16];

bool kab_model_on(void)
{
	return enabled;
}

static void vcpu_init(qemu_plugin_id_t id, unsigned int vcpu)
{
	GArray *regs;
	unsigned int i;

	(void)id;
	(void)vcpu;
	if (reg_cr3)
		return;
	regs = qemu_plugin_get_registers();
	for (i = 0; regs && i < regs->len; i++) {
		qemu_plugin_reg_descriptor *d =
			&((qemu_plugin_reg_descriptor *)regs->data)[i];

		unsigned int r;

		if (!strcmp(d->name, "cr3"))
			reg_cr3 = d->handle;
		else if (!strcmp(d->name, "cr4"))
			reg_cr4 = d->handle;
		for (r = 0; r < 16; r++)
			if (!strcmp(d->name, gpr_names[r]))
				gpr[r] = d->handle;
	}
	if (regs)
		g_array_free(regs, 1);
}

static uint64_t read_reg(struct qemu_plugin_register *r)
{
	uint64_t v = 0;
	int n;

	if (!r)
		return 0;
	g_byte_array_set_size(buf, 0);
	n = qemu_plugin_read_register(r, buf);
	if (n > 0)
		memcpy(&v, buf->data, n < 8 ? (size_t)n : 8);
	return v;
}

static bool read_phys(uint64_t base, uint64_t pa, uint64_t *v)
{
	g_byte_array_set_size(buf, 0);
	if (!qemu_plugin_read_memory_vaddr(base + pa, buf, 8) || buf->len < 8)
		return false;
	memcpy(v, buf->data, 8);
	return true;
}

/*
 * Walk vaddr from cr3, reading the tables at base + their physical
 * address: the entries read, the page's size and vaddr's physical
 * address; false if a level is not present or cannot be read.
 */
static bool walk_at(uint64_t base, uint64_t vaddr, uint64_t *pte,
		    unsigned int *n, enum kab_page *page, uint64_t *pa,
		    bool *global)
{
	uint64_t table = cr3 & PHYS_MASK, e = 0;
	int l;

	*n = 0;
	for (l = 0; l < levels; l++) {
		unsigned int shift = 12 + 9 * (levels - 1 - l);
		uint64_t at = table + ((vaddr >> shift) & 511) * 8;

		pte[(*n)++] = at;
		if (!read_phys(base, at, &e) || !(e & 1))
			return false;
		if ((shift == 30 || shift == 21) && (e & 0x80)) {
			uint64_t off = vaddr & ((1ULL << shift) - 1);

			*page = shift == 30 ? KAB_PAGE_1G : KAB_PAGE_2M;
			*pa = (e & PHYS_MASK & ~((1ULL << shift) - 1)) | off;
			*global = e & PTE_GLOBAL;
			return true;
		}
		table = e & PHYS_MASK;
	}
	*page = KAB_PAGE_4K;
	*pa = table | (vaddr & 0xfff);
	*global = e & PTE_GLOBAL;
	return true;
}

static bool walk(void *ctx, uint64_t vaddr, uint64_t pte[KAB_WALK_MAX],
		 unsigned int *n, enum kab_page *page, bool *global)
{
	uint64_t pa;

	(void)ctx;
	*n = 0;
	return direct_base &&
	       walk_at(direct_base, vaddr, pte, n, page, &pa, global);
}

/* A kernel access: might it show where the direct map is?  true if new */
static bool note_candidate(uint64_t vaddr, uint64_t paddr)
{
	uint64_t base = vaddr - paddr;
	unsigned int i;

	if (base % GIB || base < DIRECT_LO || base >= DIRECT_HI ||
	    n_cand >= MAX_TRIES)
		return false;
	for (i = 0; i < n_cand; i++)
		if (cand[i].base == base)
			return false;
	cand[n_cand].base = base;
	cand[n_cand].vaddr = vaddr;
	cand[n_cand].paddr = paddr;
	n_cand++;
	return true;
}

/*
 * The first candidate through which a walk from cr3 ends at the
 * physical address QEMU gave is the direct map (the kernel's half of
 * every page table is the same).  Tried as candidates come and at
 * marks, where cr3 and cr4 are read afresh.
 */
static void find_direct_map(void)
{
	uint64_t pte[KAB_WALK_MAX], pa;
	enum kab_page page;
	unsigned int i, n;
	bool global;

	for (i = 0; !direct_base && i < n_cand; i++)
		if (walk_at(cand[i].base, cand[i].vaddr, pte, &n, &page, &pa,
			    &global) && pa == cand[i].paddr)
			direct_base = cand[i].base;
}

static void on_reset(qemu_plugin_id_t id)
{
	resetting = false;
	kab_plugin_translate(id);
}

/*
 * Has QEMU translate every block again, with the model's callbacks or
 * without them as the window and the direct map now want; a reset
 * asked while one is under way (QEMU ignores it) is asked again at the
 * next translation or mark.
 */
static void retranslate(void)
{
	if (resetting) {
		reset_again = true;
		return;
	}
	resetting = true;
	reset_again = false;
	qemu_plugin_reset(plugin_id, on_reset);
}

static void on_mem(unsigned int vcpu, qemu_plugin_meminfo_t info,
		   uint64_t vaddr, void *udata)
{
	struct qemu_plugin_hwaddr *hw;
	uint64_t paddr;

	(void)vcpu;
	(void)udata;
	if (!in_window && direct_base)
		return;
	hw = qemu_plugin_get_hwaddr(info, vaddr);
	if (!hw || qemu_plugin_hwaddr_is_io(hw))
		return;
	paddr = qemu_plugin_hwaddr_phys_addr(hw);
	if (!direct_base && vaddr >> 63 && note_candidate(vaddr, paddr)) {
		find_direct_map();
		/* found: the code outside the window needs none of this */
		if (direct_base && !in_window)
			retranslate();
	}
	if (in_window)
		kab_cost_access(&model, vaddr, paddr,
				qemu_plugin_mem_is_store(info));
}

/* A general register's value, 0 for none. */
static uint64_t gpr_value(unsigned int r)
{
	return r < 16 ? read_reg(gpr[r]) : 0;
}

/*
 * Runs before an instruction that drops TLB entries (tlbflush.c).  A
 * CR3 load keeps the TLBs when its value asks (bit 63, with PCIDs),
 * else drops all but global pages; an INVLPG drops its page's entries;
 * INVPCID drops all.
 */
static void on_flush(unsigned int vcpu, void *udata)
{
	struct kab_flush f;

	(void)vcpu;
	kab_flush_unpack((uintptr_t)udata, &f);
	if (f.kind == KAB_FLUSH_CR3) {
		uint64_t value = gpr_value(f.base);

		cr3 = value & ~CR3_NOFLUSH;
		/* candidates seen before the tables were known: again */
		if (!direct_base) {
			find_direct_map();
			if (direct_base && !in_window)
				retranslate();
		}
		if (value & CR3_NOFLUSH)
			return;
	} else if (f.kind == KAB_FLUSH_PAGE) {
		kab_cost_flush_page(&model, gpr_value(f.base) +
				    (gpr_value(f.index) << f.scale) +
				    (int64_t)f.disp);
		return;
	}
	kab_cost_flush_tlb(&model, f.kind == KAB_FLUSH_ALL);
}

void kab_model_tb(struct qemu_plugin_tb *tb, bool kernel)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;

	if (reset_again && !resetting)
		retranslate();
	/* before the direct map is found, the kernel's accesses show it */
	if (!in_window && (direct_base || !kernel))
		return;
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		unsigned char b[16];
		struct kab_flush f;
		size_t len;

		qemu_plugin_register_vcpu_mem_cb(insn, on_mem,
						 QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW, NULL);
		if (!kernel)
			continue;
		len = kab_insn_bytes(insn, b, sizeof(b));
		kab_flush_decode(b, len, &f);
		if (f.kind != KAB_FLUSH_NONE)
			qemu_plugin_register_vcpu_insn_exec_cb(
				insn, on_flush, QEMU_PLUGIN_CB_R_REGS,
				(void *)(uintptr_t)kab_flush_pack(&f));
	}
}

int kab_model_mark(unsigned int nn, uint64_t insns, char *line, size_t size)
{
	const struct kab_cost_counts *c = &model.n;

	if (!enabled)
		return 0;
	/* a mark's callback may read registers (kab_model_on) */
	cr3 = read_reg(reg_cr3);
	levels = read_reg(reg_cr4) & CR4_LA57 ? 5 : 4;
	find_direct_map();
	if (!in_window) {
		kab_cost_reset(&model);
		window_start = insns;
		in_window = true;
		retranslate();
		return 0;
	}
	in_window = false;
	retranslate();
	model.n.instructions = insns - window_start;
	return snprintf(line, size,
			"cost %u model=%s mhz=%u direct_map=%d cycles=%" PRIu64
			" instructions=%" PRIu64 " loads=%" PRIu64
			" stores=%" PRIu64 " l1d_misses=%" PRIu64
			" l2_misses=%" PRIu64 " llc_misses=%" PRIu64
			" dtlb_load_misses=%" PRIu64
			" dtlb_store_misses=%" PRIu64 " load_walks=%" PRIu64
			" store_walks=%" PRIu64 " walk_refs=%" PRIu64
			" walk_cycles=%" PRIu64 "\n",
			nn, model.p->name, model.p->mhz, direct_base != 0,
			kab_cost_cycles(&model), c->instructions, c->loads,
			c->stores, c->l1d_misses, c->l2_misses, c->llc_misses,
			c->dtlb_load_misses, c->dtlb_store_misses,
			c->load_walks, c->store_walks, c->walk_refs,
			c->walk_cycles);
}

int kab_model_install(qemu_plugin_id_t id, const struct qemu_info_t *info,
		      const char *name)
{
	const struct kab_cost_params *p = kab_cost_params_find(name);

	if (!p) {
		qemu_plugin_outs("kab-insn: model=NAME: no such model\n");
		return -1;
	}
	if (info->version.cur < 4 || !qemu_plugin_get_registers ||
	    !qemu_plugin_read_register || !qemu_plugin_read_memory_vaddr) {
		qemu_plugin_outs("kab-insn: model= needs QEMU's plugin API 4 "
				 "(QEMU 10)\n");
		return -1;
	}
	buf = g_byte_array_new();
	if (!buf || kab_cost_init(&model, p, walk, NULL)) {
		qemu_plugin_outs("kab-insn: out of memory for the model\n");
		return -1;
	}
	qemu_plugin_register_vcpu_init_cb(id, vcpu_init);
	plugin_id = id;
	enabled = true;
	return 0;
}
