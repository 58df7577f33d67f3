// SPDX-License-Identifier: GPL-2.0
/*
 * monitor-dmesg.c - the dmesg monitor: how many kernel messages of
 * trouble the iteration saw, read from /dev/kmsg (the records that came
 * after the workload started), so that a kernel that warns is a row of
 * the table and not a surprise in a console nobody reads:
 *
 *   dmesg.WARNING    WARNING: lines (WARN_ON and friends)
 *   dmesg.BUG        BUG: lines
 *   dmesg.Oops       Oops: lines
 *   dmesg.soft_lockup, dmesg.RCU_stall
 *
 * Every count is sent, zeros too: a row one side lacks could not be
 * compared.  Reading /dev/kmsg needs root or dmesg_restrict=0.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner.h"

static const struct {
	const char *metric;
	const char *const match[4];
} kinds[] = {
	{ "dmesg.WARNING", { "WARNING:", NULL } },
	{ "dmesg.BUG", { "BUG:", NULL } },
	{ "dmesg.Oops", { "Oops:", NULL } },
	{ "dmesg.soft_lockup", { "soft lockup", NULL } },
	{ "dmesg.RCU_stall", { "detected stall", "detected stalls",
			       "rcu: INFO:", NULL } },
};

#define NR_KINDS ARRAY_SIZE(kinds)

struct kab_monitor_state {
	int fd;
	double n[NR_KINDS];
};

/* Count one message (a line of the kernel's log) into n[]. */
void kab_dmesg_count(const char *msg, size_t len, double *n)
{
	size_t k, i;

	for (k = 0; k < NR_KINDS; k++)
		for (i = 0; kinds[k].match[i]; i++)
			if (memmem(msg, len, kinds[k].match[i],
				   strlen(kinds[k].match[i]))) {
				n[k]++;
				break;
			}
}

/* The counts as metrics, every kind. */
void kab_dmesg_metrics(const double *n, struct kab_metrics *out)
{
	size_t k;

	for (k = 0; k < NR_KINDS; k++)
		kab_metrics_add(out, kinds[k].metric, n[k]);
}

static struct kab_monitor_state *dmesg_start(pid_t child,
					     struct kab_err *err)
{
	struct kab_monitor_state *st;
	int fd;

	(void)child;
	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		kab_err_set(err, "dmesg: /dev/kmsg: %s: no dmesg.* metrics",
			    strerror(errno));
		return NULL;
	}
	/* only what the kernel says from now on */
	lseek(fd, 0, SEEK_END);
	st = xcalloc(1, sizeof(*st));
	st->fd = fd;
	return st;
}

/* Each read of /dev/kmsg is one record: "prio,seq,time,flags;text\n". */
static void dmesg_tick(struct kab_monitor_state *st)
{
	char buf[8192];
	ssize_t n;

	for (;;) {
		const char *text;

		n = read(st->fd, buf, sizeof(buf) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten before read: go on */
		if (n <= 0)
			break;
		buf[n] = '\0';
		text = memchr(buf, ';', n);
		text = text ? text + 1 : buf;
		kab_dmesg_count(text, strcspn(text, "\n"), st->n);
	}
}

static void dmesg_stop(struct kab_monitor_state *st, double elapsed,
		       struct kab_metrics *out, struct kab_stacks *stacks)
{
	(void)stacks;
	(void)elapsed;
	dmesg_tick(st);
	kab_dmesg_metrics(st->n, out);
	close(st->fd);
	free(st);
}

const struct kab_monitor kab_monitor_dmesg = {
	.name = "dmesg",
	.start = dmesg_start,
	.tick = dmesg_tick,
	.stop = dmesg_stop,
};
