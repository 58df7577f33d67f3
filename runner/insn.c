// SPDX-License-Identifier: GPL-2.0
/*
 * insn.c - the instruction counts of kab's QEMU plugin (plugin/insn.c)
 * as lkp's perf-stat rows of an iteration.
 *
 * The plugin writes a line at each mark the agent executes, the start
 * and the end of every iteration, in that order.  Iteration N's counts
 * are the difference between its marks: the (2N-1)th and the 2Nth.  A
 * guest that executes marks of its own breaks the order, and then no
 * count is given rather than a wrong one.  A balanced pair of its own
 * keeps the order but not the number: when iteration N's record is
 * read, the agent has executed 2N marks, or 2N+1 once it began the
 * next iteration (whose end is an iteration's time away); more is a
 * foreign pair, and that iteration and every later one get no count.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "mark.h"

struct mark {
	unsigned int nn;
	uint64_t n[2];
};

static bool parse_mark(const char *line, size_t len, struct mark *m)
{
	char buf[96], tail;

	if (len >= sizeof(buf))
		return false;
	memcpy(buf, line, len);
	buf[len] = '\0';
	return sscanf(buf, "mark %u %" SCNu64 " %" SCNu64 "%c", &m->nn,
		      &m->n[0], &m->n[1], &tail) == 3;
}

int kab_insn_counts(const char *text, size_t len, int it, uint64_t *user,
		    uint64_t *kernel)
{
	const char *line = text, *end = text + len;
	struct mark start = { 0 }, m;
	long seen = 0;

	if (it < 1 || len < 9 || strncmp(text, "kab-insn ", 9))
		return -1;
	line = memchr(text, '\n', len);
	if (!line)
		return -1;
	for (line++; line < end; ) {
		const char *nl = memchr(line, '\n', end - line);

		if (!nl)
			break;	/* a line being written */
		if (nl - line > 5 && !memcmp(line, "cost ", 5)) {
			line = nl + 1;	/* the model's: kab_insn_cost's */
			continue;
		}
		if (!parse_mark(line, nl - line, &m) ||
		    m.nn != (seen % 2 ? KAB_MARK_END : KAB_MARK_START))
			return -1;
		seen++;
		if (seen == 2L * it - 1)
			start = m;
		if (seen == 2L * it) {
			if (m.n[0] < start.n[0] || m.n[1] < start.n[1])
				return -1;
			*user = m.n[0] - start.n[0];
			*kernel = m.n[1] - start.n[1];
		}
		if (seen > 2L * it + 1)
			return -1;
		line = nl + 1;
	}
	return seen >= 2L * it ? 0 : -1;
}

static const char *const cost_fields[KAB_COST_FIELDS] = {
	"cycles", "instructions", "loads", "stores", "l1d_misses",
	"l2_misses", "llc_misses", "dtlb_load_misses", "dtlb_store_misses",
	"load_walks", "store_walks", "walk_refs", "walk_cycles",
};

/* "cost 2 model=NAME mhz=N direct_map=1 cycles=N ...", every field once */
static bool parse_cost(const char *line, size_t len, struct kab_cost_row *c)
{
	char buf[1024], *tok, *save = NULL;
	unsigned int seen = 0, i;
	bool mapped = false;

	if (len >= sizeof(buf))
		return false;
	memcpy(buf, line, len);
	buf[len] = '\0';
	memset(c, 0, sizeof(*c));
	tok = strtok_r(buf, " ", &save);
	if (!tok || strcmp(tok, "cost"))
		return false;
	tok = strtok_r(NULL, " ", &save);
	if (!tok || strcmp(tok, "2"))
		return false;
	while ((tok = strtok_r(NULL, " ", &save))) {
		char *eq = strchr(tok, '='), *end;
		unsigned long long v;

		if (!eq)
			return false;
		*eq++ = '\0';
		if (!strcmp(tok, "model")) {
			if (*c->model || strlen(eq) >= sizeof(c->model) ||
			    !kab_name_ok(eq, sizeof(c->model) - 1) ||
			    strchr(eq, '.'))
				return false;
			strcpy(c->model, eq);
			continue;
		}
		if (*eq < '0' || *eq > '9')
			return false;
		errno = 0;
		v = strtoull(eq, &end, 10);
		if (errno || *end)
			return false;
		if (!strcmp(tok, "direct_map")) {
			mapped = v == 1;
			continue;
		}
		if (!strcmp(tok, "mhz")) {
			if (v < 1 || v > 100000)
				return false;
			c->mhz = v;
			continue;
		}
		for (i = 0; i < KAB_COST_FIELDS; i++)
			if (!strcmp(tok, cost_fields[i]))
				break;
		if (i == KAB_COST_FIELDS || seen & (1u << i))
			return false;
		seen |= 1u << i;
		c->v[i] = v;
	}
	return mapped && *c->model && c->mhz &&
	       seen == (1u << KAB_COST_FIELDS) - 1;
}

int kab_insn_cost(const char *text, size_t len, int it,
		  struct kab_cost_row *c)
{
	const char *line, *end = text + len;
	long marks = 0;

	if (it < 1 || len < 9 || strncmp(text, "kab-insn ", 9))
		return -1;
	line = memchr(text, '\n', len);
	for (line = line ? line + 1 : end; line < end; ) {
		const char *nl = memchr(line, '\n', end - line);

		if (!nl)
			break;
		if (nl - line > 5 && !memcmp(line, "cost ", 5)) {
			/* the model's counts follow the end mark they are of */
			if (marks == 2L * it)
				return parse_cost(line, nl - line, c) ? 0 : -1;
		} else {
			marks++;
		}
		if (marks > 2L * it)
			return -1;
		line = nl + 1;
	}
	return -1;
}

void kab_insn_metrics(uint64_t user, uint64_t kernel, const char *suite,
		      const char *ops_metric, struct kab_metrics *m)
{
	const struct kab_metric *ops = ops_metric ?
				       kab_metrics_find(m, ops_metric) : NULL;
	const struct kab_metric *el;
	double all = (double)user + (double)kernel;
	char *name = xasprintf("%s.time.elapsed_time", suite);

	el = kab_metrics_find(m, name);
	free(name);
	kab_metrics_add(m, "perf-stat.total.instructions", all);
	kab_metrics_add(m, "perf-stat.total.instructions:u", (double)user);
	kab_metrics_add(m, "perf-stat.total.instructions:k", (double)kernel);
	if (el && el->value > 0)
		kab_metrics_add(m, "perf-stat.ps.instructions",
				all / el->value);
	/* lkp's path-length: instructions per operation of the workload */
	if (ops && ops->value > 0)
		kab_metrics_add(m, "perf-stat.overall.path-length",
				all / ops->value);
}

static void cost_row(struct kab_metrics *m, const char *fmt,
		     const char *model, double v)
{
	char name[128];

	snprintf(name, sizeof(name), fmt, model);
	kab_metrics_add(m, name, v);
}

void kab_cost_metrics(const struct kab_cost_row *c, const char *suite,
		      const char *const *kpis, struct kab_metrics *m)
{
	const uint64_t *v = c->v;
	double insns = (double)v[KAB_COST_INSNS];
	double cycles = (double)v[KAB_COST_CYCLES];
	double loads = (double)v[KAB_COST_LOADS];
	double stores = (double)v[KAB_COST_STORES];
	double walks = (double)v[KAB_COST_LOAD_WALKS] +
		       (double)v[KAB_COST_STORE_WALKS];
	const char *mo = c->model;

	cost_row(m, "perf-stat.total.cycles:%s", mo, cycles);
	if (insns > 0 && cycles > 0) {
		cost_row(m, "perf-stat.overall.cpi:%s", mo, cycles / insns);
		cost_row(m, "perf-stat.overall.ipc:%s", mo, insns / cycles);
	}
	cost_row(m, "perf-stat.total.dTLB-loads:%s", mo, loads);
	cost_row(m, "perf-stat.total.dTLB-stores:%s", mo, stores);
	/* perf's dTLB misses are the ones that walk */
	cost_row(m, "perf-stat.total.dTLB-load-misses:%s", mo,
		 (double)v[KAB_COST_LOAD_WALKS]);
	cost_row(m, "perf-stat.total.dTLB-store-misses:%s", mo,
		 (double)v[KAB_COST_STORE_WALKS]);
	if (loads > 0)
		cost_row(m, "perf-stat.overall.dTLB-load-miss-rate%%:%s", mo,
			 100 * (double)v[KAB_COST_LOAD_WALKS] / loads);
	if (stores > 0)
		cost_row(m, "perf-stat.overall.dTLB-store-miss-rate%%:%s", mo,
			 100 * (double)v[KAB_COST_STORE_WALKS] / stores);
	cost_row(m, "perf-stat.total.stlb-hits:%s", mo,
		 (double)v[KAB_COST_DTLB_LOAD_MISSES] +
		 (double)v[KAB_COST_DTLB_STORE_MISSES] - walks);
	cost_row(m, "perf-stat.total.page-walk-refs:%s", mo,
		 (double)v[KAB_COST_WALK_REFS]);
	cost_row(m, "perf-stat.total.page-walk-cycles:%s", mo,
		 (double)v[KAB_COST_WALK_CYCLES]);
	cost_row(m, "perf-stat.total.L1-dcache-load-misses:%s", mo,
		 (double)v[KAB_COST_L1D_MISSES]);
	cost_row(m, "perf-stat.total.cache-references:%s", mo,
		 (double)v[KAB_COST_L2_MISSES]);
	cost_row(m, "perf-stat.total.cache-misses:%s", mo,
		 (double)v[KAB_COST_LLC_MISSES]);
	if (v[KAB_COST_L2_MISSES])
		cost_row(m, "perf-stat.overall.cache-miss-rate%%:%s", mo,
			 100 * (double)v[KAB_COST_LLC_MISSES] /
			 (double)v[KAB_COST_L2_MISSES]);
	if (insns > 0)
		cost_row(m, "perf-stat.overall.MPKI:%s", mo,
			 1000 * (double)v[KAB_COST_LLC_MISSES] / insns);
	for (; kpis && *kpis && suite && cycles > 0; kpis++) {
		char *name = xasprintf("%s.time.elapsed_time", suite);
		const struct kab_metric *el = kab_metrics_find(m, name);
		const struct kab_metric *k = kab_metrics_find(m, *kpis);
		double secs = cycles / (c->mhz * 1e6);

		free(name);
		if (el && k && el->value > 0) {
			char *kname = xasprintf("%s:%s", *kpis, mo);

			kab_metrics_add(m, kname, k->value * el->value / secs);
			free(kname);
		}
	}
}
