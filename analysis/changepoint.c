// SPDX-License-Identifier: GPL-2.0
/*
 * changepoint.c - persistent shifts in a KPI over a series of commits:
 * E-divisive means (Matteson and James, 2014) as MongoDB and Apache
 * Otava use it on performance series, with the commit as the unit.
 *
 * A point is a commit with its samples (boot means).  Over a segment
 * of points the split that maximizes the energy statistic between the
 * samples before and after it is the candidate; its significance is a
 * permutation test that shuffles whole points (a commit's boots stay
 * together: they share its code, not their luck), with GSL's generator
 * seeded so that the same series gives the same answer.  A significant
 * split becomes a change point and both sides are searched again.
 * Splits leave at least min_points commits on each side, so a single
 * outlier is never a change; a change smaller than the resolution
 * (noise) is not called; a split whose means agree but whose spread
 * does not is reported as a change in noise alone.
 *
 * The permutation test is weakest at a series' start: two commits
 * before a shift can be matched by any two commits that happen to sit
 * together in a shuffled order, so a shift needs four or so commits
 * before it there (test-changepoint), two at the end.
 *
 * Samples taken at layout seeds (exact mode) are first centred on
 * their seed's mean over the segment, so that a layout every commit
 * shares is not taken for a difference between commits.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "analysis.h"

/* A segment's samples, in point order, and where each point starts. */
struct seg {
	double *x;
	double *mean;		/* each point's */
	double *dev;		/* each mean's distance to their median */
	size_t *start;		/* points + 1 entries */
	size_t points, n;
};

/*
 * Centre each sample on its seed's mean over the segment (when every
 * sample has a seed and each seed is in two points or more).
 */
static void centre_seeds(const struct kab_cp_point *pts, size_t a,
			 size_t b, double *x)
{
	size_t i, j, k = 0, n = 0, m;
	unsigned int *seen = NULL;
	double *sum = NULL, grand = 0;
	size_t *cnt = NULL, nseeds = 0;

	for (i = a; i < b; i++) {
		if (!pts[i].seed)
			return;
		n += pts[i].n;
	}
	seen = malloc(n * sizeof(*seen));
	sum = calloc(n, sizeof(*sum));
	cnt = calloc(n, sizeof(*cnt));
	if (!seen || !sum || !cnt)
		goto out;
	for (i = a; i < b; i++)
		for (j = 0; j < pts[i].n; j++, k++) {
			for (m = 0; m < nseeds; m++)
				if (seen[m] == pts[i].seed[j])
					break;
			if (m == nseeds)
				seen[nseeds++] = pts[i].seed[j];
			sum[m] += x[k];
			cnt[m]++;
			grand += x[k];
		}
	for (m = 0; m < nseeds; m++)
		if (cnt[m] < 2)
			goto out;
	grand /= n;
	for (i = a, k = 0; i < b; i++)
		for (j = 0; j < pts[i].n; j++, k++) {
			for (m = 0; seen[m] != pts[i].seed[j]; m++)
				;
			x[k] -= sum[m] / cnt[m] - grand;
		}
out:
	free(seen);
	free(sum);
	free(cnt);
}

static void seg_free(struct seg *s)
{
	free(s->x);
	free(s->mean);
	free(s->dev);
	free(s->start);
}

static int seg_load(const struct kab_cp_point *pts, size_t a, size_t b,
		    struct seg *s)
{
	size_t i, k = 0;

	s->points = b - a;
	s->n = 0;
	for (i = a; i < b; i++)
		s->n += pts[i].n;
	s->x = malloc((s->n ? s->n : 1) * sizeof(*s->x));
	s->mean = malloc((s->points ? s->points : 1) * sizeof(*s->mean));
	s->dev = malloc((s->points ? s->points : 1) * sizeof(*s->dev));
	s->start = malloc((s->points + 1) * sizeof(*s->start));
	if (!s->x || !s->mean || !s->dev || !s->start) {
		seg_free(s);
		return -1;
	}
	for (i = a; i < b; i++) {
		s->start[i - a] = k;
		memcpy(s->x + k, pts[i].v, pts[i].n * sizeof(double));
		k += pts[i].n;
	}
	s->start[s->points] = k;
	centre_seeds(pts, a, b, s->x);
	for (i = 0; i < s->points; i++) {
		double sum = 0;

		for (k = s->start[i]; k < s->start[i + 1]; k++)
			sum += s->x[k];
		s->mean[i] = s->start[i + 1] > s->start[i] ?
			     sum / (s->start[i + 1] - s->start[i]) : 0;
	}
	if (s->points) {
		double med;

		memcpy(s->dev, s->mean, s->points * sizeof(*s->dev));
		gsl_sort(s->dev, 1, s->points);
		med = gsl_stats_median_from_sorted_data(s->dev, 1, s->points);
		for (i = 0; i < s->points; i++)
			s->dev[i] = fabs(s->mean[i] - med);
	}
	return 0;
}

/*
 * E-divisive's split of the points in the order of ord (their means in
 * m): the tau and kappa that maximize the energy statistic between the
 * points [0, tau) and [tau, kappa), min_points or more in each: its Q,
 * and tau in *at.  Comparing with the points up to kappa only is what
 * finds a shift that comes back (malloc1's story) as well as one that
 * stays.  For each tau the right side grows a point at a time, which
 * updates the sums of distances in O(points).
 */
double kab_cp_split(const double *m, const size_t *ord, size_t points,
		    size_t min_points, size_t *at)
{
	double best = -1;
	size_t t, k, i;

	*at = 0;
	for (t = min_points; t + min_points <= points; t++) {
		double sxx = 0, syy = 0, sxy = 0;

		for (i = 0; i < t; i++)
			for (k = i + 1; k < t; k++)
				sxx += 2 * fabs(m[ord[i]] - m[ord[k]]);
		for (k = t; k < points; k++) {
			double nx = t, ny = k - t + 1, e, q;

			for (i = 0; i < t; i++)
				sxy += fabs(m[ord[k]] - m[ord[i]]);
			for (i = t; i < k; i++)
				syy += 2 * fabs(m[ord[k]] - m[ord[i]]);
			if (ny < min_points)
				continue;
			e = 2 * sxy / (nx * ny) - sxx / (nx * nx) -
			    syy / (ny * ny);
			q = nx * ny / (nx + ny) * e;
			if (q > best) {
				best = q;
				*at = t;
			}
		}
	}
	return best;
}

static void seg_mean(const struct seg *s, size_t a, size_t b, double *mean,
		     double *var, size_t *n)
{
	double sum = 0, ss = 0;
	size_t i;

	*n = s->start[b] - s->start[a];
	for (i = s->start[a]; i < s->start[b]; i++)
		sum += s->x[i];
	*mean = *n ? sum / *n : 0;
	for (i = s->start[a]; i < s->start[b]; i++)
		ss += (s->x[i] - *mean) * (s->x[i] - *mean);
	*var = *n > 1 ? ss / (*n - 1) : 0;
}

struct search {
	const struct kab_cp_point *pts;
	const struct kab_cp_opts *o;
	gsl_rng *rng;
	struct kab_cp *found;	/* grows */
	size_t nr, alloc;
	int err;
};

/*
 * The change between the points [a, at) and [at, b) of s: its size,
 * interval and kind; false if it is no change.
 */
static bool describe(const struct seg *s, size_t a, size_t at, size_t b,
		     double p, const struct kab_cp_opts *o, struct kab_cp *cp)
{
	double m1, v1, m2, v2, se, df, t, q, lo, hi, pf;
	size_t n1, n2;

	seg_mean(s, a, at, &m1, &v1, &n1);
	seg_mean(s, at, b, &m2, &v2, &n2);
	if (n1 < 2 || n2 < 2 || m1 == 0)
		return false;
	/* exact data: no boot mean is taken to be surer than the floor */
	v1 = fmax(v1, o->floor * m1 * o->floor * m1);
	v2 = fmax(v2, o->floor * m2 * o->floor * m2);
	se = sqrt(v1 / n1 + v2 / n2);
	memset(cp, 0, sizeof(*cp));
	cp->before = m1;
	cp->after = m2;
	cp->p = p;
	cp->pct = 100 * (m2 - m1) / fabs(m1);
	if (se > 0) {
		df = (v1 / n1 + v2 / n2) * (v1 / n1 + v2 / n2) /
		     ((v1 / n1) * (v1 / n1) / (n1 - 1) +
		      (v2 / n2) * (v2 / n2) / (n2 - 1));
		q = gsl_cdf_tdist_Qinv(0.025, df);
		t = fabs(m2 - m1) / se;
		lo = m2 - m1 - q * se;
		hi = m2 - m1 + q * se;
		cp->p_mean = 2 * gsl_cdf_tdist_Q(t, df);
	} else {
		lo = hi = m2 - m1;
		cp->p_mean = m2 == m1 ? 1 : 0;
	}
	cp->lo = 100 * lo / fabs(m1);
	cp->hi = 100 * hi / fabs(m1);
	if (fabs(cp->pct) >= o->noise && cp->p_mean <= o->alpha)
		return true;
	/* the means agree: has the spread changed? */
	if (v1 > 0 && v2 > 0) {
		double f = v2 / v1;

		pf = 2 * fmin(gsl_cdf_fdist_P(f, n2 - 1, n1 - 1),
			      gsl_cdf_fdist_Q(f, n2 - 1, n1 - 1));
		if (pf <= o->alpha) {
			cp->noise_only = true;
			return true;
		}
	}
	return false;
}

/*
 * The best split of v's points and its permutation test: the share of
 * orders of the points (whole commits shuffled) whose best split is as
 * good, the observed order counted; 1 if there is no split.
 */
static double permuted(struct search *se, const double *v, size_t points,
		       size_t *ord, size_t *at)
{
	size_t i, r, above = 0, at_perm;
	double q;

	for (i = 0; i < points; i++)
		ord[i] = i;
	q = kab_cp_split(v, ord, points, se->o->min_points, at);
	if (q <= 0 || !*at)
		return 1;
	for (r = 0; r < se->o->perms; r++) {
		/* Fisher-Yates over whole points */
		for (i = points - 1; i > 0; i--) {
			size_t j = gsl_rng_uniform_int(se->rng, i + 1), t;

			t = ord[i];
			ord[i] = ord[j];
			ord[j] = t;
		}
		if (kab_cp_split(v, ord, points, se->o->min_points,
			       &at_perm) >= q)
			above++;
	}
	return (above + 1.0) / (se->o->perms + 1.0);
}

static void search(struct search *se, size_t a, size_t b)
{
	const struct kab_cp_opts *o = se->o;
	size_t *ord = NULL, at;
	struct seg s = { 0 };
	struct kab_cp cp;
	double p;

	if (se->err || b - a < 2 * o->min_points)
		return;
	if (seg_load(se->pts, a, b, &s))
		goto fail;
	ord = malloc(s.points * sizeof(*ord));
	if (!ord)
		goto fail;
	p = permuted(se, s.mean, s.points, ord, &at);
	if (p > o->alpha || !describe(&s, 0, at, s.points, p, o, &cp)) {
		/* the spread: the same search over the distances to the median */
		p = permuted(se, s.dev, s.points, ord, &at);
		if (p > o->alpha || !describe(&s, 0, at, s.points, p, o, &cp) ||
		    !cp.noise_only)
			goto out;
	}
	cp.at = a + at;
	if (se->nr == se->alloc) {
		size_t n = se->alloc ? 2 * se->alloc : 8;
		struct kab_cp *f = realloc(se->found, n * sizeof(*f));

		if (!f)
			goto fail;
		se->found = f;
		se->alloc = n;
	}
	se->found[se->nr++] = cp;
	free(ord);
	seg_free(&s);
	search(se, a, a + at);
	search(se, a + at, b);
	return;
fail:
	se->err = ENOMEM;
out:
	free(ord);
	seg_free(&s);
}

static int by_at(const void *x, const void *y)
{
	const struct kab_cp *a = x, *b = y;

	return a->at < b->at ? -1 : a->at > b->at;
}

void kab_cp_defaults(struct kab_cp_opts *o)
{
	o->min_points = 2;
	o->alpha = 0.01;
	o->perms = 199;
	o->seed = 1;
	o->noise = 1;
	o->floor = 0;
}

/*
 * Each change described again between its final neighbours: the search
 * sized it against the rest of the segment it split, which may hold
 * the next change.
 */
static int redescribe(const struct kab_cp_point *pts, size_t n,
		      const struct kab_cp_opts *o, struct kab_cp *cp,
		      size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		size_t a = i ? cp[i - 1].at : 0, b = i + 1 < nr ?
			   cp[i + 1].at : n;
		struct seg s;
		struct kab_cp d;

		if (seg_load(pts, a, b, &s))
			return -1;
		describe(&s, 0, cp[i].at - a, b - a, cp[i].p, o, &d);
		d.at = cp[i].at;
		d.noise_only = cp[i].noise_only;	/* the search's call */
		seg_free(&s);
		cp[i] = d;
	}
	return 0;
}

int kab_changepoints(const struct kab_cp_point *pts, size_t n,
		     const struct kab_cp_opts *o, struct kab_cp *out,
		     size_t max)
{
	struct search se = { pts, o, NULL, NULL, 0, 0, 0 };

	if (!o->min_points || o->perms < 1 || o->alpha <= 0) {
		errno = EINVAL;
		return -1;
	}
	se.rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!se.rng) {
		errno = ENOMEM;
		return -1;
	}
	gsl_rng_set(se.rng, o->seed);
	search(&se, 0, n);
	gsl_rng_free(se.rng);
	if (!se.err && se.nr) {
		qsort(se.found, se.nr, sizeof(*se.found), by_at);
		if (redescribe(pts, n, o, se.found, se.nr))
			se.err = ENOMEM;
		else
			memcpy(out, se.found,
			       (se.nr < max ? se.nr : max) * sizeof(*out));
	}
	free(se.found);
	if (se.err) {
		errno = se.err;
		return -1;
	}
	return (int)se.nr;
}
