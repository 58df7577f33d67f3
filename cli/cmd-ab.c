// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-ab.c - kab ab: boot kernel A and kernel B in turn (QEMU, a LAVA
 * lab, a test machine over ssh), run the job in each boot, store
 * everything, print the comparison.  The boots themselves are the
 * driver's (driver/ab.c); this is their options and their printing.
 */
#include <getopt.h>
#include <sched.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runjob.h"

/* What the command line knows of a side beyond the driver's. */
struct side {
	const char *rev;	/* --a-rev/--b-rev: built from --tree */
	struct kab_build build;
	char short_sha[13];
	char *label;
};

static void ab_usage(FILE *f)
{
	fprintf(f,
		"usage: kab ab --job JOB [options]\n"
		"\n"
		"Boots kernel A and kernel B in turn under QEMU (KVM when it "
		"works, TCG\notherwise), runs the job --runs-per-boot times in "
		"each boot, stores\neverything and prints kab compare A B.\n"
		"\n"
		"  --a PATH, --b PATH        the bzImages (default: the newest "
		"/boot/vmlinuz-*)\n"
		"  --a-cmdline S, --b-cmdline S   added to each kernel's "
		"command line\n"
		"  --a-label L, --b-label L  names in the database and the "
		"table\n"
		"  --tree DIR --a-rev REV --b-rev REV\n"
		"                            build both revisions first (as "
		"kab build does);\n"
		"                            labels default to the commits\n"
		"  --kconfig FRAGMENT..., --base B   their config, as kab "
		"build's\n"
		"  --job JOB                 the job: a file, - or a name "
		"(kab run --list-jobs)\n"
		"  --set KEY=VALUE, --only KEY=VALUE  override a parameter, "
		"pick jobs of the file\n"
		"  --boots N                 boots per side (3); with "
		"--max-boots, the boots\n"
		"                            before the first look\n"
		"  --max-boots N             look at each job's KPI after "
		"every round from\n"
		"                            --boots on and stop when it is "
		"answered: its\n"
		"                            interval outside +-noise "
		"(changed) or inside\n"
		"                            (equivalent); at most N boots a "
		"side\n"
		"  --noise PCT               the change that matters (1; "
		"0.5 under icount)\n"
		"  --kpi METRIC              the metric looked at (the "
		"suite's main one)\n"
		"  --runs-per-boot M         iterations in each boot (3)\n"
		"  --order alternate|random  boot order (alternate)\n"
		"  --seed N                  the random order's seed (1)\n"
		"  --layout-seed N           exact mode: round k of each side "
		"boots at layout\n"
		"                            seed N+k-1, the same layouts on "
		"both sides (1)\n"
		"  --clock C                 what times the guests: icount, "
		"wall, icount:N\n"
		"                            or auto (icount under TCG), as "
		"for kab run\n"
		"  --model NAME              exact mode: a cost model's rows "
		"too (spr, cpl;\n"
		"                            QEMU 10), as for kab run\n"
		"  --smp N, --mem SIZE       the guests' CPUs (1 under icount, "
		"else 2) and\n"
		"                            memory (2G)\n"
		"  --pin CPUS                run QEMU, and so its vCPU threads, "
		"on these host\n"
		"                            CPUs only (e.g. 0-1)\n"
		"  --timeout S               kill a boot after S seconds "
		"(default: boot\n"
		"                            allowance + the job's time + "
		"grace)\n"
		"  --monitors LIST, --db PATH   as for kab run\n"
		"  --resume ID               continue A/B ID where it stopped "
		"(its number\n"
		"                            is printed when it starts)\n"
		"\nAs LAVA jobs, on a lab's server (the token from "
		"KAB_LAVA_TOKEN or the\nconfig's [lava] token) or run by the "
		"dispatcher here (lava-run, a qemu device):\n"
		"  --target lava:URL, --target lava:local\n"
		"  --device-type T           the lab's device type (default "
		"qemu)\n"
		"  --devices N               boot on N devices of the type at "
		"once, each a\n"
		"                            block with both kernels every "
		"round (--boots is\n"
		"                            per device); each needs a tag "
		"of its own (1)\n"
		"\nOn a test machine instead of QEMU:\n"
		"  --target ssh://[user@]host[:port]\n"
		"  --a-setup CMD, --b-setup CMD   run there (sh -c) before each "
		"of the side's\n"
		"                            turns to switch it to that kernel: "
		"kexec, or a\n"
		"                            boot entry and a reboot\n"
		"  --a-release R, --b-release R   the uname -r to wait for "
		"after the setup\n"
		"  --setup-timeout S         how long the machine may take to "
		"come back (600)\n"
		"\nExit status: 0 every boot ok, 1 a boot failed, 2 usage, "
		"130 interrupted (^C).\n");
}

static char *default_label(const struct kab_qemu_opts *q, const char *side,
			   const struct kab_qemu_opts *other)
{
	char *copy, *base, *label;

	if (q->cmdline && *q->cmdline &&
	    !(other->cmdline && !strcmp(other->cmdline, q->cmdline)))
		return xstrdup(q->cmdline);
	if (strcmp(q->kernel, other->kernel)) {
		copy = xstrdup(q->kernel);
		base = basename(copy);
		label = xstrdup(base);
		free(copy);
		return label;
	}
	return xstrdup(side);
}

static int ab_main(struct cli *cli, int argc, char **argv, int64_t resume);

/* --target ssh://: the sides are what their setups make the machine. */
static int ssh_sides(const char *target, struct side *sides,
		     struct kab_drv_side *ds, struct kab_ssh *ssh)
{
	struct kab_err err;
	int i;

	for (i = 0; i < 2; i++) {
		if (ds[i].q.kernel || ds[i].q.cmdline || sides[i].rev)
			return cli_error(EXIT_USAGE, "--%c, --%c-cmdline and "
					 "--%c-rev are for QEMU: on a test "
					 "machine, --%c-setup switches kernels",
					 'a' + i, 'a' + i, 'a' + i, 'a' + i);
		ds[i].ssh.setup_opt = i ? "--b-setup" : "--a-setup";
		ds[i].ssh.release_opt = i ? "--b-release" : "--a-release";
	}
	if (kab_ssh_parse(target, ssh, &err))
		return cli_error(EXIT_USAGE, "%s", err.msg);
	return 0;
}

/*
 * --devices N on a LAVA server: N devices of the type, each with a tag
 * of its own that pins a job to it.  0, or EXIT_USAGE once said.
 */
static int lava_devices(const struct kab_lava_opts *l, int n,
			struct kab_lava_device **out)
{
	struct kab_lava_device *all;
	struct kab_lava_server srv;
	struct strbuf names = STRBUF_INIT;
	struct kab_err err;
	size_t nr, i, k = 0;
	const char *type = l->device_type ? l->device_type : "qemu";

	*out = NULL;
	if (n <= 1)
		return 0;
	if (!strcmp(l->url, "local"))
		return cli_error(EXIT_USAGE, "--devices %d: lava:local has one "
				 "device (the dispatcher here); several are a "
				 "LAVA server's: --target lava:URL", n);
	if (kab_lava_server_init(&srv, l->url, l->token, &err))
		return cli_error(EXIT_USAGE, "%s", err.msg);
	if (kab_lava_check_device_type(&srv, type, &err) ||
	    kab_lava_devices(&srv, type, &all, &nr, &err)) {
		kab_lava_server_free(&srv);
		return cli_error(EXIT_USAGE, "%s", err.msg);
	}
	kab_lava_server_free(&srv);
	/* the pinnable ones first, in the server's order */
	for (i = 0; i < nr; i++)
		if (*all[i].tag)
			all[k++] = all[i];
	for (i = 0; i < k; i++)
		strbuf_addf(&names, "%s%s", i ? ", " : "", all[i].name);
	if ((int)k < n) {
		cli_error(EXIT_USAGE, "--devices %d: LAVA at %s has %zu usable "
			  "device%s of type '%s' with a tag of its own%s%s%s: "
			  "kab pins a boot to a device by such a tag; ask the "
			  "lab's admin to tag each device with its name, or "
			  "give --devices %zu", n, l->url, k, k == 1 ? "" : "s",
			  type, k ? " (" : "", k ? names.buf : "", k ? ")" : "",
			  k ? k : 1);
		strbuf_release(&names);
		free(all);
		return EXIT_USAGE;
	}
	strbuf_release(&names);
	*out = all;
	return 0;
}

/*
 * kab ab --resume ID [--db PATH]: the same A/B, from where it stopped.
 * Only one started in this database: a merged A/B's arguments are
 * another database's (its LAVA URL, its trees), never run here.
 */
int cmd_ab(struct cli *cli, int argc, char **argv)
{
	const char *db_opt = NULL;
	long long resume = 0;
	struct kab_db_ab row;
	struct kab_db *db;
	struct kab_err err;
	json_t *args;
	char **v;
	int k, rc;

	for (k = 1; k < argc; k++) {
		if (!strcmp(argv[k], "--resume") && k + 1 < argc)
			resume = atoll(argv[++k]);
		else if (!strcmp(argv[k], "--db") && k + 1 < argc)
			db_opt = argv[++k];
	}
	if (!resume)
		return ab_main(cli, argc, argv, 0);
	if (resume < 0)
		return cli_error(EXIT_USAGE, "--resume: give the A/B's number");
	if (cli_open_db(cli, db_opt, KAB_DB_READ, &db))
		return EXIT_RUN;
	rc = kab_db_ab_get(db, resume, &row, &err);
	kab_db_close(db);
	if (rc)
		return cli_error(EXIT_USAGE, "%s", err.msg);
	if (row.merged_from) {
		rc = cli_error(EXIT_USAGE, "A/B %lld came from %s (kab merge): "
			       "kab resumes only the A/Bs started in this "
			       "database; resume it where it started", resume,
			       row.merged_from);
		kab_db_ab_release(&row);
		return rc;
	}
	if (!strcmp(row.status, "done")) {
		kab_db_ab_release(&row);
		cli_note("A/B %lld is finished: nothing to resume", resume);
		return EXIT_OK;
	}
	args = json_loads(row.argv, 0, NULL);
	kab_db_ab_release(&row);
	v = cli_stored_argv(args, "ab", "A/B", resume, &k);
	if (!v) {
		json_decref(args);
		return EXIT_RUN;
	}
	if (db_opt) {
		v[k++] = "--db";
		v[k++] = (char *)db_opt;
	}
	rc = ab_main(cli, k, v, resume);
	free(v);
	json_decref(args);
	return rc;
}

static int ab_main(struct cli *cli, int argc, char **argv, int64_t resume)
{
	static const struct option opts[] = {
		{ "a", required_argument, NULL, 'A' },
		{ "b", required_argument, NULL, 'B' },
		{ "a-cmdline", required_argument, NULL, 'x' },
		{ "b-cmdline", required_argument, NULL, 'y' },
		{ "a-label", required_argument, NULL, 'X' },
		{ "b-label", required_argument, NULL, 'Y' },
		{ "job", required_argument, NULL, 'j' },
		{ "set", required_argument, NULL, 's' },
		{ "only", required_argument, NULL, 9 },
		{ "boots", required_argument, NULL, 'n' },
		{ "max-boots", required_argument, NULL, 6 },
		{ "noise", required_argument, NULL, 7 },
		{ "kpi", required_argument, NULL, 8 },
		{ "runs-per-boot", required_argument, NULL, 'r' },
		{ "order", required_argument, NULL, 'o' },
		{ "seed", required_argument, NULL, 'S' },
		{ "smp", required_argument, NULL, 'p' },
		{ "clock", required_argument, NULL, 10 },
		{ "mem", required_argument, NULL, 'm' },
		{ "monitors", required_argument, NULL, 'M' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "pin", required_argument, NULL, 'P' },
		{ "db", required_argument, NULL, 'd' },
		{ "resume", required_argument, NULL, 'R' },
		{ "tree", required_argument, NULL, 't' },
		{ "a-rev", required_argument, NULL, 'u' },
		{ "b-rev", required_argument, NULL, 'v' },
		{ "kconfig", required_argument, NULL, 'k' },
		{ "base", required_argument, NULL, 'c' },
		{ "target", required_argument, NULL, 'g' },
		{ "device-type", required_argument, NULL, 'D' },
		{ "devices", required_argument, NULL, 11 },
		{ "layout-seed", required_argument, NULL, 12 },
		{ "model", required_argument, NULL, 13 },
		{ "a-setup", required_argument, NULL, 1 },
		{ "b-setup", required_argument, NULL, 2 },
		{ "a-release", required_argument, NULL, 3 },
		{ "b-release", required_argument, NULL, 4 },
		{ "setup-timeout", required_argument, NULL, 5 },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct side sides[2];
	struct kab_drv_ab ab = { .iterations = 3, .setup_timeout = 600,
				  .seed = 1, .layout_seed = 1 };
	struct kab_drv_side *ds = ab.sides;
	struct runjob_ui ui;
	struct kab_joblist jobs = { 0 };
	struct sigaction sa = { .sa_handler = runjob_on_signal };
	const char *job_path = NULL, *db_opt = NULL, *order = "alternate";
	char **sets = NULL, **only = NULL, *agent = NULL, *def = NULL;
	char *cache = NULL, *end, *hint = NULL;
	struct kab_db *db = NULL;
	char *labels[2] = { NULL, NULL };
	int nr_sets = 0, nr_only = 0, boots = 3, opt, i, k, rc = EXIT_OK;
	int smp = 0;
	int max_boots = 0;
	double noise = -1;
	struct kab_qemu_opts clk = { 0 };
	char *plugin = NULL;
	const char *kpi = NULL;
	char span[48];
	const char *mem = "2G", *pin = NULL;
	double timeout = 0;
	cpu_set_t pinset;
	struct kab_drv_build_args ba = { 0 };
	struct kab_ssh ssh = { 0 };
	const char *target = NULL;
	struct kab_lava_opts lava = { 0 };
	struct kab_lava_device *devices = NULL;
	int nr_devices = 0;
	struct kab_err err;

	memset(sides, 0, sizeof(sides));
	optind = 1;
	while ((opt = cli_getopt(argc, argv, ":h", opts)) != -1) {
		switch (opt) {
		case 'A':
			ds[0].q.kernel = optarg;
			break;
		case 'B':
			ds[1].q.kernel = optarg;
			break;
		case 'x':
			ds[0].q.cmdline = optarg;
			break;
		case 'y':
			ds[1].q.cmdline = optarg;
			break;
		case 'X':
			labels[0] = optarg;
			break;
		case 'Y':
			labels[1] = optarg;
			break;
		case 'j':
			job_path = optarg;
			break;
		case 's':
			cli_push_arg(&sets, &nr_sets, optarg);
			break;
		case 9:
			cli_push_arg(&only, &nr_only, optarg);
			break;
		case 'n':
			boots = strtol(optarg, &end, 10);
			if (*end || boots < 1 || boots > 10000) {
				rc = cli_error(EXIT_USAGE, "--boots '%s': give 1 "
					       "to 10000", optarg);
				goto out;
			}
			break;
		case 6:
			max_boots = strtol(optarg, &end, 10);
			if (*end || max_boots < 2 || max_boots > 10000) {
				rc = cli_error(EXIT_USAGE, "--max-boots '%s': "
					       "give 2 to 10000", optarg);
				goto out;
			}
			break;
		case 7:
			noise = strtod(optarg, &end);
			if (*end || end == optarg || !(noise >= 0) ||
			    noise > 1000) {
				rc = cli_error(EXIT_USAGE, "--noise '%s': give "
					       "a percentage, 0 to 1000",
					       optarg);
				goto out;
			}
			break;
		case 8:
			kpi = optarg;
			break;
		case 'r':
			ab.iterations = strtol(optarg, &end, 10);
			if (*end || ab.iterations < 1 ||
			    ab.iterations > 10000) {
				rc = cli_error(EXIT_USAGE, "--runs-per-boot "
					       "'%s': give 1 to 10000", optarg);
				goto out;
			}
			break;
		case 'o':
			order = optarg;
			if (strcmp(order, "alternate") && strcmp(order, "random")) {
				rc = cli_error(EXIT_USAGE, "--order '%s': use "
					       "alternate or random", optarg);
				goto out;
			}
			break;
		case 'S':
			ab.seed = strtoul(optarg, NULL, 10);
			break;
		case 12:
			if (runjob_layout_seed_opt(optarg, &ab.layout_seed)) {
				rc = EXIT_USAGE;
				goto out;
			}
			break;
		case 'p':
			smp = strtol(optarg, &end, 10);
			if (*end || smp < 1 || smp > 256) {
				rc = cli_error(EXIT_USAGE, "--smp '%s': give 1 "
					       "to 256 CPUs", optarg);
				goto out;
			}
			break;
		case 13:
			clk.model = optarg;
			break;
		case 10:
			if (runjob_clock_opt(optarg, &clk)) {
				rc = EXIT_USAGE;
				goto out;
			}
			break;
		case 'm':
			mem = optarg;
			break;
		case 'M':
			ab.monitors = optarg;
			if (cli_check_monitors(optarg)) {
				rc = EXIT_USAGE;
				goto out;
			}
			break;
		case 'P':
			if (kab_parse_cpulist(optarg, &pinset, &err)) {
				rc = cli_error(EXIT_USAGE, "--pin: %s", err.msg);
				goto out;
			}
			pin = optarg;
			break;
		case 'T':
			timeout = strtod(optarg, &end);
			if (*end || timeout < 1) {
				rc = cli_error(EXIT_USAGE, "--timeout '%s': give "
					       "seconds, at least 1", optarg);
				goto out;
			}
			break;
		case 'd':
			db_opt = optarg;
			break;
		case 'R':
			break;	/* handled by cmd_ab */
		case 't':
			ba.tree = optarg;
			break;
		case 'u':
			sides[0].rev = optarg;
			break;
		case 'v':
			sides[1].rev = optarg;
			break;
		case 'k':
			if (cli_check_kconfig(optarg)) {
				rc = EXIT_USAGE;
				goto out;
			}
			kab_drv_build_args_add_kconfig(&ba, optarg);
			break;
		case 'c':
			ba.base = optarg;
			break;
		case 'g':
			target = optarg;
			break;
		case 'D':
			if (!kab_name_ok(optarg, 64)) {
				rc = cli_error(EXIT_USAGE, "--device-type '%s': "
					       "give a LAVA device type's name, "
					       "such as qemu", optarg);
				goto out;
			}
			lava.device_type = optarg;
			break;
		case 11:
			nr_devices = strtol(optarg, &end, 10);
			if (*end || nr_devices < 1 || nr_devices > 64) {
				rc = cli_error(EXIT_USAGE, "--devices '%s': give "
					       "1 to 64 devices", optarg);
				goto out;
			}
			break;
		case 1:
		case 2:
			ds[opt - 1].ssh.setup = optarg;
			break;
		case 3:
		case 4:
			ds[opt - 3].ssh.release = optarg;
			break;
		case 5:
			ab.setup_timeout = strtod(optarg, &end);
			if (*end || ab.setup_timeout < 1) {
				rc = cli_error(EXIT_USAGE, "--setup-timeout "
					       "'%s': give seconds", optarg);
				goto out;
			}
			break;
		case 'h':
			ab_usage(stdout);
			goto out;
		default:
			rc = cli_bad_option("ab", opt, argv, opts);
			goto out;
		}
	}
	if (!job_path) {
		/* a job's name works wherever kab is installed */
		rc = cli_error(EXIT_USAGE, "no job: kab ab --job "
			       "will-it-scale-malloc1 (kab run --list-jobs "
			       "lists the jobs)");
		goto out;
	}
	rc = cli_load_jobs(job_path, &(struct kab_jobsel){ sets, nr_sets,
							  only, nr_only },
			   &jobs);
	if (rc)
		goto out;
	if (max_boots && max_boots < boots) {
		rc = cli_error(EXIT_USAGE, "--max-boots %d is fewer than "
			       "--boots %d: the first look comes after --boots",
			       max_boots, boots);
		goto out;
	}
	kab_drv_looks_init(&ab.looks, &jobs, kpi, (size_t)boots,
		      (size_t)(max_boots ? max_boots : boots), 0.05, noise);
	if (!max_boots)
		max_boots = boots;
	if (runjob_layout_seeds_fit(ab.layout_seed, max_boots)) {
		rc = EXIT_USAGE;
		goto out;
	}
	if ((lava.device_type || nr_devices) &&
	    !(target && !strncmp(target, "lava:", 5))) {
		rc = cli_error(EXIT_USAGE, "--device-type and --devices need "
			       "--target lava:URL or lava:local");
		goto out;
	}
	if (target && !strncmp(target, "lava:", 5)) {
		if (clk.clock.kind) {
			rc = cli_error(EXIT_USAGE, "--clock is QEMU's: a LAVA "
				       "device is timed by its own clock");
			goto out;
		}
		rc = runjob_lava_target(target, false, &lava);
		if (rc)
			goto out;
		lava.queue_timeout = timeout;
		rc = lava_devices(&lava, nr_devices, &devices);
		if (rc)
			goto out;
	} else if (target && strcmp(target, "qemu")) {
		if (clk.clock.kind) {
			rc = cli_error(EXIT_USAGE, "--clock is QEMU's: a test "
				       "machine is timed by its own clock");
			goto out;
		}
		rc = ssh_sides(target, sides, ds, &ssh);
		if (rc)
			goto out;
	} else if (ds[0].ssh.setup || ds[1].ssh.setup ||
		   ds[0].ssh.release || ds[1].ssh.release) {
		rc = cli_error(EXIT_USAGE, "--a-setup, --b-setup and the "
			       "releases are for a test machine: add --target "
			       "ssh://host");
		goto out;
	}
	if ((sides[0].rev || sides[1].rev) && !ba.tree) {
		rc = cli_error(EXIT_USAGE, "--a-rev and --b-rev need --tree "
			       "DIR, the git tree they are revisions of");
		goto out;
	}
	for (i = 0; i < 2; i++) {
		if (sides[i].rev && ds[i].q.kernel) {
			rc = cli_error(EXIT_USAGE, "side %c has both a kernel "
				       "and a revision: give --%c or --%c-rev",
				       'A' + i, 'a' + i, 'a' + i);
			goto out;
		}
	}
	clk.smp = smp;
	if (runjob_qemu_check(&clk)) {
		rc = EXIT_USAGE;
		goto out;
	}
	if (runjob_model_check(&clk, target, ab.monitors)) {
		rc = EXIT_USAGE;
		goto out;
	}
	plugin = kab_drv_plugin_path();
	ba.cache_dir = cache = cli_cache_dir();
	if (!cache) {
		rc = EXIT_RUN;
		goto out;
	}
	rc = cli_open_db(cli, db_opt, KAB_DB_WRITE, &db);
	if (rc) {
		goto out;
	}
	runjob_ui_init(&ui, true);
	/* Build what is to be built before the first boot. */
	for (i = 0; i < 2; i++) {
		if (!sides[i].rev)
			continue;
		if (kab_drv_build(db, &ba, sides[i].rev, labels[i], &ui.ui,
				  &sides[i].build)) {
			rc = EXIT_RUN;
			goto out_db;
		}
		ds[i].q.kernel = sides[i].build.image;
		ds[i].commit = sides[i].build.commit;
		if (!labels[i]) {
			snprintf(sides[i].short_sha, sizeof(sides[i].short_sha),
				 "%.12s", sides[i].build.commit);
			labels[i] = sides[i].short_sha;
		}
	}
	for (i = 0; i < 2 && !ssh.dest; i++) {
		if (!ds[i].q.kernel) {
			if (!def)
				def = kab_default_kernel();
			if (!def) {
				rc = cli_error(EXIT_USAGE, "no kernel in /boot: "
					       "give --a and --b, or install "
					       "linux-image-amd64 (make deps)");
				goto out_db;
			}
			ds[i].q.kernel = def;
		}
		if (kab_kernel_check(ds[i].q.kernel, &err)) {
			rc = cli_error(EXIT_USAGE, "%s", err.msg);
			goto out_db;
		}
		ds[i].q.smp = smp;
		ds[i].q.clock = clk.clock;
		ds[i].q.plugin = plugin;
		ds[i].q.model = clk.model;
		ds[i].q.mem = mem;
		ds[i].q.boot_timeout = 120;
		ds[i].q.timeout = timeout;
		ds[i].q.pin = pin;
	}
	for (i = 0; i < 2; i++)
		sides[i].label = labels[i] ? xstrdup(labels[i]) :
				 ssh.dest ? xstrdup(ds[i].ssh.release ?
						    ds[i].ssh.release :
						    i ? "B" : "A") :
				 default_label(&ds[i].q, i ? "B" : "A",
					       &ds[!i].q);
	if (!strcmp(sides[0].label, sides[1].label)) {
		rc = cli_error(EXIT_USAGE, "both sides are called '%s': give "
			       "--a-label and --b-label", sides[0].label);
		goto out_db;
	}
	ds[0].q.cache_dir = ds[1].q.cache_dir = cache;
	if (resume) {
		ab.id = resume;
	} else {
		json_t *args = json_array();
		char *s;

		/* Everything but the database: --resume may name another. */
		for (i = 1; i < argc; i++) {
			if (!strcmp(argv[i], "--db") && i + 1 < argc) {
				i++;
				continue;
			}
			if (!strncmp(argv[i], "--db=", 5))
				continue;
			json_array_append_new(args, json_string(argv[i]));
		}
		s = json_dumps(args, JSON_COMPACT);
		json_decref(args);
		if (kab_db_ab_create(db, s, &ab.id, &err)) {
			free(s);
			rc = cli_error(EXIT_RUN, "%s", err.msg);
			goto out_db;
		}
		free(s);
	}
	hint = cli_resume_hint(kab_db_path(db), "ab", (long long)ab.id);
	fprintf(stderr, "kab: A/B %lld%s (if it stops: %s)\n",
		(long long)ab.id, resume ? ", resumed" : "", hint);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	agent = kab_drv_agent_path();
	if (max_boots > boots)
		snprintf(span, sizeof(span), "%d to %d (until answered)", boots,
			 max_boots);
	else
		snprintf(span, sizeof(span), "%d", boots);
	if (ssh.dest)
		fprintf(stderr, "kab: A = %s, B = %s on %s: %s turns each, %d "
			"runs per turn, order %s\n", sides[0].label,
			sides[1].label, ssh.dest, span, ab.iterations, order);
	else
		fprintf(stderr, "kab: A = %s (%s%s%s), B = %s (%s%s%s): %s "
			"boots each, %d runs per boot, order %s\n",
			sides[0].label, ds[0].q.kernel,
			ds[0].q.cmdline ? " " : "",
			ds[0].q.cmdline ? ds[0].q.cmdline : "",
			sides[1].label, ds[1].q.kernel,
			ds[1].q.cmdline ? " " : "",
			ds[1].q.cmdline ? ds[1].q.cmdline : "", span,
			ab.iterations, order);
	ab.db = db;
	ab.jobs = &jobs;
	ab.sides[0].label = sides[0].label;
	ab.sides[1].label = sides[1].label;
	ab.boots = boots;
	ab.max_boots = max_boots;
	ab.random = !strcmp(order, "random");
	ab.ssh = ssh.dest ? &ssh : NULL;
	ab.lava = lava.url ? &lava : NULL;
	ab.devices = devices;
	ab.nr_devices = devices ? (size_t)nr_devices : 0;
	if (nr_devices > 1) {
		/* boots in parallel: a line each, no live line */
		ui.tty = false;
		ui.ui.live_build = false;
		fprintf(stderr, "kab: %d devices, each a block with both "
			"kernels every round:", nr_devices);
		for (i = 0; i < nr_devices; i++)
			fprintf(stderr, " %s", devices[i].name);
		fprintf(stderr, "\n");
	}
	ab.agent = agent;
	ab.ui = &ui.ui;
	if (kab_drv_ab_run(&ab))
		rc = EXIT_RUN;
	for (i = 0; i < 2; i++) {
		fprintf(stderr, "kab: %s:", sides[i].label);
		if (ds[i].earlier)
			fprintf(stderr, " %d done before", ds[i].earlier);
		for (k = 0; k <= KAB_BOOT_INTERRUPTED; k++)
			if (ds[i].outcomes[k])
				fprintf(stderr, " %d %s", ds[i].outcomes[k],
					kab_boot_outcome_name(k));
		fprintf(stderr, "\n");
	}
	if (kab_stop_requested)
		rc = cli_error(runjob_stop_code(EXIT_RUN), "interrupted: boots "
			       "not started were skipped; what was stored is "
			       "kept in %s (%s)", kab_db_path(db), hint);
	if (!ab.fatal && !kab_stop_requested)
		kab_db_ab_finish(db, ab.id, "done", &err);
	if (!ab.fatal && !kab_stop_requested &&
	    (ds[0].outcomes[KAB_BOOT_OK] || ds[0].earlier) &&
	    (ds[1].outcomes[KAB_BOOT_OK] || ds[1].earlier)) {
		/*
		 * the A/B's own runs, as its looks counted them: earlier
		 * A/Bs of the same labels are theirs, not this one's
		 */
		char *own[2] = {
			kab_db_ab_side_runs(db, ab.id, sides[0].label, &err),
			kab_db_ab_side_runs(db, ab.id, sides[1].label, &err),
		};
		char *specs[2] = { own[0] ? own[0] : sides[0].label,
				   own[1] ? own[1] : sides[1].label };
		size_t nr_seq;
		struct cmp_seq *seq = kab_drv_looks_verdicts(&ab.looks,
							     &nr_seq);

		printf("\n");
		if (cli_compare_sequential(db, specs, 2, false, seq,
					   nr_seq) != EXIT_OK)
			rc = EXIT_RUN;
		free(seq);
		free(own[0]);
		free(own[1]);
	}
out_db:
	kab_db_close(db);
out:
	for (i = 0; i < 2; i++) {
		free(sides[i].label);
		kab_build_free(&sides[i].build);
	}
	free(ba.kconfigs);
	kab_drv_looks_free(&ab.looks);
	kab_joblist_free(&jobs);
	free(sets);
	free(only);
	free(agent);
	free(def);
	free(cache);
	free(hint);
	free(plugin);
	kab_ssh_free(&ssh);
	free(devices);
	return rc;
}
