// SPDX-License-Identifier: GPL-2.0
/*
 * spawn.c - run a program with an argument vector (never a shell), in a
 * directory, with its stdout captured or sent to a file.
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

#include "common.h"

pid_t kab_spawn(const struct kab_spawn *s, int *out_fd, struct kab_err *err)
{
	int fds[2] = { -1, -1 };
	pid_t pid;

	if (out_fd && pipe2(fds, O_CLOEXEC)) {
		kab_err_set(err, "pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		kab_err_set(err, "fork: %s", strerror(errno));
		if (out_fd) {
			close(fds[0]);
			close(fds[1]);
		}
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(null, 0);
		if (out_fd)
			dup2(fds[1], 1);
		else if (s->quiet)
			dup2(null, 1);
		if (s->merge_stderr)
			dup2(1, 2);
		else if (s->quiet)
			dup2(null, 2);
		if (s->cwd && chdir(s->cwd)) {
			fprintf(stderr, "kab: cannot enter %s: %s\n", s->cwd,
				strerror(errno));
			_exit(127);
		}
		if (s->new_pgrp)
			setpgid(0, 0);
		if (s->pdeathsig)
			prctl(PR_SET_PDEATHSIG, s->pdeathsig);
		if (s->env)
			for (char *const *e = s->env; *e; e++)
				putenv(*e);
		signal(SIGPIPE, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		execvp(s->argv[0], s->argv);
		fprintf(stderr, "kab: cannot run %s: %s\n", s->argv[0],
			strerror(errno));
		_exit(127);
	}
	if (out_fd) {
		close(fds[1]);
		*out_fd = fds[0];
	}
	return pid;
}

int kab_wait(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

int kab_run_capture(const struct kab_spawn *s, struct strbuf *out,
		    struct kab_err *err)
{
	char buf[8192];
	ssize_t n;
	int fd;
	pid_t pid = kab_spawn(s, out ? &fd : NULL, err);

	if (pid < 0)
		return -1;
	if (out) {
		while ((n = read(fd, buf, sizeof(buf))) != 0) {
			if (n < 0) {
				if (errno == EINTR)
					continue;
				break;
			}
			strbuf_add(out, buf, n);
		}
		close(fd);
	}
	return kab_wait(pid);
}

char *kab_cmd_line(const char *cwd, struct kab_err *err, ...)
{
	struct strbuf out = STRBUF_INIT;
	const char *argv[32];
	struct kab_spawn s = { .argv = (char *const *)argv, .cwd = cwd,
			       .quiet = true };
	va_list ap;
	int n = 0, rc;

	va_start(ap, err);
	while (n < 31 && (argv[n] = va_arg(ap, const char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	rc = kab_run_capture(&s, &out, err);
	if (rc) {
		if (rc > 0)
			kab_err_set(err, "%s %s failed (exit %d)", argv[0],
				    n > 1 ? argv[1] : "", rc);
		strbuf_release(&out);
		return NULL;
	}
	while (out.len && (out.buf[out.len - 1] == '\n' ||
			   out.buf[out.len - 1] == '\r'))
		out.buf[--out.len] = '\0';
	return strbuf_detach(&out);
}

#ifdef KAB_COVERAGE
void __gcov_dump(void);
#endif

void kab_child_exit(int code)
{
#ifdef KAB_COVERAGE
	__gcov_dump();
#endif
	_exit(code);
}
