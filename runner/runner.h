/* SPDX-License-Identifier: GPL-2.0 */
/*
 * runner.h - the runner library: jobs, workloads, monitors, the agent
 * that executes a job and the record stream that carries its results.
 *
 * Data flows one way: the agent (on the machine under test) runs a job
 * and writes records; a target (local, later qemu and ssh) carries the
 * records back; the collector turns records into typed events that the
 * caller stores.  Nothing here knows about the database or the command
 * line.
 */
#ifndef KAB_RUNNER_H
#define KAB_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "../common/common.h"

/* ------------------------------------------------------------------ */
/* Jobs                                                                 */

struct kab_param {
	char *key;
	char *value;
};

/* One fully expanded parameter set: what one stored run measures. */
struct kab_job {
	char *name;			/* job file stem, e.g. stress-ng-radixsort */
	char *suite;			/* will-it-scale, stress-ng */
	char *test;			/* malloc1, radixsort */
	int nr_params;
	struct kab_param *params;	/* sorted by key, defaults filled in */
};

struct kab_joblist {
	int nr;
	struct kab_job *jobs;
	/* what of the file kab leaves out (jobs, keys), one line, or NULL */
	char *note;
};

/*
 * A job file as lkp writes them: every YAML document (the second and
 * later ones each on top of the first), lists expanded into their
 * Cartesian product, the jobs of workloads kab does not run and the
 * keys it does not use left out and named in the note.
 */
struct kab_jobsel {
	char *const *sets;	/* "key=value" or "key=[a, b]": overrides */
	int nr_sets;
	char *const *only;	/* "key=value": keep only the jobs with it */
	int nr_only;
};
/*
 * A job as the command line names it: a file (as given), '-' for
 * stdin, or a name (will-it-scale-malloc1) looked up along the job
 * path: $KAB_JOBS, $XDG_DATA_HOME/kab/jobs, <bindir>/../share/kab/jobs
 * and a checkout's jobs/.  *path malloc'd; -1 with err naming the
 * nearest job when there is none.
 */
int kab_job_find(const char *arg, char **path, struct kab_err *err);
/* The job path's directories, malloc'd each; their number. */
int kab_job_dirs(char ***dirs);
/* The names of the jobs along the job path, sorted, malloc'd each. */
int kab_job_names(char ***names);
/*
 * A flat job file of params (an object of strings), keys sorted, by
 * libyaml's emitter: kab_job_parse reads back exactly these values.
 * malloc'd, or NULL with err set.
 */
char *kab_job_yaml(json_t *params, struct kab_err *err);
/* path may be '-': the job text is read from stdin, named "stdin". */
int kab_job_load_sel(const char *path, const struct kab_jobsel *sel,
		     struct kab_joblist *out, struct kab_err *err);
/* The same from text already in memory; name is the job's name. */
int kab_job_parse_sel(const char *text, size_t len, const char *name,
		      const struct kab_jobsel *sel, struct kab_joblist *out,
		      struct kab_err *err);
/*
 * lkp's result roots (kab import --lkp): the runs' directories under
 * dir (dir itself when it holds stats.json, else each directory of it
 * that does), and one of them as a run in kab export's JSON shape.
 */
int kab_lkp_result_roots(const char *dir, char ***roots, int *nr,
			 struct kab_err *err);
json_t *kab_lkp_result_run(const char *root, struct kab_err *err);
/* The same from the two files' bytes (stats.json written at mtime). */
json_t *kab_lkp_result_parse(const char *root, const struct strbuf *job_yaml,
			     const struct strbuf *stats_json, double mtime,
			     struct kab_err *err);
/*
 * A commit's runs (runs from one directory .../<commit>/) united as
 * lkp unites them before comparing: a stat that is an integer 0 in
 * every run is dropped, per-CPU
 * sched_debug stats and lkp's pass/fail stats (dmesg.*, last_state.*
 * ...) are dropped, and a run lkp marked incomplete becomes a failed
 * run.  u counts what was done, added to what it holds (its objects
 * made when NULL; the caller frees them).
 */
struct kab_lkp_unite {
	json_t *function_stats;	/* names of pass/fail stats not stored */
	json_t *zero;		/* names of stats 0 in every run of a commit */
	size_t per_cpu;		/* sched_debug.*.N values dropped */
	size_t incomplete;	/* runs lkp marked incomplete */
};
void kab_lkp_unite(json_t *const *runs, size_t n, struct kab_lkp_unite *u);
bool kab_lkp_function_stat(const char *metric);
bool kab_lkp_per_cpu_stat(const char *metric);
/* Those with overrides only. */
int kab_job_load(const char *path, char *const *sets, int nr_sets,
		 struct kab_joblist *out, struct kab_err *err);
int kab_job_parse(const char *text, size_t len, const char *name,
		  char *const *sets, int nr_sets, struct kab_joblist *out,
		  struct kab_err *err);
void kab_joblist_free(struct kab_joblist *list);
void kab_job_free(struct kab_job *job);
void kab_job_copy(struct kab_job *dst, const struct kab_job *src);

const char *kab_job_get(const struct kab_job *job, const char *key);
/* {"name":..,"suite":..,"test":..,"params":{..}} */
json_t *kab_job_to_json(const struct kab_job *job);
int kab_job_from_json(json_t *obj, struct kab_job *job, struct kab_err *err);
/* "k1=v1 k2=v2" for humans. */
char *kab_job_describe(const struct kab_job *job);

/*
 * Parameter values.  "N" or "P%" of the CPUs (lkp's rounding: truncated,
 * at least 1); "60s", "2m", "1h" or plain seconds.
 */
int kab_parse_tasks(const char *s, int nr_cpus, int *out, struct kab_err *err);
int kab_parse_seconds(const char *s, double *out, struct kab_err *err);

/* ------------------------------------------------------------------ */
/* Metrics and workloads                                                */

struct kab_metric {
	char *name;
	double value;
};

/*
 * Metrics one iteration may carry: a real one has a few hundred (every
 * monitor on); a stream with more is a broken or hostile target, and
 * the rest are counted as rejected.
 */
#define KAB_METRICS_MAX 10000

struct kab_metrics {
	int nr, alloc;
	struct kab_metric *v;
};

void kab_metrics_add(struct kab_metrics *m, const char *name, double value);
void kab_metrics_addf(struct kab_metrics *m, double value, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
const struct kab_metric *kab_metrics_find(const struct kab_metrics *m,
					  const char *name);
void kab_metrics_free(struct kab_metrics *m);

enum kab_ptype {
	KAB_P_CHOICE,	/* one of .choices, "a|b|c" */
	KAB_P_TASKS,	/* N or P% of CPUs */
	KAB_P_SECONDS,	/* duration */
	KAB_P_COUNT,	/* unsigned integer >= 0 */
	KAB_P_SIZE,	/* bytes, with k/m/g suffixes */
	KAB_P_WORD,	/* a name: letters, digits, '-', '_', '.', '+' */
};

struct kab_pdesc {
	const char *key;
	enum kab_ptype type;
	const char *def;	/* NULL: optional, no default */
	const char *choices;
	const char *help;
};

struct kab_runctx {
	const struct kab_job *job;
	int nr_cpus;
	const char *tmpdir;		/* scratch space for this iteration */
	/*
	 * The clock counts guest instructions (QEMU icount): an iteration
	 * is fixed work timed by it, never a count of what fits in a
	 * fixed time, which would round to whole operations.
	 */
	bool exact;
};

/*
 * A workload, in the spirit of stress-ng's stressor_info_t: one file
 * each, one entry in kab_workloads[].  .run executes one iteration in a
 * child process of the agent and fills the metrics; the agent adds
 * rusage (<suite>.time.*) and monitors around it.
 */
struct kab_workload {
	const char *suite;
	const char *test;
	const char *help;
	const struct kab_pdesc *params;	/* terminated by a NULL key */
	int (*run)(const struct kab_runctx *ctx, struct kab_metrics *out,
		   struct kab_err *err);
	/* Seconds one iteration is expected to take, for progress. */
	double (*expected_seconds)(const struct kab_job *job, int nr_cpus);
	/* A program the guest must hold besides the agent, or NULL. */
	const char *program;
	/* The metric of the operations an iteration did (path-length's). */
	const char *ops_metric;
	/* Its KPIs (lkp's), of which an iteration has one; NULL ends. */
	const char *const *kpis;
};

extern const struct kab_workload *const kab_workloads[];
/* Settings any job may carry (thp_enabled, thp_defrag, drop_caches). */
extern const struct kab_pdesc kab_system_params[];
/* Apply them; without may_change only check they already hold. */
int kab_apply_settings(const struct kab_job *job, bool may_change,
		       struct kab_err *err);
const struct kab_workload *kab_workload_find(const char *suite,
					     const char *test);
/* Check every parameter of job against its workload's description. */
int kab_workload_validate(const struct kab_job *job, struct kab_err *err);

/* ------------------------------------------------------------------ */
/* stress-ng output                                                     */

struct kab_stressng_result {
	double bogo_ops;
	double ops_per_sec_real;
	double ops_per_sec_usr_sys;
	double wall_clock;
	char version[32];
};

int kab_stressng_parse_yaml(const char *text, size_t len, const char *stressor,
			    struct kab_stressng_result *res,
			    struct kab_err *err);
/* A sentence for a stress-ng exit status. */
const char *kab_stressng_exit_reason(int status);

/* ------------------------------------------------------------------ */
/* Monitors                                                             */

struct kab_monitor_state;

struct kab_stacks;

struct kab_monitor {
	const char *name;	/* proc-vmstat, meminfo, perf-stat, perf-profile */
	/* Called in the agent with the workload child's pid, stopped. */
	struct kab_monitor_state *(*start)(pid_t child, struct kab_err *err);
	/* Every second while it runs, when set. */
	void (*tick)(struct kab_monitor_state *st);
	/*
	 * Called once the child has exited; fills values (and stacks, the
	 * profile's, when not NULL) and frees st.
	 */
	void (*stop)(struct kab_monitor_state *st, double elapsed,
		     struct kab_metrics *out, struct kab_stacks *stacks);
};

extern const struct kab_monitor *const kab_monitors[];

/* Pure helpers behind the monitors, exposed for the tests. */
struct kab_kv {
	int nr, alloc;
	char **key;
	double *val;
};
int kab_parse_vmstat(const char *text, struct kab_kv *out);
int kab_parse_meminfo(const char *text, struct kab_kv *out);
/* CPU<n>.<key> and <key> (the sum), as lkp's interrupts and softirqs. */
int kab_parse_interrupts(const char *text, struct kab_kv *out);
int kab_parse_softirqs(const char *text, struct kab_kv *out);
/*
 * node<n>.<key> of every DIR/node<n>/FILE, FILE being "vmstat" or
 * "meminfo"; -1 when there is none (a kernel without NUMA).
 */
int kab_read_nodes(const char *dir, const char *file, struct kab_kv *out);
void kab_kv_free(struct kab_kv *kv);
/* The CPU seconds process pid has used (all its threads), or -1. */
double kab_proc_cpu_seconds(pid_t pid);
/* dmesg: a kernel log message counted into its kinds (5 doubles). */
void kab_dmesg_count(const char *msg, size_t len, double *n);
void kab_dmesg_metrics(const double *n, struct kab_metrics *out);
/* perf-profile: kernel symbols, lkp's names, a profile's shares. */
struct kab_ksyms;
/* Text symbols of /proc/kallsyms; NULL when all addresses are hidden. */
struct kab_ksyms *kab_ksyms_parse(const char *text);
const char *kab_ksyms_lookup(const struct kab_ksyms *k, uint64_t addr);
void kab_ksyms_free(struct kab_ksyms *k);
/* foo.isra.0 -> foo, as lkp names symbols (malloc'd). */
char *kab_profile_symbol_fixup(const char *name);
/* The functions of an ELF file, by the file's virtual addresses. */
struct kab_elfsyms;
struct kab_elfsyms *kab_elfsyms_load(const char *path);
/* A file offset (of a mapping) as a virtual address of the file. */
bool kab_elfsyms_vaddr(const struct kab_elfsyms *e, uint64_t offset,
		       uint64_t *vaddr);
const char *kab_elfsyms_lookup(const struct kab_elfsyms *e, uint64_t vaddr);
void kab_elfsyms_free(struct kab_elfsyms *e);
struct kab_profile;
/* event: cycles-pp, cycles or cpu-clock, as the metric names say it. */
struct kab_profile *kab_profile_new(const char *event);
/* One sample's call chain, leaf first, as names. */
void kab_profile_add(struct kab_profile *p, const char *const *chain,
		     size_t n);
uint64_t kab_profile_samples(const struct kab_profile *p);
/* perf-profile.{self,children,calltrace}.* at least min_pct (%). */
void kab_profile_metrics(const struct kab_profile *p, double min_pct,
			 struct kab_metrics *out);
void kab_profile_free(struct kab_profile *p);

/*
 * Folded call stacks, as flame graphs draw them: "root;caller;leaf"
 * and how many samples ended in exactly that stack.
 */
struct kab_stacks {
	char *event;		/* cpu-clock, cycles-pp, ... */
	uint64_t samples;	/* all of them, kept stacks or not */
	size_t nr, alloc;
	char **stack;
	uint64_t *n;
};
/* The stacks of at least min_pct of the samples, KAB_STACKS_MAX at most. */
void kab_profile_stacks(const struct kab_profile *p, double min_pct,
			struct kab_stacks *out);
void kab_stacks_add(struct kab_stacks *s, const char *stack, uint64_t n);
void kab_stacks_free(struct kab_stacks *s);
/* Derived perf-stat metrics (ipc, cpi, miss rates) from raw counts. */
void kab_perf_derive(const struct kab_metrics *raw, double elapsed,
		     struct kab_metrics *out);

/* ------------------------------------------------------------------ */
/* Host facts                                                           */

json_t *kab_host_facts(void);
int kab_nr_cpus(void);

/* ------------------------------------------------------------------ */
/* Records                                                              */

#define KAB_RECORD_VERSION	1
#define KAB_RECORD_MAGIC	"@KAB"
#define KAB_RECORD_MAX		(1 << 20)

/*
 * One record on the wire:
 *
 *   @KAB1 <len> <crc32> <payload>\n
 *
 * payload is <len> bytes of JSON, an object whose "t" names the type:
 * start, iter, sample, monitor, iter_end, error, end, log.  Anything
 * between records (kernel messages, line noise) is skipped and counted.
 *
 * An agent on a console that loses bytes (a UART, or QEMU's serial port
 * whose reader is slow: it drops a byte it cannot hand over) numbers its
 * records with "seq" (1, 2, ...) and writes each twice; the reader hands
 * over the first whole copy of a number and drops a record whose number
 * is not above the last one handed over.
 */
char *kab_record_encode(const char *type, json_t *body, size_t *len);
int kab_record_write(int fd, const char *type, json_t *body);

struct kab_reader_stats {
	uint64_t records;
	uint64_t garbage_bytes;
	uint64_t bad_records;	/* framed right but failing crc or json */
	uint64_t future_records; /* a newer stream version */
	uint64_t duplicates;	/* second copies of a "seq" */
};

/* type is the payload's "t"; body is borrowed for the call. */
typedef int (*kab_record_fn)(void *ctx, const char *type, json_t *body);

struct kab_reader;
struct kab_reader *kab_reader_new(kab_record_fn fn, void *ctx);
/* Returns the callback's first non-zero return, else 0. */
int kab_reader_feed(struct kab_reader *r, const void *buf, size_t n);
/* End of stream: whatever is left is garbage. */
void kab_reader_finish(struct kab_reader *r);
const struct kab_reader_stats *kab_reader_stats(const struct kab_reader *r);
void kab_reader_free(struct kab_reader *r);

/* ------------------------------------------------------------------ */
/* The agent: runs on the machine under test                            */

struct kab_agent_opts {
	const struct kab_job *job;
	int iterations;
	int out_fd;		/* where records go */
	const char *tmpdir;
	const char *monitors;	/* "a,b", "none"; NULL: all */
	bool guest;		/* we own the machine: settings may change */
	bool exact;		/* kab_runctx's: time is guest instructions */
	bool host_load;		/* say how busy others kept the machine */
	unsigned long long seed;	/* the boot's layout seed, or 0 */
	bool twice;		/* a lossy console: each record twice */
};

/* perf-profile's sampling frequency: lkp's default, and its bounds. */
#define KAB_PROFILE_FREQ	800
#define KAB_PROFILE_FREQ_MIN	100
#define KAB_PROFILE_FREQ_MAX	20000

/* Is monitor name selected by a "a,b" / "all" / "none" list? */
bool kab_monitor_selected(const char *list, const char *name);
/*
 * NULL when list is all, none, or known monitors and perf-profile=HZ
 * (KAB_PROFILE_FREQ_MIN to _MAX), else the first bad item ("" for an
 * empty one).
 */
char *kab_monitor_check(const char *list);
/* The perf-profile=HZ of a checked list, else KAB_PROFILE_FREQ. */
int kab_monitor_profile_freq(const char *list);
/* "proc-vmstat,meminfo,...": every monitor's name, for messages. */
char *kab_monitor_names(void);
/* Set by the agent before the monitors start: perf-profile's Hz. */
void kab_profile_set_freq(int hz);
/*
 * perf-profile samples every CPU (true: a guest kab owns) or the
 * workload's processes only (false, the default: a shared machine).
 */
void kab_profile_set_machine(bool whole);

/* Returns 0 when every iteration succeeded, 1 when the job failed. */
int kab_agent_run(const struct kab_agent_opts *opts);

/*
 * Other processes busier than this share of the CPUs make a run's (or
 * a TCG boot's) numbers theirs as much as the kernel's: said, and kept.
 * The agent's log message for it begins with KAB_HOST_BUSY_MSG.
 */
#define KAB_HOST_BUSY		0.25
#define KAB_HOST_BUSY_MSG	"other processes kept"

/*
 * The message for a run during which others kept busy (0 to 1) of the
 * machine's CPUs, into buf: false (buf untouched) when under
 * KAB_HOST_BUSY or unknown.
 */
bool kab_host_busy_msg(double busy, char *buf, size_t n);

/*
 * The guest's initramfs for a job, built once per content: returns its
 * path (cached tells whether it was there already), NULL with err set.
 */
/*
 * The unpacked vmlinux of bzimage when it has a PVH entry, cached in
 * cache_dir; NULL when it has none (or cannot be unpacked): boot the
 * bzImage then.
 */
char *kab_kernel_unpacked(const char *bzimage, const char *cache_dir);
char *kab_initramfs(const char *agent, const char *stressng, const char *job,
		    const char *cache_dir, bool *cached, struct kab_err *err);

/* As a guest's /init: mount /proc, /sys, /dev, /tmp; power off. */
int kab_guest_setup(struct kab_err *err);
void kab_guest_poweroff(void) __attribute__((noreturn));

/* ------------------------------------------------------------------ */
/* Collecting: records into typed events, validated                    */

struct kab_run_start {
	json_t *host;		/* host facts, owned by the collector */
	json_t *resolved;	/* parameters resolved on the target */
	const char *release;
	const char *cmdline;
	int iterations;
	double expected_seconds;
};

struct kab_collect_ops {
	int (*start)(void *ctx, const struct kab_run_start *st);
	void (*iter_start)(void *ctx, int iteration);
	/* All metrics of one iteration, workload and monitors together. */
	int (*iteration)(void *ctx, int iteration,
			 const struct kab_metrics *m);
	/* The profile's folded stacks of a stored iteration, when any. */
	int (*stacks)(void *ctx, int iteration, const struct kab_stacks *s);
	void (*error)(void *ctx, const char *message);
	void (*log)(void *ctx, const char *message);
};

enum kab_run_status {
	KAB_RUN_RUNNING,
	KAB_RUN_OK,
	KAB_RUN_FAILED,
	KAB_RUN_INTERRUPTED,
};

const char *kab_run_status_name(enum kab_run_status st);

struct kab_collector;
struct kab_collector *kab_collector_new(const struct kab_collect_ops *ops,
					void *ctx);
/*
 * Metrics a target measures itself, outside the guest (the qemu
 * target's instruction counts): added to each whole iteration before
 * it is delivered.  Names and values are the target's, trusted.
 */
typedef void (*kab_iter_extra_fn)(void *ctx, int iteration,
				  struct kab_metrics *m);
void kab_collector_set_extra(struct kab_collector *c, kab_iter_extra_fn fn,
			     void *ctx);
int kab_collector_feed(struct kab_collector *c, const void *buf, size_t n);
/*
 * End of stream.  The status is what the agent said in its end record;
 * a stream that stopped without one was interrupted.
 */
enum kab_run_status kab_collector_finish(struct kab_collector *c,
					 const char **message);
/* Reader statistics, with records the collector refused as bad. */
void kab_collector_stats(const struct kab_collector *c,
			 struct kab_reader_stats *out);
int kab_collector_iterations(const struct kab_collector *c);
/* Iterations dropped because a record of theirs arrived damaged. */
int kab_collector_lost(const struct kab_collector *c);
void kab_collector_free(struct kab_collector *c);

/* ------------------------------------------------------------------ */
/* Targets                                                              */

struct kab_target_opts {
	const struct kab_job *job;
	int iterations;
	const char *agent_path;		/* kab-agent binary */
	const char *monitors;		/* NULL: all */
	const volatile int *stop;	/* set by a signal handler */
	void (*tick)(void *ctx);	/* called a few times a second */
	void *tick_ctx;
	/* qemu: the command line about to run (NULL-terminated) */
	void (*command)(void *ctx, const char *const *argv);
	/*
	 * Something the user should know (what QEMU or lava-run said: a
	 * title, then "| " lines; a KVM found broken), on tick_ctx; NULL:
	 * kab's note on stderr.
	 */
	void (*note)(void *ctx, const char *msg);
	/*
	 * local: set to the share of the CPUs other processes (not kab,
	 * not the agent) kept busy during the run (0 to 1; -1 unknown).
	 * Over ssh the agent measures its machine and says it in a log
	 * message beginning with KAB_HOST_BUSY_MSG.
	 */
	double *host_busy;
};

/*
 * Run the agent on the local machine and feed its stream to the
 * collector.  Returns 0 when the stream was read to its end (whatever
 * the run's status), -1 with err set when the agent could not run.
 */
int kab_target_local(const struct kab_target_opts *opts,
		     struct kab_collector *c, struct kab_err *err);

/* A test machine over ssh. */
struct kab_ssh {
	char *dest;		/* "user@host" or "host" */
	char *port;		/* NULL: ssh's own (or its config's) */
	char *home;		/* the remote cache directory, once asked */
	char *dir;		/* where the agent was unpacked there */
	char *stressng;		/* stress-ng there: its own or shipped */
	/* what ssh or the machine said: note(note_ctx); NULL: stderr */
	void (*note)(void *ctx, const char *msg);
	void *note_ctx;
};

/* "ssh://[user@]host[:port]"; the rest comes from ~/.ssh/config. */
int kab_ssh_parse(const char *url, struct kab_ssh *s, struct kab_err *err);
void kab_ssh_free(struct kab_ssh *s);
/*
 * Run words there, each quoted for the remote shell; stdout into out
 * (or dropped).  The remote exit status, 255 with err when ssh could
 * not connect (naming what ssh said), -1 when it could not run.  What
 * ssh or the remote said on stderr otherwise goes to s->note.
 */
int kab_ssh_run(const struct kab_ssh *s, const char *const *words,
		struct strbuf *out, struct kab_err *err);
/*
 * The same, started: pipes to its stdin and from its stdout if asked;
 * with err_fd, its stderr goes to a kab_stderr_file() there.
 */
pid_t kab_ssh_spawn(const struct kab_ssh *s, const char *const *words,
		    int *in_fd, int *out_fd, int *err_fd,
		    struct kab_err *err);
/*
 * Ship the agent, its libraries and loader (and stress-ng when the job
 * runs it and the machine has none) once per content, to
 * $XDG_CACHE_HOME/kab/agent-<hash> there (~/.cache by default).
 */
int kab_ssh_stage(struct kab_ssh *s, const char *agent,
		  const struct kab_job *job, struct kab_err *err);
/*
 * Ship the file at path to $XDG_CACHE_HOME/kab/kernels/<hash>/name
 * there, once per content: *remote (malloc'd) is its path there.
 */
int kab_ssh_ship(struct kab_ssh *s, const char *path, const char *name,
		 char **remote, struct kab_err *err);
/* As kab_target_local, on the machine s names. */
int kab_target_ssh(const struct kab_target_opts *o, struct kab_ssh *s,
		   struct kab_collector *c, struct kab_err *err);

enum kab_boot_outcome {
	KAB_BOOT_OK,
	KAB_BOOT_JOB_FAILED,	/* the agent ran and reported failure */
	KAB_BOOT_FAILED,	/* the agent never said hello */
	KAB_BOOT_PANIC,		/* panic, oops, BUG on the console */
	KAB_BOOT_TIMEOUT,	/* killed at the host-side deadline */
	KAB_BOOT_HOST_STALL,	/* an RCU stall or lockup, nothing worse:
				   the host starved the emulated CPU */
	KAB_BOOT_INTERRUPTED,	/* the user stopped it */
};

const char *kab_boot_outcome_name(enum kab_boot_outcome o);

/*
 * A boot's layout seed (layout.c): exact mode samples layouts by seed
 * instead of fixing one.  The agent places the workload's mappings,
 * environment, stack and heap by it, alike under every kernel; the
 * kernel gets it on its command line (its slab freelists and page
 * shuffle draw from it).  Same seed and kernel, same numbers.
 */
#define KAB_LAYOUT_SEED_MAX	4294967295ULL

struct kab_layout {
	uint64_t kernel;	/* what the kernel's command line carries */
	size_t env;		/* bytes of environment the workload gets */
	size_t stack;		/* bytes the agent's stack is moved by */
	size_t heap;		/* bytes of heap taken before the workload */
	size_t gap;		/* bytes reserved below the mappings */
};

bool kab_layout_seed_ok(unsigned long long seed);
/* A seed from the command line: 0, or -1 with err naming the fix. */
int kab_layout_seed_parse(const char *s, unsigned long long *out,
			  struct kab_err *err);
void kab_layout_of(unsigned long long seed, struct kab_layout *l);
/* "norandmaps kab.seed=... page_alloc.shuffle=1", as long for every seed */
char *kab_layout_cmdline(unsigned long long seed);
/*
 * In the agent, before the workload: the environment's pad set, the
 * heap's taken (returned, to be kept).  The stack is the caller's to
 * move (alloca), as it must stay below the call.
 */
void *kab_layout_apply(const struct kab_layout *l);

/*
 * What times the guest.  wall: the host's clock, as on hardware; under
 * TCG the host's load is in every number.  icount: QEMU's instruction
 * counter (-icount shift=N,sleep=off), the guest's clock advancing 2^N
 * ns an instruction: the host is out of the measurement, and so are
 * caches and TLBs, which TCG does not model.  auto: icount under TCG,
 * wall under KVM.
 */
enum kab_clock_kind {
	KAB_CLOCK_AUTO,
	KAB_CLOCK_WALL,
	KAB_CLOCK_ICOUNT,
};

struct kab_clock {
	enum kab_clock_kind kind;
	int shift;		/* icount: 2^shift ns an instruction */
};

/*
 * icount's shift unless one is named: a 125 MHz guest, whose boot and
 * fixed-time parts (malloc1's warmup and seconds) cost an eighth of
 * the instructions they would at shift 0.
 */
#define KAB_ICOUNT_SHIFT	3

/* "auto", "wall", "icount" or "icount:N"; -1 with err naming the fix. */
int kab_clock_parse(const char *s, struct kab_clock *out, struct kab_err *err);
/*
 * "wall" or "icount:N", as a run stores it ("auto" when unresolved);
 * kab_clock_stored_ok (common.h) checks a stored one.
 */
void kab_clock_name(const struct kab_clock *c, char *buf, size_t n);

/*
 * The instructions iteration N executed, user and kernel, from kab's
 * QEMU plugin's output (plugin/insn.c): 0, or -1 when its marks are
 * not there in order.
 */
int kab_insn_counts(const char *text, size_t len, int it, uint64_t *user,
		    uint64_t *kernel);
/*
 * lkp's perf-stat rows of those counts into m, which holds the rest of
 * the iteration: perf-stat.total.instructions (:u and :k apart),
 * .ps.instructions per second of SUITE.time.elapsed_time and
 * .overall.path-length, instructions per operation of ops_metric.
 */
void kab_insn_metrics(uint64_t user, uint64_t kernel, const char *suite,
		      const char *ops_metric, struct kab_metrics *m);

/*
 * The plugin's cost model (plugin/cost.c, --model NAME) over iteration
 * N's window, as the plugin counted it: the fields in the order of
 * enum kab_cost_field.
 */
enum kab_cost_field {
	KAB_COST_CYCLES, KAB_COST_INSNS, KAB_COST_LOADS, KAB_COST_STORES,
	KAB_COST_L1D_MISSES, KAB_COST_L2_MISSES, KAB_COST_LLC_MISSES,
	KAB_COST_DTLB_LOAD_MISSES, KAB_COST_DTLB_STORE_MISSES,
	KAB_COST_LOAD_WALKS, KAB_COST_STORE_WALKS, KAB_COST_WALK_REFS,
	KAB_COST_WALK_CYCLES, KAB_COST_FIELDS
};
struct kab_cost_row {
	char model[17];
	unsigned int mhz;	/* the modelled core's clock */
	uint64_t v[KAB_COST_FIELDS];
};
/*
 * Iteration N's row: 0, or -1 when the line after its end mark is not
 * a whole one (or the plugin never found the guest's page tables).
 */
int kab_insn_cost(const char *text, size_t len, int it,
		  struct kab_cost_row *c);
/* Is name a core the cost model knows?  All of them, for an error. */
bool kab_cost_known(const char *name);
const char *kab_cost_names(void);
/*
 * lkp's perf-stat rows of a modelled window into m, each named with
 * ":MODEL" after lkp's name (perf-stat.total.cycles:spr,
 * perf-stat.overall.cpi:spr, ...), and KPI:MODEL for each of kpis
 * (NULL-terminated) m holds: the KPI as the model's cycles at its clock
 * time the window, the KPI times SUITE.time.elapsed_time over them.
 */
void kab_cost_metrics(const struct kab_cost_row *c, const char *suite,
		      const char *const *kpis, struct kab_metrics *m);

struct kab_qemu_opts {
	const char *kernel;	/* bzImage */
	const char *cmdline;	/* added to kab's own options */
	int smp;		/* 0: 1 under icount, else 2 */
	const char *mem;	/* "2G" */
	const char *cache_dir;	/* initramfs images */
	double boot_timeout;	/* seconds allowed to reach the agent */
	double timeout;		/* whole boot's deadline; 0: from the job */
	const char *pin;	/* host CPUs for QEMU ("0-1,3"), or NULL */
	struct kab_clock clock;
	/* kab-insn.so, to count instructions (perf-stat), or NULL */
	const char *plugin;
	/* its cost model of the window (plugin/cost-cores.c), or NULL */
	const char *model;
	/* exact mode's layout seed for this boot; 0: one fixed layout */
	unsigned long long seed;
};

struct kab_boot {
	enum kab_boot_outcome outcome;
	char *console;		/* the whole console log */
	size_t console_len;
	char *problem;		/* first alarming console line, or NULL */
	/*
	 * The lab ended it for its own reasons (LAVA's Infrastructure
	 * error, the console quiet): it says nothing of the kernel.
	 */
	bool lab_fault;
	char accel[8];		/* kvm or tcg */
	char qemu_version[96];
	char entry[8];		/* pvh (the unpacked vmlinux) or bzimage */
	char clock[16];		/* kab_clock_name of the clock it ran on */
	unsigned long long seed;	/* the layout seed it booted with, 0:
					   none (not exact mode) */
	int smp;		/* the vCPUs it booted with */
	long lava_queued;	/* in flight: the LAVA job while it waits
				   for a device, else 0 */
	double seconds;		/* QEMU's start to its exit */
	double hello;		/* ... to the agent's start record, 0: never */
	double first_sample;	/* ... to the first whole iteration */
	double host_busy;	/* other processes' share of the host's
				   CPUs meanwhile, or -1 */
	bool timed_out;
};

/*
 * Boot q->kernel with the agent as /init and feed the guest's stream to
 * the collector; boot tells how it went.  -1 with err when QEMU could
 * not be started at all.
 */
int kab_target_qemu(const struct kab_target_opts *o,
		    const struct kab_qemu_opts *q, struct kab_collector *c,
		    struct kab_boot *boot, struct kab_err *err);
void kab_boot_free(struct kab_boot *b);
/* Classify a finished boot from what the collector saw. */
enum kab_boot_outcome kab_boot_classify(const struct kab_boot *b,
					bool started,
					enum kab_run_status status,
					bool interrupted);
char *kab_console_problem(const char *log, size_t len);
/*
 * Did the kernel report an RCU stall or a lockup, and nothing a kernel
 * bug would print (an oops, a BUG, a panic of its own)?  Under TCG that
 * is a vCPU thread the host did not run for a minute.
 */
bool kab_console_stalled(const char *log, size_t len);
char *kab_default_kernel(void);
/* "0-3,6" into a CPU set; -1 with err when it is not such a list. */
int kab_parse_cpulist(const char *s, void *cpu_set, struct kab_err *err);
/* Is path a bzImage? */
int kab_kernel_check(const char *path, struct kab_err *err);
/*
 * What the bzImage at path will say it is once it runs: its uname -r
 * (*release) and uname -v (*version, NULL when its header does not
 * say), malloc'd; -1 with err when it is no bzImage or says neither.
 */
int kab_kernel_version(const char *path, char **release, char **version,
		       struct kab_err *err);
/* The QEMU a boot runs: $KAB_QEMU, else PATH's; or NULL. */
char *kab_qemu_find(void);
/*
 * The release qemu says it is ("10.0.2"; "" when it does not say) and
 * its major number, or -1.
 */
int kab_qemu_release(const char *qemu, char *buf, size_t n);
bool kab_collector_started(const struct kab_collector *c);
/* Did the agent's end record arrive? */
bool kab_collector_ended(const struct kab_collector *c);

/* ------------------------------------------------------------------ */
/* LAVA: a lab's boards (or this machine's dispatcher) as a target      */

/* A JSON tree as a YAML document, by libyaml's emitter. */
char *kab_yaml_from_json(json_t *root, struct kab_err *err);

struct kab_lava_job_opts {
	const char *name;		/* job_name */
	const char *device_type;	/* "qemu", or the lab's board type */
	const char *method;		/* "qemu" (tmpfs) or "tftp" (iPXE) */
	const char *kernel_url;
	const char *ramdisk_url;
	const char *kernel_args;	/* the kernel's own */
	const char *agent_args;		/* the agent's, after "--" */
	double boot_seconds;		/* the boot action's timeout */
	double test_seconds;		/* the test action's */
	const char *tag;		/* the device's own tag, or NULL */
};

/* The job definition of one boot; kab_yaml_from_json writes it. */
json_t *kab_lava_job(const struct kab_lava_job_opts *o);
/* The agent's last console line, as a regular expression (LAVA's). */
extern const char *kab_lava_end_pattern;
/* Can s go on a kernel command line through LAVA?  err names the fix. */
int kab_lava_cmdline_check(const char *s, struct kab_err *err);

/* A qemu device dictionary for the dispatcher on this machine. */
struct kab_lava_device_opts {
	const char *qemu;		/* the QEMU binary */
	const char *mem;		/* "2G" */
	int smp;
	const char *accel;		/* "kvm" or "tcg" */
};
json_t *kab_lava_qemu_device(const struct kab_lava_device_opts *d);

/* A job's log, entry by entry: the console lines go to fn. */
typedef int (*kab_lava_line_fn)(void *ctx, const char *line, size_t n);
struct kab_lava_log {
	kab_lava_line_fn fn;
	void *ctx;
	struct strbuf line;		/* a partial entry */
	bool overlong;			/* the entry in hand is too long */
	uint64_t target_lines;		/* console lines */
	uint64_t skipped;		/* lines that were no entry */
	char *result;			/* the job's: "pass", "fail" */
	char *error_type;		/* LAVA's, when it failed the job */
	char *error_msg;
	char *first_error;		/* the first error it logged */
	char *version;			/* the dispatcher's */
};
void kab_lava_log_init(struct kab_lava_log *l, kab_lava_line_fn fn,
		       void *ctx);
/* -1 when fn said so (it could not store); entries always go on. */
int kab_lava_log_feed(struct kab_lava_log *l, const void *buf, size_t n);
int kab_lava_log_finish(struct kab_lava_log *l);
void kab_lava_log_release(struct kab_lava_log *l);

/* A LAVA server's REST API (v0.2). */
struct kab_lava_server {
	char *url;			/* as the user gave it */
	char *api;			/* .../api/v0.2/ */
	char *token;			/* never printed, never stored */
};
int kab_lava_server_init(struct kab_lava_server *s, const char *url,
			 const char *token, struct kab_err *err);
void kab_lava_server_free(struct kab_lava_server *s);
/* Has the lab a device of that type whose health is Good? */
int kab_lava_check_device_type(const struct kab_lava_server *s,
			       const char *type, struct kab_err *err);
/* A device of the lab kab can boot on. */
struct kab_lava_device {
	char name[64];			/* its hostname */
	char tag[64];			/* a tag no other device of its type
					   has ("": none), which pins a job
					   to it */
};
/*
 * The devices of type whose health is Good (or Unknown), each with a
 * tag of its own when it has one: 0 with *out (malloc'd, *nr of them),
 * or -1 with err.
 */
int kab_lava_devices(const struct kab_lava_server *s, const char *type,
		     struct kab_lava_device **out, size_t *nr,
		     struct kab_err *err);
int kab_lava_submit(const struct kab_lava_server *s, const char *yaml,
		    long *id, struct kab_err *err);
struct kab_lava_job_state {
	char state[32];			/* Submitted ... Running ... Finished */
	char health[32];		/* Unknown, Complete, Incomplete,
					   Canceled */
	char device[128];		/* once scheduled */
};
int kab_lava_job_state(const struct kab_lava_server *s, long id,
		       struct kab_lava_job_state *st, struct kab_err *err);
int kab_lava_device_worker(const struct kab_lava_server *s,
			   const char *device, char *buf, size_t n,
			   struct kab_err *err);
/*
 * The job's log from line start on, whole lines, into log: the lines
 * read (0: none yet), -1 with err, -2 when the log's reader said stop.
 */
long kab_lava_job_log(const struct kab_lava_server *s, long id, long start,
		      struct kab_lava_log *log, struct kab_err *err);
int kab_lava_cancel(const struct kab_lava_server *s, long id,
		    struct kab_err *err);

struct kab_lava_opts {
	const char *url;		/* "local": lava-run on this machine,
					   else the server's URL */
	const char *token;		/* the server's user token */
	const char *device_type;	/* NULL: qemu */
	const char *method;		/* NULL: qemu, or tftp */
	const char *lava_run;		/* NULL: lava-run from PATH */
	/*
	 * Where the lab's dispatchers fetch kab's kernel and initramfs:
	 * kab copies them into files_dir, served as files_url.  Unset:
	 * file:// URLs, which only a dispatcher on this machine reads.
	 */
	const char *files_dir;
	const char *files_url;
	double queue_timeout;		/* seconds a job may wait queued */
	/*
	 * A server: seconds a job kab cancelled may take to end, and a
	 * finished job to send the rest of its log; 0: 60.
	 */
	double grace;
	/*
	 * Seconds a job may take, once it runs, before its test's own time
	 * counts (the dispatcher's deploy and the kernel's boot); past
	 * both, the job is cancelled as a boot timeout.  0: 120 s and the
	 * QEMU boot timeout.
	 */
	double boot_timeout;
	/* a server: the tag that pins the job to one device, or NULL */
	const char *tag;
	/*
	 * A server: the job this boot went to before (a resumed A/B), or
	 * 0.  It is followed, not submitted again, unless it was
	 * cancelled.
	 */
	long job;
	/* the server's job of the boot in flight, once submitted */
	void (*submitted)(void *ctx, long job_id);
	/* or the job it went to before (job), followed */
	void (*followed)(void *ctx, long job_id);
};

/*
 * The job definition kab submits for one boot of q->kernel, as YAML,
 * contacting nothing (--dry-run); NULL with err.
 */
char *kab_lava_definition(const struct kab_target_opts *o,
			  const struct kab_qemu_opts *q,
			  const struct kab_lava_opts *l, struct kab_err *err);
/*
 * Run that job and feed the console's records to the collector; boot
 * tells how it went (accel "lava", qemu_version the dispatcher's).
 * The device, its type and the worker become host facts of the run.
 */
int kab_target_lava(const struct kab_target_opts *o,
		    const struct kab_qemu_opts *q,
		    const struct kab_lava_opts *l, struct kab_collector *c,
		    struct kab_boot *boot, struct kab_err *err);
/*
 * Facts the target knows of the machine, merged into the host facts of
 * the start record (the target's win over the guest's).
 */
void kab_collector_set_facts(struct kab_collector *c, json_t *facts);

#endif /* KAB_RUNNER_H */
