/* SPDX-License-Identifier: GPL-2.0 */
/*
 * watch.h - kab watch: a branch followed from a commit, each commit
 * (or each Nth) built, booted and measured as a bisect measures one,
 * stored as a point of the branch's series; the series' change points
 * found by E-divisive means (analysis/changepoint.c).
 *
 * A watch is resumable: each point is stored when its boots end, and a
 * pass measures only the points still pending.  One watcher at a time
 * follows a database (kab_watch_lock).  The library prints nothing:
 * it speaks through the driver's kab_drv_ui and its own hooks.
 */
#ifndef KAB_WATCH_H
#define KAB_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../analysis/analysis.h"
#include "../db/db.h"
#include "../driver/driver.h"
#include "../model/model.h"

struct kab_watch {
	struct kab_db *db;
	const char *db_path;
	const char *name;		/* the series' name in the database */
	const char *tree;
	const char *from;		/* the series' first commit */
	const char *branch;		/* its head: a ref, followed */
	const char *fetch;		/* git fetch this remote first, or
					   NULL */
	bool fetched;			/* the caller just did: the next pass
					   need not */
	bool all_commits;		/* not only the first-parent line */
	bool merges;			/* only its merges (with the first
					   and the head) */
	int every;			/* every Nth commit (1), with the
					   first and the head */
	int max_points;			/* a pass measures at most these
					   (0: all pending) */
	int boots;			/* boots a commit */
	const char *argv_json;		/* the measuring options, stored */
	struct kab_drv_bisect d;	/* how a commit is measured */
	const struct kab_drv_ui *ui;
	/* hooks, may be NULL */
	void *ctx;
	/* a pass found the branch's points: nr in all, pending to do */
	void (*planned)(void *ctx, size_t nr, size_t pending,
			bool created);
	/* point i of nr was measured (or skipped) */
	void (*point_done)(void *ctx, const struct kab_point_row *p,
			   size_t i, size_t nr);
	/*
	 * Bisect good..bad for metric (the front end's kab bisect, which
	 * holds the tree's lock itself): 0 with the first bad commit in
	 * *first_bad, or NULL and *why; -1 with err.  NULL: a change
	 * between commits that are not neighbours is not isolated.
	 */
	int (*bisect)(void *ctx, const char *good, const char *bad,
		      const char *metric, char **first_bad, char **why,
		      struct kab_err *err);
	/* out */
	int64_t id;
	char head[65];			/* the branch's head at the pass */
};

/*
 * Hold the database's watch lock: one kab watch a database at a time,
 * released when the process ends however it ends.  The descriptor to
 * close, or -1 with err (another holds it).
 */
int kab_watch_lock(const char *db_path, struct kab_err *err);

/*
 * One pass: the branch's commits from w->from to its head now, added to
 * the series (new ones pending), then each pending point measured in
 * the branch's order and stored as it ends.  0 when every point it
 * tried is stored; -1 with err (kab's own failure, or stopped by
 * kab_stop_requested: the points done stay done).
 */
int kab_watch_pass(struct kab_watch *w, struct kab_err *err);
/* git fetch remote in tree: 0, or -1 with err (what git said). */
int kab_watch_fetch(const char *tree, const char *remote,
		    struct kab_err *err);

/* A series of one metric: each measured point's boot means. */
struct kab_watch_pt {
	const struct kab_point_row *row;
	double *v;			/* its boots' means of the metric */
	unsigned int *seed;		/* their layout seeds (0: none) */
	size_t n;
	double mean;
};

struct kab_watch_series {
	struct kab_point_row *rows;	/* every point, pending ones too */
	size_t nr_rows;
	struct kab_watch_pt *pts;	/* the measured ones with values */
	size_t nr;
	struct kab_cp *cps;		/* its change points */
	size_t nr_cps;
	/* by kab_watch_note_changes: each change point as stored */
	struct kab_change_row *stored;
	bool *is_new;			/* found by this call */
};

/*
 * The series of metric over watch id's measured points, and its change
 * points under o.  0, or -1 with err.
 */
int kab_watch_read_series(struct kab_db *db, int64_t id,
			  const char *metric, const struct kab_cp_opts *o,
			  struct kab_watch_series *s, struct kab_err *err);
void kab_watch_series_free(struct kab_watch_series *s);
/*
 * Store s's change points of metric in the watch's record of them,
 * each once: s->stored and s->is_new say what each was.  0, or -1.
 */
int kab_watch_note_changes(struct kab_db *db, int64_t id,
			   const char *metric, struct kab_watch_series *s,
			   struct kab_err *err);

/* How a change point's culprit is checked. */
struct kab_watch_check_opts {
	const char *metric;
	size_t boots;		/* boots of each side of a check (2 or more) */
	double alpha, noise;	/* the bisect's test */
};

struct kab_watch_check {
	char *culprit;		/* verified: the commit; else NULL */
	bool verified;
	char *evidence;		/* what each check found, a line each */
};

/*
 * Check change point c of w's series (a change of the mean): when its
 * two commits are neighbours on the first-parent line, the later
 * against its parent, then reverted on top of head against head, each
 * with o->boots boots a side (the points' boots first, then more at
 * the next layout seeds); verified when both move as the change did.
 * Holds the tree's lock.  0 with out filled (a change that is not
 * isolated says why in out->evidence); -1 with err.
 */
int kab_watch_check(struct kab_watch *w, const struct kab_watch_check_opts *o,
		    const struct kab_change_row *c, const char *head,
		    struct kab_watch_check *out, struct kab_err *err);
void kab_watch_check_free(struct kab_watch_check *c);
/*
 * Where change i of s has its culprit reverted: the last commit the
 * change still holds at, the last point before the next change of the
 * mean, or w->head when none follows (a later change to the same code,
 * a fix say, would undo the revert's effect or conflict with it).
 */
const char *kab_watch_revert_base(const struct kab_watch *w,
				  const struct kab_watch_series *s, size_t i);
/*
 * kab_watch_check() of each change of the mean in s that is found but
 * not checked yet, against the last commit it holds at: the last point
 * before the next change of the mean, else w->head; each stored as it
 * ends, s->stored updated.  0, or -1 with err.
 */
int kab_watch_check_changes(struct kab_watch *w,
			    const struct kab_watch_check_opts *o,
			    struct kab_watch_series *s, struct kab_err *err);

/* How the robot's messages go out. */
struct kab_watch_mail {
	const char *metric;
	const char *from;		/* "Name <addr>", checked */
	const char *const *to, *const *cc;
	size_t nr_to, nr_cc;
	const char *const *trailers;	/* "Key: value"; none: Reported-by */
	size_t nr_trailers;
	const char *mbox;		/* appended to, or NULL */
	const char *sendmail;		/* sh -c CMD kab-sendmail FILE, the
					   message on stdin; or NULL */
	char *(*bisect_tree)(struct kab_db *db, int64_t id);
	void *ctx;
	void (*sent)(void *ctx, const struct kab_change_row *c);
};

/*
 * The robot's message of each verified change of s not mailed yet:
 * kab's report of the culprit against its parent, led by how it was
 * found and checked; through o->sendmail, then into o->mbox.  Marked
 * mailed before it goes (a kill in between loses that message rather
 * than sending it twice); unmarked again when it could not go.  0, or
 * -1 with err.
 */
int kab_watch_mail(struct kab_watch *w, const struct kab_watch_mail *o,
		   struct kab_watch_series *s, struct kab_err *err);

/* lkp's other rows that moved at a change point. */
struct kab_moved_row {
	char *metric;
	double base, head;		/* the means either side */
	double change;			/* lkp's %change, or absolute */
	bool absolute;
	double p;			/* adjusted over the family */
	double sure;			/* interval from 0, in its widths */
};

struct kab_watch_rows {
	struct kab_moved_row *v;	/* surest first, at most max */
	size_t nr;
	size_t moved;			/* how many moved in all */
	size_t family;			/* the other rows tested */
};

/*
 * The other rows at change point i of s (metric's): the boots of the
 * points from the change point of the mean before it (or the first) to
 * it, against those from it to the next (or the last), compared as kab
 * compare compares two sides, metric the KPI, the rest a second family
 * at FDR 0.05; those that moved, surest first, at most max.  0, or -1
 * with err.
 */
int kab_watch_rows(struct kab_db *db, const struct kab_watch_series *s,
		   size_t i, const char *metric, size_t max,
		   struct kab_watch_rows *out, struct kab_err *err);
void kab_watch_rows_free(struct kab_watch_rows *r);

/* The series' page. */
struct kab_watch_html {
	const char *metric;
	const char *dir;		/* made when missing */
	char *(*bisect_tree)(struct kab_db *db, int64_t id);
};

/*
 * DIR/index.html: s's chart (a dot per boot, each change point marked
 * and linked to its culprit's report), its change points and commits;
 * each verified culprit's report beside it as CULPRIT.html (written
 * once).  0, or -1 with err.
 */
int kab_watch_html(struct kab_watch *w, const struct kab_watch_html *o,
		   const struct kab_watch_series *s, struct kab_err *err);

#endif /* KAB_WATCH_H */
