// SPDX-License-Identifier: GPL-2.0
/*
 * pump.c - read a child's record stream into the collector until it
 * ends, asking the child to stop on the user's interrupt and killing it
 * at a deadline.  Shared by every target that runs a local process
 * (the agent itself, QEMU, ssh).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"

void kab_send_job(int fd, const struct kab_job *job)
{
	json_t *jj = kab_job_to_json(job);
	char *text = json_dumps(jj, JSON_COMPACT);

	json_decref(jj);
	/* an agent that died early must not take kab with it */
	signal(SIGPIPE, SIG_IGN);
	if (text)
		write_all(fd, text, strlen(text));
	free(text);
	close(fd);
}

/*
 * The stream has ended: the child should exit now.  One that does not
 * (an agent or ssh that closed its output but hangs) is asked to on
 * the user's interrupt, at the deadline or after REAP_GRACE seconds,
 * and killed 10 s after that; kab never waits on it deaf to ^C.
 */
#define REAP_GRACE 30

static void reap(pid_t pid, const struct kab_target_opts *o,
		 double deadline, bool asked, int *status)
{
	double grace = now_mono() + REAP_GRACE, kill_at = 0;

	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid || (r < 0 && errno != EINTR))
			return;
		if (!kill_at && ((o->stop && *o->stop) || asked ||
				 now_mono() > grace ||
				 (deadline && now_mono() > deadline))) {
			kill(pid, SIGTERM);
			kill_at = now_mono() + 10;
		}
		if (kill_at && now_mono() > kill_at) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			while (waitpid(pid, status, 0) < 0 && errno == EINTR)
				;
			return;
		}
		usleep(20 * 1000);
	}
}

int kab_pump(pid_t pid, int fd, struct kab_collector *c,
	     const struct kab_target_opts *o, double deadline,
	     bool *timed_out, int *status, struct kab_pump_times *times,
	     struct kab_err *err)
{
	return kab_pump_via(pid, fd, NULL, NULL, c, o, deadline, timed_out,
			    status, times, err);
}

int kab_pump_via(pid_t pid, int fd, kab_pump_feed_fn feed, void *feed_ctx,
		 struct kab_collector *c, const struct kab_target_opts *o,
		 double deadline, bool *timed_out, int *status,
		 struct kab_pump_times *times, struct kab_err *err)
{
	double kill_at = 0;
	bool asked = false;
	int ret = 0;

	*timed_out = false;
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		char buf[65536];
		ssize_t n;

		if (o->stop && *o->stop && !asked) {
			kill(pid, SIGTERM);
			asked = true;
			kill_at = now_mono() + 10;
		}
		if (deadline && now_mono() > deadline && !*timed_out) {
			*timed_out = true;
			kill(pid, SIGKILL);
		}
		if (asked && now_mono() > kill_at) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
		}
		n = poll(&pfd, 1, 200);
		if (o->tick)
			o->tick(o->tick_ctx);
		if (n <= 0)
			continue;
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if ((feed ? feed(feed_ctx, buf, n) :
			    kab_collector_feed(c, buf, n)) && !asked) {
			/* The caller cannot store: stop the child. */
			kill(pid, SIGTERM);
			asked = true;
			kill_at = now_mono() + 10;
			ret = kab_err_set(err, "storing the results failed");
		}
		if (times && !times->hello && kab_collector_started(c))
			times->hello = now_mono();
		if (times && !times->first_sample &&
		    kab_collector_iterations(c) > 0)
			times->first_sample = now_mono();
	}
	close(fd);
	reap(pid, o, deadline, asked, status);
	return ret;
}
