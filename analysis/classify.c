// SPDX-License-Identifier: GPL-2.0
/*
 * classify.c - are a commit's boots like the good endpoint's, like the
 * bad endpoint's, or not clearly either?
 *
 * The unit is the boot: each argument is a list of boot means.  The
 * commit is placed against the point halfway between the endpoints'
 * means (on the log scale when everything is positive: changes
 * multiply).  Its distance from halfway, oriented towards bad, is
 * tested with a t statistic whose variance is pooled from the boots of
 * all three groups (the endpoints' boots tell how much a boot varies
 * even while the commit has one), with the endpoints' own uncertainty
 * in the halfway point included.  Beyond halfway towards bad at
 * one-sided level alpha is bad, towards good is good.  So a commit
 * exactly like good is called bad with chance at most alpha, and far
 * less when the endpoints are further apart than the boots' spread;
 * one in the middle stays neither and gets more boots.  A bisect step
 * spends its alpha over those looks (kab_look_alpha).
 */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

struct group {
	double mean, ss;
	size_t n;
};

static void group(const double *v, size_t n, bool log_scale, struct group *g)
{
	size_t i;

	g->n = n;
	g->mean = g->ss = 0;
	for (i = 0; i < n; i++)
		g->mean += (log_scale ? log(v[i]) : v[i]) / n;
	for (i = 0; i < n; i++) {
		double d = (log_scale ? log(v[i]) : v[i]) - g->mean;

		g->ss += d * d;
	}
}

void kab_classify(const double *x, size_t n, const double *good, size_t ng,
		  const double *bad, size_t nb, double alpha, double floor,
		  struct kab_classify *out)
{
	struct group gx, gg, gb;
	double df, s2, se, d, t, toward;

	memset(out, 0, sizeof(*out));
	out->like = KAB_LIKE_NEITHER;
	out->mean = out->position = out->p_good = out->p_bad = NAN;
	if (!n || !ng || !nb)
		return;
	out->log_scale = kab_all_positive(x, n) &&
			 kab_all_positive(good, ng) &&
			 kab_all_positive(bad, nb);
	group(x, n, out->log_scale, &gx);
	group(good, ng, out->log_scale, &gg);
	group(bad, nb, out->log_scale, &gb);
	out->mean = out->log_scale ? exp(gx.mean) : gx.mean;
	if (gg.mean == gb.mean)
		return;
	out->position = (gx.mean - gg.mean) / (gb.mean - gg.mean);
	df = (double)(n + ng + nb) - 3;
	if (df < 1)
		return;
	s2 = (gx.ss + gg.ss + gb.ss) / df;
	/* exact data's resolution: a relative floor, in log units or not */
	floor *= out->log_scale ? 1 : fabs(gg.mean + gb.mean) / 2;
	s2 = fmax(s2, floor * floor);
	se = sqrt(s2 * (1.0 / n + 0.25 / ng + 0.25 / nb));
	toward = gb.mean > gg.mean ? 1 : -1;
	d = toward * (gx.mean - (gg.mean + gb.mean) / 2);
	if (se == 0) {
		out->p_good = d > 0 ? 0 : 1;
		out->p_bad = d < 0 ? 0 : 1;
	} else {
		t = d / se;
		out->p_good = gsl_cdf_tdist_Q(t, df);
		out->p_bad = gsl_cdf_tdist_P(t, df);
	}
	if (out->p_good < alpha)
		out->like = KAB_LIKE_BAD;
	else if (out->p_bad < alpha)
		out->like = KAB_LIKE_GOOD;
}
