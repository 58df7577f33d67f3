// SPDX-License-Identifier: GPL-2.0
/*
 * verify.c - from a change point to its culprit, checked as KernelCI
 * checks one: the commit against its parent, and the commit reverted
 * on top of the branch's head against the head, each decided by the
 * bisect's test of boot means (model/).  A culprit that fails either
 * check is "not isolated", never named as the culprit.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/*
 * commit's runs: its point's boots, then more at the next layout seeds
 * until there are want.  0; 1 when it cannot be measured (*why); -1.
 */
static int runs_of(struct kab_watch *w, const char *commit, size_t want,
		   char **joined, char **why, struct kab_err *err)
{
	struct kab_drv_measured m = { 0 };
	int rc = 0;

	if (kab_db_point_runs(w->db, w->id, commit, &m.runs, &m.nr, err))
		return -1;
	if (m.nr < want)
		rc = kab_drv_measure(&w->d, commit, (int)(want - m.nr), &m);
	if (rc > 0)
		*why = xasprintf("%.12s: %s", commit, m.why ? m.why : "");
	else if (rc < 0)
		kab_err_set(err, "measuring %.12s failed (said above)", commit);
	else
		*joined = runs_join(m.runs, m.nr);
	kab_drv_measured_free(&m);
	return rc;
}

/* Does b's metric differ from a's as a change of sign dir would? */
static int check(struct kab_watch *w, const struct kab_watch_check_opts *o,
		 const char *a, const char *b, double dir,
		 struct bisect_check *out, char **why, struct kab_err *err)
{
	char *ra = NULL, *rb = NULL;
	int rc;

	rc = runs_of(w, a, o->boots, &ra, why, err);
	if (!rc)
		rc = runs_of(w, b, o->boots, &rb, why, err);
	if (!rc && bisect_check_culprit(w->db, o->metric, ra, rb, o->alpha,
					o->noise, dir, out, err))
		rc = -1;
	free(ra);
	free(rb);
	return rc;
}

static void said(struct kab_watch_check *out, char *sentence)
{
	struct strbuf sb = STRBUF_INIT;

	if (out->evidence)
		strbuf_addf(&sb, "%s\n", out->evidence);
	strbuf_addstr(&sb, sentence);
	free(sentence);
	free(out->evidence);
	out->evidence = strbuf_detach(&sb);
}

/* The revert of the culprit on head (its segment's), against head. */
static int check_revert(struct kab_watch *w,
			const struct kab_watch_check_opts *o,
			const struct kab_change_row *c, const char *head,
			struct kab_watch_check *out, struct kab_err *err)
{
	struct bisect_check k;
	struct kab_err rerr;
	char *rev, *why = NULL;
	int rc;

	rev = kab_tree_revert(w->tree, out->culprit, head,
			      w->d.build->cache_dir, &rerr);
	if (!rev) {
		said(out, xasprintf("not isolated: %s, so the head without "
				    "it cannot be measured", rerr.msg));
		return 0;
	}
	rc = check(w, o, head, rev, -c->pct, &k, &why, err);
	if (rc > 0) {
		said(out, xasprintf("not isolated: the revert could not be "
				    "measured (%s)", why));
	} else if (!rc) {
		bool at_head = !strcmp(head, w->head);

		out->verified = k.confirmed;
		said(out, xasprintf("%s: %.12s reverted on top of %s%.12s%s "
				    "(as %.12s), against %s (%zu against %zu "
				    "boots): %+.1f%%, p = %.2g, floor %.1f%%%s",
				    k.confirmed ? "verified" : "not isolated",
				    out->culprit, at_head ? "the head " : "",
				    head, at_head ? "" : ", the last commit "
				    "before the next change point", rev,
				    at_head ? "the head" : "it",
				    k.e.good_boots, k.e.bad_boots, k.e.change,
				    k.e.p, k.e.floor, at_head ? (k.confirmed ?
				    ": the head without it is back" : ": the "
				    "head without it did not move back") :
				    k.confirmed ? ": that commit without it is "
				    "back" : ": that commit without it did not "
				    "move back"));
	}
	free(why);
	free(rev);
	return rc < 0 ? -1 : 0;
}

/*
 * The commit the change is in: c->after when it is the next commit on
 * the first-parent line, else what w->bisect finds; with its parent.
 * 0 with *culprit and *parent (NULL when not isolated, said in out).
 */
static int find_culprit(struct kab_watch *w, const struct kab_change_row *c,
			char **culprit, char **parent,
			struct kab_watch_check *out, struct kab_err *err)
{
	struct kab_commit *between = NULL;
	char *first = NULL, *why = NULL, *spec;
	size_t nr = 0;

	*culprit = *parent = NULL;
	if (kab_tree_revlist(w->tree, c->before, c->after, true, &between,
			     &nr, err))
		return -1;
	kab_commits_free(between, nr);
	if (nr == 2) {
		*culprit = xstrdup(c->after);
		*parent = xstrdup(c->before);
		return 0;
	}
	if (!w->bisect) {
		said(out, xasprintf("not isolated: %zu commits lead from "
				    "%.12s to %.12s and only the two ends "
				    "were measured; 'kab bisect --good %.12s "
				    "--bad %.12s' with the watch's options "
				    "names one", nr - 1, c->before, c->after,
				    c->before, c->after));
		return 0;
	}
	if (w->bisect(w->ctx, c->before, c->after, c->metric, &first, &why,
		      err))
		return -1;
	if (!first) {
		said(out, xasprintf("not isolated: the bisect of %.12s..%.12s "
				    "named no commit: %s", c->before,
				    c->after, why ? why : "it stopped"));
		free(why);
		return 0;
	}
	free(why);
	said(out, xasprintf("bisected: %.12s..%.12s names %.12s", c->before,
			    c->after, first));
	spec = xasprintf("%s^", first);
	*parent = kab_tree_commit(w->tree, spec, err);
	free(spec);
	if (!*parent) {
		free(first);
		return -1;
	}
	*culprit = first;
	return 0;
}

int kab_watch_check(struct kab_watch *w, const struct kab_watch_check_opts *o,
		    const struct kab_change_row *c, const char *head,
		    struct kab_watch_check *out, struct kab_err *err)
{
	struct bisect_check k;
	char *why = NULL, *parent = NULL;
	int lock = -1, rc = -1;

	memset(out, 0, sizeof(*out));
	/* before the lock: a bisect takes it itself */
	if (find_culprit(w, c, &out->culprit, &parent, out, err))
		goto out;
	if (!out->culprit) {
		rc = 0;
		goto out;
	}
	lock = kab_tree_lock(w->tree, w->d.build->cache_dir, err);
	if (lock < 0)
		goto out;
	rc = check(w, o, parent, out->culprit, c->pct, &k, &why, err);
	if (rc > 0) {
		said(out, xasprintf("not isolated: %s", why));
		rc = 0;
		goto out;
	}
	if (rc)
		goto out;
	said(out, bisect_check_sentence(&k, parent, out->culprit));
	if (!k.confirmed)
		goto out;
	rc = check_revert(w, o, c, head, out, err);
out:
	if (!out->verified) {
		free(out->culprit);
		out->culprit = NULL;
	}
	free(parent);
	free(why);
	if (lock >= 0)
		close(lock);
	return rc;
}

void kab_watch_check_free(struct kab_watch_check *c)
{
	free(c->culprit);
	free(c->evidence);
	memset(c, 0, sizeof(*c));
}

const char *kab_watch_revert_base(const struct kab_watch *w,
				  const struct kab_watch_series *s, size_t i)
{
	size_t j;

	for (j = i + 1; j < s->nr_cps; j++)
		if (!s->cps[j].noise_only)
			return s->pts[s->cps[j].at - 1].row->commit;
	return w->head;
}

int kab_watch_check_changes(struct kab_watch *w,
			    const struct kab_watch_check_opts *o,
			    struct kab_watch_series *s, struct kab_err *err)
{
	struct kab_watch_check k;
	size_t i;

	for (i = 0; i < s->nr_cps && s->stored; i++) {
		struct kab_change_row *r = &s->stored[i];

		if (r->spread || strcmp(r->status, "found"))
			continue;
		if (kab_stop_requested)
			return kab_err_set(err, "stopped: the change points "
					   "not checked yet are checked by "
					   "the next pass");
		if (kab_watch_check(w, o, r, kab_watch_revert_base(w, s, i), &k, err))
			return -1;
		if (kab_db_change_checked(w->db, r->id, k.verified ?
					  "verified" : "not-isolated",
					  k.culprit, k.evidence, err)) {
			kab_watch_check_free(&k);
			return -1;
		}
		snprintf(r->status, sizeof(r->status), "%s", k.verified ?
			 "verified" : "not-isolated");
		free(r->culprit);
		free(r->evidence);
		r->culprit = k.culprit;
		r->evidence = k.evidence;
		k.culprit = k.evidence = NULL;
		kab_watch_check_free(&k);
	}
	return 0;
}
