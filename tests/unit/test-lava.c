// SPDX-License-Identifier: GPL-2.0
/*
 * test-lava.c - what kab hands LAVA and what it reads back: a record
 * through LAVA's ShellLogger and log comes out as the agent wrote it,
 * entries that are not the console's stay out, and the YAML kab writes
 * reads back as the same tree.
 */
#include <yaml.h>

#include "test.h"
#include "../../runner/runner.h"

struct lines {
	struct strbuf all;
	int n;
};

static int on_line(void *ctx, const char *s, size_t n)
{
	struct lines *l = ctx;

	strbuf_add(&l->all, s, n);
	strbuf_add(&l->all, "\n", 1);
	l->n++;
	return 0;
}

/* What LAVA's ShellLogger does to a console line, then its log entry. */
static char *logged(const char *console, bool server)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;
	json_t *e;
	char *out, *line;

	for (p = console; *p; p++) {
		if (*p == '"')
			strbuf_add(&sb, "\\", 1);
		if (*p != '\r' && *p != '\x1b')
			strbuf_add(&sb, p, 1);
	}
	e = json_pack("{s:s, s:s, s:s}", "dt", "2026-12-05T12:00:00.000000",
		      "lvl", "target", "msg", sb.buf ? sb.buf : "");
	line = json_dumps(e, JSON_COMPACT);
	out = xasprintf("%s%s\n", server ? "- " : "", line);
	free(line);
	json_decref(e);
	strbuf_release(&sb);
	return out;
}

static void test_record_survives_the_log(void **state)
{
	json_t *body = json_pack("{s:s, s:s}", "message",
				 "a \"quoted\" \\\" and \\\\ end\\",
				 "name", "caf\xc3\xa9");
	struct kab_lava_log log;
	struct lines l = { STRBUF_INIT, 0 };
	size_t len, i;
	char *rec, *entry;
	int server;

	(void)state;
	rec = kab_record_encode("log", body, &len);
	/* records are ASCII: a lab's log keeps them byte for byte */
	for (i = 0; i < len; i++)
		assert_true((unsigned char)rec[i] < 0x80);
	rec[len - 1] = '\0';
	for (server = 0; server < 2; server++) {
		kab_lava_log_init(&log, on_line, &l);
		entry = logged(rec, server);
		/* fed a byte at a time: an entry across reads is one */
		for (i = 0; entry[i]; i++)
			assert_int_equal(kab_lava_log_feed(&log, entry + i, 1),
					 0);
		kab_lava_log_finish(&log);
		assert_int_equal(log.target_lines, 1);
		assert_int_equal(l.all.len, len);
		assert_memory_equal(l.all.buf, rec, len - 1);
		strbuf_reset(&l.all);
		free(entry);
		kab_lava_log_release(&log);
	}
	free(rec);
	json_decref(body);
	strbuf_release(&l.all);
}

static void test_entries_not_the_console(void **state)
{
	static const char text[] =
		"{\"dt\": \"x\", \"lvl\": \"info\", \"msg\": \"lava-dispatcher, "
		"installed at version: 2023.01\"}\n"
		"not an entry at all\n"
		"{\"lvl\": \"debug\", \"msg\": \"@KAB1 2 00000000 {}\"}\n"
		"{\"lvl\": \"error\", \"msg\": \"first\\u001b[31m\"}\n"
		"{\"lvl\": \"error\", \"msg\": \"second\"}\n"
		"{\"lvl\": \"target\", \"msg\": \"Linux version 6.1\"}\n"
		"{\"lvl\": \"results\", \"msg\": {\"case\": \"lava-test-monitor\", "
		"\"result\": \"pass\"}}\n"
		"- {\"lvl\": \"results\", \"msg\": {\"case\": \"job\", \"result\": "
		"\"fail\", \"error_type\": \"Infrastructure\", \"error_msg\": "
		"\"bootloader-interrupt timed out\"}}\n"
		"{\"lvl\": \"target\", \"msg\": \"no newline at the end\"}";
	struct lines l = { STRBUF_INIT, 0 };
	struct kab_lava_log log;

	(void)state;
	kab_lava_log_init(&log, on_line, &l);
	assert_int_equal(kab_lava_log_feed(&log, text, sizeof(text) - 1), 0);
	assert_int_equal(kab_lava_log_finish(&log), 0);
	/* only the target's lines, the debug entry's record is not one */
	assert_string_equal(l.all.buf, "Linux version 6.1\n"
				       "no newline at the end\n");
	assert_int_equal(log.skipped, 1);
	assert_string_equal(log.version, "2023.01");
	assert_string_equal(log.result, "fail");
	assert_string_equal(log.error_type, "Infrastructure");
	assert_string_equal(log.error_msg, "bootloader-interrupt timed out");
	/* the first error, its escape made harmless */
	assert_non_null(log.first_error);
	assert_null(strchr(log.first_error, '\x1b'));
	assert_int_equal(strncmp(log.first_error, "first", 5), 0);
	kab_lava_log_release(&log);
	strbuf_release(&l.all);

	/* what a server says is kept to a bound: a result's 16 bytes */
	kab_lava_log_init(&log, on_line, &l);
	{
		static const char big[] =
			"{\"lvl\": \"results\", \"msg\": {\"case\": \"job\", "
			"\"result\": \"passpasspasspasspass\"}}\n";

		assert_int_equal(kab_lava_log_feed(&log, big, sizeof(big) - 1),
				 0);
	}
	assert_string_equal(log.result, "passpasspasspass");
	kab_lava_log_release(&log);
	strbuf_release(&l.all);
}

static void test_overlong_entry_dropped(void **state)
{
	struct lines l = { STRBUF_INIT, 0 };
	struct kab_lava_log log;
	char *big = xmalloc(1 << 20);
	static const char after[] = "{\"lvl\": \"target\", \"msg\": \"after\"}\n";
	size_t i;

	(void)state;
	memset(big, 'x', 1 << 20);
	kab_lava_log_init(&log, on_line, &l);
	kab_lava_log_feed(&log, "{\"lvl\": \"target\", \"msg\": \"", 27);
	/* 65 MiB of one entry: more than any record, dropped whole */
	for (i = 0; i < 65; i++)
		kab_lava_log_feed(&log, big, 1 << 20);
	assert_true(log.line.len < (1u << 20) * 65);
	/* what it had of the entry went once it was known too long */
	assert_int_equal(log.line.len, 0);
	kab_lava_log_feed(&log, "\"}\n", 3);
	kab_lava_log_feed(&log, after, sizeof(after) - 1);
	kab_lava_log_finish(&log);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.all.buf, "after\n");
	assert_int_equal(log.skipped, 1);
	kab_lava_log_release(&log);
	strbuf_release(&l.all);
	free(big);
}

/* The scalars of a YAML text, in order, with their styles' verdict. */
static void scalars(const char *text, struct strbuf *out)
{
	yaml_parser_t p;
	yaml_event_t ev;
	bool done = false;

	yaml_parser_initialize(&p);
	yaml_parser_set_input_string(&p, (const unsigned char *)text,
				     strlen(text));
	while (!done) {
		assert_true(yaml_parser_parse(&p, &ev));
		if (ev.type == YAML_SCALAR_EVENT)
			strbuf_addf(out, "%s%s|", ev.data.scalar.plain_implicit &&
				    ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE ?
				    "" : "'", (char *)ev.data.scalar.value);
		done = ev.type == YAML_STREAM_END_EVENT;
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
}

static void test_yaml_reads_back(void **state)
{
	json_t *v = json_pack("{s:s, s:s, s:s, s:s, s:i, s:s, s:s, s:[s, s]}",
			      "n", "4092", "b", "yes", "e", "", "c",
			      "a: b # c", "i", 7, "q", "\"x'\n", "z", "-x",
			      "l", "null", "~");
	struct strbuf sb = STRBUF_INIT;
	struct kab_err err;
	char *y = kab_yaml_from_json(v, &err);

	(void)state;
	assert_non_null(y);
	scalars(y, &sb);
	/*
	 * a string that would read as a number, bool (YAML 1.1's n too)
	 * or null is quoted; "-x" is a plain string
	 */
	assert_string_equal(sb.buf, "'n|'4092|b|'yes|e|'|c|'a: b # c|i|7|"
				    "q|'\"x'\n|z|-x|l|'null|'~|");
	free(y);
	strbuf_release(&sb);
	json_decref(v);
}

/*
 * A URL that carries the token is refused: the token as a part of it
 * (a path component, the user, a query value).  A short token that is
 * only a substring of the URL's words ("t" of http) is no such thing.
 */
static void test_url_token(void **state)
{
	static const struct {
		const char *url, *token;
		bool ok;
	} c[] = {
		{ "http://lava.test/", "t", true },
		{ "https://lava.example.org/api/v0.2/", "a", true },
		{ "http://lava.example.org/", "xs3cr3tx", true },
		{ "http://xs3cr3tx.example.org/", "s3cr3t", true },
		{ "http://lava.example.org/s3cr3t/", "s3cr3t", false },
		{ "http://lava.example.org/s3cr3t", "s3cr3t", false },
		{ "http://me:s3cr3t@lava.example.org/", "s3cr3t", false },
		{ "http://lava.example.org/?token=x", "s3cr3t", false },
		{ "http://lava.example.org/#x", NULL, false },
		{ "http://me@lava.example.org/", NULL, false },
	};
	struct kab_lava_server srv;
	struct kab_err err;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		int rc = kab_lava_server_init(&srv, c[i].url, c[i].token,
					      &err);

		if (c[i].ok != !rc)
			fail_msg("%s with token %s: %s", c[i].url,
				 c[i].token ? c[i].token : "(none)",
				 rc ? err.msg : "accepted");
		if (!rc)
			kab_lava_server_free(&srv);
		else
			assert_non_null(strstr(err.msg, "credentials"));
	}
}

/*
 * What is no server's URL, or no token, is refused in one line that
 * shows the URL up to 100 bytes, then "...".
 */
static void test_url_refused(void **state)
{
	struct kab_lava_server srv;
	struct kab_err err;
	char url[160], want[160];
	size_t n, k;

	(void)state;
	assert_int_equal(kab_lava_server_init(&srv, "ftp://lava.test/", NULL,
					      &err), -1);
	assert_string_equal(err.msg, "lava:ftp://lava.test/: give the "
			    "server's URL, lava:https://lava.example.org");
	/* 101 bytes and more: cut at 100; exactly 100: whole */
	for (n = 100; n <= 101; n++)
		for (k = 0; k < 2; k++) {
			memset(url, 'a', n);
			memcpy(url, k ? "http://<" : "ftp://", k ? 8 : 6);
			url[n] = '\0';
			assert_int_equal(kab_lava_server_init(&srv, url, NULL,
							      &err), -1);
			snprintf(want, sizeof(want), "lava:%.100s%s: %s", url,
				 n > 100 ? "..." : "",
				 k ? "not a URL" : "give");
			assert_memory_equal(err.msg, want, strlen(want));
		}
	assert_int_equal(kab_lava_server_init(&srv, "http://lava.test/a b",
					      NULL, &err), -1);
	assert_string_equal(err.msg, "lava:http://lava.test/a b: not a URL "
			    "kab takes");
	/* a token that is none */
	assert_int_equal(kab_lava_server_init(&srv, "http://lava.test/", "",
					      &err), -1);
	assert_non_null(strstr(err.msg, "the LAVA token is not one"));
	assert_int_equal(kab_lava_server_init(&srv, "http://lava.test/",
					      "a b", &err), -1);
	assert_non_null(strstr(err.msg, "the LAVA token is not one"));
	/* and one that is: kept, as the URL */
	assert_int_equal(kab_lava_server_init(&srv, "http://lava.test",
					      "t0k", &err), 0);
	assert_string_equal(srv.url, "http://lava.test");
	assert_string_equal(srv.token, "t0k");
	assert_string_equal(srv.api, "http://lava.test/api/v0.2/");
	kab_lava_server_free(&srv);
	assert_null(srv.token);
}

/* The REST API's root, whatever the user gave of it. */
static void test_api_root(void **state)
{
	static const char *const c[][2] = {
		{ "http://lava.test", "http://lava.test/api/v0.2/" },
		{ "http://lava.test/", "http://lava.test/api/v0.2/" },
		{ "https://lava.test:8000/lab/", "https://lava.test:8000/lab/api/v0.2/" },
		{ "http://lava.test/api/v0.2", "http://lava.test/api/v0.2/" },
		{ "http://lava.test/api/v0.2/", "http://lava.test/api/v0.2/" },
	};
	struct kab_lava_server srv;
	struct kab_err err;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		assert_int_equal(kab_lava_server_init(&srv, c[i][0], "tok3n",
						      &err), 0);
		assert_string_equal(srv.api, c[i][1]);
		assert_string_equal(srv.url, c[i][0]);
		assert_string_equal(srv.token, "tok3n");
		kab_lava_server_free(&srv);
	}
}

static void test_cmdline_check(void **state)
{
	struct kab_err err;

	(void)state;
	assert_int_equal(kab_lava_cmdline_check("mitigations=off "
						"transparent_hugepage=never",
						&err), 0);
	assert_int_equal(kab_lava_cmdline_check("a=\"b c\"", &err), -1);
	assert_non_null(strstr(err.msg, "'\"'"));
	assert_int_equal(kab_lava_cmdline_check("a={kernel}", &err), -1);
	assert_int_equal(kab_lava_cmdline_check("$(reboot)", &err), -1);
	assert_int_equal(kab_lava_cmdline_check("a\nb", &err), -1);
	/* printable ASCII's ends: a space and a tilde go, DEL does not */
	assert_int_equal(kab_lava_cmdline_check(" a=~/x ", &err), 0);
	assert_int_equal(kab_lava_cmdline_check("a\x7f", &err), -1);
	assert_non_null(strstr(err.msg, "'?'"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_survives_the_log),
		cmocka_unit_test(test_entries_not_the_console),
		cmocka_unit_test(test_overlong_entry_dropped),
		cmocka_unit_test(test_yaml_reads_back),
		cmocka_unit_test(test_cmdline_check),
		cmocka_unit_test(test_url_token),
		cmocka_unit_test(test_url_refused),
		cmocka_unit_test(test_api_root),
	};

	return cmocka_run_group_tests_name("lava", tests, NULL, NULL);
}
