/* SPDX-License-Identifier: GPL-2.0 */
/*
 * common.h - small helpers shared by every kab library: error messages,
 * growable strings and checked allocation.
 */
#ifndef KAB_COMMON_H
#define KAB_COMMON_H

#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/types.h>

#define KAB_VERSION "0.1.0"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * One error message travels up the stack in a struct kab_err: the
 * deepest layer that knows what went wrong writes a sentence naming the
 * problem and, where it can, the fix.
 */
struct kab_err {
	char msg[1024];
};

int kab_err_set(struct kab_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Prefix an existing message: "context: old message". */
int kab_err_prefix(struct kab_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* strcmp for qsort() of an array of strings. */
int kab_strcmp_ptr(const void *a, const void *b);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap)
	__attribute__((format(printf, 1, 0)));

struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};

#define STRBUF_INIT { NULL, 0, 0 }

void strbuf_add(struct strbuf *sb, const void *data, size_t n);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strbuf_reset(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
/* Hand over the buffer (never NULL) and reset sb. */
char *strbuf_detach(struct strbuf *sb);
/* s as one POSIX shell word: as is when safe, else in single quotes. */
void strbuf_add_shell_word(struct strbuf *sb, const char *s);

/*
 * Strings from outside kab (a guest, an import, a merged database):
 * text is at most max bytes with no control characters (C0, DEL, C1 in
 * UTF-8 or as a byte); a name is 1..max letters, digits, '_', '-', '.'
 * and '+'.
 */
bool kab_text_ok(const char *s, size_t max);
bool kab_name_ok(const char *s, size_t max);
/* A copy of at most max bytes, each control character made '?'. */
char *kab_text_clean(const char *s, size_t max);
/* A clock a run may store: "wall", or "icount:N" with QEMU's shift N. */
#define KAB_ICOUNT_SHIFT_MAX	10
bool kab_clock_stored_ok(const char *s);
/* A metric name kab accepts: printable, no spaces, commas or quotes. */
bool kab_metric_name_valid(const char *s);
/*
 * Distinct metrics a run may hold, over all its iterations, whatever
 * door they came through (a guest, an import, a merge): a real run has
 * hundreds, a long profile a few thousand call chains.
 */
#define KAB_RUN_METRICS_MAX 20000
/*
 * A folded call stack, "root;caller;leaf": frames a metric name could
 * hold, none empty, under KAB_STACK_MAX bytes in all.
 */
#define KAB_STACK_MAX 1024
#define KAB_FRAME_MAX 200
#define KAB_STACKS_MAX 2000	/* stacks an iteration keeps */
bool kab_stack_ok(const char *s);
/*
 * A sample kab stores: finite and within +-KAB_SAMPLE_MAX, so that sums
 * of squares of thousands of them stay finite too.  Real counters
 * (bytes, nanoseconds, 64-bit event counts) stay far below.
 */
#define KAB_SAMPLE_MAX 1e30
bool kab_sample_ok(double v);

/*
 * s[0..n) for a terminal or a log line: printable as is, newline, tab
 * and the other control characters (a guest's escape sequences) as
 * \n, \t and \xNN.
 */
void strbuf_add_visible(struct strbuf *sb, const char *s, size_t n);
/* s on one line of out, made visible as strbuf_add_visible makes it. */
void fput_visible(FILE *out, const char *s);
/*
 * "TITLE:" and then each line of text as "| line" (a serial console's
 * \r dropped): what a guest or a build printed, quoted.
 */
void strbuf_add_note_lines(struct strbuf *sb, const char *title,
			   const char *text);
/* Each line of notes as "kab: note: line", made visible. */
void fput_notes(FILE *out, const char *notes);
/* Both: the title and text quoted as kab's notes on out. */
void fput_note_lines(FILE *out, const char *title, const char *text);

/*
 * _exit(code) for a forked child of kab's own code (a workload's
 * iteration, its worker processes): under make COV=1 it first writes
 * gcov's counts, which _exit would drop, so that the map of tests to
 * lines sees what the children ran.
 */
void kab_child_exit(int code) __attribute__((noreturn));

/*
 * An anonymous file for a child's stderr (memfd), so that what QEMU or
 * ssh says reaches the user inside kab's messages, not raw.
 */
int kab_stderr_file(void);
/* What was written to it (its first MiB), malloc'd; closes fd. */
char *kab_stderr_read(int fd);
/* The last non-empty line of text, made visible, into buf. */
void kab_last_line(const char *text, char *buf, size_t n);

/* s as one RFC 4180 field: quoted, quotes doubled, when it needs to be. */
void fput_csv_field(FILE *out, const char *s);

/*
 * Whole-file helpers; return 0 or -1 with err set.  read_file appends
 * the file to out; when it fails, out is as it was.
 */
int read_file(const char *path, struct strbuf *out, struct kab_err *err);
/*
 * Replace path with buf[0..len) (mode 0644 less the umask) through a
 * fresh temporary file in its directory (mkstemp: a planted symlink is
 * never followed), fsync and a rename: readers, and a crash, see the
 * old file or the new one whole.
 */
int write_file_atomic(const char *path, const void *buf, size_t len,
		      struct kab_err *err);
int write_all(int fd, const void *buf, size_t n);

/*
 * The directory of the running program (/proc/self/exe, links
 * resolved), malloc'd, or NULL: what an installed kab finds its agent
 * and jobs relative to.
 */
char *kab_exe_dir(void);
/* The first executable name in $PATH (malloc'd), or NULL. */
char *find_in_path(const char *name);

/* mkdir -p; 0 or -1 with errno. */
int mkdir_p(const char *dir, mode_t mode);

/* Seconds since the epoch, with sub-second resolution (CLOCK_REALTIME). */
double now_wall(void);
/* Monotonic seconds, for durations. */
double now_mono(void);
/* ISO 8601 UTC timestamp, e.g. 2026-12-02T09:37:20Z. */
void iso8601_utc(double t, char *buf, size_t n);
/* A uuid named by a sha256 digest (version 5's bits): 36 chars + NUL. */
void kab_uuid_of_digest(const unsigned char digest[32], char out[37]);

/* crc32 of a buffer (zlib's polynomial). */
uint32_t kab_crc32(const void *buf, size_t n);

/* The first digits (at most 64) of buf's sha256 in hex. */
char *kab_sha256_hex(const void *buf, size_t len, size_t digits);
/* sha256 of a file's content in hex, or NULL with err. */
char *kab_file_sha256(const char *path, struct kab_err *err);

/* ---- child processes: an argument vector, never a shell ---- */

struct kab_spawn {
	char *const *argv;	/* argv[0] looked up in PATH */
	const char *cwd;	/* or NULL */
	char *const *env;	/* NAME=VALUE added to the environment, or NULL */
	bool quiet;		/* stdout/stderr not captured go to /dev/null */
	bool merge_stderr;	/* stderr to wherever stdout goes */
	int pdeathsig;		/* signal when kab dies, or 0 */
	bool new_pgrp;		/* a process group of its own */
};

/* Start s; with out_fd its stdout is a pipe returned there. */
pid_t kab_spawn(const struct kab_spawn *s, int *out_fd, struct kab_err *err);
/* Exit status, 128 + signal when killed, -1 when waitpid failed. */
int kab_wait(pid_t pid);
/* Run to the end, stdout into out (or not captured); the exit status. */
int kab_run_capture(const struct kab_spawn *s, struct strbuf *out,
		    struct kab_err *err);
/*
 * Run a program (NULL-terminated arguments) in cwd and return its
 * stdout without the trailing newline, or NULL with err when it fails.
 */
char *kab_cmd_line(const char *cwd, struct kab_err *err, ...)
	__attribute__((sentinel));

/* Edits (insert, delete, change, swap two neighbours) from a to b. */
int kab_edit_distance(const char *a, const char *b);
/*
 * The one of names[0..nr) nearest to word, when it is near (2 edits or
 * fewer, and less than half the word) and no other is as near; or NULL.
 */
const char *kab_nearest(const char *word, const char *const *names,
			size_t nr);

/*
 * Scratch files and directories: $TMPDIR, else /tmp; a template
 * "DIR/PREFIX.PID.XXXXXX" for mkstemp or mkdtemp (malloc'd); and the
 * sweep, before making one, of those a killed kab of this user left
 * (their pid gone): how many it removed.
 */
const char *scratch_dir(void);
char *scratch_template(const char *prefix);
size_t scratch_sweep(const char *prefix);
/*
 * The scratch database db (and SQLite's files beside it) is removed if
 * SIGINT or SIGTERM ends kab while their action is the default; NULL:
 * no longer.
 */
void scratch_remove_at_signal(const char *db);

#endif /* KAB_COMMON_H */
