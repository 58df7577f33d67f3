// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-bisect-step.c - kab bisect-step: what git bisect run calls on each
 * commit.  Builds, boots and measures HEAD, tests its boot means against
 * both endpoints' after every boot (each look at its share of alpha,
 * so that looking again does not raise the error) and answers with git's exit codes: 0 like the good
 * (old) endpoint, 1 like the bad (new) one, 125 skip (it does not
 * build or boot, or still resembles neither after --max-boots boots),
 * 255 to stop the bisect on an error of kab's own.  Nothing else: an
 * exit code git would read as a verdict by accident is never used.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "bisect.h"

static void step_usage(FILE *f)
{
	fprintf(f,
		"usage: git bisect run kab bisect-step --metric NAME "
		"--good-run IDS --bad-run IDS\n"
		"                      --job JOB [options]\n"
		"\n"
		"Builds the commit checked out in the current directory "
		"(in kab's own\nworktree of it), boots it under QEMU, runs "
		"the job --runs times and\ncompares --metric with the "
		"endpoints' runs (kab ls lists runs; kab run\n--tree . --rev "
		"REV measures one).  Exit status, as git bisect run reads\nit: "
		"0 like the good runs, 1 like the bad runs, 125 skip (does not "
		"build\nor boot, or resembles neither after --max-boots boots), "
		"255 an error\nthat stops the bisect.\n"
		"\n"
		"  --good-run IDS       the good endpoint's runs (3,4,5)\n"
		"  --bad-run IDS        the bad endpoint's runs\n"
		"  --bisect ID          the bisect kab bisect runs (it starts "
		"bisect-step so)\n"
		"  --owner PID          kab bisect's process: the step stops "
		"when it is gone\n");
	bisect_options_help(f, false);
}

struct found {
	const char *commit;
	char verdict[8];
	char *runs;
	int steps;		/* stored so far */
};

static int find_step(void *arg, const struct kab_bisect_step *s,
		     const char *when)
{
	struct found *f = arg;

	(void)when;
	f->steps++;
	if (strcmp(s->commit, f->commit) || !strcmp(s->verdict, "skip"))
		return 0;
	snprintf(f->verdict, sizeof(f->verdict), "%s", s->verdict);
	free(f->runs);
	f->runs = s->runs ? xstrdup(s->runs) : NULL;
	return 0;
}

/* The options of bisect ID, as kab bisect stored them. */
static int load_bisect(struct kab_db *db, long long id, json_t **args,
		       struct bisect_opts *o, struct kab_bisect_row *row)
{
	struct kab_err err;
	char **v;
	json_t *a;
	size_t i;
	int rc;

	if (kab_db_bisect_get(db, id, row, &err))
		return cli_error(EXIT_USAGE, "%s", err.msg);
	*args = json_loads(row->argv, 0, NULL);
	if (!json_is_array(*args))
		return cli_error(EXIT_RUN, "bisect %lld's arguments are "
				 "damaged", id);
	v = xcalloc(json_array_size(*args) + 2, sizeof(*v));
	v[0] = "bisect-step";
	json_array_foreach(*args, i, a)
		v[i + 1] = (char *)json_string_value(a);
	rc = bisect_parse((int)json_array_size(*args) + 1, v, CMD_BISECT, o);
	free(v);
	if (rc)
		return rc < 0 ? EXIT_USAGE : rc;
	o->good_runs = row->good_runs;
	o->bad_runs = row->bad_runs;
	if (!o->good_runs || !o->bad_runs)
		return cli_error(EXIT_RUN, "bisect %lld has not measured its "
				 "endpoints yet", id);
	return 0;
}

/* Seconds since an ISO 8601 UTC time, or -1. */
static double since(const char *iso)
{
	struct tm tm = { 0 };
	const char *end = iso ? strptime(iso, "%Y-%m-%dT%H:%M:%S", &tm) : NULL;

	if (!end)
		return -1;
	return now_wall() - (double)timegm(&tm);
}

static void fmt_hms(double s, char *buf, size_t n)
{
	long t = s < 0 ? 0 : (long)(s + 0.5);

	snprintf(buf, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
}

/*
 * A line as each step starts, in a CI log as on a terminal: which step,
 * the steps git says are left after it, the time so far and, at the
 * pace so far (the endpoints counted as a step), the time to go.
 */
static void step_progress(const struct bisect_opts *o, long long id,
			  const char *commit, int done, const char *created_at)
{
	char *bad = xasprintf("refs/bisect/%s", o->term_new);
	char *good = xasprintf("--glob=refs/bisect/%s-*", o->term_old);
	char *vars = kab_cmd_line(NULL, NULL, "git", "rev-list",
				  "--bisect-vars", bad, "--not", good, NULL);
	char *p = vars ? strstr(vars, "bisect_steps=") : NULL;
	double el = since(created_at);
	int left = p ? atoi(p + strlen("bisect_steps=")) : -1;
	char e[32], eta[32];

	if (!cli_progress())
		goto out;
	fmt_hms(el, e, sizeof(e));
	fmt_hms(el / (done + 1) * (left + 1), eta, sizeof(eta));
	fprintf(stderr, "kab: bisect %lld: step %d at %.12s", id, done + 1,
		commit);
	if (left >= 0)
		fprintf(stderr, ", about %d more after it", left);
	if (el >= 0)
		fprintf(stderr, ", elapsed %s", e);
	if (el >= 0 && left >= 0)
		fprintf(stderr, ", ETA %s", eta);
	fputc('\n', stderr);
out:
	free(vars);
	free(bad);
	free(good);
}

static int step(struct kab_db *db, const struct bisect_opts *o, long long id,
		const char *created_at)
{
	struct bisect_ctx b = { 0 };
	struct kab_drv_measured m = { 0 };
	struct kab_classify cl = { .like = KAB_LIKE_NEITHER };
	struct kab_bisect_step st = { 0 };
	struct found f = { 0 };
	struct kab_err err;
	int64_t *good = NULL, *bad = NULL;
	double *gv = NULL, *bv = NULL, *xv = NULL, floor;
	size_t ng = 0, nb = 0, nx = 0, ngr, nbr;
	char *commit, *runs = NULL, *reason = NULL;
	int boots, rc = STEP_ABORT;

	commit = kab_cmd_line(NULL, &err, "git", "rev-parse", "HEAD", NULL);
	if (!commit) {
		cli_error(EXIT_USAGE, "bisect-step runs in a git checkout, "
			  "under git bisect run: %s", err.msg);
		return STEP_ABORT;
	}
	good = runs_split(o->good_runs, &ngr);
	bad = runs_split(o->bad_runs, &nbr);
	if (!good || !bad) {
		cli_error(EXIT_USAGE, "--good-run/--bad-run: give run ids, "
			  "e.g. 3,4,5");
		goto out;
	}
	gv = bisect_boot_means(db, o->metric, good, ngr, &ng);
	bv = bisect_boot_means(db, o->metric, bad, nbr, &nb);
	/* endpoints timed by instructions: exact mode's resolution */
	floor = bisect_floor(db, good, ngr) && bisect_floor(db, bad, nbr) ?
		kab_exact_floor() : 0;
	if (!ng || !nb) {
		cli_error(EXIT_USAGE, "the endpoint runs have no %s samples: "
			  "kab show %s lists their metrics", o->metric,
			  o->good_runs);
		goto out;
	}
	/* A resumed bisect does not measure a commit twice. */
	f.commit = commit;
	if (id && !kab_db_bisect_steps(db, id, find_step, &f, &err) &&
	    f.verdict[0]) {
		fprintf(stderr, "kab: bisect-step %.12s: %s, as measured "
			"before (runs %s)\n", commit, f.verdict,
			f.runs ? f.runs : "");
		rc = !strcmp(f.verdict, "good") ? STEP_GOOD : STEP_BAD;
		goto out;
	}
	if (id)
		step_progress(o, id, commit, f.steps, created_at);
	if (bisect_ctx_init(&b, o, db)) {
		bisect_ctx_free(&b);
		goto out;
	}
	for (boots = 0; boots < o->max_boots; boots++) {
		int r = bisect_measure(&b, commit, 1, &m);

		if (r < 0)
			break;
		if (r > 0) {
			reason = xstrdup(m.why);
			break;
		}
		free(xv);
		xv = bisect_boot_means(db, o->metric, m.runs, m.nr, &nx);
		/* every look spends its share of alpha, no more */
		kab_classify(xv, nx, gv, ng, bv, nb,
			     kab_look_alpha(o->alpha, boots + 1, o->max_boots),
			     floor, &cl);
		if (cl.like != KAB_LIKE_NEITHER)
			break;
	}
	bisect_ctx_free(&b);
	if (!reason && boots == o->max_boots)
		reason = xasprintf("resembles neither endpoint after %d "
				   "boots (mean %g, %.0f%% of the way from %s "
				   "to %s; p %.2g against %s, %.2g against "
				   "%s)", boots, cl.mean, 100 * cl.position,
				   o->term_old, o->term_new, cl.p_good,
				   o->term_old, cl.p_bad, o->term_new);
	if (!reason && cl.like == KAB_LIKE_NEITHER)
		goto out;	/* kab's own error, printed */
	runs = runs_join(m.runs, m.nr);
	st.commit = commit;
	st.subject = m.subject;
	st.verdict = cl.like == KAB_LIKE_GOOD ? "good" :
		     cl.like == KAB_LIKE_BAD ? "bad" : "skip";
	st.reason = reason;
	st.n = (int)nx;
	st.median = nx ? cl.mean : NAN;
	st.p_good = cl.p_good;
	st.p_bad = cl.p_bad;
	st.runs = runs;
	if (id && kab_db_bisect_step_add(db, id, &st, &err)) {
		cli_error(EXIT_RUN, "%s", err.msg);
		goto out;
	}
	if (cl.like == KAB_LIKE_NEITHER)
		fprintf(stderr, "kab: bisect-step %.12s: skip: %s\n", commit,
			reason);
	else
		fprintf(stderr, "kab: bisect-step %.12s: %s (%s mean %g "
			"over %zu boot%s, %.0f%% of the way from %s to %s; "
			"p %.2g against %s, %.2g against %s)\n", commit,
			cl.like == KAB_LIKE_GOOD ? o->term_old : o->term_new,
			o->metric, cl.mean, nx, nx == 1 ? "" : "s",
			100 * cl.position,
			o->term_old, o->term_new, cl.p_good, o->term_old,
			cl.p_bad, o->term_new);
	rc = cl.like == KAB_LIKE_GOOD ? STEP_GOOD :
	     cl.like == KAB_LIKE_BAD ? STEP_BAD : STEP_SKIP;
out:
	kab_drv_measured_free(&m);
	free(commit);
	free(good);
	free(bad);
	free(gv);
	free(bv);
	free(xv);
	free(runs);
	free(reason);
	free(f.runs);
	return rc;
}

/*
 * git bisect run, not kab bisect, is this step's parent: a kab bisect
 * killed with -9 would leave the step booting to its end.  Stop as the
 * user's interrupt stops it, within the pump's 200 ms.
 */
static void *watch_owner(void *arg)
{
	pid_t owner = (pid_t)(intptr_t)arg;

	while (!(kill(owner, 0) && errno == ESRCH))
		usleep(200 * 1000);
	kab_stop_requested = 1;
	return NULL;
}

int cmd_bisect_step(struct cli *cli, int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = runjob_on_signal };
	struct bisect_opts o, stored = { 0 };
	struct kab_bisect_row row = { 0 };
	json_t *args = NULL;
	struct kab_db *db;
	int rc;

	rc = bisect_parse(argc, argv, CMD_BISECT_STEP, &o);
	if (rc < 0) {
		step_usage(stdout);
		bisect_opts_free(&o);
		return EXIT_OK;
	}
	if (rc) {
		bisect_opts_free(&o);
		return STEP_ABORT;
	}
	if (cli_open_db(cli, o.db, KAB_DB_WRITE, &db)) {
		bisect_opts_free(&o);
		return STEP_ABORT;
	}
	/* stopped, the commit is not skipped: git bisect run stops too */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (o.bisect_id) {
		pthread_t watcher;

		/* started by kab bisect: go when it goes */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (o.owner > 0 &&
		    !pthread_create(&watcher, NULL, watch_owner,
				    (void *)(intptr_t)o.owner))
			pthread_detach(watcher);
		if (o.owner > 0 && kill(o.owner, 0) && errno == ESRCH) {
			cli_error(EXIT_RUN, "the kab bisect that started this "
				  "step is gone: stopping; kab bisect --resume "
				  "%lld continues", o.bisect_id);
			kab_db_close(db);
			bisect_opts_free(&o);
			return STEP_ABORT;
		}
		rc = load_bisect(db, o.bisect_id, &args, &stored, &row);
		rc = rc ? STEP_ABORT : step(db, &stored, o.bisect_id,
					    row.created_at);
		bisect_opts_free(&stored);
	} else {
		rc = step(db, &o, 0, NULL);
	}
	json_decref(args);
	kab_bisect_row_free(&row);
	kab_db_close(db);
	bisect_opts_free(&o);
	return rc;
}
