/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - kab report: an A/B written up as the kernel test robot
 * writes to mailing lists, as plain text, an mbox message, markdown or
 * an HTML page with SVG charts.
 */
#ifndef KAB_CLI_REPORT_H
#define KAB_CLI_REPORT_H

#include "tables.h"

/*
 * A KPI's verdict.  KPIs are hypotheses named before the numbers came:
 * their p-values are corrected (Benjamini-Hochberg, q = 0.05) over the
 * KPIs judged together, not over every metric of the tables.
 */
struct kpi_verdict {
	double p;		/* adjusted; NAN: too few samples or boots */
	bool significant;
	int verdict;		/* +1 improvement, -1 regression, 0 */
};

struct kpi_verdict kpi_judge(const struct kab_cell *c);

/* One job parameter set of the A/B and its key performance indicator. */
struct report_job {
	const struct cmp_table *t;
	const struct kab_row *kpi;	/* NULL: no KPI in this table */
	struct kpi_verdict kv;
	bool noticed;			/* the KPI changed significantly */
	char *testcase;
	char *machine;			/* "2 threads 1 sockets ..." */
	char *target;			/* qemu, local, ... */
	struct kab_run_facts facts;	/* of the head's first run */
};

struct report {
	struct cmp_set set;
	size_t nr;
	struct report_job *job;		/* one per table */
	size_t main;			/* the announced one */
	const char *base_spec, *head_spec;
	char *subject;
	char *head_line;		/* the head's commit, or its kernel */
	const char *head_kind;		/* "commit" or "kernel" */
	char *base_line;
	char *compiler, *config;
	char *reproduce;		/* commands, one per line */
	const char *reported_by;	/* "Name <addr>" or NULL */
	/* the bisect that found the head, for the trend chart */
	struct kab_trend_point *trend;
	size_t nr_trend;
	char *trend_metric;
	/* the main job's profile stacks, when both sides have them */
	struct kab_flame flame;
	bool has_flame;
};

struct report_opts {
	const char *kpi;		/* NULL: each suite's own */
	const char *subject_prefix;	/* "linus:master", or NULL */
	const char *subsystem;		/* NULL: from the commit's subject */
	const char *reported_by;
	struct cmp_sel sel;		/* --force, --ignore-param */
	struct kab_compare_opts c;
};

/* Gather what the report says; errors are printed, an exit code returned. */
int report_build(struct kab_db *db, const char *base, const char *head,
		 const struct report_opts *o, struct report *r);
void report_free(struct report *r);
const struct report_job *report_main(const struct report *r);
/* "will-it-scale: mode=process nr_task=100% ...": a job's name. */
char *report_job_name(const struct cmp_table *t);
/* "-96.7% regression" of a job's KPI, or NULL when not noticed. */
char *report_change(const struct report_job *j);
/* Why a job's KPI has no verdict at all, or NULL when it has one. */
const char *report_unjudged(const struct report_job *j);

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
