/* SPDX-License-Identifier: GPL-2.0 */
/*
 * db.h - kab's SQLite store: kernels, runs and their samples.
 *
 * One file, WAL, foreign keys, prepared statements only, a busy
 * timeout so that several kab processes can write one database.  The
 * schema is versioned with PRAGMA user_version and migrated forward; a
 * database from a newer kab is refused, never rewritten.
 */
#ifndef KAB_DB_H
#define KAB_DB_H

#include <stdbool.h>
#include <stdint.h>
#include <jansson.h>

#include "../common/common.h"

#define KAB_DB_SCHEMA_VERSION 13
/* the largest layout seed a run stores (runner.h's KAB_LAYOUT_SEED_MAX) */
#define KAB_SEED_MAX 4294967295ULL

struct kab_db;

enum kab_db_mode {
	KAB_DB_READ,
	KAB_DB_WRITE,
};

/* --db, else $KAB_DB, else $XDG_DATA_HOME/kab/kab.db (~/.local/share). */
char *kab_db_default_path(void);
int kab_db_open(const char *path, enum kab_db_mode mode, struct kab_db **out,
		struct kab_err *err);
void kab_db_close(struct kab_db *db);
/*
 * How long a statement waits for another process's lock (a merge or an
 * import holds it for as long as it writes): wait seconds, 10 unless
 * set, or while *stop is 0 when wait < 0.  note, when set, is called
 * after 10 s of waiting and every 30 s after, to say so.
 */
void kab_db_set_patience(struct kab_db *db, double wait,
			 const volatile int *stop,
			 void (*note)(void *arg, const char *path,
				      double waited),
			 void *arg);
/*
 * The patience every database opened after this starts with, opening
 * and migrating included (a merge may hold the lock for minutes).
 */
void kab_db_default_patience(double wait, const volatile int *stop,
			     void (*note)(void *arg, const char *path,
					  double waited),
			     void *arg);
const char *kab_db_path(const struct kab_db *db);

int kab_db_begin(struct kab_db *db, struct kab_err *err);
int kab_db_commit(struct kab_db *db, struct kab_err *err);
void kab_db_rollback(struct kab_db *db);

struct kab_kernel {
	char *label;
	char *release;
	char *image_path;
	char *image_sha256;
	char *cmdline;
	char *commit;
};

struct kab_run {
	int64_t id;
	char uuid[40];
	struct kab_kernel kernel;
	char *job;
	char *suite;
	char *test;
	json_t *params;		/* object of strings */
	json_t *resolved;	/* parameters resolved on the target */
	char *target;
	char *clock;		/* wall, icount:N; NULL: wall */
	/* exact mode's layout seed (1 to KAB_SEED_MAX), 0: none */
	unsigned long long seed;
	json_t *host;		/* host facts */
	int iterations_planned;
	char *started_at;
	char *ended_at;
	char *status;		/* running, ok, failed, interrupted */
	char *message;
	int64_t garbage_bytes;
	int64_t bad_records;
	int nr_iterations;	/* iterations stored (read side) */
	/*
	 * The block it was measured in: the database (a CI runner's) it
	 * was merged from, or NULL.  Runs of one block share a machine.
	 */
	char *block;
};

void kab_run_free(struct kab_run *r);
/*
 * Refuse a run whose strings could inject into what kab writes: names
 * that are not names, control characters, commits that are not hex.
 * kab_db_run_insert checks every run; import and merge say which.
 */
int kab_run_check(const struct kab_run *r, struct kab_err *err);
/*
 * Store run number idx of an export (kab export --format json), whole
 * or not at all; *skipped when its uuid is already there.
 */
/*
 * What CSV samples are runs of: the job's name, suite, test and
 * parameters (CSV holds none of them).  Without them (NULL): job,
 * suite and test "csv".
 */
struct kab_csv_job {
	const char *name, *suite, *test;
	json_t *params;
};
/*
 * The CSV of kab export --format csv (run,kernel_label,iteration,metric,
 * value): all of it checked, then each run stored whole; where names the
 * file in messages.  0; 1 when the file is bad (nothing stored); -1 when
 * the database failed (the runs before stay).
 */
int kab_db_import_csv(struct kab_db *db, const char *text, size_t len,
		      const char *where, const struct kab_csv_job *job,
		      int *added, int *skipped, struct kab_err *err);
int kab_db_import_run(struct kab_db *db, json_t *run, int idx, bool *skipped,
		      struct kab_err *err);

/*
 * Store a new run (status from r->status, "running" when NULL) and set
 * r->id; a fresh uuid is made unless r->uuid is set.
 */
int kab_db_run_insert(struct kab_db *db, struct kab_run *r,
		      struct kab_err *err);
int kab_db_run_finish(struct kab_db *db, int64_t id, const char *status,
		      const char *message, int64_t garbage, int64_t bad,
		      struct kab_err *err);
bool kab_db_run_exists(struct kab_db *db, const char *uuid);

/* All samples of one iteration, in one transaction of their own. */
int kab_db_iteration_store(struct kab_db *db, int64_t run_id, int iteration,
			   const char *const *metrics, const double *values,
			   int n, struct kab_err *err);
/* The same inside a transaction the caller holds. */
int kab_db_sample_add(struct kab_db *db, int64_t run_id, int iteration,
		      const char *metric, double value, struct kab_err *err);

/*
 * An iteration's folded profile stacks ("a;b;c") and its samples in all
 * (total), in one transaction.
 */
int kab_db_stacks_store(struct kab_db *db, int64_t run_id, int iteration,
			const char *event, uint64_t total, size_t nr,
			const char *const *stack, const uint64_t *n,
			struct kab_err *err);
/* One of them, inside a transaction the caller holds (an import). */
int kab_db_stack_add(struct kab_db *db, int64_t run_id, int iteration,
		     const char *event, const char *stack, uint64_t n,
		     uint64_t total, struct kab_err *err);
/* A run's stacks as stored, iteration by iteration (an export). */
typedef int (*kab_run_stack_fn)(void *ctx, int iteration, const char *event,
				const char *stack, uint64_t samples,
				uint64_t total);
int kab_db_run_stacks_foreach(struct kab_db *db, int64_t run_id,
			      kab_run_stack_fn fn, void *ctx,
			      struct kab_err *err);
typedef int (*kab_stack_fn)(void *ctx, int64_t run_id, const char *event,
			    const char *stack, uint64_t samples);
/* A run's samples in all over the iterations that have stacks. */
int kab_db_stacks_total(struct kab_db *db, int64_t run_id, uint64_t *total,
			struct kab_err *err);
/* Each run's stacks summed over its iterations, biggest first. */
int kab_db_stacks_foreach(struct kab_db *db, const int64_t *runs,
			  size_t nr_runs, kab_stack_fn fn, void *ctx,
			  struct kab_err *err);

/* 0, 1 when there is no such run, -1 when the database failed. */
int kab_db_run_get(struct kab_db *db, int64_t id, struct kab_run *out,
		   struct kab_err *err);
typedef int (*kab_run_fn)(void *ctx, const struct kab_run *r);
int kab_db_runs_foreach(struct kab_db *db, kab_run_fn fn, void *ctx,
			struct kab_err *err);
typedef int (*kab_sample_fn)(void *ctx, int iteration, const char *metric,
			     double value);
/* Ordered by iteration, then metric. */
int kab_db_samples_foreach(struct kab_db *db, int64_t run_id,
			   kab_sample_fn fn, void *ctx, struct kab_err *err);
/* The mean of a metric over a run's iterations; 1 when it has none. */
int kab_db_run_mean(struct kab_db *db, int64_t run_id, const char *metric,
		    double *mean);

/* One boot of the qemu target; console is stored zlib-compressed. */
/*
 * kab rm and kab relabel, each in one transaction: every id must be a
 * run that is not running, or nothing changes.  Removing takes the
 * runs' samples, stacks, boots and consoles, relabelling their boots
 * too; a kernel no run is of any more goes.
 */
int kab_db_runs_delete(struct kab_db *db, const int64_t *ids, size_t n,
		       struct kab_err *err);
int kab_db_runs_relabel(struct kab_db *db, const int64_t *ids, size_t n,
			const char *label, struct kab_err *err);
/* The ids of the runs of every status whose kernel is labelled label. */
int kab_db_label_runs(struct kab_db *db, const char *label, int64_t **ids,
		      size_t *n, struct kab_err *err);

struct kab_boot_row {
	int64_t run_id;		/* <= 0: the agent never started a run */
	const char *kernel_label;
	const char *kernel_path;
	const char *cmdline;
	const char *outcome;
	const char *problem;
	const char *accel;
	const char *qemu_version;
	int smp;
	const char *mem;
	double seconds;
	double hello;		/* QEMU's start to the agent's hello, 0: never */
	double first_sample;	/* ... to the first whole iteration, 0: none */
	const char *entry;	/* pvh or bzimage */
	const char *console;
	size_t console_len;
	int64_t ab_id;		/* the kab ab it belongs to, or 0 */
	int ab_seq;		/* its place in that A/B's plan */
	double host_busy;	/* other processes' share of the host, or <0 */
};

int kab_db_boot_insert(struct kab_db *db, const struct kab_boot_row *b,
		       int64_t *id, struct kab_err *err);
/* The console of a boot, uncompressed (malloc'd), or NULL with err. */
char *kab_db_boot_console(struct kab_db *db, int64_t boot_id, size_t *len,
			  struct kab_err *err);

/* kab ab: its arguments, kept so that --resume can continue it. */
int kab_db_ab_create(struct kab_db *db, const char *argv_json, int64_t *id,
		     struct kab_err *err);
/* A stored A/B: what --resume needs to know of it (free with _release). */
struct kab_db_ab {
	char *argv;		/* JSON array, the command's arguments */
	char *status;		/* running, done, ... */
	char *merged_from;	/* the database kab merge copied it from */
};
int kab_db_ab_get(struct kab_db *db, int64_t id, struct kab_db_ab *out,
		  struct kab_err *err);
void kab_db_ab_release(struct kab_db_ab *ab);
/* The ok runs of A/B id's side label, as "4,5,6" (malloc'd), or NULL. */
char *kab_db_ab_side_runs(struct kab_db *db, int64_t id, const char *label,
			  struct kab_err *err);
int kab_db_ab_finish(struct kab_db *db, int64_t id, const char *status,
		     struct kab_err *err);
/* Is boot seq of A/B id done (any outcome but interrupted)? */
bool kab_db_ab_seq_done(struct kab_db *db, int64_t id, int seq);
/* The run of A/B id's boot seq when that boot went well, else 0. */
int64_t kab_db_ab_seq_run(struct kab_db *db, int64_t id, int seq);
/* Boot seq of A/B id went to LAVA server (its URL) as job. */
int kab_db_ab_job_set(struct kab_db *db, int64_t id, int seq,
		      const char *server, long job, struct kab_err *err);
/* That job's number, or 0 when the boot went to no job of server. */
long kab_db_ab_job_get(struct kab_db *db, int64_t id, int seq,
		       const char *server);

/* ---- kernels kab built ---- */

struct kab_build_row {
	const char *status;		/* ok or failed */
	const char *cache_key;
	const char *tree;
	const char *rev;		/* as the user gave it, or NULL */
	const char *commit;
	const char *subject;
	const char *source_id;
	const char *compiler;
	const char *config_sha256;
	const char *config_path;	/* stored compressed when readable */
	const char *log_path;		/* likewise */
	const char *release;
	const char *image_path;
	const char *image_sha256;
	double seconds;
	bool cached;
};

int kab_db_build_insert(struct kab_db *db, const struct kab_build_row *b,
			int64_t *id, struct kab_err *err);
/* The subject of a commit kab built or bisected, or NULL. */
char *kab_db_commit_subject(struct kab_db *db, const char *commit);

/* ---- merging databases (one per CI matrix cell) ---- */

struct kab_merge_stats {
	int runs;		/* copied */
	int runs_known;		/* already here: same UUID */
	int kernels, samples, boots, builds;
	bool io;		/* on failure: reading or writing failed
				 * (a full disk, no TMPDIR), not the source */
};

/*
 * Copy the runs of the database at path that this one lacks, with
 * their kernels, samples, boots and A/Bs, and its builds; one
 * transaction.  A source of a newer schema is refused; an older one is
 * upgraded in a temporary copy.
 */
int kab_db_merge(struct kab_db *db, const char *path,
		 struct kab_merge_stats *st, struct kab_err *err);

/* ---- what a report says about a run ---- */

struct kab_run_facts {
	char *accel;		/* tcg or kvm; NULL: not a QEMU boot */
	char *qemu_version;
	char *ab_argv;		/* JSON array: the kab ab that made it */
	char *compiler;		/* of the build of its image, or NULL */
	char *config_sha256;
	char *tree;
	char *subject;		/* of its commit, when kab built it */
};

/*
 * What a run cost, in seconds: from its boot's start to the agent's
 * hello (0 for a run without a boot) and its whole length (-1 when not
 * known).
 */
int kab_db_run_cost(struct kab_db *db, int64_t run_id, double *boot,
		    double *total, struct kab_err *err);
int kab_db_run_facts(struct kab_db *db, int64_t run_id,
		     struct kab_run_facts *out, struct kab_err *err);
void kab_run_facts_free(struct kab_run_facts *f);

/* ---- bisections ---- */

struct kab_bisect_row {
	int64_t id;
	char *argv;		/* JSON array, to resume */
	char *metric;
	char *good, *bad;	/* revisions as given */
	char *good_runs, *bad_runs;	/* "3,4,5" */
	char *status;		/* running, done, no-change, failed */
	char *first_bad;
	char *message;
	char *created_at, *ended_at;
	/* the first bad commit and its parent, booted again to check */
	char *parent_runs, *culprit_runs;	/* "3,4,5" */
	char *verified;		/* the check's sentence, or NULL */
};

struct kab_bisect_step {
	const char *commit;
	const char *subject;
	const char *verdict;	/* good, bad, skip */
	const char *reason;
	int n;
	double median;		/* NAN when none */
	double p_good, p_bad;	/* NAN when not tested */
	const char *runs;	/* "7,8" */
};

int kab_db_bisect_create(struct kab_db *db, const char *argv_json,
			 const char *metric, const char *good, const char *bad,
			 int64_t *id, struct kab_err *err);
/*
 * Set a column of a bisect: good_runs, bad_runs, first_bad, message,
 * parent_runs, culprit_runs, verified.
 */
int kab_db_bisect_set(struct kab_db *db, int64_t id, const char *column,
		      const char *value, struct kab_err *err);
int kab_db_bisect_finish(struct kab_db *db, int64_t id, const char *status,
			 const char *first_bad, const char *message,
			 struct kab_err *err);
int kab_db_bisect_get(struct kab_db *db, int64_t id,
		      struct kab_bisect_row *out, struct kab_err *err);
void kab_bisect_row_free(struct kab_bisect_row *r);
/* The newest finished bisect that named commit first bad, or 0. */
int64_t kab_db_bisect_find(struct kab_db *db, const char *commit);
/* The newest bisect of good..bad (as given), finished or not, or 0. */
int64_t kab_db_bisect_find_range(struct kab_db *db, const char *good,
				 const char *bad);
int kab_db_bisect_step_add(struct kab_db *db, int64_t bisect_id,
			   const struct kab_bisect_step *s,
			   struct kab_err *err);
typedef int (*kab_step_fn)(void *ctx, const struct kab_bisect_step *s,
			   const char *when);
/* In the order they were tested. */
int kab_db_bisect_steps(struct kab_db *db, int64_t bisect_id,
			kab_step_fn fn, void *ctx, struct kab_err *err);

/* ---- kab watch's series ---- */

struct kab_watch_row {
	int64_t id;
	char *name;		/* the user's, or the branch's */
	char *tree, *branch, *base;
	char *argv;		/* JSON: how its commits are measured */
	char *created_at;
};

enum kab_point_status {
	KAB_POINT_PENDING,	/* to measure */
	KAB_POINT_MEASURED,	/* runs holds its boots */
	KAB_POINT_SKIPPED,	/* why says why (it did not build, boot) */
};

struct kab_point_row {
	char *commit;
	char *subject;		/* the commit's text: untrusted */
	int64_t seq;		/* its place on the branch */
	enum kab_point_status status;
	char *why;
	int64_t *runs;		/* its boots' runs */
	size_t nr_runs;
};

/*
 * The watch called name: found (its tree, branch, base and argv must
 * be those given, else an error names the difference), or created;
 * *created says which.  0, or -1 with err.
 */
int kab_db_watch_open(struct kab_db *db, const struct kab_watch_row *want,
		      int64_t *id, bool *created, struct kab_err *err);
int kab_db_watch_get(struct kab_db *db, const char *name,
		     struct kab_watch_row *out, struct kab_err *err);
void kab_watch_row_free(struct kab_watch_row *r);
/*
 * commit as the watch's point at seq: added pending when new, else
 * only moved to seq (a rebased branch).
 */
int kab_db_point_add(struct kab_db *db, int64_t watch, const char *commit,
		     const char *subject, int64_t seq, struct kab_err *err);
/* A point measured (runs) or skipped (why), in one statement. */
int kab_db_point_done(struct kab_db *db, int64_t watch, const char *commit,
		      enum kab_point_status status, const int64_t *runs,
		      size_t nr_runs, const char *why, struct kab_err *err);
/*
 * commit measured already by another watch of the same tree and
 * measuring options (a branch that shares history): its runs in
 * out->runs, 0; 1 when none; -1 with err.
 */
int kab_db_point_measured_elsewhere(struct kab_db *db, int64_t watch,
				    const char *commit,
				    struct kab_point_row *out,
				    struct kab_err *err);
/* A change point of a watch's series, as stored when first found. */
struct kab_change_row {
	int64_t id;
	const char *metric;
	const char *before, *after;	/* the commits either side */
	bool spread;			/* the spread changed, not the mean */
	double pct, lo, hi, p;
	/* out: as stored */
	char found_at[32];		/* when it was first found */
	char status[16];		/* found, verified, not-isolated */
	char *culprit;			/* the commit it was checked on */
	char *evidence;			/* what the checks found */
	bool mailed;			/* its message was written */
};

void kab_change_row_free(struct kab_change_row *c);
/*
 * Mark change id's message written, once: 0 when this call marked it,
 * 1 when it was marked already, -1 with err.
 */
int kab_db_change_mailed(struct kab_db *db, int64_t id, struct kab_err *err);
/* Its message could not be sent after all: unmarked, for the next try. */
int kab_db_change_unmailed(struct kab_db *db, int64_t id,
			   struct kab_err *err);
/* A change point checked: its status, culprit (or NULL), evidence. */
int kab_db_change_checked(struct kab_db *db, int64_t id, const char *status,
			  const char *culprit, const char *evidence,
			  struct kab_err *err);
/*
 * The runs of commit's point in the watch when it was measured (none
 * else): 0 with *runs (malloc'd, perhaps NULL) and *nr.
 */
int kab_db_point_runs(struct kab_db *db, int64_t watch, const char *commit,
		      int64_t **runs, size_t *nr, struct kab_err *err);

/*
 * Store c unless the same change (metric, commits, kind) is stored:
 * *is_new says which; c->id and c->found_at are the stored row's.
 */
int kab_db_change_note(struct kab_db *db, int64_t watch,
		       struct kab_change_row *c, bool *is_new,
		       struct kab_err *err);
/* The watch's points in seq order. */
int kab_db_points(struct kab_db *db, int64_t watch,
		  struct kab_point_row **out, size_t *nr,
		  struct kab_err *err);
void kab_points_free(struct kab_point_row *p, size_t nr);

#endif /* KAB_DB_H */
