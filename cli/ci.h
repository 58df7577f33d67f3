/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ci.h - kab ci: a CI matrix's cells, and the gate that fails a
 * pipeline when a KPI regressed.
 */
#ifndef KAB_CLI_CI_H
#define KAB_CLI_CI_H

#include "report.h"

/*
 * A cell per job parameter set and replica, each measuring every
 * kernel; kernel names are letters, digits and _ (KAB_KERNEL_<name>).
 */
struct kab_jobsel;
int ci_matrix(char *const *jobs, size_t nr_jobs, char *const *kernels,
	      size_t nr_kernels, int replicas, const struct kab_jobsel *sel);

struct gate_opts {
	bool fail_on_change;	/* else only regressions fail */
	struct cmp_sel sel;	/* --force, --ignore-param */
	double threshold;	/* |%change| a failure must exceed */
	const char *junit, *summary;
	bool json;		/* --format json on stdout */
	const char **kpi;	/* NULL: each suite's own */
	size_t nr_kpi;
};

/* 0 nothing regressed, 1 a KPI did, 2 usage or missing data. */
int ci_gate(struct kab_db *db, const char *base, const char *head,
	    const struct gate_opts *o);

#endif /* KAB_CLI_CI_H */
