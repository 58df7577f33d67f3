/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - the report model (model/) written up as the
 * kernel test robot writes to mailing lists, as plain text, an mbox
 * message, markdown or an HTML page with SVG charts, or as JSON.
 */
#ifndef KAB_REPORT_H
#define KAB_REPORT_H

#include "../common/common.h"
#include "../model/model.h"

void report_text(FILE *out, const struct report *r);
/* The same without the Subject: line, for a message. */
void report_text_body(FILE *out, const struct report *r);
void report_markdown(FILE *out, const struct report *r);
void report_html(FILE *out, const struct report *r);
/* The pages' style sheet. */
extern const char report_css[];
/* The model as JSON: {"schema": "kab.report/1", ...} */
#define REPORT_JSON_SCHEMA "kab.report/1"
json_t *report_json(const struct report *r);
/* Inline SVG charts; the escaping of text in HTML and XML. */
void html_escape(FILE *out, const char *s);
/* The main job's differential flame graph, base against head. */
void svg_flame(FILE *out, const struct kab_flame *f);
void svg_strip(FILE *out, const char *metric, const struct kab_series *b,
	       const char *bname, const struct kab_series *h,
	       const char *hname);
void svg_trend(FILE *out, const char *metric,
	       const struct kab_trend_point *p, size_t nr);
/* A watch's series of one metric, for its page. */
struct report_series_pt {
	const char *commit;		/* its first 12 digits */
	const char *subject;		/* or NULL */
	const char *status;		/* NULL: measured; else why empty */
	const double *v;		/* its boots' means */
	size_t n;
};

struct report_series_cp {
	size_t at;			/* the first commit after it */
	double pct, lo, hi, p;
	bool spread;			/* the spread moved, not the mean */
	const char *status;		/* found, verified, not-isolated */
	const char *culprit;		/* its first 12 digits, or NULL */
	const char *evidence;		/* what its checks found, or NULL */
	const char *href;		/* its report's page, or NULL */
};

struct report_series {
	const char *name, *metric, *tree, *branch, *from;
	const struct report_series_pt *pts;
	size_t nr;
	const struct report_series_cp *cps;
	size_t nr_cps;
};

void svg_series(FILE *out, const struct report_series *s);
/* The last commit measured before s->pts[at] (at - 1 if none is). */
size_t report_series_before(const struct report_series *s, size_t at);
/* The page of a series: its chart, its change points, its commits. */
void report_series_html(FILE *out, const struct report_series *s);
/* The whole message, headers and body; NULL with err on a bad address. */
struct report_mail {
	const char *from, *in_reply_to;
	const char *from_opt;		/* its option: "--from" (NULL) */
	const char *const *to, *const *cc;
	size_t nr_to, nr_cc;
	time_t date;
};
char *report_mbox(const struct report *r, const struct report_mail *m,
		  struct kab_err *err);
/* Are m's addresses and message id fit for headers?  -1 with err. */
int report_mail_check(const struct report_mail *m, struct kab_err *err);
/* Is t a "Key: value" trailer on one line?  -1 with err. */
int report_trailer_check(const char *t, struct kab_err *err);
/* To:, Cc: and In-Reply-To: lines, for the plain-text email. */
void report_mail_headers(FILE *out, const struct report_mail *m);

/*
 * Strings from the database in markdown (GitHub, GitLab): as text,
 * with HTML and markdown's own characters escaped; as inline code,
 * fenced past any backquotes.  Both stay on one line and one table
 * cell: control characters become spaces, '|' is escaped.
 */
void md_text(FILE *out, const char *s);
void md_code(FILE *out, const char *s);
/* s for a terminal: control characters (a guest's escapes) as \xNN. */
void tty_text(FILE *out, const char *s);
/* text's lines, each made visible as by tty_text. */
void tty_lines(FILE *out, const char *text);

#endif /* KAB_REPORT_H */
