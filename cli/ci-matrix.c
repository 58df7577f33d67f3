// SPDX-License-Identifier: GPL-2.0
/*
 * ci-matrix.c - kab ci matrix: the cells of a CI matrix, as GitHub
 * Actions' strategy.matrix takes them ({"include": [...]}, on one line
 * for $GITHUB_OUTPUT).
 *
 * A cell is a job parameter set (times --replicas), picked out of its
 * file by --only for each parameter that varies, and each cell
 * measures every kernel, interleaved, on its one runner: a runner's
 * speed then falls on all kernels alike, and kab compare takes the
 * differences within each runner (each cell's database is a block once
 * merged).  A cell per kernel would confound the runner with the
 * kernel.
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
static char *cell_name(const char *job, const char *axes, int replica,
		       int replicas)
{
	char *s = replicas > 1 ?
		  xasprintf("%s%s%s-r%d", job, *axes ? "-" : "", axes,
			    replica) :
		  xasprintf("%s%s%s", job, *axes ? "-" : "", axes);
	char *p;

	for (p = s; *p; p++)
		if (!name_safe(*p))
			*p = '_';
	return s;
}

/* "--OPT WORD", shell-quoted, after what sb holds. */
static void add_option(struct strbuf *sb, const char *opt, const char *word)
{
	strbuf_addf(sb, "%s--%s ", sb->len ? " " : "", opt);
	strbuf_add_shell_word(sb, word);
}

static int add_cells(json_t *include, const char *path,
		     const struct kab_joblist *l, const char *kernels,
		     int replicas, const struct ci_cell_opts *co,
		     const struct kab_jobsel *sel)
{
	int i, k, r;

	for (i = 0; i < l->nr; i++) {
		const struct kab_job *job = &l->jobs[i];
		struct strbuf set = STRBUF_INIT, axes = STRBUF_INIT;
		json_t *params = json_object();

		/* the matrix's own choices, then the cell's */
		if (co->clock)
			add_option(&set, "clock", co->clock);
		if (co->model)
			add_option(&set, "model", co->model);
		for (k = 0; k < sel->nr_sets; k++)
			add_option(&set, "set", sel->sets[k]);
		for (k = 0; k < sel->nr_only; k++)
			add_option(&set, "only", sel->only[k]);

		for (k = 0; k < job->nr_params; k++) {
			const char *key = job->params[k].key;
			const char *val = job->params[k].value;
			char *kv;

			json_object_set_new(params, key, json_string(val));
			if (l->nr < 2 || !is_axis(l, key))
				continue;
			kv = xasprintf("%s=%s", key, val);
			add_option(&set, "only", kv);
			strbuf_addf(&axes, "%s%s", axes.len ? "-" : "", kv);
			free(kv);
		}
		for (r = 1; r <= replicas; r++) {
			char *name = cell_name(job->name, axes.len ? axes.buf :
					       "", r, replicas);

			json_array_append_new(include, json_pack(
				"{s:s, s:s, s:s, s:O, s:s}", "cell", name,
				"job", path, "set", set.len ? set.buf : "",
				"params", params, "kernels", kernels));
			free(name);
		}
		json_decref(params);
		strbuf_release(&set);
		strbuf_release(&axes);
	}
	return 0;
}

int ci_matrix(char *const *jobs, size_t nr_jobs, char *const *kernels,
	      size_t nr_kernels, int replicas, const struct ci_cell_opts *co,
	      const struct kab_jobsel *sel)
{
	json_t *include = json_array(), *doc;
	struct strbuf names = STRBUF_INIT;
	size_t i;
	int rc = EXIT_OK;

	/* "base head": the shell loop of a cell goes over them */
	for (i = 0; i < nr_kernels; i++)
		strbuf_addf(&names, "%s%s", i ? " " : "", kernels[i]);
	for (i = 0; i < nr_jobs && !rc; i++) {
		struct kab_joblist l;

		rc = cli_load_jobs(jobs[i], sel, &l);
		if (rc)
			break;
		add_cells(include, jobs[i], &l, names.buf, replicas, co, sel);
		kab_joblist_free(&l);
	}
	if (!rc) {
		doc = json_pack("{s:O}", "include", include);
		cli_json_dumpf(doc, stdout, JSON_COMPACT | JSON_PRESERVE_ORDER);
		putchar('\n');
		json_decref(doc);
	}
	json_decref(include);
	strbuf_release(&names);
	return rc;
}
