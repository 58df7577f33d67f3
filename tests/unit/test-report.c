// SPDX-License-Identifier: GPL-2.0
/*
 * test-report.c - the report library's parts that need no database:
 * a watch's series page (its chart's dots and marks where they
 * belong, hostile text escaped, links only where a report is) and the
 * trailers a message takes.
 */
#include <math.h>

#include "test.h"
#include "../../report/report.h"

static __attribute__((noinline)) char *page(const struct report_series *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	report_series_html(f, s);
	fclose(f);
	return buf;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (; (hay = strstr(hay, needle)); hay++)
		n++;
	return n;
}

/* The number after attr that follows the nth (from 0) what in s, or -1. */
static double attr_after(const char *s, const char *what, const char *attr,
			 size_t nth)
{
	size_t off = 0;
	const char *hit;

	for (;;) {
		hit = strstr(s + off, what);
		if (!hit)
			return -1;
		off = (size_t)(hit - s);
		if (!nth--)
			break;
		off++;
	}
	hit = strstr(s + off, attr);
	return hit ? strtod(hit + strlen(attr), NULL) : -1;
}

static void test_series_page(void **state)
{
	static const double a[] = { 100, 101, 99 }, b[] = { 60, 61 },
			    c[] = { 59 };
	const struct report_series_pt pts[] = {
		{ .commit = "aaaaaaaaaaaa", .subject = "mm: one", .v = a,
		  .n = 3 },
		{ .commit = "bbbbbbbbbbbb", .subject = "<script>x</script>",
		  .v = a, .n = 2 },
		{ .commit = "cccccccccccc", .subject = "skipped one",
		  .status = "skipped" },
		{ .commit = "dddddddddddd", .subject = "a & b", .v = b,
		  .n = 2 },
		{ .commit = "eeeeeeeeeeee", .subject = NULL, .v = c, .n = 1 },
	};
	const struct report_series_cp cps[] = {
		{ .at = 3, .pct = -40.2, .lo = -42, .hi = -38, .p = 0.005,
		  .status = "verified", .culprit = "dddddddddddd",
		  .evidence = "verified: <b>", .href = "dddddddddddd.html" },
		{ .at = 4, .spread = true, .status = "found" },
		/* out of the series: not drawn, not listed */
		{ .at = 0, .pct = 5 },
		{ .at = 9, .pct = 5 },
	};
	struct report_series s = {
		.name = "linux:mm\"", .metric = "will-it-scale.per_process_ops",
		.tree = "/src/linux", .branch = "mm-unstable", .from = "v6.1",
		.pts = pts, .nr = 5, .cps = cps, .nr_cps = 4,
	};
	char *html = page(&s);
	double x0, x1, x3, xm;

	(void)state;
	/* a dot a boot, none for the skipped commit */
	assert_int_equal(count(html, "<circle class=\"sample boot\""), 8);
	/* two marks: the fall (linked) and the spread (not) */
	assert_int_equal(count(html, "<g class=\"change "), 2);
	assert_int_equal(count(html, "<g class=\"change down\">"), 1);
	assert_int_equal(count(html, "<g class=\"change spread\">"), 1);
	assert_int_equal(count(html, "<a href=\"dddddddddddd.html\">"), 2);
	assert_non_null(strstr(html, "<title>change point 1: -40.2%</title>"));
	/* the fall's mark halfway between its two commits' columns */
	x0 = attr_after(html, "<circle class=\"sample boot\"", "cx=\"", 0);
	x1 = attr_after(html, "<circle class=\"sample boot\"", "cx=\"", 3);
	x3 = attr_after(html, "<circle class=\"sample boot\"", "cx=\"", 5);
	xm = attr_after(html, "<line class=\"mark\"", "x1=\"", 0);
	assert_true(x1 > x0);
	assert_true(fabs((x1 - x0) * 2 - (x3 - x1)) < 0.2);
	assert_true(fabs(xm - (x1 + x3) / 2) < 0.2);
	/* the lower values lower on the page: y grows downwards */
	assert_true(attr_after(html, "<circle class=\"sample boot\"", "cy=\"",
			       5) > attr_after(html, "<circle class=\"sample "
					       "boot\"", "cy=\"", 0));
	/*
	 * the values' range padded by 5% each way onto the plot's 250 to
	 * 30 px: 101, the highest, 10 px below its top, 59 10 px above
	 * its bottom
	 */
	assert_true(fabs(attr_after(html, "<circle class=\"sample boot\"",
				    "cy=\"", 1) - 40) < 0.05);
	assert_true(fabs(attr_after(html, "<circle class=\"sample boot\"",
				    "cy=\"", 7) - 240) < 0.05);
	/* the tables: the change's row and every commit's */
	assert_non_null(strstr(html, "<td><code>bbbbbbbbbbbb</code> .. <code>"
			       "dddddddddddd</code></td><td class=\"num\">"
			       "-40.2%</td>"));
	assert_non_null(strstr(html, "(verified)<pre>verified: &lt;b&gt;"
			       "</pre>"));
	assert_non_null(strstr(html, "the spread, not the mean"));
	assert_int_equal(count(html, "<tr id=\"change-"), 2);
	assert_non_null(strstr(html, "<td class=\"num\">(skipped)</td>"));
	/* text from the tree is text */
	assert_null(strstr(html, "<script>"));
	assert_non_null(strstr(html, "&lt;script&gt;x&lt;/script&gt;"));
	assert_non_null(strstr(html, "a &amp; b"));
	assert_non_null(strstr(html, "<h1>linux:mm&quot;</h1>"));
	assert_non_null(strstr(html, "<title>linux:mm&quot;: will-it-scale."
			       "per_process_ops</title>"));
	assert_non_null(strstr(html, "<p>kab watch follows <code>mm-unstable"
			       "</code> of <code>/src/linux</code> from <code>"
			       "v6.1</code>.</p>\n<h2><code>will-it-scale."
			       "per_process_ops</code></h2>"));
	free(html);
}

/*
 * Every commit's digits under the chart up to 12 commits; past that
 * about a dozen: every (n + 11) / 12th, and the last.
 */
static void test_series_ticks(void **state)
{
	static const double v[] = { 100 };
	static const size_t n[] = { 12, 13, 25, 26 }, want[] = { 12, 7, 9, 10 };
	struct report_series_pt pts[26];
	char commits[26][13];
	size_t i, k;

	(void)state;
	for (i = 0; i < 26; i++) {
		snprintf(commits[i], sizeof(commits[i]), "%012zx", i);
		pts[i] = (struct report_series_pt){ .commit = commits[i],
						    .subject = "s", .v = v,
						    .n = 1 };
	}
	for (k = 0; k < ARRAY_SIZE(n); k++) {
		struct report_series s = {
			.name = "t", .metric = "m", .tree = "/t",
			.branch = "b", .from = "f", .pts = pts, .nr = n[k],
		};
		char *html = page(&s);

		assert_int_equal(count(html, "rotate(-40 "), want[k]);
		/* the last commit's always */
		assert_non_null(strstr(html, commits[n[k] - 1]));
		free(html);
	}
}

static void test_trailers(void **state)
{
	static const char *const good[] = {
		"Reported-by: kab <kab@example.org>",
		"Closes: https://example.org/r/1",
		"X-1: y",
	};
	static const char *const bad[] = {
		"Reported-by kab", "Closes:https://x", ": x", "Closes: ",
		"1x: y", "-x: y", "A: b\nSubject: evil", "A b: c",
	};
	struct kab_err err;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(good); i++)
		assert_int_equal(report_trailer_check(good[i], &err), 0);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		assert_int_equal(report_trailer_check(bad[i], &err), -1);
		assert_non_null(strstr(err.msg, "--trailer"));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_series_page),
		cmocka_unit_test(test_series_ticks),
		cmocka_unit_test(test_trailers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
