// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - what a report says: which KPI of which job changed,
 * the subject line, the machine, compiler and config, and the kab
 * commands that reproduce it.  The renderers only lay this out.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "../runner/runner.h"

/* ---- the key performance indicator of a job ---- */

static int cmp_key(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

char *report_job_name(const struct cmp_table *t)
{
	struct strbuf sb = STRBUF_INIT;
	const char *tc = table_param(t, "testcase");
	char **keys = NULL;
	size_t n = 0, i;
	const char *k;
	json_t *v;

	json_object_foreach(t->params_obj, k, v) {
		if (strcmp(k, "testcase")) {
			keys = xrealloc(keys, (n + 1) * sizeof(*keys));
			keys[n++] = (char *)k;
		}
	}
	qsort(keys, n, sizeof(*keys), cmp_key);
	strbuf_addf(&sb, "%s:", tc ? tc : "job");
	for (i = 0; i < n; i++)
		strbuf_addf(&sb, " %s=%s", keys[i],
			    table_param(t, keys[i]));
	free(keys);
	return strbuf_detach(&sb);
}

/* What kab_compare decided of a KPI cell: the KPIs are one family. */
struct kpi_verdict kpi_judge(const struct kab_cell *c)
{
	return (struct kpi_verdict){
		.p = c->p_adj,
		.significant = c->significant,
		.verdict = c->verdict,
	};
}

char *report_change(const struct report_job *j)
{
	const struct kab_cell *c;

	if (!j->noticed)
		return NULL;
	c = &j->kpi->cells[0];
	return xasprintf("%.1f%s %s", fabs(c->change),
			 c->absolute || c->zero_base ? "" : "%",
			 j->kv.verdict > 0 ? "improvement" :
			 j->kv.verdict < 0 ? "regression" :
			 c->change > 0 ? "increase" : "decrease");
}

const char *report_unjudged(const struct report_job *j)
{
	const struct kab_cell *c = &j->kpi->cells[0];

	if (c->confounded)
		return "its sides were measured on different machines, "
		       "none measured both";
	if (c->few)
		return "fewer than 2 boots on a side";
	return NULL;
}

const struct report_job *report_main(const struct report *r)
{
	return &r->job[r->main];
}

/* ---- facts ---- */

/* "gcc-12" from "gcc (Debian 12.2.0-14) 12.2.0" or /proc/version. */
static char *compiler_short(const char *s)
{
	const char *p, *ver = NULL, *q;
	char *cc;
	int major;

	if (!s)
		return NULL;
	p = strstr(s, ") (");	/* /proc/version: "... (builder) (gcc ..." */
	if (!strncmp(s, "Linux version ", 14) && p)
		s = p + 3;
	if ((p = strstr(s, "clang version "))) {
		major = atoi(p + 14);
		return major > 0 ? xasprintf("clang-%d", major) : NULL;
	}
	if (!strncmp(s, "gcc-", 4) && isdigit((unsigned char)s[4]))
		return xasprintf("gcc-%d", atoi(s + 4));
	if (strncmp(s, "gcc", 3))
		return NULL;
	/* the version is the last word before a comma or the end */
	for (q = s; *q && *q != ',' && *q != '\n'; q++)
		if (q > s && q[-1] == ' ' && isdigit((unsigned char)*q))
			ver = q;
	cc = ver ? xasprintf("gcc-%d", atoi(ver)) : NULL;
	return cc;
}

static char *describe_machine(json_t *host, const struct kab_run_facts *f,
			      bool exact)
{
	const char *cpu = json_string_value(json_object_get(host,
							     "cpu_model"));
	long long kb = json_integer_value(json_object_get(host,
							  "mem_total_kb"));
	long long gib = (kb + 524288) / 1048576;
	char *mem = gib ? xasprintf("%lldG", gib) :
		    xasprintf("%lldM", (kb + 512) / 1024);
	const char *virt = "";
	char *s;

	if (f->accel && !strcmp(f->accel, "kvm"))
		virt = " (QEMU KVM guest)";
	else if (f->accel && exact)
		virt = " (QEMU TCG guest, timed by icount)";
	else if (f->accel)
		virt = " (QEMU TCG guest)";
	else if (json_is_true(json_object_get(host, "hypervisor")))
		virt = " (virtual machine)";
	s = xasprintf("%lld threads %lld sockets %s%s with %s memory",
		      (long long)json_integer_value(json_object_get(host,
								    "nr_cpus")),
		      (long long)json_integer_value(json_object_get(host,
								    "sockets")),
		      cpu ? cpu : "unknown CPU", virt, mem);
	free(mem);
	return s;
}

static char *kernel_line(struct kab_db *db, const struct kab_run *run,
			 const struct run_info *ri, const char *subject)
{
	char *sub = NULL, *s;

	if (ri->commit) {
		if (!subject)
			sub = kab_db_commit_subject(db, ri->commit);
		s = xasprintf("%s (\"%s\")", ri->commit,
			      subject ? subject : sub ? sub : ri->label);
		free(sub);
		return s;
	}
	return xasprintf("%s (%s%s%s)", ri->label, run->kernel.release,
			 run->kernel.image_path ? ", " : "",
			 run->kernel.image_path ? run->kernel.image_path : "");
}

/* "mm, mmap" from "mm, mmap: limit THP alignment ...". */
static char *subsystem_of(const char *subject)
{
	const char *colon = subject ? strstr(subject, ": ") : NULL;

	if (!colon || colon == subject || colon - subject > 40)
		return NULL;
	return xstrndup(subject, colon - subject);
}

/* ---- how to reproduce ---- */

/* The stored command line, its --job the file written above. */
static void add_argv(struct strbuf *sb, const char *cmd, json_t *argv,
		     const char *file)
{
	const char *prev = "";
	size_t i;
	json_t *a;

	strbuf_addstr(sb, cmd);
	json_array_foreach(argv, i, a) {
		const char *v = json_string_value(a) ? json_string_value(a) :
				"";

		strbuf_addstr(sb, " ");
		if (!strcmp(prev, "--job"))
			strbuf_add_shell_word(sb, file);
		else if (!strncmp(v, "--job=", 6))
			strbuf_addf(sb, "--job=%s", file);
		else
			strbuf_add_shell_word(sb, v);
		prev = v;
	}
	strbuf_addstr(sb, "\n");
}

/*
 * The job file's name in the commands: the job's name when it is a
 * name a shell and kab's options take as it is, else job.yaml.
 */
static char *job_file(const char *job)
{
	if (!kab_name_ok(job, 200) || job[0] == '-' || job[0] == '.')
		return xstrdup("job.yaml");
	return xasprintf("%s.yaml", job);
}

/*
 * The job's parameters as a flat lkp job file, by libyaml's emitter (a
 * quote or a colon in a value stays YAML that kab reads back as it).
 */
static void add_job(struct strbuf *sb, const struct cmp_table *t,
		    const char *file)
{
	json_t *clean = json_object(), *v;
	struct kab_err err;
	const char *k;
	char *yaml;

	json_object_foreach(t->params_obj, k, v) {
		/* a stored name or value with a newline is one line here */
		char *key = kab_text_clean(k, 255);
		char *val = kab_text_clean(json_is_string(v) ?
					   json_string_value(v) : "", 4096);

		json_object_set_new(clean, key, json_string(val));
		free(key);
		free(val);
	}
	yaml = kab_job_yaml(clean, &err);
	/* each line "key: value", never a bare EOF that ends it early */
	strbuf_addf(sb, "cat > %s <<'EOF'\n%sEOF\n", file,
		    yaml ? yaml : "");
	free(yaml);
	json_decref(clean);
}

/* "# base: 6.1.0 (/boot/vmlinuz-6.1.0), commit abc, cmdline ..." */
static void add_kernel(struct strbuf *sb, const struct kab_run *run)
{
	const struct kab_kernel *k = &run->kernel;
	char *s[4] = { kab_text_clean(k->label, 200),
		       kab_text_clean(k->release ? k->release : "", 200),
		       kab_text_clean(k->image_path ? k->image_path : "", 4096),
		       kab_text_clean(k->cmdline ? k->cmdline : "", 4096) };
	size_t i;

	strbuf_addf(sb, "# %s: kernel %s", s[0], *s[1] ? s[1] : "?");
	if (*s[2])
		strbuf_addf(sb, ", image %s", s[2]);
	if (k->commit)
		strbuf_addf(sb, ", commit %.40s", k->commit);
	if (*s[3])
		strbuf_addf(sb, ", command line \"%s\"", s[3]);
	strbuf_addf(sb, " (%s)\n", run->target);
	for (i = 0; i < ARRAY_SIZE(s); i++)
		free(s[i]);
}

/* Did kab ab's stored command line name this option? */
static bool argv_has(json_t *argv, const char *opt)
{
	size_t i, n = strlen(opt);
	json_t *a;

	json_array_foreach(argv, i, a) {
		const char *v = json_string_value(a);

		if (v && !strncmp(v, opt, n) && (!v[n] || v[n] == '='))
			return true;
	}
	return false;
}

#define REPRODUCE_COLS 68

/*
 * One line of the block in lines of at most REPRODUCE_COLS (the mail
 * indents them by 8) where it can
 * break: a comment at a space, as "#   " lines; a command between its
 * shell words (never inside quotes), as " \" lines indented by 4.
 */
static void add_wrapped(struct strbuf *sb, const char *line, size_t n)
{
	bool comment = line[0] == '#';
	size_t start = 0, col = 0, brk = 0, i;
	bool quoted = false;

	if (n <= REPRODUCE_COLS) {
		strbuf_add(sb, line, n);
		strbuf_addstr(sb, "\n");
		return;
	}
	for (i = 0; i < n; i++) {
		if (line[i] == '\'' && !comment)
			quoted = !quoted;
		if (line[i] == ' ' && !quoted && i > start)
			brk = i;
		col++;
		if (col >= REPRODUCE_COLS - 2 && brk > start) {
			strbuf_add(sb, line + start, brk - start);
			strbuf_addstr(sb, comment ? "\n#   " : " \\\n    ");
			start = brk + 1;
			col = i - start + 1 + 4;
			brk = start;
		}
	}
	strbuf_add(sb, line + start, n - start);
	strbuf_addstr(sb, "\n");
}

/* The block for a mail: long lines wrapped, a here-document as it is. */
static char *wrap_block(char *text)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = text, *nl;
	bool here = false;

	for (; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		if (here) {
			strbuf_add(&sb, p, nl - p);
			strbuf_addstr(&sb, "\n");
			here = !(nl - p == 3 && !strncmp(p, "EOF", 3));
		} else {
			here = nl - p > 8 && !strncmp(nl - 7, "<<'EOF'", 7);
			add_wrapped(&sb, p, nl - p);
		}
		if (!*nl)
			break;
	}
	free(text);
	return strbuf_detach(&sb);
}

/* A commit id for a comment line: its hex, or what names it instead. */
static const char *hex_or(const char *commit, const char *other)
{
	size_t n = strspn(commit, "0123456789abcdef");

	return n >= 12 || (n && !commit[n]) ? commit : other;
}

static char *reproduce(const struct report *r, const struct report_job *j,
		       const struct kab_run *base, const struct kab_run *head)
{
	const struct cmp_table *t = j->t;
	const struct run_info *b = t->runs[0].v[0], *h = t->runs[1].v[0];
	struct strbuf sb = STRBUF_INIT;
	char *file = job_file(head->job);
	json_t *argv = j->facts.ab_argv ? json_loads(j->facts.ab_argv, 0,
						      NULL) : NULL;

	add_job(&sb, t, file);
	add_kernel(&sb, base);
	add_kernel(&sb, head);
	if (json_is_array(argv)) {
		strbuf_addf(&sb, "# the A/B as it was run:\n");
		add_argv(&sb, "kab ab", argv, file);
		/*
		 * An A/B of the newest /boot/vmlinuz-* named no kernel: on
		 * the reader's machine that is another one.  Name them.
		 */
		if (!argv_has(argv, "--tree") && !argv_has(argv, "--a") &&
		    base->kernel.image_path && head->kernel.image_path) {
			sb.len--;	/* the newline */
			strbuf_addstr(&sb, " --a ");
			strbuf_add_shell_word(&sb, base->kernel.image_path);
			strbuf_addstr(&sb, " --b ");
			strbuf_add_shell_word(&sb, head->kernel.image_path);
			strbuf_addstr(&sb, "\n");
		}
	} else if (b->commit && h->commit && !strcmp(head->target, "ssh")) {
		/* a test machine: its setups boot the commits' kernels */
		strbuf_addstr(&sb, "kab ab --target ssh://BOX --a-setup "
			      "SETUP_A --b-setup SETUP_B --a-label ");
		strbuf_add_shell_word(&sb, b->label);
		strbuf_addstr(&sb, " --b-label ");
		strbuf_add_shell_word(&sb, h->label);
		strbuf_addf(&sb, " --boots %zu --runs-per-boot %d --job %s\n",
			    t->runs[1].nr, head->nr_iterations, file);
		strbuf_addf(&sb, "# BOX: the test machine; SETUP_A and SETUP_B "
			    "boot the kernels of %.12s and %.12s there (as "
			    "--setup did)\n", hex_or(b->commit, "A"),
			    hex_or(h->commit, "B"));
	} else if (b->commit && h->commit && j->facts.tree) {
		char *brev = xstrndup(b->commit, 12);
		char *hrev = xstrndup(h->commit, 12);

		strbuf_addstr(&sb, "kab ab --tree LINUX --a-rev ");
		strbuf_add_shell_word(&sb, brev);
		strbuf_addstr(&sb, " --b-rev ");
		strbuf_add_shell_word(&sb, hrev);
		strbuf_addstr(&sb, " --a-label ");
		free(brev);
		free(hrev);
		strbuf_add_shell_word(&sb, b->label);
		strbuf_addstr(&sb, " --b-label ");
		strbuf_add_shell_word(&sb, h->label);
		strbuf_addf(&sb, " --boots %zu --runs-per-boot %d%s --job %s\n",
			    t->runs[1].nr, head->nr_iterations,
			    t->exact ? " --clock icount" : "", file);
		strbuf_addstr(&sb, "# LINUX: a clone holding both commits "
			      "(here: ");
		{
			char *tree = kab_text_clean(j->facts.tree, 4096);

			strbuf_addf(&sb, "%s)\n", tree);
			free(tree);
		}
	} else if (!strcmp(head->target, "qemu")) {
		const struct kab_run *side[2] = { base, head };
		int i;

		for (i = 0; i < 2; i++) {
			strbuf_addf(&sb, "kab run --target qemu --kernel ");
			strbuf_add_shell_word(&sb, side[i]->kernel.image_path ?
					      side[i]->kernel.image_path :
					      "BZIMAGE");
			strbuf_addstr(&sb, " --kernel-label ");
			strbuf_add_shell_word(&sb, side[i]->kernel.label);
			strbuf_addf(&sb, " --runs %d%s %s\n",
				    side[i]->nr_iterations, t->exact ?
				    " --clock icount --layout-seed K" : "",
				    file);
		}
		strbuf_addf(&sb, "# repeat both %zu time%s, interleaved%s; the "
			    "command line the kernels had is in 'kab show'\n",
			    t->runs[1].nr, t->runs[1].nr == 1 ? "" : "s",
			    t->exact ? ", round K at layout seed K" : "");
	} else {
		strbuf_addf(&sb, "# on each kernel in turn, %zu time%s:\n",
			    t->runs[1].nr, t->runs[1].nr == 1 ? "" : "s");
		strbuf_addf(&sb, "kab run --kernel-label LABEL --runs %d %s\n",
			    head->nr_iterations, file);
	}
	strbuf_addstr(&sb, "kab report ");
	strbuf_add_shell_word(&sb, r->base_spec);
	strbuf_addstr(&sb, " ");
	strbuf_add_shell_word(&sb, r->head_spec);
	strbuf_addstr(&sb, "\n");
	json_decref(argv);
	free(file);
	return strbuf_detach(&sb);
}

/* ---- assembling ---- */

static int job_facts(struct kab_db *db, struct report_job *j,
		     struct kab_run *head, struct kab_err *err)
{
	const char *tc = table_param(j->t, "testcase");

	j->testcase = xstrdup(tc ? tc : head->suite);
	if (kab_db_run_facts(db, head->id, &j->facts, err))
		return KAB_MODEL_FAILED;
	j->machine = describe_machine(head->host, &j->facts, j->t->exact);
	j->target = xstrdup(head->target);
	return 0;
}

/*
 * The KPIs of all jobs were judged together, as kab ci gate does.  A
 * job whose own KPI did not change but whose KPI as a cost model times
 * it did (none named with --kpi) is reported for the model's.
 */
static void judge_jobs(struct report *r, bool named)
{
	size_t i;

	for (i = 0; i < r->nr; i++) {
		struct report_job *j = &r->job[i];
		const struct kab_row *mk;
		struct kpi_verdict kv;

		if (!j->kpi || !j->kpi->cells[0].s.n)
			continue;
		j->kv = kpi_judge(&j->kpi->cells[0]);
		/* a KPI of unknown direction is an increase or decrease */
		j->noticed = j->kv.significant;
		mk = named || j->noticed || !j->t->model_kpi ? NULL :
		     cmp_table_kpi(j->t, j->t->model_kpi);
		if (!mk || !mk->cells[0].s.n)
			continue;
		kv = kpi_judge(&mk->cells[0]);
		if (kv.significant) {
			j->kpi = mk;
			j->kv = kv;
			j->noticed = true;
		}
	}
}

static size_t pick_main(const struct report *r)
{
	size_t i, best = r->nr;
	double big = -1;

	for (i = 0; i < r->nr; i++) {
		const struct report_job *j = &r->job[i];
		double ch;

		if (!j->kpi)
			continue;
		if (best == r->nr)
			best = i;	/* the first with a KPI, failing all */
		ch = fabs(j->kpi->cells[0].change);
		if (j->noticed && (!r->job[best].noticed || ch > big)) {
			best = i;
			big = ch;
		}
	}
	return best;
}

static int get_run(struct kab_db *db, long long id, struct kab_run *out,
		   struct kab_err *err)
{
	return kab_db_run_get(db, id, out, err) ? KAB_MODEL_FAILED : 0;
}

static void head_lines(struct kab_db *db, struct report *r,
		       const struct report_job *m, const struct kab_run *base,
		       const struct kab_run *head)
{
	const struct run_info *b = m->t->runs[0].v[0], *h = m->t->runs[1].v[0];
	const char *cc;

	r->head_line = kernel_line(db, head, h, m->facts.subject);
	r->head_kind = h->commit ? "commit" : "kernel";
	r->base_line = kernel_line(db, base, b, NULL);
	cc = json_string_value(json_object_get(head->host, "proc_version"));
	r->compiler = compiler_short(cc);
	if (!r->compiler)
		r->compiler = compiler_short(m->facts.compiler);
	if (!r->compiler)
		r->compiler = xstrdup("unknown (not recorded)");
	if (m->facts.config_sha256)
		r->config = xasprintf("%s-%s (.config sha256 %.12s, built by "
				      "kab)", json_string_value(json_object_get(
				      head->host, "machine")) ?: "x86_64",
				      head->kernel.release,
				      m->facts.config_sha256);
	else
		r->config = xasprintf("%s-%s",
				      json_string_value(json_object_get(
				      head->host, "machine")) ?: "x86_64",
				      head->kernel.release);
}

static void make_subject(struct kab_db *db, struct report *r,
			 const struct report_opts *o)
{
	const struct report_job *m = report_main(r);
	const struct run_info *h = m->t->runs[1].v[0];
	char *sub = NULL, *subsys, *change = report_change(m);
	struct strbuf sb = STRBUF_INIT;

	if (o->subject_prefix && *o->subject_prefix)
		strbuf_addf(&sb, "[%s] ", o->subject_prefix);
	if (h->commit && !m->facts.subject)
		sub = kab_db_commit_subject(db, h->commit);
	subsys = o->subsystem ? xstrdup(o->subsystem) :
		 subsystem_of(m->facts.subject ? m->facts.subject : sub);
	if (subsys && *subsys)
		strbuf_addf(&sb, "[%s] ", subsys);
	if (h->commit)
		strbuf_addf(&sb, "%.10s: ", h->commit);
	else
		strbuf_addf(&sb, "%s: ", h->label);
	if (change)
		strbuf_addf(&sb, "%s %s", m->kpi->metric, change);
	else if (report_unjudged(m))
		strbuf_addf(&sb, "no verdict on %s", m->kpi->metric);
	else
		strbuf_addf(&sb, "no significant change of %s",
			    m->kpi->metric);
	r->subject = strbuf_detach(&sb);
	free(sub);
	free(subsys);
	free(change);
}

/* lkp's commit: lines name each commit by its subject. */
static void name_sides(struct kab_db *db, struct cmp_table *t)
{
	size_t i;

	for (i = 0; i < t->nr_sides; i++) {
		const char *commit = t->runs[i].v[0]->commit;
		char *subject = commit ? kab_db_commit_subject(db, commit) :
				NULL;

		if (!subject || strcmp(t->side[i].id, commit)) {
			free(subject);
			continue;
		}
		free((char *)t->side[i].desc);
		t->side[i].desc = xasprintf("%.10s (\"%s\")", commit, subject);
		free(subject);
	}
}

/* The bisect that named the head, if any, for the trend plots. */
static void add_trend(struct kab_db *db, struct report *r,
		      const struct report_opts *o)
{
	const struct run_info *h = report_main(r)->t->runs[1].v[0];
	int64_t id = h->commit ? kab_db_bisect_find(db, h->commit) : 0;
	struct bisect_history bh;
	struct kab_err err;
	char *tree;

	if (!id)
		return;
	tree = o->bisect_tree ? o->bisect_tree(db, id) : NULL;
	if (!bisect_history_load(db, id, tree, &bh, &err)) {
		r->trend = bisect_trend_points(db, &bh, &r->nr_trend);
		r->trend_metric = xstrdup(bh.r.metric);
	}
	bisect_history_free(&bh);
	free(tree);
}

struct flame_ctx {
	struct kab_flame *f;
	int side;
};

static int flame_stack(void *arg, int64_t run_id, const char *event,
		       const char *stack, uint64_t samples)
{
	struct flame_ctx *c = arg;

	(void)run_id;
	/* one event a graph: the first run's */
	if (!c->f->event)
		c->f->event = xstrdup(event);
	if (!strcmp(c->f->event, event))
		kab_flame_add(c->f, c->side, stack, samples);
	return 0;
}

/*
 * The main job's profile stacks, every run of each side pooled, for the
 * differential flame graph; none when a side has none.
 */
static void add_flame(struct kab_db *db, struct report *r)
{
	const struct cmp_table *t = report_main(r)->t;
	struct kab_err err;
	int side;
	size_t i;

	for (side = 0; side < 2; side++) {
		const struct side_runs *s = &t->runs[side];
		struct flame_ctx c = { &r->flame, side };
		int64_t *ids = xcalloc(s->nr + 1, sizeof(*ids));

		for (i = 0; i < s->nr; i++) {
			uint64_t total;

			ids[i] = s->v[i]->id;
			if (!kab_db_stacks_total(db, ids[i], &total, &err))
				r->flame.total[side] += total;
		}
		if (kab_db_stacks_foreach(db, ids, s->nr, flame_stack, &c,
					  &err))
			r->flame.total[side] = 0;
		free(ids);
	}
	r->has_flame = r->flame.total[0] && r->flame.total[1] &&
		       r->flame.root.count[0] && r->flame.root.count[1];
	kab_flame_finish(&r->flame);
}

int report_build(struct kab_db *db, const char *base, const char *head,
		 const struct report_opts *o, struct report *r,
		 struct kab_err *err)
{
	char *specs[2] = { (char *)base, (char *)head };
	struct kab_run brun = { 0 }, hrun = { 0 };
	struct kab_compare_opts c;
	struct report_job *m;
	size_t i;
	int rc;

	memset(r, 0, sizeof(*r));
	r->base_spec = base;
	r->head_spec = head;
	r->reported_by = o->reported_by;
	r->trailers = o->trailers;
	r->nr_trailers = o->nr_trailers;
	c = o->c;
	c.kpi = &o->kpi;
	c.nr_kpi = o->kpi ? 1 : 0;
	rc = cmp_set_build(db, specs, 2, &c, &o->sel, &r->set, err);
	if (rc)
		return rc;
	r->nr = r->set.nr;
	r->job = xcalloc(r->nr, sizeof(*r->job));
	for (i = 0; i < r->nr; i++) {
		struct report_job *j = &r->job[i];

		j->t = &r->set.t[i];
		name_sides(db, &r->set.t[i]);
		j->kpi = cmp_table_kpi(j->t, o->kpi);
		if (get_run(db, j->t->runs[1].v[0]->id, &hrun, err))
			return KAB_MODEL_FAILED;
		rc = job_facts(db, j, &hrun, err);
		kab_run_free(&hrun);
		if (rc)
			return rc;
	}
	judge_jobs(r, o->kpi);
	r->main = pick_main(r);
	if (r->main == r->nr && o->kpi)
		return model_err(err, KAB_MODEL_REFUSED, "no job of %s and %s "
				 "has the metric %s: 'kab compare --all %s %s' "
				 "lists them", base, head, o->kpi, base, head);
	if (r->main == r->nr)
		return model_err(err, KAB_MODEL_REFUSED, "no job of %s and %s "
				 "has a KPI kab knows: name one with --kpi "
				 "METRIC", base, head);
	m = &r->job[r->main];
	if (get_run(db, m->t->runs[0].v[0]->id, &brun, err) ||
	    get_run(db, m->t->runs[1].v[0]->id, &hrun, err)) {
		kab_run_free(&brun);
		return KAB_MODEL_FAILED;
	}
	head_lines(db, r, m, &brun, &hrun);
	make_subject(db, r, o);
	r->reproduce = wrap_block(reproduce(r, m, &brun, &hrun));
	add_trend(db, r, o);
	add_flame(db, r);
	kab_run_free(&brun);
	kab_run_free(&hrun);
	return 0;
}

void report_free(struct report *r)
{
	size_t i;

	for (i = 0; i < r->nr; i++) {
		free(r->job[i].testcase);
		free(r->job[i].machine);
		free(r->job[i].target);
		kab_run_facts_free(&r->job[i].facts);
	}
	free(r->job);
	free(r->subject);
	free(r->head_line);
	free(r->base_line);
	free(r->compiler);
	free(r->config);
	free(r->reproduce);
	free(r->preface);
	bisect_trend_free(r->trend, r->nr_trend);
	free(r->trend_metric);
	kab_flame_free(&r->flame);
	cmp_set_free(&r->set);
	memset(r, 0, sizeof(*r));
}
