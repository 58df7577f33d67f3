/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tables.h - the comparisons of some sides, one per job parameter set
 * that every side ran: what kab compare, report and ci gate print.
 */
#ifndef KAB_CLI_TABLES_H
#define KAB_CLI_TABLES_H

#include "sides.h"

struct cmp_table {
	const char *params;		/* canonical JSON, borrowed */
	json_t *params_obj;		/* borrowed */
	struct kab_table_head h;	/* axis strings owned */
	size_t nr_sides;
	struct kab_side *side;		/* [0] is the base */
	struct side_runs *runs;		/* each side's runs of these params */
	struct kab_comparison c;
	struct kab_compare_opts o;	/* the set's, with this job's KPI */
	char *suite_kpi;		/* the job's own KPI, when none named */
	const char *suite;		/* its testcase, borrowed */
	bool emulated;			/* some run came from QEMU TCG */
};

struct cmp_set {
	struct run_list all;
	size_t nr_sides;
	struct side_runs *sides;
	size_t nr;
	struct cmp_table *t;
};

/* Which runs compare: --force and --ignore-param KEY... */
#define CMP_MAX_IGNORE 16
struct cmp_sel {
	bool force;		/* runs from different machines */
	const char *ignore[CMP_MAX_IGNORE];	/* parameters left out of */
	int nr_ignore;				/* a run's identity */
};

/* --ignore-param KEY: 0, or EXIT_USAGE with the error printed. */
int cmp_sel_ignore(struct cmp_sel *sel, const char *key);

/*
 * Compare sides named as on kab compare's command line.  Errors are
 * printed; the exit code is returned.  Runs from different machines
 * are refused unless sel->force; sel->ignore's parameters do not tell
 * parameter sets apart.  The KPIs are o->kpi if named, else each
 * job's own (kab_suite_kpi, or failing that its first *.ops_per_sec or
 * *.workload metric); they are one family over all tables.
 */
int cmp_set_build(struct kab_db *db, char *const *specs, size_t nr,
		  const struct kab_compare_opts *o,
		  const struct cmp_sel *sel, struct cmp_set *out);
void cmp_set_free(struct cmp_set *s);
/* The KPI row of a table: METRIC's, or the job's own when NULL. */
const struct kab_row *cmp_table_kpi(const struct cmp_table *t,
				    const char *metric);

/*
 * For each KPI the table does not call: what this plan could have
 * called (power 0.8), or that it cannot call anything; one note each.
 */
void cmp_plan_notes(FILE *out, const struct kab_table_head *h,
		    const struct kab_comparison *c);

#endif /* KAB_CLI_TABLES_H */
