/* SPDX-License-Identifier: GPL-2.0 */
/*
 * internal.h - what the files of model/ share and nobody else needs.
 */
#ifndef KAB_MODEL_INTERNAL_H
#define KAB_MODEL_INTERNAL_H

#include "model.h"

/* err set from FMT, and CODE (a KAB_MODEL_*) returned. */
int model_err(struct kab_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A job parameter of a table's runs, or NULL. */
const char *table_param(const struct cmp_table *t, const char *key);

#endif /* KAB_MODEL_INTERNAL_H */
