/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim.h - kab compare on simulated tables with boot-level random
 * effects, for the calibration test (false alarms, coverage) and make
 * bench (power).
 *
 * A sample is mu * (1 + shift + b + e): b ~ N(0, boot_sd) drawn once per
 * boot and shared by its iterations, e ~ N(0, iter_sd) per iteration.
 * Each side has `boots` boots of `iters` iterations; a table has
 * `metrics` rows, every one shifted by `shift` on the head side.
 */
#ifndef KAB_TEST_SIM_H
#define KAB_TEST_SIM_H

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../analysis/analysis.h"

struct sim_cell {
	double boot_sd, iter_sd;	/* fractions of the mean */
	size_t boots, iters;
	double shift;			/* true relative change of the head */
};

struct sim_result {
	size_t tables, alarm_tables;	/* tables with any significant row */
	size_t rows, called;		/* rows, rows significant */
	size_t kpi_rows, kpi_called;	/* the same of the KPI rows */
	size_t intervals, covering;	/* intervals, those holding the truth */
};

static inline void sim_side(gsl_rng *r, const struct sim_cell *c,
			    double shift, double *v, int *g)
{
	size_t i, j;

	for (i = 0; i < c->boots; i++) {
		double b = gsl_ran_gaussian(r, c->boot_sd);

		for (j = 0; j < c->iters; j++) {
			v[i * c->iters + j] = 1000 * (1 + shift + b +
				gsl_ran_gaussian(r, c->iter_sd));
			g[i * c->iters + j] = (int)i;
		}
	}
}

/* What a simulated table called and covered, into out; cmp is freed. */
static inline void sim_tally(struct kab_comparison *cmp, double truth,
			     struct sim_result *out)
{
	bool any = false;
	size_t m;

	for (m = 0; m < cmp->nr_rows; m++) {
		const struct kab_cell *x = &cmp->rows[m].cells[0];

		any |= x->significant;
		out->called += x->significant;
		out->rows++;
		out->kpi_rows += cmp->rows[m].kpi;
		out->kpi_called += cmp->rows[m].kpi && x->significant;
		if (!isnan(x->ci_lo)) {
			out->intervals++;
			out->covering += x->ci_lo <= truth && truth <= x->ci_hi;
		}
	}
	out->alarm_tables += any;
	out->tables++;
	kab_comparison_free(cmp);
}

/* TABLES tables of METRICS rows under the default kab compare. */
static inline void sim_run(gsl_rng *r, const struct sim_cell *c,
			   size_t metrics, size_t tables,
			   const struct kab_compare_opts *o,
			   struct sim_result *out)
{
	size_t n = c->boots * c->iters, t, m;
	struct kab_series *bs = calloc(metrics, sizeof(*bs));
	struct kab_series *hs = calloc(metrics, sizeof(*hs));
	double *v = malloc(2 * metrics * n * sizeof(*v));
	int *g = malloc(2 * metrics * n * sizeof(*g));
	char (*names)[16] = malloc(metrics * sizeof(*names));
	/* the true change in the units of the interval */
	double truth = 100 * c->shift;

	for (m = 0; m < metrics; m++) {
		snprintf(names[m], sizeof(names[m]), "sim.m%03u", (unsigned int)(m % 1000));
		bs[m] = (struct kab_series){ names[m], n, v + 2 * m * n,
					     g + 2 * m * n, 0 };
		hs[m] = (struct kab_series){ names[m], n, v + (2 * m + 1) * n,
					     g + (2 * m + 1) * n, 0 };
	}
	for (t = 0; t < tables; t++) {
		struct kab_side base = { "a", "a", metrics, bs, NULL, 0, 0, NULL };
		struct kab_side head = { "b", "b", metrics, hs, NULL, 0, 0, NULL };
		struct kab_comparison cmp;

		for (m = 0; m < metrics; m++) {
			sim_side(r, c, 0, bs[m].v, bs[m].boot);
			sim_side(r, c, c->shift, hs[m].v, hs[m].boot);
		}
		if (kab_compare(&base, &head, 1, o, &cmp))
			abort();
		sim_tally(&cmp, truth, out);
	}
	free(bs);
	free(hs);
	free(v);
	free(g);
	free(names);
}

/*
 * Exact mode's seeded boots: boot i of each side runs at layout seed i.
 * A seed fixes the workload's user-space layout, alike under both
 * kernels (u: continuous u_sd, and a jump of u_jump at rate u_p: a
 * mapping across a 1 GiB boundary), and the kernel's own randomness
 * draws from it too, differently in each kernel (k: continuous k_sd,
 * and one of two states k_jump apart).  A row moves by its sensitivity
 * (0, 1 or 3; the KPI 1) times the boot's layout, plus a little of its
 * own.  Iterations repeat within a boot but for iter_sd.
 */
struct sim_layout {
	double u_sd, u_jump, u_p;
	double k_sd, k_jump;
	double iter_sd;
	size_t boots, iters;
	double shift;			/* true relative change of the head */
	bool unpaired;			/* the seeds not told to compare */
};

static inline void sim_layout_run(gsl_rng *r, const struct sim_layout *c,
				  size_t metrics, size_t tables,
				  const struct kab_compare_opts *o,
				  struct sim_result *out)
{
	size_t n = c->boots * c->iters, t, m, i, j;
	struct kab_series *bs = calloc(metrics, sizeof(*bs));
	struct kab_series *hs = calloc(metrics, sizeof(*hs));
	double *v = malloc(2 * metrics * n * sizeof(*v));
	int *g = malloc(2 * metrics * n * sizeof(*g));
	char (*names)[16] = malloc(metrics * sizeof(*names));
	char (*keys)[24] = malloc(c->boots * sizeof(*keys));
	const char **pair = malloc(c->boots * sizeof(*pair));
	double *u = malloc(c->boots * sizeof(*u));
	double *ka = malloc(c->boots * sizeof(*ka));
	double *kb = malloc(c->boots * sizeof(*kb));
	double *w = malloc(metrics * sizeof(*w));
	double truth = 100 * c->shift;

	for (i = 0; i < c->boots; i++) {
		snprintf(keys[i], sizeof(keys[i]), "#%zu", i + 1);
		pair[i] = keys[i];
	}
	for (m = 0; m < metrics; m++) {
		snprintf(names[m], sizeof(names[m]), "sim.m%03u", (unsigned int)(m % 1000));
		bs[m] = (struct kab_series){ names[m], n, v + 2 * m * n,
					     g + 2 * m * n, 0 };
		hs[m] = (struct kab_series){ names[m], n, v + (2 * m + 1) * n,
					     g + (2 * m + 1) * n, 0 };
	}
	for (t = 0; t < tables; t++) {
		struct kab_side base = { "a", "a", metrics, bs, NULL,
					 c->boots, 0, c->unpaired ? NULL : pair };
		struct kab_side head = { "b", "b", metrics, hs, NULL,
					 c->boots, 0, c->unpaired ? NULL : pair };
		struct kab_comparison cmp;

		for (i = 0; i < c->boots; i++) {
			u[i] = gsl_ran_gaussian(r, c->u_sd) +
			       (gsl_rng_uniform(r) < c->u_p ? c->u_jump : 0);
			ka[i] = gsl_ran_gaussian(r, c->k_sd) + c->k_jump *
				((double)gsl_rng_uniform_int(r, 2) - 0.5);
			kb[i] = gsl_ran_gaussian(r, c->k_sd) + c->k_jump *
				((double)gsl_rng_uniform_int(r, 2) - 0.5);
		}
		for (m = 0; m < metrics; m++)
			w[m] = m ? (double)gsl_rng_uniform_int(r, 3) : 1;
		for (m = 0; m < metrics; m++) {
			double sens = w[m] == 2 ? 3 : w[m];

			for (i = 0; i < c->boots; i++) {
				double own_a = gsl_ran_gaussian(r, 0.0002);
				double own_b = gsl_ran_gaussian(r, 0.0002);

				for (j = 0; j < c->iters; j++) {
					size_t k = i * c->iters + j;

					bs[m].v[k] = 1000 * (1 + own_a + sens *
						(u[i] + ka[i]) +
						gsl_ran_gaussian(r, c->iter_sd));
					hs[m].v[k] = 1000 * (1 + c->shift +
						own_b + sens * (u[i] + kb[i]) +
						gsl_ran_gaussian(r, c->iter_sd));
					bs[m].boot[k] = hs[m].boot[k] = (int)i;
				}
			}
		}
		if (kab_compare(&base, &head, 1, o, &cmp))
			abort();
		sim_tally(&cmp, truth, out);
	}
	free(bs);
	free(hs);
	free(v);
	free(g);
	free(names);
	free(keys);
	free(pair);
	free(u);
	free(ka);
	free(kb);
	free(w);
}

/*
 * The one-sided 95% Clopper-Pearson upper bound of k successes in n:
 * the p at which P(X <= k) = 0.05, by bisection (GSL's inverse beta
 * does not converge for every k and n).
 */
/* The boot means of one side of c->boots boots (sim_side's samples). */
static inline void sim_boot_means(gsl_rng *r, const struct sim_cell *c,
				  double shift, double *means)
{
	size_t n = c->boots * c->iters, i, j;
	double *v = malloc(n * sizeof(*v));
	int *g = malloc(n * sizeof(*g));

	sim_side(r, c, shift, v, g);
	for (i = 0; i < c->boots; i++) {
		means[i] = 0;
		for (j = 0; j < c->iters; j++)
			means[i] += v[i * c->iters + j] / c->iters;
	}
	free(v);
	free(g);
}

static inline double sim_upper(size_t k, size_t n)
{
	double lo = (double)k / n, hi = 1;
	int i;

	if (k >= n)
		return 1;
	for (i = 0; i < 60; i++) {
		double mid = (lo + hi) / 2;

		if (gsl_cdf_binomial_P(k, mid, n) > 0.05)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

/*
 * kab plan from simulated pilots: each pilot is one side of c (c->boots
 * boots of c->iters iterations, boot effects and all), planned as kab
 * plan plans it (log scale, a boot costing 10 s and an iteration 3 s,
 * alpha 0.04, power 0.8; with known set the pilot's variances are taken
 * as exact), and the plan's true power is computed with the true
 * variances.  Means over the pilots that gave a plan.
 */
struct sim_plans {
	size_t plans;
	double stated, achieved, boots;
};

static inline void sim_plan_pilots(gsl_rng *r, const struct sim_cell *c,
				   double detect, size_t pilots, bool known,
				   struct sim_plans *out)
{
	size_t n = c->boots * c->iters, t, i;
	double *v = malloc(n * sizeof(*v));
	int *g = malloc(n * sizeof(*g));

	*out = (struct sim_plans){ 0 };
	for (t = 0; t < pilots; t++) {
		struct kab_plan_in in = { .boot_cost = 10, .iter_cost = 3,
					  .delta = log1p(detect),
					  .alpha = 0.04, .power = 0.8 };
		struct kab_plan_out p;
		struct kab_anova an;

		sim_side(r, c, 0, v, g);
		for (i = 0; i < n; i++)
			v[i] = log(v[i]);
		kab_anova(v, g, n, &an);
		in.within_var = an.ms_within;
		in.between_var = kab_anova_between_var(&an);
		if (!known) {
			in.pilot_boots = an.groups;
			in.pilot_iters = an.n0;
		}
		if (kab_plan(&in, &p))
			continue;
		out->plans++;
		out->stated += p.power;
		out->boots += p.boots;
		out->achieved += kab_power_t(p.boots, in.delta,
					     sqrt(c->boot_sd * c->boot_sd +
						  c->iter_sd * c->iter_sd /
						  p.iters), in.alpha);
	}
	if (out->plans) {
		out->stated /= out->plans;
		out->achieved /= out->plans;
		out->boots /= out->plans;
	}
	free(v);
	free(g);
}

/*
 * How likely k or more of n are when each is true at rate p: a small
 * value is evidence that the rate exceeds p.
 */
static inline double sim_excess(size_t k, size_t n, double p)
{
	return k ? gsl_cdf_binomial_Q(k - 1, p, n) : 1;
}

#endif /* KAB_TEST_SIM_H */
