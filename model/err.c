// SPDX-License-Identifier: GPL-2.0
/*
 * err.c - an error of the model: its sentence and its class.
 */
#include <stdarg.h>
#include <stdio.h>

#include "internal.h"

int model_err(struct kab_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return code;
}
