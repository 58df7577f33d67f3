// SPDX-License-Identifier: GPL-2.0
/*
 * params.c - values of job parameters: task counts and durations.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

static int parse_long(const char *s, long *out)
{
	char *end;
	long v;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

/*
 * "N" tasks, or "P%" of the CPUs the way lkp computes it: P * nr_cpus /
 * 100 truncated, at least 1.  nr_cpus < 0 only checks the spelling.
 */
int kab_parse_tasks(const char *s, int nr_cpus, int *out, struct kab_err *err)
{
	size_t len = strlen(s);
	long v;

	if (len && s[len - 1] == '%') {
		char num[32];

		if (len - 1 >= sizeof(num))
			goto bad;
		memcpy(num, s, len - 1);
		num[len - 1] = '\0';
		if (parse_long(num, &v) || v < 1 || v > 100000)
			goto bad;
		if (nr_cpus >= 0) {
			long n = v * nr_cpus / 100;

			*out = n < 1 ? 1 : (int)n;
		}
		return 0;
	}
	if (parse_long(s, &v) || v < 1 || v > 100000)
		goto bad;
	*out = (int)v;
	return 0;
bad:
	return kab_err_set(err, "'%s' is not a task count: use a number of "
			   "at least 1 like 2, or a percentage of the CPUs "
			   "like 100%%", s);
}

int kab_parse_seconds(const char *s, double *out, struct kab_err *err)
{
	char *end;
	double v, mult = 1;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !isfinite(v))
		goto bad;
	if (!strcmp(end, "s") || !*end)
		mult = 1;
	else if (!strcmp(end, "m"))
		mult = 60;
	else if (!strcmp(end, "h"))
		mult = 3600;
	else
		goto bad;
	if (v <= 0 || v * mult > 7 * 24 * 3600)
		goto bad;
	*out = v * mult;
	return 0;
bad:
	return kab_err_set(err, "'%s' is not a duration: use seconds like "
			   "60s, or minutes like 2m", s);
}

static int parse_size(const char *s, struct kab_err *err)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || v < 0 || !isfinite(v) ||
	    (*end && strchr("kKmMgG", *end) == NULL) ||
	    (*end && end[1]))
		return kab_err_set(err, "'%s' is not a size: use bytes like "
				   "4096 or 256k, 1m", s);
	return 0;
}

static int check_choice(const struct kab_pdesc *d, const char *v,
			struct kab_err *err)
{
	const char *c = d->choices;
	size_t len = strlen(v);

	while (c && *c) {
		const char *bar = strchr(c, '|');
		size_t n = bar ? (size_t)(bar - c) : strlen(c);

		if (n == len && !strncmp(c, v, n))
			return 0;
		c = bar ? bar + 1 : NULL;
	}
	return kab_err_set(err, "'%s' is not a valid value: use one of %s",
			   v, d->choices);
}

static int check_value(const struct kab_pdesc *d, const char *v,
		       struct kab_err *err)
{
	double secs;
	int n;
	long l;

	switch (d->type) {
	case KAB_P_CHOICE:
		return check_choice(d, v, err);
	case KAB_P_TASKS:
		return kab_parse_tasks(v, -1, &n, err);
	case KAB_P_SECONDS:
		return kab_parse_seconds(v, &secs, err);
	case KAB_P_COUNT:
		if (parse_long(v, &l) || l < 0)
			return kab_err_set(err, "'%s' is not a count: use a "
					   "whole number like 0 or 5", v);
		return 0;
	case KAB_P_SIZE:
		return parse_size(v, err);
	case KAB_P_WORD:
		if (!kab_name_ok(v, 64))
			return kab_err_set(err, "'%s' is not a name: use "
					   "letters, digits, '-', '_', '.' "
					   "and '+'", v);
		return 0;
	}
	return 0;
}

static void list_keys(const struct kab_workload *w, char *buf, size_t n)
{
	const struct kab_pdesc *d;
	size_t off = 0;

	buf[0] = '\0';
	for (d = w->params; d->key; d++) {
		int k = snprintf(buf + off, n - off, "%s%s", off ? ", " : "",
				 d->key);

		if (k < 0 || (size_t)k >= n - off)
			break;
		off += k;
	}
}

int kab_workload_validate(const struct kab_job *job, struct kab_err *err)
{
	const struct kab_workload *w = kab_workload_find(job->suite, job->test);
	int i;

	if (!w) {
		struct strbuf known = STRBUF_INIT;

		for (i = 0; kab_workloads[i]; i++)
			strbuf_addf(&known, "%s%s %s", i ? ", " : "",
				    kab_workloads[i]->suite,
				    kab_workloads[i]->test);
		kab_err_set(err, "unknown workload '%s' test '%s': kab knows %s",
			    job->suite, job->test, known.buf);
		strbuf_release(&known);
		return -1;
	}
	for (i = 0; i < job->nr_params; i++) {
		const struct kab_param *p = &job->params[i];
		const struct kab_pdesc *d;

		if (!strcmp(p->key, "testcase") || !strcmp(p->key, "test"))
			continue;
		for (d = w->params; d->key; d++)
			if (!strcmp(d->key, p->key))
				break;
		if (!d->key)
			for (d = kab_system_params; d->key; d++)
				if (!strcmp(d->key, p->key))
					break;
		if (!d->key) {
			char keys[256];

			list_keys(w, keys, sizeof(keys));
			return kab_err_set(err, "unknown parameter '%s' for %s "
					   "%s: it takes %s (and thp_enabled, "
					   "thp_defrag, drop_caches)", p->key,
					   w->suite, w->test, keys);
		}
		if (check_value(d, p->value, err))
			return kab_err_prefix(err, "%s", p->key);
	}
	return 0;
}
