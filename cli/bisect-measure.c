// SPDX-License-Identifier: GPL-2.0
/*
 * bisect-measure.c - one commit of a bisect: its kernel (built by kab,
 * or by the user's --build-cmd), booted and measured; and the samples
 * of a metric over runs.
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
	b->db = db;
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
	b->agent = runjob_agent_path();
	b->plugin = runjob_plugin_path();
	b->q.plugin = b->plugin;
	b->q.clock = o->clock.clock;
	b->q.smp = o->smp;
	b->q.mem = o->mem;
	b->q.boot_timeout = 120;
	b->q.timeout = o->timeout;
	b->q.cache_dir = b->cache;
	return 0;
}

void bisect_ctx_free(struct bisect_ctx *b)
{
	kab_joblist_free(&b->jobs);
	free(b->agent);
	free(b->cache);
	free(b->plugin);
}

void measured_free(struct measured *m)
{
	free(m->runs);
	free(m->why);
	free(m->subject);
	memset(m, 0, sizeof(*m));
}

/*
 * --build-cmd: run in kab's worktree at the commit with KAB_COMMIT set;
 * it prints "kernel PATH" and, if it likes, "cmdline ARGS".
 */
static int user_build(struct bisect_ctx *b, const char *commit,
		      char **kernel, char **cmdline, struct measured *m)
{
	struct strbuf out = STRBUF_INIT;
	struct kab_err err;
	char *wt, *env[2], *line, *save;
	char *const argv[] = { "sh", "-c", (char *)b->o->build_cmd, NULL };
	struct kab_spawn s = { .argv = argv, .env = env };
	int rc;

	wt = kab_tree_checkout(b->o->tree, commit, b->cache, &err);
	if (!wt) {
		cli_error(EXIT_RUN, "%s", err.msg);
		return -1;
	}
	env[0] = xasprintf("KAB_COMMIT=%s", commit);
	env[1] = NULL;
	s.cwd = wt;
	rc = kab_run_capture(&s, &out, &err);
	free(env[0]);
	free(wt);
	/* killed (kab bisect stopping), it says nothing of the commit */
	if (rc < 0 || rc >= 128 || stop_requested) {
		cli_error(EXIT_RUN, "the build command was stopped (exit %d)",
			  rc);
		strbuf_release(&out);
		return -1;
	}
	if (rc) {
		m->why = xasprintf("the build command failed (exit %d)", rc);
		strbuf_release(&out);
		return 1;
	}
	for (line = strtok_r(out.buf ? out.buf : "", "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "kernel ", 7)) {
			free(*kernel);
			*kernel = xstrdup(line + 7);
		} else if (!strncmp(line, "cmdline ", 8)) {
			free(*cmdline);
			*cmdline = xstrdup(line + 8);
		}
	}
	strbuf_release(&out);
	if (!*kernel) {
		m->why = xstrdup("the build command printed no 'kernel PATH' "
				 "line");
		return 1;
	}
	return 0;
}

int bisect_measure(struct bisect_ctx *b, const char *commit, int boots,
		   struct measured *m)
{
	char *kernel = NULL, *cmdline = NULL, label[13];
	struct kab_build build = { 0 };
	struct run_ctx c = { .iterations = b->o->runs };
	struct kab_qemu_opts q = b->q;
	bool fatal = false;
	int i, ret = 0;

	snprintf(label, sizeof(label), "%.12s", commit);
	if (!m->subject)
		m->subject = kab_cmd_line(b->o->tree, NULL, "git", "log", "-1",
					  "--format=%s", commit, NULL);
	if (b->o->build_cmd) {
		ret = user_build(b, commit, &kernel, &cmdline, m);
	} else if (cli_build(b->db, &b->o->build, commit, label, &build)) {
		m->why = xstrdup(build.failed ? "it does not build" :
				 "kab could not build it");
		ret = build.failed ? 1 : -1;
	} else {
		kernel = xstrdup(build.image);
	}
	if (ret)
		goto out;
	if (cmdline && b->o->cmdline) {
		char *both = xasprintf("%s %s", b->o->cmdline, cmdline);

		free(cmdline);
		cmdline = both;
	} else if (!cmdline && b->o->cmdline) {
		cmdline = xstrdup(b->o->cmdline);
	}
	q.kernel = kernel;
	q.cmdline = cmdline;
	if (kab_kernel_check(kernel, NULL)) {
		m->why = xasprintf("%s is not a bzImage", kernel);
		ret = 1;
		goto out;
	}
	c.db = b->db;
	c.job = &b->jobs.jobs[0];
	c.label = label;
	c.commit = commit;
	c.monitors = b->o->monitors;
	c.qemu = &q;
	c.brief = true;
	c.tty = cli_live_progress();
	c.nr_jobs = boots;
	for (i = 0; i < boots; i++) {
		c.job_nr = i + 1;
		c.run_id = 0;
		if (runjob_one(&c, b->agent, &fatal)) {
			/* an interrupted boot says nothing of the commit */
			if (fatal || stop_requested ||
			    c.last_outcome == KAB_BOOT_INTERRUPTED) {
				ret = -1;
				goto out;
			}
			if (c.last_outcome == KAB_BOOT_HOST_STALL)
				m->why = xstrdup("host-stall twice: the guest "
						 "reported an RCU stall or a "
						 "lockup in two boots in a row; "
						 "on a busy host that is the "
						 "host's doing, on a quiet one "
						 "the kernel's: not a verdict "
						 "on the commit");
			else
				m->why = xasprintf("it does not boot or run: "
						   "boot %s",
						   kab_boot_outcome_name(
							c.last_outcome));
			ret = 1;
			goto out;
		}
		m->runs = xrealloc(m->runs, (m->nr + 1) * sizeof(*m->runs));
		m->runs[m->nr++] = c.run_id;
	}
out:
	kab_build_free(&build);
	free(kernel);
	free(cmdline);
	return ret;
}
