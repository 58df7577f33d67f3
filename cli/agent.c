// SPDX-License-Identifier: GPL-2.0
/*
 * agent.c - kab-agent: the program that runs on the machine under test.
 *
 *   kab-agent --job FILE|- [--iterations N] [--out PATH] [--exact]
 *             [--seed N] [--host-load] [--console]
 *
 * --seed N: exact mode's layout seed (runner/layout.c): the workload's
 * mappings, environment, heap and stack are moved by it.  --exact: the
 * clock counts guest instructions (QEMU icount), so each iteration is
 * fixed work timed by it.  --host-load: say (a log record)
 * when other processes kept the machine busy during the run, for a kab
 * that cannot see them (over ssh).  --console: PATH is the console that
 * the kernel and a lab (LAVA) read too: kernel messages below ALERT stay
 * off it and what the workload prints waits in a file, whose last lines
 * follow the end record, so that nothing splits a record; a console
 * also loses bytes (a UART has no flow control), so every record but a
 * profile's stacks goes out twice, numbered, and the host keeps one.
 *
 * Reads one expanded job as JSON, runs it and writes the record stream
 * to stdout (or PATH, a serial port in a guest).  Whatever the workload
 * prints goes to stderr, never into the stream.
 */
#include <alloca.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <termios.h>
#include <unistd.h>

#include "../runner/runner.h"

static int usage(int code)
{
	fprintf(code ? stderr : stdout,
		"usage: kab-agent --job FILE|- [--iterations N] [--out PATH]\n"
		"                 [--monitors all|none|NAME,...] [--exact]\n"
		"                 [--seed N]\n"
		"                 [--host-load] [--console]\n");
	return code;
}

static void remove_tree(const char *dir)
{
	static const char *const files[] = { "stress-ng.yaml", "stress-ng.log" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		char *p = xasprintf("%s/%s", dir, files[i]);

		unlink(p);
		free(p);
	}
	rmdir(dir);
}

/*
 * What the workload said on a console the records share: its last
 * lines, after the end record, and stderr back on the console.
 */
static void console_tail(int errfd, int out_fd)
{
	struct strbuf sb = STRBUF_INIT;
	char path[64];
	const char *p;
	int lines = 0;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", errfd);
	if (!read_file(path, &sb, NULL) && sb.len) {
		p = sb.buf + sb.len;
		while (p > sb.buf && lines <= 20)
			if (*--p == '\n')
				lines++;
		if (*p == '\n')
			p++;
		write_all(out_fd, p, sb.buf + sb.len - p);
		if (sb.buf[sb.len - 1] != '\n')
			write_all(out_fd, "\n", 1);
	}
	strbuf_release(&sb);
	dup2(out_fd, 2);
	close(errfd);
}

/*
 * The workload at its seed's layout: the environment's size, the heap's
 * start and the stack's depth moved (the kernel moved the rest).
 */
static int run_seeded(const struct kab_agent_opts *o)
{
	struct kab_layout l;
	volatile char *pad;
	void *heap;
	int ret;

	if (!o->seed)
		return kab_agent_run(o);
	kab_layout_of(o->seed, &l);
	heap = kab_layout_apply(&l);
	pad = alloca(l.stack + 16);
	pad[0] = 0;
	ret = kab_agent_run(o);
	pad[l.stack] = 0;
	free(heap);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "job", required_argument, NULL, 'j' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "out", required_argument, NULL, 'o' },
		{ "monitors", required_argument, NULL, 'm' },
		{ "exact", no_argument, NULL, 'x' },
		{ "seed", required_argument, NULL, 's' },
		{ "host-load", no_argument, NULL, 'L' },
		{ "console", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *job_path = NULL, *out_path = NULL, *tmp;
	char *bad;
	bool guest = false, console = false;
	char errlog[] = "/tmp/kab-agent-stderr.XXXXXX";
	int errfd = -1;
	struct kab_agent_opts o = { .iterations = 1 };
	struct kab_job job;
	struct kab_err err;
	json_error_t jerr;
	char tmpl[512];
	json_t *j;
	int opt, ret;

	/*
	 * As a guest's /init the kernel gives us what follows "--" on its
	 * command line; the stream goes to ttyS1, the console is ttyS0.
	 */
	if (getpid() == 1) {
		guest = true;
		if (kab_guest_setup(&err))
			fprintf(stderr, "kab-agent: %s\n", err.msg);
		job_path = "/job.json";
		out_path = "/dev/ttyS1";
	}
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			job_path = optarg;
			break;
		case 'n':
			o.iterations = atoi(optarg);
			break;
		case 'o':
			out_path = optarg;
			break;
		case 'm':
			o.monitors = optarg;
			bad = kab_monitor_check(optarg);
			if (bad) {
				fprintf(stderr, "kab-agent: --monitors: '%s' is "
					"not a monitor\n", bad);
				free(bad);
				return 2;
			}
			break;
		case 'L':
			o.host_load = true;
			break;
		case 'x':
			o.exact = true;
			break;
		case 's':
			if (kab_layout_seed_parse(optarg, &o.seed, &err)) {
				fprintf(stderr, "kab-agent: %s\n", err.msg);
				if (guest)
					kab_guest_poweroff();
				return 2;
			}
			break;
		case 'c':
			console = true;
			break;
		case 'h':
			return usage(0);
		default:
			return usage(2);
		}
	}
	if (!job_path || o.iterations < 1) {
		if (guest)
			kab_guest_poweroff();
		return usage(2);
	}
	j = strcmp(job_path, "-") ? json_load_file(job_path, 0, &jerr) :
				    json_loadf(stdin, 0, &jerr);
	if (!j) {
		fprintf(stderr, "kab-agent: %s: %s\n", job_path, jerr.text);
		return 2;
	}
	if (kab_job_from_json(j, &job, &err)) {
		fprintf(stderr, "kab-agent: %s\n", err.msg);
		json_decref(j);
		return 2;
	}
	json_decref(j);

	/* The stream gets its own descriptor; stdout becomes stderr. */
	if (out_path)
		o.out_fd = open(out_path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	else
		o.out_fd = fcntl(1, F_DUPFD_CLOEXEC, 3);
	if (o.out_fd < 0) {
		fprintf(stderr, "kab-agent: cannot open %s: %s\n",
			out_path ? out_path : "stdout", strerror(errno));
		kab_job_free(&job);
		return 1;
	}
	dup2(2, 1);
	if (isatty(o.out_fd)) {
		/* A serial port: bytes as they are, no \n -> \r\n. */
		struct termios t;

		if (!tcgetattr(o.out_fd, &t)) {
			cfmakeraw(&t);
			tcsetattr(o.out_fd, TCSANOW, &t);
		}
	}

	tmp = getenv("TMPDIR");
	snprintf(tmpl, sizeof(tmpl), "%s/kab-agent.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(tmpl)) {
		fprintf(stderr, "kab-agent: cannot make a directory in %s: %s\n",
			tmp && *tmp ? tmp : "/tmp", strerror(errno));
		kab_job_free(&job);
		return 1;
	}
	o.job = &job;
	o.tmpdir = tmpl;
	o.guest = guest;
	o.twice = console;
	if (guest)
		fprintf(stderr, "kab-agent: %s %s, %d iterations, records on "
			"%s\n", job.suite, job.test, o.iterations, out_path);
	if (console) {
		/* the console level: EMERG and ALERT only (a panic, an oops) */
		klogctl(8, NULL, 2);
		fflush(stderr);
		errfd = mkostemp(errlog, O_CLOEXEC);
		if (errfd >= 0) {
			unlink(errlog);
			dup2(errfd, 2);
			dup2(errfd, 1);
		}
	}
	ret = run_seeded(&o);
	if (errfd >= 0)
		console_tail(errfd, o.out_fd);
	if (guest)
		fprintf(stderr, "kab-agent: %s, powering off\n",
			ret ? "the job failed" : "done");
	remove_tree(tmpl);
	kab_job_free(&job);
	close(o.out_fd);
	if (guest)
		kab_guest_poweroff();
	return ret;
}
