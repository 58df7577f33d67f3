// SPDX-License-Identifier: GPL-2.0
/*
 * escape.c - strings from the database written as markdown or for a
 * terminal.  A label may be a guest's release string or come from an
 * imported file: it must not become a tag, a link, a new table row or
 * an escape sequence.
 */
#include <string.h>

#include "report.h"

static bool control(unsigned char c)
{
	return c < ' ' || c == 0x7f;
}

void md_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = *s;

		if (control(c))
			fputc(' ', out);
		else if (c == '<')
			fputs("&lt;", out);
		else if (c == '>')
			fputs("&gt;", out);
		else if (c == '&')
			fputs("&amp;", out);
		else if (strchr("\\`*_[]()#|~!", c))
			fprintf(out, "\\%c", c);
		else
			fputc(c, out);
	}
}

void md_code(FILE *out, const char *s)
{
	size_t run = 0, longest = 0, i;
	const char *p;

	for (p = s; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	for (i = 0; i <= longest; i++)
		fputc('`', out);
	if (*s == '`' || (*s && s[strlen(s) - 1] == '`') || longest)
		fputc(' ', out);
	for (p = s; *p; p++) {
		if (control((unsigned char)*p))
			fputc(' ', out);
		else if (*p == '|')
			fputs("\\|", out);
		else
			fputc(*p, out);
	}
	if (*s == '`' || (*s && s[strlen(s) - 1] == '`') || longest)
		fputc(' ', out);
	for (i = 0; i <= longest; i++)
		fputc('`', out);
}

void tty_text(FILE *out, const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add_visible(&sb, s, strlen(s));
	fputs(sb.len ? sb.buf : "", out);
	strbuf_release(&sb);
}

void tty_lines(FILE *out, const char *text)
{
	struct strbuf sb = STRBUF_INIT;

	while (*text) {
		size_t n = strcspn(text, "\n");

		strbuf_reset(&sb);
		strbuf_add_visible(&sb, text, n);
		fprintf(out, "%s\n", sb.len ? sb.buf : "");
		text += n + !!text[n];
	}
	strbuf_release(&sb);
}
