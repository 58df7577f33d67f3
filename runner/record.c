// SPDX-License-Identifier: GPL-2.0
/*
 * record.c - framing of the record stream.
 *
 * A record is "@KAB<version> <len> <crc32> <payload>\n".  The reader
 * never trusts the bytes it gets: a header is only believed when the
 * payload behind it has the announced length, the right crc, a newline
 * after it and parses as a JSON object with a "t" string.  Otherwise the
 * reader moves one byte past the '@' and looks for the next magic, so a
 * kernel message printed into the middle of a record costs that record,
 * never the rest of the stream.  Of records numbered by "seq" (written
 * twice on a lossy console) the first whole copy is handed over.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

#define HEADER_MAX 40

char *kab_record_encode(const char *type, json_t *body, size_t *len)
{
	json_t *obj = body ? json_copy(body) : json_object();
	char *payload, *out;
	size_t plen;
	int n;

	json_object_set_new(obj, "t", json_string(type));
	/* ASCII: a console and a lab's log keep it byte for byte */
	payload = json_dumps(obj, JSON_COMPACT | JSON_SORT_KEYS |
			     JSON_ENSURE_ASCII | JSON_REAL_PRECISION(17));
	json_decref(obj);
	if (!payload)
		return NULL;
	plen = strlen(payload);
	out = xmalloc(plen + HEADER_MAX + 2);
	n = snprintf(out, HEADER_MAX, "%s%d %zu %08x ", KAB_RECORD_MAGIC,
		     KAB_RECORD_VERSION, plen, kab_crc32(payload, plen));
	memcpy(out + n, payload, plen);
	out[n + plen] = '\n';
	out[n + plen + 1] = '\0';
	free(payload);
	*len = n + plen + 1;
	return out;
}

int kab_record_write(int fd, const char *type, json_t *body)
{
	size_t len;
	char *rec = kab_record_encode(type, body, &len);
	int ret;

	if (!rec)
		return -1;
	ret = write_all(fd, rec, len);
	free(rec);
	return ret;
}

struct kab_reader {
	kab_record_fn fn;
	void *ctx;
	char *buf;
	size_t len, alloc;
	json_int_t seq;		/* the last "seq" handed over */
	struct kab_reader_stats stats;
};

struct kab_reader *kab_reader_new(kab_record_fn fn, void *ctx)
{
	struct kab_reader *r = xcalloc(1, sizeof(*r));

	r->fn = fn;
	r->ctx = ctx;
	return r;
}

void kab_reader_free(struct kab_reader *r)
{
	if (!r)
		return;
	free(r->buf);
	free(r);
}

const struct kab_reader_stats *kab_reader_stats(const struct kab_reader *r)
{
	return &r->stats;
}

enum frame {
	FRAME_OK,	/* a whole, valid record at the start of the buffer */
	FRAME_MORE,	/* could be a record: need more bytes */
	FRAME_BAD,	/* not a record */
	FRAME_CORRUPT,	/* a record's frame whose payload is damaged */
};

static int parse_uint(const char **p, const char *end, unsigned long *out,
		      int base, int maxdigits)
{
	const char *s = *p;
	unsigned long v = 0;
	int digits = 0;

	while (s < end && digits < maxdigits) {
		int d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else
			break;
		v = v * base + d;
		s++;
		digits++;
	}
	if (!digits)
		return s == end ? 1 : -1;	/* 1: need more */
	if (s == end)
		return 1;
	*p = s;
	*out = v;
	return 0;
}

/*
 * Look at a candidate starting with the magic.  On FRAME_OK, *hdr is
 * the header length, *plen the payload length and *version the version.
 */
static enum frame frame_check(const char *s, size_t n, size_t *hdr,
			      unsigned long *plen, unsigned long *version)
{
	const char *p = s + strlen(KAB_RECORD_MAGIC), *end = s + n;
	unsigned long crc;
	const char *nl;
	int rc;

	rc = parse_uint(&p, end, version, 10, 4);
	if (rc)
		return rc > 0 ? FRAME_MORE : FRAME_BAD;
	if (*p++ != ' ')
		return FRAME_BAD;
	rc = parse_uint(&p, end, plen, 10, 8);
	if (rc)
		return rc > 0 ? FRAME_MORE : FRAME_BAD;
	if (*plen > KAB_RECORD_MAX || *p++ != ' ')
		return FRAME_BAD;
	rc = parse_uint(&p, end, &crc, 16, 8);
	if (rc)
		return rc > 0 ? FRAME_MORE : FRAME_BAD;
	if (p - s > HEADER_MAX || *p++ != ' ')
		return FRAME_BAD;
	*hdr = p - s;
	/*
	 * A payload never holds a newline (compact JSON escapes it), so a
	 * newline inside the announced length means a damaged length or an
	 * interleaved message: give up now instead of waiting for bytes.
	 */
	nl = memchr(p, '\n', end - p < (long)*plen ? end - p : (long)*plen);
	if (nl)
		return FRAME_CORRUPT;
	if (n < *hdr + *plen + 1)
		return FRAME_MORE;
	if (s[*hdr + *plen] != '\n' || kab_crc32(p, *plen) != crc)
		return FRAME_CORRUPT;
	return FRAME_OK;
}

/* Deliver one framed payload; 0 ok, 1 bad, or the callback's error. */
static int deliver(struct kab_reader *r, const char *payload, size_t n,
		   int *cb_ret)
{
	json_t *obj, *t, *seq;

	obj = json_loadb(payload, n, JSON_REJECT_DUPLICATES, NULL);
	if (!obj || !json_is_object(obj) ||
	    !(t = json_object_get(obj, "t")) || !json_is_string(t)) {
		json_decref(obj);
		return 1;
	}
	seq = json_object_get(obj, "seq");
	if (seq && (!json_is_integer(seq) || json_integer_value(seq) < 1)) {
		json_decref(obj);
		return 1;
	}
	if (seq && json_integer_value(seq) <= r->seq) {
		/* the second copy of one handed over already */
		r->stats.duplicates++;
		json_decref(obj);
		return 0;
	}
	if (seq)
		r->seq = json_integer_value(seq);
	r->stats.records++;
	*cb_ret = r->fn(r->ctx, json_string_value(t), obj);
	json_decref(obj);
	return 0;
}

static void consume(struct kab_reader *r, size_t n)
{
	memmove(r->buf, r->buf + n, r->len - n);
	r->len -= n;
}

/* Process what is buffered; with at_eof, incomplete frames are garbage. */
static int drain(struct kab_reader *r, bool at_eof)
{
	const size_t mlen = strlen(KAB_RECORD_MAGIC);
	int cb_ret = 0;

	while (r->len) {
		char *m = memmem(r->buf, r->len, KAB_RECORD_MAGIC, mlen);
		unsigned long plen, version;
		size_t hdr, skip;
		enum frame f;

		if (!m) {
			/* Keep a tail that may be the start of a magic. */
			skip = r->len > mlen - 1 ? r->len - (mlen - 1) : 0;
			if (at_eof)
				skip = r->len;
			r->stats.garbage_bytes += skip;
			consume(r, skip);
			return 0;
		}
		if (m > r->buf) {
			skip = m - r->buf;
			r->stats.garbage_bytes += skip;
			consume(r, skip);
			continue;
		}
		f = frame_check(r->buf, r->len, &hdr, &plen, &version);
		if (f == FRAME_MORE && !at_eof)
			return 0;
		if (f == FRAME_OK && version != KAB_RECORD_VERSION) {
			r->stats.future_records++;
			consume(r, hdr + plen + 1);
			continue;
		}
		if (f == FRAME_OK &&
		    deliver(r, r->buf + hdr, plen, &cb_ret) == 0) {
			consume(r, hdr + plen + 1);
			if (cb_ret)
				return cb_ret;
			continue;
		}
		if (f == FRAME_OK || f == FRAME_CORRUPT)
			r->stats.bad_records++;
		/* Not a record here: skip past this '@' and resync. */
		r->stats.garbage_bytes += 1;
		consume(r, 1);
	}
	return 0;
}

int kab_reader_feed(struct kab_reader *r, const void *buf, size_t n)
{
	if (!n)		/* nothing to add, and maybe no buffer yet */
		return drain(r, false);
	if (r->len + n > r->alloc) {
		r->alloc = r->alloc ? r->alloc : 4096;
		while (r->alloc < r->len + n)
			r->alloc *= 2;
		r->buf = xrealloc(r->buf, r->alloc);
	}
	memcpy(r->buf + r->len, buf, n);
	r->len += n;
	return drain(r, false);
}

void kab_reader_finish(struct kab_reader *r)
{
	drain(r, true);
}
