// SPDX-License-Identifier: GPL-2.0
/*
 * merge.c - kab merge: the runs of another kab database copied into
 * this one, each once.  A run is known by its UUID wherever it was
 * made; its kernel, samples and boots (with their consoles and the A/B
 * that asked for them) come with it, and the builds of the source.
 * All in one transaction: a merge that fails adds nothing.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/* "a, b, c" of a table's columns but id, each prefixed. */
static char *columns(struct kab_db *db, const char *table,
		     const char *prefix, const char *const *subst)
{
	struct strbuf sb = STRBUF_INIT;
	sqlite3_stmt *st;
	char *sql = xasprintf("PRAGMA main.table_info(%s)", table);
	size_t i;

	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL)) {
		free(sql);
		return NULL;
	}
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *c = (const char *)sqlite3_column_text(st, 1);
		const char *expr = NULL;

		if (!strcmp(c, "id"))
			continue;
		for (i = 0; subst && subst[i]; i += 2)
			if (!strcmp(subst[i], c))
				expr = subst[i + 1];
		if (sb.len)
			strbuf_addstr(&sb, ", ");
		if (!prefix)
			strbuf_addstr(&sb, c);
		else if (expr)
			strbuf_addstr(&sb, expr);
		else
			strbuf_addf(&sb, "%s.%s", prefix, c);
	}
	sqlite3_finalize(st);
	free(sql);
	return strbuf_detach(&sb);
}

/* INSERT INTO table (cols) SELECT <cols from s, substituted> rest */
static int copy(struct kab_db *db, const char *table, const char *const *subst,
		const char *rest, int *added, struct kab_err *err)
{
	char *into = columns(db, table, NULL, NULL);
	char *from = columns(db, table, "s", subst);
	char *sql;
	int rc;

	if (!into || !from) {
		free(into);
		free(from);
		return db_fail(db, err, "reading the schema to merge");
	}
	sql = xasprintf("INSERT INTO main.%s (%s) SELECT %s %s", table, into,
			from, rest);
	rc = db_exec(db, sql, err);

	if (!rc && added)
		*added = sqlite3_changes(db->h);
	free(sql);
	free(into);
	free(from);
	return rc;
}

static int source_version(const char *path, int *v, struct kab_err *err)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	int rc = -1;

	if (access(path, R_OK))
		return kab_err_set(err, "cannot read %s: check the path", path);
	/*
	 * kab makes tables and indexes only.  A view or trigger is someone
	 * else's SQL that would run while kab holds the write lock (a
	 * recursive view never ends): counted before anything is copied.
	 */
	if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL) ||
	    sqlite3_prepare_v2(h, "SELECT (SELECT user_version FROM "
			       "pragma_user_version), (SELECT count(*) FROM "
			       "sqlite_master WHERE type NOT IN ('table', "
			       "'index'))", -1, &st, NULL)) {
		kab_err_set(err, "%s is not a usable database (%s): check the "
			    "path", path, sqlite3_errmsg(h));
		sqlite3_close(h);
		return -1;
	}
	if (sqlite3_step(st) == SQLITE_ROW) {
		*v = sqlite3_column_int(st, 0);
		rc = 0;
		if (sqlite3_column_int(st, 1))
			rc = kab_err_set(err, "%s has views or triggers kab "
					 "never makes: merge only databases "
					 "kab wrote", path);
	} else {
		kab_err_set(err, "%s is not a usable database (%s): check the "
			    "path", path, sqlite3_errmsg(h));
	}
	sqlite3_finalize(st);
	sqlite3_close(h);
	return rc;
}

/* The copy, with SQLite's files beside it. */
static void remove_copy(char *tmpl)
{
	static const char *const sfx[] = { "-wal", "-shm", "-journal" };
	size_t i;

	scratch_remove_at_signal(NULL);
	unlink(tmpl);
	for (i = 0; i < ARRAY_SIZE(sfx); i++) {
		char *p = xasprintf("%s%s", tmpl, sfx[i]);

		unlink(p);
		free(p);
	}
	free(tmpl);
}

/* An older source is upgraded in a copy, never in place. */
static char *upgraded_copy(const char *path, bool *io, struct kab_err *err)
{
	const char *dir = scratch_dir();
	char *tmpl;
	int fd;

	scratch_sweep("kab-merge");
	tmpl = scratch_template("kab-merge");
	fd = mkstemp(tmpl);
	sqlite3 *src = NULL, *dst = NULL;
	sqlite3_backup *b;
	struct kab_db *db;
	int rc = -1;

	if (fd < 0) {
		*io = true;
		kab_err_set(err, "cannot make a temporary copy of %s in %s: "
			    "%m: set TMPDIR to a writable directory", path,
			    dir);
		free(tmpl);
		return NULL;
	}
	close(fd);
	scratch_remove_at_signal(tmpl);
	if (!sqlite3_open_v2(path, &src, SQLITE_OPEN_READONLY, NULL) &&
	    !sqlite3_open(tmpl, &dst) &&
	    (b = sqlite3_backup_init(dst, "main", src, "main"))) {
		sqlite3_backup_step(b, -1);
		rc = sqlite3_backup_finish(b) == SQLITE_OK ? 0 : -1;
	}
	if (rc)
		kab_err_set(err, "cannot copy %s: %s: check the file", path,
			    sqlite3_errmsg(dst ? dst : src));
	sqlite3_close(src);
	sqlite3_close(dst);
	if (!rc && !kab_db_open(tmpl, KAB_DB_WRITE, &db, err)) {
		kab_db_close(db);
		return tmpl;
	}
	remove_copy(tmpl);
	return NULL;
}

static const char kernel_match[] =
	"(SELECT k.id FROM main.kernels k JOIN src.kernels x ON "
	"k.label = x.label AND k.release = x.release AND k.cmdline = "
	"x.cmdline AND k.image_sha256 = x.image_sha256 WHERE x.id = "
	"s.kernel_id)";

/*
 * Another database is as untrusted as an imported file: the runs and
 * samples just copied are held to the rules a guest's and an import's
 * are, and the merge is rolled back whole when one fails.
 */
static int check_copied(struct kab_db *db, struct kab_err *err)
{
	sqlite3_stmt *q;
	int rc = 0, step;

	if (sqlite3_prepare_v2(db->h, "SELECT new FROM temp.run_map", -1,
			       &q, NULL))
		return db_fail(db, err, "merging");
	while (!rc && (step = sqlite3_step(q)) == SQLITE_ROW) {
		struct kab_run r = { 0 };

		rc = kab_db_run_get(db, sqlite3_column_int64(q, 0), &r, err);
		if (!rc && (kab_run_check(&r, err) ||
			    db_check_run_metrics(db, r.id, "it", err)))
			rc = kab_err_prefix(err, "run %s", strspn(r.uuid,
					    "0123456789abcdef-") ==
					    strlen(r.uuid) ? r.uuid : "?");
		kab_run_free(&r);
	}
	sqlite3_finalize(q);
	if (rc)
		return -1;
	if (sqlite3_prepare_v2(db->h, "SELECT r.uuid, s.metric, s.value, "
			       "typeof(s.value), typeof(s.metric) FROM "
			       "main.samples s JOIN main.runs r ON r.id = "
			       "s.run_id WHERE s.run_id IN (SELECT new FROM "
			       "temp.run_map)", -1, &q, NULL))
		return db_fail(db, err, "merging");
	while ((step = sqlite3_step(q)) == SQLITE_ROW) {
		const char *type = (const char *)sqlite3_column_text(q, 3);
		const char *name = (const char *)sqlite3_column_text(q, 1);

		if (strcmp((const char *)sqlite3_column_text(q, 4), "text") ||
		    !kab_metric_name_valid(name) ||
		    (strcmp(type, "real") && strcmp(type, "integer")) ||
		    !kab_sample_ok(sqlite3_column_double(q, 2))) {
			rc = kab_err_set(err, "run %s: a sample that is not a "
					 "metric name and a finite number "
					 "within 1e30", sqlite3_column_text(q,
									    0));
			break;
		}
	}
	sqlite3_finalize(q);
	if (!rc && step != SQLITE_ROW && step != SQLITE_DONE)
		return db_fail(db, err, "merging");
	if (rc)
		return rc;
	/* and their stacks: a folded stack, an event name, a count */
	if (sqlite3_prepare_v2(db->h, "SELECT r.uuid, s.stack, s.event, "
			       "typeof(s.stack), typeof(s.event), "
			       "typeof(s.samples) FROM main.stacks s JOIN "
			       "main.runs r ON r.id = s.run_id WHERE s.run_id "
			       "IN (SELECT new FROM temp.run_map)", -1, &q,
			       NULL))
		return db_fail(db, err, "merging");
	while ((step = sqlite3_step(q)) == SQLITE_ROW) {
		if (strcmp((const char *)sqlite3_column_text(q, 3), "text") ||
		    strcmp((const char *)sqlite3_column_text(q, 4), "text") ||
		    strcmp((const char *)sqlite3_column_text(q, 5),
			   "integer") ||
		    !kab_stack_ok((const char *)sqlite3_column_text(q, 1)) ||
		    !kab_name_ok((const char *)sqlite3_column_text(q, 2), 32)) {
			rc = kab_err_set(err, "run %s: a profile stack that is "
					 "not frames of symbol names",
					 sqlite3_column_text(q, 0));
			break;
		}
	}
	sqlite3_finalize(q);
	if (!rc && step != SQLITE_ROW && step != SQLITE_DONE)
		return db_fail(db, err, "merging");
	return rc;
}

static bool src_has_stacks(struct kab_db *db)
{
	sqlite3_stmt *q;
	bool has = false;

	if (!sqlite3_prepare_v2(db->h, "SELECT 1 FROM src.sqlite_master "
				"WHERE type = 'table' AND name = 'stacks'", -1,
				&q, NULL)) {
		has = sqlite3_step(q) == SQLITE_ROW;
		sqlite3_finalize(q);
	}
	return has;
}

/*
 * The text columns of the boots, A/Bs and builds a merge brings along,
 * held to the rules of a run's: text (no control characters) of a
 * bounded length.  A boot's problem may span lines (a panic's); its
 * console, a build's config and log are blobs every writer escapes.
 */
static const struct text_col {
	const char *table, *col;
	size_t max;
	bool lines;
	const char *what;	/* a row of table, in an error */
} text_cols[] = {
	{ "boots", "kernel_label", 4096, false, "boot" },
	{ "boots", "kernel_path", 4096, false, "boot" },
	{ "boots", "cmdline", 4096, false, "boot" },
	{ "boots", "outcome", 64, false, "boot" },
	{ "boots", "problem", 65536, true, "boot" },
	{ "boots", "accel", 64, false, "boot" },
	{ "boots", "qemu_version", 255, false, "boot" },
	{ "boots", "mem", 64, false, "boot" },
	{ "boots", "started_at", 64, false, "boot" },
	{ "boots", "entry", 255, false, "boot" },
	{ "abs", "argv", 65536, false, "A/B" },
	{ "abs", "created_at", 64, false, "A/B" },
	{ "abs", "status", 64, false, "A/B" },
	{ "abs", "merged_from", 4096, false, "A/B" },
	{ "builds", "status", 64, false, "build" },
	{ "builds", "cache_key", 255, false, "build" },
	{ "builds", "tree", 4096, false, "build" },
	{ "builds", "rev", 4096, false, "build" },
	{ "builds", "commit_sha", 64, false, "build" },
	{ "builds", "subject", 4096, false, "build" },
	{ "builds", "source_id", 255, false, "build" },
	{ "builds", "compiler", 4096, false, "build" },
	{ "builds", "config_sha256", 64, false, "build" },
	{ "builds", "release", 255, false, "build" },
	{ "builds", "image_path", 4096, false, "build" },
	{ "builds", "image_sha256", 64, false, "build" },
	{ "builds", "created_at", 64, false, "build" },
};

static bool col_text_ok(const struct text_col *c, const char *v)
{
	char *copy;
	bool ok;

	if (!c->lines)
		return kab_text_ok(v, c->max);
	/* lines of text: newline and tab allowed, escapes not */
	copy = xstrdup(v);
	for (char *p = copy; *p; p++)
		if (*p == '\n' || *p == '\t')
			*p = ' ';
	ok = kab_text_ok(copy, c->max);
	free(copy);
	return ok;
}

static int src_text_ok(struct kab_db *db, const char *path,
		       struct kab_err *err)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(text_cols); i++) {
		const struct text_col *c = &text_cols[i];
		char *sql = xasprintf("SELECT typeof(%s), %s FROM src.%s "
				      "WHERE %s IS NOT NULL", c->col, c->col,
				      c->table, c->col);
		sqlite3_stmt *q;
		int step, bad = 0;

		if (sqlite3_prepare_v2(db->h, sql, -1, &q, NULL)) {
			free(sql);
			return db_fail(db, err, "merging");
		}
		free(sql);
		while (!bad && (step = sqlite3_step(q)) == SQLITE_ROW)
			bad = strcmp((const char *)sqlite3_column_text(q, 0),
				     "text") ||
			      !col_text_ok(c, (const char *)
					   sqlite3_column_text(q, 1));
		sqlite3_finalize(q);
		if (bad)
			return kab_err_set(err, "%s: a %s's %s is not text "
					   "(control characters or too long): "
					   "merge only databases kab wrote",
					   path, c->what, c->col);
		if (step != SQLITE_DONE)
			return db_fail(db, err, "merging");
	}
	return 0;
}

static int merge_attached(struct kab_db *db, const char *path,
			  struct kab_merge_stats *st, struct kab_err *err)
{
	static const char *const run_subst[] = { "kernel_id", kernel_match,
						 NULL };
	static const char *const boot_subst[] = {
		"run_id", "(SELECT new FROM temp.run_map WHERE old = s.run_id)",
		"ab_id", "(SELECT new FROM temp.ab_map WHERE old = s.ab_id)",
		NULL };
	sqlite3_stmt *q;

	if (db_exec(db,
		    "CREATE TEMP TABLE run_map (old INTEGER PRIMARY KEY, new "
		    "INTEGER);"
		    "CREATE TEMP TABLE ab_map (old INTEGER PRIMARY KEY, new "
		    "INTEGER);"
		    "INSERT INTO temp.run_map (old) SELECT id FROM src.runs "
		    "WHERE uuid NOT IN (SELECT uuid FROM main.runs);", err))
		return -1;
	if (copy(db, "kernels", NULL, "FROM src.kernels s WHERE NOT EXISTS "
		 "(SELECT 1 FROM main.kernels k WHERE k.label = s.label AND "
		 "k.release = s.release AND k.cmdline = s.cmdline AND "
		 "k.image_sha256 = s.image_sha256)", &st->kernels, err) ||
	    copy(db, "runs", run_subst, "FROM src.runs s WHERE s.id IN "
		 "(SELECT old FROM temp.run_map) ORDER BY s.id", &st->runs,
		 err) ||
	    db_exec(db, "UPDATE temp.run_map SET new = (SELECT r.id FROM "
		    "main.runs r JOIN src.runs s ON s.uuid = r.uuid WHERE "
		    "s.id = old)", err))
		return -1;
	/*
	 * A database merged from is a block: its runs were measured on one
	 * machine (a CI runner), and kab compare takes the differences
	 * within each block when several hold both sides.  A run that
	 * already has a block (merged before) keeps it.
	 */
	{
		char *sql = sqlite3_mprintf("UPDATE main.runs SET block = %Q "
					    "WHERE block IS NULL AND id IN "
					    "(SELECT new FROM temp.run_map)",
					    path);
		int rc = db_exec(db, sql, err);

		sqlite3_free(sql);
		if (rc)
			return -1;
	}
	/* each A/B some of whose boots come along, once */
	if (db_exec(db, "INSERT INTO temp.ab_map (old) SELECT DISTINCT ab_id "
		    "FROM src.boots WHERE ab_id IS NOT NULL AND run_id IN "
		    "(SELECT old FROM temp.run_map)", err))
		return -1;
	{
		/* an A/B merged is one this database never resumes */
		char *from = sqlite3_mprintf("coalesce(s.merged_from, %Q)",
					     path);
		const char *const merged[] = { "merged_from", from, NULL };

		if (sqlite3_prepare_v2(db->h, "SELECT old FROM temp.ab_map", -1,
				       &q, NULL)) {
			sqlite3_free(from);
			return db_fail(db, err, "merging");
		}
		while (sqlite3_step(q) == SQLITE_ROW) {
			char *rest = xasprintf("FROM src.abs s WHERE s.id = "
					       "%lld", (long long)
					       sqlite3_column_int64(q, 0));
			char *set = xasprintf("UPDATE temp.ab_map SET new = "
					      "last_insert_rowid() WHERE old = "
					      "%lld", (long long)
					      sqlite3_column_int64(q, 0));
			int rc = copy(db, "abs", merged, rest, NULL, err) ||
				 db_exec(db, set, err);

			free(rest);
			free(set);
			if (rc) {
				sqlite3_finalize(q);
				sqlite3_free(from);
				return -1;
			}
		}
		sqlite3_finalize(q);
		sqlite3_free(from);
	}
	if (db_exec(db, "INSERT INTO main.samples SELECT m.new, s.iteration, "
		    "s.metric, s.value FROM src.samples s JOIN temp.run_map m "
		    "ON m.old = s.run_id", err))
		return -1;
	st->samples = sqlite3_changes(db->h);
	/* the profile's stacks, from a database new enough to have them */
	if (src_has_stacks(db) &&
	    db_exec(db, "INSERT INTO main.stacks SELECT m.new, s.iteration, "
		    "s.event, s.stack, s.samples, s.total FROM src.stacks s JOIN "
		    "temp.run_map m ON m.old = s.run_id", err))
		return -1;
	if (check_copied(db, err))
		return -1;
	/* boots of the new runs, and the failed boots of their A/Bs */
	if (copy(db, "boots", boot_subst, "FROM src.boots s WHERE s.run_id IN "
		 "(SELECT old FROM temp.run_map) OR (s.run_id IS NULL AND "
		 "s.ab_id IN (SELECT old FROM temp.ab_map)) ORDER BY s.id",
		 &st->boots, err))
		return -1;
	if (copy(db, "builds", NULL, "FROM src.builds s WHERE NOT EXISTS "
		 "(SELECT 1 FROM main.builds b WHERE b.created_at = "
		 "s.created_at AND b.tree = s.tree AND b.cache_key IS "
		 "s.cache_key AND b.status = s.status)", &st->builds, err))
		return -1;
	if (sqlite3_prepare_v2(db->h, "SELECT count(*) FROM src.runs", -1, &q,
			       NULL))
		return db_fail(db, err, "merging");
	if (sqlite3_step(q) == SQLITE_ROW)
		st->runs_known = sqlite3_column_int(q, 0) - st->runs;
	sqlite3_finalize(q);
	return 0;
}

/* Did the last statement fail for want of disk, memory or a lock? */
static bool io_failure(struct kab_db *db)
{
	switch (sqlite3_errcode(db->h) & 0xff) {	/* extended codes on */
	case SQLITE_FULL:
	case SQLITE_IOERR:
	case SQLITE_CANTOPEN:
	case SQLITE_READONLY:
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
	case SQLITE_NOMEM:
		return true;
	}
	return false;
}

int kab_db_merge(struct kab_db *db, const char *path,
		 struct kab_merge_stats *st, struct kab_err *err)
{
	char *copy_path = NULL, *sql;
	const char *src = path;
	int v = 0, rc;

	memset(st, 0, sizeof(*st));
	if (source_version(path, &v, err))
		return -1;
	if (v > KAB_DB_SCHEMA_VERSION)
		return kab_err_set(err, "%s has schema version %d, newer than "
				   "this kab's %d: merge it with a newer kab",
				   path, v, KAB_DB_SCHEMA_VERSION);
	if (v == 0)
		return kab_err_set(err, "%s is not a kab database: check the "
				   "path", path);
	if (v < KAB_DB_SCHEMA_VERSION) {
		copy_path = upgraded_copy(path, &st->io, err);
		if (!copy_path)
			return -1;
		src = copy_path;
	}
	sql = sqlite3_mprintf("ATTACH DATABASE %Q AS src", src);
	rc = db_exec(db, sql, err);
	sqlite3_free(sql);
	if (rc)
		goto out;
	rc = src_text_ok(db, path, err) || db_exec(db, "BEGIN IMMEDIATE", err);
	if (!rc) {
		rc = merge_attached(db, path, st, err);
		if (!rc)
			rc = db_exec(db, "COMMIT", err);
		st->io = rc && io_failure(db);
		if (rc)
			db_exec(db, "ROLLBACK", NULL);
	}
	db_exec(db, "DROP TABLE IF EXISTS temp.run_map; DROP TABLE IF EXISTS "
		"temp.ab_map; DETACH DATABASE src", NULL);
out:
	if (copy_path)
		remove_copy(copy_path);
	return rc;
}
