// SPDX-License-Identifier: GPL-2.0
/*
 * pass.c - one pass of a watch: the branch's commits added to its
 * series, and the pending ones measured in the branch's order, each
 * stored as its boots end.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/* Is commit i of nr a point of a series measuring every Nth? */
/*
 * Which commits of the branch are points: the first and the head
 * always; of the others, the merges when only they are asked for, and
 * of those every Nth.
 */
static void choose(const struct kab_watch *w, const struct kab_commit *c,
		   size_t nr, bool *chosen)
{
	size_t i, k = 0;

	for (i = 0; i < nr; i++) {
		chosen[i] = i == 0 || i + 1 == nr;
		if (chosen[i] || (w->merges && !c[i].merge))
			continue;
		/* the k-th candidate after the first */
		k++;
		chosen[i] = w->every <= 1 || k % (size_t)w->every == 0;
	}
}

static bool on_branch(const struct kab_commit *c, size_t nr,
		      const char *sha)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(c[i].sha, sha))
			return true;
	return false;
}

/*
 * git fetch of the watch's remote: the branch's new commits, when it
 * follows one of the remote's refs.  One that fails (the network, a
 * remote gone) is said and the pass goes on with the refs as they are.
 */
int kab_watch_fetch(const char *tree, const char *remote,
		    struct kab_err *err)
{
	char *out = kab_cmd_line(tree, err, "git", "fetch", "--quiet", remote,
				 NULL);

	if (!out)
		return -1;
	free(out);
	return 0;
}

static void fetch(struct kab_watch *w)
{
	struct kab_err err;

	if (kab_watch_fetch(w->tree, w->fetch, &err) && w->ui &&
	    w->ui->note) {
		char *msg = xasprintf("git fetch %s: %s: following %s as it "
				      "is", w->fetch, err.msg, w->branch);

		w->ui->note(w->ui->ctx, msg);
		free(msg);
	}
}

/* The watch's row: found with the same options, or created. */
static int open_watch(struct kab_watch *w, const char *from_sha,
		      bool *created, struct kab_err *err)
{
	char real[PATH_MAX];
	struct kab_watch_row want = {
		.name = (char *)w->name,
		.tree = realpath(w->tree, real) ? real : (char *)w->tree,
		.branch = (char *)w->branch,
		.base = (char *)from_sha,
		.argv = (char *)w->argv_json,
	};

	return kab_db_watch_open(w->db, &want, &w->id, created, err);
}

/* The branch's commits from w->from as points; pending ones new. */
static int plan(struct kab_watch *w, struct kab_commit **c, size_t *nr,
		struct kab_err *err)
{
	bool created, *chosen;
	size_t i;

	if (kab_tree_revlist(w->tree, w->from, w->branch, !w->all_commits,
			     c, nr, err))
		return -1;
	if (open_watch(w, (*c)[0].sha, &created, err))
		return -1;
	chosen = xcalloc(*nr, sizeof(*chosen));
	choose(w, *c, *nr, chosen);
	if (kab_db_begin(w->db, err)) {
		free(chosen);
		return -1;
	}
	for (i = 0; i < *nr; i++) {
		if (!chosen[i])
			continue;
		if (kab_db_point_add(w->db, w->id, (*c)[i].sha,
				     (*c)[i].subject, (int64_t)i, err)) {
			kab_db_rollback(w->db);
			free(chosen);
			return -1;
		}
	}
	free(chosen);
	if (kab_db_commit(w->db, err))
		return -1;
	return created ? 1 : 0;
}

/*
 * The boots another watch of the same measuring took of this commit
 * (branches share history): 0 with them in m, 1 when there are none.
 */
static int reuse(struct kab_watch *w, const struct kab_point_row *p,
		 struct kab_drv_measured *m, struct kab_err *err)
{
	struct kab_point_row o;
	int rc;

	rc = kab_db_point_measured_elsewhere(w->db, w->id, p->commit, &o,
					     err);
	if (rc)
		return rc;
	m->runs = o.runs;
	m->nr = o.nr_runs;
	return 0;
}

int kab_watch_pass(struct kab_watch *w, struct kab_err *err)
{
	struct kab_commit *c = NULL;
	struct kab_point_row *p = NULL;
	size_t nr = 0, np = 0, i, pending = 0, done = 0, points = 0;
	int created, rc, ret = -1, lock = -1;

	if (w->fetch && !w->fetched)
		fetch(w);
	w->fetched = false;
	created = plan(w, &c, &nr, err);
	if (created < 0)
		goto out;
	snprintf(w->head, sizeof(w->head), "%s", c[nr - 1].sha);
	if (kab_db_points(w->db, w->id, &p, &np, err))
		goto out;
	for (i = 0; i < np; i++) {
		if (!on_branch(c, nr, p[i].commit))
			continue;
		points++;
		pending += p[i].status == KAB_POINT_PENDING;
	}
	if (w->planned)
		w->planned(w->ctx, points, pending, created);
	/* kab's worktree of the tree is one command's at a time */
	if (pending) {
		lock = kab_tree_lock(w->tree, w->d.build->cache_dir, err);
		if (lock < 0)
			goto out;
	}
	for (i = 0; i < np; i++) {
		struct kab_drv_measured m = { 0 };

		if (p[i].status != KAB_POINT_PENDING ||
		    !on_branch(c, nr, p[i].commit))
			continue;
		if (w->max_points && done == (size_t)w->max_points)
			break;
		if (kab_stop_requested) {
			kab_err_set(err, "stopped: the points measured are "
				    "stored, the next pass goes on from "
				    "there");
			goto out;
		}
		rc = reuse(w, &p[i], &m, err);
		if (rc < 0)
			goto out;
		if (rc == 1)
			rc = kab_drv_measure(&w->d, p[i].commit, w->boots,
					     &m);
		if (rc < 0) {
			kab_drv_measured_free(&m);
			kab_err_set(err, kab_stop_requested ?
				    "stopped while measuring %.12s: the "
				    "points measured are stored, the next "
				    "pass measures it again" :
				    "measuring %.12s failed (said above)",
				    p[i].commit);
			goto out;
		}
		p[i].status = rc ? KAB_POINT_SKIPPED : KAB_POINT_MEASURED;
		if (kab_db_point_done(w->db, w->id, p[i].commit, p[i].status,
				      m.runs, m.nr, rc ? m.why : NULL, err)) {
			kab_drv_measured_free(&m);
			goto out;
		}
		free(p[i].runs);
		p[i].runs = m.runs;
		p[i].nr_runs = m.nr;
		m.runs = NULL;
		free(p[i].why);
		p[i].why = m.why;
		m.why = NULL;
		kab_drv_measured_free(&m);
		done++;
		if (w->point_done)
			w->point_done(w->ctx, &p[i], i, np);
	}
	ret = 0;
out:
	if (lock >= 0)
		close(lock);
	kab_commits_free(c, nr);
	kab_points_free(p, np);
	return ret;
}
