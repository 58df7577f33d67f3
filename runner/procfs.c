// SPDX-License-Identifier: GPL-2.0
/*
 * procfs.c - parsers for /proc/vmstat, /proc/meminfo, /proc/interrupts
 * and /proc/softirqs, and the per-node vmstat and meminfo of
 * /sys/devices/system/node; a process's CPU time from /proc/PID/stat.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner.h"

static void kv_add(struct kab_kv *kv, const char *key, size_t klen, double v)
{
	if (kv->nr == kv->alloc) {
		kv->alloc = kv->alloc ? kv->alloc * 2 : 64;
		kv->key = xrealloc(kv->key, kv->alloc * sizeof(*kv->key));
		kv->val = xrealloc(kv->val, kv->alloc * sizeof(*kv->val));
	}
	kv->key[kv->nr] = xmalloc(klen + 1);
	memcpy(kv->key[kv->nr], key, klen);
	kv->key[kv->nr][klen] = '\0';
	kv->val[kv->nr] = v;
	kv->nr++;
}

void kab_kv_free(struct kab_kv *kv)
{
	int i;

	for (i = 0; i < kv->nr; i++)
		free(kv->key[i]);
	free(kv->key);
	free(kv->val);
	memset(kv, 0, sizeof(*kv));
}

/*
 * Both files are "name<sep>value[ kB]" lines.  Lines that do not look
 * like that are skipped: a newer kernel may add formats we do not know.
 */
static int parse_lines(const char *text, char sep, struct kab_kv *out)
{
	const char *line = text;

	while (line && *line) {
		const char *nl = strchr(line, '\n');
		const char *end = nl ? nl : line + strlen(line);
		const char *s = memchr(line, sep, end - line);

		if (s && s > line && s - line < 64) {
			char num[64];
			size_t n;
			char *e;
			double v;

			const char *p = s + 1;

			while (p < end && *p == ' ')
				p++;
			n = end - p < (long)sizeof(num) - 1 ? (size_t)(end - p) :
							     sizeof(num) - 1;
			memcpy(num, p, n);
			num[n] = '\0';
			v = strtod(num, &e);
			if (e != num && (!*e || !strcmp(e, " kB")))
				kv_add(out, line, s - line, v);
		}
		line = nl ? nl + 1 : NULL;
	}
	return out->nr ? 0 : -1;
}

int kab_parse_vmstat(const char *text, struct kab_kv *out)
{
	return parse_lines(text, ' ', out);
}

int kab_parse_meminfo(const char *text, struct kab_kv *out)
{
	return parse_lines(text, ':', out);
}

/*
 * One node's meminfo: "Node 0 MemTotal:  24579636 kB" lines, read as
 * /proc/meminfo's once the "Node <n> " in front is gone.
 */
static int parse_node_meminfo(const char *text, struct kab_kv *out)
{
	struct strbuf sb = STRBUF_INIT;
	const char *line, *nl;
	int ret;

	for (line = text; *line; line = *nl ? nl + 1 : nl) {
		const char *p = line;

		nl = strchrnul(line, '\n');
		if (!strncmp(p, "Node ", 5)) {
			p += 5;
			while (p < nl && *p >= '0' && *p <= '9')
				p++;
			while (p < nl && *p == ' ')
				p++;
		}
		strbuf_add(&sb, p, nl - p);
		strbuf_addstr(&sb, "\n");
	}
	ret = parse_lines(sb.buf ? sb.buf : "", ':', out);
	strbuf_release(&sb);
	return ret;
}

static int is_node(const struct dirent *de)
{
	const char *p = de->d_name;

	if (strncmp(p, "node", 4) || !p[4])
		return 0;
	for (p += 4; *p; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return 1;
}

int kab_read_nodes(const char *dir, const char *file, struct kab_kv *out)
{
	struct dirent **de;
	int n, i, j;

	n = scandir(dir, &de, is_node, versionsort);
	if (n < 0)
		return -1;
	/* node0, node2, ...: the numbers, holes and all, as they are */
	for (i = 0; i < n; i++) {
		struct strbuf sb = STRBUF_INIT;
		struct kab_kv one = { 0 };
		char *path = xasprintf("%s/%s/%s", dir, de[i]->d_name, file);

		if (!read_file(path, &sb, NULL) && sb.buf &&
		    !(strcmp(file, "meminfo") ?
		      kab_parse_vmstat(sb.buf, &one) :
		      parse_node_meminfo(sb.buf, &one)))
			for (j = 0; j < one.nr; j++) {
				char *k = xasprintf("%s.%s", de[i]->d_name,
						    one.key[j]);

				kv_add(out, k, strlen(k), one.val[j]);
				free(k);
			}
		kab_kv_free(&one);
		strbuf_release(&sb);
		free(path);
		free(de[i]);
	}
	free(de);
	return out->nr ? 0 : -1;
}

/* Any byte a metric name cannot hold becomes '_'. */
static void name_safe(char *s)
{
	for (; *s; s++)
		if (*s <= ' ' || *s > '~' || *s == ',' || *s == '"')
			*s = '_';
}

/*
 * /proc/interrupts and /proc/softirqs: a header of CPU names (CPU0 CPU2
 * ... with the holes of hotplug), then "NAME: count count ... [what]"
 * lines.  Each line gives CPU<n>.<key> for every CPU and <key> for
 * their sum, lkp's names: a numbered interrupt's key is
 * "<n>:<chip>.<hwirq>-<type>.<device>" (its description's fields joined
 * by '.'), a named one's "<NAME>:<Description_with_underscores>";
 * softirqs' keys are their names.  Lines with fewer counts than CPUs
 * (ERR, MIS) count as their sum.
 */
static int parse_table(const char *text, bool irq, struct kab_kv *out)
{
	const char *line = text, *nl = strchrnul(text, '\n');
	int cpus[1024], nr_cpus = 0;
	const char *p;
	struct strbuf key = STRBUF_INIT;

	/* the header: CPU names */
	for (p = line; p < nl;) {
		while (p < nl && *p == ' ')
			p++;
		if (p + 3 < nl && !strncmp(p, "CPU", 3) &&
		    nr_cpus < (int)ARRAY_SIZE(cpus)) {
			cpus[nr_cpus++] = atoi(p + 3);
		}
		while (p < nl && *p != ' ')
			p++;
	}
	if (!nr_cpus)
		return -1;
	for (line = *nl ? nl + 1 : nl; *line; line = *nl ? nl + 1 : nl) {
		const char *colon, *name;
		double v[1024], sum = 0;
		int n = 0, i;
		size_t nlen;

		nl = strchrnul(line, '\n');
		colon = memchr(line, ':', nl - line);
		if (!colon)
			continue;
		for (name = line; name < colon && *name == ' '; name++)
			;
		nlen = colon - name;
		if (!nlen || nlen > 32)
			continue;
		p = colon + 1;
		while (n < nr_cpus) {
			char *e;
			double x;

			while (p < nl && *p == ' ')
				p++;
			if (p >= nl || *p < '0' || *p > '9')
				break;
			x = strtod(p, &e);
			if (e == p || e > nl)
				break;
			v[n++] = x;
			sum += x;
			p = e;
		}
		if (!n)
			continue;
		/* the description, whitespace runs as one separator */
		strbuf_reset(&key);
		strbuf_add(&key, name, nlen);
		if (irq) {
			bool numbered = *name >= '0' && *name <= '9';
			bool sep = false;

			strbuf_addstr(&key, ":");
			while (p < nl && *p == ' ')
				p++;
			for (; p < nl; p++) {
				if (*p == ' ' || *p == '\t') {
					sep = true;
					continue;
				}
				if (sep)
					strbuf_addstr(&key, numbered ? "." : "_");
				sep = false;
				strbuf_add(&key, p, 1);
			}
			if (key.len > 120)
				continue;
		}
		name_safe(key.buf);
		if (n == nr_cpus)
			for (i = 0; i < n; i++) {
				char *k = xasprintf("CPU%d.%s", cpus[i], key.buf);

				kv_add(out, k, strlen(k), v[i]);
				free(k);
			}
		kv_add(out, key.buf, key.len, sum);
	}
	strbuf_release(&key);
	return out->nr ? 0 : -1;
}

int kab_parse_interrupts(const char *text, struct kab_kv *out)
{
	return parse_table(text, true, out);
}

int kab_parse_softirqs(const char *text, struct kab_kv *out)
{
	return parse_table(text, false, out);
}

/* The CPU seconds process pid has used (all its threads), or -1. */
double kab_proc_cpu_seconds(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long ut, st;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* after the command's name, which may hold anything: field 3 on */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u "
			 "%*u %llu %llu", &ut, &st) != 2)
		return -1;
	return (double)(ut + st) / sysconf(_SC_CLK_TCK);
}
