// SPDX-License-Identifier: GPL-2.0
/*
 * md.c - the report as a GitHub or GitLab comment: the facts as
 * a list, the other tests as a table, lkp's tables and the commands in
 * code blocks that fold away.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"




static void params(FILE *out, const struct cmp_table *t)
{
	const char *k;
	json_t *v;
	bool first = true;

	json_object_foreach(t->params_obj, k, v) {
		char *kv;

		if (!strcmp(k, "testcase"))
			continue;
		kv = xasprintf("%s=%s", k, json_string_value(v));
		fputs(first ? "" : " ", out);
		md_code(out, kv);
		free(kv);
		first = false;
	}
}

static void others(FILE *out, const struct report *r)
{
	bool head = false;
	size_t i;

	for (i = 0; i < r->nr; i++) {
		const struct report_job *j = &r->job[i];
		char *change;

		if (i == r->main || !j->noticed)
			continue;
		if (!head)
			fputs("The commit also moved:\n\n| testcase | KPI | "
			      "change | test machine | parameters |\n|---|---|"
			      "---:|---|---|\n", out);
		head = true;
		change = report_change(j);
		fputs("| ", out);
		md_text(out, j->testcase);
		fputs(" | ", out);
		md_code(out, j->kpi->metric);
		fprintf(out, " | **%s** | ", change);
		md_text(out, j->machine);
		fputs(" | ", out);
		params(out, j->t);
		fputs(" |\n", out);
		free(change);
	}
	if (head)
		fputc('\n', out);
}

/* A fence longer than any run of backquotes in what it holds. */
static void fenced(FILE *out, const char *summary, const char *lang,
		   void (*fn)(FILE *, const void *), const void *arg)
{
	char *buf = NULL;
	size_t len = 0, run = 0, longest = 0, i;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return;
	fn(f, arg);
	fclose(f);
	for (i = 0; i < len; i++) {
		run = buf[i] == '`' ? run + 1 : 0;
		longest = run > longest ? run : longest;
	}
	longest = longest < 3 ? 3 : longest + 1;
	fprintf(out, "<details><summary>%s</summary>\n\n", summary);
	for (i = 0; i < longest; i++)
		fputc('`', out);
	fprintf(out, "%s\n%s", lang, buf);
	for (i = 0; i < longest; i++)
		fputc('`', out);
	fputs("\n\n</details>\n\n", out);
	free(buf);
}

static void tables(FILE *out, const void *arg)
{
	const struct report *r = arg;
	size_t i, k;

	for (i = 0; i < r->nr; i++) {
		const struct cmp_table *t = r->job[i].t;

		kab_lkp_header(out, &t->h, false);
		kab_lkp_failures(out, &t->h, false, false);
		kab_lkp_columns(out, 1);
		for (k = 0; k < t->c.nr_rows; k++)
			if (t->c.rows[k].shown)
				kab_lkp_row(out, &t->c.rows[k], 1, false,
					    true);
		fputc('\n', out);
	}
}

static void commands(FILE *out, const void *arg)
{
	fputs(arg, out);
}

void report_markdown(FILE *out, const struct report *r)
{
	const struct report_job *m = report_main(r);
	char *change = report_change(m);

	fputs("### ", out);
	md_text(out, r->subject);
	fputs("\n\n", out);
	if (change)
		fprintf(out, "kab noticed a **%s** of ", change);
	else if (report_unjudged(m))
		fputs("kab has **no verdict** on ", out);
	else
		fputs("kab found **no significant change** of ", out);
	md_code(out, m->kpi->metric);
	if (!change && report_unjudged(m))
		fprintf(out, " (%s)", report_unjudged(m));
	fprintf(out, " on:\n\n- **%s:** ", r->head_kind);
	md_text(out, r->head_line);
	fputs("\n- **compared with:** ", out);
	md_text(out, r->base_line);
	fputs("\n- **testcase:** ", out);
	md_text(out, m->testcase);
	fputs("\n- **config:** ", out);
	md_text(out, r->config);
	fputs("\n- **compiler:** ", out);
	md_text(out, r->compiler);
	fputs("\n- **test machine:** ", out);
	md_text(out, m->machine);
	fputs("\n- **parameters:** ", out);
	params(out, m->t);
	fputs("\n\n", out);
	others(out, r);
	fenced(out, "lkp's tables", "text", tables, r);
	fenced(out, "Reproduce with kab", "sh", commands, r->reproduce);
	free(change);
}
