/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model.h - what kab's front ends show, built from the database and
 * the analysis: the runs a side of a comparison names, one comparison
 * table per job parameter set that every side ran, the report of an
 * A/B (which KPI of which job changed, and how to reproduce it), the
 * gate of a CI pipeline, and what a bisect measured.  Nothing here
 * prints: kab's command line (cli/) lays it out as text, markdown,
 * HTML, mail, JUnit or JSON.
 */
#ifndef KAB_MODEL_H
#define KAB_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/common.h"
#include "../db/db.h"
#include "../analysis/analysis.h"

/*
 * What the functions below return besides 0, with err set: a front
 * end's exit status is the same number (kab's 1 and 2).
 */
#define KAB_MODEL_FAILED	1	/* the database, or memory */
#define KAB_MODEL_REFUSED	2	/* the sides name nothing comparable */

/* ---- the sides of a comparison ---- */

struct run_info {
	long long id;
	char *label;
	char *commit;
	char *status;
	char *params;		/* canonical JSON: the job's identity */
	char *machine;		/* what must match to compare: CPUs, model, memory */
	bool emulated;		/* QEMU TCG */
	char *clock;		/* wall, icount:N: must match too */
	bool exact;		/* timed by icount */
	char *target;		/* qemu, local, ssh or lkp (imported) */
	char *started_at;	/* ISO 8601 UTC */
	char *block;		/* the CI runner it was merged from */
	/* exact mode's layout seed, with its block: boots at one pair */
	char *pair;		/* or NULL: no seed */
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
/* SPEC: a run id, ids "3,4,5", or a kernel label (its ok runs). */
int side_resolve(const struct run_list *all, const char *spec,
		 struct side_runs *out, struct kab_err *err);
/* The samples of runs pooled per metric, each run one boot. */
int side_pool(struct kab_db *db, const struct run_info *const *runs,
	      size_t nr, struct kab_side *out, size_t *bad,
	      struct kab_err *err);
/* The metrics only the incomplete lkp runs failed carry, as zeros. */
int side_lkp_incomplete(struct kab_db *db,
			const struct run_info *const *runs, size_t nr,
			const long long *failed, size_t nr_failed,
			struct kab_side *out, struct kab_err *err);
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

/* What a table of exact data says of itself, wherever it is shown. */
#define KAB_EXACT_NOTE "timed in guest instructions (QEMU icount): cache " \
	"and TLB effects are not modelled, changes under 0.5% are not called"

struct cmp_table;
/*
 * The same for table t: KAB_EXACT_NOTE, or, when a cost model timed its
 * runs, where the model's rows are (a static buffer).
 */
const char *cmp_exact_note(const struct cmp_table *t);

/* ---- the tables: one per job parameter set every side ran ---- */

struct cmp_table {
	const char *params;		/* canonical JSON, borrowed */
	json_t *params_obj;		/* borrowed */
	struct kab_table_head h;	/* axis strings owned */
	size_t nr_sides;
	struct kab_side *side;		/* [0] is the base */
	struct side_runs *runs;		/* each side's runs of these params */
	struct kab_comparison c;
	struct kab_compare_opts o;	/* the set's, with this job's KPI */
	/*
	 * The job's own KPIs, when none is named: its KPI ([0], also
	 * suite_kpi) and, when a cost model timed the runs, the KPI as the
	 * model times it ("...ops_per_sec:spr"), decided in one family.
	 */
	char *own_kpi[2];
	char *suite_kpi;		/* own_kpi[0], borrowed */
	const char *model_kpi;		/* own_kpi[1], borrowed, or NULL */
	const char *suite;		/* its testcase, borrowed */
	bool emulated;			/* some run came from QEMU TCG */
	/*
	 * Every run timed by icount: exact mode's resolution is the
	 * table's floor and, unless o->noise says, its noise floor.
	 */
	bool exact;
};

struct cmp_set {
	struct run_list all;
	size_t nr_sides;
	struct side_runs *sides;
	size_t nr;
	struct cmp_table *t;
	/*
	 * What a reader of the tables should know, a line each ("12
	 * stored values are not finite ...", "a parameter set no side
	 * shares was skipped"), or NULL.
	 */
	char *notes;
};

/* Which runs compare: --force and --ignore-param KEY... */
#define CMP_MAX_IGNORE 16
struct cmp_sel {
	bool force;		/* runs from different machines or clocks */
	const char *ignore[CMP_MAX_IGNORE];	/* parameters left out of */
	int nr_ignore;				/* a run's identity */
};

/* Leave parameter KEY out of a run's identity: 0, or -1 with err. */
int cmp_sel_ignore(struct cmp_sel *sel, const char *key,
		   struct kab_err *err);

/*
 * Compare the sides SPECS name (kab compare's command line; [0] is the
 * base): 0, or KAB_MODEL_* with err.  Runs from different machines are
 * refused unless sel->force; sel->ignore's parameters do not tell
 * parameter sets apart; a side that is another's runs is refused, and
 * so are sides that share no parameter set (err names the parameters
 * that differ).  The KPIs are o->kpi if named, else each job's own
 * (kab_suite_kpi, or failing that its first *.ops_per_sec or *.workload
 * metric); they are one family over all tables.
 */
int cmp_set_build(struct kab_db *db, char *const *specs, size_t nr,
		  const struct kab_compare_opts *o,
		  const struct cmp_sel *sel, struct cmp_set *out,
		  struct kab_err *err);
void cmp_set_free(struct cmp_set *s);
/* The KPI row of a table: METRIC's, or the job's own when NULL. */
/*
 * A KPI decided by kab ab's sequential looks: metric in the table that
 * holds run_id on its first head.
 */
struct cmp_seq {
	long long run_id;
	const char *metric;
	struct kab_seq q;
};

/* Each such KPI cell takes the looks' verdict (kab_cell_sequential). */
void cmp_set_sequential(struct cmp_set *s, const struct cmp_seq *q,
			size_t nr);
const struct kab_row *cmp_table_kpi(const struct cmp_table *t,
				    const char *metric);

/* ---- the report of an A/B ---- */

/*
 * A KPI's verdict.  KPIs are hypotheses named before the numbers came:
 * their p-values are corrected (Benjamini-Hochberg, q = 0.05) over the
 * KPIs judged together, not over every metric of the tables.
 */
struct kpi_verdict {
	double p;		/* adjusted; NAN: too few samples or boots */
	bool significant;
	int verdict;		/* +1 improvement, -1 regression, 0 */
};

struct kpi_verdict kpi_judge(const struct kab_cell *c);

/* One job parameter set of the A/B and its key performance indicator. */
struct report_job {
	const struct cmp_table *t;
	const struct kab_row *kpi;	/* NULL: no KPI in this table */
	struct kpi_verdict kv;
	bool noticed;			/* the KPI changed significantly */
	char *testcase;
	char *machine;			/* "2 threads 1 sockets ..." */
	char *target;			/* qemu, local, ... */
	struct kab_run_facts facts;	/* of the head's first run */
};

struct report {
	struct cmp_set set;
	size_t nr;
	struct report_job *job;		/* one per table */
	size_t main;			/* the announced one */
	const char *base_spec, *head_spec;
	char *subject;
	char *head_line;		/* the head's commit, or its kernel */
	const char *head_kind;		/* "commit" or "kernel" */
	char *base_line;
	char *compiler, *config;
	char *reproduce;		/* commands, one per line */
	const char *reported_by;	/* "Name <addr>" or NULL */
	/* "Key: value" lines a fix should carry; none: Reported-by */
	const char *const *trailers;
	size_t nr_trailers;
	/* the bisect that found the head, for the trend chart */
	struct kab_trend_point *trend;
	size_t nr_trend;
	char *trend_metric;
	/* the main job's profile stacks, when both sides have them */
	struct kab_flame flame;
	bool has_flame;
	/* what found the change, before the details (kab watch), or NULL */
	char *preface;
};

struct report_opts {
	const char *kpi;		/* NULL: each suite's own */
	const char *subject_prefix;	/* "linus:master", or NULL */
	const char *subsystem;		/* NULL: from the commit's subject */
	const char *reported_by;
	const char *const *trailers;	/* instead of Reported-by */
	size_t nr_trailers;
	struct cmp_sel sel;		/* --force, --ignore-param */
	struct kab_compare_opts c;
	/*
	 * The kernel tree bisect ID ran in (malloc'd), to put its tested
	 * commits in history order on the trend chart; NULL, or a NULL
	 * answer: the order they were tested.
	 */
	char *(*bisect_tree)(struct kab_db *db, int64_t id);
};

/* Gather what the report says: 0, or KAB_MODEL_* with err. */
int report_build(struct kab_db *db, const char *base, const char *head,
		 const struct report_opts *o, struct report *r,
		 struct kab_err *err);
void report_free(struct report *r);
const struct report_job *report_main(const struct report *r);
/* "will-it-scale: mode=process nr_task=100% ...": a job's name. */
char *report_job_name(const struct cmp_table *t);
/* "-96.7% regression" of a job's KPI, or NULL when not noticed. */
char *report_change(const struct report_job *j);
/* Why a job's KPI has no verdict at all, or NULL when it has one. */
const char *report_unjudged(const struct report_job *j);

/*
 * The command that gives a table's sides n units each, for the notes
 * that ask for more: "kab ab --boots 3" for QEMU's boots, "kab run
 * --repeat 3 on each kernel" for runs here, kab ab's kernel switching
 * over ssh.
 */
char *cmp_more_units(const struct cmp_table *t, size_t n);
/* The same for runs of one side, with iters iterations each (0: any). */
char *runs_more_units(const struct run_info *const *runs, size_t nr,
		      size_t n, size_t iters);

/* ---- the gate of a CI pipeline ---- */

struct gate_opts {
	bool fail_on_change;	/* else only regressions fail */
	bool allow_inconclusive; /* a KPI without a verdict passes */
	struct cmp_sel sel;	/* --force, --ignore-param */
	double threshold;	/* |%change| a failure must exceed */
	const char **kpi;	/* NULL: each suite's own */
	size_t nr_kpi;
};

/* One KPI of one job, judged. */
struct gate_kpi {
	const struct cmp_table *t;
	const struct kab_row *row;
	struct kpi_verdict kv;
	bool failed, regressed;
	bool inconclusive;	/* no verdict: too few boots, or confounded */
	char *job;		/* "will-it-scale: mode=process ..." */
	char *what;		/* "-81.6% regression (p = 0.0031)", ... */
};

struct gate {
	struct cmp_set set;
	struct gate_kpi *v;
	size_t nr;
	size_t failed;		/* of v[] */
	size_t inconclusive;	/* of v[] */
};

/* What the gate decided: it fails a pipeline unless it is a pass. */
enum gate_result {
	GATE_PASS,
	GATE_FAIL,		/* a KPI regressed (or changed) */
	GATE_INCONCLUSIVE,	/* none failed, some could not be judged */
};

enum gate_result gate_result(const struct gate *g,
			     const struct gate_opts *o);
const char *gate_result_name(enum gate_result r);

/*
 * Judge each job's KPIs of BASE -> HEAD (Welch on the boot means, the
 * KPIs one family): 0, or KAB_MODEL_* with err; no KPI to judge is
 * KAB_MODEL_REFUSED.
 */
int gate_build(struct kab_db *db, const char *base, const char *head,
	       const struct gate_opts *o, struct gate *g,
	       struct kab_err *err);
void gate_free(struct gate *g);

/* ---- a bisect's measurements ---- */

/* The metric's samples over runs. */
double *bisect_samples(struct kab_db *db, const char *metric,
		       const int64_t *runs, size_t nr, size_t *n);
/* The same with the boot (index in runs) of each sample. */
double *bisect_samples_boots(struct kab_db *db, const char *metric,
			     const int64_t *runs, size_t nr, size_t *n,
			     int **boot);
/* The metric's mean in each run (boot) that has it: the test's unit. */
double *bisect_boot_means(struct kab_db *db, const char *metric,
			  const int64_t *runs, size_t nr, size_t *n);
/*
 * A boot mean's standard deviation at least (analysis.h): exact data's
 * kab_exact_floor() when every one of the runs was timed by icount,
 * else 0.
 */
double bisect_floor(struct kab_db *db, const int64_t *runs, size_t nr);
/* "3,4,5" <-> array; NULL for anything but positive ids. */
char *runs_join(const int64_t *runs, size_t nr);
int64_t *runs_split(const char *s, size_t *nr);

/*
 * Does the metric really differ between a bisect's endpoints?  The unit
 * is the boot: iterations of one boot share its luck (TCG scheduling,
 * page placement), so the test is Welch's t-test of the boot means, on
 * the log scale when they are all positive (changes multiply); a side
 * of one boot gives no p at all.  It differs when p < alpha and the
 * change is above the noise floor: noise (%) or either side's spread
 * of boot means, whichever is largest.
 */
struct bisect_endpoints {
	double good_mean, bad_mean;	/* of the boot means */
	size_t good_boots, bad_boots;
	double change;			/* %, bad against good */
	double floor;			/* % */
	double p;			/* NAN: a side of one boot */
	bool differs;
};

/* 0, or KAB_MODEL_REFUSED with err when a side has no samples of it. */
int bisect_endpoints_test(struct kab_db *db, const char *metric,
			  const char *good_runs, const char *bad_runs,
			  double alpha, double noise,
			  struct bisect_endpoints *out, struct kab_err *err);

/*
 * The first bad commit checked against its parent, as KernelCI does:
 * confirmed when their test differs, with 2 boots a side or more, in
 * the direction the endpoints moved (change, %).
 */
struct bisect_check {
	struct bisect_endpoints e;	/* good: the parent, bad: the culprit */
	bool confirmed;
};

int bisect_check_culprit(struct kab_db *db, const char *metric,
			 const char *parent_runs, const char *culprit_runs,
			 double alpha, double noise, double change,
			 struct bisect_check *out, struct kab_err *err);
/* What the check found, a sentence for the user and the database. */
char *bisect_check_sentence(const struct bisect_check *c,
			    const char *parent, const char *culprit);

/* A commit a bisect tested, or one of its endpoints. */
struct bisect_tested {
	char *commit;
	char *subject;
	char verdict[8];	/* good, bad, skip */
	char *runs;		/* "7,8" */
	double median;		/* NAN when none */
	int n;
	long pos;		/* in the history good..bad, -1 unknown */
};

struct bisect_history {
	struct kab_bisect_row r;
	struct bisect_tested *v;
	size_t nr;
};

/*
 * Bisect ID and its tested commits, endpoints included: in history
 * order when TREE is its git tree, else in the order they were tested.
 * 0, or KAB_MODEL_* with err.
 */
int bisect_history_load(struct kab_db *db, int64_t id, const char *tree,
			struct bisect_history *h, struct kab_err *err);
void bisect_history_free(struct bisect_history *h);
/*
 * The runs a bisect's history holds of commit (its steps, not skips,
 * and an endpoint), joined "3,4,5", or NULL.
 */
char *bisect_commit_runs(const struct bisect_history *h, const char *commit);
/* Its tested commits' samples, named by 7 digits, for a trend chart. */
struct kab_trend_point *bisect_trend_points(struct kab_db *db,
					    const struct bisect_history *h,
					    size_t *nr);
void bisect_trend_free(struct kab_trend_point *pts, size_t nr);

#endif /* KAB_MODEL_H */
