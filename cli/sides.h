/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sides.h - the sides of a comparison, for cmd-compare.c.
 */
#ifndef KAB_CLI_SIDES_H
#define KAB_CLI_SIDES_H

#include "cli.h"
#include "../analysis/analysis.h"

struct run_info {
	long long id;
	char *label;
	char *commit;
	char *status;
	char *params;		/* canonical JSON: the job's identity */
	char *machine;		/* what must match to compare: CPUs, model, memory */
	bool emulated;		/* QEMU TCG */
	char *block;		/* the CI runner it was merged from */
	json_t *params_obj;
	json_t *host;		/* lkp's axes among it: kconfig, compiler ... */
};

struct run_list {
	size_t nr;
	struct run_info *v;
};

struct side_runs {
	const char *spec;
	size_t nr;
	const struct run_info **v;
};

int runs_load(struct kab_db *db, struct run_list *all, struct kab_err *err);
void runs_free(struct run_list *l);
int side_resolve(const struct run_list *all, const char *spec,
		 struct side_runs *out, struct kab_err *err);
int side_pool(struct kab_db *db, const struct run_info *const *runs,
	      size_t nr, struct kab_side *out, size_t *bad,
	      struct kab_err *err);
void side_name(const struct run_info *const *runs, size_t nr,
	       const char *spec, struct kab_side *out);
void side_free(struct kab_side *s);

/*
 * The runs SPEC names, grouped by kernel label and job parameters,
 * pooled: fn for each group (the k-th), stopping at its first non-zero
 * return.  1 when SPEC names no runs (err says why), -1 on a database
 * error, else what fn returned last.
 */
typedef int (*side_group_fn)(void *arg, size_t k,
			     const struct run_info *const *runs, size_t nr,
			     const struct kab_side *side);
int side_foreach_group(struct kab_db *db, const char *spec,
		       side_group_fn fn, void *arg, size_t *bad,
		       struct kab_err *err);

#endif /* KAB_CLI_SIDES_H */
