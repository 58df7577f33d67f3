// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-report.c - kab report BASE HEAD: the A/B written up as lkp's
 * kernel test robot mails it, or as markdown or an HTML page.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "../report/report.h"
#include "bisect.h"

static void report_usage(FILE *f)
{
	fprintf(f,
		"usage: kab report [options] BASE HEAD\n"
		"\n"
		"Writes the comparison of HEAD against BASE (run ids, lists of "
		"ids or kernel\nlabels, as for kab compare) as the kernel test "
		"robot's email: the subject,\nthe KPI that moved, the commit, "
		"testcase, config, compiler, test machine,\nparameters, the "
		"other jobs that moved, how to reproduce with kab, lkp's "
		"tables\nand a plot.  Without a significant change it says "
		"so; either way it exits 0.\n"
		"\n"
		"  --kpi METRIC          the metric to announce (default: each "
		"suite's own, e.g.\n"
		"                        will-it-scale.per_process_ops)\n"
		"  --format F            text (the email), markdown (a GitHub or "
		"GitLab\n"
		"                        comment), html (a page with SVG "
		"charts) or json\n"
		"                        (the model: schema kab.report/1)\n"
		"  -o FILE               write there instead of stdout\n"
		"  --mbox FILE           write it as an RFC 5322 message for git "
		"send-email\n"
		"                        (the report goes to -o FILE only if "
		"given too)\n"
		"  --from ADDR           its sender (default: git config "
		"user.name/user.email)\n"
		"  --to ADDR, --cc ADDR  recipients, each option repeatable "
		"(headers of the\n"
		"                        text email, or of the --mbox message)\n"
		"  --in-reply-to MSGID   thread it under a message\n"
		"  --trailer 'K: V'      a tag a fix of a regression should "
		"carry, repeatable\n"
		"                        (default: Reported-by: the sender)\n"
		"  --subject-prefix P    e.g. \"linus:master\": [P] in the "
		"subject\n"
		"  --subsystem S         [S] in the subject (default: from the "
		"commit's subject)\n"
		"  --force               compare runs from different machines\n"
		"  --ignore-param KEY    parameter sets that differ only in KEY "
		"compare\n"
		"  --db PATH             database\n");
}

/* "Name <addr>" from git's configuration, or NULL. */
char *cli_git_sender(void)
{
	char *name = kab_cmd_line(NULL, NULL, "git", "config", "user.name",
				  NULL);
	char *mail = kab_cmd_line(NULL, NULL, "git", "config", "user.email",
				  NULL);
	char *s = NULL;

	if (mail && *mail)
		s = name && *name ? xasprintf("%s <%s>", name, mail) :
		    xstrdup(mail);
	free(name);
	free(mail);
	return s;
}

/* Write all of buf to path through a temporary file and a rename. */
static int write_file(const char *path, const char *buf, size_t len)
{
	struct kab_err err;

	if (write_file_atomic(path, buf, len, &err))
		return cli_error(EXIT_RUN, "%s: check the directory and its "
				 "free space, or pass another -o/--mbox",
				 err.msg);
	return EXIT_OK;
}

struct report_args {
	struct report_opts o;
	struct report_mail mail;
	const char *format, *out, *mbox, *db;
	const char **to, **cc, **trailers;
};

static int parse(int argc, char **argv, struct report_args *a)
{
	static const struct option opts[] = {
		{ "kpi", required_argument, NULL, 'k' },
		{ "format", required_argument, NULL, 'f' },
		{ "mbox", required_argument, NULL, 'm' },
		{ "from", required_argument, NULL, 'F' },
		{ "to", required_argument, NULL, 't' },
		{ "cc", required_argument, NULL, 'c' },
		{ "in-reply-to", required_argument, NULL, 'i' },
		{ "trailer", required_argument, NULL, 'T' },
		{ "subject-prefix", required_argument, NULL, 'p' },
		{ "subsystem", required_argument, NULL, 's' },
		{ "force", no_argument, NULL, 'x' },
		{ "ignore-param", required_argument, NULL, 'I' },
		{ "db", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct kab_err err;
	int opt;

	optind = 1;
	while ((opt = cli_getopt(argc, argv, ":ho:", opts)) != -1) {
		switch (opt) {
		case 'k':
			a->o.kpi = optarg;
			break;
		case 'f':
			if (strcmp(optarg, "text") && strcmp(optarg, "markdown") &&
			    strcmp(optarg, "html") && strcmp(optarg, "json"))
				return cli_error(EXIT_USAGE, "--format '%s': use "
						 "text, markdown, html or json",
						 optarg);
			a->format = optarg;
			break;
		case 'o':
			a->out = optarg;
			break;
		case 'm':
			a->mbox = optarg;
			break;
		case 'F':
			a->mail.from = optarg;
			break;
		case 't':
			a->to = xrealloc(a->to, (a->mail.nr_to + 1) *
					 sizeof(*a->to));
			a->to[a->mail.nr_to++] = optarg;
			break;
		case 'c':
			a->cc = xrealloc(a->cc, (a->mail.nr_cc + 1) *
					 sizeof(*a->cc));
			a->cc[a->mail.nr_cc++] = optarg;
			break;
		case 'i':
			a->mail.in_reply_to = optarg;
			break;
		case 'T':
			if (report_trailer_check(optarg, &err))
				return cli_error(EXIT_USAGE, "%s", err.msg);
			a->trailers = xrealloc(a->trailers,
					       (a->o.nr_trailers + 1) *
					       sizeof(*a->trailers));
			a->trailers[a->o.nr_trailers++] = optarg;
			a->o.trailers = a->trailers;
			break;
		case 'p':
			a->o.subject_prefix = optarg;
			break;
		case 's':
			a->o.subsystem = optarg;
			break;
		case 'x':
			a->o.sel.force = true;
			break;
		case 'I':
			if (cmp_sel_ignore(&a->o.sel, optarg, &err))
				return cli_error(EXIT_USAGE, "%s", err.msg);
			break;
		case 'd':
			a->db = optarg;
			break;
		case 'h':
			report_usage(stdout);
			return -1;
		default:
			return cli_bad_option("report", opt, argv, opts);
		}
	}
	if (argc - optind != 2)
		return cli_error(EXIT_USAGE, "report needs a base and a head: "
				 "'kab report BASE HEAD'");
	if ((a->to || a->cc || a->mail.in_reply_to) && !a->mbox &&
	    strcmp(a->format, "text"))
		return cli_error(EXIT_USAGE, "--to, --cc and --in-reply-to head "
				 "an email: use --format text or --mbox FILE");
	return 0;
}

static int emit(struct kab_db *db, struct report_args *a, const char *base,
		const char *head)
{
	char *sender = a->mail.from ? NULL : cli_git_sender(), *buf = NULL;
	struct kab_err err;
	struct report r;
	size_t len = 0;
	FILE *f;
	int rc;

	if (!a->mail.from)
		a->mail.from = sender;
	a->o.reported_by = a->mail.from;
	if (a->mbox && !a->mail.from) {
		rc = cli_error(EXIT_USAGE, "a message needs a sender: pass "
			       "--from 'Name <you@example.org>' or set git "
			       "config user.email");
		goto out;
	}
	a->mail.to = a->to;
	a->mail.cc = a->cc;
	if (report_mail_check(&a->mail, &err)) {
		rc = cli_error(EXIT_USAGE, "%s", err.msg);
		goto out;
	}
	a->o.bisect_tree = bisect_stored_tree;
	rc = report_build(db, base, head, &a->o, &r, &err);
	cli_notes(r.set.notes);
	if (rc) {
		cli_error(rc, "%s", err.msg);
		goto out_report;
	}
	if (a->mbox) {
		char *msg;

		a->mail.date = time(NULL);
		msg = report_mbox(&r, &a->mail, &err);
		if (!msg) {
			rc = cli_error(EXIT_USAGE, "%s", err.msg);
			goto out_report;
		}
		rc = write_file(a->mbox, msg, strlen(msg));
		free(msg);
		if (rc || !a->out)
			goto out_report;	/* the message was asked for */
	}
	f = open_memstream(&buf, &len);
	if (!f) {
		rc = cli_error(EXIT_RUN, "out of memory");
		goto out_report;
	}
	if (!strcmp(a->format, "markdown"))
		report_markdown(f, &r);
	else if (!strcmp(a->format, "html"))
		report_html(f, &r);
	else if (!strcmp(a->format, "json")) {
		json_t *doc = report_json(&r);

		cli_json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
			       JSON_REAL_PRECISION(17));
		fputc('\n', f);
		json_decref(doc);
	}
	else {
		report_mail_headers(f, &a->mail);
		report_text(f, &r);
	}
	fclose(f);
	if (a->out)
		rc = write_file(a->out, buf, len);
	else if (fwrite(buf, 1, len, stdout) != len)
		rc = cli_error(EXIT_RUN, "cannot write the report: %m");
	free(buf);
out_report:
	report_free(&r);
out:
	free(sender);
	return rc;
}

int cmd_report(struct cli *cli, int argc, char **argv)
{
	struct report_args a = {
		.o.c = { .test = KAB_TEST_WELCH, .fdr = 0.05, .noise = -1 },
		.format = "text",
	};
	struct kab_db *db;
	int rc = parse(argc, argv, &a);

	if (rc) {
		free(a.to);
		free(a.cc);
		free(a.trailers);
		return rc < 0 ? EXIT_OK : rc;
	}
	rc = cli_open_db(cli, a.db, KAB_DB_READ, &db);
	if (!rc) {
		rc = emit(db, &a, argv[optind], argv[optind + 1]);
		kab_db_close(db);
	}
	free(a.to);
	free(a.cc);
	free(a.trailers);
	return rc;
}
