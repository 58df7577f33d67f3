// SPDX-License-Identifier: GPL-2.0
/*
 * monitor-profile.c - the perf-profile monitor, through perf_event_open()
 * and its mmap ring buffers: no perf binary, nothing written to disk.
 *
 * Every online CPU is sampled, as lkp's perf record -a does: on the
 * cycles event when the machine has a PMU (precise when it can:
 * "cycles-pp"), else on the cpu-clock software event (QEMU TCG, most
 * VMs), with kernel and user call chains.  The buffers are read at every
 * tick of the agent (each second) and at the end; kernel addresses are
 * named through /proc/kallsyms, user ones through the process's
 * executable mappings (read when the process is first seen in a
 * sample) and the ELF symbols of the mapped files.  A
 * process that may not watch every CPU watches the workload and what it
 * forks instead, and says so.
 */
#include <ctype.h>
#include <errno.h>
#include <sched.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runner.h"

#define DATA_PAGES	256		/* per CPU: 1 MiB, > a second's */
#define MAX_CPUS	256
#define MAX_STACK	256		/* frames kept of a chain */
#define MIN_PCT		0.05		/* lkp keeps rows from 0.05% */

struct ring {
	int fd;
	struct perf_event_mmap_page *meta;
	char *data;
	size_t size;			/* of data, a power of two */
};

/*
 * While the workload runs, samples are only copied out of the rings
 * (nr, then nr addresses, for each): naming them costs time the
 * workload would share, under TCG above all.  At most RAW_MAX words.
 */
#define RAW_MAX		(64u << 20 >> 3)
#define MAX_PROCS	4096

/* A sampled process's executable mappings, read when first seen. */
struct pmap {
	uint64_t start, end, pgoff;
	char *path;
	char *label;	/* "[libc.so.6]": a frame in it without a symbol */
};

struct proc_maps {
	int pid;
	size_t nr;
	struct pmap *m;
};

struct elf_cache {
	char *path;
	struct kab_elfsyms *syms;	/* NULL: not an ELF we can read */
};

struct kab_monitor_state {
	int nr;
	struct ring r[MAX_CPUS];
	const char *event;
	struct proc_maps *procs;
	size_t nr_procs;
	int new_pids[64];
	size_t nr_new;
	uint64_t *raw;
	size_t raw_nr, raw_alloc;
	uint64_t lost;
	char *rec;			/* one record, unwrapped */
	size_t rec_size;
};

/* Hz: lkp's perf-profile default unless --monitors perf-profile=HZ */
static int profile_freq = KAB_PROFILE_FREQ;

/*
 * What is sampled: in a guest kab owns, every CPU (kernel threads the
 * workload wakes count, as lkp samples them); on a machine others use
 * (here, over ssh), the workload's processes, or a neighbour's compiler
 * fills the profile.
 */
static bool profile_machine;

void kab_profile_set_machine(bool whole)
{
	profile_machine = whole;
}

void kab_profile_set_freq(int hz)
{
	if (hz >= KAB_PROFILE_FREQ_MIN && hz <= KAB_PROFILE_FREQ_MAX)
		profile_freq = hz;
}

static int open_one(uint32_t type, uint64_t config, int precise, pid_t pid,
		    int cpu)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.freq = 1;
	attr.sample_freq = profile_freq;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			   PERF_SAMPLE_CALLCHAIN;
	attr.precise_ip = precise;
	attr.disabled = 1;
	attr.exclude_hv = 1;
	attr.inherit = pid > 0;
	return syscall(SYS_perf_event_open, &attr, pid, cpu, -1,
		       PERF_FLAG_FD_CLOEXEC);
}

/* The first CPU's event decides the event and the scope of them all. */
struct choice {
	uint32_t type;
	uint64_t config;
	int precise;
	const char *name;
};

static int open_first(pid_t *pid, int cpu, struct choice *c,
		      struct kab_err *note)
{
	static const struct choice tries[] = {
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 2, "cycles-pp" },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 1, "cycles-pp" },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0, "cycles" },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, 0, "cpu-clock" },
	};
	pid_t scopes[] = { -1, *pid };
	size_t s, i;

	/* not our machine: the workload's processes, and nothing else */
	if (!profile_machine) {
		scopes[0] = *pid;
		scopes[1] = *pid;
	}
	int fd, first_errno = 0;

	for (s = 0; s < ARRAY_SIZE(scopes); s++)
		for (i = 0; i < ARRAY_SIZE(tries); i++) {
			fd = open_one(tries[i].type, tries[i].config,
				      tries[i].precise, scopes[s], cpu);
			if (fd >= 0) {
				*c = tries[i];
				*pid = scopes[s];
				if (s && profile_machine)
					kab_err_set(note, "perf-profile: "
						    "cannot sample every CPU "
						    "(%s): the workload's "
						    "processes only",
						    strerror(first_errno));
				return fd;
			}
			if (!first_errno)
				first_errno = errno;
		}
	kab_err_set(note, "perf-profile: perf_event_open: %s: no "
		    "perf-profile.* metrics (a kernel without "
		    "CONFIG_PERF_EVENTS, or perf_event_paranoid)",
		    strerror(first_errno));
	return -1;
}

static int map_ring(struct ring *r, int fd)
{
	size_t page = sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, (1 + DATA_PAGES) * page, PROT_READ | PROT_WRITE,
		       MAP_SHARED, fd, 0);

	if (p == MAP_FAILED)
		return -1;
	r->fd = fd;
	r->meta = p;
	r->data = (char *)p + page;
	r->size = DATA_PAGES * page;
	return 0;
}

static void unmap_ring(struct ring *r)
{
	munmap(r->meta, r->size + sysconf(_SC_PAGESIZE));
	close(r->fd);
}

/*
 * Kernel addresses need kallsyms' real values: as root (PID 1 in a
 * guest, or on a test machine) kab lowers kptr_restrict if it hides
 * them.
 */
static struct kab_ksyms *load_ksyms(void)
{
	/* read once an agent: a big kernel's list takes a while in TCG */
	static struct kab_ksyms *k;
	static bool tried;
	struct strbuf sb = STRBUF_INIT;

	if (tried)
		return k;
	tried = true;
	if (!read_file("/proc/kallsyms", &sb, NULL))
		k = kab_ksyms_parse(sb.buf);
	if (!k && !geteuid()) {
		FILE *f = fopen("/proc/sys/kernel/kptr_restrict", "w");

		if (f) {
			fputs("0\n", f);
			fclose(f);
		}
		strbuf_reset(&sb);
		if (!read_file("/proc/kallsyms", &sb, NULL))
			k = kab_ksyms_parse(sb.buf);
	}
	strbuf_release(&sb);
	return k;
}

static struct kab_monitor_state *profile_start(pid_t child,
					       struct kab_err *err)
{
	struct kab_monitor_state *st;
	struct choice c = { .name = "cpu-clock" };
	cpu_set_t online;
	struct strbuf sb = STRBUF_INIT;
	pid_t pid = child;
	int cpu, fd, first = 1;

	if (read_file("/sys/devices/system/cpu/online", &sb, NULL) ||
	    kab_parse_cpulist(strtok(sb.buf, "\n") ? sb.buf : "", &online,
			      NULL)) {
		CPU_ZERO(&online);
		for (cpu = 0; cpu < kab_nr_cpus() && cpu < MAX_CPUS; cpu++)
			CPU_SET(cpu, &online);
	}
	strbuf_release(&sb);
	st = xcalloc(1, sizeof(*st));
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		if (!CPU_ISSET(cpu, &online))
			continue;
		if (first) {
			fd = open_first(&pid, cpu, &c, err);
			first = 0;
		} else {
			fd = open_one(c.type, c.config, c.precise, pid, cpu);
		}
		if (fd < 0 && st->nr == 0)
			goto fail;
		if (fd < 0)
			continue;	/* a CPU gone since: the rest go on */
		if (map_ring(&st->r[st->nr], fd)) {
			kab_err_set(err, "perf-profile: mmap: %s",
				    strerror(errno));
			close(fd);
			goto fail;
		}
		st->nr++;
	}
	if (!st->nr)
		goto fail;
	st->event = c.name;
	if (!load_ksyms() && !err->msg[0])
		kab_err_set(err, "perf-profile: /proc/kallsyms shows no "
			    "addresses: kernel functions are [unknown]");
	for (cpu = 0; cpu < st->nr; cpu++)
		ioctl(st->r[cpu].fd, PERF_EVENT_IOC_ENABLE, 0);
	return st;
fail:
	while (st->nr)
		unmap_ring(&st->r[--st->nr]);
	free(st);
	return NULL;
}

static struct proc_maps *find_proc(struct kab_monitor_state *st, int pid)
{
	size_t i;

	for (i = 0; i < st->nr_procs; i++)
		if (st->procs[i].pid == pid)
			return &st->procs[i];
	return NULL;
}

/* A pid not seen before: its maps are read after this drain. */
static void note_pid(struct kab_monitor_state *st, int pid)
{
	size_t i;

	if (pid <= 0 || find_proc(st, pid))
		return;
	for (i = 0; i < st->nr_new; i++)
		if (st->new_pids[i] == pid)
			return;
	if (st->nr_new < ARRAY_SIZE(st->new_pids))
		st->new_pids[st->nr_new++] = pid;
}

/*
 * "[libc.so.6]" for a file's frames without a symbol; a metric name
 * takes no space, comma or quote, so anything odd becomes _.
 */
static char *file_label(const char *base)
{
	char *l = xasprintf("[%s]", *base ? base : "?");
	char *c;

	for (c = l + 1; c[1]; c++)
		if (!isalnum((unsigned char)*c) && !strchr("._+-", *c))
			*c = '_';
	return l;
}

/* "start-end perms offset dev inode path": the executable ones. */
static void read_maps(struct kab_monitor_state *st, int pid)
{
	struct strbuf sb = STRBUF_INIT;
	struct proc_maps *p;
	char path[64];
	const char *line;

	if (st->nr_procs >= MAX_PROCS)
		return;
	st->procs = xrealloc(st->procs, (st->nr_procs + 1) *
				      sizeof(*st->procs));
	p = &st->procs[st->nr_procs++];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	if (read_file(path, &sb, NULL))
		return;		/* gone already: its frames stay unknown */
	for (line = sb.buf; *line;) {
		const char *nl = strchrnul(line, '\n'), *file;
		unsigned long long a, b, off;
		char perms[5];
		int used = 0;

		if (sscanf(line, "%llx-%llx %4s %llx %*s %*s%n", &a, &b, perms,
			   &off, &used) == 4 && perms[2] == 'x' &&
		    line + used < nl) {
			for (file = line + used; file < nl && *file == ' ';
			     file++)
				;
			if (*file == '/') {
				p->m = xrealloc(p->m, (p->nr + 1) *
						      sizeof(*p->m));
				char *path = xstrndup(file, nl - file);
				const char *base = strrchr(path, '/') + 1;

				p->m[p->nr++] = (struct pmap){
					a, b, off, path, file_label(base) };
			}
		}
		line = *nl ? nl + 1 : nl;
	}
	strbuf_release(&sb);
}

/* One PERF_RECORD_SAMPLE: ip, pid/tid, then nr and nr addresses. */
static void keep_sample(struct kab_monitor_state *st, const char *body,
			size_t len)
{
	uint64_t nr;

	if (len < 3 * sizeof(uint64_t))
		return;
	memcpy(&nr, body + 2 * sizeof(uint64_t), sizeof(nr));
	if (nr > (len - 3 * sizeof(uint64_t)) / sizeof(uint64_t))
		return;
	if (nr > MAX_STACK)
		nr = MAX_STACK;
	if (st->raw_nr + 2 + nr > RAW_MAX) {
		st->lost++;
		return;
	}
	if (st->raw_nr + 2 + nr > st->raw_alloc) {
		st->raw_alloc = st->raw_alloc ? 2 * st->raw_alloc : 1 << 16;
		st->raw = xrealloc(st->raw, st->raw_alloc * sizeof(*st->raw));
	}
	{
		uint32_t pid;

		memcpy(&pid, body + sizeof(uint64_t), sizeof(pid));
		note_pid(st, (int)pid);
		st->raw[st->raw_nr++] = nr;
		st->raw[st->raw_nr++] = pid;
	}
	memcpy(st->raw + st->raw_nr, body + 3 * sizeof(uint64_t),
	       nr * sizeof(uint64_t));
	st->raw_nr += nr;
}

/* The ELF functions of path, read once a profile. */
static struct kab_elfsyms *elf_of(struct elf_cache **cache, size_t *nr,
				  const char *path)
{
	size_t i;

	for (i = 0; i < *nr; i++)
		if (!strcmp((*cache)[i].path, path))
			return (*cache)[i].syms;
	*cache = xrealloc(*cache, (*nr + 1) * sizeof(**cache));
	(*cache)[*nr].path = xstrdup(path);
	(*cache)[*nr].syms = kab_elfsyms_load(path);
	return (*cache)[(*nr)++].syms;
}

/*
 * A user address of process p by its function's name; by its file's
 * ("[libc.so.6]") when that has no symbol for it; NULL outside every
 * mapped file (JIT code, a process gone before its maps were read).
 */
static const char *user_name(struct proc_maps *p, uint64_t ip,
			     struct elf_cache **cache, size_t *nr)
{
	struct kab_elfsyms *e;
	const char *name;
	uint64_t vaddr;
	size_t i;

	if (!p)
		return NULL;
	for (i = 0; i < p->nr; i++)
		if (ip >= p->m[i].start && ip < p->m[i].end)
			break;
	if (i == p->nr)
		return NULL;
	e = elf_of(cache, nr, p->m[i].path);
	if (!e || !kab_elfsyms_vaddr(e, ip - p->m[i].start + p->m[i].pgoff,
				     &vaddr))
		return p->m[i].label;
	name = kab_elfsyms_lookup(e, vaddr);
	return name ? name : p->m[i].label;
}

/* Every kept sample by its functions' names, into prof. */
static void name_samples(struct kab_monitor_state *st,
			 const struct kab_ksyms *ksyms,
			 struct kab_profile *prof)
{
	const char *names[MAX_STACK];
	struct elf_cache *cache = NULL;
	size_t at = 0, nr_cache = 0, k;

	while (at + 2 <= st->raw_nr) {
		uint64_t nr = st->raw[at], i, ctx = PERF_CONTEXT_KERNEL;
		struct proc_maps *p = find_proc(st, (int)st->raw[at + 1]);
		const uint64_t *ips = st->raw + at + 2;
		size_t n = 0;

		for (i = 0; i < nr && n < MAX_STACK; i++) {
			const char *name;

			if (ips[i] >= PERF_CONTEXT_MAX) {
				ctx = ips[i];
				continue;
			}
			name = ctx == PERF_CONTEXT_KERNEL ?
			       kab_ksyms_lookup(ksyms, ips[i]) :
			       ctx == PERF_CONTEXT_USER ?
			       user_name(p, ips[i], &cache, &nr_cache) : NULL;
			if (!name)
				name = "[unknown]";
			/* frames of one unknown stretch (or file's) are one */
			if (n && names[n - 1] == name && name[0] == '[')
				continue;
			names[n++] = name;
		}
		kab_profile_add(prof, names, n);
		at += 2 + nr;
	}
	for (k = 0; k < nr_cache; k++) {
		free(cache[k].path);
		kab_elfsyms_free(cache[k].syms);
	}
	free(cache);
}

static void drain(struct kab_monitor_state *st, struct ring *r)
{
	uint64_t head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->meta->data_tail;

	while (tail + sizeof(struct perf_event_header) <= head) {
		struct perf_event_header h;
		size_t off = tail & (r->size - 1), i;

		for (i = 0; i < sizeof(h); i++)
			((char *)&h)[i] = r->data[(off + i) & (r->size - 1)];
		if (h.size < sizeof(h) || tail + h.size > head)
			break;
		if (st->rec_size < h.size) {
			st->rec = xrealloc(st->rec, h.size);
			st->rec_size = h.size;
		}
		for (i = 0; i < h.size; i++)
			st->rec[i] = r->data[(off + i) & (r->size - 1)];
		if (h.type == PERF_RECORD_SAMPLE) {
			/* the sample's own chain names its ip first */
			keep_sample(st, st->rec + sizeof(h),
				    h.size - sizeof(h));
		} else if (h.type == PERF_RECORD_LOST &&
			   h.size >= sizeof(h) + 16) {
			uint64_t lost;

			memcpy(&lost, st->rec + sizeof(h) + 8, sizeof(lost));
			st->lost += lost;
		}
		tail += h.size;
	}
	__atomic_store_n(&r->meta->data_tail, tail, __ATOMIC_RELEASE);
}

static void profile_tick(struct kab_monitor_state *st)
{
	size_t k;
	int i;

	for (i = 0; i < st->nr; i++)
		drain(st, &st->r[i]);
	for (k = 0; k < st->nr_new; k++)
		read_maps(st, st->new_pids[k]);
	st->nr_new = 0;
}

static void profile_stop(struct kab_monitor_state *st, double elapsed,
			 struct kab_metrics *out, struct kab_stacks *stacks)
{
	struct kab_profile *prof = kab_profile_new(st->event);
	struct kab_ksyms *ksyms;
	int i;

	(void)elapsed;
	for (i = 0; i < st->nr; i++)
		ioctl(st->r[i].fd, PERF_EVENT_IOC_DISABLE, 0);
	profile_tick(st);
	for (i = 0; i < st->nr; i++)
		unmap_ring(&st->r[i]);
	ksyms = load_ksyms();
	name_samples(st, ksyms, prof);
	kab_profile_metrics(prof, MIN_PCT, out);
	if (stacks)
		kab_profile_stacks(prof, MIN_PCT, stacks);
	/* what the shares rest on, and what the buffers could not hold */
	if (kab_profile_samples(prof))
		kab_metrics_add(out, "perf-profile.samples",
				(double)kab_profile_samples(prof));
	kab_metrics_add(out, "perf-profile.lost_samples", (double)st->lost);
	kab_profile_free(prof);
	for (i = 0; i < (int)st->nr_procs; i++) {
		size_t k;

		for (k = 0; k < st->procs[i].nr; k++) {
			free(st->procs[i].m[k].path);
			free(st->procs[i].m[k].label);
		}
		free(st->procs[i].m);
	}
	free(st->procs);
	free(st->raw);
	free(st->rec);
	free(st);
}

const struct kab_monitor kab_monitor_profile = {
	.name = "perf-profile",
	.start = profile_start,
	.tick = profile_tick,
	.stop = profile_stop,
};
