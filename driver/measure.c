// SPDX-License-Identifier: GPL-2.0
/*
 * measure.c - one commit of a bisect: its kernel (built by kab, or by
 * the user's --build-cmd), booted and measured.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void kab_drv_measured_free(struct kab_drv_measured *m)
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
static int user_build(const struct kab_drv_bisect *b, const char *commit,
		      char **kernel, char **cmdline,
		      struct kab_drv_measured *m)
{
	struct strbuf out = STRBUF_INIT;
	struct kab_err err;
	char *wt, *env[2], *line, *save;
	char *const argv[] = { "sh", "-c", (char *)b->build_cmd, NULL };
	struct kab_spawn s = { .argv = argv, .env = env };
	int rc;

	wt = kab_tree_checkout(b->tree, commit, b->build->cache_dir, &err);
	if (!wt)
		return drv_error(b->ui, -1, "%s", err.msg);
	env[0] = xasprintf("KAB_COMMIT=%s", commit);
	env[1] = NULL;
	s.cwd = wt;
	rc = kab_run_capture(&s, &out, &err);
	free(env[0]);
	free(wt);
	/* killed (kab bisect stopping), it says nothing of the commit */
	if (rc < 0 || rc >= 128 || kab_stop_requested) {
		strbuf_release(&out);
		return drv_error(b->ui, -1, "the build command was stopped "
				 "(exit %d)", rc);
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

/* What a commit that did not run says of itself. */
static char *why_not(enum kab_boot_outcome outcome)
{
	if (outcome == KAB_BOOT_HOST_STALL)
		return xstrdup("host-stall twice: the guest reported an RCU "
			       "stall or a lockup in two boots in a row; on a "
			       "busy host that is the host's doing, on a quiet "
			       "one the kernel's: not a verdict on the commit");
	return xasprintf("it does not boot or run: boot %s",
			 kab_boot_outcome_name(outcome));
}

/* A commit's kernel on the test machine: what its boots switch to. */
struct on_box {
	char *remote;		/* its image there */
	char *release, *version;
	char *env[5];
	struct kab_drv_ssh_side side;
};

static void on_box_free(struct on_box *x)
{
	size_t i;

	free(x->remote);
	free(x->release);
	free(x->version);
	for (i = 0; i < ARRAY_SIZE(x->env); i++)
		free(x->env[i]);
}

/*
 * Ship the image there and say how to switch to it: 0; 1 when the image
 * does not say what it is (m->why); -1 when it could not be shipped.
 */
static int on_box_init(const struct kab_drv_bisect *b, const char *commit,
		       const char *label, const char *kernel,
		       const char *cmdline, struct kab_drv_measured *m,
		       struct on_box *x)
{
	struct kab_err err;

	memset(x, 0, sizeof(*x));
	if (kab_kernel_version(kernel, &x->release, &x->version, &err)) {
		m->why = xstrdup(err.msg);
		return 1;
	}
	if (kab_ssh_ship(b->ssh, kernel, "bzImage", &x->remote, &err))
		return drv_error(b->ui, -1, "cannot ship %s's kernel to %s: %s",
				 label, b->ssh->dest, err.msg);
	x->env[0] = xasprintf("KAB_KERNEL=%s", x->remote);
	x->env[1] = xasprintf("KAB_CMDLINE=%s", cmdline ? cmdline : "");
	x->env[2] = xasprintf("KAB_COMMIT=%s", commit);
	x->env[3] = xasprintf("KAB_RELEASE=%s", x->release);
	x->side = (struct kab_drv_ssh_side){
		.label = label,
		.setup = b->setup,
		.env = (const char *const *)x->env,
		.release = x->release,
		.version = x->version,
		.setup_opt = "--setup",
		.release_opt = "that it boots $KAB_KERNEL",
	};
	return 0;
}

int kab_drv_measure(const struct kab_drv_bisect *b, const char *commit,
		    int boots, struct kab_drv_measured *m)
{
	struct on_box box = { 0 };
	char *kernel = NULL, *cmdline = NULL, label[13];
	struct kab_build build = { 0 };
	struct kab_drv_run c = { .iterations = b->iterations };
	struct kab_qemu_opts q = b->q;
	bool fatal = false;
	int i, ret = 0;

	snprintf(label, sizeof(label), "%.12s", commit);
	if (!m->subject)
		m->subject = kab_cmd_line(b->tree, NULL, "git", "log", "-1",
					  "--format=%s", commit, NULL);
	if (b->build_cmd) {
		ret = user_build(b, commit, &kernel, &cmdline, m);
	} else if (kab_drv_build(b->db, b->build, commit, label, b->ui,
				 &build)) {
		m->why = xstrdup(build.failed ? "it does not build" :
				 "kab could not build it");
		ret = build.failed ? 1 : -1;
	} else {
		kernel = xstrdup(build.image);
	}
	if (ret)
		goto out;
	if (cmdline && b->cmdline) {
		char *both = xasprintf("%s %s", b->cmdline, cmdline);

		free(cmdline);
		cmdline = both;
	} else if (!cmdline && b->cmdline) {
		cmdline = xstrdup(b->cmdline);
	}
	q.kernel = kernel;
	q.cmdline = cmdline;
	if (kab_kernel_check(kernel, NULL)) {
		m->why = xasprintf("%s is not a bzImage", kernel);
		ret = 1;
		goto out;
	}
	if (b->ssh) {
		ret = on_box_init(b, commit, label, kernel, cmdline, m, &box);
		if (ret)
			goto out;
	}
	c.db = b->db;
	c.job = b->job;
	c.label = label;
	c.commit = commit;
	c.monitors = b->monitors;
	c.qemu = b->ssh ? NULL : &q;
	c.ssh = b->ssh;
	c.lava = b->lava;
	c.agent = b->agent;
	c.ui = b->ui;
	c.nr_jobs = boots;
	for (i = 0; i < boots; i++) {
		c.job_nr = i + 1;
		c.run_id = 0;
		/*
		 * exact mode: a commit's boot k at layout seed k, as every
		 * other commit's, whatever step measures it
		 */
		q.seed = m->earlier + m->nr + 1;
		/* a test machine boots the commit's kernel each time */
		if (b->ssh) {
			char *release;

			if (kab_drv_ssh_switch(b->ssh, &box.side,
					       b->setup_timeout, b->ui,
					       &release)) {
				ret = -1;
				goto out;
			}
			free(release);
		}
		if (kab_drv_run_one(&c, &fatal)) {
			/* an interrupted boot says nothing of the commit */
			if (fatal || kab_stop_requested ||
			    c.last_outcome == KAB_BOOT_INTERRUPTED) {
				ret = -1;
				goto out;
			}
			m->why = why_not(c.last_outcome);
			ret = 1;
			goto out;
		}
		m->runs = xrealloc(m->runs, (m->nr + 1) * sizeof(*m->runs));
		m->runs[m->nr++] = c.run_id;
	}
out:
	on_box_free(&box);
	kab_build_free(&build);
	free(kernel);
	free(cmdline);
	return ret;
}
