// SPDX-License-Identifier: GPL-2.0
/*
 * target-note.c - what a target tells the user while it runs (QEMU's
 * or lava-run's own words, a KVM found broken): through the caller's
 * note hook, so a front end decides how (and whether) to show it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	const char *nl;

	if (!note) {
		fput_note_lines(stderr, title, text);
		return;
	}
	strbuf_addf(&sb, "%s:", title);
	for (; *text; text = *nl ? nl + 1 : nl) {
		size_t len;

		nl = strchrnul(text, '\n');
		len = nl - text;
		if (len && text[len - 1] == '\r')	/* a serial console's */
			len--;
		strbuf_addstr(&sb, "\n| ");
		strbuf_add(&sb, text, len);
	}
	note(ctx, sb.buf);
	strbuf_release(&sb);
}
