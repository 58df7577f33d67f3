// SPDX-License-Identifier: GPL-2.0
/*
 * series.c - a watch's series of one metric (each measured point's boot
 * means) and its change points.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void kab_watch_series_free(struct kab_watch_series *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++) {
		free(s->pts[i].v);
		free(s->pts[i].seed);
	}
	free(s->pts);
	free(s->cps);
	for (i = 0; s->stored && i < s->nr_cps; i++)
		kab_change_row_free(&s->stored[i]);
	free(s->stored);
	free(s->is_new);
	kab_points_free(s->rows, s->nr_rows);
	memset(s, 0, sizeof(*s));
}

/* Point p's boots: each run's mean of metric, with its layout seed. */
static void boots_of(struct kab_db *db, const struct kab_point_row *p,
		     const char *metric, struct kab_watch_pt *o)
{
	struct kab_run run;
	struct kab_err err;
	double v, sum = 0;
	size_t i;
	bool seeded = true;

	memset(o, 0, sizeof(*o));
	o->row = p;
	o->v = xcalloc(p->nr_runs ? p->nr_runs : 1, sizeof(*o->v));
	o->seed = xcalloc(p->nr_runs ? p->nr_runs : 1, sizeof(*o->seed));
	for (i = 0; i < p->nr_runs; i++) {
		/* a run removed since (kab rm), or without the metric */
		if (kab_db_run_mean(db, p->runs[i], metric, &v))
			continue;
		if (kab_db_run_get(db, p->runs[i], &run, &err))
			continue;
		o->seed[o->n] = (unsigned int)run.seed;
		seeded &= run.seed != 0;
		kab_run_free(&run);
		o->v[o->n++] = v;
		sum += v;
	}
	if (o->n)
		o->mean = sum / o->n;
	/* seeds count only when every boot has one */
	if (!seeded) {
		free(o->seed);
		o->seed = NULL;
	}
}

int kab_watch_read_series(struct kab_db *db, int64_t id,
			  const char *metric, const struct kab_cp_opts *o,
			  struct kab_watch_series *s, struct kab_err *err)
{
	struct kab_cp_opts opts = *o;
	struct kab_cp_point *cp;
	int64_t *runs = NULL;
	size_t i, nr_runs = 0;
	int n;

	memset(s, 0, sizeof(*s));
	if (kab_db_points(db, id, &s->rows, &s->nr_rows, err))
		return -1;
	s->pts = xcalloc(s->nr_rows ? s->nr_rows : 1, sizeof(*s->pts));
	for (i = 0; i < s->nr_rows; i++) {
		if (s->rows[i].status != KAB_POINT_MEASURED)
			continue;
		boots_of(db, &s->rows[i], metric, &s->pts[s->nr]);
		if (!s->pts[s->nr].n) {
			free(s->pts[s->nr].v);
			free(s->pts[s->nr].seed);
			continue;
		}
		s->nr++;
	}
	if (s->nr < 2 * o->min_points)
		return 0;
	cp = xcalloc(s->nr, sizeof(*cp));
	for (i = 0; i < s->nr; i++) {
		const struct kab_point_row *r = s->pts[i].row;

		cp[i].v = s->pts[i].v;
		cp[i].seed = s->pts[i].seed;
		cp[i].n = s->pts[i].n;
		runs = xrealloc(runs, (nr_runs + r->nr_runs) * sizeof(*runs));
		memcpy(runs + nr_runs, r->runs, r->nr_runs * sizeof(*runs));
		nr_runs += r->nr_runs;
	}
	/* boots timed by icount repeat exactly: exact mode's floor */
	if (!opts.floor)
		opts.floor = bisect_floor(db, runs, nr_runs);
	free(runs);
	/* a change point has points on both sides: fewer than s->nr */
	s->cps = xcalloc(s->nr, sizeof(*s->cps));
	n = kab_changepoints(cp, s->nr, &opts, s->cps, s->nr);
	free(cp);
	if (n < 0) {
		kab_watch_series_free(s);
		return kab_err_set(err, "finding the change points of %s: "
				   "out of memory", metric);
	}
	s->nr_cps = n;
	return 0;
}

int kab_watch_note_changes(struct kab_db *db, int64_t id,
			   const char *metric, struct kab_watch_series *s,
			   struct kab_err *err)
{
	size_t i;

	if (!s->nr_cps)
		return 0;
	s->stored = xcalloc(s->nr_cps, sizeof(*s->stored));
	s->is_new = xcalloc(s->nr_cps, sizeof(*s->is_new));
	if (kab_db_begin(db, err))
		return -1;
	for (i = 0; i < s->nr_cps; i++) {
		const struct kab_cp *c = &s->cps[i];
		struct kab_change_row *r = &s->stored[i];

		r->metric = metric;
		r->before = s->pts[c->at - 1].row->commit;
		r->after = s->pts[c->at].row->commit;
		r->spread = c->noise_only;
		r->pct = c->pct;
		r->lo = c->lo;
		r->hi = c->hi;
		r->p = c->p;
		if (kab_db_change_note(db, id, r, &s->is_new[i], err)) {
			kab_db_rollback(db);
			return -1;
		}
	}
	return kab_db_commit(db, err);
}
