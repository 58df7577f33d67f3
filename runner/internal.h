/* SPDX-License-Identifier: GPL-2.0 */
/*
 * internal.h - pieces shared inside the runner library only.
 */
#ifndef KAB_RUNNER_INTERNAL_H
#define KAB_RUNNER_INTERNAL_H

#include "runner.h"

/*
 * Decode one compressed stream to its end (at most max bytes, 0: no
 * limit); -1 on an error, a bigger or an empty result.
 */
int kab_unpack(const unsigned char *p, size_t len, size_t max,
	       struct strbuf *out);

/* ---- will-it-scale harness (wis.c), one file per test beside it ---- */

struct wis_test {
	const char *description;
	/* upstream's loop: one() then (*iterations)++, for ever */
	void (*testcase)(unsigned long long *iterations, unsigned long nr);
	/* one pass of that loop, for the exact harness */
	void (*one)(unsigned long nr);
};

enum wis_bind {
	WIS_BIND_CORE,	/* task i on core i % cores, hwloc logical order */
	WIS_BIND_SMT,	/* task i on hardware thread i % threads */
	WIS_BIND_NONE,
};

struct wis_opts {
	int nr_tasks;
	bool threads;
	enum wis_bind bind;
	int warmup;		/* one-second samples thrown away */
	int samples;		/* one-second samples measured */
	/*
	 * Time is guest instructions (QEMU icount): each task times the
	 * whole loops of the measured window by the clock, from the loop
	 * boundary where it starts to the one where it ends, so that no
	 * count is rounded to the loops of a fixed second.
	 */
	bool exact;
};

struct wis_result {
	unsigned long long average;	/* wall: ops/s summed over tasks */
	unsigned long long total;	/* every iteration, warmup included */
	unsigned long long min, max;	/* per task, last measured second */
	double rate;			/* exact: ops/s summed over tasks */
};

int wis_run(const struct wis_test *t, const struct wis_opts *o,
	    struct wis_result *res, struct kab_err *err);

/* Resolve the harness options from a job. */
int wis_opts_from_job(const struct kab_job *job, int nr_cpus,
		      struct wis_opts *o, struct kab_err *err);
/* Metrics with lkp's names from a result. */
void wis_metrics(const struct wis_opts *o, const struct wis_result *res,
		 struct kab_metrics *out);
double wis_expected_seconds(const struct kab_job *job, int nr_cpus);

/* ---- job files (job-yaml.c reads them, job.c makes jobs) ---- */

/* A key's values as a document gives them, and the section it is in. */
struct kab_rawparam {
	char *key;
	char *section;		/* NULL at the top level */
	int nr;
	char **vals;
	int line;
	bool from_set;		/* --set, not the file */
};

struct kab_rawjob {
	int nr;
	struct kab_rawparam *p;
};

void kab_rawjob_free(struct kab_rawjob *rj);
/* Free what one parameter holds (not the parameter itself). */
void kab_rawparam_release(struct kab_rawparam *p);
void kab_rawjob_copy(struct kab_rawjob *dst, const struct kab_rawjob *src);
struct kab_rawparam *kab_rawjob_find(struct kab_rawjob *rj, const char *key,
				     const char *section);
struct kab_rawparam *kab_rawjob_add(struct kab_rawjob *rj, const char *key,
				    const char *section, int line);
void kab_rawparam_set(struct kab_rawparam *p, char **vals, int nr);
bool kab_job_key_ok(const char *key);
/* Set key (a copy) in job, replacing its value if it has one. */
void kab_job_set(struct kab_job *job, const char *key, const char *value);
/* qsort() order of a job's parameters: by key. */
int kab_job_param_cmp(const void *a, const void *b);
/* Every YAML document of a job file, in order (at least one). */
int kab_job_documents(const char *text, size_t len, const char *where,
		      struct kab_rawjob **docs, int *nr, struct kab_err *err);

/* ---- files to ship to a machine under test (bundle.c) ---- */

struct kab_files {
	int nr;
	char **host;		/* path on this machine */
	char **guest;		/* path in the initramfs */
};

void kab_files_add(struct kab_files *l, const char *host, const char *guest);
void kab_files_free(struct kab_files *l);
/*
 * The shared libraries bin needs and the dynamic loader, each at its
 * own path, or with libdir at libdir/<name>.
 */
int kab_files_add_deps(struct kab_files *l, const char *bin,
		       const char *libdir, struct kab_err *err);
struct sha256_ctx;
/* Hash a file's path and content into h. */
int kab_files_hash_one(struct sha256_ctx *h, const char *path,
		       struct kab_err *err);

/* The remote's cache directory (s->home) and stress-ng, asked once. */
struct kab_ssh;
int kab_ssh_probe(struct kab_ssh *s, struct kab_err *err);

/* ---- targets ---- */

/*
 * Feed fd into the collector until EOF; SIGTERM to pid on o->stop, and
 * SIGKILL at deadline (monotonic seconds, 0 for none).  Reaps pid.
 */
struct kab_pump_times {
	double hello;		/* the agent's start record arrived */
	double first_sample;	/* the first whole iteration arrived */
};

/* The job as JSON into the agent's stdin, which is then closed. */
void kab_send_job(int fd, const struct kab_job *job);

int kab_pump(pid_t pid, int fd, struct kab_collector *c,
	     const struct kab_target_opts *o, double deadline,
	     bool *timed_out, int *status, struct kab_pump_times *times,
	     struct kab_err *err);
/* The same, the child's output going through feed to the collector. */
typedef int (*kab_pump_feed_fn)(void *ctx, const void *buf, size_t n);
int kab_pump_via(pid_t pid, int fd, kab_pump_feed_fn feed, void *feed_ctx,
		 struct kab_collector *c, const struct kab_target_opts *o,
		 double deadline, bool *timed_out, int *status,
		 struct kab_pump_times *times, struct kab_err *err);

/* ---- agent helpers ---- */

/* Kill and reap descendants left behind (the agent is a subreaper). */
void kab_reap_orphans(void);

/* Other processes' share of the host's CPUs since _start, or -1. */
struct kab_hostload {
	bool ok;
	double busy, total, own;	/* seconds */
};
void kab_hostload_start(struct kab_hostload *h);
double kab_hostload_other(const struct kab_hostload *h);

/*
 * kvm-probe.c: may QEMU use /dev/kvm here?  KAB_ACCEL decides when set;
 * else no when it does not open or when a boot found it broken on this
 * machine (remembered in cache_dir/kvm-broken for this host kernel,
 * QEMU version and CPU; said once a process).
 */
bool kab_kvm_usable(const struct kab_target_opts *o, const char *cache_dir,
		    const char *qemu_version);
/* Does this CPU say it has VMX or SVM (/proc/cpuinfo)? */
bool kab_cpu_has_virt(void);
/* The first line of QEMU's --version, "" when it says nothing. */
void kab_qemu_version(const char *qemu, char *buf, size_t n);
/* A boot found it broken: say why in one line, remember it. */
void kab_kvm_broken(const struct kab_target_opts *o, const char *cache_dir,
		    const char *qemu_version, const char *why);

/*
 * target-note.c: something the user should know, through o->note (on
 * o->tick_ctx), else on stderr as kab's note; o may be NULL.
 */
void kab_target_note(const struct kab_target_opts *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* What a tool said: the title, then each line as "| line". */
void kab_target_note_lines(const struct kab_target_opts *o,
			   const char *title, const char *text);
/* The same to a note hook of its own (NULL: stderr). */
void kab_note_lines(void (*note)(void *ctx, const char *msg), void *ctx,
		    const char *title, const char *text);

#endif /* KAB_RUNNER_INTERNAL_H */
