// SPDX-License-Identifier: GPL-2.0
/*
 * test-record.c - the record stream survives noise and never invents a
 * record.
 */
#include "test.h"
#include "../../runner/runner.h"

struct seen {
	int n;
	char types[64][16];
	int values[64];
};

static int on_record(void *ctx, const char *type, json_t *body)
{
	struct seen *s = ctx;

	if (s->n < 64) {
		snprintf(s->types[s->n], sizeof(s->types[0]), "%s", type);
		s->values[s->n] = (int)json_integer_value(
			json_object_get(body, "v"));
	}
	s->n++;
	return 0;
}

static char *rec(const char *type, int v, size_t *len)
{
	json_t *b = json_pack("{s:i}", "v", v);
	char *r = kab_record_encode(type, b, len);

	json_decref(b);
	return r;
}

static void feed_all(struct kab_reader *r, const char *buf, size_t n,
		     size_t chunk)
{
	size_t off;

	for (off = 0; off < n; off += chunk)
		kab_reader_feed(r, buf + off, n - off < chunk ? n - off : chunk);
	kab_reader_finish(r);
}

static void test_roundtrip(void **state)
{
	struct seen s = { 0 };
	struct kab_reader *r = kab_reader_new(on_record, &s);
	size_t len;
	char *a = rec("sample", 42, &len);

	assert_memory_equal(a, "@KAB1 ", 6);
	assert_int_equal(a[len - 1], '\n');
	feed_all(r, a, len, len);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.types[0], "sample");
	assert_int_equal(s.values[0], 42);
	assert_int_equal(kab_reader_stats(r)->garbage_bytes, 0);
	kab_reader_free(r);
	free(a);
}

/*
 * An empty read before any other (make fuzz found it: NULL + 0 under
 * UBSan, which make test SAN=1 turns into a failure).
 */
static void test_empty_first(void **state)
{
	struct seen s = { 0 };
	struct kab_reader *r = kab_reader_new(on_record, &s);
	size_t len;
	char *a = rec("sample", 7, &len);

	kab_reader_feed(r, "", 0);
	kab_reader_feed(r, a, len);
	kab_reader_feed(r, "", 0);
	kab_reader_finish(r);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.values[0], 7);
	kab_reader_free(r);
	free(a);
}

/* Kernel messages between records are skipped and counted. */
static void test_garbage_between(void **state)
{
	const char *noise = "[    3.141592] random: crng init done\r\n";
	struct strbuf sb = STRBUF_INIT;
	size_t len, chunk;
	int i;

	for (i = 0; i < 5; i++) {
		char *a = rec("log", i, &len);

		strbuf_addstr(&sb, noise);
		strbuf_add(&sb, a, len);
		free(a);
	}
	strbuf_addstr(&sb, "trailing junk without newline");
	/* Every way of cutting the stream into reads gives the same. */
	for (chunk = 1; chunk < 200; chunk += 7) {
		struct seen s = { 0 };
		struct kab_reader *r = kab_reader_new(on_record, &s);

		feed_all(r, sb.buf, sb.len, chunk);
		assert_int_equal(s.n, 5);
		for (i = 0; i < 5; i++)
			assert_int_equal(s.values[i], i);
		assert_int_equal(kab_reader_stats(r)->garbage_bytes,
				 5 * strlen(noise) +
				 strlen("trailing junk without newline"));
		kab_reader_free(r);
	}
	strbuf_release(&sb);
}

/* A message printed into the middle of a record costs that record only. */
static void test_garbage_inside(void **state)
{
	struct seen s = { 0 };
	struct kab_reader *r = kab_reader_new(on_record, &s);
	struct strbuf sb = STRBUF_INIT;
	size_t l1, l2, l3;
	char *a = rec("a", 1, &l1), *b = rec("b", 2, &l2), *c = rec("c", 3, &l3);

	strbuf_add(&sb, a, l1);
	strbuf_add(&sb, b, l2 - 10);
	strbuf_addstr(&sb, "\n[ 12.5] BUG: soft lockup\n");
	strbuf_add(&sb, b + l2 - 10, 10);
	strbuf_add(&sb, c, l3);
	feed_all(r, sb.buf, sb.len, 5);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.types[0], "a");
	assert_string_equal(s.types[1], "c");
	assert_int_equal(kab_reader_stats(r)->bad_records, 1);
	kab_reader_free(r);
	strbuf_release(&sb);
	free(a);
	free(b);
	free(c);
}

static void test_corrupt_crc_and_truncation(void **state)
{
	struct seen s = { 0 };
	struct kab_reader *r = kab_reader_new(on_record, &s);
	size_t l1, l2;
	char *a = rec("a", 1, &l1), *b = rec("b", 2, &l2);

	a[l1 - 3] ^= 1;			/* flip a payload bit */
	kab_reader_feed(r, a, l1);
	kab_reader_feed(r, b, l2 - 5);	/* cut short at the end */
	kab_reader_finish(r);
	assert_int_equal(s.n, 0);
	assert_true(kab_reader_stats(r)->bad_records >= 1);
	kab_reader_free(r);
	free(a);
	free(b);
}

/* A header announcing a huge payload must not stall the stream. */
static void test_lying_length(void **state)
{
	struct seen s = { 0 };
	struct kab_reader *r = kab_reader_new(on_record, &s);
	const char *liar = "@KAB1 900000 deadbeef {\"t\":\"x\"}\n";
	size_t len;
	char *a = rec("after", 7, &len);

	kab_reader_feed(r, liar, strlen(liar));
	kab_reader_feed(r, a, len);
	/* Delivered before the end of the stream, not held back. */
	assert_int_equal(s.n, 1);
	assert_int_equal(s.values[0], 7);
	kab_reader_finish(r);
	kab_reader_free(r);
	free(a);
}

static void test_future_version_and_bad_json(void **state)
{
	struct seen s = { 0 };
	struct kab_reader *r = kab_reader_new(on_record, &s);
	const char *payload = "{\"t\":\"x\"}", *notobj = "[1,2]";
	char buf[128];
	int n;

	n = snprintf(buf, sizeof(buf), "@KAB2 %zu %08x %s\n", strlen(payload),
		     kab_crc32(payload, strlen(payload)), payload);
	kab_reader_feed(r, buf, n);
	n = snprintf(buf, sizeof(buf), "@KAB1 %zu %08x %s\n", strlen(notobj),
		     kab_crc32(notobj, strlen(notobj)), notobj);
	kab_reader_feed(r, buf, n);
	kab_reader_finish(r);
	assert_int_equal(s.n, 0);
	assert_int_equal(kab_reader_stats(r)->future_records, 1);
	assert_int_equal(kab_reader_stats(r)->bad_records, 1);
	kab_reader_free(r);
}

/*
 * Random bytes, and random mutations of real records, never crash the
 * reader and never yield more records than were really sent.
 */
static void test_fuzz(void **state)
{
	unsigned int seed = 12345;
	int round;

	for (round = 0; round < 2000; round++) {
		struct seen s = { 0 };
		struct kab_reader *r = kab_reader_new(on_record, &s);
		struct strbuf sb = STRBUF_INIT;
		int sent = 0, i, nmut;

		for (i = 0; i < 4; i++) {
			size_t len;
			char *a;

			if (rand_r(&seed) % 2) {
				a = rec("s", i, &len);
				strbuf_add(&sb, a, len);
				free(a);
				sent++;
			} else {
				char junk[64];
				size_t j, n = rand_r(&seed) % sizeof(junk);

				for (j = 0; j < n; j++)
					junk[j] = rand_r(&seed) % 4 ? '@' +
						rand_r(&seed) % 12 :
						(char)rand_r(&seed);
				strbuf_add(&sb, junk, n);
			}
		}
		nmut = rand_r(&seed) % 3;
		for (i = 0; i < nmut && sb.len; i++)
			sb.buf[rand_r(&seed) % sb.len] = (char)rand_r(&seed);
		feed_all(r, sb.buf, sb.len, 1 + rand_r(&seed) % 50);
		assert_true(s.n <= sent);
		if (!nmut)
			assert_int_equal(s.n, sent);
		kab_reader_free(r);
		strbuf_release(&sb);
	}
}

/* read_file that fails leaves its buffer as it was, nothing allocated */
static void test_read_file_fails(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	/* a directory opens and then fails to read */
	assert_int_equal(read_file("/", &sb, NULL), -1);
	assert_null(sb.buf);
	assert_int_equal(sb.len, 0);
	strbuf_add(&sb, "abc", 3);
	assert_int_equal(read_file("/", &sb, NULL), -1);
	assert_int_equal(sb.len, 3);
	assert_string_equal(sb.buf, "abc");
	assert_int_equal(read_file("/proc/self/stat", &sb, NULL), 0);
	assert_true(sb.len > 3);
	assert_memory_equal(sb.buf, "abc", 3);
	strbuf_release(&sb);
}

/* A record of value v numbered seq (NULL: none), maybe a byte changed. */
static void add_seq(struct strbuf *sb, int v, json_t *seq, bool damaged)
{
	json_t *b = json_pack("{s:i}", "v", v);
	size_t len;
	char *x;

	if (seq)
		json_object_set_new(b, "seq", seq);
	x = kab_record_encode("sample", b, &len);
	if (damaged)
		x[len - 4] = x[len - 4] == '1' ? '2' : '1';
	strbuf_add(sb, x, len);
	free(x);
	json_decref(b);
}

/*
 * Records numbered by "seq", each twice as an agent on a lossy console
 * writes them: the first whole copy of a number is handed over, once,
 * and a copy damaged on the way costs nothing while the other arrives.
 */
static void test_seq_copies(void **state)
{
	struct seen s = { 0 };
	struct kab_reader *r = kab_reader_new(on_record, &s);
	struct strbuf sb = STRBUF_INIT;
	int i;

	add_seq(&sb, 10, json_integer(1), false);
	add_seq(&sb, 10, json_integer(1), false);
	add_seq(&sb, 20, json_integer(2), true);	/* first copy lost */
	add_seq(&sb, 20, json_integer(2), false);
	add_seq(&sb, 30, json_integer(3), false);
	add_seq(&sb, 30, json_integer(3), true);	/* second copy lost */
	add_seq(&sb, 99, json_integer(2), false);	/* a number gone by */
	add_seq(&sb, 40, json_integer(4), false);
	add_seq(&sb, 40, json_integer(4), false);
	add_seq(&sb, 98, json_integer(0), false);	/* not a number */
	add_seq(&sb, 97, json_string("5"), false);
	add_seq(&sb, 50, NULL, false);			/* unnumbered */
	feed_all(r, sb.buf, sb.len, 7);
	assert_int_equal(s.n, 5);
	for (i = 0; i < 5; i++)
		assert_int_equal(s.values[i], 10 * (i + 1));
	assert_int_equal(kab_reader_stats(r)->records, 5);
	assert_int_equal(kab_reader_stats(r)->duplicates, 3);
	assert_int_equal(kab_reader_stats(r)->bad_records, 4);
	strbuf_release(&sb);
	kab_reader_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_read_file_fails),
		cmocka_unit_test(test_empty_first),
		cmocka_unit_test(test_garbage_between),
		cmocka_unit_test(test_garbage_inside),
		cmocka_unit_test(test_corrupt_crc_and_truncation),
		cmocka_unit_test(test_lying_length),
		cmocka_unit_test(test_future_version_and_bad_json),
		cmocka_unit_test(test_seq_copies),
		cmocka_unit_test(test_fuzz),
	};

	return cmocka_run_group_tests_name("record", tests, NULL, NULL);
}
