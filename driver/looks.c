// SPDX-License-Identifier: GPL-2.0
/*
 * looks.c - kab ab stops when its question is answered.
 *
 * After every round of boots from --boots on, each job's KPI is looked
 * at (analysis/sequential.c): its interval outside +-noise is a change,
 * inside it an equivalence; either answers the job.  The A/B stops
 * when every job is answered or at --max-boots.  The looks share alpha
 * (spent over the looks, and split evenly over the jobs' KPIs), so a
 * kernel compared with itself is called changed at most alpha of the
 * time however many looks are taken.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void kab_drv_looks_init(struct kab_drv_looks *a,
			const struct kab_joblist *jobs, const char *kpi,
			size_t first, size_t last, double alpha, double noise)
{
	size_t j;

	memset(a, 0, sizeof(*a));
	a->nr = (size_t)jobs->nr;
	a->l = xcalloc(a->nr ? a->nr : 1, sizeof(*a->l));
	a->first = first < 2 ? 2 : first;
	a->last = last < a->first ? a->first : last;
	a->alpha = alpha;
	a->noise = noise;
	for (j = 0; j < a->nr; j++) {
		const struct kab_job *job = &jobs->jobs[j];

		a->l[j].kpi = kpi ? xstrdup(kpi) :
			      kab_suite_kpi(job->suite, job->test,
					    kab_job_get(job, "mode"));
	}
}

void kab_drv_looks_free(struct kab_drv_looks *a)
{
	size_t j;

	for (j = 0; j < a->nr; j++) {
		free(a->l[j].kpi);
		free(a->l[j].means[0]);
		free(a->l[j].means[1]);
		free(a->l[j].seeds[0]);
		free(a->l[j].seeds[1]);
	}
	free(a->l);
	memset(a, 0, sizeof(*a));
}

void kab_drv_looks_add(struct kab_drv_looks *a, struct kab_db *db, size_t j,
		       int s, int64_t run_id)
{
	struct kab_run r;
	struct kab_err err;
	struct kab_drv_look *l;
	unsigned long long seed = 0;
	double m;

	if (j >= a->nr)
		return;
	/* boots timed by instructions repeat exactly: their resolution */
	if (run_id > 0 && !kab_db_run_get(db, run_id, &r, &err)) {
		if (r.clock && !strncmp(r.clock, "icount", 6))
			a->floor = kab_exact_floor();
		seed = r.seed;
		kab_run_free(&r);
	}
	l = &a->l[j];
	if (s == 1 && run_id > 0)
		l->head_run = run_id;
	if (!l->kpi || run_id <= 0 ||
	    kab_db_run_mean(db, run_id, l->kpi, &m))
		return;
	l->means[s] = xrealloc(l->means[s], (l->n[s] + 1) * sizeof(double));
	l->seeds[s] = xrealloc(l->seeds[s], (l->n[s] + 1) *
			       sizeof(*l->seeds[s]));
	l->seeds[s][l->n[s]] = seed;
	l->means[s][l->n[s]++] = m;
}

/*
 * The boot means of both sides at each layout seed both have (the
 * first of a side's at a seed), into x and y: how many.
 */
static size_t look_pairs(const struct kab_drv_look *l, double *x, double *y)
{
	size_t i, j, k, n = 0;

	if (!l->seeds[0] || !l->seeds[1])
		return 0;
	for (i = 0; i < l->n[0]; i++) {
		unsigned long long s = l->seeds[0][i];

		for (k = 0; k < i && l->seeds[0][k] != s; k++)
			;
		if (!s || k < i)
			continue;
		for (j = 0; j < l->n[1] && l->seeds[1][j] != s; j++)
			;
		if (j == l->n[1])
			continue;
		x[n] = l->means[0][i];
		y[n++] = l->means[1][j];
	}
	return n;
}

bool kab_drv_looks_round(struct kab_drv_looks *a, size_t round,
			 const char *const *labels,
			 const struct kab_drv_ui *ui)
{
	size_t j, kpis = 0, looks = a->last - a->first + 1;
	bool all = true;

	if (round < a->first)
		return false;
	for (j = 0; j < a->nr; j++)
		kpis += a->l[j].kpi != NULL;
	if (!kpis)
		return false;
	for (j = 0; j < a->nr; j++) {
		struct kab_drv_look *l = &a->l[j];
		struct kab_seq *q = &l->seq;
		double noise = a->noise >= 0 ? a->noise : a->floor > 0 ?
			       KAB_EXACT_RESOLUTION : KAB_NOISE;
		double *x, *y;
		size_t np;

		if (!l->kpi || l->decided)
			continue;
		/* boots at one layout seed on both sides: their pairs */
		x = xcalloc(l->n[0] + 1, sizeof(*x));
		y = xcalloc(l->n[0] + 1, sizeof(*y));
		np = look_pairs(l, x, y);
		/* the noise not given: 1%, exact data's resolution */
		if (np >= 2)
			kab_seq_look_paired(x, y, np, noise, a->floor,
					    round - a->first + 1, looks,
					    a->alpha / kpis, q);
		else
			kab_seq_look(l->means[0], l->n[0], l->means[1],
				     l->n[1], noise, a->floor,
				     round - a->first + 1, looks,
				     a->alpha / kpis, q);
		free(x);
		free(y);
		l->looked = true;
		l->decided = q->verdict == KAB_SEQ_CHANGED ||
			     q->verdict == KAB_SEQ_SAME;
		all &= l->decided;
		l->look_nr = round - a->first + 1;
		l->looks = looks;
		l->labels[0] = labels[0];
		l->labels[1] = labels[1];
		if (ui && ui->look)
			ui->look(ui->ctx, l);
	}
	return all;
}

struct cmp_seq *kab_drv_looks_verdicts(const struct kab_drv_looks *a,
				       size_t *nr)
{
	struct cmp_seq *v = xcalloc(a->nr ? a->nr : 1, sizeof(*v));
	size_t j;

	*nr = 0;
	for (j = 0; j < a->nr; j++) {
		const struct kab_drv_look *l = &a->l[j];

		if (!l->looked || !l->head_run)
			continue;
		v[*nr].run_id = l->head_run;
		v[*nr].metric = l->kpi;
		v[(*nr)++].q = l->seq;
	}
	return v;
}
