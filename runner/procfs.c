// SPDX-License-Identifier: GPL-2.0
/*
 * procfs.c - parsers for /proc/vmstat and /proc/meminfo.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

static void kv_add(struct kab_kv *kv, const char *key, size_t klen, double v)
{
	if (kv->nr == kv->alloc) {
		kv->alloc = kv->alloc ? kv->alloc * 2 : 64;
		kv->key = xrealloc(kv->key, kv->alloc * sizeof(*kv->key));
		kv->val = xrealloc(kv->val, kv->alloc * sizeof(*kv->val));
	}
	kv->key[kv->nr] = xmalloc(klen + 1);
	memcpy(kv->key[kv->nr], key, klen);
	kv->key[kv->nr][klen] = '\0';
	kv->val[kv->nr] = v;
	kv->nr++;
}

void kab_kv_free(struct kab_kv *kv)
{
	int i;

	for (i = 0; i < kv->nr; i++)
		free(kv->key[i]);
	free(kv->key);
	free(kv->val);
	memset(kv, 0, sizeof(*kv));
}

/*
 * Both files are "name<sep>value[ kB]" lines.  Lines that do not look
 * like that are skipped: a newer kernel may add formats we do not know.
 */
static int parse_lines(const char *text, char sep, struct kab_kv *out)
{
	const char *line = text;

	while (line && *line) {
		const char *nl = strchr(line, '\n');
		const char *end = nl ? nl : line + strlen(line);
		const char *s = memchr(line, sep, end - line);

		if (s && s > line && s - line < 64) {
			char num[64];
			size_t n;
			char *e;
			double v;

			const char *p = s + 1;

			while (p < end && *p == ' ')
				p++;
			n = end - p < (long)sizeof(num) - 1 ? (size_t)(end - p) :
							     sizeof(num) - 1;
			memcpy(num, p, n);
			num[n] = '\0';
			v = strtod(num, &e);
			if (e != num && (!*e || !strcmp(e, " kB")))
				kv_add(out, line, s - line, v);
		}
		line = nl ? nl + 1 : NULL;
	}
	return out->nr ? 0 : -1;
}

int kab_parse_vmstat(const char *text, struct kab_kv *out)
{
	return parse_lines(text, ' ', out);
}

int kab_parse_meminfo(const char *text, struct kab_kv *out)
{
	return parse_lines(text, ':', out);
}
