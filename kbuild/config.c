// SPDX-License-Identifier: GPL-2.0
/*
 * config.c - a kernel config from a base (tinyconfig, defconfig or a
 * file) and fragments, merged with the tree's own merge_config.sh and
 * settled by make olddefconfig; then every option a fragment asked for
 * is looked up in the result, because Kconfig silently drops what it
 * cannot satisfy.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

extern const char kab_frag_qemu[], kab_frag_qemu_end[];
extern const char kab_frag_agent[], kab_frag_agent_end[];

static int write_frag(const char *path, const char *b, const char *e,
		      struct kab_err *err)
{
	struct strbuf old = STRBUF_INIT;

	/* unchanged: leave it (and its mtime) alone */
	if (!read_file(path, &old, NULL) && old.len == (size_t)(e - b) &&
	    !memcmp(old.buf, b, old.len)) {
		strbuf_release(&old);
		return 0;
	}
	strbuf_release(&old);
	return write_file_atomic(path, b, e - b, err);
}

int kab_kab_fragments(const char *dir, char *paths[2], struct kab_err *err)
{
	paths[0] = xasprintf("%s/kab-qemu-x86_64.config", dir);
	paths[1] = xasprintf("%s/kab-agent.config", dir);
	if (write_frag(paths[0], kab_frag_qemu, kab_frag_qemu_end, err) ||
	    write_frag(paths[1], kab_frag_agent, kab_frag_agent_end, err)) {
		free(paths[0]);
		free(paths[1]);
		return -1;
	}
	return 0;
}

/* The last lines of out, for an error message. */
static const char *tail_lines(const struct strbuf *out, int n)
{
	const char *p = out->buf + out->len;

	while (p > out->buf && (p[-1] == '\n'))
		p--;
	while (p > out->buf && n) {
		p--;
		if (*p == '\n')
			n--;
	}
	return *p == '\n' ? p + 1 : p;
}

static int run(const char *src, struct strbuf *out, struct kab_err *err,
	       char *const *argv)
{
	struct kab_spawn s = { .argv = argv, .cwd = src,
			       .merge_stderr = true };
	int rc;

	strbuf_reset(out);
	rc = kab_run_capture(&s, out, err);
	if (rc > 0) {
		char *t = xstrdup(tail_lines(out, 3));
		char *nl;

		while ((nl = strchr(t, '\n')))
			*nl = ' ';
		kab_err_set(err, "%s %s failed (exit %d): %s", argv[0],
			    argv[1], rc, t);
		free(t);
	}
	return rc ? -1 : 0;
}

bool kbuild_base_is_target(const char *base)
{
	static const char *const targets[] = { "tinyconfig", "defconfig",
		"allnoconfig", "allmodconfig", "allyesconfig", NULL };
	int i;

	for (i = 0; targets[i]; i++)
		if (!strcmp(base, targets[i]))
			return true;
	return false;
}

int kbuild_make_config(const char *src, const char *cfg,
		       const struct kab_build_opts *o,
		       const char *const *frags, size_t nr,
		       struct kab_err *err)
{
	const char *base = o->base ? o->base : "tinyconfig";
	struct strbuf out = STRBUF_INIT;
	char *outarg = xasprintf("O=%s", cfg), *dot = NULL, *merge = NULL;
	char **argv = NULL;
	size_t i;
	int ret = -1;

	if (mkdir_p(cfg, 0755)) {
		kab_err_set(err, "cannot create %s: %s", cfg, strerror(errno));
		goto out;
	}
	dot = xasprintf("%s/.config", cfg);
	if (kbuild_base_is_target(base)) {
		char *const mk[] = { "make", "-s", outarg, (char *)base, NULL };

		if (run(src, &out, err, mk))
			goto out;
	} else {
		struct strbuf conf = STRBUF_INIT;
		int fd;

		if (read_file(base, &conf, err)) {
			kab_err_set(err, "--base %s: %s: give tinyconfig, "
				    "defconfig or a .config file", base,
				    strerror(errno));
			goto out;
		}
		fd = open(dot, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0 || write_all(fd, conf.buf, conf.len) || close(fd)) {
			kab_err_set(err, "cannot write %s", dot);
			strbuf_release(&conf);
			goto out;
		}
		strbuf_release(&conf);
	}
	merge = xasprintf("%s/scripts/kconfig/merge_config.sh", src);
	if (access(merge, R_OK)) {
		kab_err_set(err, "%s has no scripts/kconfig/merge_config.sh: "
			    "is it a kernel tree?", src);
		goto out;
	}
	argv = xcalloc(nr + 7, sizeof(*argv));
	argv[0] = "sh";
	argv[1] = merge;
	argv[2] = "-m";
	argv[3] = "-O";
	argv[4] = (char *)cfg;
	argv[5] = dot;
	for (i = 0; i < nr; i++)
		argv[6 + i] = (char *)frags[i];
	if (nr && run(src, &out, err, argv))
		goto out;
	{
		char *const mk[] = { "make", "-s", outarg, "olddefconfig",
				     NULL };

		if (run(src, &out, err, mk))
			goto out;
	}
	ret = 0;
out:
	strbuf_release(&out);
	free(argv);
	free(merge);
	free(dot);
	free(outarg);
	return ret;
}

/* ---- what the fragments asked for ---- */

struct want {
	char *name;		/* CONFIG_X */
	char *line;		/* CONFIG_X=y, or NULL: must not be set */
	const char *file;
};

static void want_set(struct want **w, size_t *n, char *name, char *line,
		     const char *file)
{
	size_t i;

	/* a later fragment overrides an earlier one, as in merge_config */
	for (i = 0; i < *n; i++)
		if (!strcmp((*w)[i].name, name)) {
			free((*w)[i].name);
			free((*w)[i].line);
			(*w)[i] = (struct want){ name, line, file };
			return;
		}
	*w = xrealloc(*w, (*n + 1) * sizeof(**w));
	(*w)[(*n)++] = (struct want){ name, line, file };
}

static int parse_fragment(const char *file, struct want **w, size_t *n,
			  struct kab_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	char *line, *save;

	if (read_file(file, &sb, err))
		return kab_err_set(err, "config fragment %s: %s", file,
				   strerror(errno));
	for (line = strtok_r(sb.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		size_t len = strlen(line), k;

		while (len && (line[len - 1] == ' ' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (!strncmp(line, "CONFIG_", 7) && strchr(line, '=')) {
			k = strchr(line, '=') - line;
			want_set(w, n, xasprintf("%.*s", (int)k, line),
				 xstrdup(line), file);
		} else if (!strncmp(line, "# CONFIG_", 9) && len > 13 &&
			   !strcmp(line + len - 11, " is not set")) {
			want_set(w, n, xasprintf("%.*s", (int)(len - 13),
						 line + 2), NULL, file);
		}
	}
	strbuf_release(&sb);
	return 0;
}

/* Does config hold this exact line? */
static bool has_line(const struct strbuf *c, const char *line)
{
	size_t n = strlen(line);
	const char *p = c->buf;

	while ((p = strstr(p, line))) {
		if ((p == c->buf || p[-1] == '\n') &&
		    (p[n] == '\n' || p[n] == '\0'))
			return true;
		p += n;
	}
	return false;
}

/* Is CONFIG_X set to anything? */
static bool is_set(const struct strbuf *c, const char *name)
{
	char *prefix = xasprintf("%s=", name);
	size_t n = strlen(prefix);
	const char *p = c->buf;
	bool found = false;

	while (!found && (p = strstr(p, prefix))) {
		found = p == c->buf || p[-1] == '\n';
		p += n;
	}
	free(prefix);
	return found;
}

char *kab_config_missing(const char *config, const char *const *fragments,
			 size_t nr, struct kab_err *err)
{
	struct strbuf c = STRBUF_INIT, miss = STRBUF_INIT;
	struct want *w = NULL;
	size_t n = 0, i;

	err->msg[0] = '\0';
	if (read_file(config, &c, err))
		return NULL;
	for (i = 0; i < nr; i++)
		if (parse_fragment(fragments[i], &w, &n, err))
			goto out;
	for (i = 0; i < n; i++) {
		bool ok = w[i].line ? has_line(&c, w[i].line) :
				      !is_set(&c, w[i].name);

		if (!ok && w[i].line)
			strbuf_addf(&miss, "%s (from %s)\n", w[i].line,
				    w[i].file);
		else if (!ok)
			strbuf_addf(&miss, "# %s is not set (from %s)\n",
				    w[i].name, w[i].file);
	}
out:
	for (i = 0; i < n; i++) {
		free(w[i].name);
		free(w[i].line);
	}
	free(w);
	strbuf_release(&c);
	if (err->msg[0] || !miss.len) {
		strbuf_release(&miss);
		return NULL;
	}
	return strbuf_detach(&miss);
}
