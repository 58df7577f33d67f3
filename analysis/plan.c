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

/* P(T' <= t) for the noncentral t with df and ncp. */
static double nct_cdf(double t, double df, double ncp)
{
	gsl_integration_workspace *w = gsl_integration_workspace_alloc(256);
	struct nct a = { t, df, ncp };
	gsl_function f = { nct_integrand, &a };
	gsl_error_handler_t *old = gsl_set_error_handler_off();
	double r = NAN, err;

	if (w && gsl_integration_qagiu(&f, 0, 1e-10, 1e-8, 256, w, &r, &err))
		r = NAN;
	gsl_set_error_handler(old);
	if (w)
		gsl_integration_workspace_free(w);
	return r;
}

double kab_power_t(size_t n, double delta, double sd, double alpha)
{
	double df, tc, ncp, lo, hi;

	if (n < 2 || !(sd > 0))
		return NAN;
	df = 2.0 * n - 2;
	tc = gsl_cdf_tdist_Qinv(alpha / 2, df);
	ncp = fabs(delta) / (sd * sqrt(2.0 / n));
	hi = 1 - nct_cdf(tc, df, ncp);
	lo = nct_cdf(-tc, df, ncp);
	return hi + lo;
}

double kab_detectable(size_t n, double sd, double alpha, double power)
{
	double lo = 0, hi = sd;
	int i;

	if (n < 2 || !(sd > 0))
		return NAN;
	while (kab_power_t(n, hi, sd, alpha) < power) {
		hi *= 2;
		if (hi > 1e6 * sd)
			return INFINITY;
	}
	for (i = 0; i < 30; i++) {
		double mid = (lo + hi) / 2;

		if (kab_power_t(n, mid, sd, alpha) < power)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

int kab_plan(const struct kab_plan_in *in, struct kab_plan_out *out)
{
	double r, v;
	size_t n;

	out->iters = out->boots = 0;
	out->power = out->seconds = NAN;
	if (!(in->within_var >= 0) || !(in->between_var >= 0) ||
	    !(in->delta > 0) || !(in->boot_cost >= 0) ||
	    !(in->iter_cost > 0))
		return -1;
	if (in->within_var == 0 && in->between_var == 0)
		return -1;
	/* the optimal split of a boot's cost between boots and iterations */
	if (in->between_var == 0)
		r = MAX_ITERS;
	else
		r = sqrt(in->boot_cost * in->within_var /
			 (in->iter_cost * in->between_var));
	r = r < 1 ? 1 : r > MAX_ITERS ? MAX_ITERS : round(r);
	out->iters = (size_t)r;
	v = in->between_var + in->within_var / r;
	for (n = 2; n <= MAX_BOOTS; n++) {
		double p = kab_power_t(n, in->delta, sqrt(v), in->alpha);

		if (p >= in->power) {
			out->boots = n;
			out->power = p;
			out->seconds = n * (in->boot_cost + r * in->iter_cost);
			return 0;
		}
	}
	return -1;
}
