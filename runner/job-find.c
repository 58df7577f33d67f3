// SPDX-License-Identifier: GPL-2.0
/*
 * job-find.c - a job named on the command line: a file, '-' (stdin),
 * or a name looked up along kab's job path, so that an installed kab
 * runs 'kab run will-it-scale-malloc1' from any directory.
 *
 * The path: each directory of $KAB_JOBS, then $XDG_DATA_HOME/kab/jobs
 * (~/.local/share/kab/jobs), then the jobs installed beside kab
 * (<bindir>/../share/kab/jobs), then a checkout's jobs/ (kab runs from
 * <checkout>/build).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

static void push(char ***v, int *n, char *dir)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = dir;
}

int kab_job_dirs(char ***dirs)
{
	const char *env = getenv("KAB_JOBS"), *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");
	char *exe = kab_exe_dir(), *copy, *tok, *save;
	int n = 0;

	*dirs = NULL;
	if (env && *env) {
		copy = xstrdup(env);
		for (tok = strtok_r(copy, ":", &save); tok;
		     tok = strtok_r(NULL, ":", &save))
			push(dirs, &n, xstrdup(tok));
		free(copy);
	}
	if (xdg && *xdg)
		push(dirs, &n, xasprintf("%s/kab/jobs", xdg));
	else if (home && *home)
		push(dirs, &n, xasprintf("%s/.local/share/kab/jobs", home));
	if (exe) {
		push(dirs, &n, xasprintf("%s/../share/kab/jobs", exe));
		push(dirs, &n, xasprintf("%s/../jobs", exe));
	}
	free(exe);
	return n;
}

static void dirs_free(char **dirs, int n)
{
	while (n--)
		free(dirs[n]);
	free(dirs);
}

static bool is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* The job name of a file name: without .yaml or .yml; NULL if neither. */
static char *job_name(const char *file)
{
	size_t len = strlen(file);

	if (len > 5 && !strcmp(file + len - 5, ".yaml"))
		return xstrndup(file, len - 5);
	if (len > 4 && !strcmp(file + len - 4, ".yml"))
		return xstrndup(file, len - 4);
	return NULL;
}

int kab_job_names(char ***names)
{
	char **dirs, **v = NULL;
	int nd = kab_job_dirs(&dirs), n = 0, i, j;

	for (i = 0; i < nd; i++) {
		DIR *d = opendir(dirs[i]);
		struct dirent *e;

		while (d && (e = readdir(d))) {
			char *name = job_name(e->d_name), *p;
			bool dup = false;

			if (!name || !kab_name_ok(name, 200)) {
				free(name);
				continue;
			}
			p = xasprintf("%s/%s", dirs[i], e->d_name);
			for (j = 0; j < n; j++)
				dup |= !strcmp(v[j], name);
			if (dup || !is_file(p))
				free(name);
			else
				push(&v, &n, name);
			free(p);
		}
		if (d)
			closedir(d);
	}
	dirs_free(dirs, nd);
	qsort(v, n, sizeof(*v), kab_strcmp_ptr);
	*names = v;
	return n;
}

/* The known name nearest to word, as kab's did-you-mean, or NULL. */
static char *nearest_job(const char *word)
{
	char **names, *best = NULL;
	int n = kab_job_names(&names), i, d, best_d = 0;

	for (i = 0; i < n; i++) {
		d = kab_edit_distance(word, names[i]);
		if (!best || d < best_d) {
			best = names[i];
			best_d = d;
		}
	}
	best = best && 2 * best_d < (int)strlen(word) ? xstrdup(best) : NULL;
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return best;
}

int kab_job_find(const char *arg, char **path, struct kab_err *err)
{
	char **dirs, *near, *name;
	int nd, i;

	*path = NULL;
	/* '-', a path, or a file here: as given */
	if (!strcmp(arg, "-") || strchr(arg, '/') || is_file(arg)) {
		*path = xstrdup(arg);
		return 0;
	}
	if (!kab_name_ok(arg, 200))
		return kab_err_set(err, "job '%s': no such file, and not a job "
				   "name: name a file", arg);
	nd = kab_job_dirs(&dirs);
	name = job_name(arg);
	for (i = 0; i < nd && !*path; i++) {
		char *p[] = {
			xasprintf("%s/%s.yaml", dirs[i], arg),
			xasprintf("%s/%s.yml", dirs[i], arg),
			name ? xasprintf("%s/%s", dirs[i], arg) : NULL,
		};
		size_t k;

		for (k = 0; k < ARRAY_SIZE(p); k++) {
			if (!*path && p[k] && is_file(p[k]))
				*path = realpath(p[k], NULL);
			free(p[k]);
		}
	}
	free(name);
	dirs_free(dirs, nd);
	if (*path)
		return 0;
	near = nearest_job(arg);
	if (near) {
		kab_err_set(err, "job '%s': no such file or job: did you mean "
			    "'%s'? 'kab run --list-jobs' lists the jobs", arg,
			    near);
		free(near);
		return -1;
	}
	return kab_err_set(err, "job '%s': no such file or job: 'kab run "
			   "--list-jobs' lists the jobs and where kab looks "
			   "(KAB_JOBS adds directories)", arg);
}
