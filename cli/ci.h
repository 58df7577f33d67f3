/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ci.h - kab ci: a CI matrix's cells, and the gate that fails a
 * pipeline when a KPI regressed.
 */
#ifndef KAB_CLI_CI_H
#define KAB_CLI_CI_H

#include "cli.h"
#include "../report/report.h"

/*
 * A cell per job parameter set and replica, each measuring every
 * kernel; kernel names are letters, digits and _ (KAB_KERNEL_<name>).
 */
struct kab_jobsel;
/* What every cell's kab run is given besides its job: NULL, none. */
struct ci_cell_opts {
	const char *clock;	/* --clock */
	const char *model;	/* --model */
};
int ci_matrix(char *const *jobs, size_t nr_jobs, char *const *kernels,
	      size_t nr_kernels, int replicas, const struct ci_cell_opts *co,
	      const struct kab_jobsel *sel);

/* kab ci gate: what fails it (model/), and where it is written. */
struct gate_args {
	struct gate_opts g;
	const char *junit, *summary;
	bool json;		/* --format json on stdout */
};

/*
 * 0 nothing regressed, 1 a KPI did, 3 none did but one had no verdict
 * (EXIT_INCONCLUSIVE), 2 usage or missing data.
 */
int ci_gate(struct kab_db *db, const char *base, const char *head,
	    const struct gate_args *a);

#endif /* KAB_CLI_CI_H */
