// SPDX-License-Identifier: GPL-2.0
/*
 * kvm-probe.c - whether QEMU can use /dev/kvm on this machine, found
 * once and remembered.
 *
 * A /dev/kvm that opens may still be unable to run a guest (nested
 * virtualisation without VMX: QEMU dies with "failed to set MSR 0x10a"
 * before the guest prints a thing).  The first boot that finds so
 * writes it into the cache (kvm-broken); every later boot, in this
 * process or another (each step of a bisect is one), reads it and boots
 * TCG at once, saying so in one line, once.  The answer is kept for
 * this host kernel, QEMU and CPU: a new kernel or QEMU, or a CPU that
 * gains VMX, probes again.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "internal.h"

static bool broken_here;	/* found in this process */
static bool said;

/* This machine as far as KVM is concerned: kernel, QEMU, VMX/SVM. */
static char *machine_key(const char *qemu_version)
{
	struct strbuf cpu = STRBUF_INIT;
	struct utsname u;
	const char *virt = "none";

	if (uname(&u))
		memset(&u, 0, sizeof(u));
	if (!read_file("/proc/cpuinfo", &cpu, NULL) && cpu.buf) {
		if (strstr(cpu.buf, " vmx"))
			virt = "vmx";
		else if (strstr(cpu.buf, " svm"))
			virt = "svm";
	}
	strbuf_release(&cpu);
	return xasprintf("%s %s|%s|%s", u.sysname, u.release, qemu_version,
			 virt);
}

bool kab_cpu_has_virt(void)
{
	struct strbuf cpu = STRBUF_INIT;
	bool has = false;

	if (!read_file("/proc/cpuinfo", &cpu, NULL) && cpu.buf)
		has = strstr(cpu.buf, " vmx") || strstr(cpu.buf, " svm");
	strbuf_release(&cpu);
	return has;
}

static char *cache_file(const char *cache_dir)
{
	return cache_dir ? xasprintf("%s/kvm-broken", cache_dir) : NULL;
}

bool kab_kvm_usable(const struct kab_target_opts *o, const char *cache_dir,
		    const char *qemu_version)
{
	const char *env = getenv("KAB_ACCEL");
	struct strbuf sb = STRBUF_INIT;
	char *path, *key;
	bool cached = false;
	int fd;

	if (env && *env)
		return !strcmp(env, "kvm");
	if (broken_here)
		return false;
	fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return false;
	close(fd);
	path = cache_file(cache_dir);
	key = machine_key(qemu_version);
	if (path && !read_file(path, &sb, NULL) && sb.buf) {
		size_t n = strcspn(sb.buf, "\n");

		cached = n == strlen(key) && !strncmp(sb.buf, key, n);
	}
	if (cached && !said) {
		said = true;
		kab_target_note(o, "booting with TCG: QEMU could not use "
				"/dev/kvm on this machine (remembered in %s; "
				"KAB_ACCEL=kvm tries it)", path);
	}
	broken_here = cached;
	strbuf_release(&sb);
	free(path);
	free(key);
	return !cached;
}

void kab_kvm_broken(const struct kab_target_opts *o, const char *cache_dir,
		    const char *qemu_version, const char *why)
{
	char *path = cache_file(cache_dir), *key = machine_key(qemu_version);
	char *text = xasprintf("%s\n%s\n", key, why);

	broken_here = true;
	said = true;
	kab_target_note(o, "QEMU cannot use /dev/kvm here (%s): booting with "
			"TCG from now on%s%s", why,
			path ? ", remembered in " : "", path ? path : "");
	if (path)
		write_file_atomic(path, text, strlen(text), NULL);
	free(text);
	free(key);
	free(path);
}
