// SPDX-License-Identifier: GPL-2.0
/*
 * tlbflush.c - decodes the instructions with which an x86-64 kernel
 * drops TLB entries: a write to cr3 (0f 22 /3), INVLPG m (0f 01 /7,
 * a memory operand) and INVPCID (66 0f 38 82).  INVLPG's operand is
 * decoded from its ModRM, SIB and displacement, so that only its page
 * is dropped; a form not decoded here (RIP-relative, a segment or an
 * address-size prefix) drops as much as a write to cr3.
 */
#include <stdbool.h>

#include "tlbflush.h"

static bool is_segment(unsigned char c)
{
	return c == 0x26 || c == 0x2e || c == 0x36 || c == 0x3e ||
	       c == 0x64 || c == 0x65;
}

/*
 * INVLPG's memory operand from its ModRM at b[i], into f as decode left
 * it (no registers, no displacement); false if not decoded.
 */
static bool operand(const unsigned char *b, size_t n, size_t i,
		    unsigned int rex, struct kab_flush *f)
{
	unsigned int mod = b[i] >> 6, rm = b[i] & 7;
	size_t d = i + 1;
	bool disp32 = mod == 2;

	if (rm == 4) {				/* SIB */
		unsigned int sib;

		if (d >= n)
			return false;
		sib = b[d++];
		f->scale = sib >> 6;
		f->index = ((sib >> 3) & 7) | (rex & 2) << 2;
		if (f->index == 4)		/* no index */
			f->index = KAB_FLUSH_NOREG;
		if ((sib & 7) == 5 && mod == 0)
			disp32 = true;		/* no base */
		else
			f->base = (sib & 7) | (rex & 1) << 3;
	} else if (rm == 5 && mod == 0) {
		return false;			/* RIP-relative */
	} else {
		f->base = rm | (rex & 1) << 3;
	}
	if (mod == 1) {
		if (d >= n)
			return false;
		f->disp = (int8_t)b[d];
	} else if (disp32) {
		if (d + 4 > n)
			return false;
		f->disp = (int32_t)((uint32_t)b[d] | (uint32_t)b[d + 1] << 8 |
				    (uint32_t)b[d + 2] << 16 |
				    (uint32_t)b[d + 3] << 24);
	}
	return true;
}

void kab_flush_decode(const unsigned char *b, size_t n, struct kab_flush *f)
{
	unsigned int rex = 0;
	bool opsize = false, odd = false;
	size_t i = 0;

	f->kind = KAB_FLUSH_NONE;
	f->base = f->index = KAB_FLUSH_NOREG;
	f->scale = 0;
	f->disp = 0;
	for (; i < n; i++) {
		if (b[i] == 0x66)
			opsize = true;
		else if (b[i] == 0x67 || is_segment(b[i]))
			odd = true;
		else
			break;
	}
	if (i < n && (b[i] & 0xf0) == 0x40)	/* REX */
		rex = b[i++] & 0xf;
	if (i + 2 >= n || b[i] != 0x0f)
		return;
	if (b[i + 1] == 0x22 && ((b[i + 2] >> 3) & 7) == 3) {
		f->kind = KAB_FLUSH_CR3;	/* mov %reg, %cr3 */
		f->base = (b[i + 2] & 7) | (rex & 1) << 3;
	} else if (b[i + 1] == 0x01 && ((b[i + 2] >> 3) & 7) == 7 &&
		   (b[i + 2] >> 6) != 3) {
		if (!opsize && !odd && operand(b, n, i + 2, rex, f)) {
			f->kind = KAB_FLUSH_PAGE;
		} else {
			f->kind = KAB_FLUSH_NONGLOBAL;
			/* what operand() set before it gave up */
			f->base = f->index = KAB_FLUSH_NOREG;
			f->scale = 0;
		}
	} else if (opsize && i + 3 < n && b[i + 1] == 0x38 &&
		   b[i + 2] == 0x82) {
		f->kind = KAB_FLUSH_ALL;	/* INVPCID */
	}
}

/* kind 3 bits, base and index 5 each, scale 2, disp the top 32 */
uint64_t kab_flush_pack(const struct kab_flush *f)
{
	return (uint64_t)f->kind | (uint64_t)(f->base & 31) << 3 |
	       (uint64_t)(f->index & 31) << 8 | (uint64_t)(f->scale & 3) << 13 |
	       (uint64_t)(uint32_t)f->disp << 32;
}

void kab_flush_unpack(uint64_t v, struct kab_flush *f)
{
	f->kind = v & 7;
	f->base = (v >> 3) & 31;
	f->index = (v >> 8) & 31;
	f->scale = (v >> 13) & 3;
	f->disp = (int32_t)(uint32_t)(v >> 32);
}
