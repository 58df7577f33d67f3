// SPDX-License-Identifier: GPL-2.0
/*
 * ssh-switch.c - kab ab on a test machine over ssh: before each side's
 * turn, its setup command switches the machine to that kernel (kexec,
 * or a boot entry and a reboot); kab waits for the machine to answer
 * again and checks uname -r against the release the side expects.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/* One line of output of words there, or NULL when it did not answer. */
static char *ask(const struct kab_ssh *s, const char *const *words)
{
	struct strbuf out = STRBUF_INIT;
	struct kab_err err;
	char *nl;

	if (kab_ssh_run(s, words, &out, &err) || !out.buf) {
		strbuf_release(&out);
		return NULL;
	}
	nl = strchr(out.buf, '\n');
	if (nl)
		*nl = '\0';
	return strbuf_detach(&out);
}

static char *boot_id(const struct kab_ssh *s)
{
	static const char *const words[] = {
		"cat", "/proc/sys/kernel/random/boot_id", NULL };

	return ask(s, words);
}

static int ssh_switch(struct kab_ssh *s, const struct kab_drv_ssh_side *side,
		      double timeout, const struct kab_drv_ui *ui,
		      char **release);

static void ssh_note(void *ctx, const char *msg)
{
	drv_note(ctx, "%s", msg);
}

/* What ssh or the machine says meanwhile is the ui's note. */
int kab_drv_ssh_switch(struct kab_ssh *s, const struct kab_drv_ssh_side *side,
		       double timeout, const struct kab_drv_ui *ui,
		       char **release)
{
	void (*note)(void *ctx, const char *msg) = s->note;
	void *note_ctx = s->note_ctx;
	int rc;

	s->note = ssh_note;
	s->note_ctx = (void *)ui;
	rc = ssh_switch(s, side, timeout, ui, release);
	s->note = note;
	s->note_ctx = note_ctx;
	return rc;
}

/* Is the machine running side's kernel?  rel and ver: what it says. */
static bool there(const struct kab_drv_ssh_side *side, const char *rel,
		  const char *ver)
{
	if (!rel)
		return false;
	if (side->release && strcmp(rel, side->release))
		return false;
	return !side->version || (ver && !strcmp(ver, side->version));
}

static int run_setup(struct kab_ssh *s, const struct kab_drv_ssh_side *side,
		     const struct kab_drv_ui *ui)
{
	const char **words;
	struct kab_err err;
	size_t n = 0, i;
	int rc;

	for (i = 0; side->env && side->env[i]; i++)
		;
	words = xcalloc(i + 5, sizeof(*words));
	if (i) {
		words[n++] = "env";
		for (i = 0; side->env[i]; i++)
			words[n++] = side->env[i];
	}
	words[n++] = "sh";
	words[n++] = "-c";
	words[n++] = side->setup;
	drv_info(ui, "%s: switching %s: %s", side->label, s->dest,
		 side->setup);
	rc = kab_ssh_run(s, words, NULL, &err);
	free(words);
	/* 255: the connection went down with the machine: fine */
	if (rc && rc != 255)
		return drv_error(ui, -1, "the setup of %s failed on %s (exit "
				 "%d): fix %s", side->label, s->dest, rc,
				 side->setup_opt);
	return 0;
}

static int ssh_switch(struct kab_ssh *s, const struct kab_drv_ssh_side *side,
		      double timeout, const struct kab_drv_ui *ui,
		      char **release)
{
	static const char *const uname_r[] = { "uname", "-r", NULL };
	static const char *const uname_v[] = { "uname", "-v", NULL };
	char *before = boot_id(s), *now = NULL, *rel = NULL, *ver = NULL;
	double deadline;

	*release = NULL;
	if (!before)
		return drv_error(ui, -1, "cannot reach %s over ssh before "
				 "switching to %s: check 'ssh %s true'",
				 s->dest, side->label, s->dest);
	if (side->setup && run_setup(s, side, ui)) {
		free(before);
		return -1;
	}
	deadline = now_mono() + timeout;
	for (;;) {
		free(now);
		free(rel);
		free(ver);
		now = boot_id(s);
		rel = now ? ask(s, uname_r) : NULL;
		ver = rel && side->version ? ask(s, uname_v) : NULL;
		if (there(side, rel, ver))
			break;
		/* the right kernel is not there yet: a reboot may be coming */
		if (kab_stop_requested) {
			drv_error(ui, -1, "interrupted while waiting for %s",
				  s->dest);
			goto fail;
		}
		if (now_mono() > deadline) {
			if (!rel)
				drv_error(ui, -1, "%s did not answer within "
					  "%.0f s of %s's setup: see to the "
					  "machine, or raise --setup-timeout",
					  s->dest, timeout, side->label);
			else if (side->release && strcmp(rel, side->release))
				drv_error(ui, -1, "after %s's setup %s runs "
					  "%s, not %s: check %s and %s",
					  side->label, s->dest, rel,
					  side->release, side->setup_opt,
					  side->release_opt);
			else
				drv_error(ui, -1, "after %s's setup %s runs "
					  "%s '%s', not '%s': check %s and %s",
					  side->label, s->dest, rel,
					  ver ? ver : "", side->version,
					  side->setup_opt, side->release_opt);
			goto fail;
		}
		sleep(1);
	}
	drv_info(ui, "%s: %s runs %s%s", side->label, s->dest, rel,
		 strcmp(now, before) ? " (rebooted)" : "");
	free(before);
	free(now);
	free(ver);
	*release = rel;
	return 0;
fail:
	free(before);
	free(now);
	free(rel);
	free(ver);
	return -1;
}
