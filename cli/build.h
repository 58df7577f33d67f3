/* SPDX-License-Identifier: GPL-2.0 */
/*
 * build.h - building a kernel from the command line and storing the
 * build; shared by kab build, kab ab --tree and kab bisect.
 */
#ifndef KAB_CLI_BUILD_H
#define KAB_CLI_BUILD_H

#include "cli.h"
#include "../kbuild/kbuild.h"

struct build_args {
	const char *tree;
	const char **kconfigs;
	size_t nr_kconfigs;
	const char *base;
	int jobs;
};

/*
 * Build rev of a->tree (NULL: the tree as is), store the build (ok or
 * failed) in db, print what was built on stderr; 0 or -1 with the
 * error printed.
 */
int cli_build(struct kab_db *db, const struct build_args *a, const char *rev,
	      const char *label, struct kab_build *b);
/* Collect a repeated --kconfig. */
void build_args_add_kconfig(struct build_args *a, const char *path);

#endif /* KAB_CLI_BUILD_H */
