/*
 * symtab.c - symbol lookup with elfutils' libdwfl.
 *
 * Each module gets a Dwfl session of its own in which it is reported at
 * its link-time addresses (base 0), since modules of one process overlap
 * there.  A sample's file offset becomes a link-time address through the
 * PT_LOAD segment that maps it:
 *
 *   file:   |---- p_offset ----[ segment ..... off .... ]
 *   memory:           p_vaddr [ segment ..... addr ... ]
 *                     addr = off - p_offset + p_vaddr
 */
#define _GNU_SOURCE
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <link.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symtab.h"
#include "u64map.h"
#include "util.h"

/* libstdc++'s demangler (cxxabi.h), the one g++ users already trust. */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

struct segment {
	uint64_t offset, filesz, vaddr;
};

struct symtab {
	char *path;
	char *why;                     /* non-NULL: lookups name nothing, and why */
	Dwfl *dwfl;
	Dwfl_Module *mod;
	uint64_t bias;                 /* dwfl address - link-time address */
	struct segment *segs;
	size_t nsegs;
	struct u64map names;           /* symbol address -> index in strs */
	char **strs;
	size_t nstrs, capstrs;
};

static const Dwfl_Callbacks callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

char *symtab_demangle(const char *name)
{
	int status = -1;
	if (name[0] != '_' || name[1] != 'Z')
		return NULL;
	char *d = __cxa_demangle(name, NULL, NULL, &status);
	if (status != 0) {
		free(d);
		return NULL;
	}
	return d;
}

static int load_segments(struct symtab *st, Elf *elf)
{
	size_t n;
	if (elf_getphdrnum(elf, &n) != 0)
		return -1;
	st->segs = xcalloc(n, sizeof *st->segs);
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD)
			st->segs[st->nsegs++] = (struct segment){ ph.p_offset, ph.p_filesz, ph.p_vaddr };
	}
	return 0;
}

/*
 * The vDSO has no file.  The kernel that ran the profiled program is very
 * likely the one running us, so copy our own vDSO image into a memfd;
 * the build-id check below tells whether it is really the same.
 */
static int open_vdso(void)
{
	const ElfW(Ehdr) *eh = (const void *)getauxval(AT_SYSINFO_EHDR);
	if (eh == NULL || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0)
		return -1;
	size_t size = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	int fd = memfd_create("vdso", MFD_CLOEXEC);
	if (fd >= 0 && write(fd, eh, size) != (ssize_t)size) {
		close(fd);
		fd = -1;
	}
	return fd;
}

struct symtab *symtab_open(const char *path, const uint8_t *build_id, size_t build_id_len)
{
	struct symtab *st = xcalloc(1, sizeof *st);
	st->path = xstrdup(path);
	int vdso = strcmp(path, "[vdso]") == 0;
	if (path[0] != '/' && !vdso) {
		st->why = xasprintf("'%s' is not a file", path);
		return st;
	}
	int fd = vdso ? open_vdso() : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		st->why = xasprintf("cannot open '%s'", path);
		return st;
	}
	st->dwfl = dwfl_begin(&callbacks);
	if (st->dwfl == NULL) {
		close(fd);
		st->why = xasprintf("libdwfl: %s", dwfl_errmsg(-1));
		return st;
	}
	dwfl_report_begin(st->dwfl);
	st->mod = dwfl_report_elf(st->dwfl, path_base(path), path, fd, 0, false); /* takes fd */
	dwfl_report_end(st->dwfl, NULL, NULL);
	if (st->mod == NULL) {
		st->why = xasprintf("'%s': %s", path, dwfl_errmsg(-1));
		return st;
	}
	Dwarf_Addr bias;
	Elf *elf = dwfl_module_getelf(st->mod, &bias);
	if (elf == NULL || load_segments(st, elf) != 0) {
		st->why = xasprintf("'%s': not a readable ELF file", path);
		return st;
	}
	st->bias = bias;
	const void *id;
	ssize_t idlen = dwelf_elf_gnu_build_id(elf, &id);
	if (build_id_len > 0 && (idlen != (ssize_t)build_id_len || memcmp(id, build_id, build_id_len) != 0))
		st->why = xasprintf("'%s' changed since the profile was taken (build-id differs)", path);
	return st;
}

const char *symtab_why(const struct symtab *st)
{
	return st->why ? st->why : "";
}

/*
 * The start (link-time address) of the function holding dwfl address addr
 * according to .eh_frame or .debug_frame: every function a compiler emits
 * for unwinding has an entry there, symbols or not, so this finds the true
 * boundaries of static functions in stripped files.
 */
static int fde_function_start(struct symtab *st, GElf_Addr addr, uint64_t *start)
{
	Dwarf_Addr bias, lo, hi;
	Dwarf_Frame *frame = NULL;
	Dwarf_CFI *cfi = dwfl_module_eh_cfi(st->mod, &bias);

	if (cfi == NULL || dwarf_cfi_addrframe(cfi, addr - bias, &frame) != 0)
		return -1;
	int rc = dwarf_frame_info(frame, &lo, &hi, NULL) < 0 ? -1 : 0;
	free(frame);
	if (rc == 0)
		*start = lo + bias - st->bias;
	return rc;
}

/* The printed name of the function at link-time address sym_addr: the
 * demangled symbol name, or "MODULE+0xSTART" for an unnamed one. */
static const char *intern_name(struct symtab *st, uint64_t sym_addr, const char *name,
			       const char *module)
{
	uint64_t *slot = u64map_get(&st->names, sym_addr);
	if (slot)
		return st->strs[*slot];
	char *d = name ? symtab_demangle(name) : NULL;
	grow(&st->strs, &st->capstrs, st->nstrs + 1, sizeof *st->strs);
	if (d == NULL)
		d = name ? xstrdup(name) : xasprintf("%s+0x%llx", module, (unsigned long long)sym_addr);
	st->strs[st->nstrs] = d;
	*u64map_slot(&st->names, sym_addr) = st->nstrs;
	return st->strs[st->nstrs++];
}

const char *symtab_function(struct symtab *st, uint64_t off, uint64_t *start, uint64_t *addr)
{
	if (st->why)
		return NULL;
	const struct segment *seg = NULL;
	for (size_t i = 0; i < st->nsegs && !seg; i++)
		if (off >= st->segs[i].offset && off - st->segs[i].offset < st->segs[i].filesz)
			seg = &st->segs[i];
	if (seg == NULL)
		return NULL;
	GElf_Addr a = off - seg->offset + seg->vaddr + st->bias;
	GElf_Off symoff;
	GElf_Sym sym;
	const char *name = dwfl_module_addrinfo(st->mod, a, &symoff, &sym, NULL, NULL, NULL);
	uint64_t sym_addr = a - symoff - st->bias;
	uint64_t fde_start;
	*addr = a - st->bias;
	/* A symbol without a size claims everything up to the next symbol;
	 * if an unwind entry starts after it, the address is in another
	 * function. */
	int have_fde = fde_function_start(st, a, &fde_start) == 0;
	if (name && name[0] && !(sym.st_size == 0 && have_fde && fde_start > sym_addr)) {
		*start = sym_addr;
		return intern_name(st, sym_addr, name, NULL);
	}
	if (!have_fde)
		return NULL;
	*start = fde_start;
	return intern_name(st, fde_start, NULL, path_base(st->path));
}

void symtab_close(struct symtab *st)
{
	if (st == NULL)
		return;
	if (st->dwfl)
		dwfl_end(st->dwfl);
	for (size_t i = 0; i < st->nstrs; i++)
		free(st->strs[i]);
	free(st->strs);
	u64map_free(&st->names);
	free(st->segs);
	free(st->why);
	free(st->path);
	free(st);
}
