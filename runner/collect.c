// SPDX-License-Identifier: GPL-2.0
/*
 * collect.c - the host side of the stream: records into typed events.
 *
 * Everything that arrives is untrusted (a guest kernel, a remote box):
 * each record is checked for its shape, metric names for their spelling
 * and values for being finite numbers, and iterations must arrive in
 * order.  A record that fails is counted and dropped; it never becomes
 * a sample.  An iteration reaches the caller only whole, when its
 * iter_end arrives.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

struct kab_collector {
	const struct kab_collect_ops *ops;
	void *ctx;
	struct kab_reader *reader;
	bool started, ended;
	int expected;		/* iterations announced */
	int current;		/* iteration in flight, 0 if none */
	int last;		/* last iteration started */
	int done;		/* iterations delivered */
	int lost;		/* iterations that arrived incomplete */
	int records;		/* metric records of the iteration in flight */
	struct kab_metrics m;
	json_t *seen;		/* names in m, for a check in O(1) */
	json_t *run_seen;	/* names of every iteration: at most
				   KAB_RUN_METRICS_MAX */
	struct kab_stacks stacks;	/* the profile's, of this iteration */
	enum kab_run_status status;
	char *message;
	uint64_t rejected;
	/* the target's own metrics of a whole iteration (kab_iter_extra) */
	kab_iter_extra_fn extra;
	void *extra_ctx;
	json_t *facts;		/* the target's, over the guest's */
};

const char *kab_run_status_name(enum kab_run_status st)
{
	switch (st) {
	case KAB_RUN_RUNNING:
		return "running";
	case KAB_RUN_OK:
		return "ok";
	case KAB_RUN_FAILED:
		return "failed";
	case KAB_RUN_INTERRUPTED:
		return "interrupted";
	}
	return "unknown";
}

static void set_message(struct kab_collector *c, const char *msg)
{
	free(c->message);
	c->message = xstrdup(msg);
}

/*
 * A copy of a guest's JSON whose strings (and keys) have no control
 * characters: a release string with an escape sequence or a newline is
 * stored with '?' in their place, never as it came.
 */
static json_t *clean_json(json_t *v, int depth)
{
	const char *k;
	json_t *e, *out;
	size_t i;
	char *s;

	if (depth > 8)
		return json_null();
	if (json_is_string(v)) {
		s = kab_text_clean(json_string_value(v), 4096);
		out = json_string(s);
		free(s);
		return out ? out : json_null();
	}
	if (json_is_object(v)) {
		out = json_object();
		json_object_foreach(v, k, e) {
			s = kab_text_clean(k, 255);
			json_object_set_new(out, s, clean_json(e, depth + 1));
			free(s);
		}
		return out;
	}
	if (json_is_array(v)) {
		out = json_array();
		json_array_foreach(v, i, e)
			json_array_append_new(out, clean_json(e, depth + 1));
		return out;
	}
	return json_incref(v);
}

static char *clean_str(json_t *v, size_t max)
{
	const char *s = json_string_value(v);

	return s ? kab_text_clean(s, max) : NULL;
}

static int on_start(struct kab_collector *c, json_t *body)
{
	struct kab_run_start st = { 0 };
	json_t *host, *resolved;
	char *release, *cmdline;
	int iterations, rc = 0;
	double expected = 0;

	if (c->started ||
	    json_unpack(body, "{s:o, s:o, s:i, s?F}", "host", &host,
			"resolved", &resolved, "iterations", &iterations,
			"expected_seconds", &expected) ||
	    !json_is_object(host) || !json_is_object(resolved) ||
	    iterations < 1 || iterations > 1000000)
		return -1;
	c->started = true;
	c->expected = iterations;
	st.host = clean_json(host, 0);
	if (c->facts && json_is_object(st.host))
		json_object_update(st.host, c->facts);
	st.resolved = clean_json(resolved, 0);
	release = clean_str(json_object_get(host, "release"), 255);
	cmdline = clean_str(json_object_get(host, "cmdline"), 4096);
	st.release = release && *release ? release : NULL;
	st.cmdline = cmdline;
	st.iterations = iterations;
	st.expected_seconds = isfinite(expected) ? expected : 0;
	if (c->ops->start && c->ops->start(c->ctx, &st))
		rc = 1;
	json_decref(st.host);
	json_decref(st.resolved);
	free(release);
	free(cmdline);
	return rc;
}

static void metrics_reset(struct kab_collector *c)
{
	kab_stacks_free(&c->stacks);
	kab_metrics_free(&c->m);
	json_object_clear(c->seen);
}

static int on_metrics(struct kab_collector *c, json_t *body)
{
	json_t *metrics, *v;
	const char *name;
	int it;

	if (json_unpack(body, "{s:i, s:o}", "iteration", &it, "metrics",
			&metrics) || !json_is_object(metrics) ||
	    it != c->current)
		return -1;
	json_object_foreach(metrics, name, v) {
		if (!json_is_number(v) ||
		    !kab_sample_ok(json_number_value(v)) ||
		    !kab_metric_name_valid(name) ||
		    json_object_get(c->seen, name) ||
		    c->m.nr >= KAB_METRICS_MAX ||
		    (!json_object_get(c->run_seen, name) &&
		     json_object_size(c->run_seen) >= KAB_RUN_METRICS_MAX)) {
			c->rejected++;
			continue;
		}
		kab_metrics_add(&c->m, name, json_number_value(v));
		json_object_set_new(c->seen, name, json_true());
		json_object_set_new(c->run_seen, name, json_true());
	}
	return 0;
}

/*
 * The profile's stacks of the iteration in flight: all or nothing, once
 * an iteration; delivered with the iteration at its iter_end.
 */
static int on_stacks(struct kab_collector *c, json_t *body)
{
	const char *source, *event, *stack;
	json_int_t samples;
	json_t *stacks, *v;
	int it;

	if (json_unpack(body, "{s:i, s:s, s:s, s:I, s:o}", "iteration", &it,
			"source", &source, "event", &event, "samples",
			&samples, "stacks", &stacks) ||
	    it != c->current || c->stacks.event ||
	    strcmp(source, "perf-profile") || !kab_name_ok(event, 32) ||
	    samples < 1 || samples > 1000000000000LL ||
	    !json_is_object(stacks) ||
	    json_object_size(stacks) > KAB_STACKS_MAX)
		return -1;
	json_object_foreach(stacks, stack, v) {
		if (!json_is_integer(v) || json_integer_value(v) < 1 ||
		    json_integer_value(v) > samples || !kab_stack_ok(stack)) {
			kab_stacks_free(&c->stacks);
			return -1;
		}
		kab_stacks_add(&c->stacks, stack,
			       (uint64_t)json_integer_value(v));
	}
	c->stacks.event = xstrdup(event);
	c->stacks.samples = (uint64_t)samples;
	return 0;
}

static int on_record(void *ctx, const char *type, json_t *body)
{
	struct kab_collector *c = ctx;
	const char *msg;
	int it, rc = 0;

	if (c->ended)
		return 0;
	if (!strcmp(type, "start")) {
		rc = on_start(c, body);
	} else if (!c->started && strcmp(type, "error") &&
		   strcmp(type, "log") && strcmp(type, "end")) {
		/* An agent that fails early still says why and ends. */
		rc = -1;
	} else if (!strcmp(type, "iter")) {
		if (json_unpack(body, "{s:i}", "iteration", &it) ||
		    it <= c->last || it > c->expected)
			rc = -1;
		else {
			if (c->current)
				c->lost++;	/* its iter_end never came */
			c->current = it;
			c->last = it;
			c->records = 0;
			metrics_reset(c);
			if (c->ops->iter_start)
				c->ops->iter_start(c->ctx, it);
		}
	} else if (!strcmp(type, "sample") || !strcmp(type, "monitor")) {
		rc = on_metrics(c, body);
		if (!rc)
			c->records++;
	} else if (!strcmp(type, "stacks")) {
		rc = on_stacks(c, body);
	} else if (!strcmp(type, "iter_end")) {
		int records = -1;

		if (json_unpack(body, "{s:i, s?i}", "iteration", &it,
				"records", &records) ||
		    it != c->current || !c->m.nr) {
			rc = -1;
		} else if (records >= 0 && records != c->records) {
			/*
			 * A record of this iteration was lost on the way:
			 * store the iteration whole or not at all.
			 */
			c->lost++;
			c->current = 0;
			metrics_reset(c);
		} else {
			/* what the target measured itself, the guest unasked */
			if (c->extra)
				c->extra(c->extra_ctx, it, &c->m);
			/* stored, or not counted: a full disk is said */
			if (c->ops->iteration &&
			    c->ops->iteration(c->ctx, it, &c->m))
				rc = 1;
			else
				c->done++;
			/* a flame graph's stacks go with a stored iteration */
			if (!rc && c->stacks.event && c->ops->stacks &&
			    c->ops->stacks(c->ctx, it, &c->stacks))
				rc = 1;
			c->current = 0;
			metrics_reset(c);
		}
	} else if (!strcmp(type, "error") || !strcmp(type, "log")) {
		char *clean;

		if (json_unpack(body, "{s:s}", "message", &msg))
			return -1;
		clean = kab_text_clean(msg, 1023);
		if (type[0] == 'e') {
			set_message(c, clean);
			if (c->ops->error)
				c->ops->error(c->ctx, clean);
		} else if (c->ops->log) {
			c->ops->log(c->ctx, clean);
		}
		free(clean);
	} else if (!strcmp(type, "end")) {
		if (json_unpack(body, "{s:s}", "status", &msg))
			return -1;
		c->ended = true;
		if (!strcmp(msg, "ok") && !c->started) {
			/* an "ok" of a run whose start never came whole */
			c->status = KAB_RUN_FAILED;
			if (!c->message)
				set_message(c, "the run's start record was "
					    "lost on the way (damaged records): "
					    "nothing of the run can be stored");
		} else if (!strcmp(msg, "ok") &&
			   c->done + c->lost == c->expected) {
			c->status = KAB_RUN_OK;
		} else if (!strcmp(msg, "interrupted")) {
			c->status = KAB_RUN_INTERRUPTED;
		} else {
			c->status = KAB_RUN_FAILED;
		}
	} else {
		rc = -1;	/* unknown type: a newer agent; ignore it */
	}
	if (rc < 0)
		c->rejected++;
	return rc > 0 ? rc : 0;
}

struct kab_collector *kab_collector_new(const struct kab_collect_ops *ops,
					void *ctx)
{
	struct kab_collector *c = xcalloc(1, sizeof(*c));

	c->seen = json_object();
	c->run_seen = json_object();
	c->ops = ops;
	c->ctx = ctx;
	c->reader = kab_reader_new(on_record, c);
	c->status = KAB_RUN_RUNNING;
	return c;
}

void kab_collector_set_facts(struct kab_collector *c, json_t *facts)
{
	json_decref(c->facts);
	c->facts = json_incref(facts);
}

void kab_collector_set_extra(struct kab_collector *c, kab_iter_extra_fn fn,
			     void *ctx)
{
	c->extra = fn;
	c->extra_ctx = ctx;
}

int kab_collector_feed(struct kab_collector *c, const void *buf, size_t n)
{
	return kab_reader_feed(c->reader, buf, n);
}

enum kab_run_status kab_collector_finish(struct kab_collector *c,
					 const char **message)
{
	kab_reader_finish(c->reader);
	if (!c->ended) {
		c->status = KAB_RUN_INTERRUPTED;
		if (!c->message)
			set_message(c, c->started ?
				    "the stream ended without an end record "
				    "(agent killed or connection lost)" :
				    "the agent never started the run");
	}
	if (c->status == KAB_RUN_FAILED && !c->message)
		set_message(c, "the agent reported failure");
	if (c->lost && !c->message) {
		char msg[128];

		snprintf(msg, sizeof(msg), "%d iteration%s lost in transport "
			 "(damaged records)", c->lost, c->lost == 1 ? "" : "s");
		set_message(c, msg);
	}
	if (message)
		*message = c->message;
	return c->status;
}

void kab_collector_stats(const struct kab_collector *c,
			 struct kab_reader_stats *out)
{
	*out = *kab_reader_stats(c->reader);
	out->bad_records += c->rejected;
}

int kab_collector_iterations(const struct kab_collector *c)
{
	return c->done;
}

bool kab_collector_started(const struct kab_collector *c)
{
	return c->started;
}

bool kab_collector_ended(const struct kab_collector *c)
{
	return c->ended;
}

int kab_collector_lost(const struct kab_collector *c)
{
	return c->lost;
}

void kab_collector_free(struct kab_collector *c)
{
	if (!c)
		return;
	kab_reader_free(c->reader);
	metrics_reset(c);
	json_decref(c->seen);
	json_decref(c->run_seen);
	json_decref(c->facts);
	free(c->message);
	free(c);
}
