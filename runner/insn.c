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
