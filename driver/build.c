// SPDX-License-Identifier: GPL-2.0
/*
 * build.c - kab_build_kernel() for the driver, its record stored in
 * the database whether it built or not.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

void kab_drv_build_args_add_kconfig(struct kab_drv_build_args *a,
				    const char *path)
{
	a->kconfigs = xrealloc(a->kconfigs, (a->nr_kconfigs + 1) *
			       sizeof(*a->kconfigs));
	a->kconfigs[a->nr_kconfigs++] = path;
}

static char *image_sha256(const char *path)
{
	struct kab_err err;

	return path ? kab_file_sha256(path, &err) : NULL;
}

int kab_drv_build(struct kab_db *db, const struct kab_drv_build_args *a,
		  const char *rev, const char *label,
		  const struct kab_drv_ui *ui, struct kab_build *b)
{
	char *sha = NULL;
	struct kab_build_opts o = {
		.tree = a->tree,
		.rev = rev,
		.fragments = a->kconfigs,
		.nr_fragments = a->nr_kconfigs,
		.base = a->base,
		.jobs = a->jobs,
		.progress = ui && ui->live_build,
		.cache_dir = a->cache_dir,
		.label = label ? label : rev ? rev : a->tree,
	};
	struct kab_build_row row;
	struct kab_err err, serr;
	int ret;

	ret = kab_build_kernel(&o, b, &err);
	if (ret && !b->failed)
		return drv_error(ui, -2, "%s", err.msg);
	if (!ret)
		sha = image_sha256(b->image);
	row = (struct kab_build_row){
		.status = ret ? "failed" : "ok",
		.cache_key = b->key,
		.tree = b->tree,
		.rev = rev,
		.commit = b->commit,
		.subject = b->subject,
		.source_id = b->source_id,
		.compiler = b->compiler,
		.config_sha256 = b->config_sha256,
		.config_path = b->config_path,
		.log_path = b->log_path,
		.release = b->release,
		.image_path = ret ? NULL : b->image,
		.image_sha256 = sha,
		.seconds = b->seconds,
		.cached = b->cached,
	};
	if (db && kab_db_build_insert(db, &row, NULL, &serr))
		drv_error(ui, -1, "%s (the build itself is in %s)", serr.msg,
			  b->image ? b->image : a->cache_dir);
	free(sha);
	if (ret)
		return drv_error(ui, -1, "%s: the whole log is %s", err.msg,
				 b->log_path);
	if (b->cached)
		drv_info(ui, "%s: cached build %s (%s)", o.label, b->key,
			 b->release);
	else
		drv_info(ui, "%s: built %s in %.0f s (%d objects compiled)",
			 o.label, b->release, b->seconds, b->objects);
	return 0;
}
