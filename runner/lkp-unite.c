// SPDX-License-Identifier: GPL-2.0
/*
 * lkp-unite.c - a commit's lkp runs united as lkp unites them before
 * it compares (lib/matrix.rb's unite_to, lib/stats.rb's
 * add_stats_to_matrix, lib/nresult_root.rb's complete_matrix):
 *
 * - a stat that is an integer 0 in every run (a run that lacks it
 *   counts as 0) is dropped;
 * - per-CPU sched_debug stats (sched_debug.*.<cpu>) are dropped;
 * - a run with last_state.is_incomplete_run = 1 is left out of the
 *   comparison (kab stores it as a failed run, shown in lkp's fail:runs
 *   block);
 * - lkp's pass/fail stats (etc/failure, etc/pass: dmesg.*, kmsg.*,
 *   last_state.*, stderr.*, *.fail, *.pass ...) are not performance
 *   numbers: kab does not store them.
 *
 * A stat a run lacks while another run of the commit has it counts as
 * 0 in that run: kab's comparisons do that for lkp's runs (model's
 * side_pool), as lkp's matrix does when it is loaded.
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* lkp's etc/failure and etc/pass, as lib/stats.rb anchors them */
static const char *const function_res[] = {
	"^.+killed_by.*", "^.+\\.(error|warn|fail)[^_]*$", "^dmesg.*",
	"^kmemleak\\..+unreferenced_object\\..+", "^kmsg.*",
	"^last_state.*", "^locktoture\\..+lock_hotplug",
	"^rcutoture\\..+rcu_hotplug", "^stderr.*", "^xfstests\\..+fail$",
	"^.+\\.pass$",
};

#define NR_FUNCTION_RES (sizeof(function_res) / sizeof(function_res[0]))

static regex_t function_re[NR_FUNCTION_RES], per_cpu_re;
static bool compiled;

static void compile(void)
{
	size_t i;

	if (compiled)
		return;
	for (i = 0; i < NR_FUNCTION_RES; i++)
		if (regcomp(&function_re[i], function_res[i],
			    REG_EXTENDED | REG_NOSUB))
			abort();	/* the patterns above are kab's own */
	if (regcomp(&per_cpu_re, "^sched_debug.*\\.[0-9]+$",
		    REG_EXTENDED | REG_NOSUB))
		abort();
	compiled = true;
}

bool kab_lkp_function_stat(const char *k)
{
	size_t i;

	/* lib/stats.rb's __function_stat?: times are never pass/fail */
	if (strstr(k, ".time.") || strstr(k, ".timestamp:") ||
	    strstr(k, ".bootstage:"))
		return false;
	compile();
	for (i = 0; i < NR_FUNCTION_RES; i++)
		if (!regexec(&function_re[i], k, 0, NULL, 0))
			return true;
	return false;
}

bool kab_lkp_per_cpu_stat(const char *k)
{
	compile();
	return !regexec(&per_cpu_re, k, 0, NULL, 0);
}

static json_t *run_stats(json_t *run)
{
	return json_object_get(json_array_get(json_object_get(run,
							      "iterations"),
					      0), "metrics");
}

static bool int_zero(json_t *v)
{
	return json_is_integer(v) && !json_integer_value(v);
}

/* A run's stats without what kab does not compare; true if incomplete. */
static bool strip(json_t *stats, struct kab_lkp_unite *u)
{
	json_t *v, *inc = json_object_get(stats,
					  "last_state.is_incomplete_run");
	bool incomplete = json_is_number(inc) && json_number_value(inc) == 1;
	const char *k;
	void *tmp;

	json_object_foreach_safe(stats, tmp, k, v) {
		if (kab_lkp_function_stat(k)) {
			json_object_set_new(u->function_stats, k,
					    json_true());
			json_object_del(stats, k);
		} else if (kab_lkp_per_cpu_stat(k)) {
			u->per_cpu++;
			json_object_del(stats, k);
		}
	}
	return incomplete;
}

void kab_lkp_unite(json_t *const *runs, size_t n, struct kab_lkp_unite *u)
{
	json_t *all = json_object(), *v;
	const char *k;
	size_t i;

	if (!u->function_stats)
		u->function_stats = json_object();
	if (!u->zero)
		u->zero = json_object();
	for (i = 0; i < n; i++) {
		json_t *stats = run_stats(runs[i]);

		if (!json_is_object(stats))
			continue;
		if (strip(stats, u)) {
			u->incomplete++;
			json_object_set_new(runs[i], "status",
					    json_string("failed"));
			json_object_set_new(runs[i], "message", json_string(
				"lkp marked this run incomplete "
				"(last_state.is_incomplete_run)"));
		}
		json_object_foreach(stats, k, v)
			if (!int_zero(v))
				json_object_set_new(all, k, json_true());
			else if (!json_object_get(all, k))
				json_object_set_new(all, k, json_false());
	}
	/* all[k]: whether any run has k as other than an integer 0 */
	json_object_foreach(all, k, v) {
		if (json_is_true(v))
			continue;
		for (i = 0; i < n; i++)
			json_object_del(run_stats(runs[i]), k);
		json_object_set_new(u->zero, k, json_true());
	}
	json_decref(all);
}
