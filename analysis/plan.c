// SPDX-License-Identifier: GPL-2.0
/*
 * plan.c - how many boots, of how many iterations, detect a change.
 *
 * A side's boot means vary by sigma_b^2 + sigma_w^2 / r for r
 * iterations a boot.  With a boot costing c_b and an iteration c_i, the
 * cost of a given precision is least at r* = sqrt(c_b sigma_w^2 /
 * (c_i sigma_b^2)) (Kalibera and Jones, "Rigorous Benchmarking in
 * Reasonable Time", ISMM 2013).  The boots a side then follow from the
 * power of the two-sample t-test kab compare runs on the boot means
 * (pooled, 2n - 2 degrees of freedom), computed exactly from the
 * noncentral t distribution by integrating over the chi-square of the
 * variance estimate.
 */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_randist.h>
#include <math.h>

#include "analysis.h"

#define MAX_ITERS 100
#define MAX_BOOTS 10000

struct nct {
	double t, df, ncp;
};

/* P(T' <= t | chi-square u) weighted by the chi-square density. */
static double nct_integrand(double u, void *arg)
{
	const struct nct *a = arg;

	return gsl_cdf_ugaussian_P(a->t * sqrt(u / a->df) - a->ncp) *
	       gsl_ran_chisq_pdf(u, a->df);
}

/*
 * P(T' <= t) for the noncentral t with df and ncp: over the chi-square's
 * mass only (its 1e-12 tails left out), where adaptive integration
 * holds its tolerance; over [0, inf) it gave up for some df near 80.
 */
static double nct_cdf(double t, double df, double ncp)
{
	gsl_integration_workspace *w = gsl_integration_workspace_alloc(256);
	struct nct a = { t, df, ncp };
	gsl_function f = { nct_integrand, &a };
	gsl_error_handler_t *old = gsl_set_error_handler_off();
	double lo = gsl_cdf_chisq_Pinv(1e-12, df);
	double hi = gsl_cdf_chisq_Qinv(1e-12, df);
	double r = NAN, err;

	if (w && gsl_integration_qag(&f, lo, hi, 1e-10, 1e-8, 256,
				     GSL_INTEG_GAUSS41, w, &r, &err) &&
	    gsl_integration_qag(&f, lo, hi, 1e-8, 1e-6, 256,
				GSL_INTEG_GAUSS41, w, &r, &err))
		r = NAN;
	gsl_set_error_handler(old);
	if (w)
		gsl_integration_workspace_free(w);
	return r;
}

/* A two-sided t-test's power at df, its noncentrality ncp. */
static double power_at(double df, double ncp, double alpha)
{
	double tc = gsl_cdf_tdist_Qinv(alpha / 2, df);

	return 1 - nct_cdf(tc, df, ncp) + nct_cdf(-tc, df, ncp);
}

double kab_power_t(size_t n, double delta, double sd, double alpha)
{
	if (n < 2 || !(sd > 0))
		return NAN;
	return power_at(2.0 * n - 2, fabs(delta) / (sd * sqrt(2.0 / n)),
			alpha);
}

double kab_power_paired(size_t n, double delta, double sd, double alpha)
{
	if (n < 2 || !(sd > 0))
		return NAN;
	return power_at(n - 1.0, fabs(delta) / (sd / sqrt((double)n)), alpha);
}

static double detectable(double (*power_of)(size_t, double, double, double),
			 size_t n, double sd, double alpha, double power)
{
	double lo = 0, hi = sd;
	int i;

	if (n < 2 || !(sd > 0))
		return NAN;
	while (power_of(n, hi, sd, alpha) < power) {
		hi *= 2;
		if (hi > 1e6 * sd)
			return INFINITY;
	}
	for (i = 0; i < 30; i++) {
		double mid = (lo + hi) / 2;

		if (power_of(n, mid, sd, alpha) < power)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

double kab_detectable(size_t n, double sd, double alpha, double power)
{
	return detectable(kab_power_t, n, sd, alpha, power);
}

double kab_detectable_paired(size_t n, double sd, double alpha, double power)
{
	return detectable(kab_power_paired, n, sd, alpha, power);
}

/* Draws of a boot's variance from the pilot's posterior: quantiles. */
#define DRAWS 32

struct draws {
	double between[DRAWS];	/* sigma_b^2 at each */
	size_t n;		/* 1: known variances */
};

/*
 * The between-boot variance a pilot of k boots of n0 iterations leaves
 * possible: its boot means' variance V = sigma_b^2 + sigma_w^2 / n0 is
 * (k - 1) V^ / u for u ~ chi-square(k - 1), at DRAWS quantiles of u;
 * sigma_w^2, estimated from many more degrees of freedom, as it is.
 */
static void pilot_draws(const struct kab_plan_in *in, struct draws *d)
{
	double df, v, w;
	size_t i;

	if (in->pilot_boots < 2 || !(in->pilot_iters >= 1)) {
		d->between[0] = in->between_var;
		d->n = 1;
		return;
	}
	df = (double)in->pilot_boots - 1;
	w = in->within_var / in->pilot_iters;
	v = in->between_var + w;
	for (i = 0; i < DRAWS; i++) {
		double u = gsl_cdf_chisq_Pinv((i + 0.5) / DRAWS, df);
		double b = df * v / u - w;

		d->between[i] = b > 0 ? b : 0;
	}
	d->n = DRAWS;
}

/* The power of n boots of r iterations, averaged over the draws. */
static double mean_power(const struct kab_plan_in *in, const struct draws *d,
			 size_t n, double r)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < d->n; i++) {
		double sd = sqrt(d->between[i] + in->within_var / r);

		sum += in->paired ?
		       kab_power_paired(n, in->delta, M_SQRT2 * sd, in->alpha) :
		       kab_power_t(n, in->delta, sd, in->alpha);
	}
	return sum / d->n;
}

int kab_plan(const struct kab_plan_in *in, struct kab_plan_out *out)
{
	struct draws d;
	double r, b;
	size_t lo, hi;

	out->iters = out->boots = 0;
	out->power = out->seconds = NAN;
	if (!(in->within_var >= 0) || !(in->between_var >= 0) ||
	    !(in->delta > 0) || !(in->boot_cost >= 0) ||
	    !(in->iter_cost > 0))
		return -1;
	if (in->within_var == 0 && in->between_var == 0)
		return -1;
	pilot_draws(in, &d);
	/*
	 * The optimal split of a boot's cost between boots and iterations,
	 * at the median draw: a pilot whose boots happened to agree does
	 * not make boots free of their own luck.
	 */
	b = d.between[d.n / 2];
	if (b == 0)
		r = MAX_ITERS;
	else
		r = sqrt(in->boot_cost * in->within_var / (in->iter_cost * b));
	r = r < 1 ? 1 : r > MAX_ITERS ? MAX_ITERS : round(r);
	out->iters = (size_t)r;
	/* power grows with n: double, then bisect */
	for (hi = 2; mean_power(in, &d, hi, r) < in->power; hi *= 2)
		if (hi >= MAX_BOOTS)
			return -1;
	for (lo = hi / 2 < 2 ? 1 : hi / 2; hi - lo > 1;) {
		size_t mid = (lo + hi) / 2;

		if (mean_power(in, &d, mid, r) < in->power)
			lo = mid;
		else
			hi = mid;
	}
	out->boots = hi;
	out->power = mean_power(in, &d, hi, r);
	out->seconds = hi * (in->boot_cost + r * in->iter_cost);
	return 0;
}
