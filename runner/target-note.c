// SPDX-License-Identifier: GPL-2.0
/*
 * target-note.c - what a target tells the user while it runs (QEMU's
 * or lava-run's own words, a KVM found broken): through the caller's
 * note hook, so a front end decides how (and whether) to show it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"

void kab_target_note(const struct kab_target_opts *o, const char *fmt, ...)
{
	char *msg;
	va_list ap;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	if (o && o->note)
		o->note(o->tick_ctx, msg);
	else
		fprintf(stderr, "kab: note: %s\n", msg);
	free(msg);
}

void kab_target_note_lines(const struct kab_target_opts *o,
			   const char *title, const char *text)
{
	kab_note_lines(o ? o->note : NULL, o ? o->tick_ctx : NULL, title,
		       text);
}

void kab_note_lines(void (*note)(void *ctx, const char *msg), void *ctx,
		    const char *title, const char *text)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add_note_lines(&sb, title, text);
	if (note)
		note(ctx, sb.buf);
	else
		fput_notes(stderr, sb.buf);
	strbuf_release(&sb);
}
