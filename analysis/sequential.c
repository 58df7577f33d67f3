// SPDX-License-Identifier: GPL-2.0
/*
 * sequential.c - looking after every round of boots without paying for
 * it in false alarms.
 *
 * An A/B or a bisect step that tests after each round and stops at the
 * first p < alpha calls an A/A pair "changed" far more often than alpha
 * (five looks at 0.05 give about 14%).  kab spends alpha over the
 * looks instead (Lan and DeMets' spending function of Pocock's type,
 * alpha * ln(1 + (e - 1) t) at information fraction t = look / looks)
 * and tests each look at the alpha spent since the last one.  The sum
 * of the looks' levels is alpha, so by the union bound the chance of
 * any false call over all looks is at most alpha, whatever the looks'
 * correlation; no multivariate t integral is needed, at the price of a
 * little power against the exact group-sequential boundary.
 *
 * A look decides one of three things about the change of the boot
 * means (on the log scale when every boot mean is positive):
 *   changed     its (1 - a) interval lies wholly outside +-noise
 *   equivalent  its (1 - 2a) interval lies wholly inside +-noise (two
 *               one-sided tests at a, each)
 *   more        neither: boot again, or undecided at the last look.
 */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

double kab_spent(double alpha, double t)
{
	if (t <= 0)
		return 0;
	if (t >= 1)
		return alpha;
	return alpha * log1p((M_E - 1) * t);
}

double kab_look_alpha(double alpha, size_t look, size_t looks)
{
	if (!looks || !look || look > looks)
		return 0;
	return kab_spent(alpha, (double)look / looks) -
	       kab_spent(alpha, (double)(look - 1) / looks);
}

/* The change and its ends in %, from the difference on the test's scale. */
static double to_pct(double d, bool log_scale, double base)
{
	return log_scale ? 100 * expm1(d) : 100 * d / fabs(base);
}

/* The verdict of a look from its test of the difference. */
static void decide(const struct kab_welch *w, double base, double noise,
		   struct kab_seq *out)
{
	double lo, hi;

	if (isnan(w->diff))
		return;
	out->change = to_pct(w->diff, out->log_scale, base);
	kab_welch_ci(w, 1 - out->alpha, &lo, &hi);
	out->lo = to_pct(lo, out->log_scale, base);
	out->hi = to_pct(hi, out->log_scale, base);
	kab_welch_ci(w, 1 - 2 * out->alpha, &lo, &hi);
	out->eq_lo = to_pct(lo, out->log_scale, base);
	out->eq_hi = to_pct(hi, out->log_scale, base);
	if (out->lo > noise || out->hi < -noise)
		out->verdict = KAB_SEQ_CHANGED;
	else if (noise > 0 && out->eq_lo > -noise && out->eq_hi < noise)
		out->verdict = KAB_SEQ_SAME;
}

static void look_start(size_t look, size_t looks, double alpha,
		       struct kab_seq *out)
{
	memset(out, 0, sizeof(*out));
	out->verdict = KAB_SEQ_MORE;
	out->change = out->lo = out->hi = out->eq_lo = out->eq_hi = NAN;
	out->alpha = kab_look_alpha(alpha, look, looks);
	out->last = look >= looks;
}

void kab_seq_look_paired(const double *x, const double *y, size_t n,
			 double noise, double floor, size_t look,
			 size_t looks, double alpha, struct kab_seq *out)
{
	double *d = NULL, base;
	struct kab_welch w;
	size_t i;

	look_start(look, looks, alpha, out);
	if (n < 2 || !(d = malloc(n * sizeof(*d))))
		goto undecided;
	out->log_scale = kab_all_positive(x, n) && kab_all_positive(y, n);
	base = gsl_stats_mean(x, 1, n);
	if (!out->log_scale && base == 0)
		goto undecided;
	for (i = 0; i < n; i++)
		d[i] = out->log_scale ? log(y[i]) - log(x[i]) : y[i] - x[i];
	/* a difference of two boot means: sqrt(2) floors */
	kab_ttest_one(d, n, M_SQRT2 * (out->log_scale ? floor :
				       floor * fabs(base)), &w);
	decide(&w, base, noise, out);
undecided:
	free(d);
	if (out->verdict == KAB_SEQ_MORE && out->last)
		out->verdict = KAB_SEQ_UNDECIDED;
}

void kab_seq_look(const double *x, size_t nx, const double *y, size_t ny,
		  double noise, double floor, size_t look, size_t looks,
		  double alpha, struct kab_seq *out)
{
	double *lx = NULL, *ly = NULL, base;
	struct kab_welch w;
	size_t i;

	look_start(look, looks, alpha, out);
	if (nx < 2 || ny < 2)
		goto undecided;
	out->log_scale = kab_all_positive(x, nx) && kab_all_positive(y, ny);
	lx = malloc(nx * sizeof(*lx));
	ly = malloc(ny * sizeof(*ly));
	if (!lx || !ly)
		goto undecided;
	for (i = 0; i < nx; i++)
		lx[i] = out->log_scale ? log(x[i]) : x[i];
	for (i = 0; i < ny; i++)
		ly[i] = out->log_scale ? log(y[i]) : y[i];
	base = gsl_stats_mean(x, 1, nx);
	if (!out->log_scale && base == 0)
		goto undecided;
	/* a relative floor: log units, or a fraction of the base */
	kab_ttest(lx, nx, ly, ny, out->log_scale ? floor : floor * fabs(base),
		  &w);
	decide(&w, base, noise, out);
undecided:
	free(lx);
	free(ly);
	if (out->verdict == KAB_SEQ_MORE && out->last)
		out->verdict = KAB_SEQ_UNDECIDED;
}

const char *kab_seq_verdict_name(enum kab_seq_verdict v)
{
	switch (v) {
	case KAB_SEQ_CHANGED:
		return "changed";
	case KAB_SEQ_SAME:
		return "equivalent";
	case KAB_SEQ_UNDECIDED:
		return "undecided";
	default:
		return "more boots";
	}
}
