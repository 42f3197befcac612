/*
 * symtab.c - symbols, lines and code bytes with elfutils' libdwfl/libdw.
 *
 * Each module gets a Dwfl session of its own in which it is reported at
 * its link-time addresses (base 0), since modules of one process overlap
 * there.  A sample's file offset becomes a link-time address through the
 * PT_LOAD segment that maps it:
 *
 *   file:   |---- p_offset ----[ segment ..... off .... ]
 *   memory:           p_vaddr [ segment ..... addr ... ]
 *                     addr = off - p_offset + p_vaddr
 *
 * libdwfl may add a bias (dwfl address = link-time address + bias); it is
 * 0 for modules reported at base 0, but every call below accounts for it.
 */
#define _GNU_SOURCE
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include "profile.h"
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
	uint8_t build_id[PCT_BUILD_ID_MAX];
	size_t build_id_len;
	char *why;                     /* non-NULL: lookups name nothing, and why */
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Elf *elf;                      /* the module's main file (code bytes) */
	uint64_t bias;                 /* dwfl address - link-time address */
	struct segment *segs;
	size_t nsegs;
	struct u64map names;           /* function start -> index in strs */
	struct u64map abs;             /* (file, comp_dir) pointers -> index in strs */
	char **strs;                   /* strings we own */
	size_t nstrs, capstrs;
};

static struct symtab **cache;
static size_t ncache, capcache;

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

static const char *own(struct symtab *st, char *s)
{
	grow(&st->strs, &st->capstrs, st->nstrs + 1, sizeof *st->strs);
	return st->strs[st->nstrs++] = s;
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
 * likely the one running us, so copy our own vDSO image into a memfd; the
 * build-id check tells whether it is really the same.
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

static void symtab_open(struct symtab *st)
{
	const char *path = st->path;
	int vdso = strcmp(path, "[vdso]") == 0;
	if (path[0] != '/' && !vdso) {
		st->why = xasprintf("'%s' is not a file", path);
		return;
	}
	int fd = vdso ? open_vdso() : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		st->why = xasprintf("cannot open '%s'", path);
		return;
	}
	st->dwfl = dwfl_begin(&callbacks);
	if (st->dwfl == NULL) {
		close(fd);
		st->why = xasprintf("libdwfl: %s", dwfl_errmsg(-1));
		return;
	}
	dwfl_report_begin(st->dwfl);
	st->mod = dwfl_report_elf(st->dwfl, path_base(path), path, fd, 0, false); /* takes fd */
	dwfl_report_end(st->dwfl, NULL, NULL);
	if (st->mod == NULL) {
		st->why = xasprintf("'%s': %s", path, dwfl_errmsg(-1));
		return;
	}
	Dwarf_Addr bias;
	st->elf = dwfl_module_getelf(st->mod, &bias);
	if (st->elf == NULL || load_segments(st, st->elf) != 0) {
		st->why = xasprintf("'%s': not a readable ELF file", path);
		return;
	}
	st->bias = bias;
	const void *id;
	ssize_t idlen = dwelf_elf_gnu_build_id(st->elf, &id);
	if (st->build_id_len > 0 &&
	    (idlen != (ssize_t)st->build_id_len || memcmp(id, st->build_id, st->build_id_len) != 0))
		st->why = xasprintf("'%s' changed since the profile was taken (build-id differs)", path);
}

struct symtab *symtab_get(const char *path, const uint8_t *build_id, size_t build_id_len)
{
	for (size_t i = 0; i < ncache; i++) {
		struct symtab *c = cache[i];
		if (c->build_id_len == build_id_len && strcmp(c->path, path) == 0 &&
		    memcmp(c->build_id, build_id, build_id_len) == 0)
			return c;
	}
	struct symtab *st = xcalloc(1, sizeof *st);
	st->path = xstrdup(path);
	st->build_id_len = build_id_len < PCT_BUILD_ID_MAX ? build_id_len : PCT_BUILD_ID_MAX;
	memcpy(st->build_id, build_id, st->build_id_len);
	symtab_open(st);
	if (st->why && path[0] == '/')
		warnx_("no symbols for %s: %s", path_base(path), st->why);
	grow(&cache, &capcache, ncache + 1, sizeof *cache);
	cache[ncache++] = st;
	return st;
}

const char *symtab_why(const struct symtab *st)
{
	return st->why ? st->why : "";
}

int symtab_addr(const struct symtab *st, uint64_t off, uint64_t *addr)
{
	for (size_t i = 0; i < st->nsegs; i++)
		if (off >= st->segs[i].offset && off - st->segs[i].offset < st->segs[i].filesz) {
			*addr = off - st->segs[i].offset + st->segs[i].vaddr;
			return 0;
		}
	return -1;
}

int symtab_offset(const struct symtab *st, uint64_t addr, uint64_t *off)
{
	for (size_t i = 0; i < st->nsegs; i++)
		if (addr >= st->segs[i].vaddr && addr - st->segs[i].vaddr < st->segs[i].filesz) {
			*off = addr - st->segs[i].vaddr + st->segs[i].offset;
			return 0;
		}
	return -1;
}

/*
 * The function holding link-time address addr according to .eh_frame (or
 * .debug_frame): every function a compiler emits for unwinding has an
 * entry there, symbols or not, so this gives the true boundaries of static
 * functions in stripped files.
 */
static int fde_range(struct symtab *st, uint64_t addr, uint64_t *lo, uint64_t *hi)
{
	Dwarf_Addr bias, l, h;
	Dwarf_Frame *frame = NULL;
	Dwarf_CFI *cfi = dwfl_module_eh_cfi(st->mod, &bias);

	if (cfi == NULL || dwarf_cfi_addrframe(cfi, addr + st->bias - bias, &frame) != 0)
		return -1;
	int rc = dwarf_frame_info(frame, &l, &h, NULL) < 0 ? -1 : 0;
	free(frame);
	if (rc == 0) {
		*lo = l + bias - st->bias;
		*hi = h + bias - st->bias;
	}
	return rc;
}

/* The printed name of the function starting at start: the demangled
 * symbol name, or "MODULE+0xSTART" when there is none. */
static const char *intern_name(struct symtab *st, uint64_t start, const char *name)
{
	uint64_t *slot = u64map_get(&st->names, start);
	if (slot)
		return st->strs[*slot];
	char *d = name ? symtab_demangle(name) : NULL;
	if (d == NULL)
		d = name ? xstrdup(name) : xasprintf("%s+0x%llx", path_base(st->path), (unsigned long long)start);
	*u64map_slot(&st->names, start) = st->nstrs;
	return own(st, d);
}

int symtab_function_at(struct symtab *st, uint64_t addr, struct symbol *out)
{
	if (st->why)
		return -1;
	GElf_Off symoff;
	GElf_Sym sym;
	const char *name = dwfl_module_addrinfo(st->mod, addr + st->bias, &symoff, &sym, NULL, NULL, NULL);
	uint64_t sym_start = addr - symoff, lo, hi;
	int have_fde = fde_range(st, addr, &lo, &hi) == 0;
	/* A symbol without a size claims everything up to the next symbol;
	 * if an unwind entry starts after it, addr is in another function. */
	if (name && name[0] && !(sym.st_size == 0 && have_fde && lo > sym_start)) {
		out->start = sym_start;
		out->end = sym.st_size ? sym_start + sym.st_size : have_fde && lo == sym_start ? hi : 0;
		out->name = intern_name(st, sym_start, name);
		return 0;
	}
	if (!have_fde)
		return -1;
	out->start = lo;
	out->end = hi;
	out->name = intern_name(st, lo, NULL);
	return 0;
}

int symtab_find_function(struct symtab *st, const char *name, struct symbol *out)
{
	if (st->why)
		return -1;
	const char *plus = strstr(name, "+0x");
	if (plus && (size_t)(plus - name) == strlen(path_base(st->path)) &&
	    strncmp(name, path_base(st->path), (size_t)(plus - name)) == 0) {
		char *end;
		uint64_t a = strtoull(plus + 3, &end, 16);
		return *end == '\0' && symtab_function_at(st, a, out) == 0 && out->start == a ? 0 : -1;
	}
	int n = dwfl_module_getsymtab(st->mod);
	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr a;
		const char *s = dwfl_module_getsym_info(st->mod, i, &sym, &a, NULL, NULL, NULL);
		if (s == NULL || GELF_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_value == 0)
			continue;
		char *d = NULL;
		if (strcmp(s, name) == 0 || ((d = symtab_demangle(s)) && strcmp(d, name) == 0)) {
			free(d);
			return symtab_function_at(st, a - st->bias, out);
		}
		free(d);
	}
	return -1;
}

/* The name of a DIE, following DW_AT_abstract_origin and DW_AT_specification. */
static const char *die_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &attr));
	if (n == NULL)
		n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &attr));
	return n ? n : "??";
}

/* A relative DWARF file name joined to its CU's DW_AT_comp_dir (the
 * directory the compiler ran in), once per distinct name. */
static const char *absolute_source(struct symtab *st, Dwarf_Die *cu, const char *file)
{
	if (file[0] == '/')
		return file;
	Dwarf_Attribute attr;
	const char *dir = cu ? dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &attr)) : NULL;
	if (dir == NULL || dir[0] != '/')  /* e.g. glibc's "./stdlib": joining would not help */
		return file;
	uint64_t key = (uint64_t)(uintptr_t)file ^ ((uint64_t)(uintptr_t)dir << 1) ^ 0x5bd1e995;
	uint64_t *slot = u64map_get(&st->abs, key);
	if (slot)
		return st->strs[*slot];
	*u64map_slot(&st->abs, key) = st->nstrs;
	return own(st, xasprintf("%s/%s", dir, file));
}

/* "f@FILE:LINE;g@FILE:LINE" for the inlined subroutines holding addr. */
static const char *inline_chain(struct symtab *st, uint64_t addr)
{
	Dwarf_Addr cubias;
	Dwarf_Die *cu = dwfl_module_addrdie(st->mod, addr + st->bias, &cubias);
	Dwarf_Die *scopes = NULL;
	if (cu == NULL)
		return "";
	int n = dwarf_getscopes(cu, addr + st->bias - cubias, &scopes);
	Dwarf_Files *files = NULL;
	size_t nfiles = 0;
	char *chain = NULL;
	size_t len = 0;
	FILE *f = NULL;
	for (int i = 0; i < n; i++) {
		if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine)
			continue;
		if (f == NULL) {
			f = open_memstream(&chain, &len);
			dwarf_getsrcfiles(cu, &files, &nfiles);
		} else {
			fputc(';', f);
		}
		Dwarf_Attribute attr;
		Dwarf_Word cfile = 0, cline = 0;
		dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_file, &attr), &cfile);
		dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_line, &attr), &cline);
		const char *file = files && cfile < nfiles ? dwarf_filesrc(files, cfile, NULL, NULL) : NULL;
		const char *raw = die_name(&scopes[i]);
		char *d = symtab_demangle(raw);
		fprintf(f, "%s@%s:%llu", d ? d : raw, file ? absolute_source(st, cu, file) : "??",
			(unsigned long long)cline);
		free(d);
	}
	free(scopes);
	if (f == NULL)
		return "";
	fclose(f);
	return own(st, chain);
}

int symtab_srcline(struct symtab *st, uint64_t addr, struct srcline *out)
{
	if (st->why)
		return -1;
	Dwfl_Line *l = dwfl_module_getsrc(st->mod, addr + st->bias);
	int line = 0;
	const char *file = l ? dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL) : NULL;
	if (file == NULL || line <= 0)
		return -1;
	out->file = absolute_source(st, dwfl_linecu(l), file);
	out->line = line;
	out->inlined = inline_chain(st, addr);
	return 0;
}

size_t symtab_code(struct symtab *st, uint64_t addr, size_t len, const uint8_t **bytes)
{
	Elf_Scn *scn = NULL;
	if (st->why)
		return 0;
	while ((scn = elf_nextscn(st->elf, scn)) != NULL) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_ALLOC) ||
		    addr < sh.sh_addr || addr - sh.sh_addr >= sh.sh_size)
			continue;
		Elf_Data *data = elf_getdata(scn, NULL);
		if (data == NULL || data->d_buf == NULL || addr - sh.sh_addr >= data->d_size)
			return 0;
		size_t avail = data->d_size - (addr - sh.sh_addr);
		*bytes = (const uint8_t *)data->d_buf + (addr - sh.sh_addr);
		return len < avail ? len : avail;
	}
	return 0;
}

int symtab_machine(const struct symtab *st)
{
	GElf_Ehdr eh;
	return st->elf && gelf_getehdr(st->elf, &eh) ? eh.e_machine : 0;
}

void symtab_free_all(void)
{
	for (size_t c = 0; c < ncache; c++) {
		struct symtab *st = cache[c];
		if (st->dwfl)
			dwfl_end(st->dwfl);
		for (size_t i = 0; i < st->nstrs; i++)
			free(st->strs[i]);
		free(st->strs);
		u64map_free(&st->names);
		u64map_free(&st->abs);
		free(st->segs);
		free(st->why);
		free(st->path);
		free(st);
	}
	free(cache);
	cache = NULL;
	ncache = capcache = 0;
}
