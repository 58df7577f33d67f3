// SPDX-License-Identifier: GPL-2.0
/*
 * lava-log.c - the guest's console out of a LAVA job's log.
 *
 * The log is one entry a line: JSON as lava-run prints it, or the same
 * behind "- " as the server keeps it (its YAML is JSON's flow syntax).
 * An entry of level "target" is a console line; LAVA's ShellLogger put
 * a backslash before every '"' of it (and dropped \r and ESC, which no
 * record holds), so kab takes one backslash off before each quote.
 * The job's own result ("case": "job") says whether LAVA finished it.
 *
 * Everything here comes from the guest or through it: a line that is
 * no entry is skipped and counted, an entry longer than LINE_MAX is
 * dropped whole, and strings kept for messages are cleaned.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define LOG_LINE_MAX	(64u << 20)
#define DISPATCHER	"lava-dispatcher, installed at version: "

void kab_lava_log_init(struct kab_lava_log *l, kab_lava_line_fn fn,
		       void *ctx)
{
	memset(l, 0, sizeof(*l));
	l->fn = fn;
	l->ctx = ctx;
}

static void keep(char **dst, json_t *v, size_t max)
{
	if (*dst || !json_is_string(v))
		return;
	*dst = kab_text_clean(json_string_value(v), max);
}

static void keep_str(char **dst, const char *s, size_t max)
{
	if (!*dst)
		*dst = kab_text_clean(s, max);
}

/* ShellLogger's '"' -> '\"', undone: one backslash before each quote. */
static size_t unescape(char *s, size_t n)
{
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		if (s[i] == '"' && o > 0 && s[o - 1] == '\\')
			o--;
		s[o++] = s[i];
	}
	return o;
}

static int entry(struct kab_lava_log *l, const char *line, size_t n)
{
	const char *lvl, *p = line;
	json_error_t jerr;
	json_t *j, *msg;
	int rc = 0;

	while (n && (line[n - 1] == '\r' || line[n - 1] == ' '))
		n--;
	if (n >= 2 && p[0] == '-' && p[1] == ' ') {
		p += 2;
		n -= 2;
	}
	if (!n)
		return 0;
	j = json_loadb(p, n, JSON_REJECT_DUPLICATES, &jerr);
	lvl = json_string_value(json_object_get(j, "lvl"));
	msg = json_object_get(j, "msg");
	if (!lvl) {
		l->skipped++;
	} else if (!strcmp(lvl, "target") && json_is_string(msg)) {
		size_t len = json_string_length(msg);
		char *s = xmalloc(len + 1);

		memcpy(s, json_string_value(msg), len);
		len = unescape(s, len);
		s[len] = '\0';
		l->target_lines++;
		rc = l->fn ? l->fn(l->ctx, s, len) : 0;
		free(s);
	} else if (!strcmp(lvl, "results") && json_is_object(msg) &&
		   json_is_string(json_object_get(msg, "case")) &&
		   !strcmp(json_string_value(json_object_get(msg, "case")),
			   "job")) {
		keep(&l->result, json_object_get(msg, "result"), 16);
		keep(&l->error_type, json_object_get(msg, "error_type"), 64);
		keep(&l->error_msg, json_object_get(msg, "error_msg"), 400);
	} else if (!strcmp(lvl, "info") && json_is_string(msg) &&
		   !strncmp(json_string_value(msg), DISPATCHER,
			    strlen(DISPATCHER))) {
		keep_str(&l->version, json_string_value(msg) +
			 strlen(DISPATCHER), 32);
	} else if (!strcmp(lvl, "error") || !strcmp(lvl, "exception")) {
		keep(&l->first_error, msg, 400);
	}
	json_decref(j);
	return rc;
}

int kab_lava_log_feed(struct kab_lava_log *l, const void *buf, size_t n)
{
	const char *p = buf, *end = p + n;
	int rc = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t take = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (!l->overlong) {
			if (l->line.len + take > LOG_LINE_MAX) {
				l->overlong = true;
				strbuf_reset(&l->line);
			} else {
				strbuf_add(&l->line, p, take);
			}
		}
		if (!nl)
			break;
		if (l->overlong) {
			l->skipped++;
			l->overlong = false;
		} else if (entry(l, l->line.buf ? l->line.buf : "",
				 l->line.len)) {
			rc = -1;
		}
		strbuf_reset(&l->line);
		p = nl + 1;
	}
	return rc;
}

int kab_lava_log_finish(struct kab_lava_log *l)
{
	int rc = 0;

	if (l->line.len && !l->overlong)
		rc = entry(l, l->line.buf, l->line.len);
	else if (l->overlong)
		l->skipped++;
	strbuf_reset(&l->line);
	l->overlong = false;
	return rc;
}

void kab_lava_log_release(struct kab_lava_log *l)
{
	strbuf_release(&l->line);
	free(l->result);
	free(l->error_type);
	free(l->error_msg);
	free(l->first_error);
	free(l->version);
	memset(l, 0, sizeof(*l));
}
