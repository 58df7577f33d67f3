// SPDX-License-Identifier: GPL-2.0
/*
 * sha256.c - sha256 in hex (nettle), of a buffer or of a file.
 */
#include <nettle/sha2.h>
#include <stdio.h>

#include "common.h"

char *kab_sha256_hex(const void *buf, size_t len, size_t digits)
{
	uint8_t d[SHA256_DIGEST_SIZE];
	char hex[2 * SHA256_DIGEST_SIZE + 1];
	struct sha256_ctx h;
	size_t i;

	sha256_init(&h);
	sha256_update(&h, len, buf);
	sha256_digest(&h, sizeof(d), d);
	for (i = 0; i < SHA256_DIGEST_SIZE; i++)
		sprintf(hex + 2 * i, "%02x", d[i]);
	if (digits < sizeof(hex) - 1)
		hex[digits] = '\0';
	return xstrdup(hex);
}

char *kab_file_sha256(const char *path, struct kab_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	char *hex;

	if (read_file(path, &sb, err))
		return NULL;
	hex = kab_sha256_hex(sb.buf, sb.len, 64);
	strbuf_release(&sb);
	return hex;
}
