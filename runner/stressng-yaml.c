// SPDX-License-Identifier: GPL-2.0
/*
 * stressng-yaml.c - read the metrics of a stress-ng --yaml report.
 *
 * stress-ng writes "system-info:", then with --metrics a "metrics:" list
 * (one mapping per stressor: bogo-ops, bogo-ops-per-second-usr-sys-time,
 * bogo-ops-per-second-real-time, wall-clock-time, user-time,
 * system-time, cpu-usage-per-instance; newer versions add max-rss and an
 * "instances:" list), then "times:" with --times.  The report is
 * trusted no more than any other output: every number is checked, and a
 * report cut short (stress-ng killed while writing) is refused rather
 * than read as smaller numbers.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "runner.h"

static const char *scalar(yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ?
		(const char *)n->data.scalar.value : NULL;
}

static yaml_node_t *map_get(yaml_document_t *doc, yaml_node_t *map,
			    const char *key)
{
	yaml_node_pair_t *p;

	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (p = map->data.mapping.pairs.start;
	     p < map->data.mapping.pairs.top; p++) {
		const char *k = scalar(yaml_document_get_node(doc, p->key));

		if (k && !strcmp(k, key))
			return yaml_document_get_node(doc, p->value);
	}
	return NULL;
}

static int number(yaml_document_t *doc, yaml_node_t *map, const char *key,
		  double *out, struct kab_err *err)
{
	const char *s = scalar(map_get(doc, map, key));
	char *end;

	if (!s)
		return kab_err_set(err, "stress-ng's report has no '%s' (cut "
				   "short?): rerun the job", key);
	errno = 0;
	*out = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(*out) || *out < 0)
		return kab_err_set(err, "stress-ng's report has '%s: %s', not "
				   "a number", key, s);
	return 0;
}

static int read_metrics(yaml_document_t *doc, yaml_node_t *root,
			const char *stressor, struct kab_stressng_result *res,
			struct kab_err *err)
{
	static const char *const needed[] = {
		"user-time", "system-time", "cpu-usage-per-instance",
	};
	yaml_node_t *metrics = map_get(doc, root, "metrics");
	yaml_node_item_t *it;
	size_t i;

	if (!metrics || metrics->type != YAML_SEQUENCE_NODE)
		return kab_err_set(err, "stress-ng's report has no metrics "
				   "list: it must run with --metrics");
	for (it = metrics->data.sequence.items.start;
	     it < metrics->data.sequence.items.top; it++) {
		yaml_node_t *m = yaml_document_get_node(doc, *it);
		const char *name = scalar(map_get(doc, m, "stressor"));
		double dummy;

		if (!name || strcmp(name, stressor))
			continue;
		if (number(doc, m, "bogo-ops", &res->bogo_ops, err) ||
		    number(doc, m, "bogo-ops-per-second-real-time",
			   &res->ops_per_sec_real, err) ||
		    number(doc, m, "bogo-ops-per-second-usr-sys-time",
			   &res->ops_per_sec_usr_sys, err) ||
		    number(doc, m, "wall-clock-time", &res->wall_clock, err))
			return -1;
		for (i = 0; i < ARRAY_SIZE(needed); i++)
			if (number(doc, m, needed[i], &dummy, err))
				return -1;
		/* The rate must be the count over the time it took. */
		if (res->wall_clock > 0 &&
		    fabs(res->bogo_ops / res->wall_clock -
			 res->ops_per_sec_real) >
		    0.05 * res->ops_per_sec_real + 0.01)
			return kab_err_set(err, "stress-ng's report is "
					   "inconsistent: %g bogo ops in %g s "
					   "is not %g ops/s (damaged output?)",
					   res->bogo_ops, res->wall_clock,
					   res->ops_per_sec_real);
		return 0;
	}
	return kab_err_set(err, "stress-ng's report has no metrics for "
			   "stressor '%s': it did not run", stressor);
}

int kab_stressng_parse_yaml(const char *text, size_t len, const char *stressor,
			    struct kab_stressng_result *res,
			    struct kab_err *err)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	yaml_node_t *root;
	const char *ver;
	int ret = -1;

	memset(res, 0, sizeof(*res));
	if (!yaml_parser_initialize(&parser))
		return kab_err_set(err, "cannot start the YAML parser");
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &doc)) {
		kab_err_set(err, "stress-ng's report is not YAML (line %zu: "
			    "%s): the output was damaged or cut short",
			    parser.problem_mark.line + 1,
			    parser.problem ? parser.problem : "parse error");
		yaml_parser_delete(&parser);
		return -1;
	}
	root = yaml_document_get_root_node(&doc);
	if (!root || root->type != YAML_MAPPING_NODE) {
		kab_err_set(err, "stress-ng's report is empty or not a YAML "
			    "mapping: the output was damaged or cut short");
		goto out;
	}
	ver = scalar(map_get(&doc, map_get(&doc, root, "system-info"),
			     "stress-ng-version"));
	if (ver)
		snprintf(res->version, sizeof(res->version), "%s", ver);
	ret = read_metrics(&doc, root, stressor, res, err);
out:
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	return ret;
}

const char *kab_stressng_exit_reason(int status)
{
	switch (status) {
	case 0:
		return "success";
	case 1:
		return "stress-ng rejected its options (exit 1): this "
		       "stress-ng may be too old for the job's parameters";
	case 2:
		return "a stressor failed (exit 2): see the stress-ng log";
	case 3:
		return "stress-ng ran out of a resource (exit 3): free memory "
		       "or lower nr_threads";
	case 4:
		return "the stressor is not implemented on this system "
		       "(exit 4)";
	case 5:
		return "a stressor was killed by a signal (exit 5): the OOM "
		       "killer or a crash; see the kernel log";
	case 6:
		return "a stressor exited unexpectedly (exit 6)";
	case 7:
		return "stress-ng says its metrics are untrustworthy (exit 7): "
		       "rerun the job";
	default:
		return "stress-ng failed with an unknown exit status";
	}
}
