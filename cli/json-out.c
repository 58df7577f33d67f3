// SPDX-License-Identifier: GPL-2.0
/*
 * json-out.c - kab's JSON documents on a stream: jansson's, each real
 * number in the fewest digits that read back as the same double (0.1,
 * not jansson's 17 digits 0.10000000000000001), so that exports stay
 * exact and every other document stays readable.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The number text[0..n) (a JSON real) in the fewest digits, into sb. */
static void add_shortest(struct strbuf *sb, const char *text, size_t n)
{
	char *num = xasprintf("%.*s", (int)n, text), buf[40];
	double v = strtod(num, NULL);
	int prec;

	for (prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	/* a real stays a real: 2.0, not the integer 2 */
	if (!strpbrk(buf, ".eEn"))
		strcat(buf, ".0");
	strbuf_addstr(sb, prec <= 17 ? buf : num);
	free(num);
}

char *cli_json_text(const json_t *doc, size_t flags)
{
	char *raw = json_dumps(doc, (flags & ~JSON_REAL_PRECISION(31)) |
			       JSON_REAL_PRECISION(17));
	struct strbuf sb = STRBUF_INIT;
	const char *p;

	if (!raw)
		return NULL;
	for (p = raw; *p; ) {
		if (*p == '"') {
			const char *q = p + 1;

			while (*q && *q != '"')
				q += *q == '\\' && q[1] ? 2 : 1;
			if (*q)
				q++;
			strbuf_add(&sb, p, q - p);
			p = q;
		} else if (*p == '-' || isdigit((unsigned char)*p)) {
			size_t n = strspn(p, "0123456789+-.eE");

			if (memchr(p, '.', n) || memchr(p, 'e', n) ||
			    memchr(p, 'E', n))
				add_shortest(&sb, p, n);
			else
				strbuf_add(&sb, p, n);
			p += n;
		} else {
			strbuf_add(&sb, p, 1);
			p++;
		}
	}
	free(raw);
	return strbuf_detach(&sb);
}

int cli_json_dumpf(const json_t *doc, FILE *out, size_t flags)
{
	char *text = cli_json_text(doc, flags);
	int rc;

	if (!text)
		return -1;
	rc = fputs(text, out) == EOF ? -1 : 0;
	free(text);
	return rc;
}
