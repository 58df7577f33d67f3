// SPDX-License-Identifier: GPL-2.0
/*
 * import.c - a run exported as JSON (kab export --format json), back
 * into a database.  A run already there (same uuid) is skipped; each
 * run goes in whole (its samples and its profile's stacks), in one
 * transaction, or not at all.  The JSON is
 * checked as carefully as a guest's stream: it may come from anywhere.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const char *opt_str(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/*
 * An iteration's profile stacks, as export writes them, checked as the
 * collector checks a guest's: an event name, at most KAB_STACKS_MAX
 * folded stacks of frames, each count within the iteration's samples.
 */
static int import_stacks(struct kab_db *db, int64_t run_id, int iteration,
			 json_t *s, int idx, struct kab_err *err)
{
	const char *event, *stack;
	json_int_t total;
	json_t *stacks, *v;

	if (json_unpack(s, "{s:s, s:I, s:o}", "event", &event, "total",
			&total, "stacks", &stacks) ||
	    !kab_name_ok(event, 32) || total < 1 ||
	    total > 1000000000000LL || !json_is_object(stacks) ||
	    json_object_size(stacks) > KAB_STACKS_MAX)
		return kab_err_set(err, "run #%d: iteration %d: its profile "
				   "stacks are malformed (an event name, a "
				   "total of samples, at most %d stacks)",
				   idx + 1, iteration, KAB_STACKS_MAX);
	json_object_foreach(stacks, stack, v) {
		if (!json_is_integer(v) || json_integer_value(v) < 1 ||
		    json_integer_value(v) > total || !kab_stack_ok(stack)) {
			char *shown = kab_text_clean(stack, 60);

			kab_err_set(err, "run #%d: iteration %d: bad profile "
				    "stack '%s' (frames of symbol names, a "
				    "count within the total)", idx + 1,
				    iteration, shown);
			free(shown);
			return -1;
		}
		if (kab_db_stack_add(db, run_id, iteration, event, stack,
				     (uint64_t)json_integer_value(v),
				     (uint64_t)total, err))
			return -1;
	}
	return 0;
}

int kab_db_import_run(struct kab_db *db, json_t *j, int idx, bool *skipped,
		      struct kab_err *err)
{
	struct kab_run r = { 0 };
	json_t *kernel, *iters, *it;
	const char *uuid, *status;
	size_t i;
	json_int_t garbage = 0, bad = 0, planned;

	*skipped = false;
	if (json_unpack(j, "{s:s, s:o, s:s, s:s, s:s, s:o, s:o, s:s, s:o, "
			"s:I, s:s, s:s, s:o, s?I, s?I}",
			"uuid", &uuid, "kernel", &kernel, "job", &r.job,
			"suite", &r.suite, "test", &r.test,
			"params", &r.params, "resolved", &r.resolved,
			"target", &r.target, "host", &r.host,
			"iterations_planned", &planned,
			"started_at", &r.started_at, "status", &status,
			"iterations", &iters,
			"garbage_bytes", &garbage, "bad_records", &bad) ||
	    !json_is_object(kernel) || !json_is_array(iters) ||
	    !json_is_object(r.params) || !json_is_object(r.host) ||
	    !opt_str(kernel, "label") || strlen(uuid) >= sizeof(r.uuid))
		return kab_err_set(err, "run #%d is not a kab run (missing "
				   "uuid, kernel, job, params, host or "
				   "iterations): import only files written by "
				   "'kab export --format json'", idx + 1);
	/* numbers as they are or refused, never cut to fit */
	if (planned < 0 || planned > 1000000 || garbage < 0 || bad < 0)
		return kab_err_set(err, "run #%d has a count out of range "
				   "(iterations_planned 0..1000000, "
				   "garbage_bytes and bad_records >= 0)",
				   idx + 1);
	r.iterations_planned = (int)planned;
	if (strcmp(status, "ok") && strcmp(status, "failed") &&
	    strcmp(status, "interrupted") && strcmp(status, "running"))
		return kab_err_set(err, "run #%d has an unknown status: "
				   "ok, failed, interrupted or running",
				   idx + 1);
	/* checked with the rest by kab_run_check */
	r.block = (char *)opt_str(j, "block");
	r.clock = (char *)opt_str(j, "clock");
	if (json_object_get(j, "clock") && !r.clock)
		return kab_err_set(err, "run #%d has a clock that is not a "
				   "string: wall or icount:N", idx + 1);
	if (json_object_get(j, "seed")) {
		json_t *s = json_object_get(j, "seed");

		if (!json_is_integer(s) || json_integer_value(s) < 1 ||
		    (unsigned long long)json_integer_value(s) > KAB_SEED_MAX)
			return kab_err_set(err, "run #%d has a layout seed that "
					   "is not a whole number from 1 to %llu",
					   idx + 1, KAB_SEED_MAX);
		r.seed = (unsigned long long)json_integer_value(s);
	}
	snprintf(r.uuid, sizeof(r.uuid), "%s", uuid);
	r.kernel.label = (char *)opt_str(kernel, "label");
	r.kernel.release = (char *)opt_str(kernel, "release");
	r.kernel.cmdline = (char *)opt_str(kernel, "cmdline");
	r.kernel.image_path = (char *)opt_str(kernel, "image_path");
	r.kernel.image_sha256 = (char *)opt_str(kernel, "image_sha256");
	r.kernel.commit = (char *)opt_str(kernel, "commit");
	r.ended_at = (char *)opt_str(j, "ended_at");
	r.message = (char *)opt_str(j, "message");
	/* A run exported while it went is over now. */
	r.status = (char *)(strcmp(status, "running") ? status : "interrupted");
	r.garbage_bytes = garbage;
	r.bad_records = bad;
	if (kab_run_check(&r, err))
		return kab_err_prefix(err, "run #%d", idx + 1);

	if (kab_db_begin(db, err))
		return -1;
	/* inside the transaction: another import may be adding it */
	if (kab_db_run_exists(db, uuid)) {
		*skipped = true;
		kab_db_rollback(db);
		return 0;
	}
	if (kab_db_run_insert(db, &r, err))
		goto fail;
	json_array_foreach(iters, i, it) {
		json_t *metrics, *v;
		const char *name;
		json_int_t iteration;

		if (json_unpack(it, "{s:I, s:o}", "iteration", &iteration,
				"metrics", &metrics) ||
		    !json_is_object(metrics) || iteration < 1 ||
		    iteration > 1000000) {
			kab_err_set(err, "run #%d: iteration entry %zu is "
				    "malformed", idx + 1, i + 1);
			goto fail;
		}
		json_object_foreach(metrics, name, v) {
			if (!json_is_number(v) ||
			    !kab_sample_ok(json_number_value(v)) ||
			    !kab_metric_name_valid(name)) {
				char *shown = kab_text_clean(name, 60);

				kab_err_set(err, "run #%d: iteration %d: bad "
					    "sample '%s' (a metric name and a "
					    "finite number within 1e30)",
					    idx + 1, (int)iteration, shown);
				free(shown);
				goto fail;
			}
			if (kab_db_sample_add(db, r.id, iteration, name,
					      json_number_value(v), err))
				goto fail;
		}
		if (json_object_get(it, "stacks") &&
		    import_stacks(db, r.id, (int)iteration,
				  json_object_get(it, "stacks"), idx, err))
			goto fail;
	}
	{
		char what[32];

		snprintf(what, sizeof(what), "run #%d", idx + 1);
		if (db_check_run_metrics(db, r.id, what, err))
			goto fail;
	}
	return kab_db_commit(db, err);
fail:
	kab_db_rollback(db);
	return -1;
}

