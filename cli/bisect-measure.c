// SPDX-License-Identifier: GPL-2.0
/*
 * bisect-measure.c - a bisect's job checked, and the driver set up to
 * measure its commits (driver/measure.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bisect.h"

int bisect_check_job(const struct bisect_opts *o)
{
	struct kab_jobsel sel = { o->sets, o->nr_sets, o->only, o->nr_only };
	struct kab_joblist l;
	struct kab_err err;
	char *file;
	int nr, rc;

	if (kab_job_find(o->job, &file, &err))
		return cli_error(EXIT_USAGE, "%s", err.msg);
	rc = kab_job_load_sel(file, &sel, &l, &err);
	free(file);
	if (rc)
		return cli_error(EXIT_USAGE, "%s", err.msg);
	nr = l.nr;
	kab_joblist_free(&l);
	if (nr != 1)
		return cli_error(EXIT_USAGE, "%s expands to %d parameter sets: "
				 "a bisect follows one; pick it with --only "
				 "KEY=VALUE or pin the others with --set "
				 "KEY=VALUE", o->job, nr);
	return 0;
}

int bisect_ctx_init(struct bisect_ctx *b, const struct bisect_opts *o,
		    struct kab_db *db)
{
	struct kab_jobsel sel = { o->sets, o->nr_sets, o->only, o->nr_only };
	int rc;

	memset(b, 0, sizeof(*b));
	b->o = o;

	rc = cli_load_jobs(o->job, &sel, &b->jobs);
	if (rc)
		return rc;
	if (b->jobs.nr != 1)
		return cli_error(EXIT_USAGE, "%s expands to %zu parameter sets: "
				 "a bisect follows one; pick it with --only "
				 "KEY=VALUE or pin the others with --set "
				 "KEY=VALUE", o->job, (size_t)b->jobs.nr);
	b->cache = cli_cache_dir();
	if (!b->cache)
		return EXIT_RUN;
	b->agent = kab_drv_agent_path();
	b->plugin = kab_drv_plugin_path();
	b->build = o->build;
	b->build.cache_dir = b->cache;
	runjob_ui_init(&b->ui, true);
	b->d = (struct kab_drv_bisect){
		.db = db,
		.job = &b->jobs.jobs[0],
		.tree = o->tree,
		.build_cmd = o->build_cmd,
		.build = &b->build,
		.cmdline = o->cmdline,
		.monitors = o->monitors,
		.iterations = o->runs,
		.agent = b->agent,
		.ui = &b->ui.ui,
	};
	b->d.q.plugin = b->plugin;
	b->d.q.clock = o->clock.clock;
	b->d.q.model = o->clock.model;
	b->d.q.smp = o->smp;
	b->d.q.mem = o->mem;
	b->d.q.boot_timeout = 120;
	b->d.q.timeout = o->timeout;
	b->d.q.cache_dir = b->cache;
	b->d.lava = o->lava.url ? &o->lava : NULL;
	if (o->setup) {
		struct kab_err err;

		if (kab_ssh_parse(o->target, &b->ssh, &err))
			return cli_error(EXIT_USAGE, "%s", err.msg);
		b->d.ssh = &b->ssh;
		b->d.setup = o->setup;
		b->d.setup_timeout = o->setup_timeout;
	}
	return 0;
}

void bisect_ctx_free(struct bisect_ctx *b)
{
	kab_joblist_free(&b->jobs);
	kab_ssh_free(&b->ssh);
	free(b->agent);
	free(b->cache);
	free(b->plugin);
}

int bisect_measure(struct bisect_ctx *b, const char *commit, int boots,
		   struct kab_drv_measured *m)
{
	return kab_drv_measure(&b->d, commit, boots, m);
}
