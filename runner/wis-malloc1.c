// SPDX-License-Identifier: GPL-2.0
/*
 * wis-malloc1.c - will-it-scale's malloc1: malloc() and free() 128 MiB.
 *
 * With glibc a 128 MiB request is one mmap() of 128 MiB + 4 KiB and
 * one munmap(); glibc writes its chunk header into the first page, so
 * each iteration takes exactly one page fault -- of a 4 KiB page, or of
 * a 2 MiB THP when the mapping happens to start on a 2 MiB boundary.
 */
#include <stdlib.h>

#include "internal.h"

#define SIZE (128UL * 1024 * 1024)

static void malloc1_one(unsigned long nr)
{
	void *addr = malloc(SIZE);

	(void)nr;
	if (!addr)
		abort();
	/*
	 * Upstream's assert() keeps the pair alive; with NDEBUG the
	 * compiler may drop malloc/free entirely.  Hand the pointer to an
	 * empty asm so it must exist.
	 */
	__asm__ __volatile__("" : : "r"(addr) : "memory");
	free(addr);
}

static void malloc1_testcase(unsigned long long *iterations, unsigned long nr)
{
	for (;;) {
		malloc1_one(nr);
		(*iterations)++;
	}
}

static const struct wis_test malloc1 = {
	.description = "malloc/free of 128MB",
	.testcase = malloc1_testcase,
	.one = malloc1_one,
};

static int malloc1_run(const struct kab_runctx *ctx, struct kab_metrics *out,
		       struct kab_err *err)
{
	struct wis_result res;
	struct wis_opts o;

	if (wis_opts_from_job(ctx->job, ctx->nr_cpus, &o, err))
		return -1;
	o.exact = ctx->exact;
	if (wis_run(&malloc1, &o, &res, err))
		return -1;
	wis_metrics(&o, &res, out);
	return 0;
}

static const struct kab_pdesc malloc1_params[] = {
	{ "mode", KAB_P_CHOICE, "process", "process|thread",
	  "tasks are processes or threads" },
	{ "nr_task", KAB_P_TASKS, "100%", NULL,
	  "number of tasks, or a percentage of the CPUs" },
	{ "bind", KAB_P_CHOICE, "core", "core|smt|none",
	  "bind task i to core i, to hardware thread i, or not at all" },
	{ "warmup", KAB_P_COUNT, "6", NULL,
	  "one-second samples dropped before measuring (upstream: 6)" },
	{ "testtime", KAB_P_SECONDS, "60s", NULL,
	  "measured time, in one-second samples" },
	{ NULL, 0, NULL, NULL, NULL },
};

static const char *const malloc1_kpis[] = {
	"will-it-scale.per_process_ops", "will-it-scale.per_thread_ops", NULL
};

const struct kab_workload kab_workload_malloc1 = {
	.suite = "will-it-scale",
	.test = "malloc1",
	.help = "will-it-scale malloc1: malloc()/free() of 128 MiB per iteration",
	.params = malloc1_params,
	.run = malloc1_run,
	.expected_seconds = wis_expected_seconds,
	.ops_metric = "will-it-scale.total_iterations",
	.kpis = malloc1_kpis,
};
