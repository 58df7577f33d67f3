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
 * counts its remaining instructions too.  With one TCG thread (icount,
 * or one vCPU) a counter is a 64-bit add inlined into the block; with
 * several threads each vCPU counts in its own slot from a callback.
 *
 * Debian's QEMU exports the plugin API (version 1) but ships no header:
 * the few entry points used are declared here, as QEMU 7.2 defines
 * them.  Nothing of kab's libraries is linked in.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../runner/mark.h"

/* ---- QEMU's plugin API, version 1, as far as kab uses it ---- */

typedef uint64_t qemu_plugin_id_t;
struct qemu_info_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;

enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};

enum qemu_plugin_op {
	QEMU_PLUGIN_INLINE_ADD_U64,
};

typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index,
					    void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags,
					  void *userdata);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
					      enum qemu_plugin_op op,
					      void *ptr, uint64_t imm);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags,
					    void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
void qemu_plugin_outs(const char *string);

#define EXPORT __attribute__((visibility("default")))

EXPORT int qemu_plugin_version = 1;

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
	char line[96];
	int len;

	(void)vcpu;
	for (i = 0; i < (inlined ? 1 : nr_vcpus); i++) {
		n[USER] += __atomic_load_n(&slots[i].n[USER], __ATOMIC_RELAXED);
		n[KERNEL] += __atomic_load_n(&slots[i].n[KERNEL],
					     __ATOMIC_RELAXED);
	}
	len = snprintf(line, sizeof(line), "mark %u %" PRIu64 " %" PRIu64 "\n",
		       (unsigned int)(uintptr_t)udata, n[USER], n[KERNEL]);
	if (out_fd >= 0 && write(out_fd, line, len) != len)
		out_fd = -1;
}

static bool is_mark(const struct qemu_plugin_insn *insn, unsigned int *nn)
{
	const unsigned char *b = qemu_plugin_insn_data(insn);

	if (qemu_plugin_insn_size(insn) != KAB_MARK_LEN || !b ||
	    b[0] != KAB_MARK_B0 || b[1] != KAB_MARK_B1 ||
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
	if (inlined)
		qemu_plugin_register_vcpu_tb_exec_inline(
			tb, QEMU_PLUGIN_INLINE_ADD_U64, &slots[0].n[ring], n);
	else
		qemu_plugin_register_vcpu_tb_exec_cb(
			tb, tb_exec, QEMU_PLUGIN_CB_NO_REGS,
			(void *)(uintptr_t)(n << 1 | ring));
	/* marks are the agent's: user space only */
	for (i = 0; ring == USER && i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		if (is_mark(insn, &nn))
			qemu_plugin_register_vcpu_insn_exec_cb(
				insn, on_mark, QEMU_PLUGIN_CB_NO_REGS,
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
	const char *mode;
	int i;

	(void)info;
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
		} else {
			qemu_plugin_outs("kab-insn: takes out=PATH and "
					 "threads=N\n");
			return -1;
		}
	}
	if (out_fd < 0) {
		qemu_plugin_outs("kab-insn: cannot open its out= file\n");
		return -1;
	}
	inlined = nr_vcpus == 1;
	mode = inlined ? "inline\n" : "percpu\n";
	if (write(out_fd, head, sizeof(head) - 1) < 0 ||
	    write(out_fd, mode, strlen(mode)) < 0)
		return -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	return 0;
}
