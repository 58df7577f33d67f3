// SPDX-License-Identifier: GPL-2.0
/*
 * job-expand.c - a job file's documents into jobs, as lkp's split-job
 * makes them.
 *
 * The first document is the file's header and, when it names a test, a
 * job of its own; each later document is laid on top of the first (its
 * top-level keys replace the first's, a section whole, as Ruby's
 * Hash#update does in lkp).  Of the sections, only the suite's own (lkp
 * puts will-it-scale's parameters under "will-it-scale:") holds
 * parameters; a monitor's or a setup program's is left out and named.
 * --set replaces a key's values wherever it is.  Lists expand into their
 * Cartesian product.  Each combination is a job when kab runs its
 * workload, else it is skipped and named; --only keeps the jobs with a
 * given value.  A job's keys that its workload does not take are left
 * out and named, unless they look like a misspelt parameter.  Jobs are
 * validated and completed with the workload's defaults, so that two
 * runs with the same meaning compare equal however their job files
 * were spelled, and a job met twice is kept once.
 */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define KAB_JOBS_MAX	4096	/* expanded jobs of a file, skipped or not */
#define NOTE_NAMES_MAX	12	/* skipped tests the note names */

/*
 * lkp's keys for where and how a job runs, and what a result root's
 * job.yaml records: never taken for a misspelt parameter ("model" is
 * one letter from will-it-scale's "mode").
 */
static const char *const lkp_keys[] = {
	"arch", "branch", "commit", "compiler", "cpufreq_governor",
	"kconfig", "kernel_cmdline", "memory", "model", "need_cpu",
	"need_kconfig", "need_memory", "nr_cpu", "nr_node", "os", "os_arch",
	"os_version", "priority", "queue", "rootfs", "runtime", "tbox_group",
	"testbox", "timeout", NULL,
};

struct names {
	int nr;
	char **v;
};

static bool names_has(const struct names *n, const char *s)
{
	int i;

	for (i = 0; i < n->nr; i++)
		if (!strcmp(n->v[i], s))
			return true;
	return false;
}

static void names_add(struct names *n, const char *s)
{
	if (names_has(n, s))
		return;
	n->v = xrealloc(n->v, (n->nr + 1) * sizeof(*n->v));
	n->v[n->nr++] = xstrdup(s);
}

static void names_free(struct names *n)
{
	while (n->nr)
		free(n->v[--n->nr]);
	free(n->v);
	n->v = NULL;
}

struct expansion {
	const char *name;	/* the jobs' name: the file's stem */
	const char *where;	/* the file, for messages */
	const struct kab_jobsel *sel;
	struct kab_joblist *out;
	int nr_docs;
	int expanded;		/* combinations, before --only */
	int matched;		/* those --only kept */
	int nr_skipped;		/* jobs of workloads kab does not run */
	struct names skipped;	/* their tests, once each */
	struct names unused;	/* keys some job left out */
	struct names used;	/* keys some job took */
	struct names sections;	/* sections left out */
};

/* Meta keys that describe the job rather than parameterise it. */
static bool is_meta(const char *key)
{
	return !strcmp(key, "suite") || !strcmp(key, "category");
}

static bool valid_value(const char *v)
{
	return kab_text_ok(v, 256) && !strchr(v, '/');
}

static bool desc_has(const struct kab_pdesc *d, const char *key)
{
	for (; d->key; d++)
		if (!strcmp(d->key, key))
			return true;
	return false;
}

/* A key w takes. */
static bool takes(const struct kab_workload *w, const char *key)
{
	return !strcmp(key, "test") || !strcmp(key, "testcase") ||
	       desc_has(w->params, key) || desc_has(kab_system_params, key);
}

/* A key some workload of kab's takes. */
static bool known_anywhere(const char *key)
{
	int i;

	for (i = 0; kab_workloads[i]; i++)
		if (takes(kab_workloads[i], key))
			return true;
	return false;
}

/* The parameter of w that key looks like a misspelling of, or NULL. */
static const char *misspelt(const struct kab_workload *w, const char *key)
{
	const struct kab_pdesc *d;
	int i;

	if (strlen(key) < 4)
		return NULL;
	for (i = 0; lkp_keys[i]; i++)
		if (!strcmp(lkp_keys[i], key))
			return NULL;
	for (d = w->params; d->key; d++)
		if (kab_edit_distance(key, d->key) <= 2)
			return d->key;
	for (d = kab_system_params; d->key; d++)
		if (kab_edit_distance(key, d->key) <= 2)
			return d->key;
	return NULL;
}

static bool same_job(const struct kab_job *a, const struct kab_job *b)
{
	int i;

	if (strcmp(a->suite, b->suite) || strcmp(a->test, b->test) ||
	    a->nr_params != b->nr_params)
		return false;
	for (i = 0; i < a->nr_params; i++)
		if (strcmp(a->params[i].key, b->params[i].key) ||
		    strcmp(a->params[i].value, b->params[i].value))
			return false;
	return true;
}

/* Does this combination have every --only key=value? */
static bool only_matches(const struct expansion *x,
			 const struct kab_rawjob *rj, const int *pick,
			 const struct kab_job *job)
{
	int i, k;

	for (i = 0; i < x->sel->nr_only; i++) {
		const char *kv = x->sel->only[i], *eq = strchr(kv, '=');
		const char *v = NULL;
		char *key = xstrndup(kv, eq - kv);

		if (job) {
			v = kab_job_get(job, key);
		} else {
			for (k = 0; k < rj->nr && !v; k++)
				if (!strcmp(rj->p[k].key, key))
					v = rj->p[k].vals[pick[k]];
		}
		free(key);
		if (!v || strcmp(v, eq + 1))
			return false;
	}
	return true;
}

/* One combination of values: a job, a skipped one, or an error. */
static int make_job(struct expansion *x, const struct kab_rawjob *rj,
		    const int *pick, int doc, struct kab_err *err)
{
	const char *suite = NULL, *testcase = NULL, *test = NULL;
	const char *typo = NULL, *typo_of = NULL;
	const struct kab_workload *w;
	const struct kab_pdesc *d;
	struct names unused = { 0 };
	struct kab_job job = { 0 };
	int i;

	for (i = 0; i < rj->nr; i++) {
		const char *key = rj->p[i].key, *v = rj->p[i].vals[pick[i]];

		if (!valid_value(v))
			return kab_err_set(err, "%s: %s: '%s' is not a plain "
					   "value (no '/', no control "
					   "characters, at most 256 bytes)",
					   x->where, key, v);
		if (!strcmp(key, "suite"))
			suite = v;
		else if (!strcmp(key, "testcase"))
			testcase = v;
		else if (!strcmp(key, "test"))
			test = v;
	}
	suite = suite ? suite : testcase;
	if (!test)
		return kab_err_set(err, "%s: no 'test:' key: name the test, "
				   "e.g. 'test: malloc1'", x->where);
	w = kab_workload_find(suite, test);
	if (!w) {
		char *what;

		if (!only_matches(x, rj, pick, NULL))
			return 0;
		x->matched++;
		x->nr_skipped++;
		what = x->nr_docs > 1 ?
		       xasprintf("%s %s (document %d)", suite, test, doc) :
		       xasprintf("%s %s", suite, test);
		names_add(&x->skipped, what);
		free(what);
		return 0;
	}
	for (i = 0; i < rj->nr; i++) {
		const char *key = rj->p[i].key, *v = rj->p[i].vals[pick[i]];

		if (is_meta(key))
			continue;
		if (takes(w, key)) {
			kab_job_set(&job, key, v);
		} else if (rj->p[i].from_set) {
			/* --set of another workload's key; else refused */
			if (!known_anywhere(key))
				kab_job_set(&job, key, v);
		} else if (!typo && (typo_of = misspelt(w, key))) {
			typo = key;
		} else {
			names_add(&unused, key);
		}
	}
	job.name = xstrdup(x->name);
	job.suite = xstrdup(suite);
	job.test = xstrdup(test);
	kab_job_set(&job, "testcase", suite);
	for (d = w->params; d->key; d++)
		if (d->def && !kab_job_get(&job, d->key))
			kab_job_set(&job, d->key, d->def);
	qsort(job.params, job.nr_params, sizeof(*job.params),
	      kab_job_param_cmp);
	if (!only_matches(x, rj, pick, &job))
		goto drop;
	x->matched++;
	if (typo) {
		kab_err_set(err, "%s: unknown parameter '%s' for %s %s: did "
			    "you mean '%s'?", x->where, typo, w->suite,
			    w->test, typo_of);
		goto fail;
	}
	if (kab_workload_validate(&job, err)) {
		kab_err_prefix(err, "%s", x->where);
		goto fail;
	}
	for (i = 0; i < unused.nr; i++)
		names_add(&x->unused, unused.v[i]);
	for (i = 0; i < job.nr_params; i++)
		names_add(&x->used, job.params[i].key);
	for (i = 0; i < x->out->nr; i++)
		if (same_job(&x->out->jobs[i], &job))
			goto drop;
	x->out->jobs = xrealloc(x->out->jobs,
				(x->out->nr + 1) * sizeof(*x->out->jobs));
	x->out->jobs[x->out->nr++] = job;
	names_free(&unused);
	return 0;
drop:
	kab_job_free(&job);
	names_free(&unused);
	return 0;
fail:
	kab_job_free(&job);
	names_free(&unused);
	return -1;
}

/*
 * "key=value" or "key=[a, b]" from the command line: the key's values
 * wherever the file gave it (at the top or in a section); "key=" leaves
 * the key out.
 */
static int apply_set(struct kab_rawjob *rj, const char *set,
		     struct kab_err *err)
{
	const char *eq = strchr(set, '=');
	struct kab_rawparam *p;
	char *key, **vals = NULL;
	int i, nr = 0;

	if (!eq || eq == set)
		return kab_err_set(err, "--set '%s': use --set key=value", set);
	key = xstrdup(set);
	key[eq - set] = '\0';
	if (!kab_job_key_ok(key)) {
		kab_err_set(err, "--set '%s': '%s' is not a parameter name",
			    set, key);
		free(key);
		return -1;
	}
	eq++;
	if (!*eq) {
		/* "key=": as if the file did not give it */
		for (i = 0, nr = 0; i < rj->nr; i++)
			if (strcmp(rj->p[i].key, key))
				rj->p[nr++] = rj->p[i];
			else
				kab_rawparam_release(&rj->p[i]);
		rj->nr = nr;
		free(key);
		return 0;
	}
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
	for (i = 0; i < rj->nr; i++)
		if (!strcmp(rj->p[i].key, key))
			break;
	p = i < rj->nr ? &rj->p[i] : kab_rawjob_add(rj, key, NULL, 0);
	kab_rawparam_set(p, vals, nr);
	p->from_set = true;
	free(key);
	return 0;
}

static int cmp_raw(const void *a, const void *b)
{
	return strcmp(((const struct kab_rawparam *)a)->key,
		      ((const struct kab_rawparam *)b)->key);
}

/* A parameter's name at the top level: its own, or its section's. */
static const char *top_name(const struct kab_rawparam *p)
{
	return p->section ? p->section : p->key;
}

/* lkp's Hash#update: doc's top-level keys replace base's. */
static void update(struct kab_rawjob *base, const struct kab_rawjob *doc)
{
	struct kab_rawjob add;
	int i, j, k;

	for (i = 0, k = 0; i < base->nr; i++) {
		bool replaced = false;

		for (j = 0; j < doc->nr && !replaced; j++)
			replaced = !strcmp(top_name(&base->p[i]),
					   top_name(&doc->p[j]));
		if (replaced)
			kab_rawparam_release(&base->p[i]);
		else
			base->p[k++] = base->p[i];
	}
	base->nr = k;
	if (!doc->nr)
		return;
	kab_rawjob_copy(&add, doc);
	base->p = xrealloc(base->p, (base->nr + add.nr) * sizeof(*base->p));
	memcpy(base->p + base->nr, add.p, add.nr * sizeof(*add.p));
	base->nr += add.nr;
	free(add.p);
}

/* The suite's parameters only, each once; other sections named. */
static int suite_params(struct expansion *x, struct kab_rawjob *rj,
			struct kab_err *err)
{
	struct kab_rawparam *suite = kab_rawjob_find(rj, "suite", NULL);
	int i, j, k;

	if (!suite)
		suite = kab_rawjob_find(rj, "testcase", NULL);
	if (!suite)
		return kab_err_set(err, "%s: no 'suite:' key: name the "
				   "benchmark suite, e.g. 'suite: "
				   "will-it-scale'", x->where);
	for (i = 0, k = 0; i < rj->nr; i++) {
		struct kab_rawparam *p = &rj->p[i];
		bool ours = !p->section;

		for (j = 0; j < suite->nr && !ours; j++)
			ours = !strcmp(p->section, suite->vals[j]);
		if (ours) {
			rj->p[k++] = *p;
			continue;
		}
		names_add(&x->sections, p->section);
		kab_rawparam_release(p);
	}
	rj->nr = k;
	for (i = 0; i < rj->nr; i++)
		for (j = i + 1; j < rj->nr; j++)
			if (!strcmp(rj->p[i].key, rj->p[j].key))
				return kab_err_set(err, "%s:%d: '%s' is given "
						   "twice: keep one", x->where,
						   rj->p[j].line, rj->p[j].key);
	return 0;
}

/* One document's jobs (doc counts from 1), on top of the header. */
static int expand(struct expansion *x, struct kab_rawjob *rj, int doc,
		  struct kab_err *err)
{
	int *pick, i, ret = 0;
	long total = 1;

	for (i = 0; i < x->sel->nr_sets; i++)
		if (apply_set(rj, x->sel->sets[i], err))
			return -1;
	if (suite_params(x, rj, err))
		return -1;
	qsort(rj->p, rj->nr, sizeof(*rj->p), cmp_raw);
	for (i = 0; i < rj->nr; i++) {
		total *= rj->p[i].nr;
		if (x->expanded + total > KAB_JOBS_MAX)
			return kab_err_set(err, "%s: the lists expand to more "
					   "than %d jobs: split the job file",
					   x->where, KAB_JOBS_MAX);
	}
	x->expanded += total;
	pick = xcalloc(rj->nr ? rj->nr : 1, sizeof(*pick));
	for (;;) {
		if (make_job(x, rj, pick, doc, err)) {
			ret = -1;
			break;
		}
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
	return ret;
}

static bool names_a_test(const struct kab_rawjob *rj)
{
	int i;

	for (i = 0; i < rj->nr; i++)
		if (!strcmp(rj->p[i].key, "test"))
			return true;
	return false;
}

static void add_list(struct strbuf *sb, const struct names *n, int max,
		     const struct names *except)
{
	int i, shown = 0, left = 0;

	for (i = 0; i < n->nr; i++) {
		if (except && names_has(except, n->v[i]))
			continue;
		if (shown == max) {
			left++;
			continue;
		}
		strbuf_addf(sb, "%s%s", shown++ ? ", " : "", n->v[i]);
	}
	if (left)
		strbuf_addf(sb, " and %d more", left);
}

/* What was left out, in one line, or NULL when nothing was. */
static char *make_note(const struct expansion *x)
{
	struct strbuf sb = STRBUF_INIT;
	int i, unused = 0;
	char *note;

	for (i = 0; i < x->unused.nr; i++)
		unused += !names_has(&x->used, x->unused.v[i]);
	if (x->nr_skipped) {
		strbuf_addf(&sb, "skips %d job%s of workloads kab does not "
			    "run: ", x->nr_skipped,
			    x->nr_skipped == 1 ? "" : "s");
		add_list(&sb, &x->skipped, NOTE_NAMES_MAX, NULL);
	}
	if (unused) {
		strbuf_addf(&sb, "%sleaves out keys kab does not use: ",
			    sb.len ? "; " : "");
		add_list(&sb, &x->unused, 1000, &x->used);
	}
	if (x->sections.nr) {
		strbuf_addf(&sb, "%sleaves out sections kab does not use: ",
			    sb.len ? "; " : "");
		add_list(&sb, &x->sections, 1000, NULL);
	}
	note = sb.len ? xasprintf("%s: %s", x->where, sb.buf) : NULL;
	strbuf_release(&sb);
	return note;
}

static int nothing_to_run(const struct expansion *x, struct kab_err *err)
{
	struct strbuf known = STRBUF_INIT, what = STRBUF_INIT;
	int i;

	if (x->sel->nr_only && !x->matched) {
		for (i = 0; i < x->sel->nr_only; i++)
			strbuf_addf(&what, "%s--only %s", i ? " " : "",
				    x->sel->only[i]);
		kab_err_set(err, "%s: %s matches none of its %d jobs: check "
			    "the key and the value", x->where, what.buf,
			    x->expanded);
		strbuf_release(&what);
		return -1;
	}
	for (i = 0; kab_workloads[i]; i++)
		strbuf_addf(&known, "%s%s %s", i ? ", " : "",
			    kab_workloads[i]->suite, kab_workloads[i]->test);
	add_list(&what, &x->skipped, NOTE_NAMES_MAX, NULL);
	kab_err_set(err, "%s: no job kab can run: unknown workload %s: kab "
		    "knows %s", x->where, what.buf, known.buf);
	strbuf_release(&known);
	strbuf_release(&what);
	return -1;
}

static int check_only(const struct kab_jobsel *sel, struct kab_err *err)
{
	int i;

	for (i = 0; i < sel->nr_only; i++) {
		const char *eq = strchr(sel->only[i], '=');
		char *key;
		bool ok;

		if (!eq || eq == sel->only[i])
			return kab_err_set(err, "--only '%s': use --only "
					   "key=value", sel->only[i]);
		key = xstrndup(sel->only[i], eq - sel->only[i]);
		ok = kab_job_key_ok(key);
		free(key);
		if (!ok)
			return kab_err_set(err, "--only '%s': not a parameter "
					   "name", sel->only[i]);
	}
	return 0;
}

static int parse(const char *text, size_t len, const char *name,
		 const char *where, const struct kab_jobsel *sel,
		 struct kab_joblist *out, struct kab_err *err)
{
	static const struct kab_jobsel none;
	struct expansion x = { .name = name, .where = where,
			       .sel = sel ? sel : &none, .out = out };
	struct kab_rawjob *docs = NULL;
	int i, ret = -1;

	memset(out, 0, sizeof(*out));
	/* the name goes into reports' commands as a file name */
	if (!kab_name_ok(name, 200))
		return kab_err_set(err, "%s: '%s' is not a job name: rename "
				   "the file (letters, digits, '_', '-', '.' "
				   "and '+')", where, name);
	if (check_only(x.sel, err) ||
	    kab_job_documents(text, len, where, &docs, &x.nr_docs, err))
		return -1;
	for (i = 0; i < x.nr_docs; i++) {
		struct kab_rawjob rj;
		int rc;

		/* a first document that names no test is a header only */
		if (!i && x.nr_docs > 1 && !names_a_test(&docs[0]))
			continue;
		kab_rawjob_copy(&rj, &docs[0]);
		if (i)
			update(&rj, &docs[i]);
		rc = expand(&x, &rj, i + 1, err);
		kab_rawjob_free(&rj);
		if (rc)
			goto out;
	}
	if (!out->nr) {
		nothing_to_run(&x, err);
		goto out;
	}
	out->note = make_note(&x);
	ret = 0;
out:
	if (ret)
		kab_joblist_free(out);
	for (i = 0; i < x.nr_docs; i++)
		kab_rawjob_free(&docs[i]);
	free(docs);
	names_free(&x.skipped);
	names_free(&x.unused);
	names_free(&x.used);
	names_free(&x.sections);
	return ret;
}

int kab_job_parse_sel(const char *text, size_t len, const char *name,
		      const struct kab_jobsel *sel, struct kab_joblist *out,
		      struct kab_err *err)
{
	return parse(text, len, name, name, sel, out, err);
}

int kab_job_parse(const char *text, size_t len, const char *name,
		  char *const *sets, int nr_sets, struct kab_joblist *out,
		  struct kab_err *err)
{
	struct kab_jobsel sel = { .sets = sets, .nr_sets = nr_sets };

	return parse(text, len, name, name, &sel, out, err);
}

int kab_job_load_sel(const char *path, const struct kab_jobsel *sel,
		     struct kab_joblist *out, struct kab_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	char *copy, *base, *dot;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!strcmp(path, "-")) {
		if (read_file("/dev/stdin", &sb, err))
			return kab_err_prefix(err, "job on stdin");
		ret = parse(sb.buf, sb.len, "stdin", "stdin", sel, out, err);
		strbuf_release(&sb);
		return ret;
	}
	if (read_file(path, &sb, err))
		return kab_err_prefix(err, "job file");
	copy = xstrdup(path);
	base = basename(copy);
	dot = strrchr(base, '.');
	if (dot && (!strcmp(dot, ".yaml") || !strcmp(dot, ".yml")))
		*dot = '\0';
	ret = parse(sb.buf, sb.len, base, path, sel, out, err);
	free(copy);
	strbuf_release(&sb);
	return ret;
}

int kab_job_load(const char *path, char *const *sets, int nr_sets,
		 struct kab_joblist *out, struct kab_err *err)
{
	struct kab_jobsel sel = { .sets = sets, .nr_sets = nr_sets };

	return kab_job_load_sel(path, &sel, out, err);
}
