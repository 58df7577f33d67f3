// SPDX-License-Identifier: GPL-2.0
/*
 * job-yaml.c - the documents of a job file, as parameters.
 *
 * Each YAML document of the file is a mapping: a key with a plain value
 * or a list of plain values is a parameter; a key with a mapping is a
 * section (lkp puts a suite's parameters under its name, and a monitor's
 * or a setup program's under theirs), whose keys are parameters tagged
 * with the section's name.  Which sections matter is decided later, when
 * the suite is known.
 */
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "internal.h"

void kab_rawparam_release(struct kab_rawparam *p)
{
	int j;

	for (j = 0; j < p->nr; j++)
		free(p->vals[j]);
	free(p->vals);
	free(p->key);
	free(p->section);
}

void kab_rawjob_free(struct kab_rawjob *rj)
{
	int i;

	for (i = 0; i < rj->nr; i++)
		kab_rawparam_release(&rj->p[i]);
	free(rj->p);
	memset(rj, 0, sizeof(*rj));
}

struct kab_rawparam *kab_rawjob_find(struct kab_rawjob *rj, const char *key,
				     const char *section)
{
	int i;

	for (i = 0; i < rj->nr; i++)
		if (!strcmp(rj->p[i].key, key) &&
		    !strcmp(rj->p[i].section ? rj->p[i].section : "",
			    section ? section : ""))
			return &rj->p[i];
	return NULL;
}

struct kab_rawparam *kab_rawjob_add(struct kab_rawjob *rj, const char *key,
				    const char *section, int line)
{
	struct kab_rawparam *p;

	rj->p = xrealloc(rj->p, (rj->nr + 1) * sizeof(*rj->p));
	p = &rj->p[rj->nr++];
	memset(p, 0, sizeof(*p));
	p->key = xstrdup(key);
	p->section = section ? xstrdup(section) : NULL;
	p->line = line;
	return p;
}

void kab_rawparam_set(struct kab_rawparam *p, char **vals, int nr)
{
	int j;

	for (j = 0; j < p->nr; j++)
		free(p->vals[j]);
	free(p->vals);
	p->vals = vals;
	p->nr = nr;
}

void kab_rawjob_copy(struct kab_rawjob *dst, const struct kab_rawjob *src)
{
	int i, j;

	memset(dst, 0, sizeof(*dst));
	for (i = 0; i < src->nr; i++) {
		const struct kab_rawparam *s = &src->p[i];
		struct kab_rawparam *d = kab_rawjob_add(dst, s->key,
							s->section, s->line);
		char **vals = xcalloc(s->nr, sizeof(*vals));

		for (j = 0; j < s->nr; j++)
			vals[j] = xstrdup(s->vals[j]);
		kab_rawparam_set(d, vals, s->nr);
		d->from_set = s->from_set;
	}
}

bool kab_job_key_ok(const char *k)
{
	if (!*k || strlen(k) > 64)
		return false;
	for (; *k; k++)
		if (!((*k >= 'a' && *k <= 'z') || (*k >= 'A' && *k <= 'Z') ||
		      (*k >= '0' && *k <= '9') || *k == '_' || *k == '-' ||
		      *k == '.'))
			return false;
	return true;
}

/* A key's plain value or list of plain values; NULL and err if neither. */
static char **node_values(yaml_document_t *doc, yaml_node_t *v,
			  const char *where, int line, const char *key,
			  int *nr, struct kab_err *err)
{
	yaml_node_item_t *it;
	char **vals;
	size_t n;

	*nr = 0;
	if (v->type == YAML_SCALAR_NODE) {
		vals = xmalloc(sizeof(*vals));
		vals[(*nr)++] = xstrdup((const char *)v->data.scalar.value);
		return vals;
	}
	n = v->data.sequence.items.top - v->data.sequence.items.start;
	if (!n) {
		kab_err_set(err, "%s:%d: '%s' is an empty list: give at least "
			    "one value", where, line, key);
		return NULL;
	}
	vals = xcalloc(n, sizeof(*vals));
	for (it = v->data.sequence.items.start;
	     it < v->data.sequence.items.top; it++) {
		yaml_node_t *e = yaml_document_get_node(doc, *it);

		if (e->type != YAML_SCALAR_NODE) {
			while (*nr)
				free(vals[--(*nr)]);
			free(vals);
			kab_err_set(err, "%s:%d: '%s' lists something that is "
				    "not a plain value", where, line, key);
			return NULL;
		}
		vals[(*nr)++] = xstrdup((const char *)e->data.scalar.value);
	}
	return vals;
}

static int load_mapping(yaml_document_t *doc, yaml_node_t *map,
			struct kab_rawjob *rj, const char *where,
			const char *section, struct kab_err *err)
{
	yaml_node_pair_t *pair;

	for (pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++) {
		yaml_node_t *k = yaml_document_get_node(doc, pair->key);
		yaml_node_t *v = yaml_document_get_node(doc, pair->value);
		int line = k->start_mark.line + 1;
		const char *key;
		char **vals;
		int nr;

		if (k->type != YAML_SCALAR_NODE)
			return kab_err_set(err, "%s:%d: a key must be a plain "
					   "name", where, line);
		key = (const char *)k->data.scalar.value;
		if (!kab_job_key_ok(key))
			return kab_err_set(err, "%s:%d: '%s' is not a valid "
					   "parameter name: use letters, digits, "
					   "'_', '-' and '.'", where, line, key);
		if (v->type == YAML_MAPPING_NODE) {
			if (section)
				return kab_err_set(err, "%s:%d: '%s' nests "
						   "too deep: one level of "
						   "sections is allowed", where,
						   line, key);
			if (load_mapping(doc, v, rj, where, key, err))
				return -1;
			continue;
		}
		if (kab_rawjob_find(rj, key, section))
			return kab_err_set(err, "%s:%d: '%s' is given twice: "
					   "keep one", where, line, key);
		vals = node_values(doc, v, where, line, key, &nr, err);
		if (!vals)
			return -1;
		kab_rawparam_set(kab_rawjob_add(rj, key, section, line), vals,
				 nr);
	}
	return 0;
}

/* At most this many documents: lkp's biggest files hold a few dozen. */
#define KAB_JOB_DOCS_MAX 256

int kab_job_documents(const char *text, size_t len, const char *where,
		      struct kab_rawjob **docs, int *nr, struct kab_err *err)
{
	yaml_parser_t parser;
	int ret = -1;

	*docs = NULL;
	*nr = 0;
	if (!yaml_parser_initialize(&parser))
		return kab_err_set(err, "%s: cannot start the YAML parser",
				   where);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	for (;;) {
		yaml_document_t doc;
		yaml_node_t *root;
		struct kab_rawjob *rj;
		int rc;

		if (!yaml_parser_load(&parser, &doc)) {
			kab_err_set(err, "%s:%zu: malformed YAML (%s): fix the "
				    "job file", where,
				    parser.problem_mark.line + 1,
				    parser.problem ? parser.problem :
						     "parse error");
			goto fail;
		}
		root = yaml_document_get_root_node(&doc);
		if (!root) {	/* the end of the stream */
			yaml_document_delete(&doc);
			break;
		}
		if (root->type != YAML_MAPPING_NODE) {
			yaml_document_delete(&doc);
			kab_err_set(err, "%s: a job file is a YAML mapping of "
				    "parameters, like 'suite: will-it-scale'",
				    where);
			goto fail;
		}
		if (*nr == KAB_JOB_DOCS_MAX) {
			yaml_document_delete(&doc);
			kab_err_set(err, "%s: more than %d YAML documents: "
				    "split the job file", where,
				    KAB_JOB_DOCS_MAX);
			goto fail;
		}
		*docs = xrealloc(*docs, (*nr + 1) * sizeof(**docs));
		rj = &(*docs)[(*nr)++];
		memset(rj, 0, sizeof(*rj));
		rc = load_mapping(&doc, root, rj, where, NULL, err);
		yaml_document_delete(&doc);
		if (rc)
			goto fail;
	}
	if (!*nr) {
		kab_err_set(err, "%s: a job file is a YAML mapping of "
			    "parameters, like 'suite: will-it-scale'", where);
		goto fail;
	}
	ret = 0;
	goto out;
fail:
	while (*nr)
		kab_rawjob_free(&(*docs)[--(*nr)]);
	free(*docs);
	*docs = NULL;
out:
	yaml_parser_delete(&parser);
	return ret;
}
