/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fragments.S - kab's own config fragments, in the binary, so that
 * kab build needs nothing from the source tree it was built in.
 */
	.section .rodata
	.global kab_frag_qemu, kab_frag_qemu_end
	.global kab_frag_agent, kab_frag_agent_end
kab_frag_qemu:
	.incbin "kconfigs/qemu-x86_64.config"
kab_frag_qemu_end:
kab_frag_agent:
	.incbin "kconfigs/kab-agent.config"
kab_frag_agent_end:
	.section .note.GNU-stack, "", @progbits
