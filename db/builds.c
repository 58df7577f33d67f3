// SPDX-License-Identifier: GPL-2.0
/*
 * builds.c - the kernels kab built: where from, with what, and the
 * config and build log themselves (compressed), ok or failed.
 */
#include <stdlib.h>
#include <zlib.h>

#include "internal.h"

/* A file's content compressed, bound to column i, or NULL. */
static unsigned char *bind_file(sqlite3_stmt *st, int i, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned char *z;
	uLongf zlen;

	if (!path || read_file(path, &sb, NULL))
		return NULL;
	zlen = compressBound(sb.len);
	z = xmalloc(zlen);
	if (compress2(z, &zlen, (const Bytef *)sb.buf, sb.len, 6) != Z_OK) {
		free(z);
		strbuf_release(&sb);
		return NULL;
	}
	strbuf_release(&sb);
	sqlite3_bind_blob(st, i, z, zlen, SQLITE_STATIC);
	return z;
}

int kab_db_build_insert(struct kab_db *db, const struct kab_build_row *b,
			int64_t *id, struct kab_err *err)
{
	unsigned char *zc = NULL, *zl = NULL;
	sqlite3_stmt *st;
	char now[32];
	int ret = -1, i = 1;

	if (sqlite3_prepare_v2(db->h, "INSERT INTO builds (status, cache_key, "
			       "tree, rev, commit_sha, subject, source_id, "
			       "compiler, config_sha256, release, image_path, "
			       "image_sha256, seconds, cached, created_at, "
			       "config, log) VALUES (?, ?, ?, ?, ?, ?, ?, ?, "
			       "?, ?, ?, ?, ?, ?, ?, ?, ?)", -1, &st, NULL))
		return db_fail(db, err, "storing the build");
	iso8601_utc(now_wall(), now, sizeof(now));
	sqlite3_bind_text(st, i++, b->status, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, i++, b->cache_key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, i++, b->tree, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, i++, b->rev, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, i++, b->commit, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, i++, b->subject, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, i++, b->source_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, i++, b->compiler, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, i++, b->config_sha256, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, i++, b->release, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, i++, b->image_path, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, i++, b->image_sha256, -1, SQLITE_STATIC);
	sqlite3_bind_double(st, i++, b->seconds);
	sqlite3_bind_int(st, i++, b->cached);
	sqlite3_bind_text(st, i++, now, -1, SQLITE_STATIC);
	zc = bind_file(st, i++, b->config_path);
	zl = bind_file(st, i++, b->log_path);
	if (sqlite3_step(st) != SQLITE_DONE) {
		db_fail(db, err, "storing the build");
		goto out;
	}
	if (id)
		*id = sqlite3_last_insert_rowid(db->h);
	ret = 0;
out:
	sqlite3_finalize(st);
	free(zc);
	free(zl);
	return ret;
}

char *kab_db_commit_subject(struct kab_db *db, const char *commit)
{
	sqlite3_stmt *st;
	char *out = NULL;

	if (sqlite3_prepare_v2(db->h, "SELECT subject FROM builds WHERE "
			       "commit_sha = ?1 AND subject IS NOT NULL UNION "
			       "ALL SELECT subject FROM bisect_steps WHERE "
			       "commit_sha = ?1 AND subject IS NOT NULL LIMIT 1",
			       -1, &st, NULL))
		return NULL;
	sqlite3_bind_text(st, 1, commit, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		out = xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return out;
}
