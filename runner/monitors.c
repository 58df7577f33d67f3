// SPDX-License-Identifier: GPL-2.0
/*
 * monitors.c - the table of monitors that run alongside every job.
 */
#include <stdlib.h>
#include <string.h>

#include "runner.h"

extern const struct kab_monitor kab_monitor_vmstat;
extern const struct kab_monitor kab_monitor_meminfo;
extern const struct kab_monitor kab_monitor_numa_vmstat;
extern const struct kab_monitor kab_monitor_numa_meminfo;
extern const struct kab_monitor kab_monitor_interrupts;
extern const struct kab_monitor kab_monitor_softirqs;
extern const struct kab_monitor kab_monitor_perf;
extern const struct kab_monitor kab_monitor_dmesg;
extern const struct kab_monitor kab_monitor_profile;

const struct kab_monitor *const kab_monitors[] = {
	&kab_monitor_vmstat,
	&kab_monitor_meminfo,
	&kab_monitor_numa_vmstat,
	&kab_monitor_numa_meminfo,
	&kab_monitor_interrupts,
	&kab_monitor_softirqs,
	&kab_monitor_perf,
	&kab_monitor_dmesg,
	&kab_monitor_profile,
	NULL,
};

bool kab_monitor_selected(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	if (!list || !strcmp(list, "all"))
		return true;
	for (p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, name, n) && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

char *kab_monitor_check(const char *list)
{
	char *copy, *tok, *save, *bad = NULL;
	int i;

	if (!list || !strcmp(list, "all") || !strcmp(list, "none"))
		return NULL;
	copy = xstrdup(list);
	for (tok = strtok_r(copy, ",", &save); tok && !bad;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; kab_monitors[i]; i++)
			if (!strcmp(kab_monitors[i]->name, tok))
				break;
		if (!kab_monitors[i])
			bad = xstrdup(tok);
	}
	free(copy);
	return bad;
}
