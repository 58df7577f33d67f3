// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-build.c - kab build: a bzImage from a kernel tree, cached.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runjob.h"

static void build_usage(FILE *f)
{
	fprintf(f,
		"usage: kab build --tree DIR [--rev REV] [--kconfig FRAGMENT]...\n"
		"                 [--base tinyconfig|defconfig|FILE] [--jobs N] "
		"[-q]\n"
		"\n"
		"Builds arch/x86/boot/bzImage out of tree (O= a directory under "
		"the cache)\nand prints where it is.  --rev checks the revision "
		"out in a git worktree\nkab owns: your checkout is never "
		"touched.  Without --rev the tree is built\nas it is (a plain "
		"tree such as Debian's linux-source works too).\n"
		"\n"
		"The config is --base (tinyconfig) with kab's fragments "
		"(kconfigs/, what\nthe QEMU target needs) and then every "
		"--kconfig merged by the tree's\nscripts/kconfig/merge_config.sh "
		"and make olddefconfig; an option a\nfragment asked for that "
		"the final .config lacks is an error.\n"
		"\n"
		"The image is cached by source (commit or tree fingerprint), "
		"final config\nand compiler: the same build twice is instant.  "
		"ccache is used when\ninstalled.  The build, its config and log "
		"are stored in the database.\n"
		"\n"
		"  --tree DIR           the kernel tree: a git checkout or a "
		"plain tree\n"
		"  --rev REV            build this revision (in kab's worktree)\n"
		"  --kconfig FRAGMENT   merged into the config; repeatable\n"
		"  --base B             tinyconfig (default), defconfig or a "
		".config FILE\n"
		"  --jobs N, -j N       make -j (default: the CPUs)\n"
		"  --quiet, -q          print only the image path (for $(kab "
		"build -q ...))\n"
		"  --db PATH            database\n");
}

int cmd_build(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "tree", required_argument, NULL, 't' },
		{ "rev", required_argument, NULL, 'r' },
		{ "kconfig", required_argument, NULL, 'k' },
		{ "base", required_argument, NULL, 'b' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "db", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct kab_drv_build_args a = { 0 };
	struct runjob_ui ui;
	char *cache;
	const char *rev = NULL, *db_opt = NULL;
	struct kab_build b;
	struct kab_db *db;
	bool quiet = false;
	char *end;
	int opt, rc;

	optind = 1;
	while ((opt = cli_getopt(argc, argv, ":qj:h", opts)) != -1) {
		switch (opt) {
		case 't':
			a.tree = optarg;
			break;
		case 'r':
			rev = optarg;
			break;
		case 'k':
			if (cli_check_kconfig(optarg)) {
				free(a.kconfigs);
				return EXIT_USAGE;
			}
			kab_drv_build_args_add_kconfig(&a, optarg);
			break;
		case 'b':
			a.base = optarg;
			break;
		case 'j':
			a.jobs = strtol(optarg, &end, 10);
			if (*end || a.jobs < 1 || a.jobs > 1024) {
				free(a.kconfigs);
				return cli_error(EXIT_USAGE, "--jobs '%s' is not "
						 "a number of jobs (1..1024)",
						 optarg);
			}
			break;
		case 'q':
			quiet = true;
			break;
		case 'd':
			db_opt = optarg;
			break;
		case 'h':
			build_usage(stdout);
			free(a.kconfigs);
			return EXIT_OK;
		default:
			free(a.kconfigs);
			return cli_bad_option("build", opt, argv, opts);
		}
	}
	if (!a.tree || optind < argc) {
		free(a.kconfigs);
		return cli_error(EXIT_USAGE, "%s: kab build --tree DIR [--rev "
				 "REV] (see kab build --help)", a.tree ?
				 "unexpected arguments" : "which kernel tree?");
	}
	rc = cli_open_db(cli, db_opt, KAB_DB_WRITE, &db);
	if (rc) {
		free(a.kconfigs);
		return rc;
	}
	a.cache_dir = cache = cli_cache_dir();
	runjob_ui_init(&ui, false);
	rc = cache ? kab_drv_build(db, &a, rev, NULL, &ui.ui, &b) : -1;
	free(cache);
	if (!rc && quiet) {
		printf("%s\n", b.image);
	} else if (!rc) {
		printf("image:    %s\n", b.image);
		printf("release:  %s\n", b.release);
		if (b.commit)
			printf("commit:   %s%s%s\n", b.commit,
			       b.subject ? " " : "", b.subject ? b.subject : "");
		printf("source:   %s\n", b.source_id);
		printf("config:   %s (sha256 %.16s)\n", b.config_path,
		       b.config_sha256);
		printf("compiler: %s\n", b.compiler);
		printf("log:      %s\n", b.log_path);
	}
	kab_build_free(&b);
	kab_db_close(db);
	free(a.kconfigs);
	return rc ? (rc == -2 ? EXIT_USAGE : EXIT_RUN) : EXIT_OK;
}
