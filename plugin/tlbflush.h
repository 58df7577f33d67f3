/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tlbflush.h - which x86-64 instructions drop TLB entries, decoded from
 * their bytes, and what they drop: the cost model's TLBs follow them.
 */
#ifndef KAB_PLUGIN_TLBFLUSH_H
#define KAB_PLUGIN_TLBFLUSH_H

#include <stddef.h>
#include <stdint.h>

enum kab_flush_kind {
	KAB_FLUSH_NONE,
	KAB_FLUSH_CR3,		/* mov %reg, %cr3: all but global pages */
	KAB_FLUSH_PAGE,		/* INVLPG m: the page holding m */
	KAB_FLUSH_ALL,		/* INVPCID: all, global pages too */
	KAB_FLUSH_NONGLOBAL,	/* INVLPG m where m is not decoded */
};

#define KAB_FLUSH_NOREG	16

/*
 * CR3: base is the source register.  PAGE: the address is base + (index
 * << scale) + disp, a register KAB_FLUSH_NOREG when there is none.
 * Registers by their number in ModRM (rax 0 ... r15 15).
 */
struct kab_flush {
	enum kab_flush_kind kind;
	unsigned int base, index, scale;
	int32_t disp;
};

/* What the instruction in b[0..n) drops: kind KAB_FLUSH_NONE if nothing. */
void kab_flush_decode(const unsigned char *b, size_t n, struct kab_flush *f);

/* The same in a callback's 64-bit user data, and back. */
uint64_t kab_flush_pack(const struct kab_flush *f);
void kab_flush_unpack(uint64_t v, struct kab_flush *f);

#endif
