// SPDX-License-Identifier: GPL-2.0
/*
 * kab.c - the entry point: global options and the command table.
 */
#include <errno.h>
#include <poll.h>
#include <getopt.h>
#include <limits.h>
#include <gsl/gsl_errno.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "../runner/runner.h"
#include "runjob.h"

static const struct cmd commands[] = {
	{ "run", cmd_run, "run a job here or in a QEMU boot, store every sample" },
	{ "ab", cmd_ab, "boot kernels A and B in turn under QEMU, then compare" },
	{ "bisect", cmd_bisect, "find the commit that moved a metric (git bisect, measured)" },
	{ "bisect-step", cmd_bisect_step, "one commit of a bisect: what git bisect run calls" },
	{ "watch", cmd_watch, "follow a branch: measure its commits, find its change points" },
	{ "build", cmd_build, "build a kernel from a tree (a git revision or as is), cached" },
	{ "compare", cmd_compare, "lkp's %change table, rows chosen by statistics" },
	{ "plan", cmd_plan, "the boots and iterations that detect a change, from stored boots" },
	{ "report", cmd_report, "the A/B as the kernel test robot's email, markdown or HTML" },
	{ "ci", cmd_ci, "CI pipelines: 'ci matrix' plans the cells, 'ci gate' fails on a regression" },
	{ "merge", cmd_merge, "copy the runs of other databases (CI cells) into one" },
	{ "ls", cmd_ls, "list the stored runs" },
	{ "rm", cmd_rm, "remove runs, with their samples, boots and consoles" },
	{ "relabel", cmd_relabel, "give runs another kernel label" },
	{ "show", cmd_show, "per-metric n, mean and stddev of a run, or of a kernel's boots" },
	{ "export", cmd_export, "write runs as CSV or JSON" },
	{ "import", cmd_import, "read runs written by 'kab export --format json'" },
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f,
		"usage: kab [--db PATH] [--quiet | --verbose] <command> [<args>]\n"
		"       kab --help | --version\n"
		"\n"
		"kab compares the performance of kernel builds: it runs "
		"will-it-scale's malloc1\nand stress-ng's radixsort again "
		"and again, stores every sample in SQLite and\ntells with "
		"statistics what changed.\n\nCommands:\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-11s %s\n", commands[i].name, commands[i].summary);
	fprintf(f,
		"\n'kab <command> --help' describes a command.\n"
		"\nEvery command takes --quiet (errors and results only, no "
		"progress or notes)\nand --verbose (also the commands kab "
		"runs, QEMU's among them), before or\nafter its name (-q and "
		"-v before it).\n"
		"\nDatabase: --db PATH, else $KAB_DB, else "
		"$XDG_DATA_HOME/kab/kab.db\n(~/.local/share/kab/kab.db).\n"
		"\nEnvironment:\n"
		"  KAB_DB             the database, when --db is not given\n"
		"  KAB_CONFIG         the config file (default: "
		"$XDG_CONFIG_HOME/kab/config,\n"
		"                     ~/.config/kab/config): defaults per "
		"command\n"
		"  KAB_ACCEL          kvm or tcg: QEMU's accelerator, not "
		"probed\n"
		"  KAB_QEMU           the qemu-system-x86_64 binary to boot "
		"with\n"
		"  KAB_QEMU_PREALLOC  0: boot without -mem-prealloc\n"
		"  KAB_BOOT           bzimage: boot the bzImage, not its "
		"payload\n"
		"  KAB_STRESS_NG      the stress-ng binary (here and in the "
		"guest)\n"
		"  KAB_AGENT          the kab-agent binary (default: beside "
		"kab, else in\n"
		"                     PREFIX/libexec/kab/ when kab is "
		"PREFIX/bin/kab)\n"
		"  KAB_PLUGIN         kab's QEMU plugin, kab-insn.so (found as "
		"kab-agent;\n"
		"                     empty: none, no instruction counts)\n"
		"  KAB_JOBS           directories (a:b) searched first for a "
		"job named\n"
		"                     without a path (kab run --list-jobs)\n"
		"  KAB_SSH            the ssh command for --target ssh://HOST\n"
		"  KAB_LAVA_TOKEN     the user token for --target lava:URL "
		"(else the\n"
		"                     config file's [lava] token)\n"
		"  KAB_LAVA_RUN       the lava-run of --target lava:local "
		"(default: PATH's)\n"
		"  KAB_LAVA_KEEP      set: keep each LAVA job's definition "
		"and device\n"
		"                     dictionary, and say where\n"
		"  KAB_KERNEL_CC      the compiler of kab build (default "
		"gcc)\n"
		"  KAB_NO_CCACHE      set: kab build does not use ccache\n"
		"  XDG_DATA_HOME, XDG_CACHE_HOME  where the database and the "
		"cache of\n"
		"                     kernels and initramfs images live\n"
		"  XDG_CONFIG_HOME    where the config file lives\n"
		"\nExit status:\n"
		"  0    success\n"
		"  1    a run failed, a gate found a regression, or kab could "
		"not read or\n"
		"       write\n"
		"  2    usage error or missing data: a bad option, job file or "
		"parameter; a\n"
		"       run, kernel, metric or database that is not there\n"
		"  3    kab ci gate could not judge a KPI (too few boots a "
		"side, or sides\n"
		"       measured on different machines) and none failed\n"
		"  130  interrupted by ^C (143: by SIGTERM); what was stored "
		"is kept\n");
}

/*
 * The config file's line of the option cli_getopt() returned last, 0
 * when it came from the command line or parsing is over: an error while
 * the option is taken names the line it came from.
 */
static int opt_line;

/*
 * One line whatever it quotes: a value from the command line, a file or
 * a guest may hold a newline or a terminal escape, shown as \n or \x1b.
 */
int cli_error(int code, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	char *msg;
	va_list ap;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	if (opt_line)
		strbuf_addf(&sb, "%s:%d: ", cli_config_path(), opt_line);
	strbuf_add_visible(&sb, msg, strlen(msg));
	fprintf(stderr, "kab: %s\n", sb.len ? sb.buf : "");
	strbuf_release(&sb);
	free(msg);
	return code;
}

int cli_verbosity;

bool cli_progress(void)
{
	return cli_verbosity >= 0;
}

bool cli_live_progress(void)
{
	const char *term = getenv("TERM");

	return cli_progress() && isatty(2) && term && *term &&
	       strcmp(term, "dumb");
}

void cli_note(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	char *msg;
	va_list ap;

	if (cli_verbosity < 0)
		return;
	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	strbuf_add_visible(&sb, msg, strlen(msg));
	fprintf(stderr, "kab: note: %s\n", sb.len ? sb.buf : "");
	strbuf_release(&sb);
	free(msg);
}

void cli_show_command(void *ctx, const char *const *argv)
{
	struct strbuf sb = STRBUF_INIT, vis = STRBUF_INIT;
	size_t i;

	if (cli_verbosity < 1)
		return;
	for (i = 0; argv[i]; i++) {
		if (i)
			strbuf_addstr(&sb, " ");
		strbuf_add_shell_word(&sb, argv[i]);
	}
	strbuf_add_visible(&vis, sb.buf, sb.len);
	fprintf(stderr, "kab: running %s\n", vis.buf);
	strbuf_release(&sb);
	strbuf_release(&vis);
}

void cli_notes(const char *notes)
{
	if (cli_verbosity >= 0)
		fput_notes(stderr, notes);
}

int cli_check_monitors(const char *list)
{
	char *bad = kab_monitor_check(list), *names;

	if (!bad)
		return 0;
	names = kab_monitor_names();
	cli_error(EXIT_USAGE, "--monitors: '%s' is not a monitor: use all, "
		  "none, or some of %s (perf-profile=HZ samples at HZ, %d to "
		  "%d; %d by default)", bad, names, KAB_PROFILE_FREQ_MIN,
		  KAB_PROFILE_FREQ_MAX, KAB_PROFILE_FREQ);
	free(names);
	free(bad);
	return EXIT_USAGE;
}

/*
 * A config fragment that cannot be read is the user's to fix: said
 * while the options are taken, before anything is built or stored.
 */
int cli_check_kconfig(const char *path)
{
	if (!access(path, R_OK))
		return 0;
	return cli_error(EXIT_USAGE, "--kconfig %s: %s: give a readable file "
			 "of CONFIG_ lines", path, strerror(errno));
}

void cli_push_arg(char ***v, int *n, char *arg)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = arg;
}

int cli_load_jobs(const char *path, const struct kab_jobsel *sel,
		  struct kab_joblist *out)
{
	struct kab_err err;
	char *file;
	int ret;

	memset(out, 0, sizeof(*out));
	if (kab_job_find(path, &file, &err))
		return cli_error(EXIT_USAGE, "%s", err.msg);
	ret = kab_job_load_sel(file, sel, out, &err);
	free(file);
	if (ret)
		return cli_error(EXIT_USAGE, "%s", err.msg);
	if (out->note) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_add_visible(&sb, out->note, strlen(out->note));
		cli_note("%s", sb.buf);
		strbuf_release(&sb);
	}
	return 0;
}

void cli_list_jobs(FILE *out)
{
	char **names, **dirs, *path;
	int n = kab_job_names(&names), nd, i;
	struct kab_err err;

	for (i = 0; i < n; i++) {
		if (kab_job_find(names[i], &path, &err))
			path = xstrdup("?");
		fprintf(out, "%-28s %s\n", names[i], path);
		free(path);
		free(names[i]);
	}
	free(names);
	nd = kab_job_dirs(&dirs);
	fprintf(out, "%sjob path ($KAB_JOBS first):\n", n ? "\n" : "");
	for (i = 0; i < nd; i++) {
		path = realpath(dirs[i], NULL);
		fprintf(out, "  %s%s\n", path ? path : dirs[i],
			path ? "" : " (not there)");
		free(path);
		free(dirs[i]);
	}
	free(dirs);
}

/* The directory that would hold path, when it is not there. */
static const char *missing_dir(const char *path)
{
	static char dir[PATH_MAX];
	struct stat st;
	char *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return NULL;
	*slash = '\0';
	return stat(dir, &st) && errno == ENOENT ? dir : NULL;
}

/*
 * A writer waits for another's lock (a merge writes for as long as its
 * source is big): every measurement is kept, and the user told why kab
 * is quiet.
 */
static void lock_note(void *arg, const char *path, double waited)
{
	(void)arg;
	cli_note("waited %.0f s for %s: another process holds its write lock "
		 "(a kab merge or import?); kab waits for it, ^C stops",
		 waited, path);
}

void cli_db_patient(struct kab_db *db)
{
	kab_db_set_patience(db, -1, &kab_stop_requested, lock_note, NULL);
}

const char *cli_vis(const char *s)
{
	static char *ring[16];
	static unsigned int next;
	struct strbuf sb = STRBUF_INIT;
	char **slot = &ring[next++ % ARRAY_SIZE(ring)];

	if (!s)
		return NULL;
	strbuf_add_visible(&sb, s, strlen(s));
	free(*slot);
	*slot = strbuf_detach(&sb);
	return *slot;
}

char *cli_resume_hint(const char *db_path, const char *cmd, long long id)
{
	struct strbuf sb = STRBUF_INIT;
	char *dflt = kab_db_default_path();

	strbuf_addstr(&sb, "kab ");
	if (strcmp(db_path, dflt)) {
		strbuf_addstr(&sb, "--db ");
		strbuf_add_shell_word(&sb, db_path);
		strbuf_addstr(&sb, " ");
	}
	strbuf_addf(&sb, "%s --resume %lld", cmd, id);
	free(dflt);
	return strbuf_detach(&sb);
}

/*
 * A stored argument list (an A/B's, a bisect's): a JSON array of
 * printable strings, else NULL with one line printed.  *argc counts
 * cmd, argv[0]; the strings are the array's.
 */
char **cli_stored_argv(const json_t *args, const char *cmd, const char *what,
		       long long id, int *argc)
{
	const json_t *a;
	char **v;
	size_t i;

	if (!json_is_array(args)) {
		cli_error(EXIT_RUN, "%s %lld's stored arguments are damaged "
			  "(not a list): start it again", what, id);
		return NULL;
	}
	json_array_foreach(args, i, a)
		if (!json_is_string(a) ||
		    !kab_text_ok(json_string_value(a), 4096)) {
			cli_error(EXIT_RUN, "%s %lld's stored arguments are "
				  "damaged (argument %zu is not text): start "
				  "it again", what, id, i + 1);
			return NULL;
		}
	v = xcalloc(json_array_size(args) + 4, sizeof(*v));
	v[0] = (char *)cmd;
	json_array_foreach(args, i, a)
		v[i + 1] = (char *)json_string_value(a);
	*argc = (int)json_array_size(args) + 1;
	return v;
}

int cli_open_db(struct cli *cli, const char *opt_db, enum kab_db_mode mode,
		struct kab_db **db)
{
	struct kab_err err;
	struct stat st;
	char *path;
	int ret;

	if (opt_db)
		path = xstrdup(opt_db);
	else if (cli->db_path)
		path = xstrdup(cli->db_path);
	else
		path = kab_db_default_path();
	/*
	 * kab makes its default's directory; one the user named that is
	 * not there is a typo more often than a wish
	 */
	if (mode != KAB_DB_READ && (opt_db || cli->db_path ||
				    getenv("KAB_DB")) && missing_dir(path)) {
		ret = cli_error(EXIT_USAGE, "%s: no directory %s: create it "
				"first (mkdir -p), or fix the path", path,
				missing_dir(path));
		free(path);
		return ret;
	}
	ret = kab_db_open(path, mode, db, &err);
	if (!ret && mode != KAB_DB_READ)
		cli_db_patient(*db);
	/* a database that is not there is missing data: 2, as a label */
	if (ret && mode == KAB_DB_READ && stat(path, &st) && errno == ENOENT)
		ret = EXIT_USAGE;
	else if (ret)
		ret = EXIT_RUN;
	free(path);
	if (ret)
		return cli_error(ret, "%s", err.msg);
	return 0;
}

/*
 * Kernels and initramfs images are booted from here: it must be the
 * user's own.  Without HOME the password database says where home is,
 * never a shared /tmp.
 */
char *cli_cache_dir(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	struct passwd *pw;
	struct stat st;
	char *cache;

	if ((!home || !*home) && (pw = getpwuid(getuid())))
		home = pw->pw_dir;
	if (xdg && *xdg)
		cache = xasprintf("%s/kab", xdg);
	else if (home && *home)
		cache = xasprintf("%s/.cache/kab", home);
	else {
		cli_error(EXIT_RUN, "no home directory for the cache: set "
			  "HOME or XDG_CACHE_HOME");
		return NULL;
	}
	if (mkdir_p(cache, 0755)) {
		cli_error(EXIT_RUN, "cannot create the cache %s: %m: set "
			  "XDG_CACHE_HOME", cache);
		free(cache);
		return NULL;
	}
	if (stat(cache, &st) || st.st_uid != getuid()) {
		cli_error(EXIT_RUN, "the cache %s is not yours: set "
			  "XDG_CACHE_HOME to a directory of your own", cache);
		free(cache);
		return NULL;
	}
	return cache;
}

int cli_bad_option(const char *cmd, int opt, char *const argv[],
		   const struct option *opts)
{
	const char *word = argv[optind - 1], *near = NULL;
	char sopt[3] = { '-', (char)optopt, '\0' }, name[72];
	const char *names[64];
	size_t nr = 0;
	int line = cli_config_line(optind - 1);

	opt_line = 0;	/* said here, in words of its own */
	/* an option of the config file: its line, not the command line */
	if (line && opt != ':')
		return cli_error(EXIT_USAGE, "%s:%d: '%s' is not an option of "
				 "kab %s: see 'kab %s --help'",
				 cli_config_path(), line, word, cmd, cmd);

	if (opt == ':')
		return cli_error(EXIT_USAGE, "%s%soption '%s' needs a value: see "
				 "'kab %s --help'", cmd, *cmd ? ": " : "",
				 word, cmd);
	if (optopt) {
		word = sopt;
	} else if (!strncmp(word, "--", 2) && opts) {
		/* --rnus=3 looks like --runs */
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(word + 2, "="),
			 word + 2);
		while (opts[nr].name && nr < ARRAY_SIZE(names)) {
			names[nr] = opts[nr].name;
			nr++;
		}
		near = kab_nearest(name, names, nr);
	}
	if (near)
		return cli_error(EXIT_USAGE, "%s%sunknown option '%s': did you "
				 "mean '--%s'? see 'kab %s%s--help'", cmd,
				 *cmd ? ": " : "", word, near, cmd,
				 *cmd ? " " : "");
	return cli_error(EXIT_USAGE, "%s%sunknown option '%s': see 'kab %s"
			 "%s--help'", cmd, *cmd ? ": " : "", word, cmd,
			 *cmd ? " " : "");
}

int cli_getopt(int argc, char *const argv[], const char *shortopts,
	       const struct option *opts)
{
	size_t i;
	int opt;

	if (optind == 1 && argc == 2 &&
	    !strcmp(argv[1], "--completion-helper")) {
		for (i = 0; opts[i].name; i++)
			printf("--%s%s\n", opts[i].name,
			       opts[i].has_arg == required_argument ? "=" : "");
		fflush(stdout);
		exit(EXIT_OK);
	}
	opt = getopt_long(argc, argv, shortopts, opts, NULL);
	opt_line = opt == -1 ? 0 : cli_config_line(optind - 1);
	return opt;
}

long long cli_run_id(const char *s)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v <= 0) {
		cli_error(EXIT_USAGE, "'%s' is not a run id: 'kab ls' lists "
			  "them", s);
		return -1;
	}
	return v;
}

static int unknown_command(const char *word)
{
	/* what other tools call kab's commands, and their typos */
	static const char *const alias[][2] = {
		{ "list", "ls" }, { "lsit", "ls" }, { "sl", "ls" },
		{ "remove", "rm" }, { "delete", "rm" }, { "del", "rm" },
		{ "diff", "compare" }, { "cmp", "compare" },
		{ "stat", "show" }, { "stats", "show" }, { "info", "show" },
		{ "test", "run" }, { "bench", "run" },
	};
	const char *names[ARRAY_SIZE(commands) + 1], *near = NULL;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(alias); i++)
		if (!strcmp(word, alias[i][0]))
			near = alias[i][1];
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		names[i] = commands[i].name;
	names[i] = "help";
	if (!near)
		near = kab_nearest(word, names, ARRAY_SIZE(names));
	if (near)
		return cli_error(EXIT_USAGE, "'%s' is not a kab command: did "
				 "you mean '%s'? see 'kab --help'", word, near);
	return cli_error(EXIT_USAGE, "'%s' is not a kab command: see 'kab "
			 "--help'", word);
}

/*
 * What a command printed is its result: a full disk or a closed pipe
 * under it is a failure, never exit 0 (ci gate's codes stay 0, 1, 2).
 */
static bool reader_gone(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLERR);
}

static int output_done(const char *cmd, int rc)
{
	if (fflush(stdout) != EOF && !ferror(stdout))
		return rc;
	/*
	 * A pipe whose reader left (kab run ... | head -2): what kab did
	 * stands, the run stored; the reader chose to read no more.
	 */
	if (reader_gone(STDOUT_FILENO))
		return rc;
	fprintf(stderr, "kab: %s: writing the output failed: %s: free some "
		"space or check where it goes\n", cmd, strerror(errno));
	if (rc != EXIT_OK)
		return rc;
	return strcmp(cmd, "ci") ? EXIT_RUN : EXIT_USAGE;
}

static bool label_word_ok(const char *s)
{
	size_t n = strlen(s);

	return n && n <= 200 && strspn(s, "abcdefghijklmnopqrstuvwxyz"
				      "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
				      "_-.+=:,@%/") == n;
}

static int add_word(void *arg, const struct kab_run *r)
{
	struct strbuf *sb = arg;
	char id[32];

	if (sb->len == (size_t)-1)
		return 0;
	snprintf(id, sizeof(id), "%lld\n", (long long)r->id);
	strbuf_add(sb, id, strlen(id));
	/*
	 * a label is offered when the shell can take it as one word: a
	 * name, or a command line's words (init_on_free=1, a,b=c:d)
	 */
	if (label_word_ok(r->kernel.label)) {
		strbuf_add(sb, "L", 1);
		strbuf_add(sb, r->kernel.label, strlen(r->kernel.label));
		strbuf_add(sb, "\n", 1);
	}
	return 0;
}

/*
 * kab [--db P] --completion-helper commands|jobs|runs|labels: the words
 * shell completion offers (hidden; contrib/completion/ calls it).
 */
static int complete_words(struct cli *cli, const char *what,
			  const char *arg)
{
	struct strbuf sb = STRBUF_INIT;
	struct kab_db *db;
	struct kab_err err;
	char **v, *line, *save, *path;
	size_t i;
	int n;

	if (!strcmp(what, "commands")) {
		for (i = 0; i < ARRAY_SIZE(commands); i++)
			printf("%s\n", commands[i].name);
		printf("help\n");
		return EXIT_OK;
	}
	if (!strcmp(what, "jobs")) {
		n = kab_job_names(&v);
		for (i = 0; i < (size_t)n; i++) {
			printf("%s\n", v[i]);
			free(v[i]);
		}
		free(v);
		return EXIT_OK;
	}
	if (!cli_complete_values(cli, what, arg))
		return EXIT_OK;
	if (strcmp(what, "runs") && strcmp(what, "labels"))
		return cli_error(EXIT_USAGE, "--completion-helper '%s': "
				 "commands, jobs, runs, labels, metrics, "
				 "params, monitors or formats CMD", what);
	path = cli->db_path ? xstrdup(cli->db_path) : kab_db_default_path();
	n = kab_db_open(path, KAB_DB_READ, &db, &err);
	free(path);
	/* no database yet: nothing to offer, quietly */
	if (n)
		return EXIT_OK;
	if (!kab_db_runs_foreach(db, add_word, &sb, &err) && sb.len) {
		char **seen = NULL;
		int nr = 0, j;

		for (line = strtok_r(sb.buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			bool label = *line == 'L';

			if (label != !strcmp(what, "labels"))
				continue;
			cli_push_arg(&seen, &nr, line + label);
		}
		/* each once, sorted: n log n over a database's runs */
		if (nr)
			qsort(seen, nr, sizeof(*seen), kab_strcmp_ptr);
		for (j = 0; j < nr; j++)
			if (!j || strcmp(seen[j - 1], seen[j]))
				printf("%s\n", seen[j]);
		free(seen);
	}
	strbuf_release(&sb);
	kab_db_close(db);
	return EXIT_OK;
}

/*
 * --quiet and --verbose after a command's name, up to "--": every
 * command takes them, so they are taken out before its own options
 * are parsed (kab build's --quiet is also its own).
 */
static int take_verbosity(int argc, char **argv, int skip)
{
	bool build = !strcmp(argv[0], "build");
	int i, o = skip;

	for (i = skip; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			while (i < argc)
				argv[o++] = argv[i++];
			break;
		}
		if (!strcmp(argv[i], "--quiet")) {
			cli_verbosity = -1;
			if (build)
				argv[o++] = argv[i];
			continue;
		}
		if (!strcmp(argv[i], "--verbose")) {
			cli_verbosity = 1;
			continue;
		}
		argv[o++] = argv[i];
	}
	argv[o] = NULL;
	return o;
}

int main(int argc, char **argv)
{
	struct cli cli = { 0 };
	size_t i;

	opterr = 0;	/* cli_bad_option() says it in one line */
	/*
	 * GSL's default handler aborts; a damaged database's numbers must
	 * give a NaN (no verdict), never kill kab (ci gate exits 0, 1, 2).
	 */
	gsl_set_error_handler_off();
	argv++, argc--;
	while (argc && argv[0][0] == '-') {
		if (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h")) {
			usage(stdout);
			return EXIT_OK;
		} else if (!strcmp(argv[0], "--version") ||
			   !strcmp(argv[0], "-V")) {
			printf("kab %s\n", KAB_VERSION);
			return EXIT_OK;
		} else if (!strcmp(argv[0], "--db")) {
			if (argc < 2)
				return cli_error(EXIT_USAGE, "option '--db' needs "
						 "a value, the database's path: "
						 "see 'kab --help'");
			cli.db_path = argv[1];
			argv += 2, argc -= 2;
		} else if (!strncmp(argv[0], "--db=", 5)) {
			cli.db_path = argv[0] + 5;
			argv++, argc--;
		} else if (!strcmp(argv[0], "--quiet") ||
			   !strcmp(argv[0], "-q")) {
			cli_verbosity = -1;
			argv++, argc--;
		} else if (!strcmp(argv[0], "--verbose") ||
			   !strcmp(argv[0], "-v")) {
			cli_verbosity = 1;
			argv++, argc--;
		} else if (!strcmp(argv[0], "--completion-helper")) {
			return output_done("", complete_words(&cli, argc > 1 ?
						argv[1] : "commands",
						argc > 2 ? argv[2] : NULL));
		} else {
			return cli_error(EXIT_USAGE, "unknown option '%s': see "
					 "'kab --help'", argv[0]);
		}
	}
	if (!argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	/* opening and migrating wait for another writer as long */
	kab_db_default_patience(-1, &kab_stop_requested, lock_note, NULL);
	{
		const char *names[ARRAY_SIZE(commands)];

		for (i = 0; i < ARRAY_SIZE(commands); i++)
			names[i] = commands[i].name;
		if (cli_config_load(names, ARRAY_SIZE(names)))
			return EXIT_USAGE;
	}
	/* the config's database is below --db and $KAB_DB */
	if (!cli.db_path && !(getenv("KAB_DB") && *getenv("KAB_DB")))
		cli.db_path = cli_config_db();
	if (argc < 2 || strcmp(argv[1], "--completion-helper")) {
		bool ci = !strcmp(argv[0], "ci") && argc > 1;
		char *section = ci ? xasprintf("ci-%s", argv[1]) :
				xstrdup(argv[0]);

		argv = cli_config_argv(section, ci ? 2 : 1, &argc, argv);
		free(section);
		argc = take_verbosity(argc, argv, ci ? 2 : 1);
	}
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[0], commands[i].name))
			return output_done(argv[0],
					   commands[i].fn(&cli, argc, argv));
	if (!strcmp(argv[0], "version")) {
		printf("kab %s\n", KAB_VERSION);
		return EXIT_OK;
	}
	if (!strcmp(argv[0], "help")) {
		/* kab help CMD is kab CMD --help */
		char *help[] = { argc > 1 ? argv[1] : NULL, "--help", NULL };

		for (i = 0; argc > 1 && i < ARRAY_SIZE(commands); i++)
			if (!strcmp(argv[1], commands[i].name))
				return output_done(argv[1], commands[i].fn(
					&cli, 2, help));
		if (argc > 1)
			return unknown_command(argv[1]);
		usage(stdout);
		return EXIT_OK;
	}
	return unknown_command(argv[0]);
}
