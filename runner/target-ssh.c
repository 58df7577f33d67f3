// SPDX-License-Identifier: GPL-2.0
/*
 * target-ssh.c - run the agent on a test machine over ssh and read the
 * same record stream from ssh's stdout.  The agent runs under the
 * dynamic loader shipped with it; the job goes in on stdin.  When the
 * connection drops, the stream ends without its end record: the run is
 * interrupted, and the iterations that arrived are kept.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

static int target_ssh(const struct kab_target_opts *o, struct kab_ssh *s,
		      struct kab_collector *c, struct kab_err *err);

/* What ssh or the machine says while this run goes is the run's note. */
int kab_target_ssh(const struct kab_target_opts *o, struct kab_ssh *s,
		   struct kab_collector *c, struct kab_err *err)
{
	void (*note)(void *ctx, const char *msg) = s->note;
	void *note_ctx = s->note_ctx;
	int rc;

	if (o->note) {
		s->note = o->note;
		s->note_ctx = o->tick_ctx;
	}
	rc = target_ssh(o, s, c, err);
	s->note = note;
	s->note_ctx = note_ctx;
	return rc;
}

static int target_ssh(const struct kab_target_opts *o, struct kab_ssh *s,
		      struct kab_collector *c, struct kab_err *err)
{
	char iters[16], *loader, *libs, *agent, *env, *said, last[512];
	const char *words[16];
	int n = 0, in_fd, out_fd, err_fd, status, rc;
	bool timed_out;
	pid_t pid;

	if (kab_ssh_stage(s, o->agent_path, o->job, err))
		return -1;
	snprintf(iters, sizeof(iters), "%d", o->iterations);
	loader = xasprintf("%s/lib/ld-linux-x86-64.so.2", s->dir);
	libs = xasprintf("%s/lib", s->dir);
	agent = xasprintf("%s/kab-agent", s->dir);
	env = s->stressng ? xasprintf("KAB_STRESS_NG=%s", s->stressng) : NULL;
	words[n++] = "env";
	if (env)
		words[n++] = env;
	words[n++] = loader;
	words[n++] = "--library-path";
	words[n++] = libs;
	words[n++] = agent;
	words[n++] = "--job";
	words[n++] = "-";
	words[n++] = "--iterations";
	words[n++] = iters;
	words[n++] = "--monitors";
	words[n++] = o->monitors ? o->monitors : "all";
	/* kab cannot see that machine's other processes: the agent can */
	words[n++] = "--host-load";
	words[n] = NULL;
	pid = kab_ssh_spawn(s, words, &in_fd, &out_fd, &err_fd, err);
	free(loader);
	free(libs);
	free(agent);
	free(env);
	if (pid < 0)
		return -1;
	kab_send_job(in_fd, o->job);
	rc = kab_pump(pid, out_fd, c, o, 0, &timed_out, &status, NULL, err);
	said = kab_stderr_read(err_fd);
	if (!rc && status == 255 && !kab_collector_started(c)) {
		kab_last_line(said, last, sizeof(last));
		rc = kab_err_set(err, "cannot reach %s over ssh (%s): check "
				 "'ssh %s true' works without a password",
				 s->dest, *last ? last : "ssh exit 255",
				 s->dest);
	} else if (*said) {
		snprintf(last, sizeof(last), "%s said", s->dest);
		kab_note_lines(s->note, s->note_ctx, last, said);
	}
	free(said);
	return rc;
}
