// SPDX-License-Identifier: GPL-2.0
/*
 * vmlinux.c - a bzImage's kernel, unpacked once, for QEMU's PVH entry.
 *
 * A distribution bzImage carries vmlinux compressed (xz for Debian);
 * under TCG its decompressor takes about 3 s of every boot.  A kernel
 * built with CONFIG_PVH has an ELF note with a 32-bit entry point that
 * QEMU's -kernel can jump to directly, so kab unpacks the payload once
 * (libarchive knows every compression a kernel uses), keeps it in the
 * cache by the bzImage's sha256, and boots that instead.  A kernel
 * without the note boots from its bzImage as before.
 *
 * The boot protocol's setup header (Documentation/x86/boot.rst) says
 * where the payload is: setup_sects at 0x1f1, version at 0x206,
 * payload_offset and payload_length at 0x248 and 0x24c, relative to the
 * protected-mode code after the (setup_sects + 1) * 512 bytes of setup.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

#define XEN_ELFNOTE_PHYS32_ENTRY 18

static uint32_t le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The compressed payload inside a bzImage, or NULL (too old, damaged). */
static const unsigned char *payload(const struct strbuf *img, size_t *len)
{
	const unsigned char *b = (const unsigned char *)img->buf;
	size_t setup, off;

	if (img->len < 0x250 || memcmp(b + 0x202, "HdrS", 4) ||
	    (b[0x206] | b[0x207] << 8) < 0x208)
		return NULL;
	setup = ((size_t)(b[0x1f1] ? b[0x1f1] : 4) + 1) * 512;
	off = setup + le32(b + 0x248);
	*len = le32(b + 0x24c);
	if (off >= img->len || *len > img->len - off || !*len)
		return NULL;
	return b + off;
}

/*
 * Most of the kernel's compressors append the decompressed size (32
 * bits, little endian) after the stream; gzip's own trailer holds it.
 * Decode without those 4 bytes first and insist on that size.
 */
static int unpack_payload(const unsigned char *p, size_t len,
			  struct strbuf *out)
{
	if (len > 4 && !kab_unpack(p, len - 4, 0, out) && out->len == le32(p + len - 4))
		return 0;
	return kab_unpack(p, len, 0, out);
}

/* Does this ELF have Xen's PHYS32_ENTRY note, QEMU's PVH entry? */
static bool has_pvh_note(const struct strbuf *elf)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)elf->buf;
	size_t i;

	if (elf->len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_phentsize != sizeof(Elf64_Phdr) ||
	    eh->e_phoff > elf->len ||
	    eh->e_phnum > (elf->len - eh->e_phoff) / sizeof(Elf64_Phdr))
		return false;
	for (i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(elf->buf +
				eh->e_phoff + i * sizeof(Elf64_Phdr));
		size_t off = ph->p_offset, end;

		if (ph->p_type != PT_NOTE || off > elf->len ||
		    ph->p_filesz > elf->len - off)
			continue;
		end = off + ph->p_filesz;
		while (off + sizeof(Elf64_Nhdr) <= end) {
			const Elf64_Nhdr *nh = (const Elf64_Nhdr *)(elf->buf +
								  off);
			size_t name = (nh->n_namesz + 3) & ~3UL;
			size_t desc = (nh->n_descsz + 3) & ~3UL;

			off += sizeof(*nh);
			if (name > end - off || desc > end - off - name)
				break;
			if (nh->n_type == XEN_ELFNOTE_PHYS32_ENTRY &&
			    nh->n_namesz == 4 &&
			    !memcmp(elf->buf + off, "Xen", 4))
				return true;
			off += name + desc;
		}
	}
	return false;
}

char *kab_kernel_unpacked(const char *bzimage, const char *cache_dir)
{
	struct strbuf img = STRBUF_INIT, elf = STRBUF_INIT;
	char *key = NULL, *path = NULL, *none = NULL, *tmp = NULL;
	const unsigned char *p;
	struct kab_err err;
	size_t len;
	int fd;

	if (!cache_dir || read_file(bzimage, &img, &err))
		goto out;
	key = kab_sha256_hex(img.buf, img.len, 32);
	path = xasprintf("%s/vmlinux-%s", cache_dir, key);
	none = xasprintf("%s/vmlinux-%s.no-pvh", cache_dir, key);
	if (!access(path, R_OK))
		goto found;
	if (!access(none, F_OK))
		goto out;
	p = payload(&img, &len);
	if (!p || unpack_payload(p, len, &elf) || !has_pvh_note(&elf)) {
		/* remember, so that the next boot does not unpack again */
		fd = open(none, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
		if (fd >= 0)
			close(fd);
		goto out;
	}
	tmp = xasprintf("%s.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0)
		goto out;
	if (fchmod(fd, 0644) || write_all(fd, elf.buf, elf.len) ||
	    fsync(fd)) {
		close(fd);
		unlink(tmp);
		goto out;
	}
	if (close(fd) || rename(tmp, path)) {
		unlink(tmp);
		goto out;
	}
found:
	free(key);
	free(none);
	free(tmp);
	strbuf_release(&img);
	strbuf_release(&elf);
	return path;
out:
	free(key);
	free(path);
	free(none);
	free(tmp);
	strbuf_release(&img);
	strbuf_release(&elf);
	return NULL;
}
