// SPDX-License-Identifier: GPL-2.0
/*
 * bench-stream.c - how fast the host side takes in results: records
 * encoded and parsed per second, and iterations stored per second in
 * SQLite (300 metrics each, the size of a real malloc1 iteration with
 * its monitors).  Prints figures; asserts nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "../../common/common.h"
#include "../../db/db.h"
#include "../../runner/runner.h"

#define METRICS 300

static int count_records(void *ctx, const char *type, json_t *body)
{
	(*(long *)ctx)++;
	return 0;
}

static json_t *iteration_body(int it)
{
	json_t *m = json_object();
	char name[64];
	int i;

	for (i = 0; i < METRICS; i++) {
		snprintf(name, sizeof(name), "proc-vmstat.counter_%03d", i);
		json_object_set_new(m, name, json_real(i * 1234.5678 + it));
	}
	return json_pack("{s:i, s:o}", "iteration", it, "metrics", m);
}

static void bench_stream(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct kab_reader *r;
	long got = 0, n = 2000;
	double t0, t1, t2;
	int i;

	t0 = now_mono();
	for (i = 0; i < n; i++) {
		json_t *b = iteration_body(i);
		size_t len;
		char *rec = kab_record_encode("monitor", b, &len);

		strbuf_add(&sb, rec, len);
		if (i % 10 == 0)
			strbuf_addstr(&sb, "[ 1.000000] a kernel message\n");
		free(rec);
		json_decref(b);
	}
	t1 = now_mono();
	r = kab_reader_new(count_records, &got);
	for (i = 0; (size_t)i < sb.len; i += 4096)
		kab_reader_feed(r, sb.buf + i,
				sb.len - i < 4096 ? sb.len - i : 4096);
	kab_reader_finish(r);
	t2 = now_mono();
	printf("record stream: %ld records of %d metrics (%.1f MiB)\n", n,
	       METRICS, sb.len / 1048576.0);
	printf("  encode: %8.0f records/s  %6.1f MiB/s\n", n / (t1 - t0),
	       sb.len / 1048576.0 / (t1 - t0));
	printf("  parse:  %8.0f records/s  %6.1f MiB/s  (%ld parsed, %llu "
	       "noise bytes skipped)\n", got / (t2 - t1),
	       sb.len / 1048576.0 / (t2 - t1), got,
	       (unsigned long long)kab_reader_stats(r)->garbage_bytes);
	kab_reader_free(r);
	strbuf_release(&sb);
}

static void bench_db(void)
{
	const char *names[METRICS];
	double vals[METRICS];
	char path[] = "/tmp/kab-bench.XXXXXX", *db_path;
	struct kab_run run = { 0 };
	struct kab_db *db;
	struct kab_err err;
	int i, it, n = 200;
	double t0, t1;

	if (!mkdtemp(path))
		return;
	db_path = xasprintf("%s/bench.db", path);
	if (kab_db_open(db_path, KAB_DB_WRITE, &db, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return;
	}
	for (i = 0; i < METRICS; i++) {
		names[i] = xasprintf("proc-vmstat.counter_%03d", i);
		vals[i] = i;
	}
	run.kernel.label = "bench";
	run.job = run.suite = run.test = "bench";
	run.params = json_object();
	run.resolved = json_object();
	run.host = json_object();
	kab_db_run_insert(db, &run, &err);
	t0 = now_mono();
	for (it = 1; it <= n; it++)
		if (kab_db_iteration_store(db, run.id, it, names, vals,
					   METRICS, &err)) {
			fprintf(stderr, "%s\n", err.msg);
			break;
		}
	t1 = now_mono();
	printf("sqlite store (WAL, one transaction per iteration):\n");
	printf("  %8.0f iterations/s  %8.0f samples/s\n", n / (t1 - t0),
	       n * METRICS / (t1 - t0));
	kab_db_close(db);
	for (i = 0; i < METRICS; i++)
		free((char *)names[i]);
	json_decref(run.params);
	json_decref(run.resolved);
	json_decref(run.host);
	free(run.started_at);
	free(run.status);
	for (i = 0; i < 3; i++) {
		char *f = xasprintf("%s%s", db_path,
				    (const char *[]){ "", "-wal", "-shm" }[i]);

		unlink(f);
		free(f);
	}
	rmdir(path);
	free(db_path);
}

int main(void)
{
	struct rusage ru;

	bench_stream();
	bench_db();
	getrusage(RUSAGE_SELF, &ru);
	printf("peak RSS of this benchmark: %ld KiB\n", ru.ru_maxrss);
	return 0;
}
