// SPDX-License-Identifier: GPL-2.0
/*
 * host.c - facts about the machine under test, sent with every run so
 * that a comparison can tell when two runs did not share a machine.
 */
#include <gnu/libc-version.h>
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "runner.h"

int kab_nr_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

static char *first_line(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char *nl;

	if (read_file(path, &sb, NULL)) {
		strbuf_release(&sb);
		return NULL;
	}
	nl = strchr(sb.buf, '\n');
	if (nl)
		*nl = '\0';
	return strbuf_detach(&sb);
}

/* "always [madvise] never" -> "madvise" */
static char *bracketed(const char *path)
{
	char *line = first_line(path), *l, *r, *out = NULL;

	if (!line)
		return NULL;
	l = strchr(line, '[');
	r = l ? strchr(l, ']') : NULL;
	if (l && r) {
		*r = '\0';
		out = xstrdup(l + 1);
	}
	free(line);
	return out;
}

/* The value of "key : value" in /proc/cpuinfo or "Key: value" elsewhere. */
static char *field(const char *path, const char *key)
{
	struct strbuf sb = STRBUF_INIT;
	char *line, *save, *out = NULL;
	size_t klen = strlen(key);

	if (read_file(path, &sb, NULL))
		goto out;
	for (line = strtok_r(sb.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *v;

		if (strncmp(line, key, klen) ||
		    (line[klen] != ' ' && line[klen] != '\t' &&
		     line[klen] != ':'))
			continue;
		v = strchr(line, ':');
		if (!v)
			continue;
		v++;
		while (*v == ' ' || *v == '\t')
			v++;
		out = xstrdup(v);
		break;
	}
out:
	strbuf_release(&sb);
	return out;
}

static void set_str(json_t *o, const char *key, char *v)
{
	if (v)
		json_object_set_new(o, key, json_string(v));
	free(v);
}

static int nr_sockets(void)
{
	hwloc_topology_t topo;
	int n;

	hwloc_topology_init(&topo);
	hwloc_topology_load(topo);
	n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
	hwloc_topology_destroy(topo);
	return n > 0 ? n : 1;
}

json_t *kab_host_facts(void)
{
	json_t *o = json_object();
	struct utsname u;
	char *mem, *flags, host[256];

	if (!uname(&u)) {
		json_object_set_new(o, "release", json_string(u.release));
		json_object_set_new(o, "version", json_string(u.version));
		json_object_set_new(o, "machine", json_string(u.machine));
	}
	if (!gethostname(host, sizeof(host))) {
		host[sizeof(host) - 1] = '\0';
		json_object_set_new(o, "hostname", json_string(host));
	}
	set_str(o, "cpu_model", field("/proc/cpuinfo", "model name"));
	json_object_set_new(o, "nr_cpus", json_integer(kab_nr_cpus()));
	json_object_set_new(o, "sockets", json_integer(nr_sockets()));
	mem = field("/proc/meminfo", "MemTotal");
	json_object_set_new(o, "mem_total_kb",
			    json_integer(mem ? atoll(mem) : 0));
	free(mem);
	set_str(o, "thp_enabled",
		bracketed("/sys/kernel/mm/transparent_hugepage/enabled"));
	set_str(o, "thp_defrag",
		bracketed("/sys/kernel/mm/transparent_hugepage/defrag"));
	set_str(o, "cmdline", first_line("/proc/cmdline"));
	/* names the compiler that built the kernel, for reports */
	set_str(o, "proc_version", first_line("/proc/version"));
	flags = field("/proc/cpuinfo", "flags");
	json_object_set_new(o, "hypervisor",
			    json_boolean(flags && strstr(flags, " hypervisor")));
	free(flags);
	set_str(o, "dmi_product", first_line("/sys/class/dmi/id/product_name"));
	json_object_set_new(o, "libc", json_string(gnu_get_libc_version()));
	json_object_set_new(o, "kab_version", json_string(KAB_VERSION));
	return o;
}
