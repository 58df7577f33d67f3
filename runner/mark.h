/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mark.h - the marks the agent executes at each iteration's start and
 * end, for kab's QEMU plugin (plugin/insn.c) to count instructions
 * between them.
 *
 * A mark is "nopl 0x6b6162NN(%rax)" (0f 1f 80 NN 62 61 6b): a no-op on
 * hardware, and on any machine without the plugin.  NN says which
 * mark it is.  Self-contained: the plugin includes it without kab's
 * libraries.
 */
#ifndef KAB_MARK_H
#define KAB_MARK_H

#define KAB_MARK_START	1
#define KAB_MARK_END	2

/* The instruction's bytes, NN last: 0f 1f 80 NN 62 61 6b. */
#define KAB_MARK_LEN	7
#define KAB_MARK_B0	0x0f
#define KAB_MARK_B1	0x1f
#define KAB_MARK_B2	0x80
#define KAB_MARK_TAG	"bak"	/* bytes 4..6: the displacement's top */

/* KAB_MARK(KAB_MARK_START): the mark itself, where the agent is. */
#if defined(__x86_64__) || defined(__i386__)
#define KAB_MARK_INSN(nn) \
	__asm__ __volatile__(".byte 0x0f, 0x1f, 0x80, " #nn \
			     ", 0x62, 0x61, 0x6b" ::: "memory")
#else
#define KAB_MARK_INSN(nn) do { } while (0)
#endif
#define KAB_MARK(nn) KAB_MARK_INSN(nn)

#endif /* KAB_MARK_H */
