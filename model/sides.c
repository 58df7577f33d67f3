// SPDX-License-Identifier: GPL-2.0
/*
 * sides.c - what a side of a comparison names (a run id, a list of run
 * ids, or a kernel label) turned into runs, grouped by job parameters,
 * and the samples of a group of runs pooled per metric.
 */
#include <ctype.h>
#include <stddef.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

static int keep_run(void *arg, const struct kab_run *r)
{
	struct run_list *l = arg;
	struct run_info *ri;
	const char *cpu;

	l->v = xrealloc(l->v, (l->nr + 1) * sizeof(*l->v));
	ri = &l->v[l->nr++];
	memset(ri, 0, sizeof(*ri));
	ri->id = r->id;
	ri->label = xstrdup(r->kernel.label);
	ri->commit = r->kernel.commit ? xstrdup(r->kernel.commit) : NULL;
	ri->status = xstrdup(r->status);
	ri->block = r->block ? xstrdup(r->block) : NULL;
	ri->pair = r->seed ? xasprintf("%s#%llu", r->block ? r->block : "",
				       r->seed) : NULL;
	ri->params = json_dumps(r->params, JSON_COMPACT | JSON_SORT_KEYS);
	ri->params_obj = json_incref(r->params);
	ri->host = json_incref(r->host);
	cpu = json_string_value(json_object_get(r->host, "cpu_model"));
	/* Memory in GiB: a guest's MemTotal moves with the kernel. */
	ri->machine = xasprintf("%s %lld CPUs, %s, %lld GiB",
				r->target ? r->target : "?",
				(long long)json_integer_value(
					json_object_get(r->host, "nr_cpus")),
				cpu ? cpu : "unknown CPU",
				(long long)(json_integer_value(
					json_object_get(r->host, "mem_total_kb"))
					    + 524288) / 1048576);
	ri->emulated = cpu && strstr(cpu, "TCG");
	ri->clock = xstrdup(r->clock ? r->clock : "wall");
	ri->exact = !strncmp(ri->clock, "icount", 6);
	ri->target = xstrdup(r->target ? r->target : "local");
	ri->started_at = xstrdup(r->started_at ? r->started_at : "");
	return 0;
}

int runs_load(struct kab_db *db, struct run_list *all, struct kab_err *err)
{
	memset(all, 0, sizeof(*all));
	return kab_db_runs_foreach(db, keep_run, all, err);
}

void runs_free(struct run_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		free(l->v[i].label);
		free(l->v[i].commit);
		free(l->v[i].status);
		free(l->v[i].block);
		free(l->v[i].pair);
		free(l->v[i].params);
		free(l->v[i].machine);
		free(l->v[i].clock);
		free(l->v[i].target);
		free(l->v[i].started_at);
		json_decref(l->v[i].params_obj);
		json_decref(l->v[i].host);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static const struct run_info *by_id(const struct run_list *all, long long id)
{
	size_t i;

	for (i = 0; i < all->nr; i++)
		if (all->v[i].id == id)
			return &all->v[i];
	return NULL;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s) && *s != ',')
			return false;
	return true;
}

/* A label that names no ok run: the user's typo, perhaps. */
static int no_side(const struct run_list *all, const char *spec,
		   struct kab_err *err)
{
	const char **labels;
	const char *near;
	size_t i, n = 0, running = 0;

	/* the kernel is there, but none of its runs completed */
	for (i = 0; i < all->nr; i++)
		if (!strcmp(all->v[i].label, spec)) {
			n++;
			running += !strcmp(all->v[i].status, "running");
		}
	if (running) {
		kab_err_set(err, "no run of '%s' completed yet (%zu still "
			    "running, %zu failed or interrupted): a side "
			    "needs complete runs; 'kab ls --label %s' lists "
			    "them", spec, running, n - running, spec);
		return -1;
	}
	if (n) {
		kab_err_set(err, "no run of '%s' completed (%zu failed or "
			    "interrupted): a side needs complete runs; 'kab "
			    "ls --label %s' lists them", spec, n, spec);
		return -1;
	}
	labels = xcalloc(all->nr + 1, sizeof(*labels));
	for (i = 0; i < all->nr; i++)
		if (!strcmp(all->v[i].status, "ok"))
			labels[n++] = all->v[i].label;
	near = kab_nearest(spec, labels, n);
	if (near)
		kab_err_set(err, "'%s' is neither a run id nor the label of a "
			    "kernel with ok runs: did you mean '%s'? 'kab ls' "
			    "lists them", spec, near);
	else
		kab_err_set(err, "'%s' is neither a run id nor the label of a "
			    "kernel with ok runs: 'kab ls' lists them", spec);
	free(labels);
	return -1;
}

/* Run ids, "3" or "3,4,5": each a run, none twice. */
static int side_ids(const struct run_list *all, const char *spec,
		    struct side_runs *out, struct kab_err *err)
{
	char *copy = xstrdup(spec), *tok, *save;

	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		const struct run_info *r = by_id(all, strtoll(tok, NULL, 10));
		size_t k;

		if (!r) {
			kab_err_set(err, "no run %s: 'kab ls' lists the runs",
				    tok);
			goto bad;
		}
		/* a run is one boot: counted twice, it is two */
		for (k = 0; k < out->nr; k++)
			if (out->v[k] == r) {
				kab_err_set(err, "run %s is named twice in "
					    "'%s': name each run once", tok,
					    spec);
				goto bad;
			}
		out->v = xrealloc(out->v, (out->nr + 1) * sizeof(*out->v));
		out->v[out->nr++] = r;
	}
	free(copy);
	return 0;
bad:
	free(copy);
	free(out->v);
	out->v = NULL;
	out->nr = 0;
	return -1;
}

/*
 * The runs a side names: ids ("3" or "3,4,5") or a kernel label (its ok
 * runs).  A label of digits alone (a commit's 12 digits can be) is the
 * label when no run has that id; a spec that is both is refused.
 */
int side_resolve(const struct run_list *all, const char *spec,
		 struct side_runs *out, struct kab_err *err)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	out->spec = spec;
	for (i = 0; i < all->nr; i++) {
		if (strcmp(all->v[i].label, spec) ||
		    strcmp(all->v[i].status, "ok"))
			continue;
		out->v = xrealloc(out->v, (out->nr + 1) * sizeof(*out->v));
		out->v[out->nr++] = &all->v[i];
	}
	if (all_digits(spec)) {
		bool label = false;

		for (i = 0; i < all->nr && !label; i++)
			label = !strcmp(all->v[i].label, spec);
		/*
		 * digits no run has as its id, that a kernel has as its
		 * label, all of whose runs failed: that kernel's story
		 */
		if (!out->nr && label && !strchr(spec, ',') &&
		    !by_id(all, strtoll(spec, NULL, 10)))
			return no_side(all, spec, err);
		if (!out->nr)
			return side_ids(all, spec, out, err);
		if (!strchr(spec, ',') && by_id(all, strtoll(spec, NULL, 10))) {
			free(out->v);
			out->v = NULL;
			out->nr = 0;
			kab_err_set(err, "'%s' is both a run id and a kernel "
				    "label: 'kab relabel %s NEW' gives the "
				    "kernel another label", spec, spec);
			return -1;
		}
	}
	if (!out->nr)
		return no_side(all, spec, err);
	return 0;
}

/* ---- pooling samples per metric ---- */

struct pool {
	size_t cap, nr;
	struct kab_series *slot;	/* open addressing by metric */
	size_t bad;
	int boot;			/* the run being read */
};

static size_t hash(const char *s)
{
	size_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static void pool_grow(struct pool *p);

static struct kab_series *pool_get(struct pool *p, const char *metric)
{
	size_t i;

	if ((p->nr + 1) * 2 > p->cap)
		pool_grow(p);
	for (i = hash(metric) & (p->cap - 1);; i = (i + 1) & (p->cap - 1)) {
		struct kab_series *s = &p->slot[i];

		if (!s->metric) {
			s->metric = xstrdup(metric);
			p->nr++;
			return s;
		}
		if (!strcmp(s->metric, metric))
			return s;
	}
}

static void pool_grow(struct pool *p)
{
	struct kab_series *old = p->slot;
	size_t oldcap = p->cap, i;

	p->cap = p->cap ? p->cap * 2 : 1024;
	p->slot = xcalloc(p->cap, sizeof(*p->slot));
	p->nr = 0;
	for (i = 0; i < oldcap; i++) {
		struct kab_series *s;

		if (!old[i].metric)
			continue;
		s = pool_get(p, old[i].metric);
		free((char *)old[i].metric);
		s->n = old[i].n;
		s->v = old[i].v;
		s->boot = old[i].boot;
	}
	free(old);
}

static void series_push(struct kab_series *s, int boot, double value)
{
	/* Grow in powers of two: n is the count, capacity is implied. */
	if (!(s->n & (s->n - 1)) || !s->n) {
		s->v = xrealloc(s->v, (s->n ? 2 * s->n : 1) * sizeof(*s->v));
		s->boot = xrealloc(s->boot, (s->n ? 2 * s->n : 1) *
				   sizeof(*s->boot));
	}
	s->boot[s->n] = boot;
	s->v[s->n++] = value;
}

static int pool_add(void *arg, int it, const char *metric, double value)
{
	struct pool *p = arg;

	(void)it;
	if (!isfinite(value)) {
		p->bad++;
		return 0;
	}
	series_push(pool_get(p, metric), p->boot, value);
	return 0;
}

/*
 * lkp's matrix counts a stat that one of a commit's runs lacks as 0 in
 * that run (lib/stats.rb's add_stats_to_matrix, lib/matrix.rb's
 * matrix_fill_missing_zeros): so do kab's comparisons for runs imported
 * from lkp.  The zeros go last, counted in filled, for lkp's rule.
 */
static void lkp_fill(struct kab_side *out, const struct run_info *const *runs,
		     size_t nr)
{
	bool *has, any = false;
	size_t i, k, m;

	for (i = 0; i < nr; i++)
		any |= !strcmp(runs[i]->target, "lkp");
	if (!any)
		return;
	has = xcalloc(nr, sizeof(*has));
	for (m = 0; m < out->nr; m++) {
		struct kab_series *s = &out->series[m];

		memset(has, 0, nr * sizeof(*has));
		for (k = 0; k < s->n; k++)
			has[s->boot[k]] = true;
		for (i = 0; i < nr; i++)
			if (!has[i] && !strcmp(runs[i]->target, "lkp")) {
				series_push(s, (int)i, 0);
				s->filled++;
			}
	}
	free(has);
}

static int cmp_series(const void *a, const void *b)
{
	return strcmp(((const struct kab_series *)a)->metric,
		      ((const struct kab_series *)b)->metric);
}

/*
 * Each run's string at off (its block, its layout pair), by boot; NULL
 * when no run has one.
 */
static const char **per_boot(const struct run_info *const *runs, size_t nr,
			     size_t off)
{
	const char **v = NULL;
	size_t i;

	for (i = 0; i < nr; i++)
		if (*(char *const *)((const char *)runs[i] + off))
			break;
	if (i == nr)
		return NULL;
	v = xcalloc(nr, sizeof(*v));
	for (i = 0; i < nr; i++)
		v[i] = *(char *const *)((const char *)runs[i] + off);
	return v;
}

int side_pool(struct kab_db *db, const struct run_info *const *runs,
	      size_t nr, struct kab_side *out, size_t *bad,
	      struct kab_err *err)
{
	struct pool p = { 0 };
	size_t i, n = 0;

	/* Each run is one boot (or one kab run on a local target). */
	for (i = 0; i < nr; i++) {
		p.boot = (int)i;
		if (kab_db_samples_foreach(db, runs[i]->id, pool_add, &p, err))
			return -1;
	}
	out->series = xcalloc(p.nr ? p.nr : 1, sizeof(*out->series));
	for (i = 0; i < p.cap; i++)
		if (p.slot[i].metric)
			out->series[n++] = p.slot[i];
	out->nr = n;
	qsort(out->series, n, sizeof(*out->series), cmp_series);
	lkp_fill(out, runs, nr);
	out->nr_boots = nr;
	out->block = per_boot(runs, nr, offsetof(struct run_info, block));
	out->pair = per_boot(runs, nr, offsetof(struct run_info, pair));
	free(p.slot);
	*bad += p.bad;
	return 0;
}

/*
 * A stat only a commit's incomplete runs carry is in lkp's matrix too:
 * matrix_fill_missing_zeros gives it 0 in every other run before
 * filter_incomplete_run drops the incomplete ones (lib/matrix.rb,
 * lib/stats.rb), so lkp compares it as 0 in each complete run.  Add
 * such a metric to out, zeros filled in for its lkp runs.
 */
int side_lkp_incomplete(struct kab_db *db,
			const struct run_info *const *runs, size_t nr,
			const long long *failed, size_t nr_failed,
			struct kab_side *out, struct kab_err *err)
{
	struct pool p = { 0 };
	size_t i, k, lkp = 0, added = 0;
	int rc = 0;

	for (i = 0; i < nr; i++)
		lkp += !strcmp(runs[i]->target, "lkp");
	if (!lkp || !nr_failed)
		return 0;
	for (i = 0; i < nr_failed && !rc; i++)
		rc = kab_db_samples_foreach(db, failed[i], pool_add, &p, err);
	for (i = 0; i < p.cap && !rc; i++) {
		struct kab_series key = { .metric = p.slot[i].metric }, *s;

		if (!key.metric || bsearch(&key, out->series, out->nr,
					   sizeof(key), cmp_series))
			continue;
		out->series = xrealloc(out->series, (out->nr + added + 1) *
				       sizeof(*out->series));
		s = &out->series[out->nr + added++];
		memset(s, 0, sizeof(*s));
		s->metric = xstrdup(key.metric);
		for (k = 0; k < nr; k++)
			if (!strcmp(runs[k]->target, "lkp")) {
				series_push(s, (int)k, 0);
				s->filled++;
			}
	}
	for (i = 0; i < p.cap; i++) {
		free((char *)p.slot[i].metric);
		free(p.slot[i].v);
		free(p.slot[i].boot);
	}
	free(p.slot);
	out->nr += added;
	qsort(out->series, out->nr, sizeof(*out->series), cmp_series);
	return rc;
}

void side_free(struct kab_side *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++) {
		free((char *)s->series[i].metric);
		free(s->series[i].v);
		free(s->series[i].boot);
	}
	free(s->series);
	free((void *)s->block);
	free((void *)s->pair);
	free((char *)s->id);
	free((char *)s->desc);
	memset(s, 0, sizeof(*s));
}

/* Column head and commit: line of a side. */
void side_name(const struct run_info *const *runs, size_t nr,
	       const char *spec, struct kab_side *out)
{
	const char *label = runs[0]->label, *commit = runs[0]->commit;
	size_t i;

	for (i = 1; i < nr; i++) {
		if (strcmp(runs[i]->label, label))
			label = NULL;
		if (commit && (!runs[i]->commit ||
			       strcmp(runs[i]->commit, commit)))
			commit = NULL;
		if (!label)
			break;
	}
	if (commit) {
		out->id = xstrdup(commit);
		out->desc = xasprintf("%.10s (\"%s\")", commit,
				      label ? label : spec);
	} else {
		out->id = xstrdup(label ? label : spec);
		out->desc = xstrdup(label ? label : spec);
	}
}

/* ---- a side's runs, one group per kernel label and job ---- */

int side_foreach_group(struct kab_db *db, const char *spec,
		       side_group_fn fn, void *arg, size_t *bad,
		       struct kab_err *err)
{
	struct run_list all;
	struct side_runs sr;
	bool *done;
	size_t i, j, k = 0;
	int rc = 0;

	if (runs_load(db, &all, err))
		return -1;
	if (side_resolve(&all, spec, &sr, err)) {
		runs_free(&all);
		return 1;
	}
	done = xcalloc(sr.nr, sizeof(*done));
	for (i = 0; i < sr.nr && !rc; i++) {
		const struct run_info **g;
		struct kab_side side = { 0 };
		size_t n = 0;

		if (done[i])
			continue;
		g = xcalloc(sr.nr, sizeof(*g));
		for (j = i; j < sr.nr; j++)
			if (!done[j] && !strcmp(sr.v[j]->params,
						sr.v[i]->params) &&
			    !strcmp(sr.v[j]->label, sr.v[i]->label)) {
				g[n++] = sr.v[j];
				done[j] = true;
			}
		rc = side_pool(db, g, n, &side, bad, err);
		if (!rc)
			rc = fn(arg, k++, g, n, &side);
		side_free(&side);
		free(g);
	}
	free(done);
	free(sr.v);
	runs_free(&all);
	return rc;
}

char *runs_more_units(const struct run_info *const *runs, size_t nr,
		      size_t n, size_t iters)
{
	char it[48] = "";
	bool qemu = false, ssh = false;
	size_t i;

	for (i = 0; i < nr; i++) {
		qemu |= !strcmp(runs[i]->target, "qemu");
		ssh |= !strcmp(runs[i]->target, "ssh");
	}
	/* kab ab's iterations of a boot are --runs-per-boot, kab run's --runs */
	if (iters)
		snprintf(it, sizeof(it), " --runs%s %zu",
			 qemu || ssh ? "-per-boot" : "", iters);
	if (qemu)
		return xasprintf("kab ab --boots %zu%s", n, it);
	if (ssh)
		return xasprintf("kab ab --target ssh://HOST --a-setup CMD "
				 "--b-setup CMD --boots %zu%s", n, it);
	return xasprintf("kab run --repeat %zu%s on each kernel", n,
			 iters ? it : "");
}
