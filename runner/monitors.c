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

/* The length of the item at p, up to its ',' or the end. */
static size_t item_len(const char *p)
{
	return strchrnul(p, ',') - p;
}

/* Does the item at p (NAME or NAME=VALUE) name monitor name? */
static bool item_is(const char *p, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(p, name, n) && (p[n] == ',' || p[n] == '=' || !p[n]);
}

static const char *next_item(const char *p)
{
	p += item_len(p);
	return *p ? p + 1 : NULL;
}

bool kab_monitor_selected(const char *list, const char *name)
{
	const char *p;

	if (!list)
		return true;
	for (p = list; p && *p; p = next_item(p))
		if (item_is(p, "all") || item_is(p, name))
			return true;
	return false;
}

int kab_monitor_profile_freq(const char *list)
{
	const char *p;

	for (p = list; p && *p; p = next_item(p))
		if (item_is(p, "perf-profile") && p[12] == '=')
			return atoi(p + 13);
	return KAB_PROFILE_FREQ;
}

/*
 * Items: all, none (alone), a monitor's name; perf-profile=HZ, its
 * sampling frequency.  What reaches a guest's command line is only
 * ever these.
 */
char *kab_monitor_check(const char *list)
{
	const char *p;
	int i;

	if (!list || !strcmp(list, "none"))
		return NULL;
	if (!*list)
		return xstrdup("");
	for (p = list; p && *p; p = next_item(p)) {
		size_t n = item_len(p);
		const char *eq = memchr(p, '=', n);

		if (eq && item_is(p, "perf-profile")) {
			char *end;
			long hz = strtol(eq + 1, &end, 10);

			if (end == eq + 1 || end != p + n ||
			    hz < KAB_PROFILE_FREQ_MIN ||
			    hz > KAB_PROFILE_FREQ_MAX)
				return xstrndup(p, n);
			continue;
		}
		if (!eq && n == 3 && item_is(p, "all"))
			continue;
		for (i = 0; kab_monitors[i]; i++)
			if (!eq && n == strlen(kab_monitors[i]->name) &&
			    item_is(p, kab_monitors[i]->name))
				break;
		if (!kab_monitors[i] || eq)
			return xstrndup(p, n);
	}
	/* an empty item: "a,,b" or a trailing ',' */
	return strstr(list, ",,") || list[strlen(list) - 1] == ',' ?
	       xstrdup("") : NULL;
}

char *kab_monitor_names(void)
{
	struct strbuf sb = STRBUF_INIT;
	int i;

	for (i = 0; kab_monitors[i]; i++)
		strbuf_addf(&sb, "%s%s", i ? "," : "", kab_monitors[i]->name);
	return strbuf_detach(&sb);
}
