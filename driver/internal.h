/* SPDX-License-Identifier: GPL-2.0 */
/*
 * internal.h - what the driver's files share and nobody else needs.
 */
#ifndef KAB_DRIVER_INTERNAL_H
#define KAB_DRIVER_INTERNAL_H

#include "driver.h"

/* ui->error with a printf format; returns code. */
int drv_error(const struct kab_drv_ui *ui, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void drv_note(const struct kab_drv_ui *ui, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void drv_info(const struct kab_drv_ui *ui, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* KAB_DRIVER_INTERNAL_H */
