// SPDX-License-Identifier: GPL-2.0
/*
 * test-watch.c - kab watch's parts that need no guest: a branch's
 * commits in order (first-parent or all), the series stored and read
 * back, a watch's options kept, the one-watcher lock, and a pass whose
 * commits do not build (skipped, each once, --max-points at a time).
 */
#include <sqlite3.h>
#include <sys/file.h>
#include <unistd.h>

#include "test.h"
#include "../../watch/watch.h"

static char dir[64];
static char *repo, *shas[5];

static void sh(const char *fmt, ...)
{
	va_list ap;
	char *cmd;

	va_start(ap, fmt);
	assert_true(vasprintf(&cmd, fmt, ap) >= 0);
	va_end(ap);
	assert_int_equal(system(cmd), 0);
	free(cmd);
}

static char *rev(const char *r)
{
	return kab_cmd_line(repo, NULL, "git", "rev-parse", r, NULL);
}

/* c0 - c1 - m (merge of side, s1, from c0) - c2 on master */
static int setup(void **state)
{
	snprintf(dir, sizeof(dir), "/tmp/kab-watchtest.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	repo = xasprintf("%s/repo", dir);
	sh("set -e; G='git -C %s -c user.name=t -c user.email=t@t'; "
	   "mkdir %s; $G init -q -b master; echo 0 >%s/a; $G add a; "
	   "$G commit -q -m 'c0: base'; $G branch side; "
	   "echo 1 >>%s/a; $G commit -q -am 'c1: one'; "
	   "$G checkout -q side; echo s >%s/b; $G add b; "
	   "$G commit -q -m 's1: on the side'; $G checkout -q master; "
	   "$G merge -q --no-ff -m 'm: merge side' side; "
	   "echo 2 >>%s/a; $G commit -q -am \"c2: it's the head\"",
	   repo, repo, repo, repo, repo, repo);
	shas[0] = rev("master~2^1");
	shas[1] = rev("master~2");
	shas[2] = rev("side");
	shas[3] = rev("master~1");
	shas[4] = rev("master");
	return 0;
}

static int teardown(void **state)
{
	size_t i;

	sh("rm -rf %s", dir);
	for (i = 0; i < 5; i++)
		free(shas[i]);
	free(repo);
	return 0;
}

static void test_revlist(void **state)
{
	struct kab_commit *c;
	struct kab_err err;
	size_t nr;

	/* first-parent: the base, c1, the merge, c2; not the side's s1 */
	assert_int_equal(kab_tree_revlist(repo, shas[0], "master", true, &c,
					  &nr, &err), 0);
	assert_int_equal(nr, 4);
	assert_string_equal(c[0].sha, shas[0]);
	assert_string_equal(c[0].subject, "c0: base");
	assert_string_equal(c[1].sha, shas[1]);
	assert_string_equal(c[2].sha, shas[3]);
	assert_string_equal(c[2].subject, "m: merge side");
	assert_string_equal(c[3].sha, shas[4]);
	assert_string_equal(c[3].subject, "c2: it's the head");
	/* the merge, and only it, is one */
	assert_false(c[0].merge);
	assert_false(c[1].merge);
	assert_true(c[2].merge);
	assert_false(c[3].merge);
	kab_commits_free(c, nr);
	/* every commit: s1 too, before its merge */
	assert_int_equal(kab_tree_revlist(repo, shas[0], "master", false,
					  &c, &nr, &err), 0);
	assert_int_equal(nr, 5);
	assert_string_equal(c[0].sha, shas[0]);
	assert_string_equal(c[3].sha, shas[3]);
	assert_string_equal(c[4].sha, shas[4]);
	assert_true(!strcmp(c[1].sha, shas[2]) || !strcmp(c[2].sha, shas[2]));
	kab_commits_free(c, nr);
	/* a base that is the head: one point */
	assert_int_equal(kab_tree_revlist(repo, "master", "master", true, &c,
					  &nr, &err), 0);
	assert_int_equal(nr, 1);
	kab_commits_free(c, nr);
	/* the side is not an ancestor of c1 */
	assert_int_equal(kab_tree_revlist(repo, "side", "master~2", true, &c,
					  &nr, &err), -1);
	assert_non_null(strstr(err.msg, "side is not an ancestor of "
			       "master~2"));
	assert_null(c);
	assert_int_equal(kab_tree_revlist(repo, "nosuch", "master", true,
					  &c, &nr, &err), -1);
	assert_non_null(strstr(err.msg, "no commit 'nosuch'"));
}

static struct kab_db *open_db(const char *name)
{
	char *p = xasprintf("%s/%s", dir, name);
	struct kab_db *db;
	struct kab_err err;

	assert_int_equal(kab_db_open(p, KAB_DB_WRITE, &db, &err), 0);
	free(p);
	return db;
}

static void test_points(void **state)
{
	struct kab_db *db = open_db("points.db");
	struct kab_watch_row w = { .name = "master", .tree = repo,
				   .branch = "master", .base = shas[0],
				   .argv = "[\"--boots\",\"2\"]" };
	struct kab_point_row *p;
	struct kab_err err;
	int64_t id, id2, runs[] = { 7, 8, 9 };
	bool created;
	size_t nr;

	assert_int_equal(kab_db_watch_open(db, &w, &id, &created, &err), 0);
	assert_true(created);
	assert_int_equal(kab_db_watch_open(db, &w, &id2, &created, &err), 0);
	assert_false(created);
	assert_int_equal(id2, id);
	/* the same name measured otherwise would not compare */
	w.argv = "[\"--boots\",\"3\"]";
	assert_int_equal(kab_db_watch_open(db, &w, &id2, &created, &err), -1);
	assert_non_null(strstr(err.msg, "watch 'master' follows other "
			       "measuring options"));
	assert_non_null(strstr(err.msg, "--name"));
	w.argv = "[\"--boots\",\"2\"]";
	w.base = shas[1];
	assert_int_equal(kab_db_watch_open(db, &w, &id2, &created, &err), -1);
	assert_non_null(strstr(err.msg, "another base"));
	w.name = "other";
	assert_int_equal(kab_db_watch_open(db, &w, &id2, &created, &err), 0);
	assert_true(created);
	assert_int_not_equal(id2, id);

	assert_int_equal(kab_db_point_add(db, id, shas[1], "c1", 1, &err), 0);
	assert_int_equal(kab_db_point_add(db, id, shas[0], "c0", 0, &err), 0);
	assert_int_equal(kab_db_point_add(db, id, shas[4], "c2", 2, &err), 0);
	assert_int_equal(kab_db_point_done(db, id, shas[1], KAB_POINT_MEASURED,
					   runs, 3, NULL, &err), 0);
	assert_int_equal(kab_db_point_done(db, id, shas[4], KAB_POINT_SKIPPED,
					   NULL, 0, "it does not build", &err),
			 0);
	/* a commit that is not a point: said, nothing stored */
	assert_int_equal(kab_db_point_done(db, id2, shas[1],
					   KAB_POINT_MEASURED, runs, 1, NULL,
					   &err), -1);
	assert_non_null(strstr(err.msg, "is not a point of watch"));
	/* added again: only its place moves, what it has stays */
	assert_int_equal(kab_db_point_add(db, id, shas[1], "c1", 5, &err), 0);

	assert_int_equal(kab_db_points(db, id, &p, &nr, &err), 0);
	assert_int_equal(nr, 3);
	assert_string_equal(p[0].commit, shas[0]);
	assert_int_equal(p[0].status, KAB_POINT_PENDING);
	assert_int_equal(p[0].nr_runs, 0);
	assert_string_equal(p[1].commit, shas[4]);
	assert_int_equal(p[1].status, KAB_POINT_SKIPPED);
	assert_string_equal(p[1].why, "it does not build");
	assert_string_equal(p[2].commit, shas[1]);
	assert_int_equal(p[2].seq, 5);
	assert_int_equal(p[2].status, KAB_POINT_MEASURED);
	assert_int_equal(p[2].nr_runs, 3);
	assert_int_equal(p[2].runs[0], 7);
	assert_int_equal(p[2].runs[2], 9);
	kab_points_free(p, nr);
	assert_int_equal(kab_db_points(db, id2, &p, &nr, &err), 0);
	assert_int_equal(nr, 0);
	kab_points_free(p, nr);
	/* a measured point's runs, for a culprit's checks; none else */
	{
		int64_t *r;
		size_t n;

		assert_int_equal(kab_db_point_runs(db, id, shas[1], &r, &n,
						   &err), 0);
		assert_int_equal(n, 3);
		assert_int_equal(r[0], 7);
		assert_int_equal(r[2], 9);
		free(r);
		assert_int_equal(kab_db_point_runs(db, id, shas[4], &r, &n,
						   &err), 0);
		assert_int_equal(n, 0);
		assert_null(r);
		assert_int_equal(kab_db_point_runs(db, id2, shas[1], &r, &n,
						   &err), 0);
		assert_int_equal(n, 0);
	}

	/* another watch measuring alike takes c1's boots, not c0's */
	{
		struct kab_point_row o;
		int64_t id3;

		assert_int_equal(kab_db_point_measured_elsewhere(db, id2,
				 shas[1], &o, &err), 0);
		assert_int_equal(o.nr_runs, 3);
		assert_int_equal(o.runs[1], 8);
		free(o.runs);
		assert_int_equal(kab_db_point_measured_elsewhere(db, id2,
				 shas[0], &o, &err), 1);
		assert_int_equal(kab_db_point_measured_elsewhere(db, id,
				 shas[1], &o, &err), 1);
		/* measured otherwise: its own boots */
		w.name = "third";
		w.argv = "[\"--boots\",\"5\"]";
		assert_int_equal(kab_db_watch_open(db, &w, &id3, &created,
						   &err), 0);
		assert_int_equal(kab_db_point_measured_elsewhere(db, id3,
				 shas[1], &o, &err), 1);
	}
	/* a series that cannot be read leaves nothing to free */
	{
		char *path = xasprintf("%s/points.db", dir);
		sqlite3 *h;

		assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
		assert_int_equal(sqlite3_exec(h, "DROP TABLE watch_points",
					      NULL, NULL, NULL), SQLITE_OK);
		sqlite3_close(h);
		free(path);
		p = (struct kab_point_row *)&err;
		nr = 7;
		assert_int_equal(kab_db_points(db, id, &p, &nr, &err), -1);
		assert_null(p);
		assert_int_equal(nr, 0);
		assert_non_null(strstr(err.msg, "reading the series"));
	}
	kab_db_close(db);
}

/*
 * A database whose watch tables are gone (another kab's, damaged):
 * every reader and writer of a series fails with its reason, and
 * leaves nothing to free.
 */
static void test_tables_gone(void **state)
{
	struct kab_db *db = open_db("gone.db");
	struct kab_watch_row w = { .name = "gone", .tree = repo,
				   .branch = "master", .base = shas[0],
				   .argv = "[]" };
	struct kab_change_row c = { .metric = "m", .before = shas[0],
				    .after = shas[1], .pct = -10 };
	struct kab_point_row o;
	struct kab_err err;
	int64_t id = 1, runs[] = { 1 }, *r = runs;
	size_t n = 7;
	bool b;
	char *path = xasprintf("%s/gone.db", dir);
	sqlite3 *h;

	assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, "DROP TABLE watch_changes; DROP "
				      "TABLE watch_points; DROP TABLE watches",
				      NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	free(path);
#define GONE(call, what) do {						\
		err.msg[0] = '\0';					\
		assert_int_equal(call, -1);				\
		assert_non_null(strstr(err.msg, what));			\
	} while (0)
	GONE(kab_db_watch_get(db, "gone", &w, &err), "reading the watch");
	assert_null(w.name);
	w = (struct kab_watch_row){ .name = "gone", .tree = repo,
				    .branch = "master", .base = shas[0],
				    .argv = "[]" };
	GONE(kab_db_watch_open(db, &w, &id, &b, &err), "reading the watch");
	GONE(kab_db_point_add(db, 1, shas[0], "c0", 0, &err),
	     "storing the series");
	GONE(kab_db_point_done(db, 1, shas[0], KAB_POINT_MEASURED, runs, 1,
			       NULL, &err), "storing a point of the series");
	GONE(kab_db_point_measured_elsewhere(db, 1, shas[0], &o, &err),
	     "reading the series");
	GONE(kab_db_point_runs(db, 1, shas[0], &r, &n, &err),
	     "reading the series");
	assert_null(r);
	assert_int_equal(n, 0);
	GONE(kab_db_change_note(db, 1, &c, &b, &err),
	     "storing a change point");
	GONE(kab_db_change_checked(db, 1, "verified", shas[1], "e", &err),
	     "storing a change point's check");
	GONE(kab_db_change_mailed(db, 1, &err),
	     "marking a change point mailed");
	GONE(kab_db_change_unmailed(db, 1, &err),
	     "unmarking a change point mailed");
#undef GONE
	kab_db_close(db);
}

static void test_lock(void **state)
{
	char *path = xasprintf("%s/lock.db", dir);
	struct kab_err err;
	int a, b;

	a = kab_watch_lock(path, &err);
	assert_true(a >= 0);
	/* flock(2) is per open file: a second open is a second watcher */
	b = kab_watch_lock(path, &err);
	assert_int_equal(b, -1);
	assert_non_null(strstr(err.msg, "another kab watch is following "
			       "branches into"));
	close(a);
	b = kab_watch_lock(path, &err);
	assert_true(b >= 0);
	close(b);
	free(path);
}

struct seen {
	size_t planned, pending, done;
	char what[8][48];
};

static void planned(void *ctx, size_t nr, size_t pending, bool created)
{
	struct seen *s = ctx;

	s->planned = nr;
	s->pending = pending;
}

static void point_done(void *ctx, const struct kab_point_row *p, size_t i,
		       size_t nr)
{
	struct seen *s = ctx;

	assert_true(s->done < 8);
	snprintf(s->what[s->done++], sizeof(s->what[0]), "%.7s %s", p->commit,
		 p->why ? p->why : "");
}

/*
 * A watch of name over the repository's master from its base, every
 * commit, one boot each, whose builds all fail (so nothing boots).
 */
static void watch_init(struct kab_watch *w, struct kab_db *db,
		       const char *name, struct kab_drv_build_args *build,
		       struct seen *s)
{
	memset(w, 0, sizeof(*w));
	w->db = db;
	w->name = name;
	w->tree = repo;
	w->from = shas[0];
	w->branch = "master";
	w->every = 1;
	w->boots = 1;
	w->argv_json = "[]";
	w->d.db = db;
	w->d.tree = repo;
	w->d.build_cmd = "exit 3";
	w->d.build = build;
	w->ctx = s;
	w->planned = planned;
	w->point_done = point_done;
}

/* --merges: the first, the merges and the head; --every of the merges */
static void test_merges(void **state)
{
	struct kab_db *db = open_db("merges.db");
	struct kab_drv_build_args build = { .tree = repo };
	struct kab_watch w;
	struct kab_err err;
	struct seen s = { 0 };
	char *cache = xasprintf("%s/cache", dir);

	build.cache_dir = cache;
	watch_init(&w, db, "merges", &build, &s);
	w.merges = true;
	w.max_points = 2;
	assert_int_equal(kab_watch_pass(&w, &err), 0);
	assert_int_equal(s.planned, 3);
	assert_int_equal(s.done, 2);
	assert_memory_equal(s.what[0], shas[0], 7);
	assert_memory_equal(s.what[1], shas[3], 7);
	/* every second merge: the one merge is the first, not chosen */
	w.name = "merges2";
	w.every = 2;
	assert_int_equal(kab_watch_pass(&w, &err), 0);
	assert_int_equal(s.planned, 2);
	/* of all of them, every third: the base and the head alone */
	w.name = "third";
	w.merges = false;
	w.every = 3;
	assert_int_equal(kab_watch_pass(&w, &err), 0);
	assert_int_equal(s.planned, 2);
	/* every second: the merge too */
	w.name = "second";
	w.every = 2;
	assert_int_equal(kab_watch_pass(&w, &err), 0);
	assert_int_equal(s.planned, 3);
	free(cache);
	kab_db_close(db);
}

static void test_pass_skips(void **state)
{
	struct kab_db *db = open_db("pass.db");
	struct kab_drv_build_args build = { .tree = repo };
	struct kab_point_row *p;
	struct kab_watch w;
	struct kab_err err;
	struct seen s = { 0 };
	char *cache = xasprintf("%s/cache", dir), *want;
	size_t nr;

	build.cache_dir = cache;
	watch_init(&w, db, "master", &build, &s);
	w.max_points = 3;
	/* three of the four points, in the branch's order */
	assert_int_equal(kab_watch_pass(&w, &err), 0);
	assert_int_equal(s.planned, 4);
	assert_int_equal(s.pending, 4);
	assert_int_equal(s.done, 3);
	want = xasprintf("%.7s the build command failed (exit 3)", shas[0]);
	assert_string_equal(s.what[0], want);
	free(want);
	assert_memory_equal(s.what[1], shas[1], 7);
	assert_memory_equal(s.what[2], shas[3], 7);
	/* the next pass: only the one left */
	assert_int_equal(kab_watch_pass(&w, &err), 0);
	assert_int_equal(s.pending, 1);
	assert_int_equal(s.done, 4);
	assert_memory_equal(s.what[3], shas[4], 7);
	assert_int_equal(kab_watch_pass(&w, &err), 0);
	assert_int_equal(s.pending, 0);
	assert_int_equal(s.done, 4);
	assert_int_equal(kab_db_points(db, w.id, &p, &nr, &err), 0);
	assert_int_equal(nr, 4);
	assert_int_equal(p[3].status, KAB_POINT_SKIPPED);
	kab_points_free(p, nr);

	/* every 2nd commit, with the first and the head: 3 points */
	memset(&s, 0, sizeof(s));
	w.name = "every2";
	w.every = 2;
	w.max_points = 0;
	w.all_commits = true;
	assert_int_equal(kab_watch_pass(&w, &err), 0);
	assert_int_equal(s.planned, 3);
	assert_int_equal(kab_db_points(db, w.id, &p, &nr, &err), 0);
	assert_int_equal(nr, 3);
	assert_string_equal(p[0].commit, shas[0]);
	assert_int_equal(p[1].seq, 2);
	assert_string_equal(p[2].commit, shas[4]);
	assert_int_equal(p[2].seq, 4);
	kab_points_free(p, nr);
	free(cache);
	kab_db_close(db);
}

static void test_revert(void **state)
{
	char *cache = xasprintf("%s/cache", dir), *sha, *out, *head, *ref;
	struct kab_err err;

	head = rev("master");
	/* the merge, against its first parent: the side's file goes */
	sha = kab_tree_revert(repo, shas[3], "master", cache, &err);
	assert_non_null(sha);
	/* kept by a ref, on top of the head */
	ref = xasprintf("refs/kab/reverts/%s-on-master", shas[3]);
	out = rev(ref);
	assert_string_equal(out, sha);
	free(out);
	free(ref);
	ref = xasprintf("%s^", sha);
	out = rev(ref);
	assert_string_equal(out, head);
	free(out);
	free(ref);
	out = kab_cmd_line(repo, NULL, "git", "ls-tree", "--name-only", sha,
			   NULL);
	assert_string_equal(out, "a");
	free(out);
	free(sha);
	/* c2 appended to the line c1 added: c1 does not revert */
	sha = kab_tree_revert(repo, shas[1], "master", cache, &err);
	assert_null(sha);
	assert_non_null(strstr(err.msg, "does not revert cleanly on"));
	/* and the worktree is left fit for the next */
	sha = kab_tree_revert(repo, shas[2], "master", cache, &err);
	assert_non_null(sha);
	free(sha);
	/* the user's branch never moved */
	out = rev("master");
	assert_string_equal(out, head);
	free(out);
	free(head);
	free(cache);
}

struct fake_bisect {
	const char *names;	/* the first bad commit it says, or NULL */
	int calls;
	char good[41], bad[41];
};

static int fake_bisect(void *ctx, const char *good, const char *bad,
		       const char *metric, char **first_bad, char **why,
		       struct kab_err *err)
{
	struct fake_bisect *f = ctx;

	f->calls++;
	snprintf(f->good, sizeof(f->good), "%s", good);
	snprintf(f->bad, sizeof(f->bad), "%s", bad);
	*first_bad = f->names ? xstrdup(f->names) : NULL;
	*why = f->names ? NULL : xstrdup("the endpoints do not differ");
	return 0;
}

/*
 * From a change point to its culprit, up to measuring: neighbours are
 * taken as they are, others bisected (or not isolated without a
 * bisect); a commit that cannot be measured is no culprit.
 */
static void test_check_paths(void **state)
{
	struct kab_db *db = open_db("check.db");
	struct kab_drv_build_args build = { .tree = repo };
	struct kab_watch_check_opts o = { .metric = "m", .boots = 2,
					  .alpha = 0.05, .noise = 1 };
	struct kab_change_row c = { .metric = "m", .pct = -50 };
	struct fake_bisect f = { 0 };
	struct kab_watch_check k;
	struct kab_watch w;
	struct kab_err err;
	char *cache = xasprintf("%s/cache", dir), *want;

	build.cache_dir = cache;
	memset(&w, 0, sizeof(w));
	w.db = db;
	w.tree = repo;
	w.d.db = db;
	w.d.tree = repo;
	w.d.build_cmd = "exit 3";
	w.d.build = &build;
	/* neighbours: c1 checked against c0, and it cannot be built */
	c.before = shas[0];
	c.after = shas[1];
	assert_int_equal(kab_watch_check(&w, &o, &c, shas[4], &k, &err), 0);
	assert_false(k.verified);
	assert_null(k.culprit);
	want = xasprintf("not isolated: %.12s: the build command failed "
			 "(exit 3)", shas[0]);
	assert_string_equal(k.evidence, want);
	free(want);
	kab_watch_check_free(&k);
	/* c0..c2 are not neighbours: without a bisect, not isolated */
	c.after = shas[4];
	assert_int_equal(kab_watch_check(&w, &o, &c, shas[4], &k, &err), 0);
	assert_null(k.culprit);
	assert_non_null(strstr(k.evidence, "not isolated: 3 commits lead "
			       "from"));
	assert_non_null(strstr(k.evidence, "'kab bisect --good"));
	kab_watch_check_free(&k);
	/* with one: what it names is checked against its parent */
	w.ctx = &f;
	w.bisect = fake_bisect;
	f.names = shas[3];
	assert_int_equal(kab_watch_check(&w, &o, &c, shas[4], &k, &err), 0);
	assert_int_equal(f.calls, 1);
	assert_string_equal(f.good, shas[0]);
	assert_string_equal(f.bad, shas[4]);
	want = xasprintf("bisected: %.12s..%.12s names %.12s\nnot isolated: "
			 "%.12s: the build command failed (exit 3)", shas[0],
			 shas[4], shas[3], shas[1]);
	assert_string_equal(k.evidence, want);
	free(want);
	assert_null(k.culprit);
	kab_watch_check_free(&k);
	/* a bisect that names none: said, no culprit */
	f.names = NULL;
	assert_int_equal(kab_watch_check(&w, &o, &c, shas[4], &k, &err), 0);
	assert_non_null(strstr(k.evidence, "named no commit: the endpoints "
			       "do not differ"));
	assert_null(k.culprit);
	kab_watch_check_free(&k);
	free(cache);
	kab_db_close(db);
}

/* A change's revert goes on the last commit before the next one. */
static void test_revert_base(void **state)
{
	struct kab_point_row rows[8] = { { 0 } };
	struct kab_watch_pt pts[7] = { { 0 } };
	struct kab_cp cps[3] = {
		{ .at = 2 }, { .at = 3, .noise_only = true }, { .at = 5 },
	};
	static char names[8][4];
	struct kab_watch_series s = {
		.rows = rows, .nr_rows = 8, .pts = pts, .nr = 7,
		.cps = cps, .nr_cps = 3,
	};
	struct kab_watch w = { .head = "head" };
	size_t i, j;

	(void)state;
	/* row 4 is skipped: the points are rows 0-3 and 5-7 */
	for (i = 0, j = 0; i < 8; i++) {
		snprintf(names[i], sizeof(names[i]), "c%zu", i);
		rows[i].commit = names[i];
		if (i != 4)
			pts[j++].row = &rows[i];
	}
	/* the change of spread after it is no change: the next is at 5 */
	assert_string_equal(kab_watch_revert_base(&w, &s, 0), "c5");
	assert_string_equal(kab_watch_revert_base(&w, &s, 1), "c5");
	assert_string_equal(kab_watch_revert_base(&w, &s, 2), "head");
}

static char noted[512];

static void note(void *ctx, const char *msg)
{
	(void)ctx;
	snprintf(noted, sizeof(noted), "%s", msg);
}

/* --fetch: a clone follows its remote's branch as the remote grows. */
static void test_fetch(void **state)
{
	struct kab_db *db = open_db("fetch.db");
	struct kab_drv_build_args build = { .tree = NULL };
	struct kab_drv_ui ui = { .note = note };
	char *clone = xasprintf("%s/clone", dir);
	char *cache = xasprintf("%s/cache", dir);
	struct kab_watch w;
	struct kab_err err;
	struct seen s = { 0 };

	(void)state;
	sh("git clone -q %s %s", repo, clone);
	build.tree = clone;
	build.cache_dir = cache;
	watch_init(&w, db, "origin", &build, &s);
	w.tree = w.d.tree = clone;
	w.branch = "origin/master";
	w.fetch = "origin";
	w.ui = &ui;
	assert_int_equal(kab_watch_pass(&w, &err), 0);
	assert_int_equal(s.planned, 4);
	/* the remote grows: the next pass fetches its new commit */
	sh("git -C %s -c user.name=t -c user.email=t@t commit -q --allow-empty "
	   "-m 'c3: later'", repo);
	assert_int_equal(kab_watch_pass(&w, &err), 0);
	assert_int_equal(s.planned, 5);
	assert_int_equal(s.pending, 1);
	assert_string_equal(noted, "");
	/* a remote that answers nothing is said, and the pass goes on */
	w.fetch = "nosuch";
	assert_int_equal(kab_watch_pass(&w, &err), 0);
	assert_int_equal(s.planned, 5);
	assert_non_null(strstr(noted, "git fetch nosuch: "));
	assert_non_null(strstr(noted, ": following origin/master as it is"));
	free(clone);
	free(cache);
	kab_db_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_revlist),
		cmocka_unit_test(test_points),
		cmocka_unit_test(test_tables_gone),
		cmocka_unit_test(test_lock),
		cmocka_unit_test(test_pass_skips),
		cmocka_unit_test(test_merges),
		cmocka_unit_test(test_revert),
		cmocka_unit_test(test_check_paths),
		cmocka_unit_test(test_revert_base),
		cmocka_unit_test(test_fetch),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
