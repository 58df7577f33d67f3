/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plugin.h - between the plugin's counting and marks (insn.c) and its
 * cost model of the measured window (model.c).
 */
#ifndef KAB_PLUGIN_H
#define KAB_PLUGIN_H

#include "qemu-api.h"

/* The API version this QEMU speaks (its current one). */
extern int kab_api;

/* Up to len of an instruction's bytes into buf; how many, 0 if none. */
size_t kab_insn_bytes(const struct qemu_plugin_insn *insn,
		      unsigned char *buf, size_t len);

/* Has QEMU translate through the plugin (again, after a reset). */
void kab_plugin_translate(qemu_plugin_id_t id);

/*
 * model=NAME: 0, or -1 having said why with qemu_plugin_outs.  Then
 * each translated block is given to kab_model_tb, and each mark to
 * kab_model_mark with the instructions so far, which at an end mark
 * writes the window's counts as a line ("cost NN name=value ...").
 */
int kab_model_install(qemu_plugin_id_t id, const struct qemu_info_t *info,
		      const char *name);
bool kab_model_on(void);	/* marks' callbacks then read registers */
/* a block's callbacks for the model: none outside the window */
void kab_model_tb(struct qemu_plugin_tb *tb, bool kernel);
int kab_model_mark(unsigned int nn, uint64_t insns, char *line,
		   size_t size);

#endif
