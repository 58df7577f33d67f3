// SPDX-License-Identifier: GPL-2.0
/*
 * ssh.c - a test machine reached with OpenSSH: the destination from an
 * ssh:// URL, remote commands whose every word is quoted for the remote
 * shell, and the agent shipped once per content (with its libraries
 * and dynamic loader, so the remote's own need not match ours; and
 * stress-ng when the job runs it and the machine has none).
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <nettle/sha2.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"

#define LOADER "ld-linux-x86-64.so.2"

int kab_ssh_parse(const char *url, struct kab_ssh *s, struct kab_err *err)
{
	const char *p, *colon;
	size_t n;

	memset(s, 0, sizeof(*s));
	if (strncmp(url, "ssh://", 6))
		return kab_err_set(err, "target '%s': write an ssh target as "
				   "ssh://[user@]host[:port]", url);
	p = url + 6;
	n = strcspn(p, "/");
	if (p[n] && p[n + 1])
		return kab_err_set(err, "target '%s': no path after the host: "
				   "ssh://[user@]host[:port]", url);
	colon = memchr(p, ':', n);
	if (colon && colon[1] != '[') {
		s->port = xstrndup(colon + 1, p + n - colon - 1);
		if (!*s->port || strspn(s->port, "0123456789") !=
		    strlen(s->port)) {
			kab_ssh_free(s);
			return kab_err_set(err, "target '%s': the port must be a "
					   "number", url);
		}
		n = colon - p;
	}
	s->dest = xstrndup(p, n);
	/* an option for ssh, or characters no host name has */
	if (!*s->dest || s->dest[0] == '-' ||
	    strcspn(s->dest, " \t\n'\"\\;|&$`<>()") != strlen(s->dest)) {
		kab_ssh_free(s);
		return kab_err_set(err, "target '%s': not a host: "
				   "ssh://[user@]host[:port]", url);
	}
	return 0;
}

void kab_ssh_free(struct kab_ssh *s)
{
	free(s->dest);
	free(s->port);
	free(s->home);
	free(s->dir);
	free(s->stressng);
	memset(s, 0, sizeof(*s));
}

/* ssh's argv: the remote command is one string of quoted words. */
static char **ssh_argv(const struct kab_ssh *s, const char *const *words)
{
	const char *prog = getenv("KAB_SSH");
	struct strbuf cmd = STRBUF_INIT;
	char **argv = xcalloc(40, sizeof(*argv)), *copy, *tok, *save;
	int n = 0;
	size_t i;

	/* $KAB_SSH: the ssh command, words split at blanks ("ssh -F f") */
	copy = xstrdup(prog && *prog ? prog : "ssh");
	for (tok = strtok_r(copy, " \t", &save); tok && n < 16;
	     tok = strtok_r(NULL, " \t", &save))
		argv[n++] = xstrdup(tok);
	free(copy);
	if (!n)
		argv[n++] = xstrdup("ssh");
	argv[n++] = xstrdup("-o");
	argv[n++] = xstrdup("BatchMode=yes");
	argv[n++] = xstrdup("-o");
	argv[n++] = xstrdup("ConnectTimeout=10");
	/* a machine that stops answering is noticed within ~15 s */
	argv[n++] = xstrdup("-o");
	argv[n++] = xstrdup("ServerAliveInterval=5");
	argv[n++] = xstrdup("-o");
	argv[n++] = xstrdup("ServerAliveCountMax=3");
	if (s->port) {
		argv[n++] = xstrdup("-p");
		argv[n++] = xstrdup(s->port);
	}
	argv[n++] = xstrdup("--");
	argv[n++] = xstrdup(s->dest);
	for (i = 0; words[i]; i++) {
		if (i)
			strbuf_addstr(&cmd, " ");
		strbuf_add_shell_word(&cmd, words[i]);
	}
	argv[n++] = strbuf_detach(&cmd);
	return argv;
}

static void argv_free(char **argv)
{
	size_t i;

	for (i = 0; argv[i]; i++)
		free(argv[i]);
	free(argv);
}

pid_t kab_ssh_spawn(const struct kab_ssh *s, const char *const *words,
		    int *in_fd, int *out_fd, int *err_fd,
		    struct kab_err *err)
{
	char **argv = ssh_argv(s, words);
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, efd = -1;
	pid_t pid;

	if ((in_fd && pipe2(in, O_CLOEXEC)) || (out_fd && pipe2(out,
								O_CLOEXEC)) ||
	    (err_fd && (efd = kab_stderr_file()) < 0)) {
		argv_free(argv);
		return kab_err_set(err, "pipe: %s", strerror(errno));
	}
	pid = fork();
	if (pid < 0) {
		argv_free(argv);
		return kab_err_set(err, "fork: %s", strerror(errno));
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(in_fd ? in[0] : null, 0);
		dup2(out_fd ? out[1] : null, 1);
		if (err_fd)
			dup2(efd, 2);
		/* ^C is kab's to handle: it stops the run in order */
		setpgid(0, 0);
		signal(SIGINT, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		execvp(argv[0], argv);
		dprintf(2, "kab: cannot run %s: %s: install openssh-client or "
			"set KAB_SSH\n", argv[0], strerror(errno));
		_exit(127);
	}
	argv_free(argv);
	if (in_fd) {
		close(in[0]);
		*in_fd = in[1];
	}
	if (out_fd) {
		close(out[1]);
		*out_fd = out[0];
	}
	if (err_fd)
		*err_fd = efd;
	return pid;
}

int kab_ssh_run(const struct kab_ssh *s, const char *const *words,
		struct strbuf *out, struct kab_err *err)
{
	int fd, efd, status;
	char buf[4096], *said;
	ssize_t n;
	pid_t pid = kab_ssh_spawn(s, words, NULL, &fd, &efd, err);

	if (pid < 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf))) > 0 ||
	       (n < 0 && errno == EINTR))
		if (n > 0 && out)
			strbuf_add(out, buf, n);
	close(fd);
	status = kab_wait(pid);
	said = kab_stderr_read(efd);
	if (status == 255) {
		kab_last_line(said, buf, sizeof(buf));
		kab_err_set(err, "cannot reach %s over ssh (%s): check 'ssh "
			    "%s%s %s true' works without a password", s->dest,
			    *buf ? buf : "ssh exit 255", s->port ? "-p " : "",
			    s->port ? s->port : "", s->dest);
	} else if (*said) {
		snprintf(buf, sizeof(buf), "%s said", s->dest);
		kab_note_lines(s->note, s->note_ctx, buf, said);
	}
	free(said);
	return status;
}

/* ---- shipping the agent ---- */

static int tar_add(struct archive *a, const char *name, const char *host,
		   const char *text, struct kab_err *err)
{
	struct archive_entry *e = archive_entry_new();
	struct strbuf sb = STRBUF_INIT;
	struct stat st = { .st_mode = 0755 };
	int ret = 0;

	if (host && (stat(host, &st) || read_file(host, &sb, err))) {
		archive_entry_free(e);
		return kab_err_set(err, "cannot read %s: %s", host,
				   strerror(errno));
	}
	if (!host)
		strbuf_addstr(&sb, text);
	archive_entry_set_pathname(e, name);
	archive_entry_set_mode(e, S_IFREG | (st.st_mode & 0755));
	archive_entry_set_size(e, sb.len);
	if (archive_write_header(a, e) != ARCHIVE_OK ||
	    (sb.len && archive_write_data(a, sb.buf, sb.len) !=
	     (la_ssize_t)sb.len))
		ret = kab_err_set(err, "cannot pack %s: %s", name,
				  archive_error_string(a));
	archive_entry_free(e);
	strbuf_release(&sb);
	return ret;
}

static la_ssize_t tar_write(struct archive *a, void *arg, const void *buf,
			    size_t n)
{
	int fd = *(int *)arg;

	(void)a;
	return write_all(fd, buf, n) ? -1 : (la_ssize_t)n;
}

/* The files as a tar stream into fd. */
static int tar_stream(int fd, const struct kab_files *l, const char *wrapper,
		      struct kab_err *err)
{
	struct archive *a = archive_write_new();
	int i, ret = 0;

	archive_write_set_format_pax_restricted(a);
	archive_write_add_filter_none(a);
	archive_write_set_bytes_in_last_block(a, 1);
	if (archive_write_open(a, &fd, NULL, tar_write, NULL) != ARCHIVE_OK)
		ret = kab_err_set(err, "tar: %s", archive_error_string(a));
	for (i = 0; !ret && i < l->nr; i++)
		ret = tar_add(a, l->guest[i], l->host[i], NULL, err);
	if (!ret && wrapper)
		ret = tar_add(a, "bin/stress-ng", NULL, wrapper, err);
	if (!ret && archive_write_close(a) != ARCHIVE_OK)
		ret = kab_err_set(err, "tar: %s", archive_error_string(a));
	archive_write_free(a);
	return ret;
}

/* What the remote is: its cache directory, its own stress-ng if any. */
int kab_ssh_probe(struct kab_ssh *s, struct kab_err *err)
{
	static const char *const words[] = {
		"sh", "-c", "echo \"${XDG_CACHE_HOME:-$HOME/.cache}\"; "
		"command -v stress-ng || true", NULL };
	struct strbuf out = STRBUF_INIT;
	char *nl;
	int rc = kab_ssh_run(s, words, &out, err);

	if (rc || !out.buf || out.buf[0] != '/') {
		if (rc != 255 && rc >= 0)
			kab_err_set(err, "%s did not say where its cache is "
				    "(exit %d): is sh there, and HOME set?",
				    s->dest, rc);
		strbuf_release(&out);
		return -1;
	}
	nl = strchr(out.buf, '\n');
	s->home = xstrndup(out.buf, nl ? (size_t)(nl - out.buf) : out.len);
	if (nl && nl[1] == '/') {
		char *end = strchr(nl + 1, '\n');

		s->stressng = xstrndup(nl + 1, end ? (size_t)(end - nl - 1) :
				       strlen(nl + 1));
	}
	strbuf_release(&out);
	return 0;
}

/* stress-ng under the shipped loader and libraries; paths quoted. */
static char *stressng_wrapper(const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	char *loader = xasprintf("%s/lib/" LOADER, dir);
	char *lib = xasprintf("%s/lib", dir);
	char *bin = xasprintf("%s/stress-ng.bin", dir);

	strbuf_addstr(&sb, "#!/bin/sh\nexec ");
	strbuf_add_shell_word(&sb, loader);
	strbuf_addstr(&sb, " --library-path ");
	strbuf_add_shell_word(&sb, lib);
	strbuf_addstr(&sb, " ");
	strbuf_add_shell_word(&sb, bin);
	strbuf_addstr(&sb, " \"$@\"\n");
	free(loader);
	free(lib);
	free(bin);
	return strbuf_detach(&sb);
}

static char *bundle_hash(const struct kab_files *l, struct kab_err *err)
{
	struct sha256_ctx h;
	uint8_t d[SHA256_DIGEST_SIZE];
	int i;

	sha256_init(&h);
	for (i = 0; i < l->nr; i++) {
		sha256_update(&h, strlen(l->guest[i]) + 1,
			      (const uint8_t *)l->guest[i]);
		if (kab_files_hash_one(&h, l->host[i], err))
			return NULL;
	}
	sha256_digest(&h, sizeof(d), d);
	return kab_sha256_hex(d, sizeof(d), 16);
}

int kab_ssh_stage(struct kab_ssh *s, const char *agent,
		  const struct kab_job *job, struct kab_err *err)
{
	const struct kab_workload *w = kab_workload_find(job->suite,
							 job->test);
	bool want_stressng = w && w->program &&
			     !strcmp(w->program, "stress-ng");
	struct kab_files l = { 0 };
	char *stressng = NULL, *hash, *wrapper = NULL, *done;
	struct strbuf out = STRBUF_INIT;
	int rc = -1, in_fd;
	pid_t pid;

	if (!s->home && kab_ssh_probe(s, err))
		return -1;
	kab_files_add(&l, agent, "kab-agent");
	if (kab_files_add_deps(&l, agent, "lib", err))
		goto out;
	if (want_stressng && !s->stressng) {
		stressng = find_in_path("stress-ng");
		if (!stressng) {
			kab_err_set(err, "%s has no stress-ng and neither has "
				    "this machine: install it on either "
				    "(apt-get install stress-ng)", s->dest);
			goto out;
		}
		kab_files_add(&l, stressng, "stress-ng.bin");
		if (kab_files_add_deps(&l, stressng, "lib", err))
			goto out;
	}
	hash = bundle_hash(&l, err);
	if (!hash)
		goto out;
	free(s->dir);
	s->dir = xasprintf("%s/kab/agent-%s", s->home, hash);
	free(hash);
	if (stressng)
		wrapper = stressng_wrapper(s->dir);
	/* shipped before, completely: the marker comes last */
	done = xasprintf("%s/.complete", s->dir);
	{
		const char *const test[] = { "test", "-e", done, NULL };

		rc = kab_ssh_run(s, test, &out, err);
	}
	if (rc == 0) {
		free(done);
		goto found;
	}
	if (rc < 0 || rc == 255) {
		free(done);
		rc = -1;
		goto out;
	}
	{
		/* mkdir -p DIR && tar -xf - -C DIR && touch DONE */
		const char *const words[] = {
			"sh", "-c", "mkdir -p \"$1\" && tar -xf - -C \"$1\" && "
			"touch \"$2\"", "sh", s->dir, done, NULL };

		int efd = -1, status;
		char *said, last[256];

		pid = kab_ssh_spawn(s, words, &in_fd, NULL, &efd, err);
		free(done);
		if (pid < 0) {
			rc = -1;
			goto out;
		}
		signal(SIGPIPE, SIG_IGN);
		rc = tar_stream(in_fd, &l, wrapper, err);
		close(in_fd);
		status = kab_wait(pid);
		/* what ssh or tar said is the run's, not the terminal's */
		said = kab_stderr_read(efd);
		kab_last_line(said, last, sizeof(last));
		if (status && !rc)
			rc = kab_err_set(err, "cannot unpack the agent in %s on "
					 "%s (%s): is tar there, and room in "
					 "the home?", s->dir, s->dest,
					 *last ? last : "no word of why");
		else if (*said) {
			snprintf(last, sizeof(last), "%s said", s->dest);
			kab_note_lines(s->note, s->note_ctx, last, said);
		}
		free(said);
		if (rc)
			goto out;
	}
found:
	if (stressng) {
		free(s->stressng);
		s->stressng = xasprintf("%s/bin/stress-ng", s->dir);
	}
	rc = 0;
out:
	strbuf_release(&out);
	kab_files_free(&l);
	free(stressng);
	free(wrapper);
	return rc;
}
