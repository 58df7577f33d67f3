// SPDX-License-Identifier: GPL-2.0
/*
 * facts.c - what else the database knows of a run: the boot it ran
 * in, the A/B that asked for it, and the build of its kernel.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static char *col(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? xstrdup((const char *)t) : NULL;
}

static int query(struct kab_db *db, const char *sql, int64_t run_id,
		 char **out[], int nr, struct kab_err *err)
{
	sqlite3_stmt *st;
	int i, rc;

	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL))
		return db_fail(db, err, "reading a run's facts");
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		for (i = 0; i < nr; i++)
			*out[i] = col(st, i);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_fail(db, err, "reading a run's facts");
	return 0;
}

int kab_db_run_facts(struct kab_db *db, int64_t run_id,
		     struct kab_run_facts *out, struct kab_err *err)
{
	char **boot[] = { &out->accel, &out->qemu_version, &out->ab_argv };
	char **build[] = { &out->compiler, &out->config_sha256, &out->tree,
			   &out->subject };

	memset(out, 0, sizeof(*out));
	if (query(db, "SELECT b.accel, b.qemu_version, a.argv FROM boots b "
		  "LEFT JOIN abs a ON a.id = b.ab_id WHERE b.run_id = ? "
		  "ORDER BY b.id DESC LIMIT 1", run_id, boot,
		  ARRAY_SIZE(boot), err))
		return -1;
	if (query(db, "SELECT u.compiler, u.config_sha256, u.tree, "
		  "u.subject FROM runs r JOIN kernels k ON k.id = r.kernel_id "
		  "JOIN builds u ON u.status = 'ok' AND (u.image_path = "
		  "k.image_path OR (k.image_sha256 != '' AND u.image_sha256 = "
		  "k.image_sha256)) WHERE r.id = ? ORDER BY u.id DESC LIMIT 1", run_id, build,
		  ARRAY_SIZE(build), err)) {
		kab_run_facts_free(out);
		return -1;
	}
	return 0;
}

void kab_run_facts_free(struct kab_run_facts *f)
{
	free(f->accel);
	free(f->qemu_version);
	free(f->ab_argv);
	free(f->compiler);
	free(f->config_sha256);
	free(f->tree);
	free(f->subject);
	memset(f, 0, sizeof(*f));
}

int kab_db_run_cost(struct kab_db *db, int64_t run_id, double *boot,
		    double *total, struct kab_err *err)
{
	sqlite3_stmt *st;
	int rc;

	*boot = 0;
	*total = -1;
	/* a boot: QEMU's start to the agent's hello, and its whole length */
	if (sqlite3_prepare_v2(db->h, "SELECT coalesce(b.hello, 0), b.seconds "
			       "FROM boots b WHERE b.run_id = ?1 AND "
			       "b.seconds > 0 UNION ALL SELECT 0, (julianday("
			       "ended_at) - julianday(started_at)) * 86400 "
			       "FROM runs WHERE id = ?1 AND ended_at IS NOT "
			       "NULL LIMIT 1", -1, &st, NULL))
		return db_fail(db, err, "reading what a run cost");
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*boot = sqlite3_column_double(st, 0);
		*total = sqlite3_column_double(st, 1);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_fail(db, err, "reading what a run cost");
	return 0;
}
