// SPDX-License-Identifier: GPL-2.0
/*
 * common.c - error messages, allocation, strings, files and clocks.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "common.h"

int kab_err_set(struct kab_err *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

int kab_err_prefix(struct kab_err *err, const char *fmt, ...)
{
	char prefix[512], old[sizeof(err->msg)];
	va_list ap;

	if (!err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	old[sizeof(old) - 1] = '\0';
	/* Truncation of an over-long message is fine: it stays a line. */
	if (snprintf(err->msg, sizeof(err->msg), "%.500s: %.500s", prefix,
		     old) < 0)
		err->msg[0] = '\0';
	return -1;
}

static void die_oom(size_t n)
{
	fprintf(stderr, "kab: out of memory allocating %zu bytes\n", n);
	exit(1);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die_oom(n);
	return p;
}

void *xcalloc(size_t nmemb, size_t n)
{
	void *p = calloc(nmemb ? nmemb : 1, n ? n : 1);

	if (!p)
		die_oom(nmemb * n);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die_oom(n);
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s ? s : "");

	if (!p)
		die_oom(strlen(s));
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (!p)
		die_oom(n);
	return p;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	char *p;

	if (vasprintf(&p, fmt, ap) < 0)
		die_oom(0);
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = xvasprintf(fmt, ap);
	va_end(ap);
	return p;
}

static void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t want = sb->len + extra + 1;

	if (want <= sb->alloc)
		return;
	sb->alloc = sb->alloc ? sb->alloc : 64;
	while (sb->alloc < want)
		sb->alloc *= 2;
	sb->buf = xrealloc(sb->buf, sb->alloc);
}

void strbuf_add(struct strbuf *sb, const void *data, size_t n)
{
	strbuf_grow(sb, n);
	memcpy(sb->buf + sb->len, data, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	strbuf_grow(sb, n);
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, n + 1, fmt, ap);
	va_end(ap);
	sb->len += n;
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
}

char *strbuf_detach(struct strbuf *sb)
{
	char *p = sb->buf ? sb->buf : xstrdup("");

	sb->buf = NULL;
	sb->len = sb->alloc = 0;
	return p;
}

void strbuf_add_shell_word(struct strbuf *sb, const char *s)
{
	const char *p;

	for (p = s; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_-./=:,+%@^", *p))
			break;
	if (*s && !*p) {
		strbuf_addstr(sb, s);
		return;
	}
	strbuf_addstr(sb, "'");
	for (p = s; *p; p++) {
		if (*p == '\'')
			strbuf_addstr(sb, "'\\''");
		else
			strbuf_add(sb, p, 1);
	}
	strbuf_addstr(sb, "'");
}

/*
 * Bytes at s (avail of them) that are a control character (C0, DEL,
 * C1) or not UTF-8, or 0 for a character a terminal shows as itself.
 */
static size_t control_len_n(const unsigned char *s, size_t avail)
{
	size_t n, i;

	if (*s < 0x80)
		return *s < 0x20 || *s == 0x7f;
	n = *s >= 0xf0 && *s <= 0xf4 ? 4 : *s >= 0xe0 ? 3 :
	    *s >= 0xc2 && *s < 0xe0 ? 2 : 0;
	if (!n || *s > 0xf4 || n > avail)
		return 1;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 1;
	return *s == 0xc2 && s[1] <= 0x9f ? 2 : 0;
}

static size_t control_len(const unsigned char *s)
{
	return control_len_n(s, strnlen((const char *)s, 4));
}

/* Bytes of the well-formed character at s. */
static size_t utf8_len(const unsigned char *s)
{
	return *s < 0x80 ? 1 : *s < 0xe0 ? 2 : *s < 0xf0 ? 3 : 4;
}

bool kab_text_ok(const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;

	if (strlen(s) > max)
		return false;
	for (; *p; p += utf8_len(p))
		if (control_len(p))
			return false;
	return true;
}

bool kab_metric_name_valid(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 200)
		return false;
	for (; *s; s++)
		if (*s <= ' ' || *s > '~' || *s == ',' || *s == '"')
			return false;
	return true;
}

/* One frame of a folded stack: what a metric name may hold, no ';'. */
static bool frame_ok(const char *f, size_t n)
{
	size_t i;

	if (!n || n > KAB_FRAME_MAX)
		return false;
	for (i = 0; i < n; i++)
		if (f[i] <= ' ' || f[i] > '~' || f[i] == ',' || f[i] == '"' ||
		    f[i] == ';')
			return false;
	return true;
}

bool kab_stack_ok(const char *s)
{
	const char *p = s, *semi;

	if (strlen(s) >= KAB_STACK_MAX)
		return false;
	for (;;) {
		semi = strchrnul(p, ';');
		if (!frame_ok(p, semi - p))
			return false;
		if (!*semi)
			return true;
		p = semi + 1;
	}
}

bool kab_sample_ok(double v)
{
	return isfinite(v) && fabs(v) <= KAB_SAMPLE_MAX;
}

bool kab_name_ok(const char *s, size_t max)
{
	size_t n = strlen(s), i;

	if (!n || n > max)
		return false;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_' ||
		      s[i] == '-' || s[i] == '.' || s[i] == '+'))
			return false;
	return true;
}

bool kab_clock_stored_ok(const char *s)
{
	const char *n = s + 7;

	if (!strcmp(s, "wall"))
		return true;
	/* a shift of one digit, or 10 */
	return !strncmp(s, "icount:", 7) &&
	       ((n[0] >= '0' && n[0] <= '9' && !n[1]) || !strcmp(n, "10"));
}

char *kab_text_clean(const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	struct strbuf sb = STRBUF_INIT;

	while (*p) {
		size_t c = control_len(p), n = c ? c : utf8_len(p);

		if (sb.len + (c ? 1 : n) > max)
			break;
		if (c)
			strbuf_addstr(&sb, "?");
		else
			strbuf_add(&sb, p, n);
		p += n;
	}
	return strbuf_detach(&sb);
}

void strbuf_add_visible(struct strbuf *sb, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i, c, len, k;

	/* what a terminal would act on, C1 and broken UTF-8 too, as \xNN */
	for (i = 0; i < n; i += len) {
		c = control_len_n(p + i, n - i);
		len = c ? c : utf8_len(p + i);
		if (p[i] == '\n')
			strbuf_addstr(sb, "\\n");
		else if (p[i] == '\t')
			strbuf_addstr(sb, "\\t");
		else if (c)
			for (k = 0; k < c; k++)
				strbuf_addf(sb, "\\x%02x", p[i + k]);
		else
			strbuf_add(sb, p + i, len);
	}
}

void fput_visible(FILE *out, const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add_visible(&sb, s, strlen(s));
	if (sb.len)
		fputs(sb.buf, out);
	strbuf_release(&sb);
}

void strbuf_add_note_lines(struct strbuf *sb, const char *title,
			   const char *text)
{
	const char *nl;

	strbuf_addf(sb, "%s:", title);
	for (; *text; text = *nl ? nl + 1 : nl) {
		size_t len;

		nl = strchrnul(text, '\n');
		len = nl - text;
		if (len && text[len - 1] == '\r')	/* a serial console's */
			len--;
		strbuf_addstr(sb, "\n| ");
		strbuf_add(sb, text, len);
	}
}

void fput_notes(FILE *out, const char *notes)
{
	struct strbuf sb = STRBUF_INIT;
	const char *nl;

	for (; notes && *notes; notes = *nl ? nl + 1 : nl) {
		nl = strchrnul(notes, '\n');
		strbuf_reset(&sb);
		strbuf_add_visible(&sb, notes, nl - notes);
		fprintf(out, "kab: note: %s\n", sb.len ? sb.buf : "");
	}
	strbuf_release(&sb);
}

void fput_note_lines(FILE *out, const char *title, const char *text)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add_note_lines(&sb, title, text);
	fput_notes(out, sb.buf);
	strbuf_release(&sb);
}

int kab_stderr_file(void)
{
	return memfd_create("kab-stderr", MFD_CLOEXEC);
}

char *kab_stderr_read(int fd)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[4096];
	ssize_t n;

	if (fd < 0)
		return xstrdup("");
	lseek(fd, 0, SEEK_SET);
	while ((n = read(fd, buf, sizeof(buf))) > 0 ||
	       (n < 0 && errno == EINTR))
		if (n > 0 && sb.len < (1 << 20))
			strbuf_add(&sb, buf, n);
	close(fd);
	return strbuf_detach(&sb);
}

void kab_last_line(const char *text, char *buf, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	const char *end = text + strlen(text), *p;

	while (end > text && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	for (p = end; p > text && p[-1] != '\n'; p--)
		;
	strbuf_add_visible(&sb, p, end - p);
	snprintf(buf, n, "%s", sb.len ? sb.buf : "");
	strbuf_release(&sb);
}

void fput_csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/*
 * The umask, read without changing it (umask(2) can only set it, which
 * races with any other thread creating files); 022 if /proc says
 * nothing.
 */
static mode_t current_umask(void)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;
	mode_t mask = 022;

	if (!read_file("/proc/self/status", &sb, NULL) &&
	    (p = strstr(sb.buf, "\nUmask:")))
		mask = strtol(p + 7, NULL, 8) & 0777;
	strbuf_release(&sb);
	return mask;
}

int write_file_atomic(const char *path, const void *buf, size_t len,
		      struct kab_err *err)
{
	char *tmp = xasprintf("%s.XXXXXX", path);
	mode_t mask = current_umask();
	int fd, saved;

	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		kab_err_set(err, "cannot write %s: %s", path, strerror(errno));
		free(tmp);
		return -1;
	}
	if (fchmod(fd, 0644 & ~mask) || write_all(fd, buf, len) ||
	    fsync(fd)) {
		saved = errno;
		close(fd);
		goto fail;
	}
	if (close(fd) || rename(tmp, path)) {
		saved = errno;
		goto fail;
	}
	free(tmp);
	return 0;
fail:
	unlink(tmp);
	free(tmp);
	return kab_err_set(err, "cannot write %s: %s", path,
			   strerror(saved));
}

int read_file(const char *path, struct strbuf *out, struct kab_err *err)
{
	size_t len0 = out->len;
	bool empty = !out->buf;
	char buf[8192];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return kab_err_set(err, "cannot open %s: %s", path,
				   strerror(errno));
	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			kab_err_set(err, "cannot read %s: %s", path,
				    strerror(errno));
			close(fd);
			/*
			 * What was read goes: a process that exits while
			 * its /proc/PID/maps is read fails the second read
			 */
			if (empty) {
				strbuf_release(out);
			} else {
				out->len = len0;
				out->buf[len0] = '\0';
			}
			return -1;
		}
		if (n == 0)
			break;
		strbuf_add(out, buf, n);
	}
	close(fd);
	if (!out->buf)
		strbuf_add(out, "", 0);
	return 0;
}

int write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= w;
	}
	return 0;
}

double now_wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

double now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void iso8601_utc(double t, char *buf, size_t n)
{
	time_t secs = (time_t)t;
	struct tm tm;

	gmtime_r(&secs, &tm);
	strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

uint32_t kab_crc32(const void *buf, size_t n)
{
	uLong crc = crc32(0L, Z_NULL, 0);

	while (n) {
		uInt chunk = n > (1u << 30) ? (1u << 30) : (uInt)n;

		crc = crc32(crc, buf, chunk);
		buf = (const char *)buf + chunk;
		n -= chunk;
	}
	return (uint32_t)crc;
}

int mkdir_p(const char *dir, mode_t mode)
{
	char *copy = xstrdup(dir), *p;
	int ret = 0;

	for (p = copy + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(copy, mode) && errno != EEXIST)
			ret = -1;
		*p = '/';
	}
	if (mkdir(copy, mode) && errno != EEXIST)
		ret = -1;
	else
		ret = 0;
	free(copy);
	return ret;
}

/* The first executable name in $PATH, or NULL. */
char *find_in_path(const char *name)
{
	const char *path = getenv("PATH");
	char *copy = xstrdup(path ? path : "/usr/bin:/bin"), *dir, *save;
	char *found = NULL;

	for (dir = strtok_r(copy, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		char *c = xasprintf("%s/%s", dir, name);

		if (!access(c, X_OK))
			found = c;
		else
			free(c);
	}
	free(copy);
	return found;
}

void kab_uuid_of_digest(const unsigned char digest[32], char out[37])
{
	unsigned char d[16];
	int i, o = 0;

	memcpy(d, digest, sizeof(d));
	d[6] = (d[6] & 0x0f) | 0x50;
	d[8] = (d[8] & 0x3f) | 0x80;
	for (i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			out[o++] = '-';
		o += snprintf(out + o, 37 - o, "%02x", d[i]);
	}
}

char *kab_exe_dir(void)
{
	char self[PATH_MAX], *slash;
	ssize_t n;

	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return NULL;
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	return xstrdup(self);
}

int kab_strcmp_ptr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}
