// SPDX-License-Identifier: GPL-2.0
/*
 * ci-matrix.c - kab ci matrix: the cells of a CI matrix, one per job
 * parameter set and kernel, as GitHub Actions' strategy.matrix takes
 * them ({"include": [...]}, on one line for $GITHUB_OUTPUT).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ci.h"
#include "../runner/runner.h"

/* Does key take more than one value over the expanded jobs? */
static bool is_axis(const struct kab_joblist *l, const char *key)
{
	const char *first = kab_job_get(&l->jobs[0], key);
	int i;

	for (i = 1; i < l->nr; i++) {
		const char *v = kab_job_get(&l->jobs[i], key);

		if (!v || !first || strcmp(v, first))
			return true;
	}
	return false;
}

static bool name_safe(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_';
}

/* The cell's name, usable as an artifact and file name. */
static char *cell_name(const char *job, const char *axes, const char *kernel)
{
	char *s = xasprintf("%s%s%s-%s", job, *axes ? "-" : "", axes, kernel);
	char *p;

	for (p = s; *p; p++)
		if (!name_safe(*p))
			*p = '_';
	return s;
}

static int add_cells(json_t *include, const char *path,
		     const struct kab_joblist *l, char *const *kernels,
		     size_t nr_kernels)
{
	int i, k;
	size_t j;

	for (i = 0; i < l->nr; i++) {
		const struct kab_job *job = &l->jobs[i];
		struct strbuf set = STRBUF_INIT, axes = STRBUF_INIT;
		json_t *params = json_object();

		for (k = 0; k < job->nr_params; k++) {
			const char *key = job->params[k].key;
			const char *val = job->params[k].value;
			char *kv;

			json_object_set_new(params, key, json_string(val));
			if (l->nr < 2 || !is_axis(l, key))
				continue;
			kv = xasprintf("%s=%s", key, val);
			strbuf_addf(&set, "%s--set ", set.len ? " " : "");
			strbuf_add_shell_word(&set, kv);
			strbuf_addf(&axes, "%s%s", axes.len ? "-" : "", kv);
			free(kv);
		}
		for (j = 0; j < nr_kernels; j++) {
			char *name = cell_name(job->name, axes.len ? axes.buf :
					       "", kernels[j]);

			json_array_append_new(include, json_pack(
				"{s:s, s:s, s:s, s:O, s:s}", "cell", name,
				"job", path, "set", set.len ? set.buf : "",
				"params", params, "kernel", kernels[j]));
			free(name);
		}
		json_decref(params);
		strbuf_release(&set);
		strbuf_release(&axes);
	}
	return 0;
}

int ci_matrix(char *const *jobs, size_t nr_jobs, char *const *kernels,
	      size_t nr_kernels)
{
	json_t *include = json_array(), *doc;
	struct kab_err err;
	size_t i;
	int rc = EXIT_OK;

	for (i = 0; i < nr_jobs && !rc; i++) {
		struct kab_joblist l;

		if (kab_job_load(jobs[i], NULL, 0, &l, &err)) {
			rc = cli_error(EXIT_USAGE, "%s", err.msg);
			break;
		}
		add_cells(include, jobs[i], &l, kernels, nr_kernels);
		kab_joblist_free(&l);
	}
	if (!rc) {
		doc = json_pack("{s:O}", "include", include);
		json_dumpf(doc, stdout, JSON_COMPACT | JSON_PRESERVE_ORDER);
		putchar('\n');
		json_decref(doc);
	}
	json_decref(include);
	return rc;
}
