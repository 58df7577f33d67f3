// SPDX-License-Identifier: GPL-2.0
/*
 * watches.c - kab watch's series: the branch a watch follows, and each
 * commit of it as a point, pending until measured or skipped.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static char *column(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? xstrdup((const char *)t) : NULL;
}

void kab_watch_row_free(struct kab_watch_row *r)
{
	free(r->name);
	free(r->tree);
	free(r->branch);
	free(r->base);
	free(r->argv);
	free(r->created_at);
	memset(r, 0, sizeof(*r));
}

/* 0 found, 1 none, -1 error. */
int kab_db_watch_get(struct kab_db *db, const char *name,
		     struct kab_watch_row *out, struct kab_err *err)
{
	sqlite3_stmt *st;
	int rc;

	memset(out, 0, sizeof(*out));
	if (sqlite3_prepare_v2(db->h, "SELECT id, name, tree, branch, base, "
			       "argv, created_at FROM watches WHERE name = ?",
			       -1, &st, NULL))
		return db_fail(db, err, "reading the watch");
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		out->id = sqlite3_column_int64(st, 0);
		out->name = column(st, 1);
		out->tree = column(st, 2);
		out->branch = column(st, 3);
		out->base = column(st, 4);
		out->argv = column(st, 5);
		out->created_at = column(st, 6);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 0;
	if (rc == SQLITE_DONE)
		return 1;
	return db_fail(db, err, "reading the watch");
}

int kab_db_watch_open(struct kab_db *db, const struct kab_watch_row *want,
		      int64_t *id, bool *created, struct kab_err *err)
{
	struct kab_watch_row have;
	const char *what = NULL, *was = NULL, *now = NULL;
	sqlite3_stmt *st;
	char stamp[32];
	int rc;

	rc = kab_db_watch_get(db, want->name, &have, err);
	if (rc < 0)
		return -1;
	if (rc == 0) {
		if (strcmp(have.tree, want->tree))
			what = "another tree", was = have.tree,
			now = want->tree;
		else if (strcmp(have.branch, want->branch))
			what = "another branch", was = have.branch,
			now = want->branch;
		else if (strcmp(have.base, want->base))
			what = "another base", was = have.base,
			now = want->base;
		else if (strcmp(have.argv, want->argv))
			what = "other measuring options", was = have.argv,
			now = want->argv;
		if (what)
			kab_err_set(err, "watch '%s' follows %s (%s, "
				    "not %s): its points would not compare; "
				    "give a new --name for this one",
				    want->name, what, was, now);
		*id = have.id;
		*created = false;
		kab_watch_row_free(&have);
		return what ? -1 : 0;
	}
	if (sqlite3_prepare_v2(db->h, "INSERT INTO watches (name, tree, "
			       "branch, base, argv, created_at) VALUES "
			       "(?, ?, ?, ?, ?, ?)", -1, &st, NULL))
		return db_fail(db, err, "storing the watch");
	iso8601_utc(now_wall(), stamp, sizeof(stamp));
	sqlite3_bind_text(st, 1, want->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, want->tree, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, want->branch, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, want->base, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, want->argv, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, stamp, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(db, err, "storing the watch");
	*id = sqlite3_last_insert_rowid(db->h);
	*created = true;
	return 0;
}

int kab_db_point_add(struct kab_db *db, int64_t watch, const char *commit,
		     const char *subject, int64_t seq, struct kab_err *err)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db->h, "INSERT INTO watch_points (watch_id, "
			       "commit_sha, seq, subject) VALUES (?, ?, ?, ?) "
			       "ON CONFLICT (watch_id, commit_sha) DO UPDATE "
			       "SET seq = excluded.seq", -1, &st, NULL))
		return db_fail(db, err, "storing the series");
	sqlite3_bind_int64(st, 1, watch);
	sqlite3_bind_text(st, 2, commit, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, seq);
	sqlite3_bind_text(st, 4, subject, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_fail(db, err, "storing the series");
}

static const char *const status_names[] = {
	[KAB_POINT_PENDING] = "pending",
	[KAB_POINT_MEASURED] = "measured",
	[KAB_POINT_SKIPPED] = "skipped",
};

int kab_db_point_done(struct kab_db *db, int64_t watch, const char *commit,
		      enum kab_point_status status, const int64_t *runs,
		      size_t nr_runs, const char *why, struct kab_err *err)
{
	struct strbuf r = STRBUF_INIT;
	sqlite3_stmt *st;
	char stamp[32];
	size_t i;
	int rc;

	for (i = 0; i < nr_runs; i++)
		strbuf_addf(&r, "%s%" PRId64, i ? "," : "", runs[i]);
	if (sqlite3_prepare_v2(db->h, "UPDATE watch_points SET status = ?, "
			       "runs = ?, why = ?, measured_at = ? WHERE "
			       "watch_id = ? AND commit_sha = ?", -1, &st,
			       NULL)) {
		strbuf_release(&r);
		return db_fail(db, err, "storing a point of the series");
	}
	iso8601_utc(now_wall(), stamp, sizeof(stamp));
	sqlite3_bind_text(st, 1, status_names[status], -1, SQLITE_STATIC);
	if (r.len)
		sqlite3_bind_text(st, 2, r.buf, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, why, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, stamp, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, watch);
	sqlite3_bind_text(st, 6, commit, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	strbuf_release(&r);
	if (rc != SQLITE_DONE)
		return db_fail(db, err, "storing a point of the series");
	if (sqlite3_changes(db->h) != 1)
		return kab_err_set(err, "commit %s is not a point of watch "
				   "%" PRId64, commit, watch);
	return 0;
}

/* "3,4,5" into ids; anything else in the list ends it. */
static void parse_runs(const char *s, struct kab_point_row *p)
{
	const char *c = s;
	char *end;
	long long v;

	while (c && *c) {
		errno = 0;
		v = strtoll(c, &end, 10);
		if (end == c || errno || v <= 0)
			break;
		p->runs = xrealloc(p->runs, (p->nr_runs + 1) *
				   sizeof(*p->runs));
		p->runs[p->nr_runs++] = v;
		c = *end == ',' ? end + 1 : NULL;
	}
}

int kab_db_points(struct kab_db *db, int64_t watch,
		  struct kab_point_row **out, size_t *nr,
		  struct kab_err *err)
{
	struct kab_point_row *p = NULL, *q;
	sqlite3_stmt *st;
	const char *status, *runs;
	size_t n = 0;
	int rc;

	*out = NULL;
	*nr = 0;
	if (sqlite3_prepare_v2(db->h, "SELECT commit_sha, subject, seq, "
			       "status, why, runs FROM watch_points WHERE "
			       "watch_id = ? ORDER BY seq", -1, &st, NULL))
		return db_fail(db, err, "reading the series");
	sqlite3_bind_int64(st, 1, watch);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		p = xrealloc(p, (n + 1) * sizeof(*p));
		q = &p[n++];
		memset(q, 0, sizeof(*q));
		q->commit = column(st, 0);
		q->subject = column(st, 1);
		q->seq = sqlite3_column_int64(st, 2);
		status = (const char *)sqlite3_column_text(st, 3);
		q->status = !strcmp(status, "measured") ? KAB_POINT_MEASURED :
			    !strcmp(status, "skipped") ? KAB_POINT_SKIPPED :
			    KAB_POINT_PENDING;
		q->why = column(st, 4);
		runs = (const char *)sqlite3_column_text(st, 5);
		parse_runs(runs, q);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		kab_points_free(p, n);
		return db_fail(db, err, "reading the series");
	}
	*out = p;
	*nr = n;
	return 0;
}

void kab_points_free(struct kab_point_row *p, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(p[i].commit);
		free(p[i].subject);
		free(p[i].why);
		free(p[i].runs);
	}
	free(p);
}

int kab_db_point_measured_elsewhere(struct kab_db *db, int64_t watch,
				    const char *commit,
				    struct kab_point_row *out,
				    struct kab_err *err)
{
	sqlite3_stmt *st;
	int rc;

	memset(out, 0, sizeof(*out));
	if (sqlite3_prepare_v2(db->h, "SELECT p.runs FROM watch_points p "
			       "JOIN watches o ON o.id = p.watch_id JOIN "
			       "watches w ON w.id = ? AND w.argv = o.argv "
			       "AND w.tree = o.tree WHERE p.watch_id != ? AND "
			       "p.commit_sha = ? AND p.status = 'measured' "
			       "ORDER BY p.measured_at LIMIT 1", -1, &st,
			       NULL))
		return db_fail(db, err, "reading the series");
	sqlite3_bind_int64(st, 1, watch);
	sqlite3_bind_int64(st, 2, watch);
	sqlite3_bind_text(st, 3, commit, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		parse_runs((const char *)sqlite3_column_text(st, 0), out);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_fail(db, err, "reading the series");
	return out->nr_runs ? 0 : 1;
}

int kab_db_change_note(struct kab_db *db, int64_t watch,
		       struct kab_change_row *c, bool *is_new,
		       struct kab_err *err)
{
	const char *kind = c->spread ? "spread" : "mean";
	sqlite3_stmt *st;
	char stamp[32];
	int rc;

	if (sqlite3_prepare_v2(db->h, "INSERT INTO watch_changes (watch_id, "
			       "metric, before_sha, after_sha, kind, pct, lo, "
			       "hi, p, found_at) VALUES (?, ?, ?, ?, ?, ?, ?, "
			       "?, ?, ?) ON CONFLICT DO NOTHING", -1, &st,
			       NULL))
		return db_fail(db, err, "storing a change point");
	iso8601_utc(now_wall(), stamp, sizeof(stamp));
	sqlite3_bind_int64(st, 1, watch);
	sqlite3_bind_text(st, 2, c->metric, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, c->before, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, c->after, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, kind, -1, SQLITE_STATIC);
	sqlite3_bind_double(st, 6, c->pct);
	sqlite3_bind_double(st, 7, c->lo);
	sqlite3_bind_double(st, 8, c->hi);
	sqlite3_bind_double(st, 9, c->p);
	sqlite3_bind_text(st, 10, stamp, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(db, err, "storing a change point");
	*is_new = sqlite3_changes(db->h) == 1;
	if (sqlite3_prepare_v2(db->h, "SELECT id, found_at, status, culprit, "
			       "evidence, mailed_at IS NOT NULL FROM "
			       "watch_changes WHERE watch_id = ? "
			       "AND metric = ? AND before_sha = ? AND "
			       "after_sha = ? AND kind = ?", -1, &st, NULL))
		return db_fail(db, err, "reading a change point");
	sqlite3_bind_int64(st, 1, watch);
	sqlite3_bind_text(st, 2, c->metric, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, c->before, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, c->after, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, kind, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		c->id = sqlite3_column_int64(st, 0);
		snprintf(c->found_at, sizeof(c->found_at), "%s",
			 (const char *)sqlite3_column_text(st, 1));
		snprintf(c->status, sizeof(c->status), "%s",
			 (const char *)sqlite3_column_text(st, 2));
		free(c->culprit);
		free(c->evidence);
		c->culprit = column(st, 3);
		c->evidence = column(st, 4);
		c->mailed = sqlite3_column_int(st, 5);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : db_fail(db, err, "reading a change "
					      "point");
}

void kab_change_row_free(struct kab_change_row *c)
{
	free(c->culprit);
	free(c->evidence);
	c->culprit = c->evidence = NULL;
}

int kab_db_change_checked(struct kab_db *db, int64_t id, const char *status,
			  const char *culprit, const char *evidence,
			  struct kab_err *err)
{
	sqlite3_stmt *st;
	char stamp[32];
	int rc;

	if (sqlite3_prepare_v2(db->h, "UPDATE watch_changes SET status = ?, "
			       "culprit = ?, evidence = ?, checked_at = ? "
			       "WHERE id = ?", -1, &st, NULL))
		return db_fail(db, err, "storing a change point's check");
	iso8601_utc(now_wall(), stamp, sizeof(stamp));
	sqlite3_bind_text(st, 1, status, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, culprit, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, evidence, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, stamp, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, id);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_fail(db, err, "storing a change "
					       "point's check");
}

int kab_db_point_runs(struct kab_db *db, int64_t watch, const char *commit,
		      int64_t **runs, size_t *nr, struct kab_err *err)
{
	struct kab_point_row p = { 0 };
	sqlite3_stmt *st;
	int rc;

	*runs = NULL;
	*nr = 0;
	if (sqlite3_prepare_v2(db->h, "SELECT runs FROM watch_points WHERE "
			       "watch_id = ? AND commit_sha = ? AND status = "
			       "'measured'", -1, &st, NULL))
		return db_fail(db, err, "reading the series");
	sqlite3_bind_int64(st, 1, watch);
	sqlite3_bind_text(st, 2, commit, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		parse_runs((const char *)sqlite3_column_text(st, 0), &p);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_fail(db, err, "reading the series");
	*runs = p.runs;
	*nr = p.nr_runs;
	return 0;
}

int kab_db_change_mailed(struct kab_db *db, int64_t id, struct kab_err *err)
{
	sqlite3_stmt *st;
	char stamp[32];
	int rc;

	if (sqlite3_prepare_v2(db->h, "UPDATE watch_changes SET mailed_at = "
			       "? WHERE id = ? AND mailed_at IS NULL", -1, &st,
			       NULL))
		return db_fail(db, err, "marking a change point mailed");
	iso8601_utc(now_wall(), stamp, sizeof(stamp));
	sqlite3_bind_text(st, 1, stamp, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, id);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(db, err, "marking a change point mailed");
	return sqlite3_changes(db->h) == 1 ? 0 : 1;
}

int kab_db_change_unmailed(struct kab_db *db, int64_t id,
			   struct kab_err *err)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db->h, "UPDATE watch_changes SET mailed_at = "
			       "NULL WHERE id = ?", -1, &st, NULL))
		return db_fail(db, err, "unmarking a change point mailed");
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(db, err, "unmarking a change point mailed");
	return 0;
}
