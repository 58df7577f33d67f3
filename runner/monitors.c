// SPDX-License-Identifier: GPL-2.0
/*
 * monitors.c - the table of monitors that run alongside every job.
 */
#include "runner.h"

extern const struct kab_monitor kab_monitor_vmstat;
extern const struct kab_monitor kab_monitor_meminfo;
extern const struct kab_monitor kab_monitor_perf;

const struct kab_monitor *const kab_monitors[] = {
	&kab_monitor_vmstat,
	&kab_monitor_meminfo,
	&kab_monitor_perf,
	NULL,
};
