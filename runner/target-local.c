// SPDX-License-Identifier: GPL-2.0
/*
 * target-local.c - run the agent on this machine, read its stream from
 * a pipe.
 *
 * The agent gets the job as JSON on stdin and writes records on stdout.
 * When the user interrupts, the agent is asked to stop (SIGTERM: it
 * drops the iteration in flight and says "interrupted"), and killed if
 * it does not end within a few seconds.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"

static pid_t spawn_agent(const struct kab_target_opts *o, int *in_fd,
			 int *out_fd, struct kab_err *err)
{
	int in[2], out[2];
	char iters[16];
	pid_t pid, parent;

	if (access(o->agent_path, X_OK))
		return kab_err_set(err, "cannot run the agent %s: %s: build "
				   "kab with 'make' or set KAB_AGENT",
				   o->agent_path, strerror(errno));
	if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC))
		return kab_err_set(err, "pipe: %s", strerror(errno));
	snprintf(iters, sizeof(iters), "%d", o->iterations);
	parent = getpid();
	pid = fork();
	if (pid < 0)
		return kab_err_set(err, "fork: %s", strerror(errno));
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		/* Our terminal's ^C is ours to handle, not the agent's. */
		setpgid(0, 0);
		/*
		 * A kab killed with -9 takes its agent along, mid-iteration:
		 * SIGTERM, which the agent takes as ^C (it kills its
		 * workload and removes its directory, or dies of its own
		 * alarm if that hangs); the signal survives the exec, and a
		 * kab already gone is seen here.
		 */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(1);
		signal(SIGINT, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		execl(o->agent_path, "kab-agent", "--job", "-",
		      "--iterations", iters, "--monitors",
		      o->monitors ? o->monitors : "all", (char *)NULL);
		dprintf(2, "kab: cannot run %s: %s\n", o->agent_path,
			strerror(errno));
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	*in_fd = in[1];
	*out_fd = out[0];
	return pid;
}

int kab_target_local(const struct kab_target_opts *o, struct kab_collector *c,
		     struct kab_err *err)
{
	int in_fd = -1, out_fd = -1, status, ret;
	struct kab_hostload load;
	bool timed_out;
	pid_t pid;

	/* the machine is shared: what else ran is part of the numbers */
	kab_hostload_start(&load);
	pid = spawn_agent(o, &in_fd, &out_fd, err);
	if (pid < 0)
		return -1;
	kab_send_job(in_fd, o->job);
	ret = kab_pump(pid, out_fd, c, o, 0, &timed_out, &status, NULL, err);
	if (o->host_busy)
		*o->host_busy = kab_hostload_other(&load);
	return ret;
}
