// SPDX-License-Identifier: GPL-2.0
/*
 * cost-cores.c - the cores plugin/cost.c models, by name.
 *
 * Sizes, ways and TLB entries are the vendor's (Intel's optimization
 * reference manual, the chapters on Golden Cove and Skylake server);
 * latencies are public measurements of the parts, rounded, and the LLC
 * is one core's slice of the shared cache (the share a core has when
 * every core runs, as in lkp's nr_threads=100% jobs).  doc/exact.md
 * lists them with what the model leaves out.
 */
#include <string.h>

#include "cost.h"

static const struct kab_cost_params cores[] = {
	{
		/* lkp-spr-r02, the seed's radixsort machine */
		.name = "spr",
		.core = "Sapphire Rapids (Golden Cove), one core",
		.l1d = { 48 << 10, 12, 5 },
		.l2 = { 2 << 20, 16, 16 },
		.llc = { 1920 << 10, 15, 100 },	/* 1.875 MiB a core */
		.mem_latency = 330,
		.dtlb = {
			[KAB_PAGE_4K] = { 96, 6 },
			[KAB_PAGE_2M] = { 32, 4 },
			[KAB_PAGE_1G] = { 8, 8 },
		},
		.stlb = { 2048, 16 },
		.stlb_1g = { 1024, 8 },
		.stlb_latency = 8,
		.core_milli_cpi = 400,
		.mhz = 2000,	/* the 8480's base clock */
		.store_hide = 4,
	},
	{
		/* lkp-cpl-4sp2, the seed's malloc1 machine */
		.name = "cpl",
		.core = "Cooper Lake (Skylake server core), one core",
		.l1d = { 32 << 10, 8, 5 },
		.l2 = { 1 << 20, 16, 14 },
		.llc = { 1408 << 10, 11, 70 },	/* 1.375 MiB a core */
		.mem_latency = 260,
		.dtlb = {
			[KAB_PAGE_4K] = { 64, 4 },
			[KAB_PAGE_2M] = { 32, 4 },
			[KAB_PAGE_1G] = { 4, 4 },
		},
		.stlb = { 1536, 12 },
		.stlb_1g = { 16, 4 },
		.stlb_latency = 9,
		.core_milli_cpi = 450,
		.mhz = 2900,	/* the 8380H's base clock */
		.store_hide = 4,
	},
};

const struct kab_cost_params *kab_cost_params_at(unsigned int i)
{
	return i < sizeof(cores) / sizeof(cores[0]) ? &cores[i] : NULL;
}

const struct kab_cost_params *kab_cost_params_find(const char *name)
{
	const struct kab_cost_params *p;
	unsigned int i;

	for (i = 0; (p = kab_cost_params_at(i)); i++)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}
