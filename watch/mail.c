// SPDX-License-Identifier: GPL-2.0
/*
 * mail.c - the robot's message of each verified change point: kab's
 * report of the culprit against its parent (report/), led by how the
 * watch found and checked it, appended to an mbox and/or handed to a
 * sendmail-like command; each change mailed once.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kbuild/kbuild.h"
#include "internal.h"

#define MAIL_COLS 72

/*
 * Text as lines of at most MAIL_COLS columns where it can break (at
 * spaces), the first led by lead and the rest by cont; made visible.
 */
static void add_prose(struct strbuf *sb, const char *text, size_t n,
		      const char *lead, const char *cont)
{
	struct strbuf v = STRBUF_INIT;
	size_t col, i = 0, w;

	strbuf_add_visible(&v, text, n);
	strbuf_addstr(sb, lead);
	col = strlen(lead);
	while (i < v.len) {
		while (i < v.len && v.buf[i] == ' ')
			i++;
		for (w = 0; i + w < v.len && v.buf[i + w] != ' '; w++)
			;
		if (!w)
			break;
		if (col > strlen(lead) && col + 1 + w > MAIL_COLS) {
			strbuf_addf(sb, "\n%s", cont);
			col = strlen(cont);
		} else if (col > strlen(lead)) {
			strbuf_addstr(sb, " ");
			col++;
		}
		strbuf_add(sb, v.buf + i, w);
		col += w;
		i += w;
	}
	strbuf_addstr(sb, "\n");
	strbuf_release(&v);
}

/*
 * The numbers of the series' chart around change point i: each commit
 * from the change point before it to the one after, its boots' mean
 * and how many, a line each, the change marked where it lies.
 */
static void add_series(struct strbuf *sb, const struct kab_watch_series *s,
		       size_t i)
{
	size_t a, b, k;

	watch_segment(s, i, &a, &b);
	strbuf_addstr(sb, "\nThe series around it (each commit's boots' mean):"
		      "\n\n");
	for (k = a; k < b; k++) {
		const struct kab_watch_pt *p = &s->pts[k];
		char v[32];

		if (k == s->cps[i].at)
			strbuf_addstr(sb, "  -------- the change point --------"
				      "\n");
		kab_fmt_readable(v, sizeof(v), p->mean);
		strbuf_addf(sb, "  %.12s %12s  %zu boot%s  ", p->row->commit, v,
			    p->n, p->n == 1 ? " " : "s");
		strbuf_add_visible(sb, p->row->subject ? p->row->subject : "",
				   p->row->subject ?
				   strnlen(p->row->subject, 34) : 0);
		strbuf_addstr(sb, "\n");
	}
}

/* What the robot's message says first: how the watch found the change. */
static char *preface(const struct kab_watch *w, const char *metric,
		     const struct kab_change_row *c,
		     const struct kab_watch_series *s, size_t i)
{
	struct strbuf sb = STRBUF_INIT, t = STRBUF_INIT;
	const char *l, *e;

	strbuf_addf(&t, "kab watch followed %s from %s and found a change "
		    "point of %s between %.12s and %.12s: %+.1f%% [%+.1f%%, "
		    "%+.1f%%], p = %.3g.  Its culprit was checked as KernelCI "
		    "checks one:", w->branch, w->from, metric, c->before,
		    c->after, c->pct, c->lo, c->hi, c->p);
	add_prose(&sb, t.buf, t.len, "", "");
	strbuf_release(&t);
	for (l = c->evidence; l && *l; l = e) {
		e = strchr(l, '\n');
		add_prose(&sb, l, e ? (size_t)(e - l) : strlen(l), "- ",
			  "  ");
		e = e ? e + 1 : l + strlen(l);
	}
	add_series(&sb, s, i);
	return strbuf_detach(&sb);
}

int watch_culprit_report(struct kab_watch *w, const char *culprit,
			 struct report_opts *ro, struct report *r,
			 struct kab_err *err)
{
	char base[13], head[13], *spec, *parent;

	memset(r, 0, sizeof(*r));
	spec = xasprintf("%s^", culprit);
	parent = kab_tree_commit(w->tree, spec, err);
	free(spec);
	if (!parent)
		return -1;
	snprintf(base, sizeof(base), "%.12s", parent);
	snprintf(head, sizeof(head), "%.12s", culprit);
	free(parent);
	if (report_build(w->db, base, head, ro, r, err)) {
		report_free(r);
		return kab_err_prefix(err, "the report of %s", head);
	}
	return 0;
}

/* The message of change c: malloc'd, or NULL with err. */
static char *message(struct kab_watch *w, const struct kab_watch_mail *o,
		     const struct kab_watch_series *s, size_t i,
		     struct kab_err *err)
{
	const struct kab_change_row *c = &s->stored[i];
	struct report_opts ro = {
		.c = { .test = KAB_TEST_WELCH, .fdr = 0.05, .noise = -1 },
		.reported_by = o->from,
		.trailers = o->trailers,
		.nr_trailers = o->nr_trailers,
		.bisect_tree = o->bisect_tree,
		.subject_prefix = w->name,	/* as the robot's [tree:branch] */
	};
	struct report_mail m = {
		.from = o->from, .to = o->to, .nr_to = o->nr_to,
		.cc = o->cc, .nr_cc = o->nr_cc, .date = time(NULL),
	};
	char *msg;
	struct report r;

	if (watch_culprit_report(w, c->culprit, &ro, &r, err))
		return NULL;
	r.preface = preface(w, o->metric, c, s, i);
	msg = report_mbox(&r, &m, err);
	report_free(&r);
	return msg;
}

static int append_mbox(const char *path, const char *msg,
		       struct kab_err *err)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0 || write_all(fd, msg, strlen(msg)) || fsync(fd)) {
		kab_err_set(err, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return close(fd) ? kab_err_set(err, "%s: %s", path,
				       strerror(errno)) : 0;
}

/*
 * Hand msg to the shell command cmd, as git's sendemail.sendmailCmd is
 * run: the message on its stdin and the path of a file holding it as
 * "$1"; what it prints goes where kab's errors go.  0 when it exits 0.
 */
static int send_cmd(const char *cmd, const char *msg, struct kab_err *err)
{
	char *path = scratch_template("kab-mail");
	int fd = mkstemp(path), st;
	pid_t pid;

	scratch_sweep("kab-mail");
	if (fd < 0 || write_all(fd, msg, strlen(msg)) ||
	    lseek(fd, 0, SEEK_SET)) {
		kab_err_set(err, "a scratch file for the message: %s",
			    strerror(errno));
		goto fail;
	}
	pid = fork();
	if (pid < 0) {
		kab_err_set(err, "fork: %s", strerror(errno));
		goto fail;
	}
	if (!pid) {
		if (dup2(fd, 0) < 0 || dup2(2, 1) < 0)
			_exit(127);
		execl("/bin/sh", "sh", "-c", cmd, "kab-sendmail", path,
		      (char *)NULL);
		_exit(127);
	}
	st = kab_wait(pid);
	close(fd);
	unlink(path);
	free(path);
	if (st)
		return kab_err_set(err, "--sendmail '%s' exited with %d",
				   cmd, st);
	return 0;
fail:
	if (fd >= 0) {
		close(fd);
		unlink(path);
	}
	free(path);
	return -1;
}

int kab_watch_mail(struct kab_watch *w, const struct kab_watch_mail *o,
		   struct kab_watch_series *s, struct kab_err *err)
{
	size_t i;
	int rc;

	for (i = 0; i < s->nr_cps && s->stored; i++) {
		struct kab_change_row *c = &s->stored[i];
		char *msg;

		if (strcmp(c->status, "verified") || c->mailed || !c->culprit)
			continue;
		msg = message(w, o, s, i, err);
		if (!msg)
			return -1;
		/* marked first: a kill between the two loses one message */
		rc = kab_db_change_mailed(w->db, c->id, err);
		if (rc) {
			free(msg);
			if (rc < 0)
				return -1;
			c->mailed = true;
			continue;
		}
		/* sent first: a message sent is never sent again */
		if (o->sendmail && send_cmd(o->sendmail, msg, err)) {
			struct kab_err e2;

			free(msg);
			kab_err_prefix(err, "the message of %.12s (kept for "
				       "the next pass)", c->culprit);
			kab_db_change_unmailed(w->db, c->id, &e2);
			return -1;
		}
		if (o->mbox && append_mbox(o->mbox, msg, err)) {
			struct kab_err e2;

			free(msg);
			if (o->sendmail)
				return kab_err_prefix(err, "the message of "
						      "%.12s was sent but not "
						      "kept", c->culprit);
			kab_err_prefix(err, "the message of %.12s (kept for "
				       "the next pass)", c->culprit);
			kab_db_change_unmailed(w->db, c->id, &e2);
			return -1;
		}
		free(msg);
		c->mailed = true;
		if (o->sent)
			o->sent(o->ctx, c);
	}
	return 0;
}
