// SPDX-License-Identifier: GPL-2.0
/*
 * config.c - defaults from a git-config style file:
 * $KAB_CONFIG, else $XDG_CONFIG_HOME/kab/config (~/.config/kab/config).
 *
 *	[core]
 *		db = ~/kab/ci.db	# the database, below --db and $KAB_DB
 *	[run]
 *		runs = 5		# kab run --runs 5, before the line's own
 *		target = qemu
 *	[compare]
 *		stats = true		# an option without a value: true/false
 *	[ci-gate]
 *		threshold = 2
 *	[lava]
 *		token = ...		# a LAVA server's user token
 *		files = /srv/www/kab	# where the lab fetches kernels from,
 *		files-url = http://host/kab	# and its URL
 *		grace = 60		# seconds a cancelled job may take to end
 *		boot-timeout = 240	# a running job's deploy and boot
 *
 * Each section is a command (ci's as ci-gate and ci-matrix), each key
 * one of its long options: the options go before the command line's,
 * which win, and a key the command does not take is an error naming
 * the file and line, as a misspelt option is.
 */
#include <ctype.h>
#include <errno.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

struct entry {
	char *section, *key, *value;
	int line;
};

static struct {
	char *path;
	struct entry *v;
	int nr;
	/* argv indices of the options that came from here, and whence */
	int argi[64], line[64], nr_argi;
	char **argv;		/* the command's, with them */
} cfg;

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static char *config_path(void)
{
	const char *env = getenv("KAB_CONFIG"), *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");

	if (env && *env)
		return xstrdup(env);
	if (xdg && *xdg)
		return xasprintf("%s/kab/config", xdg);
	if (home && *home)
		return xasprintf("%s/.config/kab/config", home);
	return NULL;
}

/* A value's leading ~/ is the home directory, as git's paths. */
static char *expand(const char *v)
{
	const char *home = getenv("HOME");

	if (!strncmp(v, "~/", 2) && home && *home)
		return xasprintf("%s/%s", home, v + 2);
	return xstrdup(v);
}

/*
 * A section is [core], [lava], a command's ([ci-gate], [ci-matrix] for
 * ci's): names holds the commands.
 */
static bool section_known(const char *s, const char *const *names,
			  size_t nr)
{
	size_t i;

	if (!strcmp(s, "core") || !strcmp(s, "lava") ||
	    !strcmp(s, "ci-gate") || !strcmp(s, "ci-matrix"))
		return true;
	for (i = 0; i < nr; i++)
		if (!strcmp(s, names[i]) && strcmp(s, "ci"))
			return true;
	return false;
}

static int unknown_section(int n, const char *s, const char *const *names,
			   size_t nr)
{
	const char *all[64], *near;
	size_t i, k = 0;

	all[k++] = "core";
	all[k++] = "lava";
	all[k++] = "ci-gate";
	all[k++] = "ci-matrix";
	for (i = 0; i < nr && k < ARRAY_SIZE(all); i++)
		if (strcmp(names[i], "ci"))
			all[k++] = names[i];
	near = kab_nearest(s, all, k);
	if (near)
		return cli_error(EXIT_USAGE, "%s:%d: [%s] is no section: did "
				 "you mean [%s]?", cfg.path, n, s, near);
	return cli_error(EXIT_USAGE, "%s:%d: [%s] is no section: name a "
			 "command ([run], [compare], [ci-gate]), [core] or "
			 "[lava]", cfg.path, n, s);
}

int cli_config_load(const char *const *names, size_t nr)
{
	struct strbuf sb = STRBUF_INIT;
	struct kab_err err;
	char *line, *next, *section = NULL;
	int n = 0, rc = 0;

	cfg.path = config_path();
	if (!cfg.path)
		return 0;
	if (read_file(cfg.path, &sb, &err)) {
		/*
		 * No file: no defaults.  A default place this user cannot
		 * look into (~/.config of mode 0700 of another user, 000):
		 * no file as far as kab can know, said once.  A file that
		 * is there but cannot be read, or $KAB_CONFIG's: an error.
		 */
		struct stat st;
		int e = stat(cfg.path, &st) ? errno : 0;

		if (e == ENOENT || e == ENOTDIR)
			return 0;
		if (e == EACCES &&
		    !(getenv("KAB_CONFIG") && *getenv("KAB_CONFIG"))) {
			cli_note("cannot look into the directory of %s (%s): "
				 "no config file is read; fix its permissions "
				 "or set KAB_CONFIG", cfg.path,
				 strerror(EACCES));
			return 0;
		}
		return cli_error(EXIT_USAGE, "%s: set KAB_CONFIG to another "
				 "file or fix it", err.msg);
	}
	if (memchr(sb.buf, '\0', sb.len)) {
		n = 1;
		for (line = sb.buf; line < (char *)memchr(sb.buf, '\0',
							 sb.len); line++)
			n += *line == '\n';
		rc = cli_error(EXIT_USAGE, "%s:%d: a NUL byte: the file is "
			       "not text; remove it", cfg.path, n);
		strbuf_release(&sb);
		return rc;
	}
	for (line = sb.buf; line && !rc; line = next) {
		char *s, *eq;

		n++;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		line[strcspn(line, "#;")] = '\0';
		s = trim(line);
		if (!*s)
			continue;
		if (*s == '[') {
			char *end = strchr(s, ']');

			if (!end || *trim(end + 1)) {
				rc = cli_error(EXIT_USAGE, "%s:%d: a section is "
					       "[name]", cfg.path, n);
				break;
			}
			*end = '\0';
			section = trim(s + 1);
			if (!kab_name_ok(section, 64)) {
				rc = cli_error(EXIT_USAGE, "%s:%d: '%s' is not "
					       "a section: name a command "
					       "([run], [compare], [ci-gate]) "
					       "or [core]", cfg.path, n,
					       section);
				break;
			}
			if (!section_known(section, names, nr)) {
				rc = unknown_section(n, section, names, nr);
				break;
			}
			continue;
		}
		eq = strchr(s, '=');
		if (!eq || !section) {
			rc = cli_error(EXIT_USAGE, "%s:%d: expected 'key = "
				       "value' under a [section]", cfg.path,
				       n);
			break;
		}
		*eq = '\0';
		if (!kab_name_ok(trim(s), 64) || !kab_text_ok(trim(eq + 1),
							      4096)) {
			rc = cli_error(EXIT_USAGE, "%s:%d: '%s' is not an "
				       "option's name", cfg.path, n, trim(s));
			break;
		}
		cfg.v = xrealloc(cfg.v, (cfg.nr + 1) * sizeof(*cfg.v));
		cfg.v[cfg.nr].section = xstrdup(section);
		cfg.v[cfg.nr].key = xstrdup(trim(s));
		cfg.v[cfg.nr].value = expand(trim(eq + 1));
		cfg.v[cfg.nr++].line = n;
	}
	strbuf_release(&sb);
	for (n = 0; !rc && n < cfg.nr; n++)
		if (!strcmp(cfg.v[n].section, "core") &&
		    strcmp(cfg.v[n].key, "db"))
			rc = cli_error(EXIT_USAGE, "%s:%d: [core] takes db "
				       "only", cfg.path, cfg.v[n].line);
		else if (!strcmp(cfg.v[n].section, "lava") &&
			 strcmp(cfg.v[n].key, "token") &&
			 strcmp(cfg.v[n].key, "files") &&
			 strcmp(cfg.v[n].key, "files-url") &&
			 strcmp(cfg.v[n].key, "grace") &&
			 strcmp(cfg.v[n].key, "boot-timeout"))
			rc = cli_error(EXIT_USAGE, "%s:%d: [lava] takes token, "
				       "files, files-url, grace and "
				       "boot-timeout", cfg.path,
				       cfg.v[n].line);
	return rc;
}

const char *cli_config_get(const char *section, const char *key)
{
	int i;

	for (i = cfg.nr - 1; i >= 0; i--)
		if (!strcmp(cfg.v[i].section, section) &&
		    !strcmp(cfg.v[i].key, key))
			return cfg.v[i].value;
	return NULL;
}

const char *cli_config_db(void)
{
	return cli_config_get("core", "db");
}

/*
 * argv with the section's options put before the command line's own:
 * argv[0..skip) (the command, and ci's subcommand) first.  New argv
 * malloc'd (its strings borrowed or the config's); *argc updated.
 */
char **cli_config_argv(const char *section, int skip, int *argc,
		       char **argv)
{
	char **v;
	int i, o = 0;

	cfg.nr_argi = 0;
	v = xcalloc(*argc + cfg.nr + 1, sizeof(*v));
	for (i = 0; i < skip && i < *argc; i++)
		v[o++] = argv[i];
	for (i = 0; i < cfg.nr; i++) {
		const struct entry *e = &cfg.v[i];

		if (strcmp(e->section, section))
			continue;
		if (!strcmp(e->value, "false") || !strcmp(e->value, "no"))
			continue;
		if (cfg.nr_argi < (int)ARRAY_SIZE(cfg.argi)) {
			cfg.argi[cfg.nr_argi] = o - skip + 1;
			cfg.line[cfg.nr_argi++] = e->line;
		}
		v[o++] = !strcmp(e->value, "true") || !strcmp(e->value, "yes") ?
			 xasprintf("--%s", e->key) :
			 xasprintf("--%s=%s", e->key, e->value);
	}
	for (i = skip; i < *argc; i++)
		v[o++] = argv[i];
	*argc = o;
	free(cfg.argv);
	cfg.argv = v;
	return v;
}

int cli_config_line(int argi)
{
	int i;

	for (i = 0; i < cfg.nr_argi; i++)
		if (cfg.argi[i] == argi)
			return cfg.line[i];
	return 0;
}

const char *cli_config_path(void)
{
	return cfg.path;
}
