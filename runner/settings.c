// SPDX-License-Identifier: GPL-2.0
/*
 * settings.c - the system settings a job may ask for, as lkp's setup
 * steps do: THP's enabled and defrag modes, dropping caches.  They are
 * applied on the machine under test only when kab owns it (a guest);
 * kab never changes the machine it runs on.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner.h"

const struct kab_pdesc kab_system_params[] = {
	{ "thp_enabled", KAB_P_CHOICE, NULL, "always|madvise|never",
	  "/sys/kernel/mm/transparent_hugepage/enabled" },
	{ "thp_defrag", KAB_P_CHOICE, NULL,
	  "always|defer|defer+madvise|madvise|never",
	  "/sys/kernel/mm/transparent_hugepage/defrag" },
	{ "drop_caches", KAB_P_CHOICE, NULL, "1|2|3",
	  "/proc/sys/vm/drop_caches" },
	{ NULL, 0, NULL, NULL, NULL },
};

/* "always [madvise] never" -> "madvise" */
static int current(const char *path, char *out, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	char *l, *r;

	out[0] = '\0';
	if (read_file(path, &sb, NULL)) {
		strbuf_release(&sb);
		return -1;
	}
	l = strchr(sb.buf, '[');
	r = l ? strchr(l, ']') : NULL;
	if (l && r) {
		*r = '\0';
		snprintf(out, n, "%s", l + 1);
	}
	strbuf_release(&sb);
	return 0;
}

static int write_value(const char *path, const char *v, struct kab_err *err)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int ret = 0;

	if (fd < 0 || write(fd, v, strlen(v)) != (ssize_t)strlen(v))
		ret = kab_err_set(err, "cannot write '%s' to %s: %s", v, path,
				  strerror(errno));
	if (fd >= 0)
		close(fd);
	return ret;
}

int kab_apply_settings(const struct kab_job *job, bool may_change,
		       struct kab_err *err)
{
	const struct kab_pdesc *d;

	for (d = kab_system_params; d->key; d++) {
		const char *v = kab_job_get(job, d->key);
		char now[64];

		if (!v)
			continue;
		if (!strcmp(d->key, "drop_caches")) {
			if (!may_change)
				return kab_err_set(err, "drop_caches would "
						   "change this machine: run the "
						   "job with --target qemu");
			sync();
			if (write_value(d->help, v, err))
				return -1;
			continue;
		}
		if (current(d->help, now, sizeof(now)))
			return kab_err_set(err, "%s: this kernel has no %s "
					   "(no THP?)", d->key, d->help);
		if (!strcmp(now, v))
			continue;
		if (!may_change)
			return kab_err_set(err, "%s=%s would change this "
					   "machine (it is %s): run the job "
					   "with --target qemu, or drop the "
					   "setting", d->key, v, now);
		if (write_value(d->help, v, err))
			return -1;
	}
	return 0;
}
