// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-lava-log.c - libFuzzer: bytes as a LAVA job's log, whose console
 * lines are the guest's: entries into console lines into the collector,
 * as the lava target reads them.  What the log keeps for messages must
 * be clean text of bounded length.
 */
#include <stdlib.h>
#include <string.h>

#include "../../runner/runner.h"

static const struct kab_collect_ops ops;

static int line(void *ctx, const char *s, size_t n)
{
	struct kab_collector *c = ctx;

	kab_collector_feed(c, s, n);
	return kab_collector_feed(c, "\n", 1);
}

static void check(const char *s, size_t max)
{
	const unsigned char *p;

	if (!s)
		return;
	if (strlen(s) > max)
		abort();
	for (p = (const unsigned char *)s; *p; p++)
		if (*p < ' ' || *p == 0x7f)
			abort();
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct kab_collector *c = kab_collector_new(&ops, NULL);
	struct kab_lava_log log;
	size_t half = size / 2;

	kab_lava_log_init(&log, line, c);
	/* in two pieces: an entry split across reads is one entry */
	kab_lava_log_feed(&log, data, half);
	kab_lava_log_feed(&log, data + half, size - half);
	kab_lava_log_finish(&log);
	check(log.result, 16);
	check(log.error_type, 64);
	check(log.error_msg, 400);
	check(log.first_error, 400);
	check(log.version, 32);
	kab_lava_log_release(&log);
	kab_collector_finish(c, NULL);
	kab_collector_free(c);
	return 0;
}
