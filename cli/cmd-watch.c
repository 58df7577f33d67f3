// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-watch.c - kab watch: follow a branch from a commit, measure its
 * commits as kab bisect measures one (watch/), print the series and
 * its change points.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "bisect.h"
#include "cli.h"
#include "../report/report.h"
#include "../watch/watch.h"

static void watch_usage(FILE *f)
{
	fprintf(f,
		"usage: kab watch --tree DIR --from REV [--branch REF] --job "
		"JOB --metric NAME\n"
		"                 [--once] [options]\n"
		"\n"
		"Follows --branch (HEAD) of the git tree from --from: each "
		"commit of its\nfirst-parent line (--all-commits: every "
		"commit; --every N: every Nth,\nwith --from and the head) is "
		"built, booted --boots times (3) and\nmeasured as kab bisect "
		"measures a commit, and stored as a point of the\nbranch's "
		"series (--name, the branch's by default) as its boots end.\n"
		"Then it prints the series of --metric and its change points "
		"(E-divisive\nmeans over the commits, a permutation test at "
		"--alpha, 0.01; shifts\nunder --noise %%, 1, are not changes), "
		"each marked (new) once.  A change\nbetween neighbouring "
		"commits is checked as KernelCI checks a culprit:\nthe later "
		"commit against its parent, then reverted on top of the head\n"
		"against the head (--max-boots boots a side); only a culprit "
		"that passes\nboth is named.  Killed, it goes on where it was: "
		"a measured point is\nnever measured again.  One kab watch a "
		"database.\n"
		"\n"
		"  --from REV           the series' first commit\n"
		"  --branch REF         the branch followed (HEAD)\n"
		"  --fetch REMOTE       git fetch REMOTE before each pass (to "
		"follow\n"
		"                       REMOTE/BRANCH)\n"
		"  --all-commits        every commit, not the first-parent "
		"line alone\n"
		"  --once               one pass, then exit (for cron and CI)\n"
		"  --interval S         else look at the branch again every S "
		"seconds (3600)\n"
		"  --every N            every Nth commit (1)\n"
		"  --merges             only the merges (the trees pulled), "
		"and --from and\n"
		"                       the head; --every N: every Nth merge\n"
		"  --max-points N       measure at most N points a pass\n"
		"  --name NAME          the series' name in the database\n"
		"  --html DIR           the series' page, DIR/index.html, "
		"after each pass: a dot\n"
		"                       per boot, each change point linked to "
		"its culprit's\n"
		"                       report\n"
		"  --mbox FILE          each verified change's message (kab "
		"report of the\n"
		"                       culprit against its parent, with what "
		"found it),\n"
		"                       appended once\n"
		"  --sendmail CMD       each such message also to CMD (sh -c), "
		"on its stdin and\n"
		"                       as the file \"$1\": '/usr/sbin/sendmail "
		"-t -i', say\n"
		"  --mail-from ADDR     its sender (git config user.name and "
		"user.email)\n"
		"  --mail-to ADDR, --mail-cc ADDR  its recipients, "
		"repeatable\n"
		"  --trailer 'K: V'     a tag a fix should carry, repeatable "
		"(Reported-by:\n"
		"                       the sender)\n"
		"\n"
		"The options of kab bisect that say how a commit is "
		"measured:\n");
	bisect_options_help(f, true);
}

/*
 * A path option's value as the file it names (a job's name too), so
 * that the same file given from elsewhere is the same option.
 */
static json_t *path_value(const char *opt, size_t len, const char *val)
{
	static const char *const paths[] = { "--job", "--kconfig", "--base",
					     NULL };
	char *found = NULL, *real = NULL;
	struct kab_err err;
	json_t *j;
	int k;

	for (k = 0; paths[k]; k++)
		if (strlen(paths[k]) == len && !strncmp(opt, paths[k], len))
			break;
	if (!paths[k])
		return json_string(val);
	if (k == 0 && !kab_job_find(val, &found, &err))
		val = found;
	real = realpath(val, NULL);
	j = json_string(real ? real : val);
	free(real);
	free(found);
	return j;
}

/*
 * The options that say how a point is measured: what makes two points
 * compare.  Which commits are points, how the series is tested and
 * how the loop runs are not among them, nor how a test box is switched
 * to a kernel (a setup fixed is the same box).
 */
static char *measuring_args(int argc, char **argv)
{
	static const char *const loop[] = { "--db", "--once", "--interval",
					    "--max-points", "--name",
					    "--tree", "--from", "--branch",
					    "--every", "--all-commits",
					    "--merges",
					    "--alpha", "--noise",
					    "--max-boots", "--mbox",
					    "--mail-from", "--mail-to",
					    "--mail-cc", "--trailer",
					    "--sendmail", "--html", "--fetch",
					    "--setup", "--setup-timeout",
					    NULL };
	static const char *const flags[] = { "--once", "--all-commits",
					     "--merges", "--help", NULL };
	json_t *args = json_array();
	char *s;
	int i, k;

	for (i = 1; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');
		size_t len = eq ? (size_t)(eq - argv[i]) : strlen(argv[i]);
		bool flag = false;

		for (k = 0; flags[k]; k++)
			flag |= !strcmp(argv[i], flags[k]);
		for (k = 0; loop[k]; k++)
			if (strlen(loop[k]) == len &&
			    !strncmp(argv[i], loop[k], len))
				break;
		if (loop[k]) {
			if (!eq && !flag)
				i++;
			continue;
		}
		if (strncmp(argv[i], "--", 2) || flag) {
			json_array_append_new(args, json_string(argv[i]));
			continue;
		}
		/* --opt=value as --opt value: one spelling, one series */
		json_array_append_new(args, json_stringn(argv[i], len));
		if (eq)
			json_array_append_new(args, path_value(argv[i], len,
							       eq + 1));
		else if (i + 1 < argc) {
			json_array_append_new(args, path_value(argv[i], len,
							       argv[i + 1]));
			i++;
		}
	}
	s = json_dumps(args, JSON_COMPACT);
	json_decref(args);
	return s;
}

/*
 * The branch's name as a series name (HEAD: the branch it is on), in
 * what kab_name_ok takes.
 */
static char *default_name(const char *tree, const char *branch)
{
	char *n = NULL, *p;

	if (!strcmp(branch, "HEAD"))
		n = kab_cmd_line(tree, NULL, "git", "symbolic-ref", "-q",
				 "--short", "HEAD", NULL);
	if (!n)
		n = xstrdup(branch);

	for (p = n; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789._-", *p))
			*p = '-';
	if (strlen(n) > 64)
		n[64] = '\0';
	return n;
}

struct watch_out {
	const char *metric;
};

static void on_planned(void *ctx, size_t nr, size_t pending, bool created)
{
	fprintf(stderr, "kab: watch: %zu point%s on the branch, %zu to "
		"measure%s\n", nr, nr == 1 ? "" : "s", pending,
		created ? " (a new series)" : "");
}

static void on_point(void *ctx, const struct kab_point_row *p, size_t i,
		     size_t nr)
{
	fprintf(stderr, "kab: watch: %.12s %s", p->commit,
		p->status == KAB_POINT_MEASURED ? "measured" : "skipped: ");
	if (p->status != KAB_POINT_MEASURED)
		fput_visible(stderr, p->why ? p->why : "");
	fputc('\n', stderr);
}

static double stddev_pct(const struct kab_watch_pt *p)
{
	double ss = 0;
	size_t i;

	if (p->n < 2 || p->mean == 0)
		return 0;
	for (i = 0; i < p->n; i++)
		ss += (p->v[i] - p->mean) * (p->v[i] - p->mean);
	return 100 * sqrt(ss / (p->n - 1)) / fabs(p->mean);
}

/* What the culprit's checks found, each line indented. */
static void print_check(const struct kab_change_row *r,
			const struct kab_point_row *after)
{
	const char *l, *e;

	if (!strcmp(r->status, "verified") && r->culprit) {
		printf("  culprit: %.12s ", r->culprit);
		fput_visible(stdout, after->subject ? after->subject : "");
		printf(" (verified)\n");
	} else if (!strcmp(r->status, "not-isolated")) {
		printf("  culprit not isolated\n");
	}
	for (l = r->evidence; l && *l; l = e) {
		char *line;

		e = strchr(l, '\n');
		line = e ? xstrndup(l, e - l) : xstrdup(l);
		printf("    ");
		fput_visible(stdout, line);
		putchar('\n');
		free(line);
		e = e ? e + 1 : l + strlen(l);
	}
}

/* lkp's other rows that moved with change point i, a line each. */
static void print_rows(struct kab_db *db, const struct kab_watch_series *s,
		       size_t i, const char *metric)
{
	struct kab_watch_rows rows;
	struct kab_err err;
	size_t k;

	if (kab_watch_rows(db, s, i, metric, 8, &rows, &err)) {
		printf("  other rows: not compared (");
		fput_visible(stdout, err.msg);
		printf(")\n");
		return;
	}
	if (!rows.moved) {
		printf("  other rows: none of %zu moved with it\n", rows.family);
		kab_watch_rows_free(&rows);
		return;
	}
	printf("  other rows that moved with it: %zu of %zu at FDR 0.05%s\n",
	       rows.moved, rows.family, rows.moved > rows.nr ?
	       ", the surest" : "");
	for (k = 0; k < rows.nr; k++) {
		const struct kab_moved_row *r = &rows.v[k];
		char b[32], h[32], c[32];

		kab_fmt_readable(b, sizeof(b), r->base);
		kab_fmt_readable(h, sizeof(h), r->head);
		if (r->absolute)
			snprintf(c, sizeof(c), "%+.2f", r->change);
		else
			snprintf(c, sizeof(c), "%+.1f%%", r->change);
		printf("    %12s %10s -> %-10s ", c, b, h);
		fput_visible(stdout, r->metric);
		putchar('\n');
	}
	kab_watch_rows_free(&rows);
}

static void print_series(struct kab_db *db, const struct kab_watch_series *s,
			 const char *name, const char *metric)
{
	size_t i, j;

	printf("series %s, %s:\n\n", name, metric);
	printf("  %-12s %16s %8s %5s  %s\n", "commit", "mean", "%stddev",
	       "boots", "subject");
	for (i = 0, j = 0; i < s->nr_rows; i++) {
		const struct kab_point_row *r = &s->rows[i];

		printf("  %.12s ", r->commit);
		if (j < s->nr && s->pts[j].row == r) {
			const struct kab_watch_pt *p = &s->pts[j++];
			char v[32];

			kab_fmt_readable(v, sizeof(v), p->mean);
			printf("%16s %7.1f%% %5zu  ", v, stddev_pct(p), p->n);
		} else if (r->status == KAB_POINT_MEASURED) {
			printf("%16s %8s %5s  ", "(no value)", "", "");
		} else {
			printf("%16s %8s %5s  ", r->status == KAB_POINT_PENDING ?
			       "(pending)" : "(skipped)", "", "");
		}
		fput_visible(stdout, r->subject ? r->subject : "");
		putchar('\n');
	}
	putchar('\n');
	if (s->nr < 4) {
		printf("no change points yet: %zu point%s measured, a change "
		       "needs 2 on each side\n", s->nr, s->nr == 1 ? "" : "s");
		return;
	}
	if (!s->nr_cps) {
		printf("no change point in %zu points\n", s->nr);
		return;
	}
	for (i = 0; i < s->nr_cps; i++) {
		const struct kab_cp *c = &s->cps[i];
		const struct kab_point_row *a = s->pts[c->at - 1].row;
		const struct kab_point_row *b = s->pts[c->at].row;
		char before[32], after[32];

		printf("change point %zu: between %.12s and %.12s: ", i + 1,
		       a->commit, b->commit);
		kab_fmt_readable(before, sizeof(before), c->before);
		kab_fmt_readable(after, sizeof(after), c->after);
		if (c->noise_only)
			printf("the spread changed, not the mean (%s -> %s)",
			       before, after);
		else
			printf("%+.1f%% [%+.1f%%, %+.1f%%] (%s -> %s), "
			       "p = %.3g", c->pct, c->lo, c->hi, before, after,
			       c->p);
		if (s->stored)
			printf(s->is_new[i] ? " (new)" : " (found %s)",
			       s->stored[i].found_at);
		printf("\n  first after: ");
		fput_visible(stdout, b->subject ? b->subject : "");
		putchar('\n');
		if (!c->noise_only)
			print_rows(db, s, i, metric);
		if (s->stored)
			print_check(&s->stored[i], b);
	}
}

/* What kab bisect, run by the watch, needs. */
struct watch_ctx {
	struct kab_db *db;
	const char *db_path;
	const char *tree;
	const char *argv_json;
	int boots;
	const char *setup;		/* a test box's, or NULL */
	double setup_timeout;
};

/*
 * An argument list as its strings end to end, each with its NUL, less
 * the options the watch adds.
 */
static void measuring_part(const json_t *a, struct strbuf *sb)
{
	static const char *const added[] = { "--tree", "--good", "--bad",
					     "--metric", "--boots",
					     "--max-boots", NULL };
	size_t i;

	for (i = 0; i < json_array_size(a); i++) {
		const char *s = json_string_value(json_array_get(a, i));
		int j;

		if (!s)
			s = "";
		for (j = 0; added[j] && strcmp(s, added[j]); j++)
			;
		if (added[j]) {
			i++;	/* and its value */
			continue;
		}
		strbuf_add(sb, s, strlen(s) + 1);
	}
}

/*
 * Was bisect row the watch's own: its metric, and its options less
 * those the watch adds (the tree, the range, the metric, the boots)
 * the watch's measuring options?
 */
static bool ours(const struct kab_bisect_row *row, const char *metric,
		 const json_t *mine)
{
	json_t *a = json_loads(row->argv, 0, NULL);
	struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
	bool same;

	if (!json_is_array(a) || !row->metric || strcmp(row->metric, metric)) {
		json_decref(a);
		return false;
	}
	measuring_part(a, &x);
	measuring_part(mine, &y);
	same = x.len == y.len && (!x.len || !memcmp(x.buf, y.buf, x.len));
	strbuf_release(&x);
	strbuf_release(&y);
	json_decref(a);
	return same;
}

/*
 * kab bisect of good..bad with the watch's measuring options, its
 * output to stderr (stdout is the series'), the result read back.  A
 * bisect of the range the watch started before is taken as it ended,
 * or resumed when it was cut short (the watch killed in it).
 */
static int run_bisect(void *ctx, const char *good, const char *bad,
		      const char *metric, char **first_bad, char **why,
		      struct kab_err *err)
{
	struct watch_ctx *x = ctx;
	json_t *a = json_loads(x->argv_json, 0, NULL), *v;
	struct kab_bisect_row row;
	char *exe = cli_self_exe(), boots[16], resume[24], **argv;
	size_t i, n = 0;
	int64_t id;
	pid_t pid;
	int status = 0;
	bool again = false, told = false;

	*first_bad = *why = NULL;
	if (x->setup) {
		json_array_append_new(a, json_string("--setup"));
		json_array_append_new(a, json_string(x->setup));
		snprintf(boots, sizeof(boots), "%g", x->setup_timeout);
		json_array_append_new(a, json_string("--setup-timeout"));
		json_array_append_new(a, json_string(boots));
	}
	id = kab_db_bisect_find_range(x->db, good, bad);
	if (id && !kab_db_bisect_get(x->db, id, &row, err)) {
		again = ours(&row, metric, a);
		if (again && strcmp(row.status, "running")) {
			kab_bisect_row_free(&row);
			json_decref(a);
			free(exe);
			goto read_back;
		}
		kab_bisect_row_free(&row);
	}
	argv = xcalloc(json_array_size(a) + 20, sizeof(*argv));
	argv[n++] = exe;
	argv[n++] = "--db";
	argv[n++] = (char *)x->db_path;
	argv[n++] = "bisect";
	if (again) {
		snprintf(resume, sizeof(resume), "%lld", (long long)id);
		argv[n++] = "--resume";
		argv[n++] = resume;
		argv[n] = NULL;
		goto spawn;
	}
	json_array_foreach(a, i, v)
		if (json_is_string(v))
			argv[n++] = (char *)json_string_value(v);
	snprintf(boots, sizeof(boots), "%d", x->boots);
	argv[n++] = "--tree";
	argv[n++] = (char *)x->tree;
	argv[n++] = "--good";
	argv[n++] = (char *)good;
	argv[n++] = "--bad";
	argv[n++] = (char *)bad;
	argv[n++] = "--metric";
	argv[n++] = (char *)metric;
	/* the endpoints' test needs two boots a side at least */
	argv[n++] = "--boots";
	argv[n++] = boots;
	argv[n++] = "--max-boots";
	argv[n++] = boots;
	argv[n] = NULL;
spawn:
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		/* killed with the watch: the next pass resumes it */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		dup2(STDERR_FILENO, STDOUT_FILENO);
		execv(exe, argv);
		_exit(127);
	}
	/* the watch stopped (SIGTERM, ^C) stops its bisect, resumed later */
	while (pid > 0) {
		if (kab_stop_requested && !told) {
			kill(pid, SIGTERM);
			told = true;
		}
		if (waitpid(pid, &status, 0) >= 0 || errno != EINTR)
			break;
	}
	free(argv);
	free(exe);
	json_decref(a);
	if (pid < 0)
		return kab_err_set(err, "cannot run kab bisect: %s",
				   strerror(errno));
	/* cut short, it named nothing: not a verdict on the change */
	if (told)
		return kab_err_set(err, "stopped while bisecting %.12s..%.12s:"
				   " the next pass resumes the bisect", good,
				   bad);
read_back:
	id = kab_db_bisect_find_range(x->db, good, bad);
	if (!id) {
		*why = xasprintf("kab bisect ended (status %d) before it "
				 "began", WIFEXITED(status) ?
				 WEXITSTATUS(status) : 128 + WTERMSIG(status));
		return 0;
	}
	if (kab_db_bisect_get(x->db, id, &row, err))
		return -1;
	if (!strcmp(row.status, "done") && row.first_bad)
		*first_bad = xstrdup(row.first_bad);
	else
		*why = xasprintf("bisect %lld %s%s%s", (long long)id,
				 row.status, row.message ? ": " : "",
				 row.message ? row.message : "");
	kab_bisect_row_free(&row);
	return 0;
}

static void on_sent(void *ctx, const struct kab_change_row *c)
{
	const struct bisect_opts *o = ctx;

	if (o->mbox)
		fprintf(stderr, "kab: watch: the message of %.12s is in %s\n",
			c->culprit, o->mbox);
	if (o->sendmail)
		fprintf(stderr, "kab: watch: the message of %.12s was sent\n",
			c->culprit);
}

/* Sleep s seconds unless asked to stop. */
static void nap(double s)
{
	struct timespec t = { .tv_sec = 1 };

	while (s > 0 && !kab_stop_requested) {
		if (s < 1)
			t = (struct timespec){ 0, (long)(s * 1e9) };
		nanosleep(&t, NULL);
		s -= 1;
	}
}

/* What one look at the branch needs. */
struct look {
	struct kab_watch *w;
	const struct bisect_opts *o;
	const char *name;
	const struct kab_cp_opts *cp;
	const struct kab_watch_check_opts *ck;
	const struct kab_watch_html *html;
	const struct kab_watch_mail *mail;
};

/*
 * One look: a pass over the branch, then its series read, its changes
 * noted and checked, said, drawn and mailed.  0, or -1 with err.
 */
static int look(const struct look *l, struct kab_err *err)
{
	const struct bisect_opts *o = l->o;
	struct kab_watch *w = l->w;
	struct kab_watch_series s;
	int rc;

	if (kab_watch_pass(w, err) ||
	    kab_watch_read_series(w->db, w->id, o->metric, l->cp, &s, err))
		return -1;
	rc = kab_watch_note_changes(w->db, w->id, o->metric, &s, err) ||
	     kab_watch_check_changes(w, l->ck, &s, err);
	if (!rc) {
		/* what was found is said before its message goes */
		print_series(w->db, &s, l->name, o->metric);
		fflush(stdout);
		rc = (o->html && kab_watch_html(w, l->html, &s, err)) ||
		     ((o->mbox || o->sendmail) &&
		      kab_watch_mail(w, l->mail, &s, err));
	}
	kab_watch_series_free(&s);
	return rc ? -1 : 0;
}

int cmd_watch(struct cli *cli, int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = runjob_on_signal };
	struct bisect_opts o;
	struct bisect_ctx b;
	struct kab_watch w;
	struct kab_cp_opts cp;
	struct kab_watch_check_opts ck;
	struct kab_watch_mail mail;
	struct kab_watch_html html = { .bisect_tree = bisect_stored_tree };
	struct watch_ctx wctx;
	struct kab_db *db = NULL;
	struct kab_err err;
	char *name = NULL, *args = NULL, *sender = NULL;
	int lock = -1, rc;

	rc = bisect_parse(argc, argv, CMD_WATCH, &o);
	if (rc < 0) {
		watch_usage(stdout);
		bisect_opts_free(&o);
		return EXIT_OK;
	}
	if (rc) {
		bisect_opts_free(&o);
		return rc;
	}
	if (!kab_tree_is_git(o.tree)) {
		rc = cli_error(EXIT_USAGE, "--tree %s: kab watch follows a "
			       "branch of a git tree: give the top of one",
			       o.tree);
		goto out_opts;
	}
	/* a branch of the remote may only be there once fetched */
	if (o.fetch && kab_watch_fetch(o.tree, o.fetch, &err))
		cli_note("git fetch %s: %s: following %s as it is", o.fetch,
			 err.msg, o.branch);
	/* the range is the user's to fix: said before anything is stored */
	{
		struct kab_commit *c;
		size_t nr;

		if (kab_tree_revlist(o.tree, o.from, o.branch, !o.all_commits,
				     &c, &nr, &err)) {
			rc = cli_error(EXIT_USAGE, "%s", err.msg);
			goto out_opts;
		}
		kab_commits_free(c, nr);
	}
	rc = bisect_check_job(&o);
	if (rc)
		goto out_opts;
	html.metric = o.metric;
	html.dir = o.html;
	sender = o.mail_from ? xstrdup(o.mail_from) : cli_git_sender();
	mail = (struct kab_watch_mail){
		.metric = o.metric,
		.from = sender,
		.to = (const char *const *)o.mail_to,
		.nr_to = (size_t)o.nr_mail_to,
		.cc = (const char *const *)o.mail_cc,
		.nr_cc = (size_t)o.nr_mail_cc,
		.trailers = (const char *const *)o.trailers,
		.nr_trailers = (size_t)o.nr_trailers,
		.mbox = o.mbox,
		.sendmail = o.sendmail,
		.bisect_tree = bisect_stored_tree,
		.ctx = &o,
		.sent = on_sent,
	};
	if ((o.nr_mail_to || o.nr_mail_cc || o.nr_trailers) && !o.mbox &&
	    !o.sendmail) {
		rc = cli_error(EXIT_USAGE, "--mail-to, --mail-cc and --trailer "
			       "are a message's: add --mbox FILE or "
			       "--sendmail CMD");
		goto out_opts;
	}
	if (o.mbox || o.sendmail) {
		struct report_mail m = {
			.from = o.mail_from, .from_opt = "--mail-from",
			.to = mail.to, .nr_to = mail.nr_to,
			.cc = mail.cc, .nr_cc = mail.nr_cc,
		};

		if (report_mail_check(&m, &err)) {
			rc = cli_error(EXIT_USAGE, "%s", err.msg);
			goto out_opts;
		}
	}
	if ((o.mbox || o.sendmail) && !sender) {
		rc = cli_error(EXIT_USAGE, "%s: a message needs a sender: "
			       "pass --mail-from 'Name <you@example.org>' or "
			       "set git config user.email",
			       o.mbox ? "--mbox" : "--sendmail");
		goto out_opts;
	}
	if ((o.mbox || o.sendmail) && !o.mail_from) {
		struct report_mail m = {
			.from = sender,
			.from_opt = "the sender in git config user.email",
		};

		if (report_mail_check(&m, &err)) {
			rc = cli_error(EXIT_USAGE, "%s: pass --mail-from", err.msg);
			goto out_opts;
		}
	}
	if (cli_open_db(cli, o.db, KAB_DB_WRITE, &db)) {
		rc = EXIT_RUN;
		goto out_opts;
	}
	lock = kab_watch_lock(kab_db_path(db), &err);
	if (lock < 0) {
		rc = cli_error(EXIT_RUN, "%s", err.msg);
		goto out_db;
	}
	rc = bisect_ctx_init(&b, &o, db);
	if (rc)
		goto out_db;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	name = o.name ? xstrdup(o.name) : default_name(o.tree, o.branch);
	args = measuring_args(argc, argv);
	memset(&w, 0, sizeof(w));
	w.db = db;
	w.db_path = kab_db_path(db);
	w.name = name;
	w.tree = o.tree;
	w.from = o.from;
	w.branch = o.branch;
	w.fetch = o.fetch;
	w.fetched = o.fetch != NULL;
	w.all_commits = o.all_commits;
	w.every = o.every;
	w.merges = o.merges;
	w.max_points = o.max_points;
	w.boots = o.boots;
	w.argv_json = args;
	w.d = b.d;
	w.ui = &b.ui.ui;
	w.planned = on_planned;
	w.point_done = on_point;
	wctx = (struct watch_ctx){
		.db = db,
		.db_path = kab_db_path(db),
		.tree = o.tree,
		.argv_json = args,
		.boots = o.max_boots < 2 ? 2 : o.max_boots,
		.setup = o.setup,
		.setup_timeout = o.setup_timeout,
	};
	w.ctx = &wctx;
	w.bisect = run_bisect;
	ck = (struct kab_watch_check_opts){
		.metric = o.metric,
		.boots = o.max_boots < 2 ? 2 : o.max_boots,
		.alpha = 0.05,
		.noise = o.noise,
	};
	kab_cp_defaults(&cp);
	cp.noise = o.noise;
	if (o.alpha != 0.05)
		cp.alpha = o.alpha;
	for (;;) {
		struct look l = { &w, &o, name, &cp, &ck, &html, &mail };

		if (look(&l, &err)) {
			rc = cli_error(EXIT_RUN, "%s", err.msg);
			break;
		}
		rc = EXIT_OK;
		if (o.once || kab_stop_requested)
			break;
		nap(o.interval);
		if (kab_stop_requested)
			break;
	}
	bisect_ctx_free(&b);
out_db:
	if (lock >= 0)
		close(lock);
	kab_db_close(db);
out_opts:
	free(sender);
	free(name);
	free(args);
	bisect_opts_free(&o);
	return runjob_stop_code(rc);
}
