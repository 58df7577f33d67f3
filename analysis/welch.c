// SPDX-License-Identifier: GPL-2.0
/*
 * welch.c - Welch's unequal-variance t-test, Welch-Satterthwaite degrees
 * of freedom, p from GSL's t distribution (fractional df is fine).
 */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>

#include "analysis.h"

void kab_welch(const double *x, size_t nx, const double *y, size_t ny,
	       struct kab_welch *out)
{
	double mx, my, vx, vy, se2, a, b;

	out->t = out->df = out->p = NAN;
	if (nx < 2 || ny < 2)
		return;
	mx = gsl_stats_mean(x, 1, nx);
	my = gsl_stats_mean(y, 1, ny);
	vx = gsl_stats_variance_m(x, 1, nx, mx);
	vy = gsl_stats_variance_m(y, 1, ny, my);
	a = vx / nx;
	b = vy / ny;
	se2 = a + b;
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
