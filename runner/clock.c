// SPDX-License-Identifier: GPL-2.0
/*
 * clock.c - the guest's clock as the command line names it and as a
 * run stores it: "wall", or "icount:N" with QEMU's shift N.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

static bool shift_ok(const char *s, int *shift)
{
	char *end;
	long v;

	if (!*s || strspn(s, "0123456789") != strlen(s))
		return false;
	v = strtol(s, &end, 10);
	if (*end || v < 0 || v > KAB_ICOUNT_SHIFT_MAX)
		return false;
	*shift = (int)v;
	return true;
}

int kab_clock_parse(const char *s, struct kab_clock *out, struct kab_err *err)
{
	out->shift = KAB_ICOUNT_SHIFT;
	if (!strcmp(s, "auto")) {
		out->kind = KAB_CLOCK_AUTO;
		return 0;
	}
	if (!strcmp(s, "wall")) {
		out->kind = KAB_CLOCK_WALL;
		return 0;
	}
	out->kind = KAB_CLOCK_ICOUNT;
	if (!strcmp(s, "icount"))
		return 0;
	if (!strncmp(s, "icount:", 7) && shift_ok(s + 7, &out->shift))
		return 0;
	return kab_err_set(err, "--clock '%s': use wall, icount, icount:N "
			   "(QEMU's shift, 0 to %d: 2^N ns an instruction) "
			   "or auto", s, KAB_ICOUNT_SHIFT_MAX);
}

void kab_clock_name(const struct kab_clock *c, char *buf, size_t n)
{
	switch (c->kind) {
	case KAB_CLOCK_WALL:
		snprintf(buf, n, "wall");
		break;
	case KAB_CLOCK_ICOUNT:
		snprintf(buf, n, "icount:%d", c->shift);
		break;
	default:
		snprintf(buf, n, "auto");
		break;
	}
}
