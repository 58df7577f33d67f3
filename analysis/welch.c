// SPDX-License-Identifier: GPL-2.0
/*
 * welch.c - Welch's unequal-variance t-test, Welch-Satterthwaite degrees
 * of freedom, p from GSL's t distribution (fractional df is fine); and
 * the t-test kab compare runs on boot means, which is Student's when
 * the sides have as many boots.
 */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>

#include "analysis.h"

/* Welch's test with no variance taken below floor^2. */
static void welch_floor(const double *x, size_t nx, const double *y,
			size_t ny, double floor, struct kab_welch *out)
{
	double mx, my, vx, vy, se2, a, b;

	out->t = out->df = out->p = out->diff = out->se = NAN;
	if (nx < 2 || ny < 2)
		return;
	mx = gsl_stats_mean(x, 1, nx);
	my = gsl_stats_mean(y, 1, ny);
	out->diff = my - mx;
	vx = fmax(gsl_stats_variance_m(x, 1, nx, mx), floor * floor);
	vy = fmax(gsl_stats_variance_m(y, 1, ny, my), floor * floor);
	a = vx / nx;
	b = vy / ny;
	se2 = a + b;
	out->se = sqrt(se2);
	if (se2 == 0) {
		/* No spread at all: equal or certainly different. */
		out->p = mx == my ? 1 : 0;
		out->t = mx == my ? 0 : (my > mx ? INFINITY : -INFINITY);
		out->df = nx + ny - 2;
		return;
	}
	out->t = (mx - my) / sqrt(se2);
	out->df = se2 * se2 / (a * a / (nx - 1) + b * b / (ny - 1));
	out->p = 2 * gsl_cdf_tdist_Q(fabs(out->t), out->df);
	if (out->p > 1)
		out->p = 1;
}

void kab_welch(const double *x, size_t nx, const double *y, size_t ny,
	       struct kab_welch *out)
{
	welch_floor(x, nx, y, ny, 0, out);
}

double kab_exact_floor(void)
{
	return log1p(KAB_EXACT_RESOLUTION / 100) / gsl_cdf_tdist_Pinv(0.975, 2);
}

void kab_welch_ci(const struct kab_welch *w, double level, double *lo,
		  double *hi)
{
	double half;

	*lo = *hi = NAN;
	if (isnan(w->diff))
		return;
	half = w->se > 0 ? w->se * gsl_cdf_tdist_Pinv(0.5 + level / 2, w->df) :
	       0;
	*lo = w->diff - half;
	*hi = w->diff + half;
}

/*
 * With as many boots on each side the pooled t-test is exact under
 * equal variances and robust to unequal ones (the statistic is Welch's;
 * only the degrees of freedom differ).  Welch's df, between n - 1 and
 * 2n - 2, make a 2-against-2 "95%" interval cover 97.7% of the time in
 * A/A simulation: that is power thrown away.  Unequal sides get Welch.
 */
void kab_ttest(const double *x, size_t nx, const double *y, size_t ny,
	       double floor, struct kab_welch *out)
{
	welch_floor(x, nx, y, ny, floor, out);
	if (nx != ny || isnan(out->t) || out->se == 0)
		return;
	out->df = nx + ny - 2;
	out->p = 2 * gsl_cdf_tdist_Q(fabs(out->t), out->df);
	if (out->p > 1)
		out->p = 1;
}

void kab_ttest_one(const double *d, size_t n, double floor,
		   struct kab_welch *out)
{
	double m, v;

	out->t = out->df = out->p = out->diff = out->se = NAN;
	if (n < 2)
		return;
	m = gsl_stats_mean(d, 1, n);
	v = fmax(gsl_stats_variance_m(d, 1, n, m), floor * floor);
	out->diff = m;
	out->df = n - 1;
	out->se = sqrt(v / n);
	if (out->se == 0) {
		out->p = m == 0 ? 1 : 0;
		out->t = m == 0 ? 0 : (m > 0 ? INFINITY : -INFINITY);
		return;
	}
	out->t = m / out->se;
	out->p = 2 * gsl_cdf_tdist_Q(fabs(out->t), out->df);
	if (out->p > 1)
		out->p = 1;
}
