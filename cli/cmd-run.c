// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-run.c - kab run: execute jobs on this machine or in one QEMU
 * boot per job, and store them (runjob.c does the storing).
 */
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runjob.h"

static void run_usage(FILE *f)
{
	fprintf(f,
		"usage: kab run [options] JOB...\n"
		"       kab run --list-jobs\n"
		"\n"
		"Runs each job (every parameter set its lists expand to) on "
		"this machine,\n--runs times, and stores every sample.  A JOB "
		"is a file, - (stdin) or a\njob's name looked up in $KAB_JOBS, "
		"~/.local/share/kab/jobs and kab's own\njobs.\n"
		"\n"
		"  --kernel-label L  name of what is measured (default: the "
		"running kernel's\n"
		"                    release)\n"
		"  --runs N          iterations of each job (default 3)\n"
		"  --repeat N        run the job list N times, interleaved (a "
		"run is a\n"
		"                    sample: with 2 or more a side, kab "
		"compare decides)\n"
		"  --set KEY=VALUE   override a job parameter; a list is "
		"[a, b]; KEY= leaves\n"
		"                    it out\n"
		"  --only KEY=VALUE  run only the jobs of the file with that "
		"value\n"
		"  --monitors LIST   all (default), none, or some of "
		"proc-vmstat,meminfo,\n"
		"                    numa-vmstat,numa-meminfo,interrupts,"
		"softirqs,\n"
		"                    perf-stat,dmesg,perf-profile; "
		"perf-profile=HZ samples at\n"
		"                    HZ (800 by default, as lkp)\n"
		"  --target T        local (default: this machine), qemu, "
		"ssh://[user@]host[:port]\n"
		"                    (a test machine: the agent is copied "
		"there; ssh's config\n"
		"                    applies), lava:URL (a LAVA server: a job "
		"per boot; the\n"
		"                    token from KAB_LAVA_TOKEN or [lava] token) "
		"or lava:local\n"
		"                    (the same jobs, run by the dispatcher "
		"here, lava-run)\n"
		"  --device-type T   lava: the device type (qemu; another is "
		"an x86 board,\n"
		"                    booted by TFTP and iPXE)\n"
		"  --dry-run         lava: print each boot's job definition "
		"(YAML), run nothing\n"
		"  --kernel PATH     qemu: the bzImage to boot (default: the "
		"newest /boot/vmlinuz-*)\n"
		"  --cmdline S       qemu: added to the kernel command line\n"
		"  --clock C         qemu: what times the guest: icount (its "
		"instructions, the\n"
		"                    host's load left out; the default under "
		"TCG), wall (the\n"
		"                    host's clock; the default under KVM), "
		"icount:N (shift N)\n"
		"  --model NAME      qemu, exact mode: also time the window "
		"by a cost model of\n"
		"                    NAME's caches and TLBs (spr, cpl; QEMU "
		"10): rows :NAME\n"
		"  --layout-seed N   qemu, exact mode: the layout seed of the "
		"first boot (1);\n"
		"                    --repeat's boots take the next ones\n"
		"  --smp N, --mem M  qemu: CPUs (1 under icount, else 2) and "
		"memory (2G) of\n"
		"                    the guest\n"
		"  --timeout S       qemu: kill the boot after S seconds; lava: "
		"also how long\n"
		"                    a job may wait queued (default 1 h)\n"
		"  --tree DIR [--rev REV] [--kconfig FRAGMENT]... [--base B]\n"
		"                    qemu: build the kernel first, as kab build "
		"does; the\n"
		"                    label defaults to the commit\n"
		"  --db PATH         database (default $KAB_DB, else "
		"~/.local/share/kab/kab.db)\n"
		"  --list-jobs       the jobs kab finds by name, and where it "
		"looks\n"
		"\n"
		"Progress goes to stderr: a live line on a terminal, else a "
		"line as each\nboot and iteration starts.\n"
		"Exit status: 0 every run ok, 1 a run failed, 2 usage, 130 "
		"interrupted (^C).\n");
}

/* After --repeat: what was stored, and the comparison it allows. */
static void repeated(struct kab_drv_run *c, int ok, int all)
{
	struct strbuf sb = STRBUF_INIT, vis = STRBUF_INIT;
	struct kab_run run = { 0 };
	struct kab_err err;

	if (kab_db_run_get(c->db, c->run_id, &run, &err))
		return;
	strbuf_add_shell_word(&sb, run.kernel.label);
	strbuf_add_visible(&vis, sb.buf, sb.len);
	printf("%d of %d runs ok, labelled %s: with another kernel's runs, "
	       "'kab compare %s OTHER' decides\n", ok, all, vis.buf,
	       vis.buf);
	strbuf_release(&sb);
	strbuf_release(&vis);
	kab_run_free(&run);
}

int cmd_run(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "kernel-label", required_argument, NULL, 'l' },
		{ "runs", required_argument, NULL, 'n' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "set", required_argument, NULL, 's' },
		{ "only", required_argument, NULL, 'o' },
		{ "monitors", required_argument, NULL, 'm' },
		{ "target", required_argument, NULL, 't' },
		{ "device-type", required_argument, NULL, 'D' },
		{ "dry-run", no_argument, NULL, 'N' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "cmdline", required_argument, NULL, 'c' },
		{ "clock", required_argument, NULL, 'C' },
		{ "layout-seed", required_argument, NULL, 'L' },
		{ "model", required_argument, NULL, 'O' },
		{ "smp", required_argument, NULL, 'S' },
		{ "mem", required_argument, NULL, 'M' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "tree", required_argument, NULL, 'R' },
		{ "rev", required_argument, NULL, 'V' },
		{ "kconfig", required_argument, NULL, 'K' },
		{ "base", required_argument, NULL, 'B' },
		{ "db", required_argument, NULL, 'd' },
		{ "list-jobs", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct kab_drv_run c = { .iterations = 3 };
	struct runjob_ui ui;
	struct kab_qemu_opts q = { .mem = "2G", .boot_timeout = 120 };
	struct kab_ssh ssh = { 0 };
	struct kab_lava_opts lava = { 0 };
	bool dry_run = false;
	const char *target = "local";
	char *default_kernel = NULL, *cache = NULL, *plugin = NULL;
	struct kab_drv_build_args ba = { 0 };
	struct kab_build build = { 0 };
	const char *rev = NULL;
	char short_sha[13];
	struct kab_joblist *lists;
	struct sigaction sa = { .sa_handler = runjob_on_signal };
	const char *db_opt = NULL;
	char **sets = NULL, **only = NULL, *agent = NULL, *end;
	int nr_sets = 0, nr_only = 0, opt, i, j, nr_files, rc = EXIT_OK;
	int repeat = 1, r, ok = 0;
	unsigned long long first_seed = 1;
	bool fatal = false;
	struct kab_err err;

	optind = 1;
	while ((opt = cli_getopt(argc, argv, ":h", opts)) != -1) {
		switch (opt) {
		case 'l':
			c.label = optarg;
			break;
		case 'n':
			c.iterations = strtol(optarg, &end, 10);
			if (*end || c.iterations < 1 || c.iterations > 100000) {
				free(sets);
				free(only);
				return cli_error(EXIT_USAGE, "--runs '%s': give "
						 "a number of iterations from "
						 "1 to 100000", optarg);
			}
			break;
		case 'r':
			repeat = strtol(optarg, &end, 10);
			if (*end || repeat < 1 || repeat > 1000) {
				free(sets);
				free(only);
				return cli_error(EXIT_USAGE, "--repeat '%s': give "
						 "a number of runs of each job "
						 "from 1 to 1000", optarg);
			}
			break;
		case 's':
			cli_push_arg(&sets, &nr_sets, optarg);
			break;
		case 'o':
			cli_push_arg(&only, &nr_only, optarg);
			break;
		case 'd':
			db_opt = optarg;
			break;
		case 'J':
			free(sets);
			free(only);
			cli_list_jobs(stdout);
			return EXIT_OK;
		case 'm':
			c.monitors = optarg;
			if (cli_check_monitors(optarg)) {
				free(sets);
				free(only);
				return EXIT_USAGE;
			}
			break;
		case 't':
			if (strcmp(optarg, "local") && strcmp(optarg, "qemu") &&
			    strncmp(optarg, "ssh://", 6) &&
			    (strncmp(optarg, "lava:", 5) || !optarg[5])) {
				free(sets);
				free(only);
				return cli_error(EXIT_USAGE, "--target '%s': use "
						 "local, qemu, ssh://[user@]"
						 "host[:port], lava:URL or "
						 "lava:local", optarg);
			}
			target = optarg;
			break;
		case 'D':
			if (!kab_name_ok(optarg, 64)) {
				free(sets);
				free(only);
				return cli_error(EXIT_USAGE, "--device-type '%s': "
						 "give a LAVA device type's "
						 "name, such as qemu", optarg);
			}
			lava.device_type = optarg;
			break;
		case 'N':
			dry_run = true;
			break;
		case 'k':
			q.kernel = optarg;
			break;
		case 'c':
			q.cmdline = optarg;
			break;
		case 'L':
			if (runjob_layout_seed_opt(optarg, &first_seed)) {
				free(sets);
				free(only);
				return EXIT_USAGE;
			}
			break;
		case 'C':
			if (runjob_clock_opt(optarg, &q)) {
				free(sets);
				free(only);
				return EXIT_USAGE;
			}
			break;
		case 'O':
			q.model = optarg;
			break;
		case 'S':
			q.smp = strtol(optarg, &end, 10);
			if (*end || q.smp < 1 || q.smp > 256) {
				free(sets);
				free(only);
				return cli_error(EXIT_USAGE, "--smp '%s': give "
						 "1 to 256 CPUs", optarg);
			}
			break;
		case 'M':
			q.mem = optarg;
			break;
		case 'T':
			q.timeout = strtod(optarg, &end);
			if (*end || q.timeout < 1) {
				free(sets);
				free(only);
				return cli_error(EXIT_USAGE, "--timeout '%s': "
						 "give seconds, at least 1",
						 optarg);
			}
			break;
		case 'R':
			ba.tree = optarg;
			break;
		case 'V':
			rev = optarg;
			break;
		case 'K':
			if (cli_check_kconfig(optarg)) {
				free(sets);
				free(only);
				free(ba.kconfigs);
				return EXIT_USAGE;
			}
			kab_drv_build_args_add_kconfig(&ba, optarg);
			break;
		case 'B':
			ba.base = optarg;
			break;
		case 'h':
			run_usage(stdout);
			free(sets);
			free(only);
			free(ba.kconfigs);
			return EXIT_OK;
		default:
			free(sets);
			free(only);
			free(ba.kconfigs);
			return cli_bad_option("run", opt, argv, opts);
		}
	}
	if (runjob_layout_seeds_fit(first_seed, repeat)) {
		free(sets);
		free(only);
		free(ba.kconfigs);
		return EXIT_USAGE;
	}
	nr_files = argc - optind;
	if (!nr_files) {
		free(sets);
		free(only);
		return cli_error(EXIT_USAGE, "no job: try 'kab run "
				 "will-it-scale-malloc1' ('kab run --list-jobs' "
				 "lists them)");
	}
	lists = xcalloc(nr_files, sizeof(*lists));
	for (i = 0; i < nr_files; i++) {
		struct kab_jobsel sel = { sets, nr_sets, only, nr_only };

		rc = cli_load_jobs(argv[optind + i], &sel, &lists[i]);
		if (rc)
			goto out;
		c.nr_jobs += lists[i].nr * repeat;
	}
	if (runjob_qemu_check(&q)) {
		rc = EXIT_USAGE;
		goto out;
	}
	if (ba.tree || rev || ba.nr_kconfigs || ba.base) {
		if (!ba.tree || q.kernel) {
			rc = cli_error(EXIT_USAGE, "%s", q.kernel ?
				       "give --kernel or --tree, not both" :
				       "--rev, --kconfig and --base need --tree "
				       "DIR, the kernel tree to build");
			goto out;
		}
		if (strncmp(target, "lava:", 5))
			target = "qemu";
	}
	/* after --tree, which boots the kernels it builds under QEMU */
	if (runjob_model_check(&q, target, c.monitors)) {
		rc = EXIT_USAGE;
		goto out;
	}
	if ((lava.device_type || dry_run) && strncmp(target, "lava:", 5)) {
		rc = cli_error(EXIT_USAGE, "--device-type and --dry-run need "
			       "--target lava:URL or lava:local");
		goto out;
	}
	if (!strncmp(target, "lava:", 5)) {
		rc = runjob_lava_target(target, dry_run, &lava);
		if (rc)
			goto out;
		lava.queue_timeout = q.timeout;
		if (q.cmdline && kab_lava_cmdline_check(q.cmdline, &err)) {
			rc = cli_error(EXIT_USAGE, "%s", err.msg);
			goto out;
		}
	}
	if (dry_run) {
		if (ba.tree) {
			rc = cli_error(EXIT_USAGE, "--dry-run prints the job of "
				       "a kernel built already: give --kernel "
				       "PATH, not --tree");
			goto out;
		}
		rc = runjob_dry_run(c.iterations, c.monitors, &q, &lava, lists,
				    nr_files);
		goto out;
	}
	rc = cli_open_db(cli, db_opt, KAB_DB_WRITE, &c.db);
	if (rc) {
		goto out;
	}
	/* repeated: a line a run, then how to compare them */
	runjob_ui_init(&ui, repeat > 1);
	c.ui = &ui.ui;
	if (ba.tree) {
		ba.cache_dir = cache = cli_cache_dir();
		if (!cache) {
			rc = EXIT_RUN;
			goto out_db;
		}
		if (kab_drv_build(c.db, &ba, rev, c.label, c.ui, &build)) {
			rc = EXIT_RUN;
			goto out_db;
		}
		q.kernel = build.image;
		c.commit = build.commit;
		if (!c.label && build.commit) {
			snprintf(short_sha, sizeof(short_sha), "%.12s",
				 build.commit);
			c.label = short_sha;
		}
	}
	if (!strcmp(target, "qemu") || !strncmp(target, "lava:", 5)) {
		if (!q.kernel) {
			default_kernel = kab_default_kernel();
			if (!default_kernel) {
				rc = cli_error(EXIT_USAGE, "no kernel in /boot: "
					       "give --kernel PATH, or install "
					       "linux-image-amd64 (make deps)");
				goto out_db;
			}
			q.kernel = default_kernel;
		}
		if (!cache)
			cache = cli_cache_dir();
		if (!cache) {
			rc = EXIT_RUN;
			goto out_db;
		}
		q.cache_dir = cache;
		if (!strcmp(target, "qemu"))
			q.plugin = plugin = kab_drv_plugin_path();
		else
			c.lava = &lava;
		c.qemu = &q;
		if (kab_kernel_check(q.kernel, &err)) {
			rc = cli_error(EXIT_USAGE, "%s", err.msg);
			goto out_db;
		}
	} else if (q.kernel || q.cmdline || q.clock.kind) {
		rc = cli_error(EXIT_USAGE, "--kernel, --cmdline and --clock "
			       "need --target qemu (or lava:)");
		goto out_db;
	} else if (!strncmp(target, "ssh://", 6)) {
		if (kab_ssh_parse(target, &ssh, &err)) {
			rc = cli_error(EXIT_USAGE, "%s", err.msg);
			goto out_db;
		}
		c.ssh = &ssh;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	c.agent = agent = kab_drv_agent_path();
	for (r = 0; r < repeat && !fatal && !kab_stop_requested; r++)
		/* under icount each repeat is one layout: seeds N, N+1... */
		for (q.seed = first_seed + r, i = 0; i < nr_files && !fatal && !kab_stop_requested; i++)
			for (j = 0; j < lists[i].nr && !fatal &&
			     !kab_stop_requested; j++) {
				c.job = &lists[i].jobs[j];
				c.job_nr++;
				if (kab_drv_run_one(&c, &fatal))
					rc = EXIT_RUN;
				else
					ok++;
			}
	if (repeat > 1 && ok)
		repeated(&c, ok, c.nr_jobs);
	if (kab_stop_requested)
		rc = cli_error(runjob_stop_code(EXIT_RUN), "interrupted: runs "
			       "not started were skipped; what was stored is "
			       "kept in %s", kab_db_path(c.db));
out_db:
	kab_db_close(c.db);
out:
	kab_build_free(&build);
	free(ba.kconfigs);
	for (i = 0; i < nr_files; i++)
		kab_joblist_free(&lists[i]);
	free(lists);
	free(sets);
	free(only);
	free(default_kernel);
	free(cache);
	free(plugin);
	free(agent);
	kab_ssh_free(&ssh);
	return rc;
}
