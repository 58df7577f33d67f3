/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ab-look.h - kab ab's looks: after each round of boots, is the KPI of
 * every job answered (changed, or equivalent within +-noise)?
 */
#ifndef KAB_CLI_AB_LOOK_H
#define KAB_CLI_AB_LOOK_H

#include "cli.h"
#include "../analysis/analysis.h"
#include "../runner/runner.h"

struct ab_look {
	char *kpi;		/* the job's KPI, or NULL: never looked at */
	double *means[2];	/* each side's boot means of it */
	size_t n[2];
	struct kab_seq seq;	/* the last look */
	bool looked, decided;
	long long head_run;	/* a run of B: finds the job's table */
};

struct ab_looks {
	size_t nr;
	struct ab_look *l;	/* one per job */
	size_t first, last;	/* rounds of the first and the last look */
	double alpha, noise;	/* over all the jobs' KPIs */
	double floor;		/* exact data's (kab_exact_floor), or 0 */
};

void ab_looks_init(struct ab_looks *a, const struct kab_joblist *jobs,
		   const char *kpi, size_t first, size_t last, double alpha,
		   double noise);
void ab_looks_free(struct ab_looks *a);
/* A boot of job j on side s (0 A, 1 B) went well as run run_id. */
void ab_looks_add(struct ab_looks *a, struct kab_db *db, size_t j, int s,
		  int64_t run_id);
/*
 * Round `round` (1-based) is complete: look if it is a looking round,
 * print one line per KPI to stderr; true when every KPI is answered.
 */
bool ab_looks_round(struct ab_looks *a, size_t round, const char *const *labels);
/*
 * The looked-at KPIs as the closing table's verdicts: malloc'd, their
 * number in *nr; the metrics are borrowed from a.
 */
struct cmp_seq *ab_looks_verdicts(const struct ab_looks *a, size_t *nr);

#endif /* KAB_CLI_AB_LOOK_H */
