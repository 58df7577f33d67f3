// SPDX-License-Identifier: GPL-2.0
/*
 * job.c - a job: its parameters, as JSON for an agent, as text for
 * humans.  Job files become jobs in job-expand.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int kab_job_param_cmp(const void *a, const void *b)
{
	return strcmp(((const struct kab_param *)a)->key,
		      ((const struct kab_param *)b)->key);
}

void kab_job_set(struct kab_job *job, const char *key, const char *value)
{
	int i;

	for (i = 0; i < job->nr_params; i++) {
		if (!strcmp(job->params[i].key, key)) {
			free(job->params[i].value);
			job->params[i].value = xstrdup(value);
			return;
		}
	}
	job->params = xrealloc(job->params,
			       (job->nr_params + 1) * sizeof(*job->params));
	job->params[job->nr_params].key = xstrdup(key);
	job->params[job->nr_params].value = xstrdup(value);
	job->nr_params++;
}

const char *kab_job_get(const struct kab_job *job, const char *key)
{
	int i;

	for (i = 0; i < job->nr_params; i++)
		if (!strcmp(job->params[i].key, key))
			return job->params[i].value;
	return NULL;
}

void kab_job_free(struct kab_job *job)
{
	int i;

	for (i = 0; i < job->nr_params; i++) {
		free(job->params[i].key);
		free(job->params[i].value);
	}
	free(job->params);
	free(job->name);
	free(job->suite);
	free(job->test);
	memset(job, 0, sizeof(*job));
}

void kab_job_copy(struct kab_job *dst, const struct kab_job *src)
{
	int i;

	memset(dst, 0, sizeof(*dst));
	dst->name = xstrdup(src->name);
	dst->suite = xstrdup(src->suite);
	dst->test = xstrdup(src->test);
	for (i = 0; i < src->nr_params; i++)
		kab_job_set(dst, src->params[i].key, src->params[i].value);
}

void kab_joblist_free(struct kab_joblist *list)
{
	int i;

	for (i = 0; i < list->nr; i++)
		kab_job_free(&list->jobs[i]);
	free(list->jobs);
	free(list->note);
	list->jobs = NULL;
	list->note = NULL;
	list->nr = 0;
}

json_t *kab_job_to_json(const struct kab_job *job)
{
	json_t *params = json_object();
	int i;

	for (i = 0; i < job->nr_params; i++)
		json_object_set_new(params, job->params[i].key,
				    json_string(job->params[i].value));
	return json_pack("{s:s, s:s, s:s, s:o}", "name", job->name,
			 "suite", job->suite, "test", job->test,
			 "params", params);
}

int kab_job_from_json(json_t *obj, struct kab_job *job, struct kab_err *err)
{
	const char *name, *suite, *test, *key;
	json_t *params, *v;

	memset(job, 0, sizeof(*job));
	if (json_unpack(obj, "{s:s, s:s, s:s, s:o}", "name", &name,
			"suite", &suite, "test", &test, "params", &params) ||
	    !json_is_object(params))
		return kab_err_set(err, "job description is missing name, "
				   "suite, test or params");
	job->name = xstrdup(name);
	job->suite = xstrdup(suite);
	job->test = xstrdup(test);
	json_object_foreach(params, key, v) {
		if (!json_is_string(v)) {
			kab_job_free(job);
			return kab_err_set(err, "job parameter '%s' is not a "
					   "string", key);
		}
		kab_job_set(job, key, json_string_value(v));
	}
	qsort(job->params, job->nr_params, sizeof(*job->params),
	      kab_job_param_cmp);
	return 0;
}

char *kab_job_describe(const struct kab_job *job)
{
	struct strbuf sb = STRBUF_INIT;
	int i;

	for (i = 0; i < job->nr_params; i++)
		strbuf_addf(&sb, "%s%s=%s", i ? " " : "", job->params[i].key,
			    job->params[i].value);
	return strbuf_detach(&sb);
}
