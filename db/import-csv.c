// SPDX-License-Identifier: GPL-2.0
/*
 * import-csv.c - samples from anywhere, as the CSV that kab export
 * --format csv writes (run,kernel_label,iteration,metric,value,clock,
 * seed, RFC 4180 quoting; the first five alone from elsewhere: wall
 * clock, no seed), into runs.
 *
 * The whole file is read and checked before anything is stored; then
 * each run goes in as an imported JSON run would (kab_db_import_run,
 * with every check an import makes).  A run's uuid is made from the
 * file's bytes and the run's number, so that importing the same file
 * again adds nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <nettle/sha2.h>

#include "internal.h"

#define CSV_HEADER "run,kernel_label,iteration,metric,value"
#define CSV_HEADER7 CSV_HEADER ",clock,seed"

/*
 * The fields of the record at *pos (at most nf, each at most 4096
 * bytes), *pos moved past its line end.  The number of fields, or -1
 * with what is wrong in err.
 */
static int csv_record(const char *t, size_t len, size_t *pos, char **f,
		      int nf, struct kab_err *err)
{
	size_t i = *pos;
	int n = 0;

	for (;;) {
		struct strbuf sb = STRBUF_INIT;

		if (i < len && t[i] == '"') {
			for (i++;; i++) {
				if (i >= len) {
					strbuf_release(&sb);
					kab_err_set(err, "a quoted field is not "
						    "closed");
					goto fail;
				}
				if (t[i] == '"' && i + 1 < len &&
				    t[i + 1] == '"')
					i++;
				else if (t[i] == '"')
					break;
				strbuf_add(&sb, &t[i], 1);
			}
			i++;
		} else {
			while (i < len && t[i] != ',' && t[i] != '\n' &&
			       t[i] != '\r')
				strbuf_add(&sb, &t[i++], 1);
		}
		if (n == nf || sb.len > 4096 || memchr(sb.buf ? sb.buf : "",
						       '\0', sb.len)) {
			strbuf_release(&sb);
			kab_err_set(err, n == nf ? "more than %d fields" :
				    "a field of more than 4096 bytes, or a NUL",
				    nf);
			goto fail;
		}
		f[n++] = strbuf_detach(&sb);
		if (i < len && t[i] == ',') {
			i++;
			continue;
		}
		if (i < len && t[i] == '\r')
			i++;
		if (i < len && t[i] != '\n') {
			kab_err_set(err, "text after a quoted field");
			goto fail;
		}
		*pos = i < len ? i + 1 : i;
		return n;
	}
fail:
	while (n)
		free(f[--n]);
	return -1;
}

/* "<what> '<field>' <why>", the field shown as text (at most 60). */
static void bad_field(struct kab_err *err, const char *what,
		      const char *field, const char *why)
{
	char *shown = kab_text_clean(field, 60);

	kab_err_set(err, "%s '%s' %s", what, shown, why);
	free(shown);
}

static bool parse_int(const char *s, long long lo, long long hi,
		      long long *out)
{
	char *end;

	if (!*s || *s == ' ' || *s == '+')
		return false;
	*out = strtoll(s, &end, 10);
	return !*end && *out >= lo && *out <= hi;
}

/*
 * A run's clock and seed fields: the clock empty, wall or icount:N (the
 * import's own check says more), the seed empty or 1 to 2^32-1.
 */
static int run_clock_ok(const char *clock, const char *seed,
			struct kab_err *err)
{
	long long v;

	if (*clock && strcmp(clock, "wall") &&
	    (strncmp(clock, "icount:", 7) || !clock[7] ||
	     strspn(clock + 7, "0123456789") != strlen(clock + 7) ||
	     strlen(clock) > 16)) {
		bad_field(err, "clock", clock, "is not wall or icount:N");
		return -1;
	}
	if (*seed && !parse_int(seed, 1, 4294967295LL, &v)) {
		bad_field(err, "seed", seed,
			  "is not a layout seed from 1 to 4294967295");
		return -1;
	}
	return 0;
}

/* A uuid for run id of the file: its bytes and the id, hashed. */
static void run_uuid(const char *text, size_t len, long long id,
		     char out[37])
{
	struct sha256_ctx h;
	unsigned char d[SHA256_DIGEST_SIZE];
	char num[32];

	sha256_init(&h);
	sha256_update(&h, len, (const uint8_t *)text);
	snprintf(num, sizeof(num), "\n%lld", id);
	sha256_update(&h, strlen(num), (const uint8_t *)num);
	sha256_digest(&h, sizeof(d), d);
	kab_uuid_of_digest(d, out);
}

/* A run of the file, in the shape kab export gives it. */
static json_t *new_run(const struct kab_csv_job *job, const char *label,
		       const char *uuid, const char *now)
{
	json_t *params = job->params ? json_deep_copy(job->params) :
				       json_object();
	const char *suite = job->suite ? job->suite : "csv";

	json_object_set_new(params, "testcase", json_string(suite));
	json_object_set_new(params, "test",
			    json_string(job->test ? job->test : "csv"));
	return json_pack("{s:s, s:{s:s, s:n, s:n, s:n, s:n, s:n}, s:s, s:s, "
			 "s:s, s:o, s:{}, s:s, s:{}, s:i, s:s, s:s, s:s, "
			 "s:o}",
			 "uuid", uuid, "kernel", "label", label, "release",
			 "cmdline", "image_path", "image_sha256", "commit",
			 "job", job->name ? job->name : "csv", "suite", suite,
			 "test",
			 job->test ? job->test : "csv", "params", params, "resolved", "target",
			 "import", "host", "iterations_planned", 0,
			 "started_at", now, "ended_at", now, "status", "ok",
			 "iterations", json_object());
}

int kab_db_import_csv(struct kab_db *db, const char *text, size_t len,
		      const char *where, const struct kab_csv_job *job,
		      int *added, int *skipped, struct kab_err *err)
{
	json_t *runs = json_object(), *order = json_array(), *run, *v;
	size_t pos = 0, i;
	char *f[7], now[32];
	const char *key;
	int n, nf, line = 1, ret = -1;

	iso8601_utc(now_wall(), now, sizeof(now));
	n = csv_record(text, len, &pos, f, 7, err);
	if (n < 0)
		goto bad_line;
	nf = n;
	{
		bool ok = (n == 5 || (n == 7 && !strcmp(f[5], "clock") &&
				      !strcmp(f[6], "seed"))) &&
			  !strcmp(f[0], "run") &&
			  !strcmp(f[1], "kernel_label") &&
			  !strcmp(f[2], "iteration") &&
			  !strcmp(f[3], "metric") && !strcmp(f[4], "value");

		while (n)
			free(f[--n]);
		if (!ok) {
			kab_err_set(err, "%s:1: not kab's CSV: the first line "
				    "must be " CSV_HEADER7 " (as kab export "
				    "--format csv writes), or its first five",
				    where);
			ret = 1;
			goto out;
		}
	}
	while (pos < len) {
		long long id, it;
		double value;
		char idkey[32], itkey[32], uuid[37], *end;
		json_t *iters, *metrics;

		line++;
		n = csv_record(text, len, &pos, f, 7, err);
		if (n < 0)
			goto bad_line;
		if (n == 1 && !*f[0]) {		/* an empty line */
			free(f[0]);
			continue;
		}
		if (n != nf) {
			kab_err_set(err, "%d fields, not %d", n, nf);
			goto bad_fields;
		}
		if (!parse_int(f[0], 1, 1000000000, &id)) {
			bad_field(err, "run", f[0], "is not a number from 1");
			goto bad_fields;
		}
		if (!parse_int(f[2], 1, 1000000, &it)) {
			bad_field(err, "iteration", f[2],
				  "is not a number from 1 to 1000000");
			goto bad_fields;
		}
		value = strtod(f[4], &end);
		if (!*f[4] || *end || !kab_sample_ok(value)) {
			bad_field(err, "value", f[4],
				  "is not a finite number within 1e30");
			goto bad_fields;
		}
		if (!kab_metric_name_valid(f[3])) {
			bad_field(err, "metric", f[3],
				  "is not a metric name");
			goto bad_fields;
		}
		if (!*f[1] || !kab_text_ok(f[1], 4096)) {
			kab_err_set(err, "kernel label: 1 to 4096 bytes of "
				    "text, no control characters");
			goto bad_fields;
		}
		if (nf == 7 && run_clock_ok(f[5], f[6], err))
			goto bad_fields;
		snprintf(idkey, sizeof(idkey), "%lld", id);
		run = json_object_get(runs, idkey);
		if (!run) {
			run_uuid(text, len, id, uuid);
			run = new_run(job, f[1], uuid, now);
			if (nf == 7 && *f[5])
				json_object_set_new(run, "clock",
						    json_string(f[5]));
			if (nf == 7 && *f[6])
				json_object_set_new(run, "seed", json_integer(
					strtoll(f[6], NULL, 10)));
			json_object_set_new(runs, idkey, run);
			json_array_append_new(order, json_string(idkey));
		} else if (strcmp(json_string_value(json_object_get(
				json_object_get(run, "kernel"), "label")),
				  f[1])) {
			bad_field(err, "kernel label", f[1],
				  "is the run's second: one a run");
			goto bad_fields;
		} else if (nf == 7 &&
			   (strcmp(f[5], json_string_value(json_object_get(
					run, "clock")) ?: "") ||
			    json_integer_value(json_object_get(run, "seed")) !=
			    (*f[6] ? strtoll(f[6], NULL, 10) : 0))) {
			kab_err_set(err, "run %lld: a second clock or seed: "
				    "one a run", id);
			goto bad_fields;
		}
		iters = json_object_get(run, "iterations");
		snprintf(itkey, sizeof(itkey), "%lld", it);
		metrics = json_object_get(iters, itkey);
		if (!metrics) {
			metrics = json_object();
			json_object_set_new(iters, itkey, metrics);
		}
		if (json_object_get(metrics, f[3])) {
			kab_err_set(err, "run %lld, iteration %lld: %s is given "
				    "twice", id, it, f[3]);
			goto bad_fields;
		}
		json_object_set_new(metrics, f[3], json_real(value));
		while (n)
			free(f[--n]);
	}
	if (!json_array_size(order)) {
		kab_err_set(err, "%s: no samples: nothing to import", where);
		ret = 1;
		goto out;
	}
	/* all of it read and checked: now each run, whole */
	json_array_foreach(order, i, v) {
		json_t *iters, *list = json_array(), *m;
		json_int_t planned = 0;
		bool skip;

		run = json_object_get(runs, json_string_value(v));
		iters = json_object_get(run, "iterations");
		json_object_foreach(iters, key, m) {
			json_int_t k = strtoll(key, NULL, 10);

			json_array_append_new(list, json_pack(
				"{s:I, s:O}", "iteration", k, "metrics", m));
			if (k > planned)
				planned = k;
		}
		json_object_set_new(run, "iterations", list);
		json_object_set_new(run, "iterations_planned",
				    json_integer(planned));
		if (kab_db_import_run(db, run, (int)i, &skip, err)) {
			kab_err_prefix(err, "%s: run %s", where,
				       json_string_value(v));
			goto out;	/* the runs before it stay */
		}
		if (skip)
			(*skipped)++;
		else
			(*added)++;
	}
	ret = 0;
	goto out;
bad_fields:
	while (n)
		free(f[--n]);
bad_line:
	{
		char why[sizeof(err->msg)];

		snprintf(why, sizeof(why), "%s", err->msg);
		kab_err_set(err, "%s:%d: %.400s: fix that line", where, line,
			    why);
		ret = 1;
	}
out:
	json_decref(runs);
	json_decref(order);
	return ret;
}
