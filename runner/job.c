// SPDX-License-Identifier: GPL-2.0
/*
 * job.c - lkp-style YAML job files.
 *
 * A job is a mapping of parameters.  A nested mapping (lkp puts a
 * suite's own parameters under its name) is flattened; a list value
 * expands into one job per element, and several lists into their
 * Cartesian product.  The result is a list of fully specified parameter
 * sets, each validated against its workload and completed with the
 * workload's defaults, so that two runs with the same meaning compare
 * equal however their job files were spelled.
 */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "runner.h"

struct raw_param {
	char *key;
	int nr;
	char **vals;
	int line;
};

struct raw_job {
	int nr;
	struct raw_param *p;
};

static void raw_free(struct raw_job *rj)
{
	int i, j;

	for (i = 0; i < rj->nr; i++) {
		for (j = 0; j < rj->p[i].nr; j++)
			free(rj->p[i].vals[j]);
		free(rj->p[i].vals);
		free(rj->p[i].key);
	}
	free(rj->p);
	rj->p = NULL;
	rj->nr = 0;
}

static struct raw_param *raw_find(struct raw_job *rj, const char *key)
{
	int i;

	for (i = 0; i < rj->nr; i++)
		if (!strcmp(rj->p[i].key, key))
			return &rj->p[i];
	return NULL;
}

static struct raw_param *raw_add(struct raw_job *rj, const char *key, int line)
{
	struct raw_param *p;

	rj->p = xrealloc(rj->p, (rj->nr + 1) * sizeof(*rj->p));
	p = &rj->p[rj->nr++];
	memset(p, 0, sizeof(*p));
	p->key = xstrdup(key);
	p->line = line;
	return p;
}

static void raw_set(struct raw_param *p, char **vals, int nr)
{
	int j;

	for (j = 0; j < p->nr; j++)
		free(p->vals[j]);
	free(p->vals);
	p->vals = vals;
	p->nr = nr;
}

static int valid_key(const char *k)
{
	if (!*k || strlen(k) > 64)
		return 0;
	for (; *k; k++)
		if (!((*k >= 'a' && *k <= 'z') || (*k >= 'A' && *k <= 'Z') ||
		      (*k >= '0' && *k <= '9') || *k == '_' || *k == '-' ||
		      *k == '.'))
			return 0;
	return 1;
}

static int valid_value(const char *v)
{
	return kab_text_ok(v, 256) && !strchr(v, '/');
}

static int load_mapping(yaml_document_t *doc, yaml_node_t *map,
			struct raw_job *rj, const char *where, int depth,
			struct kab_err *err)
{
	yaml_node_pair_t *pair;

	for (pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++) {
		yaml_node_t *k = yaml_document_get_node(doc, pair->key);
		yaml_node_t *v = yaml_document_get_node(doc, pair->value);
		int line = k->start_mark.line + 1;
		const char *key;
		char **vals;
		int nr = 0;

		if (k->type != YAML_SCALAR_NODE)
			return kab_err_set(err, "%s:%d: a key must be a plain "
					   "name", where, line);
		key = (const char *)k->data.scalar.value;
		if (!valid_key(key))
			return kab_err_set(err, "%s:%d: '%s' is not a valid "
					   "parameter name: use letters, digits, "
					   "'_', '-' and '.'", where, line, key);
		if (v->type == YAML_MAPPING_NODE) {
			if (depth > 0)
				return kab_err_set(err, "%s:%d: '%s' nests "
						   "too deep: one level of "
						   "sections is allowed", where,
						   line, key);
			if (load_mapping(doc, v, rj, where, depth + 1, err))
				return -1;
			continue;
		}
		if (raw_find(rj, key))
			return kab_err_set(err, "%s:%d: '%s' is given twice: "
					   "keep one", where, line, key);
		if (v->type == YAML_SCALAR_NODE) {
			vals = xmalloc(sizeof(*vals));
			vals[nr++] = xstrdup((const char *)v->data.scalar.value);
		} else {
			yaml_node_item_t *it;
			size_t n = v->data.sequence.items.top -
				   v->data.sequence.items.start;

			if (!n)
				return kab_err_set(err, "%s:%d: '%s' is an empty "
						   "list: give at least one "
						   "value", where, line, key);
			vals = xcalloc(n, sizeof(*vals));
			for (it = v->data.sequence.items.start;
			     it < v->data.sequence.items.top; it++) {
				yaml_node_t *e = yaml_document_get_node(doc, *it);

				if (e->type != YAML_SCALAR_NODE) {
					while (nr)
						free(vals[--nr]);
					free(vals);
					return kab_err_set(err, "%s:%d: '%s' "
							   "lists something "
							   "that is not a plain "
							   "value", where, line,
							   key);
				}
				vals[nr++] = xstrdup(
					(const char *)e->data.scalar.value);
			}
		}
		raw_set(raw_add(rj, key, line), vals, nr);
	}
	return 0;
}

static int load_yaml(const char *text, size_t len, const char *where,
		     struct raw_job *rj, struct kab_err *err)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	yaml_node_t *root;
	int ret = -1;

	if (!yaml_parser_initialize(&parser))
		return kab_err_set(err, "%s: cannot start the YAML parser", where);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &doc)) {
		kab_err_set(err, "%s:%zu: malformed YAML (%s): fix the job file",
			    where, parser.problem_mark.line + 1,
			    parser.problem ? parser.problem : "parse error");
		yaml_parser_delete(&parser);
		return -1;
	}
	root = yaml_document_get_root_node(&doc);
	if (!root || root->type != YAML_MAPPING_NODE)
		kab_err_set(err, "%s: a job file is a YAML mapping of "
			    "parameters, like 'suite: will-it-scale'", where);
	else
		ret = load_mapping(&doc, root, rj, where, 0, err);
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	return ret;
}

/* "key=value" or "key=[a, b]" from the command line. */
static int apply_set(struct raw_job *rj, const char *set, struct kab_err *err)
{
	const char *eq = strchr(set, '=');
	struct raw_param *p;
	char *key, **vals = NULL;
	int nr = 0;

	if (!eq || eq == set)
		return kab_err_set(err, "--set '%s': use --set key=value", set);
	key = xstrdup(set);
	key[eq - set] = '\0';
	if (!valid_key(key)) {
		kab_err_set(err, "--set '%s': '%s' is not a parameter name",
			    set, key);
		free(key);
		return -1;
	}
	eq++;
	if (*eq == '[') {
		char *copy = xstrdup(eq + 1), *tok, *save;
		size_t l = strlen(copy);

		if (!l || copy[l - 1] != ']') {
			free(copy);
			free(key);
			return kab_err_set(err, "--set '%s': a list is written "
					   "[a, b]", set);
		}
		copy[l - 1] = '\0';
		for (tok = strtok_r(copy, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			while (*tok == ' ')
				tok++;
			l = strlen(tok);
			while (l && tok[l - 1] == ' ')
				tok[--l] = '\0';
			vals = xrealloc(vals, (nr + 1) * sizeof(*vals));
			vals[nr++] = xstrdup(tok);
		}
		free(copy);
	} else {
		vals = xmalloc(sizeof(*vals));
		vals[nr++] = xstrdup(eq);
	}
	if (!nr) {
		free(key);
		free(vals);
		return kab_err_set(err, "--set '%s': give a value", set);
	}
	p = raw_find(rj, key);
	if (!p)
		p = raw_add(rj, key, 0);
	raw_set(p, vals, nr);
	free(key);
	return 0;
}

static int cmp_param(const void *a, const void *b)
{
	return strcmp(((const struct kab_param *)a)->key,
		      ((const struct kab_param *)b)->key);
}

static void job_set(struct kab_job *job, const char *key, const char *value)
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
		job_set(dst, src->params[i].key, src->params[i].value);
}

void kab_joblist_free(struct kab_joblist *list)
{
	int i;

	for (i = 0; i < list->nr; i++)
		kab_job_free(&list->jobs[i]);
	free(list->jobs);
	list->jobs = NULL;
	list->nr = 0;
}

/* Meta keys that describe the job rather than parameterise it. */
static int is_meta(const char *key)
{
	return !strcmp(key, "suite") || !strcmp(key, "category");
}

/* Turn one combination of values into a validated, complete job. */
static int make_job(const struct raw_job *rj, const int *pick,
		    const char *name, const char *where, struct kab_job *job,
		    struct kab_err *err)
{
	const struct kab_workload *w;
	const struct kab_pdesc *d;
	const char *suite = NULL;
	int i;

	memset(job, 0, sizeof(*job));
	/* the name goes into reports' commands as a file name */
	if (!kab_name_ok(name, 200))
		return kab_err_set(err, "%s: '%s' is not a job name: rename "
				   "the file (letters, digits, '_', '-', '.' "
				   "and '+')", where, name);
	for (i = 0; i < rj->nr; i++) {
		const char *v = rj->p[i].vals[pick[i]];

		if (!valid_value(v)) {
			kab_job_free(job);
			return kab_err_set(err, "%s: %s: '%s' is not a plain "
					   "value (no '/', no control "
					   "characters, at most 256 bytes)",
					   where, rj->p[i].key, v);
		}
		if (!strcmp(rj->p[i].key, "suite"))
			suite = v;
		else if (!strcmp(rj->p[i].key, "testcase") && !suite)
			suite = v;
		if (!is_meta(rj->p[i].key))
			job_set(job, rj->p[i].key, v);
	}
	for (i = 0; i < rj->nr; i++)
		if (!strcmp(rj->p[i].key, "suite"))
			suite = rj->p[i].vals[pick[i]];
	if (!suite) {
		kab_job_free(job);
		return kab_err_set(err, "%s: no 'suite:' key: name the "
				   "benchmark suite, e.g. 'suite: "
				   "will-it-scale'", where);
	}
	if (!kab_job_get(job, "test")) {
		kab_job_free(job);
		return kab_err_set(err, "%s: no 'test:' key: name the test, "
				   "e.g. 'test: malloc1'", where);
	}
	job->name = xstrdup(name);
	job->suite = xstrdup(suite);
	job->test = xstrdup(kab_job_get(job, "test"));
	job_set(job, "testcase", suite);
	if (kab_workload_validate(job, err)) {
		kab_err_prefix(err, "%s", where);
		kab_job_free(job);
		return -1;
	}
	w = kab_workload_find(job->suite, job->test);
	for (d = w->params; d->key; d++)
		if (!kab_job_get(job, d->key))
			job_set(job, d->key, d->def);
	qsort(job->params, job->nr_params, sizeof(*job->params), cmp_param);
	return 0;
}

static int expand(const struct raw_job *rj, const char *name,
		  const char *where, struct kab_joblist *out,
		  struct kab_err *err)
{
	int *pick = xcalloc(rj->nr ? rj->nr : 1, sizeof(*pick));
	long total = 1;
	int i, ret = 0;

	for (i = 0; i < rj->nr; i++) {
		total *= rj->p[i].nr;
		if (total > 4096) {
			free(pick);
			return kab_err_set(err, "%s: the lists expand to more "
					   "than 4096 jobs: split the job file",
					   where);
		}
	}
	out->jobs = xcalloc(total, sizeof(*out->jobs));
	out->nr = 0;
	for (;;) {
		if (make_job(rj, pick, name, where, &out->jobs[out->nr], err)) {
			ret = -1;
			break;
		}
		out->nr++;
		/* Odometer over the lists, last key fastest. */
		for (i = rj->nr - 1; i >= 0; i--) {
			if (++pick[i] < rj->p[i].nr)
				break;
			pick[i] = 0;
		}
		if (i < 0)
			break;
	}
	free(pick);
	if (ret)
		kab_joblist_free(out);
	return ret;
}

static int cmp_raw(const void *a, const void *b)
{
	return strcmp(((const struct raw_param *)a)->key,
		      ((const struct raw_param *)b)->key);
}

static int parse(const char *text, size_t len, const char *name,
		 const char *where, char *const *sets, int nr_sets,
		 struct kab_joblist *out, struct kab_err *err)
{
	struct raw_job rj = { 0 };
	int i, ret = -1;

	memset(out, 0, sizeof(*out));
	if (load_yaml(text, len, where, &rj, err))
		goto out;
	for (i = 0; i < nr_sets; i++)
		if (apply_set(&rj, sets[i], err))
			goto out;
	qsort(rj.p, rj.nr, sizeof(*rj.p), cmp_raw);
	ret = expand(&rj, name, where, out, err);
out:
	raw_free(&rj);
	return ret;
}

int kab_job_parse(const char *text, size_t len, const char *name,
		  char *const *sets, int nr_sets, struct kab_joblist *out,
		  struct kab_err *err)
{
	return parse(text, len, name, name, sets, nr_sets, out, err);
}

int kab_job_load(const char *path, char *const *sets, int nr_sets,
		 struct kab_joblist *out, struct kab_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	char *copy, *base, *dot;
	int ret;

	memset(out, 0, sizeof(*out));
	if (read_file(path, &sb, err))
		return kab_err_prefix(err, "job file");
	copy = xstrdup(path);
	base = basename(copy);
	dot = strrchr(base, '.');
	if (dot && (!strcmp(dot, ".yaml") || !strcmp(dot, ".yml")))
		*dot = '\0';
	ret = parse(sb.buf, sb.len, base, path, sets, nr_sets, out, err);
	free(copy);
	strbuf_release(&sb);
	return ret;
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
		job_set(job, key, json_string_value(v));
	}
	qsort(job->params, job->nr_params, sizeof(*job->params), cmp_param);
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
