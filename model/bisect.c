// SPDX-License-Identifier: GPL-2.0
/*
 * bisect.c - what a bisect measured, read back: the samples of a
 * commit's runs, each run one boot; the commits it tested with their
 * verdicts and medians, in history order; the points of its trend.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* ---- the samples of its runs ---- */

struct collect {
	const char *metric;
	double *v;
	int *boot;
	int cur;
	size_t n;
};

static int take(void *arg, int it, const char *metric, double value)
{
	struct collect *c = arg;

	(void)it;
	if (strcmp(metric, c->metric) || !isfinite(value))
		return 0;
	c->v = xrealloc(c->v, (c->n + 1) * sizeof(*c->v));
	c->boot = xrealloc(c->boot, (c->n + 1) * sizeof(*c->boot));
	c->boot[c->n] = c->cur;
	c->v[c->n++] = value;
	return 0;
}

double *bisect_samples_boots(struct kab_db *db, const char *metric,
			     const int64_t *runs, size_t nr, size_t *n,
			     int **boot)
{
	struct collect c = { .metric = metric };
	struct kab_err err;
	size_t i;

	for (i = 0; i < nr; i++) {
		c.cur = (int)i;
		kab_db_samples_foreach(db, runs[i], take, &c, &err);
	}
	*n = c.n;
	if (boot)
		*boot = c.boot;
	else
		free(c.boot);
	return c.v;
}

double *bisect_samples(struct kab_db *db, const char *metric,
		       const int64_t *runs, size_t nr, size_t *n)
{
	return bisect_samples_boots(db, metric, runs, nr, n, NULL);
}

double *bisect_boot_means(struct kab_db *db, const char *metric,
			  const int64_t *runs, size_t nr, size_t *n)
{
	size_t ns, *sz = xmalloc((nr ? nr : 1) * sizeof(*sz));
	int *boot = NULL;
	double *v = bisect_samples_boots(db, metric, runs, nr, &ns, &boot);
	double *means = xmalloc((nr ? nr : 1) * sizeof(*means));

	*n = ns ? kab_group_means(v, boot, ns, means, sz) : 0;
	free(v);
	free(boot);
	free(sz);
	return means;
}

double bisect_floor(struct kab_db *db, const int64_t *runs, size_t nr)
{
	struct kab_err err;
	struct kab_run r;
	bool exact = nr > 0;
	size_t i;

	for (i = 0; i < nr && exact; i++) {
		if (kab_db_run_get(db, runs[i], &r, &err))
			return 0;
		exact = r.clock && !strncmp(r.clock, "icount", 6);
		kab_run_free(&r);
	}
	return exact ? kab_exact_floor() : 0;
}

char *runs_join(const int64_t *runs, size_t nr)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < nr; i++)
		strbuf_addf(&sb, "%s%" PRId64, i ? "," : "", runs[i]);
	return sb.len ? strbuf_detach(&sb) : xstrdup("");
}

int64_t *runs_split(const char *s, size_t *nr)
{
	int64_t *v = NULL;
	char *copy = xstrdup(s ? s : ""), *tok, *save, *end;

	*nr = 0;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		long long id = strtoll(tok, &end, 10);

		if (*end || id <= 0) {
			free(v);
			free(copy);
			*nr = 0;
			return NULL;
		}
		v = xrealloc(v, (*nr + 1) * sizeof(*v));
		v[(*nr)++] = id;
	}
	free(copy);
	return v;
}

/* ---- its endpoints ---- */

static double pct_sd(const double *v, size_t n)
{
	double *c = xmalloc(n * sizeof(*c)), p;
	struct kab_summary s;

	memcpy(c, v, n * sizeof(*c));
	kab_summarize(c, n, &s);
	p = kab_summary_pct(&s);
	free(c);
	return p;
}

static double endpoint_p(const double *gm, size_t kg, const double *bm,
			 size_t kb, double floor)
{
	double *lg = xmalloc(kg * sizeof(*lg)), *lb = xmalloc(kb * sizeof(*lb));
	bool logs = kab_all_positive(gm, kg) && kab_all_positive(bm, kb);
	struct kab_welch w;
	size_t i;

	for (i = 0; i < kg; i++)
		lg[i] = logs ? log(gm[i]) : gm[i];
	for (i = 0; i < kb; i++)
		lb[i] = logs ? log(bm[i]) : bm[i];
	/* a relative floor: log units, or a fraction of good's mean */
	kab_ttest(lg, kg, lb, kb, logs ? floor : floor * fabs(
			  kg ? gm[0] : 0), &w);
	free(lg);
	free(lb);
	return w.p;
}

int bisect_endpoints_test(struct kab_db *db, const char *metric,
			  const char *good_runs, const char *bad_runs,
			  double alpha, double noise,
			  struct bisect_endpoints *out, struct kab_err *err)
{
	size_t ngr, nbr, ng, nb, i;
	int64_t *g = runs_split(good_runs, &ngr);
	int64_t *b = runs_split(bad_runs, &nbr);
	double *gv = bisect_boot_means(db, metric, g, ngr, &ng);
	double *bv = bisect_boot_means(db, metric, b, nbr, &nb);
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (!ng || !nb) {
		rc = model_err(err, KAB_MODEL_REFUSED, "the endpoints have no "
			       "%s samples (kab show %s lists the metrics they "
			       "have)", metric, good_runs);
		goto out;
	}
	for (i = 0; i < ng; i++)
		out->good_mean += gv[i] / ng;
	for (i = 0; i < nb; i++)
		out->bad_mean += bv[i] / nb;
	out->good_boots = ng;
	out->bad_boots = nb;
	out->change = out->good_mean ? 100 * (out->bad_mean - out->good_mean) /
		      fabs(out->good_mean) : INFINITY;
	out->floor = fmax(noise, fmax(pct_sd(gv, ng), pct_sd(bv, nb)));
	out->p = endpoint_p(gv, ng, bv, nb, bisect_floor(db, g, ngr) &&
			    bisect_floor(db, b, nbr) ? kab_exact_floor() : 0);
	out->differs = out->p < alpha && fabs(out->change) > out->floor;
out:
	free(g);
	free(b);
	free(gv);
	free(bv);
	return rc;
}

/* ---- the commits it tested ---- */

static void add(struct bisect_history *l, const char *commit,
		const char *subject, const char *verdict, const char *runs,
		double median, int n)
{
	struct bisect_tested *t;

	l->v = xrealloc(l->v, (l->nr + 1) * sizeof(*l->v));
	t = &l->v[l->nr++];
	t->commit = xstrdup(commit);
	t->subject = subject ? xstrdup(subject) : NULL;
	snprintf(t->verdict, sizeof(t->verdict), "%s", verdict);
	t->runs = runs ? xstrdup(runs) : NULL;
	t->median = median;
	t->n = n;
	t->pos = -1;
}

static int add_step(void *arg, const struct kab_bisect_step *s,
		    const char *when)
{
	(void)when;
	add(arg, s->commit, s->subject, s->verdict, s->runs, s->median, s->n);
	return 0;
}

static double median_of(double *v, size_t n)
{
	struct kab_summary s;

	if (!n)
		return NAN;
	kab_summarize(v, n, &s);
	return s.median;
}

/* An endpoint as a tested commit, its median from its runs. */
static void add_endpoint(struct kab_db *db, struct bisect_history *l,
			 const char *tree, const char *rev, const char *runs,
			 const char *metric, const char *verdict)
{
	char *commit = tree ? kab_cmd_line(tree, NULL, "git", "rev-parse",
					   "--verify", "-q", rev, NULL) : NULL;
	char *subject = commit ? kab_cmd_line(tree, NULL, "git", "log", "-1",
					      "--format=%s", commit, NULL) :
			NULL;
	size_t nr, n;
	int64_t *ids = runs_split(runs, &nr);
	double *v = bisect_samples(db, metric, ids, nr, &n);

	add(l, commit ? commit : rev, subject, verdict, runs,
	    median_of(v, n), (int)n);
	free(commit);
	free(subject);
	free(ids);
	free(v);
}

/* Positions in git rev-list --reverse good..bad (good at 0). */
static void place(struct bisect_history *l, const char *tree,
		  const char *good, const char *bad)
{
	struct strbuf out = STRBUF_INIT;
	char *range = xasprintf("%s..%s", good, bad), *line, *save;
	char *const argv[] = { "git", "rev-list", "--reverse", "--topo-order",
			       range, NULL };
	struct kab_spawn s = { .argv = argv, .cwd = tree, .quiet = true };
	long pos = 1;
	size_t i;

	for (i = 0; i < l->nr; i++)
		if (!strncmp(l->v[i].commit, good, 40))
			l->v[i].pos = 0;
	if (!kab_run_capture(&s, &out, NULL) && out.buf)
		for (line = strtok_r(out.buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save), pos++)
			for (i = 0; i < l->nr; i++)
				if (!strcmp(l->v[i].commit, line))
					l->v[i].pos = pos;
	strbuf_release(&out);
	free(range);
}

static int by_pos(const void *a, const void *b)
{
	const struct bisect_tested *x = a, *y = b;

	return (x->pos > y->pos) - (x->pos < y->pos);
}

int bisect_history_load(struct kab_db *db, int64_t id, const char *tree,
			struct bisect_history *h, struct kab_err *err)
{
	struct kab_err ignored;

	memset(h, 0, sizeof(*h));
	if (kab_db_bisect_get(db, id, &h->r, err))
		return KAB_MODEL_REFUSED;
	if (h->r.good_runs)
		add_endpoint(db, h, tree, h->r.good, h->r.good_runs,
			     h->r.metric, "good");
	kab_db_bisect_steps(db, id, add_step, h, &ignored);
	if (h->r.bad_runs)
		add_endpoint(db, h, tree, h->r.bad, h->r.bad_runs,
			     h->r.metric, "bad");
	if (tree && h->nr) {
		place(h, tree, h->v[0].commit, h->r.bad);
		/* the bad endpoint is last in the history */
		if (h->v[h->nr - 1].pos < 0)
			h->v[h->nr - 1].pos = 1L << 30;
		qsort(h->v, h->nr, sizeof(*h->v), by_pos);
	}
	return 0;
}

void bisect_history_free(struct bisect_history *h)
{
	size_t i;

	for (i = 0; i < h->nr; i++) {
		free(h->v[i].commit);
		free(h->v[i].subject);
		free(h->v[i].runs);
	}
	free(h->v);
	kab_bisect_row_free(&h->r);
	memset(h, 0, sizeof(*h));
}

/* ---- its trend ---- */

struct kab_trend_point *bisect_trend_points(struct kab_db *db,
					    const struct bisect_history *h,
					    size_t *k)
{
	struct kab_trend_point *pts;
	size_t i;

	pts = xcalloc(h->nr ? h->nr : 1, sizeof(*pts));
	for (i = *k = 0; i < h->nr; i++) {
		size_t nr, n;
		int64_t *ids = runs_split(h->v[i].runs, &nr);

		if (!ids)
			continue;
		pts[*k].name = xasprintf("%.7s", h->v[i].commit);
		pts[*k].kind = !strcmp(h->v[i].verdict, "good") ? 1 :
			       !strcmp(h->v[i].verdict, "bad") ? -1 : 0;
		pts[*k].v = bisect_samples(db, h->r.metric, ids, nr, &n);
		pts[*k].n = n;
		free(ids);
		(*k)++;
	}
	return pts;
}

void bisect_trend_free(struct kab_trend_point *pts, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free((char *)pts[i].name);
		free((double *)pts[i].v);
	}
	free(pts);
}

/* ---- the culprit against its parent ---- */

int bisect_check_culprit(struct kab_db *db, const char *metric,
			 const char *parent_runs, const char *culprit_runs,
			 double alpha, double noise, double change,
			 struct bisect_check *out, struct kab_err *err)
{
	memset(out, 0, sizeof(*out));
	out->e.p = NAN;
	if (!parent_runs || !culprit_runs)
		return 0;
	if (bisect_endpoints_test(db, metric, parent_runs, culprit_runs,
				  alpha, noise, &out->e, err))
		return KAB_MODEL_REFUSED;
	out->confirmed = out->e.differs && out->e.good_boots >= 2 &&
			 out->e.bad_boots >= 2 &&
			 (out->e.change > 0) == (change > 0);
	return 0;
}

char *bisect_check_sentence(const struct bisect_check *c,
			    const char *parent, const char *culprit)
{
	const struct bisect_endpoints *e = &c->e;

	if (c->confirmed)
		return xasprintf("verified: %.12s against its parent %.12s, "
				 "booted again interleaved (%zu against %zu "
				 "boots): %+.1f%%, p = %.2g, beyond the %.1f%% "
				 "floor: the change is this commit's", culprit,
				 parent, e->good_boots, e->bad_boots, e->change,
				 e->p, e->floor);
	return xasprintf("not verified: %.12s against its parent %.12s (%zu "
			 "against %zu boots): %+.1f%%, p = %.2g, floor %.1f%%: "
			 "the change may be spread over several commits or be "
			 "near the noise; 'kab compare' of their runs shows "
			 "it", culprit, parent, e->good_boots, e->bad_boots,
			 e->change, e->p, e->floor);
}

char *bisect_commit_runs(const struct bisect_history *h, const char *commit)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < h->nr; i++) {
		if (strcmp(h->v[i].commit, commit) || !h->v[i].runs ||
		    !strcmp(h->v[i].verdict, "skip"))
			continue;
		strbuf_addf(&sb, "%s%s", sb.len ? "," : "", h->v[i].runs);
	}
	return sb.len ? strbuf_detach(&sb) : NULL;
}
