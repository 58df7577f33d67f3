// SPDX-License-Identifier: GPL-2.0
/*
 * sha256.c - sha256 of a file, in hex (nettle).
 */
#include <nettle/sha2.h>
#include <stdio.h>

#include "common.h"

char *kab_file_sha256(const char *path, struct kab_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	uint8_t d[SHA256_DIGEST_SIZE];
	struct sha256_ctx h;
	char hex[2 * SHA256_DIGEST_SIZE + 1];
	int i;

	if (read_file(path, &sb, err))
		return NULL;
	sha256_init(&h);
	sha256_update(&h, sb.len, (const uint8_t *)sb.buf);
	sha256_digest(&h, sizeof(d), d);
	for (i = 0; i < SHA256_DIGEST_SIZE; i++)
		sprintf(hex + 2 * i, "%02x", d[i]);
	strbuf_release(&sb);
	return xstrdup(hex);
}
