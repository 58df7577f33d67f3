// SPDX-License-Identifier: GPL-2.0
/*
 * mail.c - the report as an RFC 5322 message in an mbox, ready
 * for git send-email or msmtp: Date, Message-ID, threading headers,
 * UTF-8 declared (lkp's tables carry a '±'), headers folded, and the
 * body quoted-printable only when a line would break SMTP's 998.
 */
#include <ctype.h>
#include <nettle/base64.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "report.h"

#define SMTP_LINE	998
#define FOLD		78
/* the longest word a header keeps as it is (below SMTP_LINE, folded) */
#define MAX_WORD	900

/* Header values come from the command line: no control characters. */
static int check_value(const char *what, const char *s, bool address,
		       struct kab_err *err)
{
	const unsigned char *p;

	/* a folded header's lines stay under SMTP's 998 */
	if (strlen(s) > MAX_WORD)
		return kab_err_set(err, "%s is %zu bytes long: give at most "
				   "%d", what, strlen(s), MAX_WORD);
	for (p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return kab_err_set(err, "%s '%s' holds a control "
					   "character: give it on one line",
					   what, s);
	if (address && (!strchr(s, '@') || strlen(s) < 3))
		return kab_err_set(err, "%s '%s' is not a mail address: give "
				   "user@host or 'Name <user@host>'", what, s);
	return 0;
}

static bool ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			return false;
	return true;
}

/*
 * A header of words, folded before a space when a line grows long.  A
 * line break or other control character in the value (a guest's
 * release string as the kernel's label, a commit's subject) becomes a
 * space: it can never start a header of its own.
 */
static void header(struct strbuf *sb, const char *name, const char *v)
{
	size_t col = strlen(name) + 2;
	char *value = xstrdup(v), *p;

	for (p = value; *p; p++)
		if ((unsigned char)*p < ' ' || *p == 0x7f)
			*p = ' ';
	p = value;

	strbuf_addf(sb, "%s: ", name);
	while (*p) {
		size_t word = strcspn(p + 1, " ") + 1;

		if (col + word > FOLD && col > strlen(name) + 2 && *p == ' ') {
			strbuf_addstr(sb, "\n");
			col = 0;
		}
		strbuf_add(sb, p, word);
		col += word;
		p += word;
	}
	strbuf_addstr(sb, "\n");
	free(value);
}

/* A word too long to fold under SMTP's line limit? */
static bool long_word(const char *s)
{
	while (*s) {
		size_t n = strcspn(s, " ");

		if (n > MAX_WORD)
			return true;
		s += n + !!s[n];
	}
	return false;
}

/* RFC 2047 encoded words, split between UTF-8 characters. */
static void header_utf8(struct strbuf *sb, const char *name, const char *v)
{
	size_t len = strlen(v), i = 0;

	strbuf_addf(sb, "%s:", name);
	while (i < len) {
		size_t n = len - i > 45 ? 45 : len - i;
		char enc[BASE64_ENCODE_RAW_LENGTH(45) + 1];

		/* back off to a character's first byte */
		while (i + n < len && n > 1 &&
		       ((unsigned char)v[i + n] & 0xc0) == 0x80)
			n--;
		base64_encode_raw(enc, n, (const uint8_t *)v + i);
		enc[BASE64_ENCODE_RAW_LENGTH(n)] = '\0';
		strbuf_addf(sb, "%s=?UTF-8?B?%s?=", i ? "\n " : " ", enc);
		i += n;
	}
	strbuf_addstr(sb, "\n");
}

static void address_list(struct strbuf *sb, const char *name,
			 const char *const *v, size_t n)
{
	struct strbuf list = STRBUF_INIT;
	size_t i;

	if (!n)
		return;
	for (i = 0; i < n; i++)
		strbuf_addf(&list, "%s%s", i ? ", " : "", v[i]);
	header(sb, name, list.buf);
	strbuf_release(&list);
}

static bool long_lines(const char *s)
{
	while (*s) {
		size_t n = strcspn(s, "\n");

		if (n > SMTP_LINE - 2)
			return true;
		s += n + !!s[n];
	}
	return false;
}

/* Would this line read as an mbox separator (mboxrd: >*From )? */
static bool from_line(const char *s)
{
	return !strncmp(s + strspn(s, ">"), "From ", 5);
}

/*
 * Quoted-printable (RFC 2045 6.7), soft breaks under 76 columns.  A
 * line that would read as an mbox separator has its first character
 * encoded (=46rom, =3EFrom): it decodes to itself, and no mbox reader
 * takes it for the start of a message or unescapes it.
 */
static void quoted_printable(struct strbuf *sb, const char *s)
{
	size_t col = 0;

	for (; *s; s++) {
		unsigned char c = *s;
		bool lit = (c >= 33 && c <= 126 && c != '=' &&
			    !(col == 0 && from_line(s))) ||
			   ((c == ' ' || c == '\t') && s[1] && s[1] != '\n');

		if (c == '\n') {
			strbuf_addstr(sb, "\n");
			col = 0;
			continue;
		}
		if (col + (lit ? 1 : 3) > 75) {
			strbuf_addstr(sb, "=\n");
			col = 0;
			/* a new line: a From there is encoded too */
			lit = lit && !from_line(s);
		}
		if (lit)
			strbuf_add(sb, s, 1);
		else
			strbuf_addf(sb, "=%02X", c);
		col += lit ? 1 : 3;
	}
}

/* mboxrd: a body line that reads as a separator gets a '>'. */
static void mbox_body(struct strbuf *sb, const char *s)
{
	while (*s) {
		size_t n = strcspn(s, "\n");

		if (from_line(s))
			strbuf_addstr(sb, ">");
		strbuf_add(sb, s, n);
		strbuf_addstr(sb, "\n");
		s += n + !!s[n];
	}
}

static char *msg_id(const char *from, const char *subject, time_t date)
{
	const char *at = strrchr(from, '@');
	size_t dl = at ? strcspn(at + 1, "> ") : 0;
	char *seed = xasprintf("%s\n%s\n%lld\n%d", from, subject,
			       (long long)date, (int)getpid());
	char *hex = kab_sha256_hex(seed, strlen(seed), 16);
	struct tm tm;
	char when[32], *id;

	gmtime_r(&date, &tm);
	strftime(when, sizeof(when), "%Y%m%d%H%M%S", &tm);
	id = xasprintf("<%s.%s.kab@%.*s>", when, hex, dl ? (int)dl : 3,
		       dl ? at + 1 : "kab");
	free(seed);
	free(hex);
	return id;
}

int report_mail_check(const struct report_mail *m, struct kab_err *err)
{
	size_t i;

	if (m->from && check_value(m->from_opt ? m->from_opt : "--from",
				   m->from, true, err))
		return -1;
	for (i = 0; i < m->nr_to; i++)
		if (check_value(m->from_opt ? "--mail-to" : "--to", m->to[i],
				true, err))
			return -1;
	for (i = 0; i < m->nr_cc; i++)
		if (check_value(m->from_opt ? "--mail-cc" : "--cc", m->cc[i],
				true, err))
			return -1;
	if (m->in_reply_to && check_value("--in-reply-to", m->in_reply_to,
					  false, err))
		return -1;
	return 0;
}

int report_trailer_check(const char *t, struct kab_err *err)
{
	size_t k = strspn(t, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			  "0123456789-");

	if (check_value("--trailer", t, false, err))
		return -1;
	if (!k || t[k] != ':' || t[k + 1] != ' ' || !t[k + 2] ||
	    !isalpha((unsigned char)t[0]))
		return kab_err_set(err, "--trailer '%s' is not a trailer: give "
				   "'Key: value', e.g. 'Reported-by: Name "
				   "<user@host>'", t);
	return 0;
}

static char *angle(const char *id)
{
	return id[0] == '<' ? xstrdup(id) : xasprintf("<%s>", id);
}

void report_mail_headers(FILE *out, const struct report_mail *m)
{
	struct strbuf sb = STRBUF_INIT;

	address_list(&sb, "To", m->to, m->nr_to);
	address_list(&sb, "Cc", m->cc, m->nr_cc);
	if (m->in_reply_to) {
		char *id = angle(m->in_reply_to);

		header(&sb, "In-Reply-To", id);
		free(id);
	}
	if (sb.len)
		fputs(sb.buf, out);
	strbuf_release(&sb);
}

char *report_mbox(const struct report *r, const struct report_mail *m,
		  struct kab_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	char *body = NULL, *id, *reply = NULL, date[64];
	size_t len = 0;
	struct tm tm;
	FILE *f;

	if (!m->from)
		return kab_err_set(err, "a message needs a sender"), NULL;
	if (report_mail_check(m, err))
		return NULL;
	f = open_memstream(&body, &len);
	if (!f) {
		kab_err_set(err, "out of memory writing the message");
		return NULL;
	}
	report_text_body(f, r);
	fclose(f);

	localtime_r(&m->date, &tm);
	strftime(date, sizeof(date), "%a, %d %b %Y %H:%M:%S %z", &tm);
	/* the separator git format-patch writes */
	strbuf_addstr(&sb, "From kab Mon Sep 17 00:00:00 2001\n");
	header(&sb, "From", m->from);
	address_list(&sb, "To", m->to, m->nr_to);
	address_list(&sb, "Cc", m->cc, m->nr_cc);
	if (ascii(r->subject) && !long_word(r->subject))
		header(&sb, "Subject", r->subject);
	else
		header_utf8(&sb, "Subject", r->subject);
	header(&sb, "Date", date);
	id = msg_id(m->from, r->subject, m->date);
	header(&sb, "Message-ID", id);
	if (m->in_reply_to) {
		reply = angle(m->in_reply_to);
		header(&sb, "In-Reply-To", reply);
		header(&sb, "References", reply);
	}
	strbuf_addstr(&sb, "MIME-Version: 1.0\n"
		      "Content-Type: text/plain; charset=UTF-8\n");
	if (long_lines(body)) {
		strbuf_addstr(&sb, "Content-Transfer-Encoding: "
			      "quoted-printable\n");
		header(&sb, "X-Mailer", "kab " KAB_VERSION);
		strbuf_addstr(&sb, "\n");
		quoted_printable(&sb, body);
	} else {
		strbuf_addstr(&sb, "Content-Transfer-Encoding: 8bit\n");
		header(&sb, "X-Mailer", "kab " KAB_VERSION);
		strbuf_addstr(&sb, "\n");
		mbox_body(&sb, body);
	}
	free(id);
	free(reply);
	free(body);
	return strbuf_detach(&sb);
}
