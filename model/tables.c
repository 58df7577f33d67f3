// SPDX-License-Identifier: GPL-2.0
/*
 * tables.c - sides resolved to runs, grouped by job parameter set,
 * pooled and compared: one lkp table per set that every side ran.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* One more line of the set's notes (LINE is taken). */
static void add_note(struct cmp_set *set, char *line)
{
	char *all = set->notes ? xasprintf("%s\n%s", set->notes, line) :
		    xstrdup(line);

	free(set->notes);
	free(line);
	set->notes = all;
}

static const struct run_info **with_params(const struct side_runs *s,
					   const char *params, size_t *n)
{
	const struct run_info **v = NULL;
	size_t i;

	*n = 0;
	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->v[i]->params, params)) {
			v = xrealloc(v, (*n + 1) * sizeof(*v));
			v[(*n)++] = s->v[i];
		}
	return v;
}

/* "mode/nr_task/test" and "process/100%/malloc1": sorted, as lkp's. */
static void axis(json_t *params, char **keys, char **values)
{
	struct strbuf k = STRBUF_INIT, v = STRBUF_INIT;
	size_t n = json_object_size(params), i = 0;
	const char **names = xcalloc(n ? n : 1, sizeof(*names));
	const char *key;
	json_t *val;

	json_object_foreach(params, key, val)
		names[i++] = key;
	qsort(names, n, sizeof(*names), kab_strcmp_ptr);
	for (i = 0; i < n; i++) {
		strbuf_addf(&k, "%s%s", i ? "/" : "", names[i]);
		strbuf_addf(&v, "%s%s", i ? "/" : "",
			    json_string_value(json_object_get(params,
							      names[i])));
	}
	free(names);
	*keys = strbuf_detach(&k);
	*values = strbuf_detach(&v);
}

/*
 * lkp's axes of a result root that kab keeps with the machine (runs
 * imported with --lkp have them): in the header when every run of the
 * table agrees, as lkp's common axes.
 */
static json_t *table_axes(const struct cmp_table *t)
{
	static const char *const keys[] = { "compiler", "cpufreq_governor",
					    "kconfig", "rootfs", "tbox_group" };
	json_t *axes = json_deep_copy(t->params_obj);
	size_t i, s, k;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *v = NULL;
		bool same = true;

		if (json_object_get(axes, keys[i]))
			continue;
		for (s = 0; s < t->nr_sides && same; s++)
			for (k = 0; k < t->runs[s].nr && same; k++) {
				const char *x = json_string_value(json_object_get(
					t->runs[s].v[k]->host, keys[i]));

				same = x && (!v || !strcmp(v, x));
				v = x;
			}
		if (same && v)
			json_object_set_new(axes, keys[i], json_string(v));
	}
	return axes;
}

/*
 * Numbers from different machines are not a kernel's doing, and
 * numbers of different clocks (seconds of the host, instructions of a
 * guest) are not even the same unit: refuse unless forced.  Whether any
 * come from TCG emulation is noted, and whether all are exact.
 */
static int check_machines(struct cmp_table *t, bool force,
			  struct kab_err *err)
{
	const struct run_info *first = NULL;
	size_t i, k;

	t->emulated = false;
	t->exact = true;
	for (i = 0; i < t->nr_sides; i++)
		for (k = 0; k < t->runs[i].nr; k++) {
			const struct run_info *r = t->runs[i].v[k];

			t->emulated |= r->emulated;
			t->exact &= r->exact;
			if (!first)
				first = r;
			else if (strcmp(first->clock, r->clock) && !force)
				return model_err(err, KAB_MODEL_REFUSED,
						 "run %lld was timed by another "
						 "clock (%s) than the base (%s):"
						 " its numbers are in other "
						 "units; measure both with one "
						 "--clock, or pass --force",
						 r->id, r->clock, first->clock);
			else if (strcmp(first->machine, r->machine) && !force)
				return model_err(err, KAB_MODEL_REFUSED,
						 "run %lld ran on another "
						 "machine (%s) than the base "
						 "(%s): pass --force to "
						 "compare anyway", r->id,
						 r->machine, first->machine);
		}
	return 0;
}

/*
 * A side named by its own commit ("721bcbf4c5 (\"721bcbf4c5d7\")")
 * reads better with the commit's subject, as lkp's commit: lines have.
 */
static void name_by_subject(struct kab_db *db, struct kab_side *s)
{
	const char *open = strstr(s->desc, " (\"");
	char *subject;

	if (!open || strncmp(open + 3, s->id, 10))
		return;
	subject = kab_db_commit_subject(db, s->id);
	if (!subject)
		return;
	free((char *)s->desc);
	s->desc = xasprintf("%.10s (\"%s\")", s->id, subject);
	free(subject);
}

const char *table_param(const struct cmp_table *t, const char *key)
{
	return json_string_value(json_object_get(t->params_obj, key));
}

/* The job's own KPI: the suite's main metric, else a throughput. */
static char *job_kpi(const struct cmp_table *t)
{
	const struct kab_side *b = &t->side[0];
	char *m = kab_suite_kpi(table_param(t, "testcase"),
				table_param(t, "test"),
				table_param(t, "mode"));
	size_t i;

	if (m && kab_side_series(b, m))
		return m;
	free(m);
	for (i = 0; i < b->nr; i++) {
		const char *s = b->series[i].metric;
		size_t n = strlen(s);

		if ((n > 12 && !strcmp(s + n - 12, ".ops_per_sec")) ||
		    (n > 9 && !strcmp(s + n - 9, ".workload")))
			return xstrdup(s);
	}
	return NULL;
}

/*
 * The job's KPI as a cost model timed it (kab run --model: KPI:MODEL),
 * when the base side has it; the first model's by name.
 */
static char *model_kpi(const struct cmp_table *t)
{
	const struct kab_side *b = &t->side[0];
	const char *best = NULL;
	size_t i, n;

	if (!t->suite_kpi)
		return NULL;
	n = strlen(t->suite_kpi);
	for (i = 0; i < b->nr; i++) {
		const char *s = b->series[i].metric;

		if (!strncmp(s, t->suite_kpi, n) && s[n] == ':' && s[n + 1] &&
		    !strchr(s + n + 1, '.') && (!best || strcmp(s, best) < 0))
			best = s;
	}
	return best ? xstrdup(best) : NULL;
}

const char *cmp_exact_note(const struct cmp_table *t)
{
	static char note[256];
	const char *model = t->model_kpi ? strrchr(t->model_kpi, ':') : NULL;

	if (!model)
		return KAB_EXACT_NOTE;
	snprintf(note, sizeof(note), "timed in guest instructions (QEMU "
		 "icount), and by cost model %s for caches and TLBs in the "
		 "rows marked %s (doc/exact.md); changes under 0.5%% are not "
		 "called", model + 1, model);
	return note;
}

char *cmp_more_units(const struct cmp_table *t, size_t n)
{
	const struct run_info **all = NULL;
	size_t i, k, nr = 0;
	char *cmd;

	for (i = 0; i < t->nr_sides; i++)
		for (k = 0; k < t->runs[i].nr; k++) {
			all = xrealloc(all, (nr + 1) * sizeof(*all));
			all[nr++] = t->runs[i].v[k];
		}
	cmd = runs_more_units(all, nr, n, 0);
	free(all);
	return cmd;
}

const struct kab_row *cmp_table_kpi(const struct cmp_table *t,
				    const char *metric)
{
	size_t i;

	if (!metric)
		metric = t->suite_kpi;
	for (i = 0; metric && i < t->c.nr_rows; i++)
		if (!strcmp(t->c.rows[i].metric, metric))
			return &t->c.rows[i];
	return NULL;
}

static void one_sequential(struct cmp_set *s, long long run_id,
			   const char *metric, const struct kab_seq *q)
{
	size_t i, k, r;

	for (i = 0; i < s->nr; i++) {
		struct cmp_table *t = &s->t[i];

		if (t->nr_sides < 2)
			continue;
		for (k = 0; k < t->runs[1].nr; k++)
			if (t->runs[1].v[k]->id == run_id)
				break;
		if (k == t->runs[1].nr)
			continue;
		for (r = 0; r < t->c.nr_rows; r++) {
			struct kab_row *row = &t->c.rows[r];

			if (row->kpi && !strcmp(row->metric, metric) &&
			    row->cells[0].s.n)
				kab_cell_sequential(row, &row->cells[0], q);
		}
	}
}

void cmp_set_sequential(struct cmp_set *s, const struct cmp_seq *q,
			size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		one_sequential(s, q[i].run_id, q[i].metric, &q[i].q);
}

/*
 * A side's runs of these parameters that did not complete (a kernel
 * label's: runs named by id are the user's choice).
 */
/* A side's failed runs of params: their count; the lkp ones' ids. */
static size_t failed_runs(const struct run_list *all, const char *spec,
			  const char *params, long long **lkp, size_t *nr_lkp)
{
	size_t i, n = 0;

	*lkp = NULL;
	*nr_lkp = 0;
	for (i = 0; i < all->nr; i++) {
		const struct run_info *r = &all->v[i];

		if (strcmp(r->label, spec) || strcmp(r->status, "failed") ||
		    strcmp(r->params, params))
			continue;
		n++;
		if (strcmp(r->target, "lkp"))
			continue;
		*lkp = xrealloc(*lkp, (*nr_lkp + 1) * sizeof(**lkp));
		(*lkp)[(*nr_lkp)++] = r->id;
	}
	return n;
}

static int table_build(struct kab_db *db, struct cmp_set *set,
		       const struct run_info *first,
		       const struct kab_compare_opts *o, bool force,
		       struct cmp_table *t, struct kab_err *err)
{
	size_t i, bad = 0, nr_lkp;
	long long *lkp;
	int rc;

	t->params = first->params;
	t->params_obj = first->params_obj;
	t->nr_sides = set->nr_sides;
	t->side = xcalloc(t->nr_sides, sizeof(*t->side));
	t->runs = xcalloc(t->nr_sides, sizeof(*t->runs));
	for (i = 0; i < t->nr_sides; i++) {
		t->runs[i].spec = set->sides[i].spec;
		t->runs[i].v = with_params(&set->sides[i], t->params,
					   &t->runs[i].nr);
	}
	rc = check_machines(t, force, err);
	if (rc)
		return rc;
	for (i = 0; i < t->nr_sides; i++) {
		side_name(t->runs[i].v, t->runs[i].nr, t->runs[i].spec,
			  &t->side[i]);
		name_by_subject(db, &t->side[i]);
		if (side_pool(db, t->runs[i].v, t->runs[i].nr, &t->side[i],
			      &bad, err))
			return KAB_MODEL_FAILED;
		t->side[i].incomplete = failed_runs(&set->all, t->runs[i].spec,
						    t->params, &lkp, &nr_lkp);
		rc = side_lkp_incomplete(db, t->runs[i].v, t->runs[i].nr, lkp,
					 nr_lkp, &t->side[i], err);
		free(lkp);
		if (rc)
			return KAB_MODEL_FAILED;
	}
	if (bad)
		add_note(set, xasprintf("%zu stored values are not finite "
					"numbers (a damaged database?) and "
					"were left out", bad));
	t->o = *o;
	/* exact data: decided to its resolution, no finer */
	if (t->exact) {
		t->o.floor = kab_exact_floor();
		if (o->noise < 0)
			t->o.noise = KAB_EXACT_RESOLUTION;
	}
	if (t->o.noise < 0)
		t->o.noise = KAB_NOISE;
	t->suite = table_param(t, "testcase");
	t->o.suites = &t->suite;
	t->o.nr_suites = t->suite ? 1 : 0;
	if (!o->nr_kpi) {
		t->suite_kpi = t->own_kpi[0] = job_kpi(t);
		t->model_kpi = t->own_kpi[1] = model_kpi(t);
		t->o.kpi = (const char *const *)t->own_kpi;
		t->o.nr_kpi = !!t->own_kpi[0] + !!t->own_kpi[1];
	}
	if (kab_compare(&t->side[0], &t->side[1], t->nr_sides - 1, &t->o,
			&t->c))
		return model_err(err, KAB_MODEL_FAILED, "out of memory "
				 "comparing");
	if (!t->c.nr_rows)
		return model_err(err, KAB_MODEL_REFUSED, "%s and %s have no "
				 "metric in common", t->runs[0].spec,
				 t->runs[1].spec);
	t->h.base = &t->side[0];
	t->h.heads = &t->side[1];
	t->h.nr_heads = t->nr_sides - 1;
	{
		json_t *axes = table_axes(t);

		axis(axes, (char **)&t->h.axis_keys,
		     (char **)&t->h.axis_values);
		json_decref(axes);
	}
	return 0;
}

int cmp_sel_ignore(struct cmp_sel *sel, const char *key,
		   struct kab_err *err)
{
	if (!kab_name_ok(key, 100))
		return kab_err_set(err, "--ignore-param '%s': name a job "
				   "parameter (nr_task, testtime, ...)", key);
	if (sel->nr_ignore == CMP_MAX_IGNORE)
		return kab_err_set(err, "--ignore-param: at most %d",
				   CMP_MAX_IGNORE);
	sel->ignore[sel->nr_ignore++] = key;
	return 0;
}

/* The ignored parameters out of every run's identity (and its header). */
static void ignore_params(struct run_list *all, const struct cmp_sel *sel)
{
	size_t i;
	int k;

	for (i = 0; sel->nr_ignore && i < all->nr; i++) {
		struct run_info *r = &all->v[i];
		json_t *copy = json_deep_copy(r->params_obj);

		for (k = 0; k < sel->nr_ignore; k++)
			json_object_del(copy, sel->ignore[k]);
		json_decref(r->params_obj);
		r->params_obj = copy;
		free(r->params);
		r->params = json_dumps(copy, JSON_COMPACT | JSON_SORT_KEYS);
	}
}

/* A parameter set as "k=v k=v" (the job's identity, for a note). */
static char *params_words(json_t *params)
{
	struct strbuf sb = STRBUF_INIT;
	const char *key;
	json_t *v;

	json_object_foreach(params, key, v) {
		if (sb.len)
			strbuf_add(&sb, " ", 1);
		strbuf_addf(&sb, "%s=%s", key, json_is_string(v) ?
			    json_string_value(v) : "?");
	}
	return strbuf_detach(&sb);
}

/*
 * Sides that share no parameter set: the keys whose values differ
 * between the base's first run and the head run that differs least,
 * named with both values, and the option that compares anyway.
 */
static int no_common(const struct cmp_set *set, char *const *specs,
		     struct kab_err *err)
{
	const struct run_info *b = set->sides[0].v[0], *h = NULL;
	struct strbuf sb = STRBUF_INIT, keys = STRBUF_INIT;
	size_t j, i;
	int best = -1, n;

	for (j = 1; j < set->nr_sides; j++)
		for (i = 0; i < set->sides[j].nr; i++) {
			const struct run_info *r = set->sides[j].v[i];
			const char *key;
			json_t *v;

			n = 0;
			json_object_foreach(b->params_obj, key, v)
				n += !json_equal(v, json_object_get(
						 r->params_obj, key));
			json_object_foreach(r->params_obj, key, v)
				n += !json_object_get(b->params_obj, key);
			if (best < 0 || n < best) {
				best = n;
				h = r;
			}
		}
	if (h) {
		const char *key;
		json_t *v, *w;

		json_object_foreach(b->params_obj, key, v) {
			w = json_object_get(h->params_obj, key);
			if (json_equal(v, w))
				continue;
			strbuf_addf(&sb, "%s%s (%s: %s, %s: %s)", sb.len ? ", " :
				    "", key, specs[0], json_string_value(v),
				    h->label, w ? json_string_value(w) : "none");
			strbuf_addf(&keys, " --ignore-param %s", key);
		}
		json_object_foreach(h->params_obj, key, w) {
			if (json_object_get(b->params_obj, key))
				continue;
			strbuf_addf(&sb, "%s%s (%s: none, %s: %s)", sb.len ?
				    ", " : "", key, specs[0], h->label,
				    json_string_value(w));
			strbuf_addf(&keys, " --ignore-param %s", key);
		}
	}
	if (!h || !sb.len || !json_equal(json_object_get(b->params_obj,
							  "testcase"),
					  json_object_get(h->params_obj,
							  "testcase")))
		n = model_err(err, KAB_MODEL_REFUSED, "%s and the other sides "
			      "share no job: compare runs of the same job",
			      specs[0]);
	else
		n = model_err(err, KAB_MODEL_REFUSED, "%s and the other sides "
			      "share no parameter set: they differ in %s;%s "
			      "compares them anyway", specs[0], sb.buf,
			      keys.buf);
	strbuf_release(&sb);
	strbuf_release(&keys);
	return n;
}

/* Are two sides the same runs, in any order? */
static bool same_runs(const struct side_runs *a, const struct side_runs *b)
{
	size_t i, j;

	if (a->nr != b->nr)
		return false;
	for (i = 0; i < a->nr; i++) {
		for (j = 0; j < b->nr; j++)
			if (a->v[i]->id == b->v[j]->id)
				break;
		if (j == b->nr)
			return false;
	}
	return true;
}

/* Does every side have a run of these parameters? */
static bool everywhere(const struct cmp_set *set, const char *params)
{
	size_t j, n;

	for (j = 1; j < set->nr_sides; j++) {
		free(with_params(&set->sides[j], params, &n));
		if (!n)
			return false;
	}
	return true;
}

/* A run on two sides would be compared with itself. */
static int overlap(const struct cmp_set *s, char *const *specs,
		   struct kab_err *err)
{
	size_t i, k, a, b;

	for (i = 1; i < s->nr_sides; i++)
		for (k = 0; k < i; k++)
			for (a = 0; a < s->sides[i].nr; a++)
				for (b = 0; b < s->sides[k].nr; b++)
					if (s->sides[i].v[a] == s->sides[k].v[b])
						return model_err(err,
							KAB_MODEL_REFUSED,
							"run %lld is on two "
							"sides ('%s' and '%s'):"
							" name each run on one "
							"side", s->sides[i].v[a]->id,
							specs[k], specs[i]);
	return 0;
}

/*
 * lkp ncompare lists a commit's result roots (one a parameter set) from
 * its data store's index, the newest first.  Tables of runs imported
 * from lkp come in that order: by when the base's first run of each
 * parameter set started, the latest first (to the nanosecond of its
 * stats.json, lkp_mtime; ties as the runs came).
 * kab's own tables keep the order of the base's runs.
 */
struct table_key {
	const char *first;	/* the base's earliest run of the set */
	double mtime;		/* its stats.json's, to the ns, or 0 */
	size_t i;
};

static int by_newest(const void *a, const void *b)
{
	const struct table_key *x = a, *y = b;
	int c = strcmp(y->first, x->first);

	if (!c && x->mtime != y->mtime)
		return x->mtime < y->mtime ? 1 : -1;
	return c ? c : (x->i > y->i) - (x->i < y->i);
}

static double lkp_mtime(const struct run_info *r)
{
	json_t *v = json_object_get(r->host, "lkp_mtime");

	return json_is_number(v) ? json_number_value(v) : 0;
}

static void lkp_order(struct cmp_set *s)
{
	struct table_key *k;
	struct cmp_table *t;
	size_t i, r;

	for (i = 0; i < s->nr; i++)
		for (r = 0; r < s->t[i].runs[0].nr; r++)
			if (strcmp(s->t[i].runs[0].v[r]->target, "lkp"))
				return;
	if (s->nr < 2)
		return;
	k = xcalloc(s->nr, sizeof(*k));
	for (i = 0; i < s->nr; i++) {
		k[i].i = i;
		k[i].first = s->t[i].runs[0].v[0]->started_at;
		k[i].mtime = lkp_mtime(s->t[i].runs[0].v[0]);
		for (r = 1; r < s->t[i].runs[0].nr; r++) {
			const struct run_info *x = s->t[i].runs[0].v[r];
			int c = strcmp(x->started_at, k[i].first);

			if (c < 0 || (!c && lkp_mtime(x) < k[i].mtime)) {
				k[i].first = x->started_at;
				k[i].mtime = lkp_mtime(x);
			}
		}
	}
	qsort(k, s->nr, sizeof(*k), by_newest);
	t = xcalloc(s->nr, sizeof(*t));
	for (i = 0; i < s->nr; i++)
		t[i] = s->t[k[i].i];
	memcpy(s->t, t, s->nr * sizeof(*t));
	free(t);
	free(k);
}

/* A --kpi that no table has is a typo, not an empty table. */
static int check_kpis(const struct cmp_set *s, const struct kab_compare_opts *o,
		      char *const *specs, size_t nr, struct kab_err *err)
{
	const char **names = NULL, *near;
	size_t i, k, n = 0;
	int rc;

	for (k = 0; k < o->nr_kpi; k++) {
		for (i = 0; i < s->nr; i++)
			if (cmp_table_kpi(&s->t[i], o->kpi[k]))
				break;
		if (i < s->nr)
			continue;
		for (i = 0; i < s->nr; i++) {
			const struct kab_comparison *c = &s->t[i].c;
			size_t r;

			names = xrealloc(names, (n + c->nr_rows + 1) *
					 sizeof(*names));
			for (r = 0; r < c->nr_rows; r++)
				names[n++] = c->rows[r].metric;
		}
		near = kab_nearest(o->kpi[k], names, n);
		rc = model_err(err, KAB_MODEL_REFUSED, "no job of %s%s%s has "
			       "the metric %s: %s%s%s'kab compare --all %s %s' "
			       "lists them", specs[0], nr > 2 ? " and its heads"
			       : " and ", nr > 2 ? "" : specs[1], o->kpi[k],
			       near ? "did you mean '" : "", near ? near : "",
			       near ? "'? " : "", specs[0], specs[1]);
		free(names);
		return rc;
	}
	return 0;
}

int cmp_set_build(struct kab_db *db, char *const *specs, size_t nr,
		  const struct kab_compare_opts *o,
		  const struct cmp_sel *sel, struct cmp_set *out,
		  struct kab_err *err)
{
	const struct side_runs *base;
	struct strbuf skipped = STRBUF_INIT;
	size_t i, k;
	int rc;

	memset(out, 0, sizeof(*out));
	if (runs_load(db, &out->all, err))
		return KAB_MODEL_FAILED;
	ignore_params(&out->all, sel);
	out->sides = xcalloc(nr, sizeof(*out->sides));
	out->nr_sides = nr;
	for (i = 0; i < nr; i++)
		if (side_resolve(&out->all, specs[i], &out->sides[i], err))
			return KAB_MODEL_REFUSED;
	/* a side against itself says nothing: it was not meant */
	for (i = 1; i < nr; i++)
		for (k = 0; k < i; k++)
			if (same_runs(&out->sides[k], &out->sides[i]))
				return model_err(err, KAB_MODEL_REFUSED,
						 "'%s' and '%s' are the same "
						 "runs: compare two kernels "
						 "(kab ls lists them)",
						 specs[k], specs[i]);
	if (overlap(out, specs, err))
		return KAB_MODEL_REFUSED;
	/* One table per parameter set of the base that every head ran. */
	base = &out->sides[0];
	for (i = 0; i < base->nr; i++) {
		const struct run_info *r = base->v[i];

		for (k = 0; k < i; k++)
			if (!strcmp(base->v[k]->params, r->params))
				break;
		if (k < i)
			continue;	/* this set is done */
		if (!everywhere(out, r->params)) {
			char *words = params_words(r->params_obj);

			strbuf_addf(&skipped, "%s: no run of these parameters "
				    "on every side, skipped\n", words);
			free(words);
			continue;
		}
		out->t = xrealloc(out->t, (out->nr + 1) * sizeof(*out->t));
		memset(&out->t[out->nr], 0, sizeof(*out->t));
		rc = table_build(db, out, r, o, sel->force,
				 &out->t[out->nr++], err);
		if (rc) {
			strbuf_release(&skipped);
			return rc;
		}
	}
	lkp_order(out);
	/* the KPIs of all tables are one family */
	if (out->nr) {
		struct kab_comparison **cs = xcalloc(out->nr, sizeof(*cs));

		for (i = 0; i < out->nr; i++) {
			struct cmp_table *t = &out->t[i];

			/* out->t moved as it grew: point into it again */
			if (t->suite_kpi)
				t->o.kpi = (const char *const *)t->own_kpi;
			t->o.suites = &t->suite;
			t->c.opts = &t->o;
			cs[i] = &t->c;
		}
		kab_compare_kpis(cs, out->nr);
		free(cs);
	}
	/* what was left out is news only next to what was compared */
	if (out->nr && skipped.len)
		add_note(out, xstrndup(skipped.buf, skipped.len - 1));
	strbuf_release(&skipped);
	if (!out->nr)
		return no_common(out, specs, err);
	return check_kpis(out, o, specs, nr, err);
}

void cmp_set_free(struct cmp_set *s)
{
	size_t i, j;

	for (i = 0; i < s->nr; i++) {
		struct cmp_table *t = &s->t[i];

		for (j = 0; j < t->nr_sides; j++) {
			side_free(&t->side[j]);
			free(t->runs[j].v);
		}
		free(t->side);
		free(t->runs);
		kab_comparison_free(&t->c);
		free(t->own_kpi[0]);
		free(t->own_kpi[1]);
		free((char *)t->h.axis_keys);
		free((char *)t->h.axis_values);
	}
	free(s->t);
	for (i = 0; i < s->nr_sides; i++)
		free(s->sides[i].v);
	free(s->sides);
	runs_free(&s->all);
	free(s->notes);
	memset(s, 0, sizeof(*s));
}
