// SPDX-License-Identifier: GPL-2.0
/*
 * paths.c - where kab's agent and QEMU plugin are, the stop flag, and
 * what QEMU cannot do.
 */
#include <stdio.h>
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

/*
 * icount runs a guest's vCPUs in turn in one thread: QEMU 7.2 never
 * again runs a CPU the boot CPU waits for (the boot stalls at "Booting
 * SMP configuration"); QEMU 10 boots them, the same way every time.
 */
#define ICOUNT_SMP_MAJOR	10

/* The cost model reads registers and guest memory: plugin API 4. */
#define MODEL_MAJOR	10

/* The release of the QEMU a boot would run, and its major, or -1. */
static int qemu_release(char *buf, size_t n)
{
	char *qemu = kab_qemu_find();
	int major = -1;

	buf[0] = '\0';
	if (qemu && !access(qemu, X_OK))
		major = kab_qemu_release(qemu, buf, n);
	free(qemu);
	return major;
}

static const char *release_words(const char *release, char *buf, size_t n)
{
	if (!*release)
		return "a QEMU that does not say its version";
	snprintf(buf, n, "QEMU %s", release);
	return buf;
}

int kab_drv_qemu_check(const struct kab_qemu_opts *q, struct kab_err *err)
{
	char release[64], words[80];

	if (q->model && !kab_cost_known(q->model))
		return kab_err_set(err, "--model '%s': no such model; kab "
				   "models %s", q->model, kab_cost_names());
	if (q->model && q->clock.kind == KAB_CLOCK_WALL)
		return kab_err_set(err, "--model %s with --clock wall: the "
				   "model is exact mode's (TCG, icount); leave "
				   "out --clock wall", q->model);
	if (q->model && qemu_release(release, sizeof(release)) <
	    MODEL_MAJOR)
		return kab_err_set(err, "--model %s: needs QEMU %d or later "
				   "(it reads the guest's registers and "
				   "memory), and this is %s: install QEMU %d "
				   "(bookworm-backports has it)", q->model,
				   MODEL_MAJOR, release_words(release, words,
				   sizeof(words)), MODEL_MAJOR);
	if (q->clock.kind != KAB_CLOCK_ICOUNT || q->smp <= 1)
		return 0;
	if (qemu_release(release, sizeof(release)) >= ICOUNT_SMP_MAJOR)
		return 0;
	return kab_err_set(err, "--smp %d with --clock icount: needs QEMU "
			   "%d or later, and this is %s (its icount boot "
			   "stalls at \"Booting SMP configuration\"): use "
			   "--smp 1, --clock wall for more CPUs, or QEMU %d "
			   "(bookworm-backports has it)", q->smp,
			   ICOUNT_SMP_MAJOR, release_words(release, words,
			   sizeof(words)), ICOUNT_SMP_MAJOR);
}
