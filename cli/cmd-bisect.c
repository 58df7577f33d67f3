// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-bisect.c - kab bisect: find the commit that moved a metric.
 *
 * First both endpoints are measured, interleaved, and the metric must
 * really differ between them (significant, and beyond the noise floor)
 * or there is nothing to bisect.  Then git bisect run drives kab
 * bisect-step in kab's own worktree of the tree.  Everything is stored
 * (the bisect, each tested commit, every run), so an interrupted bisect
 * resumes without measuring a commit twice, and --show prints it again.
 */
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "bisect.h"

static void bisect_usage(FILE *f)
{
	fprintf(f,
		"usage: kab bisect --tree DIR --good REV --bad REV --job JOB "
		"--metric NAME\n"
		"                  [options]\n"
		"       kab bisect --resume ID | --show ID | --list\n"
		"\n"
		"Finds the first commit between --good (old behaviour) and "
		"--bad (new)\nthat moved --metric.  Each endpoint is built "
		"(kab build), booted --boots\ntimes (3) with --runs iterations "
		"each (3), interleaved; unless the metric\ndiffers "
		"significantly at --alpha (0.05; Welch's t on the boot "
		"means) by\nmore than the noise floor (--noise %%, 1, or the "
		"endpoints' own %%stddev if larger),\nkab stops and says so.  "
		"Then git bisect run calls kab bisect-step on\neach commit, in "
		"kab's worktree: your checkout is never touched.  A\ncommit "
		"is like-good or like-bad by its samples against both "
		"endpoints';\none that resembles neither is booted again, up "
		"to --max-boots (3), then\nskipped, as are commits that do "
		"not build or boot.  The first bad commit\nis then checked "
		"against its parent, as KernelCI checks a culprit: both\nare "
		"booted again, interleaved, until their comparison is decided "
		"(at\nmost --max-boots rounds), and kab says whether the change "
		"is verified\nas that commit's.\n"
		"\n");
	bisect_options_help(f, false);
	fprintf(f,
		"  --resume ID          go on with bisect ID where it stopped\n"
		"  --show ID            its steps and verdict\n"
		"  --list               the bisects stored\n"
		"\nExit status: 0 a first bad commit was found, 1 nothing to "
		"bisect or\nthe bisect could not decide, 2 usage, 130 interrupted "
		"(^C; --resume goes on).\n");
}

/* Both endpoints, interleaved good bad good bad, as one A/B. */
static int endpoints(struct bisect_ctx *b, struct kab_db *db, long long id,
		     const char *good, const char *bad,
		     struct kab_bisect_row *row)
{
	struct kab_drv_measured m[2] = { { 0 }, { 0 } };
	const char *rev[2] = { good, bad };
	struct kab_err err;
	char *runs;
	int i, k, ret = -1;

	if (row->good_runs && row->bad_runs)
		return 0;
	for (k = 0; k < b->o->boots; k++)
		for (i = 0; i < 2; i++) {
			int r = bisect_measure(b, rev[i], 1, &m[i]);

			if (r > 0)
				cli_error(EXIT_RUN, "the %s endpoint %.12s "
					  "cannot be measured: %s: nothing to "
					  "bisect", i ? b->o->term_new :
					  b->o->term_old, rev[i], m[i].why);
			if (r)
				goto out;
		}
	for (i = 0; i < 2; i++) {
		runs = runs_join(m[i].runs, m[i].nr);
		if (kab_db_bisect_set(db, id, i ? "bad_runs" : "good_runs",
				      runs, &err)) {
			free(runs);
			cli_error(EXIT_RUN, "%s", err.msg);
			goto out;
		}
		free(i ? row->bad_runs : row->good_runs);
		if (i)
			row->bad_runs = runs;
		else
			row->good_runs = runs;
	}
	ret = 0;
out:
	kab_drv_measured_free(&m[0]);
	kab_drv_measured_free(&m[1]);
	return ret;
}

/* *runs with more ("3,4") appended, in place */
static void add_runs_str(char **runs, const char *more)
{
	char *all = *runs ? xasprintf("%s,%s", *runs, more) : xstrdup(more);

	free(*runs);
	*runs = all;
}

/* runs, with the runs of m appended, into *runs */
static void add_runs(char **runs, const struct kab_drv_measured *m)
{
	char *more = runs_join(m->runs, m->nr);

	add_runs_str(runs, more);
	free(more);
}

/*
 * A culprit is checked before it is named, as KernelCI does: it and its
 * parent are booted again, a boot each a round, interleaved, until
 * their comparison is decided or --max-boots rounds have not decided
 * it; the boots the bisect already gave them count.  What it found is
 * stored with the bisect and said.
 */
static void verify(struct bisect_ctx *b, struct kab_db *db, long long id,
		   const char *first, const struct kab_bisect_row *row)
{
	const struct bisect_opts *o = b->o;
	char *up = xasprintf("%s^", first), *parent, *runs[2] = { NULL };
	struct bisect_endpoints ends;
	struct bisect_history h;
	struct bisect_check chk;
	struct kab_err err;
	char *sentence;
	int round, i;

	parent = kab_cmd_line(o->tree, NULL, "git", "rev-parse", "--verify",
			      "-q", up, NULL);
	free(up);
	if (!parent)
		return;		/* the root commit: nothing before it */
	if (bisect_endpoints_test(db, o->metric, row->good_runs,
				  row->bad_runs, o->alpha, o->noise, &ends,
				  &err) ||
	    bisect_history_load(db, id, o->tree, &h, &err)) {
		free(parent);
		return;
	}
	/* a resumed bisect keeps the boots an earlier check stored */
	runs[0] = h.r.parent_runs ? xstrdup(h.r.parent_runs) :
		  bisect_commit_runs(&h, parent);
	runs[1] = h.r.culprit_runs ? xstrdup(h.r.culprit_runs) :
		  bisect_commit_runs(&h, first);
	bisect_history_free(&h);
	for (round = 0;; round++) {
		if (bisect_check_culprit(db, o->metric, runs[0], runs[1],
					 o->alpha, o->noise, ends.change, &chk,
					 &err))
			break;
		if (chk.confirmed || round >= o->max_boots || kab_stop_requested)
			break;
		if (!round && cli_progress())
			fprintf(stderr, "kab: bisect %lld: checking %.12s "
				"against its parent %.12s, booted again "
				"interleaved\n", id, first, parent);
		for (i = 0; i < 2 && !kab_stop_requested; i++) {
			struct kab_drv_measured m = { 0 };

			/* the boots it has are seeds 1..n: the next is n + 1 */
			free(runs_split(runs[i], &m.earlier));
			if (bisect_measure(b, i ? first : parent, 1, &m)) {
				kab_drv_measured_free(&m);
				goto out;
			}
			add_runs(&runs[i], &m);
			kab_drv_measured_free(&m);
		}
		kab_db_bisect_set(db, id, "parent_runs", runs[0], &err);
		kab_db_bisect_set(db, id, "culprit_runs", runs[1], &err);
	}
	if (kab_stop_requested)
		goto out;
	sentence = bisect_check_sentence(&chk, parent, first);
	kab_db_bisect_set(db, id, "parent_runs", runs[0], &err);
	kab_db_bisect_set(db, id, "culprit_runs", runs[1], &err);
	kab_db_bisect_set(db, id, "verified", sentence, &err);
	fprintf(stderr, "kab: %s\n", sentence);
	free(sentence);
out:
	free(runs[0]);
	free(runs[1]);
	free(parent);
}

/* Does the metric really differ between the endpoints?  *why says. */
static int really_differs(struct kab_db *db, const struct bisect_opts *o,
			  const struct kab_bisect_row *row, char **why)
{
	struct bisect_endpoints e;
	struct kab_err err;

	if (bisect_endpoints_test(db, o->metric, row->good_runs,
				  row->bad_runs, o->alpha, o->noise, &e,
				  &err)) {
		*why = xstrdup(err.msg);
		return 0;
	}
	*why = xasprintf("%s: %s %.12s mean %g (%zu boot%s), %s %.12s mean "
			 "%g (%zu boot%s): %+.1f%%, p = %.2g (t-test of the "
			 "boot means%s), noise floor %.1f%%", o->metric,
			 o->term_old, o->good, e.good_mean, e.good_boots,
			 e.good_boots == 1 ? "" : "s",
			 o->term_new, o->bad, e.bad_mean, e.bad_boots,
			 e.bad_boots == 1 ? "" : "s",
			 e.change, e.p, e.good_boots < 2 || e.bad_boots < 2 ?
			 ": one boot a side cannot be tested, give --boots 2 "
			 "or more" : "", e.floor);
	return e.differs;
}

/*
 * This kab's path, for git bisect run to call bisect-step with.  A kab
 * rebuilt or upgraded during a bisect of hours is " (deleted)" to the
 * kernel: the new binary at the same path carries on.
 */
char *cli_self_exe(void)
{
	static const char gone[] = " (deleted)";
	char buf[4096];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	size_t g = sizeof(gone) - 1;

	if (n <= 0)
		return xstrdup("kab");
	buf[n] = '\0';
	if ((size_t)n > g && !strcmp(buf + n - g, gone)) {
		buf[n - g] = '\0';
		if (access(buf, X_OK))
			buf[n - g] = ' ';
	}
	return xstrdup(buf);
}

/*
 * git bisect run is a shell script whose helper outlives a killed kab:
 * its process group is remembered next to the worktree, and a bisect
 * that starts there later stops what is left of it first.
 */
static void stop_leftover(const char *pidfile)
{
	struct strbuf sb = STRBUF_INIT, cmd = STRBUF_INIT;
	char *proc;
	pid_t pg;
	int i;

	if (read_file(pidfile, &sb, NULL))
		return;
	pg = atoi(sb.buf);
	proc = xasprintf("/proc/%d/cmdline", (int)pg);
	if (pg > 1 && !read_file(proc, &cmd, NULL) && cmd.len &&
	    strstr(cmd.buf, "git")) {
		fprintf(stderr, "kab: stopping the git bisect run left by a "
			"kab bisect that was killed (process group %d)\n",
			(int)pg);
		kill(-pg, SIGTERM);
		for (i = 0; i < 50 && !kill(-pg, 0); i++)
			usleep(100000);
		kill(-pg, SIGKILL);
		for (i = 0; i < 50 && !kill(-pg, 0); i++)
			usleep(100000);
	}
	unlink(pidfile);
	free(proc);
	strbuf_release(&sb);
	strbuf_release(&cmd);
}

/*
 * No verdict of an earlier bisect may survive into this one: git bisect
 * reset, then whatever refs/bisect/ still holds is deleted.
 */
static void clear_bisect_state(const char *wt)
{
	char *refs, *line, *save;

	free(kab_cmd_line(wt, NULL, "git", "bisect", "reset", NULL));
	refs = kab_cmd_line(wt, NULL, "git", "for-each-ref",
			    "--format=%(refname)", "refs/bisect/", NULL);
	if (!refs)
		return;
	for (line = strtok_r(refs, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		free(kab_cmd_line(wt, NULL, "git", "update-ref", "-d", line,
				  NULL));
	free(refs);
}

/* The commits whose latest step resembled neither endpoint. */
struct noise_skips {
	char (*commit)[41];
	bool *noise;
	size_t nr;
};

static int note_noise_skip(void *arg, const struct kab_bisect_step *st,
			   const char *when)
{
	struct noise_skips *ns = arg;
	size_t i;

	(void)when;
	for (i = 0; i < ns->nr; i++)
		if (!strcmp(ns->commit[i], st->commit))
			break;
	if (i == ns->nr) {
		ns->commit = xrealloc(ns->commit, (i + 1) * sizeof(*ns->commit));
		ns->noise = xrealloc(ns->noise, (i + 1) * sizeof(*ns->noise));
		snprintf(ns->commit[i], sizeof(ns->commit[i]), "%s",
			 st->commit);
		ns->nr++;
	}
	ns->noise[i] = !strcmp(st->verdict, "skip") && st->reason &&
		       !strncmp(st->reason, "resembles neither", 17);
	return 0;
}

/* How many commits a resumed bisect would measure again for the noise. */
static size_t count_noise_skips(struct kab_db *db, long long id)
{
	struct noise_skips ns = { 0 };
	struct kab_err err;
	size_t i, n = 0;

	if (!kab_db_bisect_steps(db, id, note_noise_skip, &ns, &err))
		for (i = 0; i < ns.nr; i++)
			n += ns.noise[i];
	free(ns.commit);
	free(ns.noise);
	return n;
}

/* git bisect in kab's worktree; the first bad commit or NULL. */
static char *run_git_bisect(struct bisect_ctx *b, struct kab_db *db,
			    long long id, const char *good, const char *bad,
			    char **why)
{
	const struct bisect_opts *o = b->o;
	struct strbuf log = STRBUF_INIT;
	struct kab_err err;
	char *wt, *self = cli_self_exe(), ids[32], *told, *tnew, *r, *first = NULL;
	char *needle, *pidfile = NULL, owner[32];
	int rc;

	wt = kab_tree_worktree(o->tree, b->cache, &err);
	if (!wt) {
		*why = xstrdup(err.msg);
		free(self);
		return NULL;
	}
	pidfile = xasprintf("%s.bisect-pid", wt);
	stop_leftover(pidfile);
	clear_bisect_state(wt);
	told = xasprintf("--term-old=%s", o->term_old);
	tnew = xasprintf("--term-new=%s", o->term_new);
	r = kab_cmd_line(wt, &err, "git", "bisect", "start", told, tnew, bad,
			 good, NULL);
	free(told);
	free(tnew);
	if (!r) {
		*why = xasprintf("git bisect start failed: %s", err.msg);
		goto out;
	}
	free(r);
	snprintf(ids, sizeof(ids), "%lld", id);
	snprintf(owner, sizeof(owner), "%d", (int)getpid());
	{
		char *argv[16] = { "git", "bisect", "run", self, "--db",
				   (char *)kab_db_path(db) };
		size_t na = 6;
		struct kab_spawn s = { .cwd = wt,
				       .merge_stderr = true,
				       .pdeathsig = SIGTERM, .new_pgrp = true };
		char *tokenv[2] = { NULL, NULL };
		int fd, pf;
		pid_t pid;
		char buf[4096];
		ssize_t n;

		/* the steps say as much as this kab was asked to */
		if (cli_verbosity)
			argv[na++] = cli_verbosity < 0 ? "--quiet" :
				     "--verbose";
		argv[na++] = "bisect-step";
		argv[na++] = "--bisect";
		argv[na++] = ids;
		argv[na++] = "--owner";
		argv[na++] = owner;
		argv[na] = NULL;
		s.argv = argv;
		/*
		 * the steps are kab too: a LAVA token from the environment
		 * (which kab took out of its own) goes to them alone, a
		 * config's they read themselves
		 */
		if (o->lava.token && o->lava.token !=
		    cli_config_get("lava", "token")) {
			tokenv[0] = xasprintf("KAB_LAVA_TOKEN=%s",
					      o->lava.token);
			s.env = tokenv;
		}
		/* git's chatter goes to stderr; kab's table to stdout */
		pid = kab_spawn(&s, &fd, &err);
		if (tokenv[0]) {
			memset(tokenv[0], 0, strlen(tokenv[0]));
			free(tokenv[0]);
			tokenv[0] = NULL;
		}
		if (pid < 0) {
			*why = xstrdup(err.msg);
			goto out;
		}
		pf = open(pidfile, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			  0644);
		if (pf >= 0) {
			dprintf(pf, "%d\n", (int)pid);
			close(pf);
		}
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			if (write_all(2, buf, n))
				break;
		close(fd);
		rc = kab_wait(pid);
	}
	if (kab_stop_requested) {
		*why = xstrdup("interrupted");
		goto out;
	}
	{
		char *const argv[] = { "git", "bisect", "log", NULL };
		struct kab_spawn s = { .argv = argv, .cwd = wt, .quiet = true };

		kab_run_capture(&s, &log, &err);
	}
	needle = xasprintf("# first %s commit: [", o->term_new);
	if (log.buf && (r = strstr(log.buf, needle))) {
		r += strlen(needle);
		first = xasprintf("%.40s", r);
	} else if (log.buf && strstr(log.buf, "# only skipped commits left")) {
		size_t noisy = count_noise_skips(db, id);
		char *hint = cli_resume_hint(kab_db_path(db), "bisect", id);

		/* a busy host can leave a commit between the endpoints */
		*why = noisy ?
		       xasprintf("only skipped commits are left: the first "
				 "bad commit is one of those git bisect "
				 "listed above; %zu of them resembled neither "
				 "endpoint, which a busy host can cause: %s "
				 "measures %s again", noisy, hint,
				 noisy > 1 ? "those" : "it") :
		       xstrdup("only skipped commits are left: the first bad "
			       "commit is one of those git bisect listed "
			       "above");
		free(hint);
	} else {
		*why = xasprintf("git bisect run stopped (exit %d) without a "
				 "first %s commit", rc, o->term_new);
	}
	free(needle);
out:
	free(kab_cmd_line(wt, NULL, "git", "bisect", "reset", NULL));
	if (pidfile)
		unlink(pidfile);
	free(pidfile);
	strbuf_release(&log);
	free(wt);
	free(self);
	return first;
}

/*
 * Paths made absolute (bisect-step runs in kab's worktree), revisions
 * made commits (a resumed bisect must not follow a moved HEAD).
 */
static const char *resolved_good, *resolved_bad;

static json_t *path_arg(const char *opt, const char *val)
{
	static const char *const paths[] = { "--job", "--tree", "--kconfig",
					     "--base", NULL };
	char *real, *found = NULL;
	struct kab_err err;
	json_t *j;
	int i;

	if (!strcmp(opt, "--good"))
		return json_string(resolved_good);
	if (!strcmp(opt, "--bad"))
		return json_string(resolved_bad);
	for (i = 0; paths[i] && strcmp(opt, paths[i]); i++)
		;
	if (i == 0 && !kab_job_find(val, &found, &err))
		val = found;	/* a job's name: the file it names */
	real = paths[i] ? realpath(val, NULL) : NULL;
	j = json_string(real ? real : val);
	free(real);
	free(found);
	return j;
}

static json_t *stored_args(int argc, char **argv)
{
	json_t *args = json_array();
	int i;

	/* everything but the database and --resume */
	for (i = 1; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');

		if ((!strcmp(argv[i], "--db") || !strcmp(argv[i], "--resume"))
		    && i + 1 < argc) {
			i++;
			continue;
		}
		if (!strncmp(argv[i], "--db=", 5) ||
		    !strncmp(argv[i], "--resume=", 9))
			continue;
		if (!strncmp(argv[i], "--", 2) && eq) {
			char *opt = xasprintf("%.*s", (int)(eq - argv[i]),
					      argv[i]);

			json_array_append_new(args, json_string(opt));
			json_array_append_new(args, path_arg(opt, eq + 1));
			free(opt);
			continue;
		}
		json_array_append_new(args, json_string(argv[i]));
		if (!strncmp(argv[i], "--", 2) && i + 1 < argc &&
		    strcmp(argv[i], "--list")) {
			json_array_append_new(args, path_arg(argv[i],
							     argv[i + 1]));
			i++;
		}
	}
	return args;
}

static int list_bisects(struct kab_db *db)
{
	long long id;
	int shown = 0;

	for (id = 1;; id++) {
		struct kab_bisect_row r;
		struct kab_err err;

		if (kab_db_bisect_get(db, id, &r, &err))
			break;
		printf("%lld  %-9s %s  %s..%s  %s%s%.12s\n", id,
		       cli_vis(r.status), cli_vis(r.created_at),
		       cli_vis(r.good), cli_vis(r.bad), cli_vis(r.metric),
		       r.first_bad ? "  first bad " : "",
		       r.first_bad ? cli_vis(r.first_bad) : "");
		kab_bisect_row_free(&r);
		shown++;
	}
	if (!shown)
		printf("(no bisects in %s)\n", kab_db_path(db));
	return EXIT_OK;
}

static int bisect_run(struct kab_db *db, const struct bisect_opts *o,
		      long long id)
{
	struct kab_bisect_row row;
	struct bisect_ctx b;
	struct kab_err err;
	char *good = NULL, *bad = NULL, *why = NULL, *first = NULL;
	char *hint = NULL;
	int rc = EXIT_RUN, lock = -1;

	if (kab_db_bisect_get(db, id, &row, &err))
		return cli_error(EXIT_RUN, "%s", err.msg);
	if (!kab_tree_is_git(o->tree)) {
		rc = cli_error(EXIT_USAGE, "%s is not the top of a git tree: "
			       "kab bisect needs the history", o->tree);
		goto out_row;
	}
	good = kab_tree_commit(o->tree, o->good, &err);
	bad = good ? kab_tree_commit(o->tree, o->bad, &err) : NULL;
	if (!bad) {
		rc = cli_error(EXIT_USAGE, "%s", err.msg);
		goto out_row;
	}
	if (bisect_ctx_init(&b, o, db)) {
		rc = EXIT_USAGE;
		goto out_ctx;
	}
	lock = kab_tree_lock(o->tree, b.cache, &err);
	if (lock < 0) {
		cli_error(EXIT_RUN, "%s", err.msg);
		goto out_ctx;
	}
	hint = cli_resume_hint(kab_db_path(db), "bisect", id);
	if (cli_progress())
		fprintf(stderr, "kab: bisect %lld of %s between %s %.12s and "
			"%s %.12s (if it stops: %s)\n",
			id, o->metric, o->term_old, good, o->term_new, bad,
			hint);
	if (endpoints(&b, db, id, good, bad, &row))
		goto out_ctx;
	if (!really_differs(db, o, &row, &why)) {
		fprintf(stderr, "kab: %s\n", why);
		cli_error(EXIT_RUN, "%s does not really differ between the "
			  "endpoints: nothing to bisect (more --boots or "
			  "--runs may show a smaller change)", o->metric);
		kab_db_bisect_finish(db, id, "no-change", NULL, why, &err);
		goto out_ctx;
	}
	fprintf(stderr, "kab: %s: bisecting\n", why);
	free(why);
	why = NULL;
	first = run_git_bisect(&b, db, id, good, bad, &why);
	if (!first) {
		if (!kab_stop_requested)
			kab_db_bisect_finish(db, id, "inconclusive", NULL, why,
					     &err);
		cli_error(EXIT_RUN, "bisect %lld: %s", id, why);
		goto out_ctx;
	}
	verify(&b, db, id, first, &row);
	if (kab_stop_requested) {
		cli_error(EXIT_RUN, "bisect %lld: stopped while checking %.12s "
			  "against its parent: %s goes on", id, first, hint);
		goto out_ctx;
	}
	kab_db_bisect_finish(db, id, "done", first, NULL, &err);
	printf("\n");
	bisect_show(db, id);
	rc = EXIT_OK;
out_ctx:
	if (lock >= 0)
		close(lock);
	bisect_ctx_free(&b);
out_row:
	kab_bisect_row_free(&row);
	free(good);
	free(bad);
	free(why);
	free(first);
	free(hint);
	return rc;
}

int cmd_bisect(struct cli *cli, int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = runjob_on_signal };
	struct bisect_opts o, stored = { 0 };
	struct kab_bisect_row row = { 0 };
	json_t *args = NULL;
	struct kab_db *db;
	struct kab_err err;
	int64_t id;
	int rc;

	rc = bisect_parse(argc, argv, CMD_BISECT, &o);
	if (rc < 0) {
		bisect_usage(stdout);
		bisect_opts_free(&o);
		return EXIT_OK;
	}
	if (rc) {
		bisect_opts_free(&o);
		return rc;
	}
	if (cli_open_db(cli, o.db, o.show || o.list ? KAB_DB_READ :
			KAB_DB_WRITE, &db)) {
		bisect_opts_free(&o);
		return EXIT_RUN;
	}
	if (o.list) {
		rc = list_bisects(db);
		goto out;
	}
	if (o.show) {
		rc = bisect_show(db, o.show);
		goto out;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (o.resume) {
		char **v;
		int n;

		if (kab_db_bisect_get(db, o.resume, &row, &err)) {
			rc = cli_error(EXIT_USAGE, "%s", err.msg);
			goto out;
		}
		args = json_loads(row.argv, 0, NULL);
		v = cli_stored_argv(args, "bisect", "bisect", o.resume, &n);
		if (!v) {
			rc = EXIT_RUN;
			goto out;
		}
		rc = bisect_parse(n, v, CMD_BISECT, &stored);
		free(v);
		if (rc) {
			rc = EXIT_RUN;
			goto out;
		}
		if (!strcmp(row.status, "done")) {
			rc = bisect_show(db, o.resume);
			goto out;
		}
		rc = bisect_run(db, &stored, o.resume);
		goto out;
	}
	{
		char *s, *good, *bad = NULL;

		good = kab_tree_is_git(o.tree) ?
		       kab_tree_commit(o.tree, o.good, &err) : NULL;
		bad = good ? kab_tree_commit(o.tree, o.bad, &err) : NULL;
		if (!bad) {
			free(good);
			rc = cli_error(EXIT_USAGE, "%s", kab_tree_is_git(o.tree)
				       ? err.msg : "--tree: kab bisect needs "
				       "the top of a git tree");
			goto out;
		}
		/* a range git bisect cannot walk costs no boot */
		if (!strcmp(good, bad) ||
		    !kab_tree_is_ancestor(o.tree, good, bad)) {
			rc = cli_error(EXIT_USAGE, "--good %s %s --bad %s "
				       "in %s: give the last good commit and "
				       "a later bad one%s", o.good,
				       strcmp(good, bad) ? "is not an "
				       "ancestor of" : "is the same commit as",
				       o.bad, o.tree,
				       strcmp(good, bad) &&
				       kab_tree_is_ancestor(o.tree, bad, good) ?
				       " (these are the other way round)" : "");
			free(good);
			free(bad);
			goto out;
		}
		/* a job that cannot be bisected leaves no bisect behind */
		rc = bisect_check_job(&o);
		if (rc) {
			free(good);
			free(bad);
			goto out;
		}
		resolved_good = good;
		resolved_bad = bad;
		args = stored_args(argc, argv);
		s = json_dumps(args, JSON_COMPACT);
		rc = kab_db_bisect_create(db, s, o.metric, good, bad, &id,
					  &err);
		free(s);
		free(good);
		free(bad);
		if (rc) {
			rc = cli_error(EXIT_RUN, "%s", err.msg);
			goto out;
		}
	}
	rc = bisect_run(db, &o, id);
out:
	kab_bisect_row_free(&row);
	json_decref(args);
	bisect_opts_free(&stored);
	bisect_opts_free(&o);
	kab_db_close(db);
	return runjob_stop_code(rc);
}
