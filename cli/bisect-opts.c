// SPDX-License-Identifier: GPL-2.0
/*
 * bisect-opts.c - the options of kab bisect and kab bisect-step.  They
 * are one set: kab bisect stores its arguments and each bisect-step it
 * starts reads them back, so both parse the same way.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "bisect.h"
#include "../report/report.h"

static int number(const char *opt, const char *arg, double lo, double hi,
		  double *out)
{
	char *end;

	*out = strtod(arg, &end);
	if (*end || end == arg || *out < lo || *out > hi)
		return cli_error(EXIT_USAGE, "%s '%s': give a number from %g "
				 "to %g", opt, arg, lo, hi);
	return 0;
}

/* --target ssh://: a test machine that --setup boots each commit on. */
static int ssh_check(const struct bisect_opts *o)
{
	struct kab_ssh ssh;
	struct kab_err err;

	if (!o->target || strncmp(o->target, "ssh://", 6)) {
		if (o->setup)
			return cli_error(EXIT_USAGE, "--setup boots a commit's "
					 "kernel on a test machine: give "
					 "--target ssh://host too");
		return 0;
	}
	if (kab_ssh_parse(o->target, &ssh, &err))
		return cli_error(EXIT_USAGE, "%s", err.msg);
	kab_ssh_free(&ssh);
	if (!o->setup)
		return cli_error(EXIT_USAGE, "--target %s: each commit's kernel "
				 "is booted there by --setup CMD, e.g. 'kexec "
				 "-l \"$KAB_KERNEL\" --append=\"$KAB_CMDLINE\" "
				 "&& systemctl kexec'", o->target);
	if (o->clock.clock.kind || o->clock.model)
		return cli_error(EXIT_USAGE, "--clock and --model are QEMU's: a "
				 "test machine is timed by its own clock");
	return 0;
}

void bisect_options_help(FILE *f, bool watch)
{
	fprintf(f, "  --tree DIR           the kernel tree (a git checkout)\n");
	if (!watch)
		fprintf(f, "  --good REV, --bad REV  the endpoints: old and new "
			"behaviour (--good\n"
			"                       an ancestor of --bad)\n");
	fprintf(f,
		"  --job JOB            the job: a file or a name (kab run "
		"--list-jobs)\n"
		"  --set KEY=VALUE, --only KEY=VALUE  pin the job to one "
		"parameter set\n"
		"  --metric NAME        the metric followed\n"
		"  --runs N             iterations a boot (3)\n");
	if (watch)
		fprintf(f,
			"  --boots N            boots of each commit (3)\n"
			"  --max-boots N        boots of each side of a "
			"culprit's checks (3)\n"
			"  --alpha A            the change points' test level "
			"(0.01)\n");
	else
		fprintf(f,
			"  --boots N            boots of each endpoint (3)\n"
			"  --max-boots N        boots of a commit that "
			"resembles neither (3)\n"
			"  --alpha A            the endpoints' test level "
			"(0.05)\n");
	fprintf(f,
		"  --noise PCT          the smallest change %s (1)\n"
		"  --kconfig FRAGMENT, --base B  the config, as kab build\n"
		"  --build-cmd CMD      run with sh in the checkout instead of "
		"kab build\n"
		"                       (KAB_COMMIT is set); it prints 'kernel "
		"PATH' and\n"
		"                       optionally 'cmdline ARGS'\n"
		"  --cmdline S          added to the kernel command line\n",
		watch ? "called" : "bisected");
	if (!watch)
		fprintf(f, "  --term-old T, --term-new T  the behaviours' names "
			"(e.g. fast, slow), as git\n");
	fprintf(f,
		"  --monitors LIST      as kab run's\n"
		"  --clock C            what times the guest: icount (the "
		"default under TCG;\n"
		"                       a step then decides with 2 boots), "
		"wall, icount:N\n"
		"  --model NAME         exact mode: a cost model's rows too "
		"(spr, cpl; QEMU\n"
		"                       10): --metric KPI:NAME %s what "
		"the model times\n"
		"  --smp N, --mem SIZE  the guest's CPUs (1 under icount, else "
		"2) and memory\n"
		"                       (2G)\n"
		"  --timeout S          kill a boot after S seconds (a LAVA "
		"job: the time it\n"
		"                       may wait queued too)\n"
		"  --target T           qemu (the default), lava:URL or "
		"lava:local: each boot\n"
		"                       a LAVA job, as for kab run; or "
		"ssh://[user@]host[:port]:\n"
		"                       a test machine that --setup boots\n"
		"  --device-type T      the lab's device type (qemu)\n"
		"  --setup CMD          ssh://: run there (sh -c) before each "
		"boot of a commit,\n"
		"                       with its image shipped there as "
		"$KAB_KERNEL, and\n"
		"                       KAB_CMDLINE, KAB_COMMIT, KAB_RELEASE "
		"set: it boots that\n"
		"                       kernel (kexec, or a boot entry and a "
		"reboot)\n"
		"  --setup-timeout S    how long the machine may take to "
		"come back (600)\n"
		"  --db PATH            database\n", watch ? "follows" :
		"bisects");
}

int bisect_parse(int argc, char **argv, enum bisect_cmd cmd,
		 struct bisect_opts *o)
{
	/* the options each command does not take */
	static const char *const not_mine[] = {
		[CMD_BISECT] = "iOGZ\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11"
			       "\x12\x13\x14\x15\x16\x17\x18\x19\x1a",
		[CMD_BISECT_STEP] = "RSl\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11"
				    "\x12\x13\x14\x15\x16\x17\x18\x19"
				    "\x1a",
		[CMD_WATCH] = "gboNRSliOGZ",
	};
	bool step = cmd == CMD_BISECT_STEP;
	static const struct option opts[] = {
		{ "tree", required_argument, NULL, 't' },
		{ "good", required_argument, NULL, 'g' },
		{ "bad", required_argument, NULL, 'b' },
		{ "job", required_argument, NULL, 'j' },
		{ "metric", required_argument, NULL, 'm' },
		{ "set", required_argument, NULL, 's' },
		{ "only", required_argument, NULL, 1 },
		{ "runs", required_argument, NULL, 'r' },
		{ "boots", required_argument, NULL, 'B' },
		{ "max-boots", required_argument, NULL, 'X' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "noise", required_argument, NULL, 'n' },
		{ "cmdline", required_argument, NULL, 'c' },
		{ "build-cmd", required_argument, NULL, 'C' },
		{ "kconfig", required_argument, NULL, 'k' },
		{ "base", required_argument, NULL, 'K' },
		{ "term-old", required_argument, NULL, 'o' },
		{ "term-new", required_argument, NULL, 'N' },
		{ "monitors", required_argument, NULL, 'M' },
		{ "smp", required_argument, NULL, 'p' },
		{ "clock", required_argument, NULL, 'L' },
		{ "mem", required_argument, NULL, 'e' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "db", required_argument, NULL, 'd' },
		{ "target", required_argument, NULL, 2 },
		{ "device-type", required_argument, NULL, 3 },
		{ "model", required_argument, NULL, 4 },
		{ "setup", required_argument, NULL, 5 },
		{ "setup-timeout", required_argument, NULL, 6 },
		{ "help", no_argument, NULL, 'h' },
		/* kab bisect's own */
		{ "resume", required_argument, NULL, 'R' },
		{ "show", required_argument, NULL, 'S' },
		{ "list", no_argument, NULL, 'l' },
		/* bisect-step's own: kab bisect's plumbing */
		{ "bisect", required_argument, NULL, 'i' },
		{ "owner", required_argument, NULL, 'O' },
		{ "good-run", required_argument, NULL, 'G' },
		{ "bad-run", required_argument, NULL, 'Z' },
		/* kab watch's own */
		{ "from", required_argument, NULL, 0x0a },
		{ "branch", required_argument, NULL, 0x0b },
		{ "name", required_argument, NULL, 0x0c },
		{ "every", required_argument, NULL, 0x0d },
		{ "max-points", required_argument, NULL, 0x0e },
		{ "interval", required_argument, NULL, 0x0f },
		{ "once", no_argument, NULL, 0x10 },
		{ "all-commits", no_argument, NULL, 0x11 },
		{ "mbox", required_argument, NULL, 0x12 },
		{ "mail-from", required_argument, NULL, 0x13 },
		{ "mail-to", required_argument, NULL, 0x14 },
		{ "mail-cc", required_argument, NULL, 0x15 },
		{ "trailer", required_argument, NULL, 0x16 },
		{ "sendmail", required_argument, NULL, 0x17 },
		{ "html", required_argument, NULL, 0x18 },
		{ "fetch", required_argument, NULL, 0x19 },
		{ "merges", no_argument, NULL, 0x1a },
		{ NULL, 0, NULL, 0 },
	};
	struct option mine[ARRAY_SIZE(opts)];
	double v;
	int opt, i, j;

	memset(o, 0, sizeof(*o));
	o->runs = 3;
	o->boots = 3;
	o->max_boots = 3;
	o->alpha = 0.05;
	o->noise = 1;
	o->mem = "2G";
	o->term_old = "good";
	o->term_new = "bad";
	o->every = 1;
	o->interval = 3600;
	o->setup_timeout = 600;
	optind = 1;
	/* each command takes the common options and its own */
	for (i = j = 0; opts[i].name; i++)
		if (strchr(not_mine[cmd], opts[i].val) == NULL)
			mine[j++] = opts[i];
	memset(&mine[j], 0, sizeof(mine[j]));
	while ((opt = cli_getopt(argc, argv, ":h", mine)) != -1) {
		switch (opt) {
		case 't':
			o->tree = optarg;
			break;
		case 'g':
			o->good = optarg;
			break;
		case 'b':
			o->bad = optarg;
			break;
		case 'j':
			o->job = optarg;
			break;
		case 'm':
			o->metric = optarg;
			break;
		case 's':
			cli_push_arg(&o->sets, &o->nr_sets, optarg);
			break;
		case 1:
			cli_push_arg(&o->only, &o->nr_only, optarg);
			break;
		case 'r':
			if (number("--runs", optarg, 1, 1000, &v))
				return EXIT_USAGE;
			o->runs = (int)v;
			break;
		case 'B':
			if (number("--boots", optarg, 1, 100, &v))
				return EXIT_USAGE;
			o->boots = (int)v;
			break;
		case 'X':
			if (number("--max-boots", optarg, 1, 100, &v))
				return EXIT_USAGE;
			o->max_boots = (int)v;
			break;
		case 'a':
			if (number("--alpha", optarg, 1e-6, 0.5, &o->alpha))
				return EXIT_USAGE;
			break;
		case 'n':
			if (number("--noise", optarg, 0, 1000, &o->noise))
				return EXIT_USAGE;
			break;
		case 'c':
			o->cmdline = optarg;
			break;
		case 'C':
			o->build_cmd = optarg;
			break;
		case 'k':
			if (cli_check_kconfig(optarg))
				return EXIT_USAGE;
			kab_drv_build_args_add_kconfig(&o->build, optarg);
			break;
		case 'K':
			o->build.base = optarg;
			break;
		case 'o':
			o->term_old = optarg;
			break;
		case 'N':
			o->term_new = optarg;
			break;
		case 'M':
			o->monitors = optarg;
			if (cli_check_monitors(optarg))
				return EXIT_USAGE;
			break;
		case 'p':
			if (number("--smp", optarg, 1, 256, &v))
				return EXIT_USAGE;
			o->smp = (int)v;
			break;
		case 'L':
			if (runjob_clock_opt(optarg, &o->clock))
				return EXIT_USAGE;
			break;
		case 'e':
			o->mem = optarg;
			break;
		case 'T':
			if (number("--timeout", optarg, 1, 1e6, &o->timeout))
				return EXIT_USAGE;
			break;
		case 'd':
			o->db = optarg;
			break;
		case 2:
			if (strcmp(optarg, "qemu") && strncmp(optarg, "lava:", 5) &&
			    strncmp(optarg, "ssh://", 6))
				return cli_error(EXIT_USAGE, "--target '%s': a "
						 "bisect boots its commits: give "
						 "qemu, lava:URL, lava:local or "
						 "ssh://host with --setup",
						 optarg);
			o->target = optarg;
			break;
		case 5:
			if (!*optarg)
				return cli_error(EXIT_USAGE, "--setup '': give "
						 "the command that boots "
						 "$KAB_KERNEL there");
			o->setup = optarg;
			break;
		case 6:
			if (number("--setup-timeout", optarg, 1, 1e6,
				   &o->setup_timeout))
				return EXIT_USAGE;
			break;
		case 4:
			o->clock.model = optarg;
			break;
		case 3:
			if (!kab_name_ok(optarg, 64))
				return cli_error(EXIT_USAGE, "--device-type "
						 "'%s': give a LAVA device "
						 "type's name, such as qemu",
						 optarg);
			o->lava.device_type = optarg;
			break;
		case 'i':
			o->bisect_id = atoll(optarg);
			break;
		case 'O':
			o->owner = atoi(optarg);
			break;
		case 'G':
			o->good_runs = optarg;
			break;
		case 'Z':
			o->bad_runs = optarg;
			break;
		case 'R':
			o->resume = atoll(optarg);
			break;
		case 'S':
			o->show = atoll(optarg);
			break;
		case 'l':
			o->list = true;
			break;
		case 0x0a:
			o->from = optarg;
			break;
		case 0x0b:
			o->branch = optarg;
			break;
		case 0x0c:
			if (!kab_name_ok(optarg, 64))
				return cli_error(EXIT_USAGE, "--name '%s': give "
						 "a name of letters, digits, "
						 "'.', '-' and '_'", optarg);
			o->name = optarg;
			break;
		case 0x0d:
			if (number("--every", optarg, 1, 1e6, &v))
				return EXIT_USAGE;
			o->every = (int)v;
			break;
		case 0x0e:
			if (number("--max-points", optarg, 1, 1e6, &v))
				return EXIT_USAGE;
			o->max_points = (int)v;
			break;
		case 0x0f:
			if (number("--interval", optarg, 1, 1e7, &o->interval))
				return EXIT_USAGE;
			break;
		case 0x10:
			o->once = true;
			break;
		case 0x11:
			o->all_commits = true;
			break;
		case 0x1a:
			o->merges = true;
			break;
		case 0x12:
			o->mbox = optarg;
			break;
		case 0x13:
			o->mail_from = optarg;
			break;
		case 0x14:
			cli_push_arg(&o->mail_to, &o->nr_mail_to,
				     optarg);
			break;
		case 0x15:
			cli_push_arg(&o->mail_cc, &o->nr_mail_cc,
				     optarg);
			break;
		case 0x16: {
			struct kab_err terr;

			if (report_trailer_check(optarg, &terr))
				return cli_error(EXIT_USAGE, "%s", terr.msg);
			cli_push_arg(&o->trailers, &o->nr_trailers,
				     optarg);
			break;
		}
		case 0x17:
			if (!*optarg)
				return cli_error(EXIT_USAGE, "--sendmail '': "
						 "give a command, e.g. "
						 "'/usr/sbin/sendmail -t -i'");
			o->sendmail = optarg;
			break;
		case 0x18:
			o->html = optarg;
			break;
		case 0x19:
			if (!*optarg || *optarg == '-')
				return cli_error(EXIT_USAGE, "--fetch '%s': give "
						 "a remote of the tree, e.g. "
						 "origin", optarg);
			o->fetch = optarg;
			break;
		case 'h':
			return -1;
		default:
			return cli_bad_option(cmd == CMD_WATCH ? "watch" :
					      step ? "bisect-step" : "bisect",
					      opt, argv, mine);
		}
	}
	if (optind < argc)
		return cli_error(EXIT_USAGE, "unexpected argument '%s'",
				 argv[optind]);
	o->build.tree = o->tree;
	o->clock.smp = o->smp;
	if (runjob_qemu_check(&o->clock))
		return EXIT_USAGE;
	if (runjob_model_check(&o->clock, o->target, o->monitors))
		return EXIT_USAGE;
	if (o->lava.device_type && !(o->target &&
				     !strncmp(o->target, "lava:", 5)))
		return cli_error(EXIT_USAGE, "--device-type needs --target "
				 "lava:URL or lava:local");
	if (o->target && !strncmp(o->target, "lava:", 5)) {
		if (o->clock.clock.kind)
			return cli_error(EXIT_USAGE, "--clock is QEMU's: a "
					 "LAVA device is timed by its own "
					 "clock");
		if (runjob_lava_target(o->target, false, &o->lava))
			return EXIT_USAGE;
		o->lava.queue_timeout = o->timeout;
		if (o->cmdline) {
			struct kab_err err;

			if (kab_lava_cmdline_check(o->cmdline, &err))
				return cli_error(EXIT_USAGE, "%s", err.msg);
		}
	}
	if (ssh_check(o))
		return EXIT_USAGE;
	if (o->show || o->list || o->resume || (step && o->bisect_id))
		return 0;
	if (!o->metric)
		return cli_error(EXIT_USAGE, "which metric? --metric "
				 "will-it-scale.per_process_ops, say");
	if (!o->job)
		return cli_error(EXIT_USAGE, "which job? --job "
				 "will-it-scale-malloc1, say");
	if (!strcmp(o->job, "-"))
		return cli_error(EXIT_USAGE, "--job -: every step of a bisect "
				 "reads the job again: name a file");
	if (cmd == CMD_WATCH) {
		if (!o->tree || !o->from)
			return cli_error(EXIT_USAGE, "kab watch --tree DIR "
					 "--from REV [--branch REF] --job FILE "
					 "--metric NAME");
		if (!o->branch)
			o->branch = "HEAD";
		return 0;
	}
	if (!strcmp(o->term_old, o->term_new))
		return cli_error(EXIT_USAGE, "--term-old and --term-new are "
				 "both '%s'", o->term_old);
	if (step) {
		if (!o->good_runs || !o->bad_runs)
			return cli_error(EXIT_USAGE, "bisect-step needs the "
					 "endpoints' runs: --good-run IDS "
					 "--bad-run IDS (kab ls lists runs)");
		if (!o->tree)
			o->tree = o->build.tree = ".";
		return 0;
	}
	if (!o->tree || !o->good || !o->bad)
		return cli_error(EXIT_USAGE, "kab bisect --tree DIR --good REV "
				 "--bad REV --job FILE --metric NAME");
	return 0;
}

void bisect_opts_free(struct bisect_opts *o)
{
	free(o->sets);
	free(o->only);
	free(o->build.kconfigs);
	free(o->mail_to);
	free(o->mail_cc);
	free(o->trailers);
	memset(o, 0, sizeof(*o));
}
