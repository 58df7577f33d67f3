// SPDX-License-Identifier: GPL-2.0
/*
 * bench-changepoint.c - kab's change points (analysis/changepoint.c) by
 * simulation: series of commits measured with 3 boots each, boot-level
 * noise, a commit's boots sharing nothing but its code.  False change
 * points per 100 commits of a flat series; for a shift at commit 20 of
 * 40, how often it is found there (within a commit), and the delay: how
 * many commits after the shift a watcher measuring one at a time needs
 * before it calls it.  Exact mode's row: every commit at seeds 1-3, the
 * seed moving the KPI by up to 11%, 0.05% left between boots of a seed,
 * and exact mode's resolution of 0.5% (1% on the wall clock).
 */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../analysis/analysis.h"

#define COMMITS	40
#define BOOTS	3
#define AT	20
#define SERIES	100

static double v[COMMITS][BOOTS];
static unsigned int seeds[COMMITS][BOOTS];
static struct kab_cp_point pts[COMMITS];

static void draw(gsl_rng *r, double sd, bool exact, double shift)
{
	static const double seed_effect[BOOTS] = { 0, -0.11, 0.03 };
	size_t i, j;

	for (i = 0; i < COMMITS; i++) {
		for (j = 0; j < BOOTS; j++) {
			double level = 1 + (i >= AT ? shift : 0);

			if (exact)
				level *= 1 + seed_effect[j];
			v[i][j] = 100 * level * (1 + gsl_ran_gaussian(r, sd));
			seeds[i][j] = j + 1;
		}
		pts[i].v = v[i];
		pts[i].seed = exact ? seeds[i] : NULL;
		pts[i].n = BOOTS;
	}
}

static bool found_at(size_t n, const struct kab_cp_opts *o)
{
	struct kab_cp cp[8];
	int k = kab_changepoints(pts, n, o, cp, 8), i;

	for (i = 0; i < k && i < 8; i++)
		if (!cp[i].noise_only && cp[i].at + 1 >= AT &&
		    cp[i].at <= AT + 1)
			return true;
	return false;
}

int main(void)
{
	static const struct {
		const char *name;
		double sd;
		bool exact;
	} rows[] = {
		{ "boot noise 1%", 0.01, false },
		{ "boot noise 2%", 0.02, false },
		{ "boot noise 5%", 0.05, false },
		{ "exact, seeds", 0.0005, true },
	};
	static const double shifts[] = { -0.01, -0.02, -0.10 };
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	struct kab_cp_opts o;
	size_t i, s, t;

	kab_cp_defaults(&o);
	gsl_rng_set(r, 2026);
	printf("  %d series of %d commits x %d boots a cell; a shift at "
	       "commit %d; found: within a commit of it\n", SERIES, COMMITS,
	       BOOTS, AT);
	printf("  %-15s %12s", "", "A/A false");
	for (s = 0; s < sizeof(shifts) / sizeof(shifts[0]); s++)
		printf("   %+3.0f%%: found, delay", 100 * shifts[s]);
	printf("\n  %-15s %12s\n", "", "/100 commits");
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		long false_cp = 0;

		/* exact mode's resolution, the wall clock's noise floor */
		o.noise = rows[i].exact ? 0.5 : 1;
		/* and, as kab watch sets it, exact data's floor */
		o.floor = rows[i].exact ? kab_exact_floor() : 0;

		for (t = 0; t < SERIES; t++) {
			struct kab_cp cp[8];

			draw(r, rows[i].sd, rows[i].exact, 0);
			false_cp += kab_changepoints(pts, COMMITS, &o, cp, 8);
		}
		printf("  %-15s %12.2f", rows[i].name,
		       100.0 * false_cp / (SERIES * COMMITS));
		for (s = 0; s < sizeof(shifts) / sizeof(shifts[0]); s++) {
			int found = 0, delays = 0;
			long delay = 0;

			for (t = 0; t < SERIES; t++) {
				size_t n;

				draw(r, rows[i].sd, rows[i].exact, shifts[s]);
				found += found_at(COMMITS, &o);
				/* a watcher: one commit more at a time */
				for (n = AT + o.min_points; n <= COMMITS; n++)
					if (found_at(n, &o)) {
						delay += n - AT;
						delays++;
						break;
					}
			}
			if (delays)
				printf("   %5.0f%%, %5.1f", 100.0 * found / SERIES,
				       (double)delay / delays);
			else
				printf("   %5.0f%%,     -", 100.0 * found / SERIES);
		}
		printf("\n");
	}
	printf("  (delay: commits measured from the shift on until it is "
	       "called, mean over the series that call it)\n");
	gsl_rng_free(r);
	return 0;
}
