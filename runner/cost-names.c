// SPDX-License-Identifier: GPL-2.0
/* cost-names.c - the cores the plugin's cost model knows, by name. */
#include <string.h>

#include "internal.h"
#include "../plugin/cost.h"

bool kab_cost_known(const char *name)
{
	return name && kab_cost_params_find(name);
}

const char *kab_cost_names(void)
{
	static char names[256];
	const struct kab_cost_params *p;
	unsigned int i;

	if (names[0])
		return names;
	for (i = 0; (p = kab_cost_params_at(i)); i++) {
		size_t n = strlen(names);

		snprintf(names + n, sizeof(names) - n, "%s%s (%s)",
			 i ? ", " : "", p->name, p->core);
	}
	return names;
}
