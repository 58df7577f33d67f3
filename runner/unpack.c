// SPDX-License-Identifier: GPL-2.0
/*
 * unpack.c - one compressed stream (xz, gzip, zstd, lz4...) decoded with
 * libarchive: a kernel's payload, lkp's stats.json.gz.
 */
#include <archive.h>
#include <archive_entry.h>

#include "internal.h"

int kab_unpack(const unsigned char *p, size_t len, size_t max,
	       struct strbuf *out)
{
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	char buf[1 << 16];
	la_ssize_t n;
	int ret = -1;

	strbuf_reset(out);
	archive_read_support_filter_all(a);
	archive_read_support_format_raw(a);
	if (archive_read_open_memory(a, p, len) != ARCHIVE_OK ||
	    archive_read_next_header(a, &e) != ARCHIVE_OK)
		goto out;
	while ((n = archive_read_data(a, buf, sizeof(buf))) > 0) {
		if (max && out->len + n > max)
			goto out;
		strbuf_add(out, buf, n);
	}
	ret = n == 0 && out->len ? 0 : -1;
out:
	archive_read_free(a);
	return ret;
}
