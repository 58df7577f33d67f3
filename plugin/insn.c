// SPDX-License-Identifier: GPL-2.0
/*
 * insn.c - kab-insn.so, kab's QEMU TCG plugin: counts the instructions
 * the guest executes, user and kernel apart, and writes the counts at
 * each of the agent's marks (runner/mark.h).
 *
 *   qemu-system-x86_64 ... -plugin kab-insn.so,out=/dev/fd/N[,threads=N]
 *
 * threads: the vCPUs TCG runs in threads of their own (MTTCG); 1, the
 * default, when one thread runs them all (icount, or one vCPU).
 *
 * One line per mark executed, after a first line naming the plugin:
 *
 *   kab-insn 1 inline|percpu
 *   mark <nn> <user instructions> <kernel instructions>
 *
 * Counts are whole translated blocks, added as a block starts (QEMU's
 * own counting plugins do the same): a block left early by a fault
 * counts its remaining instructions too.
 *
 * One plugin for both of QEMU's plugin APIs: version 1 (QEMU 7.2 to 8)
 * and versions 2 and later (QEMU 9 on), which no QEMU loads across:
 * each refuses the other's qemu_plugin_version.  The functions only one
 * of them has are weak, and a constructor, run as QEMU opens the
 * plugin and before QEMU reads the version, declares the one whose
 * functions this QEMU exports.  Under version 1, with one TCG thread
 * (icount, or one vCPU) a counter is a 64-bit add inlined into the
 * block; with several threads each vCPU counts in its own slot from a
 * callback.  Under version 2 on, every vCPU adds inline into its own
 * entry of a scoreboard, but for several vCPUs in one thread (icount):
 * QEMU 10.0's inline ops there break the guest (its sha1 self-test
 * fails at boot), so each vCPU counts in its slot from a callback.
 *
 * The API is declared in qemu-api.h.  Nothing of kab's libraries is
 * linked in.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../runner/mark.h"
#include "plugin.h"

#define EXPORT __attribute__((visibility("default")))

EXPORT int qemu_plugin_version = 1;

/* Runs as QEMU opens the plugin, before it reads qemu_plugin_version. */
__attribute__((constructor)) static void declare_version(void)
{
	if (qemu_plugin_scoreboard_new &&
	    qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu &&
	    qemu_plugin_u64_sum)
		qemu_plugin_version = 2;
}

/* ---- counting ---- */

#define MAX_VCPUS	256

enum { USER, KERNEL };

/* One slot per vCPU, a cache line apart; slot 0 alone when inlined. */
struct slot {
	uint64_t n[2];
} __attribute__((aligned(64)));

static struct slot slots[MAX_VCPUS];
static unsigned int nr_vcpus = 1;
static bool inlined = true;
static int out_fd = -1;
/* the API this QEMU speaks (its current version), and its scoreboard */
int kab_api = 1;
static struct qemu_plugin_scoreboard *score;

static qemu_plugin_u64 entry(int ring)
{
	return (qemu_plugin_u64){ score, offsetof(struct slot, n[ring]) };
}

/* x86-64's kernel lives in the upper half of the address space. */
static int ring_of(uint64_t vaddr)
{
	return vaddr >> 63 ? KERNEL : USER;
}

static void tb_exec(unsigned int vcpu, void *udata)
{
	uintptr_t v = (uintptr_t)udata;

	if (vcpu < MAX_VCPUS)
		__atomic_store_n(&slots[vcpu].n[v & 1],
				 slots[vcpu].n[v & 1] + (v >> 1),
				 __ATOMIC_RELAXED);
}

static void on_mark(unsigned int vcpu, void *udata)
{
	uint64_t n[2] = { 0, 0 };
	unsigned int i;
	char line[96], cost[512];
	int len;

	(void)vcpu;
	if (score) {
		n[USER] = qemu_plugin_u64_sum(entry(USER));
		n[KERNEL] = qemu_plugin_u64_sum(entry(KERNEL));
	}
	for (i = 0; !score && i < (inlined ? 1 : nr_vcpus); i++) {
		n[USER] += __atomic_load_n(&slots[i].n[USER], __ATOMIC_RELAXED);
		n[KERNEL] += __atomic_load_n(&slots[i].n[KERNEL],
					     __ATOMIC_RELAXED);
	}
	len = snprintf(line, sizeof(line), "mark %u %" PRIu64 " %" PRIu64 "\n",
		       (unsigned int)(uintptr_t)udata, n[USER], n[KERNEL]);
	if (out_fd >= 0 && write(out_fd, line, len) != len)
		out_fd = -1;
	len = kab_model_mark((unsigned int)(uintptr_t)udata,
			     n[USER] + n[KERNEL], cost, sizeof(cost));
	if (len > 0 && out_fd >= 0 && write(out_fd, cost, len) != len)
		out_fd = -1;
}

size_t kab_insn_bytes(const struct qemu_plugin_insn *insn,
		      unsigned char *buf, size_t len)
{
	size_t n = qemu_plugin_insn_size(insn);
	const void *b;

	if (n > len)
		n = len;
	if (kab_api >= 3) {
		insn_data_v3_t data = (insn_data_v3_t)(void (*)(void))
				      qemu_plugin_insn_data;

		return data(insn, buf, n);
	}
	b = qemu_plugin_insn_data(insn);
	if (!b)
		return 0;
	memcpy(buf, b, n);
	return n;
}

static bool is_mark(const struct qemu_plugin_insn *insn, unsigned int *nn)
{
	unsigned char b[KAB_MARK_LEN];

	if (qemu_plugin_insn_size(insn) != KAB_MARK_LEN ||
	    kab_insn_bytes(insn, b, sizeof(b)) != sizeof(b))
		return false;
	if (b[0] != KAB_MARK_B0 || b[1] != KAB_MARK_B1 ||
	    b[2] != KAB_MARK_B2 || memcmp(b + 4, KAB_MARK_TAG, 3))
		return false;
	*nn = b[3];
	return *nn == KAB_MARK_START || *nn == KAB_MARK_END;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	int ring = ring_of(qemu_plugin_tb_vaddr(tb));
	unsigned int nn;

	(void)id;
	if (score)
		qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(
			tb, QEMU_PLUGIN_INLINE_ADD_U64, entry(ring), n);
	else if (inlined)
		qemu_plugin_register_vcpu_tb_exec_inline(
			tb, QEMU_PLUGIN_INLINE_ADD_U64, &slots[0].n[ring], n);
	else
		qemu_plugin_register_vcpu_tb_exec_cb(
			tb, tb_exec, QEMU_PLUGIN_CB_NO_REGS,
			(void *)(uintptr_t)(n << 1 | ring));
	if (kab_model_on())
		kab_model_tb(tb, ring == KERNEL);
	/* marks are the agent's: user space only */
	for (i = 0; ring == USER && i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		if (is_mark(insn, &nn))
			qemu_plugin_register_vcpu_insn_exec_cb(
				insn, on_mark, kab_model_on() ?
				QEMU_PLUGIN_CB_R_REGS : QEMU_PLUGIN_CB_NO_REGS,
				(void *)(uintptr_t)nn);
	}
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
			       const struct qemu_info_t *info, int argc,
			       char **argv);

int qemu_plugin_install(qemu_plugin_id_t id, const struct qemu_info_t *info,
			int argc, char **argv)
{
	static const char head[] = "kab-insn 1 ";
	const char *mode, *model = NULL;
	int i;

	kab_api = info->version.cur;
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4)) {
			out_fd = open(argv[i] + 4, O_WRONLY | O_CLOEXEC);
		} else if (!strncmp(argv[i], "threads=", 8)) {
			nr_vcpus = strtoul(argv[i] + 8, NULL, 10);
			if (nr_vcpus < 1 || nr_vcpus > MAX_VCPUS) {
				qemu_plugin_outs("kab-insn: threads=N: 1 to "
						 "256\n");
				return -1;
			}
		} else if (!strncmp(argv[i], "model=", 6)) {
			model = argv[i] + 6;
		} else {
			qemu_plugin_outs("kab-insn: takes out=PATH, threads=N "
					 "and model=NAME\n");
			return -1;
		}
	}
	if (out_fd < 0) {
		qemu_plugin_outs("kab-insn: cannot open its out= file\n");
		return -1;
	}
	inlined = nr_vcpus == 1;
	mode = inlined ? "inline\n" : "percpu\n";
	if (qemu_plugin_version >= 2 && inlined && info->system_emulation &&
	    info->system.smp_vcpus > 1) {
		/* several vCPUs in one thread: a slot each, from callbacks */
		if (info->system.smp_vcpus > MAX_VCPUS) {
			qemu_plugin_outs("kab-insn: 256 vCPUs at most\n");
			return -1;
		}
		nr_vcpus = info->system.smp_vcpus;
		inlined = false;
		mode = "percpu\n";
	} else if (qemu_plugin_version >= 2) {
		score = qemu_plugin_scoreboard_new(sizeof(struct slot));
		if (!score)
			return -1;
		mode = "scoreboard\n";
	}
	if (model && kab_model_install(id, info, model))
		return -1;
	if (write(out_fd, head, sizeof(head) - 1) < 0 ||
	    write(out_fd, mode, strlen(mode)) < 0)
		return -1;
	kab_plugin_translate(id);
	return 0;
}

void kab_plugin_translate(qemu_plugin_id_t id)
{
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
}
