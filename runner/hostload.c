// SPDX-License-Identifier: GPL-2.0
/*
 * hostload.c - how busy other processes kept the host during a boot.
 *
 * Under TCG a guest's speed is the host's: a compiler or a second QEMU
 * running at the same time makes a boot slower, which is noise between
 * boots kab cannot see in the guest.  The busy time of all CPUs
 * (/proc/stat, steal included: a hypervisor's other guests count too)
 * minus the CPU time of kab and the children it waited for (QEMU) is
 * what others used; it is given as a share of all CPUs' time.
 */
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#include "internal.h"

static int read_stat(double *busy, double *total)
{
	unsigned long long v[8] = { 0 };
	double hz = (double)sysconf(_SC_CLK_TCK);
	FILE *f = fopen("/proc/stat", "r");
	int n;

	if (!f)
		return -1;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
		   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (n < 4 || hz <= 0)
		return -1;
	/* user nice system idle iowait irq softirq steal */
	*busy = (v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) / hz;
	*total = *busy + (v[3] + v[4]) / hz;
	return 0;
}

static double own_cpu(void)
{
	struct rusage s, c;

	getrusage(RUSAGE_SELF, &s);
	getrusage(RUSAGE_CHILDREN, &c);
	return s.ru_utime.tv_sec + s.ru_stime.tv_sec + c.ru_utime.tv_sec +
	       c.ru_stime.tv_sec + (s.ru_utime.tv_usec + s.ru_stime.tv_usec +
	       c.ru_utime.tv_usec + c.ru_stime.tv_usec) / 1e6;
}

void kab_hostload_start(struct kab_hostload *h)
{
	h->ok = !read_stat(&h->busy, &h->total);
	h->own = own_cpu();
}

double kab_hostload_other(const struct kab_hostload *h)
{
	double busy, total, other;

	if (!h->ok || read_stat(&busy, &total) || total <= h->total)
		return -1;
	other = (busy - h->busy - (own_cpu() - h->own)) / (total - h->total);
	return other < 0 ? 0 : other > 1 ? 1 : other;
}

bool kab_host_busy_msg(double busy, char *buf, size_t n)
{
	if (!(busy > KAB_HOST_BUSY))
		return false;
	snprintf(buf, n, KAB_HOST_BUSY_MSG " %.0f%% of this machine's CPUs "
		 "busy during the run: its numbers are theirs as much as the "
		 "kernel's; run kab alone", 100 * busy);
	return true;
}
