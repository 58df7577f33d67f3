/* SPDX-License-Identifier: GPL-2.0 */
/*
 * analysis.h - statistics over stored samples, built on GSL, and lkp's
 * comparison table.  Knows nothing of how samples were measured or
 * stored: it is handed series of numbers with metric names.
 */
#ifndef KAB_ANALYSIS_H
#define KAB_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct kab_summary {
	size_t n;
	double mean;
	double stddev;		/* population (divide by n), as lkp */
	double min, median, max;
};

/* v is sorted in place. */
void kab_summarize(double *v, size_t n, struct kab_summary *out);
/* A sum as Ruby's Array#sum, lkp's, takes it (Kahan-Babuska). */
double kab_lkp_sum(const double *v, size_t n);
/* 100 * stddev / mean, 0 when the mean is 0. */
double kab_summary_pct(const struct kab_summary *s);
/* Is every value > 0 (a ratio, so tested on the log scale)? */
bool kab_all_positive(const double *v, size_t n);

/* ---- tests of two samples; p-values two-sided, NAN when undefined ---- */

struct kab_welch {
	double t, df, p;
	double diff, se;	/* mean(y) - mean(x) and its standard error */
};
void kab_welch(const double *x, size_t nx, const double *y, size_t ny,
	       struct kab_welch *out);
/*
 * The t-test of boot means: Student's for nx == ny, else Welch's.  No
 * side's standard deviation is taken below floor (in the data's units;
 * 0: none), so that boot means that repeat exactly give a finite t.
 */
void kab_ttest(const double *x, size_t nx, const double *y, size_t ny,
	       double floor, struct kab_welch *out);
/* The one-sample t-test of mean(d) = 0: paired differences, sd >= floor. */
void kab_ttest_one(const double *d, size_t n, double floor,
		   struct kab_welch *out);
/* The confidence interval of mean(y) - mean(x) at LEVEL (0.95). */
void kab_welch_ci(const struct kab_welch *w, double level, double *lo,
		  double *hi);

struct kab_mwu {
	double u;		/* U of x */
	double p;
	bool exact;		/* exact null distribution, else normal */
};
void kab_mwu(const double *x, size_t nx, const double *y, size_t ny,
	     struct kab_mwu *out);
/* The smallest two-sided p an exact test of n against n can reach. */
double kab_mwu_min_p(size_t n1, size_t n2);

/* One-way ANOVA of samples grouped by boot (g[i] names sample i's). */
struct kab_anova {
	size_t groups;
	double n0;		/* effective iterations per boot */
	double ms_between, ms_within;
	double f, p;		/* NAN when they cannot be computed */
};
void kab_anova(const double *v, const int *g, size_t n,
	       struct kab_anova *out);
/*
 * The variance component between boots, (MS_between - MS_within) / n0
 * with n0 the effective boot size (which allows boots of unequal
 * size); 0 when below, NAN when ANOVA cannot tell (one boot, or no
 * boot with two iterations).
 */
double kab_anova_between_var(const struct kab_anova *a);
/* Means (and sizes) per group, in order of first appearance. */
size_t kab_group_means(const double *v, const int *g, size_t n,
		       double *means, size_t *sizes);

/*
 * Exact data.  Under QEMU's icount a guest's boot means repeat to the
 * last digit: no spread to estimate, and a t-test of two such sides is
 * degenerate (p = 0 for any difference at all).  Exact mode has a
 * resolution instead: changes of KAB_EXACT_RESOLUTION % or more are
 * decided with 2 boots a side at 5%, smaller ones are no change.  Its
 * floor is the standard deviation a boot mean is then taken to have at
 * least, in log units (a fraction of the mean): the resolution over
 * Student's t at 97.5% with 2 degrees of freedom, 4.30.
 */
#define KAB_EXACT_RESOLUTION	0.5
double kab_exact_floor(void);
/* The |%change| below which no row is significant, unless a table's
 * data say otherwise (exact data: KAB_EXACT_RESOLUTION). */
#define KAB_NOISE		1

/* ---- planning: the boots and iterations that detect a change ---- */

struct kab_plan_in {
	double within_var, between_var;	/* on the test's (log) scale */
	double boot_cost, iter_cost;	/* seconds */
	double delta;			/* the change to detect, same scale */
	double alpha, power;		/* e.g. 0.05 and 0.8 */
	/*
	 * The pilot the variances come from: its boots and iterations a
	 * boot (n0).  With 2 boots or more the plan accounts for what so
	 * few boots leave uncertain: a boot mean's variance is drawn from
	 * its posterior, (k - 1) s^2 / chi-square(k - 1), and the boots
	 * are the fewest whose power averaged over it reaches the target.
	 * 0: the variances are taken as known.
	 */
	size_t pilot_boots;
	double pilot_iters;
	/*
	 * The sides paired, boot k of each at one layout (exact mode's
	 * seeds): the test is on n differences, each of two boots' luck,
	 * on n - 1 degrees of freedom.
	 */
	bool paired;
};

struct kab_plan_out {
	size_t boots;			/* a side */
	size_t iters;			/* a boot: Kalibera and Jones' r* */
	double power;			/* what that plan reaches (on
					   average over the pilot's
					   uncertainty, when there is one) */
	double seconds;			/* a side */
};

/*
 * Power of the two-sided pooled t-test, n against n, for a difference
 * delta of means whose units have standard deviation sd.
 */
double kab_power_t(size_t n, double delta, double sd, double alpha);
/*
 * The smallest difference that test calls with the given power, n
 * against n units of standard deviation sd; NAN for n < 2.
 */
double kab_detectable(size_t n, double sd, double alpha, double power);
/*
 * The same of the paired t-test on n differences of standard deviation
 * sd (exact mode's boots at n layout seeds): n - 1 degrees of freedom.
 */
double kab_power_paired(size_t n, double delta, double sd, double alpha);
double kab_detectable_paired(size_t n, double sd, double alpha,
			     double power);
/* -1 when the inputs cannot give a plan (no variance, no cost). */
int kab_plan(const struct kab_plan_in *in, struct kab_plan_out *out);

/* Benjamini-Hochberg adjusted p-values; NAN entries are left out. */
void kab_bh_adjust(const double *p, size_t m, double *adj);

/* ---- looking after every round: alpha spent over the looks ---- */

/* Lan-DeMets spending of Pocock's type: alpha spent by fraction t. */
double kab_spent(double alpha, double t);
/* The level of look LOOK (1..LOOKS): what was spent since the last. */
double kab_look_alpha(double alpha, size_t look, size_t looks);

enum kab_seq_verdict {
	KAB_SEQ_MORE,		/* boot again */
	KAB_SEQ_CHANGED,	/* the interval lies outside +-noise */
	KAB_SEQ_SAME,		/* equivalent: inside +-noise (TOST) */
	KAB_SEQ_UNDECIDED,	/* neither at the last look */
};

struct kab_seq {
	enum kab_seq_verdict verdict;
	bool log_scale, last;
	double alpha;		/* this look's level */
	double change;		/* %, of the boot means */
	double lo, hi;		/* its (1 - alpha) interval, % */
	double eq_lo, eq_hi;	/* its (1 - 2 alpha) interval, % */
};

/*
 * Look LOOK of at most LOOKS at boot means x (base) and y (head): the
 * chance of calling an A/A pair changed at any look is at most alpha,
 * of calling a change of noise % or more equivalent at most alpha.
 */
/* floor: kab_exact_floor() for exact data, else 0. */
void kab_seq_look(const double *x, size_t nx, const double *y, size_t ny,
		  double noise, double floor, size_t look, size_t looks,
		  double alpha, struct kab_seq *out);
/*
 * The same look at boots paired by layout (exact mode's seeds): x[i]
 * and y[i] ran at one layout, the test is on their differences.
 */
void kab_seq_look_paired(const double *x, const double *y, size_t n,
			 double noise, double floor, size_t look,
			 size_t looks, double alpha, struct kab_seq *out);
const char *kab_seq_verdict_name(enum kab_seq_verdict v);

/* ---- bisecting: which endpoint does a commit's boots resemble? ---- */

enum kab_like {
	KAB_LIKE_NEITHER,	/* not clearly either: measure more */
	KAB_LIKE_GOOD,
	KAB_LIKE_BAD,
};

struct kab_classify {
	enum kab_like like;
	bool log_scale;
	double mean;		/* of the commit's boot means */
	double position;	/* 0 at good's mean, 1 at bad's */
	/* one-sided p that it lies on good's (bad's) side of halfway */
	double p_good, p_bad;
};

/*
 * Boot means x of a commit against the endpoints' boot means: like bad
 * when it lies beyond halfway from good to bad at one-sided level
 * alpha (a t-test with the boots' variance pooled over the three
 * groups), like good the other way round, else neither.  A commit
 * equal to good is called bad with chance at most alpha (far less when
 * the endpoints differ by much more than the boots' spread).
 */
/* floor: a boot's standard deviation at least, as kab_seq_look's. */
void kab_classify(const double *x, size_t n, const double *good, size_t ng,
		  const double *bad, size_t nb, double alpha, double floor,
		  struct kab_classify *out);

/*
 * lkp's old bisect plot: one column per tested commit (in history
 * order), each sample of a good commit a '*', of a bad one an 'O', of
 * a skipped one a '?'.
 */
struct kab_trend_point {
	const char *name;	/* short commit */
	int kind;		/* +1 good, -1 bad, 0 skipped */
	const double *v;
	size_t n;
};
void kab_trend_plot(FILE *out, const char *metric,
		    const struct kab_trend_point *p, size_t nr, int width,
		    int height);

/* ---- change points of a KPI over a series of commits ---- */

/* A commit: its samples (boot means), each one's layout seed or NULL. */
struct kab_cp_point {
	const double *v;
	const unsigned int *seed;
	size_t n;
};

struct kab_cp_opts {
	size_t min_points;	/* commits on each side of a change (2) */
	double alpha;		/* a split's permutation test, and the means' */
	unsigned int perms;	/* permutations of whole commits a split */
	unsigned long seed;	/* of the permutations: same series, same answer */
	double noise;		/* |%change| below this is not a change */
	/*
	 * A boot mean's standard deviation at least, as a fraction of its
	 * segment's mean (exact data: kab_exact_floor(); 0: none), so that
	 * boot means that repeat exactly give a change a finite interval.
	 */
	double floor;
};

struct kab_cp {
	size_t at;		/* the first point after the change */
	double before, after;	/* the segments' means either side */
	double pct, lo, hi;	/* %change, its 95% interval (Welch) */
	double p;		/* the permutation test's */
	double p_mean;		/* Welch's on the two segments' samples */
	bool noise_only;	/* the spread changed and the mean did not */
};

void kab_cp_defaults(struct kab_cp_opts *o);
/*
 * E-divisive's statistic over the values m[ord[0..points)]: the largest
 * Q(tau, kappa) between [0, tau) and [tau, kappa), min_points or more
 * each, with tau in *at (0 and a negative Q if there is no split).
 */
double kab_cp_split(const double *m, const size_t *ord, size_t points,
		    size_t min_points, size_t *at);
/*
 * The change points of pts[0..n), in order, at most max into out: how
 * many there are (perhaps more than max), or -1 with errno.
 */
int kab_changepoints(const struct kab_cp_point *pts, size_t n,
		     const struct kab_cp_opts *o, struct kab_cp *out,
		     size_t max);

/* ---- lkp's conventions ---- */

/* perf-profile* and *% metrics change absolutely, the rest in %. */
bool kab_metric_absolute(const char *metric);
/* +1 higher is better, -1 lower is better, 0 unknown. */
int kab_metric_direction(const char *metric);
/*
 * lkp's %change of a head against the base: absolute for the metrics
 * above, else 100 * (head - base) / base with a base of 0 taken as
 * 1e-100 and a negative base as it is (lib/compare.rb).
 */
double kab_lkp_change(const char *metric, double base_mean,
		      double head_mean);

/*
 * v as Ruby's format prints it with conv 'f' or 'g' and precision prec
 * ('+' when plus), no width: lkp's digits, near-halves included.
 */
void kab_ruby_format(char *out, size_t sz, double v, char conv, int prec,
		     bool plus);

/*
 * v for people (markdown, HTML, SVG): thousands separated (1,412,130),
 * about four significant digits below 100 (15.06, 0.0123), an exponent
 * only from 1e15 on.  _dec: dec digits after the point (-1: as above).
 */
void kab_fmt_readable(char *out, size_t sz, double v);
void kab_fmt_readable_dec(char *out, size_t sz, double v, int dec);
/*
 * At most max ticks in [lo, hi], at 1, 2 or 5 times a power of ten
 * (12,000 14,000 16,000; never 1.21e+04), into ticks; *dec is the
 * digits after the point they need.  Returns how many.
 */
size_t kab_nice_ticks(double lo, double hi, size_t max, double *ticks,
		      int *dec);

/* One side of a stat, as lkp's changed-stat rule sees it. */
struct kab_lkp_values {
	const double *v;	/* the stat's values, NULL when none */
	size_t n;
	size_t cols;		/* the side's samples: lkp's matrix columns */
	bool family;		/* the side has a stat of this one's monitor */
};
struct kab_lkp_ctx {
	const char *const *suites;	/* the compared jobs' test suites */
	size_t nr_suites;
};
/*
 * Did the stat change, by lkp ncompare's own rule (lib/stats.rb's
 * StatCompare with lkp's defaults)?  lkp-rule.c tells the rule.
 */
bool kab_lkp_stat_changed(const char *metric,
			  const struct kab_lkp_values *head,
			  const struct kab_lkp_values *base,
			  const struct kab_lkp_ctx *ctx);
/* Would lkp report the stat at all (stat and report allow/deny lists)? */
bool kab_lkp_reported(const char *metric);
/* Is the metric's first component a test suite (lkp sorts them first)? */
bool kab_lkp_is_suite(const char *metric, const char *const *suites,
		      size_t nr);
/*
 * The suite's main metric, as lkp's robot reports it: will-it-scale's
 * per_process_ops (per_thread_ops in thread mode), stress-ng's
 * TEST.ops_per_sec; NULL for a suite kab does not know.  Allocated.
 */
char *kab_suite_kpi(const char *testcase, const char *test,
		    const char *mode);

/* ---- comparing sides ---- */

struct kab_series {
	const char *metric;
	size_t n;
	double *v;
	int *boot;		/* boot (run) of each sample, or NULL */
	size_t filled;		/* the last of v: zeros lkp's matrix fills
				   in for its runs that lack the metric */
};

struct kab_side {
	const char *id;		/* column head: commit or label */
	const char *desc;	/* the commit: line */
	size_t nr;
	struct kab_series *series;	/* sorted by metric */
	/*
	 * The block (CI runner) of each boot, by the series' boot
	 * numbers, or NULL entries / no array: one machine.
	 */
	const char *const *block;
	size_t nr_boots;
	/*
	 * The side's runs that did not complete (lkp's
	 * last_state.is_incomplete_run; kab's failed runs): left out of
	 * its series, counted in the fail:runs block.
	 */
	size_t incomplete;
	/*
	 * The layout each boot ran at (exact mode's seed, with its block),
	 * by boot number, or NULL entries / no array: none.  Boots of the
	 * two sides at one key ran at one layout: their differences are
	 * the data.
	 */
	const char *const *pair;
};

enum kab_test {
	KAB_TEST_WELCH,		/* t on boot means (the default): Student's
				   for as many boots a side, else Welch's */
	KAB_TEST_MWU,		/* Mann-Whitney U on boot means */
	KAB_TEST_LKP,		/* lkp's range heuristics, on samples */
};

/*
 * The unit of replication is the boot: iterations of one boot share its
 * luck, so they are averaged, and the boot means are the samples of
 * every test (a run on a target without reboots is one boot).  Metrics
 * that are positive on both sides are tested on the log of the boot
 * means (changes multiply); the others on the linear scale.
 *
 * Rows fall into two families, each corrected on its own
 * (Benjamini-Hochberg over the cells of every head): the KPIs (primary
 * hypotheses, always shown) and every other metric.  The table holds
 * fdr as a whole: with both families the KPIs are tested at
 * KAB_KPI_SHARE of it, the other rows at the rest (kab_family_level).
 */
struct kab_compare_opts {
	enum kab_test test;
	double fdr;		/* the table's level: A/A tables with any
				   row called, at most */
	double noise;		/* |%change| floor; < 0: the data's own */
	/*
	 * A boot mean's standard deviation at least, relative: exact
	 * data's kab_exact_floor(), else 0.  A row other than a KPI takes
	 * the spread of its iterations over the iterations a boot averages
	 * as its floor too: under icount they differ by what a small
	 * perturbation moves (a profile's samples, a few events).
	 */
	double floor;
	bool all;		/* show every row */
	const char *const *kpi;	/* the KPI metrics of this table */
	size_t nr_kpi;
	/* the test suites of the compared jobs: lkp's row order, its rule */
	const char *const *suites;
	size_t nr_suites;
	bool lkp_rows;		/* lkp's rows exactly: no KPI row forced */
	/*
	 * Shown perf-profile rows at most, those whose move is surest (0:
	 * KAB_PROFILE_ROWS, < 0: all).  A profile has thousands of call
	 * chains; the few that carry the change are what a reader needs.
	 */
	int profile_rows;
};

#define KAB_PROFILE_ROWS 10
/* The KPIs' share of a table's level when it has other rows too. */
#define KAB_KPI_SHARE 0.8

struct kab_cell {
	struct kab_summary s;
	double change;		/* % or absolute, see .absolute */
	double lkp_change;	/* what lkp prints: kab_lkp_change */
	bool absolute;
	bool zero_base;		/* base mean 0: change given absolutely */
	size_t units_base, units_head;	/* boots on each side */
	bool log_scale;		/* tests on log boot means */
	double p_welch, p_mwu, p_adj;
	double ci_lo, ci_hi;	/* 95% interval of the change, or NAN */
	double unit_sd;		/* of the boot means, on the test's scale
				   (paired: of the differences) */
	bool few;		/* fewer than 2 boots on a side: no verdict */
	/*
	 * Measured on several machines (blocks, CI runners): with two or
	 * more blocks holding both sides the test is on the differences
	 * within blocks (blocks of them); with none in common the sides
	 * are confounded with their machines and get no verdict.
	 */
	size_t blocks;
	bool confounded;
	/*
	 * Tested on the differences at each layout seed both sides ran at
	 * (blocks of them), exact mode's pairs.
	 */
	bool paired;
	double f_base, f_head;	/* between/within F of each side, or NAN */
	bool significant;
	int verdict;		/* +1 improvement, -1 regression, 0 */
	/*
	 * Decided by sequential looks (kab ab): significant, the interval
	 * (at the look's level, seq.alpha) and the verdict are the looks'
	 * (kab_cell_sequential), not this table's test.
	 */
	bool sequential;
	struct kab_seq seq;
	/*
	 * A perf-profile share's move in its samples' counting noise: the
	 * two-proportion z of the samples behind the two shares (the
	 * sides' perf-profile.samples), or NAN without them.
	 */
	double count_z;
};

struct kab_row {
	const char *metric;
	struct kab_summary base;
	struct kab_cell *cells;	/* one per head */
	bool kpi;		/* a primary hypothesis */
	bool shown;
	size_t family;		/* lkp's sort key: shown rows of its monitor */
	size_t nr_cells;
};

struct kab_comparison {
	size_t nr_rows;
	struct kab_row *rows;	/* shown rows first, each part in lkp's order */
	size_t nr_kpi_rows;
	size_t nr_heads;
	size_t few_rows;	/* rows with fewer than 2 boots on a side */
	size_t weak_rows;	/* rows whose test cannot reach alpha at all */
	size_t need_n;		/* boots per side a test would need */
	size_t zero_rows;	/* rows whose base mean is 0 */
	size_t confounded_rows;	/* rows whose sides share no block */
	size_t blocked_rows;	/* rows tested within blocks */
	size_t paired_rows;	/* rows tested within layout seeds */
	size_t hidden_profile;	/* significant perf-profile rows not shown */
	const struct kab_compare_opts *opts;
};

/* The series of a metric on a side (series sorted by metric), or NULL. */
const struct kab_series *kab_side_series(const struct kab_side *s,
					 const char *metric);

/* The unadjusted p of the test that decided a cell, NAN when none. */
double kab_cell_p(const struct kab_cell *c, enum kab_test test);

/*
 * Rows for every metric the base and at least one head share; with
 * opts->all or lkp's rule, for the metrics of one side too (the other
 * side's cells empty: lkp shows them as 0).
 */
int kab_compare(const struct kab_side *base, const struct kab_side *heads,
		size_t nr_heads, const struct kab_compare_opts *opts,
		struct kab_comparison *out);
/*
 * The KPIs of several comparisons (the jobs of one kab compare, report
 * or ci gate, with the same heads) as one family: corrected together,
 * so that every front end calls the same KPI rows significant.
 */
void kab_compare_kpis(struct kab_comparison *const *c, size_t nr);
/*
 * A KPI cell decided by sequential looks takes their verdict: changed
 * is significant, the interval is the look's; same and undecided are
 * not significant.
 */
void kab_cell_sequential(const struct kab_row *r, struct kab_cell *c,
			 const struct kab_seq *q);
/*
 * How sure a cell's move is, what the profile rows shown are chosen by:
 * a significant cell's interval's distance from 0 in its standard
 * errors (infinite for a point interval), no more than its count_z;
 * 0 for a cell that is not significant or has no interval.
 */
double kab_cell_evidence(const struct kab_cell *c);
/* The level the KPI rows (kpi) or the other rows of c are tested at. */
double kab_family_level(const struct kab_comparison *c, bool kpi);
void kab_comparison_free(struct kab_comparison *c);

struct kab_table_head {
	const char *axis_keys;		/* "mode/nr_task/test" */
	const char *axis_values;	/* "process/100%/malloc1" */
	const struct kab_side *base;
	const struct kab_side *heads;
	size_t nr_heads;
};

/*
 * lkp's table: the header down to the dashes (lkp: the commit: block
 * names each side by its commit or label only, as lkp ncompare; else
 * kab adds the subject), the two %stddev lines, and a row (stats
 * appends p and interval columns, notes kab's remarks on the row).
 */
void kab_lkp_header(FILE *out, const struct kab_table_head *h, bool lkp);
void kab_lkp_columns(FILE *out, size_t nr_heads);
/*
 * lkp's fail:runs block for the runs that did not complete: with lkp,
 * when lkp shows it (one side has such runs, the other none; with all,
 * as lkp -a, either side); else when any side has them.  Returns
 * whether it printed it.
 */
bool kab_lkp_failures(FILE *out, const struct kab_table_head *h, bool lkp,
		      bool all);
void kab_lkp_row(FILE *out, const struct kab_row *r, size_t nr_heads,
		 bool stats, bool notes);
/*
 * lkp ncompare's group for a comparison, and nothing else: nothing at
 * all when no row is shown, else the header, the shown rows and a
 * blank line.
 */
void kab_lkp_table(FILE *out, const struct kab_table_head *h,
		   const struct kab_comparison *c);
/* The robot's first sentence, one line per significant KPI change. */
void kab_kpi_summary(FILE *out, const struct kab_comparison *c,
		     const struct kab_side *base,
		     const struct kab_side *heads);
/* ministat-like plot of two samples. */
void kab_plot(FILE *out, const char *metric, const double *x, size_t nx,
	      const char *xname, const double *y, size_t ny,
	      const char *yname);

/*
 * A differential flame graph: base's (side 0) and head's (side 1)
 * folded stacks in one tree.  total[] are each side's samples, kept
 * stacks or not; kab_flame_finish() turns counts into shares (%).
 */
struct kab_flame_node {
	char *name;
	uint64_t count[2];
	double share[2];
	size_t nr, alloc;
	struct kab_flame_node *kid;
};

struct kab_flame {
	char *event;			/* cpu-clock, cycles-pp */
	uint64_t total[2];
	struct kab_flame_node root;
	int max_depth;
};

void kab_flame_add(struct kab_flame *f, int side, const char *stack,
		   uint64_t n);
void kab_flame_finish(struct kab_flame *f);
void kab_flame_free(struct kab_flame *f);

#endif /* KAB_ANALYSIS_H */
