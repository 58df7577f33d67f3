// SPDX-License-Identifier: GPL-2.0
/*
 * paths.c - where kab's agent and QEMU plugin are, the stop flag, and
 * what QEMU cannot do.
 */
#include <stdlib.h>
#include <unistd.h>

#include "internal.h"

volatile int kab_stop_requested;

char *kab_drv_agent_path(void)
{
	const char *env = getenv("KAB_AGENT");
	char *dir, *p;

	if (env && *env)
		return xstrdup(env);
	dir = kab_exe_dir();
	if (!dir)
		return xstrdup("kab-agent");
	/* a build tree's agent is beside kab; an installed one in libexec */
	p = xasprintf("%s/kab-agent", dir);
	if (access(p, X_OK)) {
		free(p);
		p = xasprintf("%s/../libexec/kab/kab-agent", dir);
	}
	free(dir);
	return p;
}

char *kab_drv_plugin_path(void)
{
	const char *env = getenv("KAB_PLUGIN");
	char *dir, *p;

	if (env)
		return *env ? xstrdup(env) : NULL;
	dir = kab_exe_dir();
	if (!dir)
		return NULL;
	/* beside kab in a build tree, in libexec once installed */
	p = xasprintf("%s/kab-insn.so", dir);
	if (access(p, R_OK)) {
		free(p);
		p = xasprintf("%s/../libexec/kab/kab-insn.so", dir);
		if (access(p, R_OK)) {
			free(p);
			p = NULL;
		}
	}
	free(dir);
	return p;
}

int kab_drv_qemu_check(const struct kab_qemu_opts *q, struct kab_err *err)
{
	if (q->clock.kind == KAB_CLOCK_ICOUNT && q->smp > 1)
		return kab_err_set(err, "--smp %d with --clock icount: QEMU "
				   "7.2 runs icount's vCPUs in turn in one "
				   "thread and never again runs a CPU the boot "
				   "CPU waits for (the boot stalls at "
				   "\"Booting SMP configuration\"): use --smp "
				   "1, or --clock wall for more CPUs", q->smp);
	return 0;
}
