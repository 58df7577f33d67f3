// SPDX-License-Identifier: GPL-2.0
/*
 * make.c - make bzImage, out of tree, in parallel, through ccache when
 * it is installed; its output goes to a log, and on a terminal a line
 * says which phase the build is in and how many objects it has built.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

const char *kbuild_cc(void)
{
	const char *cc = getenv("KAB_KERNEL_CC");

	return cc && *cc ? cc : "gcc";
}

char *kbuild_compiler(struct kab_err *err)
{
	char *v = kab_cmd_line(NULL, err, kbuild_cc(), "--version", NULL);
	char *nl;

	if (!v) {
		kab_err_set(err, "no C compiler '%s' to build a kernel with: "
			    "apt-get install build-essential, or make deps",
			    kbuild_cc());
		return NULL;
	}
	nl = strchr(v, '\n');
	if (nl)
		*nl = '\0';
	return v;
}

/*
 * kbuild's quiet lines ("  CC      mm/mmap.o", "  LD      vmlinux")
 * tell the phase; phases only move forward (host tools are built
 * between objects all along).
 */
static const char *const phases[] = { "preparing", "compiling",
				      "linking vmlinux", "bzImage" };

static int phase_of(const char *line, bool *object)
{
	char verb[16], what[256];

	*object = false;
	if (sscanf(line, " %15s %255s", verb, what) != 2)
		return -1;
	if (!strcmp(verb, "CC") || !strcmp(verb, "AS")) {
		*object = true;
		return 1;
	}
	if (!strcmp(verb, "LD") && strstr(what, "vmlinux"))
		return 2;
	if (!strcmp(verb, "BUILD") && strstr(what, "bzImage"))
		return 3;
	return -1;
}

static void show(const struct kab_build_opts *o, const char *phase,
		 int objects, const char *last, double t0)
{
	fprintf(stderr, "\r\033[Kkab: building %s: %s, %d objects, %.0f s%s%.40s",
		o->label ? o->label : "kernel", phase, objects,
		now_mono() - t0, last ? ": " : "", last ? last : "");
}

int kbuild_make(const char *src, const char *out, const char *log,
		const struct kab_build_opts *o, int *objects,
		struct kab_err *err)
{
	char jobs[32], *outarg = xasprintf("O=%s", out), *ccarg;
	char *ccache = find_in_path("ccache"), buf[8192], line[512];
	int phase = 0;
	struct kab_spawn s;
	double t0 = now_mono(), shown = 0;
	size_t ll = 0;
	int fd, logfd, rc;
	ssize_t n;
	pid_t pid;

	snprintf(jobs, sizeof(jobs), "-j%d", o->jobs > 0 ? o->jobs :
		 (int)sysconf(_SC_NPROCESSORS_ONLN));
	ccarg = ccache && !getenv("KAB_NO_CCACHE") ?
		xasprintf("CC=ccache %s", kbuild_cc()) :
		xasprintf("CC=%s", kbuild_cc());
	{
		char *const argv[] = { "make", jobs, outarg, ccarg, "bzImage",
				       NULL };

		s = (struct kab_spawn){ .argv = argv, .cwd = src,
					.merge_stderr = true };
		logfd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			     0644);
		if (logfd < 0) {
			kab_err_set(err, "cannot write %s: %s", log,
				    strerror(errno));
			rc = -1;
			goto out;
		}
		pid = kab_spawn(&s, &fd, err);
	}
	if (pid < 0) {
		close(logfd);
		rc = -1;
		goto out;
	}
	*objects = 0;
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		ssize_t i;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (write_all(logfd, buf, n))
			break;
		for (i = 0; i < n; i++) {
			bool object;
			int p;

			if (buf[i] != '\n') {
				if (ll + 1 < sizeof(line))
					line[ll++] = buf[i];
				continue;
			}
			line[ll] = '\0';
			ll = 0;
			p = phase_of(line, &object);
			*objects += object;
			if (p < phase)
				p = phase;
			if (o->progress && (p != phase ||
					    now_mono() - shown > 0.2)) {
				char *what = strrchr(line, ' ');

				show(o, phases[p], *objects,
				     what ? what + 1 : NULL, t0);
				shown = now_mono();
			} else if (!o->progress && (p != phase ||
						     now_mono() - shown >= 30)) {
				/* off a terminal: a line a phase, and every
				 * 30 s while one lasts */
				long el = (long)(now_mono() - t0);

				fprintf(stderr, "kab: building %s: %s (%d "
					"objects so far, elapsed %ld:%02ld)\n",
					o->label ? o->label : "kernel",
					phases[p], *objects, el / 60, el % 60);
				shown = now_mono();
			}
			phase = p;
		}
	}
	close(fd);
	rc = kab_wait(pid);
	close(logfd);
	if (o->progress)
		fprintf(stderr, "\r\033[K");
	if (rc)
		kab_err_set(err, "make bzImage failed (exit %d)", rc);
out:
	free(outarg);
	free(ccarg);
	free(ccache);
	return rc ? -1 : 0;
}
