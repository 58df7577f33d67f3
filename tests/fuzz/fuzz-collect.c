// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-collect.c - libFuzzer: bytes as a guest's record stream, through
 * the reader and the collector.  Beyond "no crash": whatever reaches
 * the callbacks must pass the rules the database stores by (a guest
 * cannot get a control character, a bad sample or a bad stack through).
 */
#include <stdlib.h>
#include <string.h>

#include "../../runner/runner.h"
#include "../../db/db.h"

static int on_start(void *ctx, const struct kab_run_start *st)
{
	struct kab_run r = { 0 };
	struct kab_err err;
	json_t *params = json_object();

	r.kernel.label = (char *)(st->release ? st->release : "fuzz");
	r.kernel.release = (char *)st->release;
	r.kernel.cmdline = (char *)st->cmdline;
	r.job = "fuzz";
	r.suite = "fuzz";
	r.test = "fuzz";
	r.target = "qemu";
	r.params = params;
	r.resolved = st->resolved;
	r.host = st->host;
	if (kab_run_check(&r, &err))
		abort();	/* the collector let a bad string through */
	json_decref(params);
	return 0;
}

static int on_iteration(void *ctx, int iteration, const struct kab_metrics *m)
{
	int i;

	if (m->nr > KAB_METRICS_MAX)
		abort();
	for (i = 0; i < m->nr; i++)
		if (!kab_metric_name_valid(m->v[i].name) ||
		    !kab_sample_ok(m->v[i].value))
			abort();
	return 0;
}

/* A flame graph's stacks: names the store and the SVG can take. */
static int on_stacks(void *ctx, int iteration, const struct kab_stacks *s)
{
	size_t i;

	if (!s->event || !kab_name_ok(s->event, 32) || s->samples < 1 ||
	    s->nr > KAB_STACKS_MAX)
		abort();
	for (i = 0; i < s->nr; i++)
		if (!kab_stack_ok(s->stack[i]) || s->n[i] < 1 ||
		    s->n[i] > s->samples)
			abort();
	return 0;
}

static const struct kab_collect_ops ops = {
	.start = on_start,
	.iteration = on_iteration,
	.stacks = on_stacks,
};

/*
 * Lines of JSON, each framed as a record: past the crc, so that the
 * collector's own logic is what gets explored.
 */
static void feed_framed(struct kab_collector *c, const char *text, size_t n)
{
	char *copy = strndup(text, n), *line, *save = NULL;

	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		json_t *j = json_loads(line, JSON_DISABLE_EOF_CHECK, NULL);
		const char *type = json_string_value(json_object_get(j, "t"));
		char *rec;
		size_t len;

		if (type) {
			rec = kab_record_encode(type, j, &len);
			if (rec)
				kab_collector_feed(c, rec, len);
			free(rec);
		}
		json_decref(j);
	}
	free(copy);
}

/* First byte 'J': lines of JSON records; otherwise the raw stream. */
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct kab_collector *c = kab_collector_new(&ops, NULL);
	const char *msg;
	size_t half = size / 2;

	if (size && data[0] == 'J') {
		feed_framed(c, (const char *)data + 1, size - 1);
	} else {
		/* in two pieces: records cut across reads */
		kab_collector_feed(c, data, half);
		kab_collector_feed(c, data + half, size - half);
	}
	kab_collector_finish(c, &msg);
	if (msg && !kab_text_ok(msg, 4096))
		abort();
	kab_collector_free(c);
	return 0;
}
