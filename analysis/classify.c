// SPDX-License-Identifier: GPL-2.0
/*
 * classify.c - is a commit's sample like the good endpoint's, like the
 * bad endpoint's, or not clearly either?
 *
 * Its median places it between the two endpoints' medians (t = 0 at
 * good, 1 at bad).  It is like good when it differs significantly
 * (Mann-Whitney U, two-sided) from bad and either cannot be told from
 * good or sits in the third nearest good (t < 1/3); like bad the other
 * way round.  A commit in the middle third that differs from both
 * resembles neither, as does one too few samples separate from
 * anything: a bisect measures it again.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

static double median_of(const double *v, size_t n)
{
	double *c = malloc((n ? n : 1) * sizeof(*c)), m;
	struct kab_summary s;

	if (!c)
		return NAN;
	memcpy(c, v, n * sizeof(*c));
	kab_summarize(c, n, &s);
	m = s.median;
	free(c);
	return m;
}

void kab_classify(const double *x, size_t n, const double *good, size_t ng,
		  const double *bad, size_t nb, double alpha,
		  struct kab_classify *out)
{
	struct kab_mwu ug, ub;
	double mg, mb;

	memset(out, 0, sizeof(*out));
	out->like = KAB_LIKE_NEITHER;
	out->median = out->position = out->p_good = out->p_bad = NAN;
	if (!n || !ng || !nb)
		return;
	out->median = median_of(x, n);
	mg = median_of(good, ng);
	mb = median_of(bad, nb);
	if (mg == mb)
		return;
	out->position = (out->median - mg) / (mb - mg);
	kab_mwu(x, n, good, ng, &ug);
	kab_mwu(x, n, bad, nb, &ub);
	out->p_good = ug.p;
	out->p_bad = ub.p;
	if (out->position < 0.5 && ub.p < alpha &&
	    (ug.p >= alpha || out->position < 1.0 / 3))
		out->like = KAB_LIKE_GOOD;
	else if (out->position > 0.5 && ug.p < alpha &&
		 (ub.p >= alpha || out->position > 2.0 / 3))
		out->like = KAB_LIKE_BAD;
}
