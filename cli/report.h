/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - kab report: the report model (model/) written up as the
 * kernel test robot writes to mailing lists, as plain text, an mbox
 * message, markdown or an HTML page with SVG charts, or as JSON.
 */
#ifndef KAB_CLI_REPORT_H
#define KAB_CLI_REPORT_H

#include "cli.h"
#include "../model/model.h"

void report_text(FILE *out, const struct report *r);
/* The same without the Subject: line, for a message. */
void report_text_body(FILE *out, const struct report *r);
void report_markdown(FILE *out, const struct report *r);
void report_html(FILE *out, const struct report *r);
/* The model as JSON: {"schema": "kab.report/1", ...} */
#define REPORT_JSON_SCHEMA "kab.report/1"
void report_json(FILE *out, const struct report *r);
/* Inline SVG charts; the escaping of text in HTML and XML. */
void html_escape(FILE *out, const char *s);
/* The main job's differential flame graph, base against head. */
void svg_flame(FILE *out, const struct kab_flame *f);
void svg_strip(FILE *out, const char *metric, const struct kab_series *b,
	       const char *bname, const struct kab_series *h,
	       const char *hname);
void svg_trend(FILE *out, const char *metric,
	       const struct kab_trend_point *p, size_t nr);
/* The whole message, headers and body; NULL with err on a bad address. */
struct report_mail {
	const char *from, *in_reply_to;
	const char *const *to, *const *cc;
	size_t nr_to, nr_cc;
	time_t date;
};
char *report_mbox(const struct report *r, const struct report_mail *m,
		  struct kab_err *err);
/* Are m's addresses and message id fit for headers?  -1 with err. */
int report_mail_check(const struct report_mail *m, struct kab_err *err);
/* To:, Cc: and In-Reply-To: lines, for the plain-text email. */
void report_mail_headers(FILE *out, const struct report_mail *m);

#endif /* KAB_CLI_REPORT_H */
