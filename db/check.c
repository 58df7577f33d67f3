// SPDX-License-Identifier: GPL-2.0
/*
 * check.c - what a run may hold before it is stored.  Runs come from a
 * guest's stream, an imported file or a merged database: every string
 * in them later reaches a shell (report's "to reproduce"), a mail
 * header, markdown, HTML or a terminal.  Each writer escapes for its
 * format as well; this is the rule at the door: names are names, text
 * has no control characters, commits are hex.
 */
#include <string.h>

#include "internal.h"

static bool hex_ok(const char *s, size_t min, size_t max)
{
	size_t n = strlen(s);

	return n >= min && n <= max && strspn(s, "0123456789abcdef") == n;
}

/* Every string in v, keys too, is text of at most max bytes. */
static bool json_text_ok(json_t *v, size_t max, int depth)
{
	const char *k;
	json_t *e;
	size_t i;

	if (depth > 8)
		return false;
	if (json_is_string(v))
		return kab_text_ok(json_string_value(v), max);
	if (json_is_object(v)) {
		json_object_foreach(v, k, e)
			if (!kab_text_ok(k, 255) ||
			    !json_text_ok(e, max, depth + 1))
				return false;
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, e)
			if (!json_text_ok(e, max, depth + 1))
				return false;
	}
	return true;
}

/* A job's parameters: names to plain values, as the job parser allows. */
static bool params_ok(json_t *params)
{
	const char *k;
	json_t *v;

	if (!json_is_object(params))
		return false;
	json_object_foreach(params, k, v)
		if (!kab_name_ok(k, 64) || !json_is_string(v) ||
		    !kab_text_ok(json_string_value(v), 256) ||
		    strchr(json_string_value(v), '/'))
			return false;
	return true;
}

int kab_run_check(const struct kab_run *r, struct kab_err *err)
{
	const struct kab_kernel *k = &r->kernel;
	const char *bad = NULL;

	if (r->uuid[0] && strspn(r->uuid, "0123456789abcdef-") !=
	    strlen(r->uuid))
		bad = "uuid (hex digits and '-')";
	else if (!k->label || !*k->label || !kab_text_ok(k->label, 4096))
		bad = "kernel label (1 to 4096 bytes of text)";
	else if (k->release && !kab_text_ok(k->release, 255))
		bad = "kernel release";
	else if (k->cmdline && !kab_text_ok(k->cmdline, 4096))
		bad = "kernel command line";
	else if (k->image_path && !kab_text_ok(k->image_path, 4096))
		bad = "kernel image path";
	else if (k->image_sha256 && *k->image_sha256 &&
		 !hex_ok(k->image_sha256, 64, 64))
		bad = "kernel image sha256 (64 hex digits)";
	else if (k->commit && !hex_ok(k->commit, 4, 64))
		bad = "commit (4 to 64 lowercase hex digits)";
	else if (!r->job || !kab_name_ok(r->job, 255))
		bad = "job name (letters, digits, '_', '-', '.', '+')";
	else if (!r->suite || !kab_name_ok(r->suite, 64))
		bad = "suite name";
	else if (!r->test || !kab_name_ok(r->test, 64))
		bad = "test name";
	else if (!r->target || !kab_name_ok(r->target, 64))
		bad = "target";
	else if (!params_ok(r->params))
		bad = "job parameters (names to values without '/' or "
		      "control characters)";
	else if (r->resolved && !json_text_ok(r->resolved, 4096, 0))
		bad = "resolved parameters";
	else if (r->host && !json_text_ok(r->host, 4096, 0))
		bad = "host facts";
	else if (r->block && (!*r->block || !kab_text_ok(r->block, 255)))
		bad = "block";
	else if (r->clock && !kab_clock_stored_ok(r->clock))
		bad = "clock (wall or icount:N)";
	else if (r->started_at && !kab_text_ok(r->started_at, 64))
		bad = "start time";
	else if (r->ended_at && !kab_text_ok(r->ended_at, 64))
		bad = "end time";
	else if (r->message && !kab_text_ok(r->message, 4096))
		bad = "message (one line of text, up to 4096 bytes)";
	if (bad)
		return kab_err_set(err, "the run's %s is not valid: strings "
				   "from a guest, an import or a merge must "
				   "have no control characters", bad);
	return 0;
}
