// SPDX-License-Identifier: GPL-2.0
/*
 * open.c - opening, checking and migrating a kab database.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/* Migration i takes the schema from version i to i + 1. */
static const char *const migrations[] = {
	"CREATE TABLE kernels ("
	"  id INTEGER PRIMARY KEY,"
	"  label TEXT NOT NULL,"
	"  release TEXT NOT NULL DEFAULT '',"
	"  cmdline TEXT NOT NULL DEFAULT '',"
	"  image_path TEXT,"
	"  image_sha256 TEXT NOT NULL DEFAULT '',"
	"  commit_sha TEXT,"
	"  UNIQUE (label, release, cmdline, image_sha256));"
	"CREATE TABLE runs ("
	"  id INTEGER PRIMARY KEY,"
	"  uuid TEXT NOT NULL UNIQUE,"
	"  kernel_id INTEGER NOT NULL REFERENCES kernels(id),"
	"  job TEXT NOT NULL,"
	"  suite TEXT NOT NULL,"
	"  test TEXT NOT NULL,"
	"  params TEXT NOT NULL,"
	"  resolved TEXT NOT NULL DEFAULT '{}',"
	"  target TEXT NOT NULL,"
	"  host TEXT NOT NULL DEFAULT '{}',"
	"  cpu_model TEXT,"
	"  nr_cpus INTEGER,"
	"  mem_total_kb INTEGER,"
	"  thp_enabled TEXT,"
	"  thp_defrag TEXT,"
	"  kab_version TEXT,"
	"  iterations_planned INTEGER NOT NULL DEFAULT 0,"
	"  started_at TEXT NOT NULL,"
	"  ended_at TEXT,"
	"  status TEXT NOT NULL CHECK (status IN"
	"    ('running', 'ok', 'failed', 'interrupted')),"
	"  message TEXT,"
	"  garbage_bytes INTEGER NOT NULL DEFAULT 0,"
	"  bad_records INTEGER NOT NULL DEFAULT 0,"
	"  owner_host TEXT,"
	"  owner_pid INTEGER,"
	"  owner_start INTEGER);"
	"CREATE INDEX runs_kernel ON runs (kernel_id);"
	"CREATE TABLE samples ("
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  iteration INTEGER NOT NULL,"
	"  metric TEXT NOT NULL,"
	"  value REAL NOT NULL,"
	"  PRIMARY KEY (run_id, iteration, metric)) WITHOUT ROWID;",

	/* 1 -> 2: boots of the qemu target, with their console logs. */
	"CREATE TABLE boots ("
	"  id INTEGER PRIMARY KEY,"
	"  run_id INTEGER REFERENCES runs(id) ON DELETE SET NULL,"
	"  kernel_label TEXT NOT NULL,"
	"  kernel_path TEXT,"
	"  cmdline TEXT,"
	"  outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'job-failure',"
	"    'boot-failure', 'panic', 'timeout', 'interrupted')),"
	"  problem TEXT,"
	"  accel TEXT,"
	"  qemu_version TEXT,"
	"  smp INTEGER,"
	"  mem TEXT,"
	"  seconds REAL,"
	"  console BLOB,"
	"  console_bytes INTEGER NOT NULL DEFAULT 0,"
	"  started_at TEXT NOT NULL);"
	"CREATE INDEX boots_run ON boots (run_id);",

	/* 2 -> 3: an A/B remembers how it was asked, to be resumed. */
	"CREATE TABLE abs ("
	"  id INTEGER PRIMARY KEY,"
	"  argv TEXT NOT NULL,"
	"  created_at TEXT NOT NULL,"
	"  status TEXT NOT NULL DEFAULT 'running');"
	"ALTER TABLE boots ADD COLUMN ab_id INTEGER REFERENCES abs(id);"
	"ALTER TABLE boots ADD COLUMN ab_seq INTEGER;",

	/* 3 -> 4: how a boot entered the kernel, and its dead time. */
	"ALTER TABLE boots ADD COLUMN entry TEXT;"
	"ALTER TABLE boots ADD COLUMN hello REAL;"
	"ALTER TABLE boots ADD COLUMN first_sample REAL;",

	/* 4 -> 5: kernels kab built, and bisections. */
	"CREATE TABLE builds ("
	"  id INTEGER PRIMARY KEY,"
	"  status TEXT NOT NULL CHECK (status IN ('ok', 'failed')),"
	"  cache_key TEXT,"
	"  tree TEXT NOT NULL,"
	"  rev TEXT,"
	"  commit_sha TEXT,"
	"  subject TEXT,"
	"  source_id TEXT,"
	"  compiler TEXT,"
	"  config_sha256 TEXT,"
	"  config BLOB,"
	"  log BLOB,"
	"  release TEXT,"
	"  image_path TEXT,"
	"  image_sha256 TEXT,"
	"  seconds REAL,"
	"  cached INTEGER NOT NULL DEFAULT 0,"
	"  created_at TEXT NOT NULL);"
	"CREATE INDEX builds_image ON builds (image_sha256);"
	"CREATE TABLE bisects ("
	"  id INTEGER PRIMARY KEY,"
	"  argv TEXT NOT NULL,"
	"  metric TEXT NOT NULL,"
	"  good TEXT NOT NULL,"
	"  bad TEXT NOT NULL,"
	"  good_runs TEXT,"
	"  bad_runs TEXT,"
	"  status TEXT NOT NULL DEFAULT 'running',"
	"  first_bad TEXT,"
	"  message TEXT,"
	"  created_at TEXT NOT NULL,"
	"  ended_at TEXT);"
	"CREATE TABLE bisect_steps ("
	"  id INTEGER PRIMARY KEY,"
	"  bisect_id INTEGER NOT NULL REFERENCES bisects(id),"
	"  commit_sha TEXT NOT NULL,"
	"  subject TEXT,"
	"  verdict TEXT NOT NULL CHECK (verdict IN ('good', 'bad', 'skip')),"
	"  reason TEXT,"
	"  n INTEGER,"
	"  median REAL,"
	"  p_good REAL,"
	"  p_bad REAL,"
	"  runs TEXT,"
	"  created_at TEXT NOT NULL);",

	/*
	 * 5 -> 6: a boot whose guest the host starved (an RCU stall or a
	 * lockup on a kernel that did nothing wrong) is a host-stall, and
	 * every boot keeps how busy other processes kept the host; a run keeps
	 * its block, the CI runner whose database it was merged from.  SQLite
	 * cannot change a CHECK: the table is built again.
	 */
	"CREATE TABLE boots6 ("
	"  id INTEGER PRIMARY KEY,"
	"  run_id INTEGER REFERENCES runs(id) ON DELETE SET NULL,"
	"  kernel_label TEXT NOT NULL,"
	"  kernel_path TEXT,"
	"  cmdline TEXT,"
	"  outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'job-failure',"
	"    'boot-failure', 'panic', 'timeout', 'interrupted',"
	"    'host-stall')),"
	"  problem TEXT,"
	"  accel TEXT,"
	"  qemu_version TEXT,"
	"  smp INTEGER,"
	"  mem TEXT,"
	"  seconds REAL,"
	"  console BLOB,"
	"  console_bytes INTEGER NOT NULL DEFAULT 0,"
	"  started_at TEXT NOT NULL,"
	"  ab_id INTEGER REFERENCES abs(id),"
	"  ab_seq INTEGER,"
	"  entry TEXT,"
	"  hello REAL,"
	"  first_sample REAL,"
	"  host_busy REAL);"
	"INSERT INTO boots6 (id, run_id, kernel_label, kernel_path, cmdline,"
	"  outcome, problem, accel, qemu_version, smp, mem, seconds, console,"
	"  console_bytes, started_at, ab_id, ab_seq, entry, hello,"
	"  first_sample) SELECT id, run_id, kernel_label, kernel_path,"
	"  cmdline, outcome, problem, accel, qemu_version, smp, mem, seconds,"
	"  console, console_bytes, started_at, ab_id, ab_seq, entry, hello,"
	"  first_sample FROM boots;"
	"DROP TABLE boots;"
	"ALTER TABLE boots6 RENAME TO boots;"
	"CREATE INDEX boots_run ON boots (run_id);"
	/* the runner (the database merged from) a run was measured on */
	"ALTER TABLE runs ADD COLUMN block TEXT;",

	/* 6 -> 7: the profile's folded call stacks, for flame graphs. */
	"CREATE TABLE stacks ("
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  iteration INTEGER NOT NULL,"
	"  event TEXT NOT NULL,"
	"  stack TEXT NOT NULL,"
	"  samples INTEGER NOT NULL CHECK (samples > 0),"
	"  total INTEGER NOT NULL CHECK (total >= samples),"
	"  PRIMARY KEY (run_id, iteration, stack)) WITHOUT ROWID;",

	/*
	 * 7 -> 8: what timed a run: wall (the machine's clock; every run
	 * before) or icount:N (a QEMU guest's instructions).
	 */
	"ALTER TABLE runs ADD COLUMN clock TEXT NOT NULL DEFAULT 'wall';",

	/*
	 * 8 -> 9: a bisect's culprit checked against its parent, booted
	 * again interleaved: their runs and what the test said.
	 */
	"ALTER TABLE bisects ADD COLUMN parent_runs TEXT;"
	"ALTER TABLE bisects ADD COLUMN culprit_runs TEXT;"
	"ALTER TABLE bisects ADD COLUMN verified TEXT;",

	/*
	 * 9 -> 10: the LAVA job of each turn of an A/B, once submitted: a
	 * resumed A/B reads a job that went on without kab, not boots it
	 * again.
	 */
	"CREATE TABLE ab_jobs ("
	"  ab_id INTEGER NOT NULL REFERENCES abs(id) ON DELETE CASCADE,"
	"  ab_seq INTEGER NOT NULL,"
	"  server TEXT NOT NULL,"
	"  job INTEGER NOT NULL,"
	"  PRIMARY KEY (ab_id, ab_seq));",

	/*
	 * 10 -> 11: exact mode's layout seed of a run's boot (NULL: none,
	 * a layout the machine's own luck chose, or one fixed layout).
	 */
	("ALTER TABLE runs ADD COLUMN seed INTEGER CHECK (seed IS NULL OR "
	 "(typeof(seed) = 'integer' AND seed BETWEEN 1 AND 4294967295));"),

	/*
	 * 11 -> 12: the database an A/B was merged from (NULL: started
	 * here); kab resumes only its own.
	 */
	"ALTER TABLE abs ADD COLUMN merged_from TEXT;",

	/*
	 * 12 -> 13: kab watch's series: a branch followed from a base,
	 * each commit it measures a point (its runs, or why it was
	 * skipped), in the branch's order; each change point found, once.
	 */
	"CREATE TABLE watches ("
	"  id INTEGER PRIMARY KEY,"
	"  name TEXT NOT NULL UNIQUE,"
	"  tree TEXT NOT NULL,"
	"  branch TEXT NOT NULL,"
	"  base TEXT NOT NULL,"
	"  argv TEXT NOT NULL,"
	"  created_at TEXT NOT NULL);"
	"CREATE TABLE watch_points ("
	"  watch_id INTEGER NOT NULL REFERENCES watches(id) ON DELETE CASCADE,"
	"  commit_sha TEXT NOT NULL,"
	"  seq INTEGER NOT NULL,"
	"  subject TEXT,"
	"  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN "
	"    ('pending', 'measured', 'skipped')),"
	"  why TEXT,"
	"  runs TEXT,"
	"  measured_at TEXT,"
	"  PRIMARY KEY (watch_id, commit_sha));"
	"CREATE TABLE watch_changes ("
	"  id INTEGER PRIMARY KEY,"
	"  watch_id INTEGER NOT NULL REFERENCES watches(id) ON DELETE CASCADE,"
	"  metric TEXT NOT NULL,"
	"  before_sha TEXT NOT NULL,"
	"  after_sha TEXT NOT NULL,"
	"  kind TEXT NOT NULL CHECK (kind IN ('mean', 'spread')),"
	"  pct REAL,"
	"  lo REAL,"
	"  hi REAL,"
	"  p REAL,"
	"  found_at TEXT NOT NULL,"
	"  status TEXT NOT NULL DEFAULT 'found' CHECK (status IN "
	"    ('found', 'verified', 'not-isolated')),"
	"  culprit TEXT,"
	"  evidence TEXT,"
	"  checked_at TEXT,"
	"  mailed_at TEXT,"
	"  UNIQUE (watch_id, metric, before_sha, after_sha, kind));",
};

char *kab_db_default_path(void)
{
	const char *env = getenv("KAB_DB"), *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");

	if (env && *env)
		return xstrdup(env);
	if (xdg && *xdg)
		return xasprintf("%s/kab/kab.db", xdg);
	return xasprintf("%s/.local/share/kab/kab.db", home ? home : ".");
}

/* mkdir -p of the directory that will hold path. */
static int make_parent(const char *path, struct kab_err *err)
{
	char *dir = xstrdup(path), *p;
	struct stat st;

	p = strrchr(dir, '/');
	if (!p || p == dir) {
		free(dir);
		return 0;
	}
	*p = '\0';
	if (mkdir_p(dir, 0755)) {
		kab_err_set(err, "cannot create %s: %s: pass --db PATH to put "
			    "the database elsewhere", dir, strerror(errno));
		free(dir);
		return -1;
	}
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		kab_err_set(err, "cannot create %s: %s is not a directory: "
			    "pass --db PATH to put the database elsewhere",
			    path, dir);
		free(dir);
		return -1;
	}
	/* SQLite keeps its -wal and -shm files beside the database */
	if (access(dir, W_OK)) {
		kab_err_set(err, "cannot write in %s (the database keeps its "
			    "journal files there): pass --db PATH to a "
			    "directory of yours", dir);
		free(dir);
		return -1;
	}
	free(dir);
	return 0;
}

int db_fail(struct kab_db *db, struct kab_err *err, const char *what)
{
	int rc = sqlite3_extended_errcode(db->h);

	if ((rc & 0xff) == SQLITE_READONLY)
		return kab_err_set(err, "%s: %s is read-only (%s): fix its "
				   "permissions or pass --db PATH", what,
				   db->path, sqlite3_errmsg(db->h));
	if ((rc & 0xff) == SQLITE_NOTADB || (rc & 0xff) == SQLITE_CORRUPT)
		return kab_err_set(err, "%s: %s is not a usable database (%s):"
				   " move it away, or pass --db PATH", what,
				   db->path, sqlite3_errmsg(db->h));
	if ((rc & 0xff) == SQLITE_FULL || (rc & 0xff) == SQLITE_IOERR)
		return kab_err_set(err, "%s: cannot write %s (%s): free disk "
				   "space or pass --db PATH", what, db->path,
				   sqlite3_errmsg(db->h));
	return kab_err_set(err, "%s: %s: %s", what, db->path,
			   sqlite3_errmsg(db->h));
}

int db_exec(struct kab_db *db, const char *sql, struct kab_err *err)
{
	char *msg = NULL;

	if (sqlite3_exec(db->h, sql, NULL, NULL, &msg) != SQLITE_OK) {
		sqlite3_free(msg);
		return db_fail(db, err, "database");
	}
	return 0;
}

/*
 * What opening does (the journal mode, the schema) while other kab
 * processes open the same fresh database: SQLite answers some of those
 * races with SQLITE_BUSY at once, without its busy handler (turning a
 * database to WAL, reading one another process is recovering), so they
 * are tried again for as long as the busy timeout.  True when RC is
 * such an answer and there is time left, after a short random wait.
 */
static bool busy_again(struct kab_db *db, int rc, double since);

/*
 * SQLite's busy handler: called with count 0 when a statement first
 * finds the lock taken, then again after each wait.  Nonzero waits on.
 */
static int patient(void *arg, int count)
{
	struct kab_db *db = arg;
	double now = now_mono(), waited;

	if (!count)
		db->busy_since = db->noted = now;
	waited = now - db->busy_since;
	if (db->wait >= 0 ? waited >= db->wait : db->stop && *db->stop)
		return 0;
	if (db->note && now - db->noted >= (db->noted == db->busy_since ?
					     10 : 30)) {
		db->noted = now;
		db->note(db->note_arg, db->path, waited);
	}
	/* a few ms at first, a tenth of a second once it lasts */
	usleep(count < 10 ? 2000 * (count + 1) : 100000);
	return 1;
}

void kab_db_set_patience(struct kab_db *db, double wait,
			 const volatile int *stop,
			 void (*note)(void *arg, const char *path,
				      double waited),
			 void *arg)
{
	db->wait = wait;
	db->stop = stop;
	db->note = note;
	db->note_arg = arg;
}

static struct {
	bool set;
	double wait;
	const volatile int *stop;
	void (*note)(void *arg, const char *path, double waited);
	void *arg;
} dflt;

void kab_db_default_patience(double wait, const volatile int *stop,
			     void (*note)(void *arg, const char *path,
					  double waited),
			     void *arg)
{
	dflt.set = true;
	dflt.wait = wait;
	dflt.stop = stop;
	dflt.note = note;
	dflt.arg = arg;
}

/*
 * True when RC is such an answer and the patience lasts (the busy
 * handler's rule, from since on), after a short random wait.
 */
static bool busy_again(struct kab_db *db, int rc, double since)
{
	double now = now_mono(), waited = now - since;

	if ((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED)
		return false;
	if (db->wait >= 0 ? waited >= db->wait : db->stop && *db->stop)
		return false;
	if (db->busy_since != since)
		db->busy_since = db->noted = since;
	if (db->note && now - db->noted >= (db->noted == since ? 10 : 30)) {
		db->noted = now;
		db->note(db->note_arg, db->path, waited);
	}
	usleep(10000 + rand() % 20000);
	return true;
}

static int exec_patient(struct kab_db *db, const char *sql,
			struct kab_err *err)
{
	double since = now_mono();
	int rc;

	while ((rc = sqlite3_exec(db->h, sql, NULL, NULL, NULL)) != SQLITE_OK)
		if (!busy_again(db, rc, since))
			return db_fail(db, err, "database");
	return 0;
}

static int user_version(struct kab_db *db, int *out, struct kab_err *err)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db->h, "PRAGMA user_version", -1, &st, NULL))
		return db_fail(db, err, "reading the schema version");
	rc = sqlite3_step(st);
	*out = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return db_fail(db, err, "reading the schema version");
	return 0;
}

/*
 * The schema version and the number of tables, read in one statement
 * and so from one snapshot: another kab creating the schema between
 * two reads would make a fresh database look like someone else's.
 */
static int schema_state(struct kab_db *db, int *version, int *tables,
			int *foreign, struct kab_err *err)
{
	double since = now_mono();
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db->h, "SELECT (SELECT user_version FROM "
			       "pragma_user_version), (SELECT count(*) FROM "
			       "sqlite_master WHERE type = 'table'), (SELECT "
			       "count(*) FROM sqlite_master WHERE type NOT IN "
			       "('table', 'index'))", -1, &st, NULL))
		return db_fail(db, err, "opening");
	/* another kab recovering or converting it: busy, at once */
	while ((rc = sqlite3_step(st)) != SQLITE_ROW) {
		if (!busy_again(db, rc, since)) {
			sqlite3_finalize(st);
			return db_fail(db, err, "opening");
		}
		sqlite3_reset(st);
	}
	*version = sqlite3_column_int(st, 0);
	*tables = sqlite3_column_int(st, 1);
	*foreign = sqlite3_column_int(st, 2);
	sqlite3_finalize(st);
	return 0;
}

static int migrate(struct kab_db *db, int from, struct kab_err *err)
{
	int v;

	if (exec_patient(db, "BEGIN IMMEDIATE", err))
		return -1;
	/* Someone else may have migrated while we waited for the lock. */
	if (user_version(db, &from, err))
		goto fail;
	for (v = from; v < KAB_DB_SCHEMA_VERSION; v++) {
		char pragma[64];

		if (db_exec(db, migrations[v], err))
			goto fail;
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d",
			 v + 1);
		if (db_exec(db, pragma, err))
			goto fail;
	}
	return db_exec(db, "COMMIT", err);
fail:
	db_exec(db, "ROLLBACK", NULL);
	return -1;
}

/*
 * A command that only reads a database older than this kab reads an
 * upgraded copy of it in memory: reading never changes the file, which
 * an older kab may still be writing.  A writing command upgrades it.
 */
static int upgrade_in_memory(struct kab_db *db, struct kab_err *err)
{
	sqlite3_backup *b;
	sqlite3 *mem;
	int rc = -1;

	if (sqlite3_open(":memory:", &mem) != SQLITE_OK) {
		sqlite3_close(mem);
		return kab_err_set(err, "out of memory reading %s", db->path);
	}
	b = sqlite3_backup_init(mem, "main", db->h, "main");
	if (b) {
		sqlite3_backup_step(b, -1);
		rc = sqlite3_backup_finish(b) == SQLITE_OK ? 0 : -1;
	}
	if (rc) {
		kab_err_set(err, "cannot read %s to upgrade it: %s: run a kab "
			    "command that writes (kab run) to upgrade it",
			    db->path, sqlite3_errmsg(mem));
		sqlite3_close(mem);
		return -1;
	}
	sqlite3_close(db->h);
	db->h = mem;
	return 0;
}

/* Can this process write the file and the directory it is in? */
static bool writable(const char *path)
{
	char *dir = xstrdup(path), *p = strrchr(dir, '/');
	bool ok;

	if (p == dir)
		p[1] = '\0';
	else if (p)
		*p = '\0';
	ok = !access(path, W_OK) && !access(p ? dir : ".", W_OK);
	free(dir);
	return ok;
}

/*
 * "file:PATH?immutable=1": a database kab may not write (0444, another
 * user's, a read-only mount) is read without the -shm file SQLite's
 * WAL mode would otherwise have to create.
 */
static char *immutable_uri(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	const unsigned char *p = (const unsigned char *)path;

	strbuf_addstr(&sb, "file:");
	for (; *p; p++)
		if (strchr("?#%", *p) || *p < 0x21 || *p >= 0x7f)
			strbuf_addf(&sb, "%%%02X", *p);
		else
			strbuf_add(&sb, p, 1);
	strbuf_addstr(&sb, "?immutable=1");
	return strbuf_detach(&sb);
}

int kab_db_open(const char *path, enum kab_db_mode mode, struct kab_db **out,
		struct kab_err *err)
{
	char *uri = NULL;
	struct kab_db *db;
	int flags, v = 0, tables = 0, foreign = 0;

	*out = NULL;
	if (mode == KAB_DB_WRITE && make_parent(path, err))
		return -1;
	if (mode == KAB_DB_READ && access(path, F_OK))
		return kab_err_set(err, "no database at %s: run 'kab run' "
				   "first, or pass --db PATH", path);
	/*
	 * SQLite would open a file this user may not write read-only, and
	 * leave -wal and -shm files of this user's behind it: refuse first.
	 */
	if (mode == KAB_DB_WRITE && !access(path, F_OK) &&
	    access(path, W_OK))
		return kab_err_set(err, "cannot write the database %s (%s): "
				   "fix its permissions or pass --db PATH",
				   path, strerror(errno));
	db = xcalloc(1, sizeof(*db));
	db->path = xstrdup(path);
	db->mode = mode;
	/*
	 * A reader that may write still opens read-write, so that runs
	 * whose kab died are shown as interrupted, not as running.
	 */
	flags = mode == KAB_DB_WRITE ?
		SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE :
		writable(path) ? SQLITE_OPEN_READWRITE :
				 SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
	if (flags & SQLITE_OPEN_URI)
		uri = immutable_uri(path);
	if (sqlite3_open_v2(uri ? uri : path, &db->h, flags, NULL) !=
	    SQLITE_OK) {
		kab_err_set(err, "cannot open the database %s: %s: pass "
			    "--db PATH", path,
			    db->h ? sqlite3_errmsg(db->h) : "out of memory");
		goto fail;
	}
	free(uri);
	uri = NULL;
	db->wait = dflt.set ? dflt.wait : 10;
	db->stop = dflt.stop;
	db->note = dflt.note;
	db->note_arg = dflt.arg;
	sqlite3_busy_handler(db->h, patient, db);
	sqlite3_extended_result_codes(db->h, 1);
	if (schema_state(db, &v, &tables, &foreign, err))
		goto fail;
	/*
	 * kab makes tables and indexes only: a view or trigger is someone
	 * else's SQL, which a migration or a read would run (a recursive
	 * view never ends).  Refused before anything reads a table.
	 */
	if (foreign) {
		kab_err_set(err, "%s has views or triggers kab never makes: "
			    "use a database kab wrote (or drop them with "
			    "sqlite3)", path);
		goto fail;
	}
	if (v > KAB_DB_SCHEMA_VERSION) {
		kab_err_set(err, "%s has schema version %d, newer than this "
			    "kab's %d: upgrade kab", path, v,
			    KAB_DB_SCHEMA_VERSION);
		goto fail;
	}
	if (v < 0 || (v == 0 && tables > 0)) {
		kab_err_set(err, "%s is an SQLite database but not kab's: "
			    "pass --db PATH to use another file", path);
		goto fail;
	}
	if (mode == KAB_DB_WRITE &&
	    (exec_patient(db, "PRAGMA journal_mode = WAL", err) ||
	     exec_patient(db, "BEGIN IMMEDIATE; ROLLBACK", err)))
		goto fail;
	if (mode == KAB_DB_READ && v < KAB_DB_SCHEMA_VERSION &&
	    upgrade_in_memory(db, err))
		goto fail;
	if (db_exec(db, "PRAGMA foreign_keys = ON", err))
		goto fail;
	if (v < KAB_DB_SCHEMA_VERSION && migrate(db, v, err))
		goto fail;
	if (v < KAB_DB_SCHEMA_VERSION)
		v = KAB_DB_SCHEMA_VERSION;
	if ((flags & SQLITE_OPEN_READWRITE) && v == KAB_DB_SCHEMA_VERSION &&
	    db_reap_stale_runs(db, err))
		goto fail;
	*out = db;
	return 0;
fail:
	free(uri);
	kab_db_close(db);
	return -1;
}

void kab_db_close(struct kab_db *db)
{
	int i;

	if (!db)
		return;
	for (i = 0; i < DB_NR_STMTS; i++)
		sqlite3_finalize(db->stmt[i]);
	sqlite3_close(db->h);
	free(db->path);
	free(db);
}

const char *kab_db_path(const struct kab_db *db)
{
	return db->path;
}

int kab_db_begin(struct kab_db *db, struct kab_err *err)
{
	return db_exec(db, "BEGIN IMMEDIATE", err);
}

int kab_db_commit(struct kab_db *db, struct kab_err *err)
{
	return db_exec(db, "COMMIT", err);
}

void kab_db_rollback(struct kab_db *db)
{
	db_exec(db, "ROLLBACK", NULL);
}

sqlite3_stmt *db_stmt(struct kab_db *db, enum db_stmt_id id, const char *sql,
		      struct kab_err *err)
{
	if (!db->stmt[id] &&
	    sqlite3_prepare_v2(db->h, sql, -1, &db->stmt[id], NULL)) {
		db_fail(db, err, "preparing a statement");
		return NULL;
	}
	sqlite3_reset(db->stmt[id]);
	sqlite3_clear_bindings(db->stmt[id]);
	return db->stmt[id];
}
