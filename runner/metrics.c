// SPDX-License-Identifier: GPL-2.0
/*
 * metrics.c - a small growable list of named values.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

void kab_metrics_add(struct kab_metrics *m, const char *name, double value)
{
	if (m->nr == m->alloc) {
		m->alloc = m->alloc ? m->alloc * 2 : 32;
		m->v = xrealloc(m->v, m->alloc * sizeof(*m->v));
	}
	m->v[m->nr].name = xstrdup(name);
	m->v[m->nr].value = value;
	m->nr++;
}

void kab_metrics_addf(struct kab_metrics *m, double value, const char *fmt, ...)
{
	char name[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	kab_metrics_add(m, name, value);
}

const struct kab_metric *kab_metrics_find(const struct kab_metrics *m,
					  const char *name)
{
	int i;

	for (i = 0; i < m->nr; i++)
		if (!strcmp(m->v[i].name, name))
			return &m->v[i];
	return NULL;
}

void kab_metrics_free(struct kab_metrics *m)
{
	int i;

	for (i = 0; i < m->nr; i++)
		free(m->v[i].name);
	free(m->v);
	memset(m, 0, sizeof(*m));
}
