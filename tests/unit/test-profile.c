// SPDX-License-Identifier: GPL-2.0
/*
 * test-profile.c - the perf-profile monitor: lkp's shares from known
 * call chains, lkp's symbol names, /proc/kallsyms read and looked up
 * (also against the running kernel), ELF symbols (this program's own,
 * its PLT, a stripped libc), and the monitor itself sampling a process
 * that faults pages on this machine.
 */
#include <math.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <time.h>

#include "test.h"
#include "../../runner/runner.h"

extern const struct kab_monitor kab_monitor_profile;

static double get(const struct kab_metrics *m, const char *name)
{
	const struct kab_metric *x = kab_metrics_find(m, name);

	return x ? x->value : NAN;
}

static void test_shares(void **state)
{
	/* leaf first: clear_page from a huge fault, twice; idle once */
	const char *a[] = { "clear_page_erms", "clear_huge_page",
			    "do_huge_pmd_anonymous_page", "handle_mm_fault",
			    "do_user_addr_fault", "exc_page_fault",
			    "asm_exc_page_fault", "[unknown]" };
	const char *b[] = { "default_idle", "do_idle", "cpu_startup_entry" };
	/* recursion counts once a sample */
	const char *c[] = { "f", "g", "f", "g", "f" };
	struct kab_profile *p = kab_profile_new("cpu-clock");
	struct kab_metrics m = { 0 };

	kab_profile_add(p, a, ARRAY_SIZE(a));
	kab_profile_add(p, a, ARRAY_SIZE(a));
	kab_profile_add(p, b, ARRAY_SIZE(b));
	kab_profile_add(p, c, ARRAY_SIZE(c));
	assert_int_equal(kab_profile_samples(p), 4);
	kab_profile_metrics(p, 0.05, &m);
	assert_true(get(&m, "perf-profile.self.cpu-clock.clear_page_erms") == 50);
	assert_true(get(&m, "perf-profile.children.cpu-clock.clear_page_erms") == 50);
	assert_true(get(&m, "perf-profile.children.cpu-clock.handle_mm_fault") == 50);
	assert_true(isnan(get(&m, "perf-profile.self.cpu-clock.handle_mm_fault")));
	assert_true(get(&m, "perf-profile.self.cpu-clock.default_idle") == 25);
	assert_true(get(&m, "perf-profile.children.cpu-clock.f") == 25);
	assert_true(get(&m, "perf-profile.children.cpu-clock.g") == 25);
	/* a function with its four nearest callers, as lkp's calltrace */
	assert_true(get(&m, "perf-profile.calltrace.cpu-clock.clear_page_erms."
			"clear_huge_page.do_huge_pmd_anonymous_page."
			"handle_mm_fault.do_user_addr_fault") == 50);
	assert_true(get(&m, "perf-profile.calltrace.cpu-clock.asm_exc_page_fault."
			"[unknown]") == 50);
	assert_true(get(&m, "perf-profile.calltrace.cpu-clock.do_idle."
			"cpu_startup_entry") == 25);
	/* f.g.f.g.f and g.f.g.f: the first f's window, then g's, once */
	assert_true(get(&m, "perf-profile.calltrace.cpu-clock.f.g.f.g.f") == 25);
	assert_true(get(&m, "perf-profile.calltrace.cpu-clock.g.f.g.f") == 25);
	assert_true(get(&m, "perf-profile.calltrace.cpu-clock.f.g.f") == 25);
	kab_metrics_free(&m);

	/* under the threshold: gone */
	kab_profile_metrics(p, 30, &m);
	assert_true(isnan(get(&m, "perf-profile.self.cpu-clock.default_idle")));
	assert_true(get(&m, "perf-profile.self.cpu-clock.clear_page_erms") == 50);
	kab_metrics_free(&m);
	kab_profile_free(p);
}

static void test_stacks(void **state)
{
	const char *a[] = { "clear_page_erms", "clear_huge_page",
			    "asm_exc_page_fault", "[unknown]" };
	const char *b[] = { "default_idle", "do_idle" };
	struct kab_profile *p = kab_profile_new("cpu-clock");
	struct kab_stacks s = { 0 };
	const char *deep[200];
	char *long_stack;
	int i;

	for (i = 0; i < 3; i++)
		kab_profile_add(p, a, ARRAY_SIZE(a));
	kab_profile_add(p, b, ARRAY_SIZE(b));
	/* 200 frames of 9 bytes: more than KAB_STACK_MAX folded */
	for (i = 0; i < 200; i++)
		deep[i] = i ? "caller_xx" : "the_leaf_";
	kab_profile_add(p, deep, 200);
	kab_profile_stacks(p, 0.05, &s);
	assert_string_equal(s.event, "cpu-clock");
	assert_int_equal(s.samples, 5);
	assert_int_equal(s.nr, 3);
	/* root first, the most sampled first */
	assert_string_equal(s.stack[0], "[unknown];asm_exc_page_fault;"
			    "clear_huge_page;clear_page_erms");
	assert_int_equal(s.n[0], 3);
	long_stack = s.stack[1][0] == 'c' ? s.stack[1] : s.stack[2];
	assert_true(strlen(long_stack) < KAB_STACK_MAX);
	assert_true(kab_stack_ok(long_stack));
	/* too deep: what is kept is the root's end, without the leaf */
	assert_null(strstr(long_stack, "the_leaf_"));
	for (i = 0; i < (int)s.nr; i++)
		assert_true(kab_stack_ok(s.stack[i]));
	kab_stacks_free(&s);
	{
		/* what a frame cannot hold, as a C++ runtime's names have */
		char longname[300];
		const char *cxx[] = { "operator new(unsigned long)", longname,
				      "a;b,c" };

		memset(longname, 'z', sizeof(longname) - 1);
		longname[sizeof(longname) - 1] = '\0';
		for (i = 0; i < 20; i++)
			kab_profile_add(p, cxx, ARRAY_SIZE(cxx));
		kab_profile_stacks(p, 0.05, &s);
		assert_int_equal(strncmp(s.stack[0], "a_b_c;zzz", 9), 0);
		assert_non_null(strstr(s.stack[0],
				       ";operator_new(unsigned_long)"));
		assert_int_equal(strcspn(s.stack[0] + 6, ";"), KAB_FRAME_MAX);
		for (i = 0; i < (int)s.nr; i++)
			assert_true(kab_stack_ok(s.stack[i]));
		kab_stacks_free(&s);
	}
	/* a stack under min_pct is left out */
	kab_profile_stacks(p, 25, &s);
	assert_int_equal(s.nr, 1);
	kab_stacks_free(&s);
	kab_profile_free(p);

	assert_false(kab_stack_ok(""));
	assert_false(kab_stack_ok("a;;b"));
	assert_false(kab_stack_ok("a;b;"));
	assert_false(kab_stack_ok("a b;c"));
	assert_false(kab_stack_ok("a;\x1b[2J"));
	assert_true(kab_stack_ok("[unknown];strcmp@plt"));
}

static void test_long_chain_names(void **state)
{
	char longname[120];
	const char *chain[5];
	struct kab_profile *p = kab_profile_new("cycles-pp");
	struct kab_metrics m = { 0 };
	int i;

	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	for (i = 0; i < 5; i++)
		chain[i] = i == 2 ? longname : "caller";
	kab_profile_add(p, chain, 5);
	kab_profile_metrics(p, 0.05, &m);
	/* every name a valid metric name, the long chains cut short */
	for (i = 0; i < m.nr; i++) {
		assert_true(kab_metric_name_valid(m.v[i].name));
		assert_true(strlen(m.v[i].name) <= 200);
	}
	assert_true(get(&m, "perf-profile.calltrace.cycles-pp.caller.caller") == 100);
	kab_metrics_free(&m);
	kab_profile_free(p);
}

static void test_fixup(void **state)
{
	static const char *const cases[][2] = {
		{ "clear_page_erms", "clear_page_erms" },
		{ "shrink_folio_list.isra.0", "shrink_folio_list" },
		{ "pte_alloc_one.constprop.12", "pte_alloc_one" },
		{ "memcg_check_events.part.0", "memcg_check_events" },
		{ "do_syscall_64.cold", "do_syscall_64" },
		{ "a.constprop.0.isra.0", "a" },
		{ "bad name,\"x\"", "bad_name__x_" },
		{ ".isra.0", ".isra.0" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		char *s = kab_profile_symbol_fixup(cases[i][0]);

		assert_string_equal(s, cases[i][1]);
		free(s);
	}
}

static void test_kallsyms(void **state)
{
	struct kab_ksyms *k;
	struct strbuf sb = STRBUF_INIT;

	k = kab_ksyms_parse("ffffffff81000000 T _stext\n"
			    "ffffffff81001000 t clear_page_erms\n"
			    "ffffffff81002000 D some_data\n"
			    "ffffffff81003000 T handle_mm_fault\n"
			    "ffffffff81003800 t shrink_folio_list.isra.0\n"
			    "ffffffffc0000000 t ext4_fill_super\t[ext4]\n"
			    "garbage line\n"
			    "ffffffff81004000\n");
	assert_non_null(k);
	assert_null(kab_ksyms_lookup(k, 0xffffffff80ffffffULL));
	assert_string_equal(kab_ksyms_lookup(k, 0xffffffff81001010ULL),
			    "clear_page_erms");
	/* data symbols are not functions: the text before them owns it */
	assert_string_equal(kab_ksyms_lookup(k, 0xffffffff81002010ULL),
			    "clear_page_erms");
	assert_string_equal(kab_ksyms_lookup(k, 0xffffffff81003900ULL),
			    "shrink_folio_list");
	assert_string_equal(kab_ksyms_lookup(k, 0xffffffffc0000100ULL),
			    "ext4_fill_super");
	kab_ksyms_free(k);
	/* kptr_restrict: every address 0, nothing to look up with */
	assert_null(kab_ksyms_parse("0000000000000000 T _stext\n"
				    "0000000000000000 t clear_page_erms\n"));
	assert_null(kab_ksyms_parse(""));

	/* the running kernel's, when this process may see the addresses */
	if (read_file("/proc/kallsyms", &sb, NULL) == 0) {
		k = kab_ksyms_parse(sb.buf);
		if (k) {
			char line[512], *p = strstr(sb.buf, " T do_sys_open");

			if (!p)
				p = strstr(sb.buf, " T __x64_sys_openat");
			assert_non_null(p);
			while (p > sb.buf && p[-1] != '\n')
				p--;
			snprintf(line, sizeof(line), "%.*s",
				 (int)strcspn(p, "\n"), p);
			assert_string_equal(kab_ksyms_lookup(k,
				strtoull(line, NULL, 16) + 1),
				strchr(strchr(line, ' ') + 1, ' ') + 1);
			kab_ksyms_free(k);
		}
	}
	strbuf_release(&sb);
}

/* Where an address of this process lies: its file and file offset. */
static bool self_map(uintptr_t addr, char *path, size_t n, uint64_t *off)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[1024];
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f)) {
		unsigned long long a, b, o;
		int used = 0;

		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %n", &a, &b, &o,
			   &used) >= 3 && addr >= a && addr < b && used) {
			snprintf(path, n, "%s", line + used);
			path[strcspn(path, "\n")] = '\0';
			*off = addr - a + o;
			found = true;
		}
	}
	if (f)
		fclose(f);
	return found;
}

static const char *name_of(struct kab_elfsyms *e, uint64_t off)
{
	uint64_t vaddr;

	assert_true(kab_elfsyms_vaddr(e, off, &vaddr));
	return kab_elfsyms_lookup(e, vaddr);
}

static void test_elfsyms(void **state)
{
	char path[512], line[1200], name[256];
	struct kab_elfsyms *e;
	uint64_t off;
	int plts = 0;
	FILE *f;

	/* this PIE program's own static function, through its mapping */
	assert_true(self_map((uintptr_t)test_fixup, path, sizeof(path),
			     &off));
	e = kab_elfsyms_load(path);
	assert_non_null(e);
	assert_string_equal(name_of(e, off), "test_fixup");
	assert_string_equal(name_of(e, off + 5), "test_fixup");
	/* PLT entries by perf's names: objdump says where they are */
	snprintf(line, sizeof(line), "objdump -d -j .plt.sec %s 2>/dev/null; "
		 "objdump -d -j .plt %s 2>/dev/null", path, path);
	f = popen(line, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long at;

		/* entries, not the PLT's header (<first@plt-0x10>) */
		if (sscanf(line, "%llx <%255[^>]>:", &at, name) == 2 &&
		    strstr(name, "@plt") && !strpbrk(name, "+-")) {
			assert_string_equal(kab_elfsyms_lookup(e, at), name);
			plts++;
		}
	}
	pclose(f);
	assert_true(plts > 3);
	kab_elfsyms_free(e);

	/* a stripped library (libc: .dynsym only) */
	assert_true(self_map((uintptr_t)&malloc, path, sizeof(path), &off));
	e = kab_elfsyms_load(path);
	assert_non_null(e);
	assert_non_null(strstr(name_of(e, off), "malloc"));
	kab_elfsyms_free(e);

	/*
	 * A program not built as PIE (its code at 0x401000, from file
	 * offset 0x1000) with IBT's .plt.sec, compiled here: names by file
	 * offset, as a mapping gives them, the way objdump -F says.
	 */
	{
		char dir[] = "/tmp/kab-elf.XXXXXX", cmd[1024];
		unsigned long long at, fo;
		int spins = 0, secs = 0;

		assert_non_null(mkdtemp(dir));
		snprintf(cmd, sizeof(cmd), "printf '%%s\\n' '#include <stdio.h>' "
			 "'#include <string.h>' 'int spin(int n) { int s = 0; "
			 "for (int i = 0; i < n; i++) s += i; return s; }' "
			 "'int main(int c, char **v) { puts(v[0]); return "
			 "strcmp(v[0], \"x\") + spin(c); }' >%s/x.c && cc -O0 "
			 "-no-pie -fcf-protection=full -Wl,-z,ibtplt -o %s/x "
			 "%s/x.c", dir, dir, dir);
		assert_int_equal(system(cmd), 0);
		snprintf(path, sizeof(path), "%s/x", dir);
		e = kab_elfsyms_load(path);
		assert_non_null(e);
		snprintf(cmd, sizeof(cmd), "objdump -d -F %s", path);
		f = popen(cmd, "r");
		assert_non_null(f);
		while (fgets(line, sizeof(line), f)) {
			if (sscanf(line, "%llx <%255[^>]> (File Offset: %llx):",
				   &at, name, &fo) != 3)
				continue;
			if (!strcmp(name, "spin")) {
				assert_true(at != fo);
				assert_string_equal(name_of(e, fo), "spin");
				assert_string_equal(name_of(e, fo + 3), "spin");
				spins++;
			} else if (strstr(name, "@plt") &&
				   !strpbrk(name, "+-")) {
				assert_string_equal(name_of(e, fo), name);
				secs++;
			}
		}
		pclose(f);
		assert_int_equal(spins, 1);
		assert_int_equal(secs, 2);	/* puts@plt, strcmp@plt */
		kab_elfsyms_free(e);
		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		assert_int_equal(system(cmd), 0);
	}

	/* what is not an ELF file, or not there */
	assert_null(kab_elfsyms_load("/etc/passwd"));
	assert_null(kab_elfsyms_load("/nonexistent"));
}

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The monitor for real: a child that faults pages in and out. */
static void test_monitor_live(void **state)
{
	struct kab_err err = { { 0 } };
	double t0;
	struct kab_monitor_state *st;
	struct kab_metrics m = { 0 };
	int go[2], i, status;
	pid_t pid;
	char c;

	assert_int_equal(pipe(go), 0);
	pid = fork();
	if (pid == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) < 0)
			_exit(1);
		/*
		 * 1.5 s of its own CPU time, however busy the machine:
		 * the samples count that, not the wall clock
		 */
		for (t0 = now_mono(); cpu_seconds() < 1.5 &&
		     now_mono() - t0 < 120;) {
			char *p = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			for (i = 0; i < 1 << 20; i += 4096)
				p[i] = 1;
			munmap(p, 1 << 20);
		}
		_exit(0);
	}
	close(go[0]);
	st = kab_monitor_profile.start(pid, &err);
	if (!st) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		print_message("%s\n", err.msg);
		skip();
	}
	assert_int_equal(write(go[1], "g", 1), 1);
	close(go[1]);
	t0 = now_mono();
	do {
		usleep(700000);
		kab_monitor_profile.tick(st);
	} while (!waitpid(pid, &status, WNOHANG));
	kab_monitor_profile.stop(st, now_mono() - t0, &m, NULL);
	assert_true(get(&m, "perf-profile.samples") > 100);
	assert_true(get(&m, "perf-profile.lost_samples") == 0);
	/* the child's own function by its name, from this ELF file */
	{
		double self_fn = NAN;

		for (i = 0; i < m.nr; i++)
			if (strstr(m.v[i].name, "perf-profile.children.") &&
			    strstr(m.v[i].name, ".test_monitor_live"))
				self_fn = m.v[i].value;
		assert_true(self_fn > 20);
	}
	/* the page faults are there, by their kernel names */
	{
		bool faults = false;

		for (i = 0; i < m.nr; i++) {
			assert_true(kab_metric_name_valid(m.v[i].name));
			/*
			 * handle_mm_fault, or where a hypervisor that delivers
			 * the timer only as interrupts come back on (PVM)
			 * lands the samples: the fault's entry
			 */
			if (strstr(m.v[i].name, "perf-profile.children.") &&
			    (strstr(m.v[i].name, "handle_mm_fault") ||
			     strstr(m.v[i].name, ".do_user_addr_fault") ||
			     strstr(m.v[i].name, ".exc_page_fault")) &&
			    m.v[i].value > 5)
				faults = true;
		}
		if (!faults || getenv("KAB_SHOW_PROFILE"))
			for (i = 0; i < m.nr; i++)
				if (m.v[i].value > 2)
					print_message("%s %.2f\n", m.v[i].name,
						      m.v[i].value);
		assert_true(faults);
	}
	kab_metrics_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shares),
		cmocka_unit_test(test_stacks),
		cmocka_unit_test(test_long_chain_names),
		cmocka_unit_test(test_fixup),
		cmocka_unit_test(test_kallsyms),
		cmocka_unit_test(test_elfsyms),
		cmocka_unit_test(test_monitor_live),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
