// SPDX-License-Identifier: GPL-2.0
/*
 * lkp-result.c - lkp's result roots as runs, for kab import --lkp.
 *
 * lkp writes each run of a job into a directory of its own (a result
 * root: .../<commit>/<n>/) holding the job as it ran (job.yaml) and the
 * run's statistics (stats.json: one number per metric, each monitor's
 * series already reduced), beside the commit's matrix.json that lists
 * them.  A run becomes a kab run of one iteration: the kernel from the
 * job's commit, the job and its parameters from the job's suite
 * section, the test box and kernel config as host facts, and every
 * statistic as a sample.  Its uuid is made from the two files' bytes,
 * so that importing the same result root again adds nothing.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>
#include <nettle/sha2.h>

#include "internal.h"

/*
 * What a result root may hold: its own regular files (no link out of
 * the tree, no FIFO that never ends, no device that never stops), of
 * sizes lkp writes with room to spare, and a job.yaml without the
 * aliases and nesting of a YAML bomb.
 */
#define JOB_MAX		(1u << 20)	/* job.yaml: lkp's are ~20 KiB */
#define STATS_MAX	(64u << 20)	/* stats.json(.gz) as stored */
#define STATS_GZ_MAX	(256u << 20)	/* and stats.json.gz decoded */
#define YAML_DEPTH_MAX	32
#define YAML_ALIASES_MAX 64

/* A run's statistics: stats.json, or lkp's compressed stats.json.gz. */
static char *stats_path(const char *dir)
{
	static const char *const names[] = { "stats.json", "stats.json.gz" };
	struct stat st;
	size_t i;

	/* whatever it is: reading it says what is wrong with it */
	for (i = 0; i < 2; i++) {
		char *p = xasprintf("%s/%s", dir, names[i]);

		if (!lstat(p, &st) && !S_ISDIR(st.st_mode))
			return p;
		free(p);
	}
	return NULL;
}

static bool has_stats(const char *dir)
{
	char *p = stats_path(dir);

	free(p);
	return p != NULL;
}

/* A regular file of the result root, of at most max bytes. */
static int read_root_file(const char *path, size_t max, struct strbuf *sb,
			  struct kab_err *err)
{
	char buf[65536];
	struct stat st;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && errno == ELOOP)
		return kab_err_set(err, "%s is a symbolic link: kab reads only "
				   "a result root's own regular files", path);
	if (fd < 0)
		return kab_err_set(err, "cannot open %s: %s", path,
				   strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return kab_err_set(err, "%s is not a regular file (a FIFO, a "
				   "device?): kab reads only a result root's "
				   "own regular files", path);
	}
	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (sb->len + n > max) {
			close(fd);
			return kab_err_set(err, "%s is larger than %zu MiB: not "
					   "a file lkp writes", path,
					   max >> 20);
		}
		strbuf_add(sb, buf, n);
	}
	close(fd);
	if (n < 0)
		return kab_err_set(err, "cannot read %s: %s", path,
				   strerror(errno));
	if (!sb->buf)
		strbuf_add(sb, "", 0);
	return 0;
}

/* A stats.json.gz decoded, at most 256 MiB of it. */
static int read_stats(const char *path, struct strbuf *sb,
		      struct kab_err *err)
{
	struct strbuf z = STRBUF_INIT;
	size_t n = strlen(path);

	if (n < 3 || strcmp(path + n - 3, ".gz"))
		return read_root_file(path, STATS_MAX, sb, err);
	if (read_root_file(path, STATS_MAX, &z, err))
		return -1;
	if (kab_unpack((const unsigned char *)z.buf, z.len, STATS_GZ_MAX,
		       sb)) {
		strbuf_release(&z);
		return kab_err_set(err, "%s: not a gzip stream of at most 256 "
				   "MiB: give lkp's stats.json.gz as lkp "
				   "wrote it", path);
	}
	strbuf_release(&z);
	return 0;
}

static int not_hidden(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

int kab_lkp_result_roots(const char *dir, char ***roots, int *nr,
			 struct kab_err *err)
{
	struct dirent **ents;
	int i, n;

	*roots = NULL;
	*nr = 0;
	if (has_stats(dir)) {
		*roots = xmalloc(sizeof(**roots));
		(*roots)[(*nr)++] = xstrdup(dir);
		return 0;
	}
	n = scandir(dir, &ents, not_hidden, versionsort);
	if (n < 0)
		return kab_err_set(err, "%s: %m: give lkp's result root of a "
				   "run (.../<commit>/<n>) or of a commit",
				   dir);
	for (i = 0; i < n; i++) {
		char *sub = xasprintf("%s/%s", dir, ents[i]->d_name);
		struct stat st;

		/* a link leads out of the tree: not one of its runs */
		if (!lstat(sub, &st) && S_ISDIR(st.st_mode) && has_stats(sub)) {
			*roots = xrealloc(*roots, (*nr + 1) * sizeof(**roots));
			(*roots)[(*nr)++] = sub;
		} else {
			free(sub);
		}
		free(ents[i]);
	}
	free(ents);
	if (!*nr)
		return kab_err_set(err, "%s: no stats.json(.gz) in it or in its "
				   "directories: give lkp's result root of a "
				   "run (.../<commit>/<n>) or of a commit",
				   dir);
	return 0;
}

/*
 * lkp's job.yaml as JSON: the top level's plain values, and each
 * section's (one level down); lists and what nests deeper are not
 * parameters of a run and are left out.
 */
static json_t *yaml_map(yaml_document_t *doc, yaml_node_t *map, int depth)
{
	json_t *o = json_object();
	yaml_node_pair_t *pair;

	for (pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++) {
		yaml_node_t *k = yaml_document_get_node(doc, pair->key);
		yaml_node_t *v = yaml_document_get_node(doc, pair->value);
		const char *key;

		if (k->type != YAML_SCALAR_NODE)
			continue;
		key = (const char *)k->data.scalar.value;
		if (v->type == YAML_SCALAR_NODE)
			json_object_set_new(o, key, json_string(
				(const char *)v->data.scalar.value));
		else if (v->type == YAML_MAPPING_NODE && !depth)
			json_object_set_new(o, key, yaml_map(doc, v, 1));
	}
	return o;
}

/*
 * job.yaml's events before its document is built: a nesting deeper
 * than YAML_DEPTH_MAX or more than YAML_ALIASES_MAX aliases (each may
 * stand for a whole mapping: a few KiB that build gigabytes) is not
 * lkp's, and is refused as soon as it is seen.
 */
static int yaml_bounded(const char *path, const struct strbuf *sb,
			struct kab_err *err)
{
	yaml_parser_t parser;
	yaml_event_t ev;
	int depth = 0, aliases = 0, rc = 0;
	bool done = false;

	if (!yaml_parser_initialize(&parser))
		return kab_err_set(err, "%s: cannot start the YAML parser",
				   path);
	yaml_parser_set_input_string(&parser, (const unsigned char *)
				     (sb->buf ? sb->buf : ""), sb->len);
	while (!done && !rc) {
		if (!yaml_parser_parse(&parser, &ev))
			break;	/* the loader says what is malformed */
		switch (ev.type) {
		case YAML_MAPPING_START_EVENT:
		case YAML_SEQUENCE_START_EVENT:
			if (++depth > YAML_DEPTH_MAX)
				rc = kab_err_set(err, "%s:%zu: nested deeper "
						 "than %d: not lkp's job.yaml",
						 path, ev.start_mark.line + 1,
						 YAML_DEPTH_MAX);
			break;
		case YAML_MAPPING_END_EVENT:
		case YAML_SEQUENCE_END_EVENT:
			depth--;
			break;
		case YAML_ALIAS_EVENT:
			if (++aliases > YAML_ALIASES_MAX)
				rc = kab_err_set(err, "%s:%zu: more than %d "
						 "YAML aliases: not lkp's "
						 "job.yaml", path,
						 ev.start_mark.line + 1,
						 YAML_ALIASES_MAX);
			break;
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	return rc;
}

static json_t *load_job(const char *path, const struct strbuf *sb,
			struct kab_err *err)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	yaml_node_t *root;
	json_t *job = NULL;

	if (yaml_bounded(path, sb, err))
		return NULL;
	if (!yaml_parser_initialize(&parser)) {
		kab_err_set(err, "%s: cannot start the YAML parser", path);
		return NULL;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)
				     (sb->buf ? sb->buf : ""), sb->len);
	if (!yaml_parser_load(&parser, &doc)) {
		kab_err_set(err, "%s:%zu: malformed YAML (%s): is it lkp's "
			    "job.yaml?", path, parser.problem_mark.line + 1,
			    parser.problem ? parser.problem : "parse error");
		yaml_parser_delete(&parser);
		return NULL;
	}
	root = yaml_document_get_root_node(&doc);
	if (root && root->type == YAML_MAPPING_NODE)
		job = yaml_map(&doc, root, 0);
	else
		kab_err_set(err, "%s: not a mapping: is it lkp's job.yaml?",
			    path);
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	return job;
}

/* A key of job.yaml whose value kab cannot store, shown as text. */
static void bad_key(struct kab_err *err, const char *path, const char *key,
		    const char *value)
{
	char *k = kab_text_clean(key, 60), *v = kab_text_clean(value, 60);

	kab_err_set(err, "%s: %s: '%s' is not a value kab stores (a name "
		    "for the test, text without '/' for a parameter, text "
		    "for a host fact)", path, k, v);
	free(k);
	free(v);
}

static const char *str(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static bool is_hex(const char *s, size_t len)
{
	return s && strlen(s) == len && strspn(s, "0123456789abcdef") == len;
}

/*
 * The options of a suite's lkp program (the "# - name" lines heading
 * programs/<suite>/run), which lkp takes from anywhere in the job as
 * the run's parameters; for another suite, lkp's counts of tasks and
 * times.
 */
static const char *const *suite_options(const char *suite)
{
	static const char *const wis[] = {
		"runtime", "test", "mode", "nr_task", "no_affinity", "smt",
		NULL,
	};
	static const char *const stressng[] = {
		"testtime", "class", "nr_threads", "test", "method", "mode",
		"type", "sched", "advise", "hdd_opts", NULL,
	};
	static const char *const other[] = {
		"nr_task", "nr_threads", "testtime", "runtime", NULL,
	};

	if (!strcmp(suite, "will-it-scale"))
		return wis;
	if (!strcmp(suite, "stress-ng"))
		return stressng;
	return other;
}

/* The run's parameters: its suite section's, and its program's options. */
static json_t *run_params(json_t *job, const char *suite, const char *test)
{
	const char *const *top = suite_options(suite);
	json_t *params = json_object(), *section, *v;
	const char *key;
	int i;

	section = json_object_get(job, suite);
	json_object_foreach(section, key, v)
		if (json_is_string(v))
			json_object_set(params, key, v);
	for (i = 0; top[i]; i++)
		if (str(job, top[i]) && !json_object_get(params, top[i]))
			json_object_set(params, top[i],
					json_object_get(job, top[i]));
	json_object_set_new(params, "testcase", json_string(suite));
	json_object_set_new(params, "test", json_string(test));
	return params;
}

static bool rootfs_char(char c)
{
	return isalnum((unsigned char)c) || strchr("._-", c);
}

/* Where it ran and what with: the test box, the kernel's config. */
static json_t *run_host(json_t *job)
{
	static const char *const keys[] = {
		"testbox", "tbox_group", "kconfig", "compiler", "rootfs",
		"cpufreq_governor", NULL,
	};
	json_t *host = json_object();
	const char *rootfs, *end, *p;
	int i;

	for (i = 0; keys[i]; i++)
		if (str(job, keys[i]))
			json_object_set(host, keys[i],
					json_object_get(job, keys[i]));
	/*
	 * lkp's result path always has a rootfs and a compiler: without
	 * them in the job, lib/job.rb's axes name its defaults, and a
	 * rootfs by its file name.
	 */
	if (!str(host, "rootfs"))
		json_object_set_new(host, "rootfs",
				    json_string("debian-x86_64.cgz"));
	if (!str(host, "compiler"))
		json_object_set_new(host, "compiler", json_string("gcc-7"));
	rootfs = str(host, "rootfs");
	for (end = rootfs + strlen(rootfs); end > rootfs; end--)
		if (rootfs_char(end[-1]))
			break;
	for (p = end; p > rootfs && rootfs_char(p[-1]); p--)
		;
	if (p != rootfs || *end)
		json_object_set_new(host, "rootfs", json_stringn(p, end - p));
	return host;
}

json_t *kab_lkp_result_parse(const char *root, const struct strbuf *jb,
			     const struct strbuf *sb, double mtime,
			     struct kab_err *err)
{
	char *jpath = xasprintf("%s/job.yaml", root);
	char *spath = xasprintf("%s/stats.json", root);
	char uuid[37], when[32], label[64], name[64];
	unsigned char d[SHA256_DIGEST_SIZE];
	const char *suite, *test, *commit, *key;
	json_t *job = NULL, *stats = NULL, *run = NULL, *v;
	json_t *params = NULL, *host = NULL;
	struct sha256_ctx h;
	json_error_t jerr;

	job = load_job(jpath, jb, err);
	if (!job)
		goto out;
	stats = json_loadb(sb->buf ? sb->buf : "", sb->len,
			   JSON_REJECT_DUPLICATES, &jerr);
	if (!json_is_object(stats)) {
		/* jansson's message quotes the bytes it stopped at: not */
		kab_err_set(err, "%s:%d:%d: not lkp's stats.json: a JSON "
			    "object of numbers", spath, stats ? 1 : jerr.line,
			    stats ? 1 : jerr.column);
		goto out;
	}
	json_object_foreach(stats, key, v) {
		if (!kab_metric_name_valid(key) || !json_is_number(v) ||
		    !kab_sample_ok(json_number_value(v))) {
			char *shown = kab_text_clean(key, 60);

			kab_err_set(err, "%s: '%s' is not a metric kab stores "
				    "(a name without spaces, commas or quotes, "
				    "a finite number within 1e30)", spath,
				    shown);
			free(shown);
			goto out;
		}
	}
	suite = str(job, "suite") ? str(job, "suite") : str(job, "testcase");
	if (!suite || !kab_name_ok(suite, 64)) {
		kab_err_set(err, "%s: no suite (or testcase) that is a name",
			    jpath);
		goto out;
	}
	test = str(json_object_get(job, suite), "test");
	test = test ? test : str(job, "test") ? str(job, "test") : suite;
	if (!kab_name_ok(test, 64)) {
		bad_key(err, jpath, "test", test);
		goto out;
	}
	commit = str(job, "commit");
	if (!is_hex(commit, 40))
		commit = NULL;
	snprintf(label, sizeof(label), "%.12s", commit ? commit : "lkp");

	/* the job's name: the file it came from, as lkp keeps it */
	snprintf(name, sizeof(name), "%s", str(job, "job_origin") ?
		 str(job, "job_origin") : suite);
	name[strcspn(name, ".")] = '\0';
	if (!kab_name_ok(name, 64))
		snprintf(name, sizeof(name), "%s", suite);

	params = run_params(job, suite, test);
	host = run_host(job);
	json_object_foreach(params, key, v) {
		if (!kab_name_ok(key, 64) ||
		    !kab_text_ok(json_string_value(v), 256) ||
		    strchr(json_string_value(v), '/')) {
			bad_key(err, jpath, key, json_string_value(v));
			goto out;
		}
	}
	json_object_foreach(host, key, v) {
		if (!kab_text_ok(json_string_value(v), 4096)) {
			bad_key(err, jpath, key, json_string_value(v));
			goto out;
		}
	}

	/*
	 * A run is its two files and where they are: two runs of a commit
	 * whose files are byte for byte the same are two runs (the same
	 * root imported again is the same run, whatever path named it).
	 */
	sha256_init(&h);
	sha256_update(&h, jb->len, (const uint8_t *)(jb->buf ? jb->buf : ""));
	sha256_update(&h, sb->len, (const uint8_t *)(sb->buf ? sb->buf : ""));
	{
		char *real = realpath(root, NULL);
		const char *where = real ? real : root;

		sha256_update(&h, strlen(where) + 1, (const uint8_t *)where);
		free(real);
	}
	sha256_digest(&h, sizeof(d), d);
	kab_uuid_of_digest(d, uuid);
	iso8601_utc(mtime, when, sizeof(when));
	/* lkp lists a commit's roots newest first, to the nanosecond */
	json_object_set_new(host, "lkp_mtime", json_real(mtime));
	run = json_pack("{s:s, s:{s:s, s:n, s:n, s:n, s:n, s:o}, s:s, s:s, "
			"s:s, s:o, s:{}, s:s, s:o, s:i, s:s, s:s, s:s, "
			"s:[{s:i, s:O}]}",
			"uuid", uuid, "kernel", "label", label, "release",
			"cmdline", "image_path", "image_sha256", "commit",
			commit ? json_string(commit) : json_null(),
			"job", name, "suite", suite, "test", test,
			"params", json_incref(params), "resolved",
			"target", "lkp", "host", json_incref(host),
			"iterations_planned", 1, "started_at", when,
			"ended_at", when, "status", "ok", "iterations",
			"iteration", 1, "metrics", stats);
	if (!run)
		kab_err_set(err, "%s: cannot make a run of it", root);
out:
	json_decref(params);
	json_decref(host);
	json_decref(job);
	json_decref(stats);
	free(jpath);
	free(spath);
	return run;
}

json_t *kab_lkp_result_run(const char *root, struct kab_err *err)
{
	struct strbuf jb = STRBUF_INIT, sb = STRBUF_INIT;
	char *jpath = xasprintf("%s/job.yaml", root);
	char *spath = stats_path(root);
	json_t *run = NULL;
	struct stat st;

	if (!spath)
		spath = xasprintf("%s/stats.json", root);
	if (read_root_file(jpath, JOB_MAX, &jb, err) ||
	    read_stats(spath, &sb, err))
		kab_err_prefix(err, "%s: not lkp's result root of a run (its "
			       "job.yaml and stats.json)", root);
	else
		run = kab_lkp_result_parse(root, &jb, &sb, stat(spath, &st) ?
					   now_wall() : (double)st.st_mtim.tv_sec +
					   st.st_mtim.tv_nsec / 1e9, err);
	strbuf_release(&jb);
	strbuf_release(&sb);
	free(jpath);
	free(spath);
	return run;
}
