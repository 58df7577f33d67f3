/* SPDX-License-Identifier: GPL-2.0 */
/*
 * qemu-api.h - QEMU's TCG plugin API as far as kab's plugin uses it,
 * declared here: Debian's QEMU exports the API but ships no header.
 *
 * Version 1 is QEMU 7.2's; versions 2 to 4 are QEMU 9 to 10.0's (2
 * dropped the shared inline counters for per-vCPU scoreboards, 3 copies
 * an instruction's bytes out, 4 reads guest memory).  What only some
 * versions have is weak: NULL in a QEMU without it.  The few GLib
 * functions and types the register and memory reads take are GLib's
 * (QEMU links it).
 */
#ifndef KAB_PLUGIN_QEMU_API_H
#define KAB_PLUGIN_QEMU_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WEAK	__attribute__((weak))

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
struct qemu_plugin_scoreboard;
struct qemu_plugin_hwaddr;
struct qemu_plugin_register;
typedef uint32_t qemu_plugin_meminfo_t;

struct qemu_info_t {
	const char *target_name;
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
};

/* version 2 on: a uint64_t in each vCPU's entry of a scoreboard */
typedef struct {
	struct qemu_plugin_scoreboard *score;
	size_t offset;
} qemu_plugin_u64;

enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};

enum qemu_plugin_mem_rw {
	QEMU_PLUGIN_MEM_R = 1,
	QEMU_PLUGIN_MEM_W,
	QEMU_PLUGIN_MEM_RW,
};

enum qemu_plugin_op {
	QEMU_PLUGIN_INLINE_ADD_U64,
};

typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index,
					    void *userdata);
typedef void (*qemu_plugin_vcpu_simple_cb_t)(qemu_plugin_id_t id,
					     unsigned int vcpu_index);
typedef void (*qemu_plugin_vcpu_mem_cb_t)(unsigned int vcpu_index,
					  qemu_plugin_meminfo_t info,
					  uint64_t vaddr, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags,
					  void *userdata);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags,
					    void *userdata);
void qemu_plugin_register_vcpu_init_cb(qemu_plugin_id_t id,
				       qemu_plugin_vcpu_simple_cb_t cb);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn,
				      qemu_plugin_vcpu_mem_cb_t cb,
				      enum qemu_plugin_cb_flags flags,
				      enum qemu_plugin_mem_rw rw,
				      void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *
qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
void qemu_plugin_outs(const char *string);
bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info);
struct qemu_plugin_hwaddr *qemu_plugin_get_hwaddr(qemu_plugin_meminfo_t info,
						  uint64_t vaddr);
bool qemu_plugin_hwaddr_is_io(const struct qemu_plugin_hwaddr *haddr);
uint64_t qemu_plugin_hwaddr_phys_addr(const struct qemu_plugin_hwaddr *haddr);

/*
 * Versions 1 and 2 return the bytes; version 3 on copies them out,
 * size_t (*)(insn, void *dest, size_t len): called as the QEMU has it.
 */
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
typedef size_t (*insn_data_v3_t)(const struct qemu_plugin_insn *insn,
				 void *dest, size_t len);

/* version 1 only */
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
					      enum qemu_plugin_op op,
					      void *ptr, uint64_t imm) WEAK;

/* version 2 on */
void qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(
	struct qemu_plugin_tb *tb, enum qemu_plugin_op op,
	qemu_plugin_u64 entry, uint64_t imm) WEAK;
struct qemu_plugin_scoreboard *qemu_plugin_scoreboard_new(size_t size) WEAK;
uint64_t qemu_plugin_u64_sum(qemu_plugin_u64 entry) WEAK;

/* GLib's arrays, as the register list and the reads below use them */
typedef struct {
	char *data;
	unsigned int len;
} GArray;
typedef struct {
	uint8_t *data;
	unsigned int len;
} GByteArray;
GByteArray *g_byte_array_new(void);
GByteArray *g_byte_array_set_size(GByteArray *array, unsigned int length);
char *g_array_free(GArray *array, int free_segment);

typedef struct {
	struct qemu_plugin_register *handle;
	const char *name;
	const char *feature;
} qemu_plugin_reg_descriptor;

/* version 2 on: the vCPU's registers, read in a callback that asked */
GArray *qemu_plugin_get_registers(void) WEAK;
int qemu_plugin_read_register(struct qemu_plugin_register *handle,
			      GByteArray *buf) WEAK;

/* every version: drop the plugin's callbacks and the translated code */
typedef void (*qemu_plugin_simple_cb_t)(qemu_plugin_id_t id);
void qemu_plugin_reset(qemu_plugin_id_t id, qemu_plugin_simple_cb_t cb);

/* version 4 on */
bool qemu_plugin_read_memory_vaddr(uint64_t addr, GByteArray *data,
				   size_t len) WEAK;

#endif
