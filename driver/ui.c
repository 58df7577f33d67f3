// SPDX-License-Identifier: GPL-2.0
/*
 * ui.c - the driver's sentences, handed to its front end's hooks.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"

typedef void (*say_fn)(void *ctx, const char *msg);

static void say(const struct kab_drv_ui *ui, say_fn fn, const char *fmt,
		va_list ap)
{
	char *msg;

	if (!ui || !fn)
		return;
	msg = xvasprintf(fmt, ap);
	fn(ui->ctx, msg);
	free(msg);
}

int drv_error(const struct kab_drv_ui *ui, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(ui, ui ? ui->error : NULL, fmt, ap);
	va_end(ap);
	return code;
}

void drv_note(const struct kab_drv_ui *ui, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(ui, ui ? ui->note : NULL, fmt, ap);
	va_end(ap);
}

void drv_info(const struct kab_drv_ui *ui, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(ui, ui ? ui->info : NULL, fmt, ap);
	va_end(ap);
}
