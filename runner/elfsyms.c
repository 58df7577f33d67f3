// SPDX-License-Identifier: GPL-2.0
/*
 * elfsyms.c - the functions of an ELF file (a program or a shared
 * library a sampled process had mapped), read with elfutils' libelf:
 * .symtab when the file has one, .dynsym too, and the PLT's entries
 * named as perf names them ("strcmp@plt"), so that a profile's user
 * frames have names.  Addresses are the file's own virtual addresses; a
 * sampled address is turned into one through the mapping's file offset
 * and the PT_LOAD segment holding it (PIE or not, library or program).
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner.h"

struct esym {
	uint64_t addr, size;
	bool weak;
	char *name;
};

struct seg {
	uint64_t offset, vaddr, filesz;
};

struct kab_elfsyms {
	size_t nr, alloc;
	struct esym *v;
	size_t nr_segs;
	struct seg segs[16];
};

static void add(struct kab_elfsyms *e, uint64_t addr, uint64_t size,
		bool weak, const char *name)
{
	if (!name || !*name)
		return;
	if (e->nr == e->alloc) {
		e->alloc = e->alloc ? 2 * e->alloc : 256;
		e->v = xrealloc(e->v, e->alloc * sizeof(*e->v));
	}
	e->v[e->nr].addr = addr;
	e->v[e->nr].size = size;
	e->v[e->nr].weak = weak;
	e->v[e->nr++].name = kab_profile_symbol_fixup(name);
}

static void read_symbols(struct kab_elfsyms *e, Elf *elf, Elf_Scn *scn,
			 const GElf_Shdr *sh)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t i, n;

	if (!d || !sh->sh_entsize)
		return;
	n = sh->sh_size / sh->sh_entsize;
	for (i = 0; i < n; i++) {
		GElf_Sym s;
		int type;

		if (!gelf_getsym(d, i, &s))
			break;
		type = GELF_ST_TYPE(s.st_info);
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) ||
		    !s.st_value || s.st_shndx == SHN_UNDEF)
			continue;
		add(e, s.st_value, s.st_size,
		    GELF_ST_BIND(s.st_info) == STB_WEAK,
		    elf_strptr(elf, sh->sh_link, s.st_name));
	}
}

/*
 * PLT entries: the i-th relocation of .rela.plt is the i-th entry of
 * .plt.sec (with IBT) or of .plt after its first, 16-byte entry.
 */
static void read_plt(struct kab_elfsyms *e, Elf *elf, size_t shstrndx)
{
	Elf_Scn *scn = NULL, *rela = NULL, *plt = NULL, *plt_sec = NULL;
	GElf_Shdr rsh, psh, dsh;
	Elf_Data *rd, *dd;
	size_t i, n;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name)
			continue;
		if (!strcmp(name, ".rela.plt"))
			rela = scn;
		else if (!strcmp(name, ".plt"))
			plt = scn;
		else if (!strcmp(name, ".plt.sec"))
			plt_sec = scn;
	}
	if (!rela || (!plt && !plt_sec) || !gelf_getshdr(rela, &rsh) ||
	    !gelf_getshdr(plt_sec ? plt_sec : plt, &psh) ||
	    !rsh.sh_entsize)
		return;
	/* the relocations' symbols are .dynsym's (sh_link) */
	scn = elf_getscn(elf, rsh.sh_link);
	if (!scn || !gelf_getshdr(scn, &dsh))
		return;
	rd = elf_getdata(rela, NULL);
	dd = elf_getdata(scn, NULL);
	if (!rd || !dd)
		return;
	n = rsh.sh_size / rsh.sh_entsize;
	for (i = 0; i < n; i++) {
		uint64_t at = psh.sh_addr + (plt_sec ? 0 : 16) + 16 * i;
		GElf_Rela r;
		GElf_Sym s;
		const char *name;
		char buf[256];

		if (!gelf_getrela(rd, i, &r) ||
		    !gelf_getsym(dd, GELF_R_SYM(r.r_info), &s))
			break;
		name = elf_strptr(elf, dsh.sh_link, s.st_name);
		if (!name || !*name || at + 16 > psh.sh_addr + psh.sh_size)
			continue;
		snprintf(buf, sizeof(buf), "%s@plt", name);
		add(e, at, 16, false, buf);
	}
}

static int esym_cmp(const void *a, const void *b)
{
	const struct esym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/*
	 * At one address, as perf chooses: a sized symbol, a global one
	 * (glibc's __munmap before its weak alias munmap), then by name.
	 */
	if ((x->size == 0) != (y->size == 0))
		return x->size == 0 ? 1 : -1;
	if (x->weak != y->weak)
		return x->weak ? 1 : -1;
	return strcmp(x->name, y->name);
}

struct kab_elfsyms *kab_elfsyms_load(const char *path)
{
	struct kab_elfsyms *e;
	Elf_Scn *scn = NULL;
	size_t shstrndx, nph, i;
	Elf *elf;
	int fd;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF ||
	    elf_getshdrstrndx(elf, &shstrndx) || elf_getphdrnum(elf, &nph)) {
		elf_end(elf);
		close(fd);
		return NULL;
	}
	e = xcalloc(1, sizeof(*e));
	for (i = 0; i < nph && e->nr_segs < ARRAY_SIZE(e->segs); i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, i, &ph) && ph.p_type == PT_LOAD)
			e->segs[e->nr_segs++] = (struct seg){
				ph.p_offset, ph.p_vaddr, ph.p_filesz };
	}
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) &&
		    (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM))
			read_symbols(e, elf, scn, &sh);
	}
	read_plt(e, elf, shstrndx);
	elf_end(elf);
	close(fd);
	if (e->nr)
		qsort(e->v, e->nr, sizeof(*e->v), esym_cmp);
	return e;
}

bool kab_elfsyms_vaddr(const struct kab_elfsyms *e, uint64_t offset,
		       uint64_t *vaddr)
{
	size_t i;

	for (i = 0; i < e->nr_segs; i++)
		if (offset >= e->segs[i].offset &&
		    offset < e->segs[i].offset + e->segs[i].filesz) {
			*vaddr = offset - e->segs[i].offset + e->segs[i].vaddr;
			return true;
		}
	return false;
}

const char *kab_elfsyms_lookup(const struct kab_elfsyms *e, uint64_t vaddr)
{
	size_t lo = 0, hi;

	if (!e || !e->nr || vaddr < e->v[0].addr)
		return NULL;
	hi = e->nr;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (e->v[mid].addr <= vaddr)
			lo = mid;
		else
			hi = mid;
	}
	/* the nearest symbol below, if vaddr is inside it */
	while (lo > 0 && e->v[lo].addr == e->v[lo - 1].addr)
		lo--;
	if (e->v[lo].size && vaddr >= e->v[lo].addr + e->v[lo].size)
		return NULL;
	return e->v[lo].name;
}

void kab_elfsyms_free(struct kab_elfsyms *e)
{
	size_t i;

	if (!e)
		return;
	for (i = 0; i < e->nr; i++)
		free(e->v[i].name);
	free(e->v);
	free(e);
}
