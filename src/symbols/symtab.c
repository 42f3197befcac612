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
 *
 * Symtabs are found by a hash of (path, build-id), and only so many keep
 * their Dwfl session (and so their file descriptors: the module's file,
 * its debug file, a dwz file) open at a time: past a quarter of
 * RLIMIT_NOFILE the least recently used one is closed, and reopened when
 * it is used again.  What a symtab hands out (names, files, chains) is
 * its own copy, interned by content, so it outlives the session; the
 * indexes that point into the session (symbols, inline tables) are
 * rebuilt.  A reopened file must be the one first read: same device,
 * inode, size, mtime and build-id.
 */
#define _GNU_SOURCE
#include <dwarf.h>
#include <errno.h>
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
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pct_format.h"
#include "debuginfo.h"
#include "modfile.h"
#include "infile.h"
#include "perfmap.h"
#include "symtab.h"
#include "u64map.h"
#include "util.h"

/* libiberty's demangler (Debian libiberty-dev), the one binutils and gdb
 * use: C++ (the Itanium ABI), and Rust in both its legacy scheme (the
 * "::h<hash>" suffix left out) and v0. */
#include <libiberty/demangle.h>
#include <limits.h>

struct segment {
	uint64_t offset, filesz, vaddr;
};

/* A function symbol, for binary search: libdwfl's dwfl_module_addrinfo
 * scans the whole symbol table on every call, too slow for 10^5 addresses. */
struct fsym {
	uint64_t start, size;          /* link-time */
	const char *name;              /* in the ELF string table */
	int global;
	const char *shown;             /* its intern_name, once asked for */
	int untyped;                   /* STT_NOTYPE: a label of code (assembler's) */
	uint64_t limit;                /* the end of its section, 0 if unknown */
	uint64_t bound;                /* size 0: where its claim ends, the next symbol's start
					  or its section's end, whichever comes first */
};

struct symtab {
	char *path;
	char *found;                   /* the file opened for it (modfile_open), or NULL */
	struct symtab *newer, *older;  /* the list of open sessions, most recent first */
	int opened;                    /* the file was read once: a reopen must find it again */
	struct stat file;              /* what it was then (dev, ino, size, mtime) */
	uint8_t seen_id[PCT_BUILD_ID_MAX]; /* the build-id the file had then */
	ssize_t seen_id_len;
	int machine;                   /* e_machine, or 0 */
	const char *soname;            /* DT_SONAME (interned), or NULL */
	int soname_ready;              /* soname was looked for */
	uint8_t build_id[PCT_BUILD_ID_MAX];
	size_t build_id_len;
	char *why;                     /* non-NULL: lookups name nothing, and why */
	struct perfmap *jit;           /* a perf map of JIT code (perfmap.h), not an ELF file:
					  function names only, at absolute addresses */
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Elf *elf;                      /* the module's main file (code bytes) */
	uint64_t bias;                 /* dwfl address - link-time address */
	struct segment *segs;
	size_t nsegs;
	struct u64map cus;             /* CU DIE offset -> index in inl */
	struct cu_inlines *inl;
	size_t ninl, capinl;
	int dwarf_ready;               /* the session's DWARF was opened and its dwz file set; -1: unusable */
	struct debuginfo_alt alt;      /* the dwz file handed to libdw, owned by the session */
	int warned_walk;               /* a compile unit was walked in part, with a warning */
	struct fsym *syms;             /* sorted by start, one per start; built on first use */
	size_t nsyms;
	int syms_ready;
	uint64_t *fde_starts;          /* link-time starts of .eh_frame's functions, sorted */
	size_t nfde;
	int fde_ready;
	struct u64map fde_done;        /* function number + 1 (in fde_starts) -> its span + 1 */
	struct fde_span { uint64_t from, hi; } *spans;  /* [from, hi): addresses whose range is known */
	size_t nspans, capspans;
	struct u64map names;           /* function start -> index in strs */
	struct u64map abs;             /* (file, comp_dir) pointers -> index in strs */
	char **strs;                   /* strings we own */
	size_t nstrs, capstrs;
	struct u64map interned;        /* hash of a string's bytes -> index in strs (probing on) */
};

/*
 * The inlined subroutines of one compile unit, indexed once: dwarf_getscopes
 * walks the CU's DIE tree on every call, far too slow for 10^5 addresses.
 * Inlined ranges nest, so they are flattened into disjoint segments, each
 * naming the innermost inlined subroutine there; an address is then one
 * binary search away from its chain (parent links lead outwards).
 */
struct inline_entry {
	int parent;                    /* index of the enclosing inlined entry, or -1 */
	int depth;
	const char *name;              /* owned by the symtab */
	const char *call_file;
	uint64_t call_line;
	const char *chain;             /* "f@FILE:LINE;..." from here outwards, built on use */
};

struct inline_segment {
	uint64_t lo, hi;               /* DWARF addresses */
	int entry;
};

struct cu_inlines {
	struct inline_entry *e;
	size_t n, cap;
	struct inline_segment *seg;
	size_t nseg;
};

static struct symtab **cache;
static size_t ncache, capcache;
static size_t *cache_slots;            /* hash of (path, build-id) -> index in cache + 1; 0 empty */
static size_t ncache_slots;            /* a power of two, or 0 */
static struct symtab *newest, *oldest; /* symtabs whose Dwfl session is open */
static size_t nopen, open_max;

char *symtab_demangle(const char *name)
{
	if (name[0] != '_' || (name[1] != 'Z' && name[1] != 'R'))
		return NULL;
	return cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI | DMGL_AUTO);
}

static const char *own(struct symtab *st, char *s)
{
	grow(&st->strs, &st->capstrs, st->nstrs + 1, sizeof *st->strs);
	return st->strs[st->nstrs++] = s;
}

/* The symtab's copy of the string s: one per distinct content, so it
 * survives the session it was read from and compares equal by pointer.
 * If take, s is malloc'd and taken over. */
static size_t intern_index(struct symtab *st, const char *s, int take)
{
	uint64_t key = fnv1a(FNV1A_BASIS, s, strlen(s));
	uint64_t *slot;
	while ((slot = u64map_get(&st->interned, key)) != NULL) {
		if (strcmp(st->strs[*slot], s) == 0) {
			if (take)
				free((char *)s);
			return *slot;
		}
		key = key * 0x9e3779b97f4a7c15u + 1;   /* another key for a colliding string */
	}
	*u64map_slot(&st->interned, key) = st->nstrs;
	own(st, take ? (char *)s : xstrdup(s));
	return st->nstrs - 1;
}

static const char *intern_str(struct symtab *st, const char *s, int take)
{
	size_t i = intern_index(st, s, take);   /* first: it may move strs */
	return st->strs[i];
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

int symtab_open_file(const char *path, char **why)
{
	int vdso = strcmp(path, "[vdso]") == 0;
	if (path[0] != '/' && !vdso) {
		*why = xasprintf("'%s' is not a file", path);
		return -1;
	}
	/* A profile is data from elsewhere: a path naming a FIFO or a device
	 * must neither hang us nor be opened at all. */
	const char *reason;
	int fd = vdso ? open_vdso() : infile_open(path, 0, NULL, &reason);
	if (fd < 0) {
		int e = errno;
		*why = vdso ? xasprintf("cannot copy the vDSO") : xasprintf("cannot open '%s': %s", path, reason);
		errno = e;
		return -1;
	}
	return fd;
}

/*
 * What is wrong with the section headers of a module's file, or NULL if
 * nothing is: symbols (.symtab, .dynsym), lines and .eh_frame are all
 * found through them, so corrupt ones silently name nothing.  Malloc'd.
 */
static char *section_header_problem(Elf *elf)
{
	GElf_Ehdr eh;
	size_t size = 0, n, strndx;
	if (elf_rawfile(elf, &size) == NULL || gelf_getehdr(elf, &eh) == NULL)
		return NULL;
	if (eh.e_shoff == 0 && eh.e_shnum == 0)
		return xasprintf("it has no section headers");
	size_t entsize = eh.e_ident[EI_CLASS] == ELFCLASS64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
	if (eh.e_shnum != 0 && eh.e_shentsize != entsize)
		return xasprintf("e_shentsize is %u, not %zu", eh.e_shentsize, entsize);
	if (elf_getshdrnum(elf, &n) != 0)
		return xasprintf("the section header table: %s", elf_errmsg(-1));
	if (eh.e_shoff > size || n > (size - eh.e_shoff) / entsize)
		return xasprintf("the section header table (offset 0x%llx, %u entries) lies past the end of the "
				 "file (%zu bytes)", (unsigned long long)eh.e_shoff, eh.e_shnum, size);
	if (elf_getshdrstrndx(elf, &strndx) != 0 || (n && strndx >= n))
		return xasprintf("the section name table index (e_shstrndx %u) is not a section", eh.e_shstrndx);
	for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) == NULL)
			return xasprintf("section %zu: %s", elf_ndxscn(scn), elf_errmsg(-1));
		if (sh.sh_type != SHT_NOBITS && sh.sh_type != SHT_NULL &&
		    (sh.sh_offset > size || sh.sh_size > size - sh.sh_offset)) {
			const char *name = elf_strptr(elf, strndx, sh.sh_name);
			return xasprintf("section %zu (%s) at offset 0x%llx, 0x%llx bytes, lies past the end of the "
					 "file (%zu bytes)", elf_ndxscn(scn), name ? name : "?",
					 (unsigned long long)sh.sh_offset, (unsigned long long)sh.sh_size, size);
		}
	}
	return NULL;
}

/* How many Dwfl sessions may be open at once: each holds up to 3
 * descriptors (the module's file, its debug file, a dwz file); a quarter
 * of RLIMIT_NOFILE less 32 for the rest of pct, at least 2, at most 1024. */
static size_t open_limit(void)
{
	if (open_max == 0) {
		struct rlimit rl;
		rlim_t n = getrlimit(RLIMIT_NOFILE, &rl) == 0 ? rl.rlim_cur : 1024;
		if (n == RLIM_INFINITY || n > 32 + 4 * 1024)
			n = 32 + 4 * 1024;
		open_max = n > 32 + 4 * 2 ? (size_t)(n - 32) / 4 : 2;
	}
	return open_max;
}

static void unlink_open(struct symtab *st)
{
	if (st->newer)
		st->newer->older = st->older;
	else
		newest = st->older;
	if (st->older)
		st->older->newer = st->newer;
	else
		oldest = st->newer;
	st->newer = st->older = NULL;
}

static void push_open(struct symtab *st)
{
	st->older = newest;
	st->newer = NULL;
	if (newest)
		newest->newer = st;
	else
		oldest = st;
	newest = st;
}

/* End st's Dwfl session, and drop the indexes that point into it. */
static void session_end(struct symtab *st)
{
	if (st->dwfl == NULL)
		return;
	dwfl_end(st->dwfl);
	debuginfo_alt_release(&st->alt);
	st->dwarf_ready = 0;
	st->dwfl = NULL;
	st->mod = NULL;
	st->elf = NULL;
	free(st->syms);
	st->syms = NULL;
	st->nsyms = 0;
	st->syms_ready = 0;
	for (size_t i = 0; i < st->ninl; i++) {
		free(st->inl[i].e);
		free(st->inl[i].seg);
	}
	free(st->inl);
	st->inl = NULL;
	st->ninl = st->capinl = 0;
	u64map_free(&st->cus);
	u64map_free(&st->abs);           /* keyed by pointers into the session */
	unlink_open(st);
	nopen--;
}

/* The file of st's module (modfile.h says where it is looked for), or -1
 * with st->why set. */
static int open_module(struct symtab *st)
{
	free(st->found);
	st->found = NULL;
	if (strcmp(st->path, "[vdso]") == 0) {
		int fd = symtab_open_file(st->path, &st->why);
		if (fd >= 0)
			st->found = xstrdup(st->path);
		return fd;
	}
	return modfile_open(st->path, st->build_id, st->build_id_len, &st->found, &st->why);
}

static int use(struct symtab *st);

/*
 * st's DWARF (st's session open), opened once a session before anything
 * reads a DIE: libdw would open a dwz file the DWARF names itself, with a
 * blocking open(2) of whatever path the module chose, on the first
 * attribute that refers to it; debuginfo_alt_attach hands it the one
 * found by build-id, or a stand-in.  NULL if the module has none.
 */
static Dwarf *module_dwarf(struct symtab *st)
{
	Dwarf_Addr bias;
	if (st->dwarf_ready < 0)
		return NULL;
	Dwarf *dw = dwfl_module_getdwarf(st->mod, &bias);
	if (dw && !st->dwarf_ready)
		st->dwarf_ready = debuginfo_alt_attach(dw, &st->alt) == 0 ? 1 : -1;
	return st->dwarf_ready > 0 ? dw : NULL;
}

const char *symtab_debug_file(struct symtab *st)
{
	const char *mainfile = NULL, *debugfile = NULL;
	if (use(st) != 0 || module_dwarf(st) == NULL)
		return NULL;
	dwfl_module_info(st->mod, NULL, NULL, NULL, NULL, NULL, &mainfile, &debugfile);
	return debugfile && (mainfile == NULL || strcmp(debugfile, mainfile) != 0) ? debugfile : NULL;
}

const char *symtab_file(struct symtab *st)
{
	if (st->found == NULL)
		use(st);
	return st->found ? st->found : st->path;
}

/* Open st's file in a Dwfl session of its own, or set st->why.  The first
 * time, check it against the profile's build-id; later, that it is the
 * file read the first time. */
static void symtab_open(struct symtab *st)
{
	const char *path = st->path;
	int vdso = strcmp(path, "[vdso]") == 0;
	while (nopen >= open_limit())
		session_end(oldest);
	int fd = open_module(st);
	if (fd < 0 && (errno == EMFILE || errno == ENFILE) && nopen > 0) {
		/* descriptors held elsewhere in pct: close half our sessions */
		for (size_t n = (nopen + 1) / 2; n > 0; n--)
			session_end(oldest);
		free(st->why);
		st->why = NULL;
		fd = open_module(st);
	}
	if (fd < 0)
		return;
	struct stat sb;
	if (fstat(fd, &sb) != 0) {
		st->why = xasprintf("cannot read '%s': %s", path, strerror(errno));
		close(fd);
		return;
	}
	if (st->opened && !vdso &&
	    (sb.st_dev != st->file.st_dev || sb.st_ino != st->file.st_ino || sb.st_size != st->file.st_size ||
	     sb.st_mtim.tv_sec != st->file.st_mtim.tv_sec || sb.st_mtim.tv_nsec != st->file.st_mtim.tv_nsec)) {
		st->why = xasprintf("'%s' changed while pct read it (another file, or modified)", path);
		close(fd);
		return;
	}
	st->dwfl = dwfl_begin(&debuginfo_callbacks);
	if (st->dwfl == NULL) {
		close(fd);
		st->why = xasprintf("libdwfl: %s", dwfl_errmsg(-1));
		return;
	}
	push_open(st);
	nopen++;
	dwfl_report_begin(st->dwfl);
	st->mod = dwfl_report_elf(st->dwfl, path_base(st->path), st->found, fd, 0, false); /* takes fd */
	dwfl_report_end(st->dwfl, NULL, NULL);
	if (st->mod == NULL) {
		st->why = xasprintf("'%s': %s", path, dwfl_errmsg(-1));
		session_end(st);
		return;
	}
	debuginfo_reported(st->mod, st->path);
	Dwarf_Addr bias;
	st->elf = dwfl_module_getelf(st->mod, &bias);
	if (st->elf == NULL || (!st->opened && load_segments(st, st->elf) != 0)) {
		st->why = xasprintf("'%s': not a readable ELF file", path);
		session_end(st);
		return;
	}
	st->bias = bias;
	const void *id;
	ssize_t idlen = dwelf_elf_gnu_build_id(st->elf, &id);
	if (st->opened) {
		if (idlen != st->seen_id_len || (idlen > 0 && memcmp(id, st->seen_id, (size_t)idlen) != 0)) {
			st->why = xasprintf("'%s' changed while pct read it (build-id differs)", path);
			session_end(st);
		}
		return;
	}
	st->opened = 1;
	st->file = sb;
	st->seen_id_len = idlen > 0 && idlen <= PCT_BUILD_ID_MAX ? idlen : 0;
	if (st->seen_id_len > 0)
		memcpy(st->seen_id, id, (size_t)idlen);
	GElf_Ehdr eh;
	st->machine = gelf_getehdr(st->elf, &eh) ? eh.e_machine : 0;
	char *bad = section_header_problem(st->elf);
	if (bad) {
		/* once per module: symtab_get opens each module once */
		warnx_("'%s': corrupt section headers: %s; its functions and lines may be missing", path, bad);
		free(bad);
	}
	if (st->build_id_len > 0 &&
	    (idlen != (ssize_t)st->build_id_len || memcmp(id, st->build_id, st->build_id_len) != 0)) {
		st->why = xasprintf("'%s' changed since the profile was taken (build-id differs)", path);
		session_end(st);
	}
}

/* st with its session open (the most recently used), or -1 if it names
 * nothing (st->why says why). */
static int use(struct symtab *st)
{
	if (st->why || st->jit)
		return -1;
	if (st->dwfl == NULL) {
		symtab_open(st);
		if (st->why) {
			warnx_("no more symbols for %s: %s", path_base(st->path), st->why);
			return -1;
		}
	} else if (newest != st) {
		unlink_open(st);
		push_open(st);
	}
	return 0;
}

static void cache_rehash(size_t nslots)
{
	free(cache_slots);
	cache_slots = xcalloc(nslots, sizeof *cache_slots);
	ncache_slots = nslots;
	for (size_t c = 0; c < ncache; c++) {
		size_t i = module_hash(cache[c]->path, cache[c]->build_id, cache[c]->build_id_len) & (nslots - 1);
		while (cache_slots[i])
			i = (i + 1) & (nslots - 1);
		cache_slots[i] = c + 1;
	}
}

struct symtab *symtab_get(const char *path, const uint8_t *build_id, size_t build_id_len)
{
	if (build_id_len > PCT_BUILD_ID_MAX)
		build_id_len = PCT_BUILD_ID_MAX;
	if (2 * (ncache + 1) > ncache_slots)
		cache_rehash(ncache_slots ? 2 * ncache_slots : 64);
	size_t i = module_hash(path, build_id, build_id_len) & (ncache_slots - 1);
	for (; cache_slots[i]; i = (i + 1) & (ncache_slots - 1)) {
		struct symtab *c = cache[cache_slots[i] - 1];
		if (c->build_id_len == build_id_len && strcmp(c->path, path) == 0 &&
		    memcmp(c->build_id, build_id, build_id_len) == 0)
			return c;
	}
	struct symtab *st = xcalloc(1, sizeof *st);
	st->path = xstrdup(path);
	st->build_id_len = build_id_len;
	memcpy(st->build_id, build_id, st->build_id_len);
	if (build_id_len == 0 && perfmap_is_name(path)) {
		/* JIT code: its offsets are addresses, which the map names */
		st->jit = perfmap_load(path, &st->why);
		st->segs = xmalloc(sizeof *st->segs);
		st->segs[0] = (struct segment){ 0, UINT64_MAX, 0 };
		st->nsegs = 1;
	} else {
		symtab_open(st);
	}
	if (st->why && path[0] == '/')
		warnx_("no symbols for %s: %s", path_base(path), st->why);
	grow(&cache, &capcache, ncache + 1, sizeof *cache);
	cache[ncache++] = st;
	cache_slots[i] = ncache;
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

/*
 * The function holding link-time address addr according to .eh_frame (or
 * .debug_frame): every function a compiler emits for unwinding has an
 * entry there, symbols or not, so this gives the true boundaries of static
 * functions in stripped files.
 */
/*
 * The functions' start addresses, from the binary search table of
 * .eh_frame_hdr (LSB Core Specification, "The .eh_frame_hdr section"):
 * version 1, then eh_frame_ptr, fde_count and a table of (initial
 * location, FDE address) pairs sorted by location.  Read in the encoding
 * every GNU linker writes (fde_count udata4, table datarel sdata4); none
 * otherwise.
 */
static void load_fde_starts(struct symtab *st)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	st->fde_ready = 1;
	if (st->elf == NULL || elf_getshdrstrndx(st->elf, &shstrndx) != 0)
		return;
	while ((scn = elf_nextscn(st->elf, scn)) != NULL) {
		GElf_Shdr sh;
		const char *name;
		if (gelf_getshdr(scn, &sh) == NULL || (name = elf_strptr(st->elf, shstrndx, sh.sh_name)) == NULL ||
		    strcmp(name, ".eh_frame_hdr") != 0)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		const uint8_t *p = d ? d->d_buf : NULL;
		uint32_t count;
		if (p == NULL || d->d_size < 12 || p[0] != 1 || (p[1] & 0x0f) != 0x0b || p[2] != 0x03 || p[3] != 0x3b)
			return;
		memcpy(&count, p + 8, 4);
		if (count > (d->d_size - 12) / 8)
			return;
		st->fde_starts = xcalloc(count ? count : 1, sizeof *st->fde_starts);
		for (uint32_t i = 0; i < count; i++) {
			int32_t loc;
			memcpy(&loc, p + 12 + 8 * (size_t)i, 4);
			st->fde_starts[i] = sh.sh_addr + (uint64_t)(int64_t)loc;
		}
		st->nfde = count;
		return;
	}
}

/*
 * The function holding addr by its FDE.  libdw gives the rows of a CFI
 * table, whose ranges end at every push and pop of a prologue; so the
 * start is the last function start at or below addr (.eh_frame_hdr), and
 * the end is where the rows from it stop being contiguous or the next
 * function starts.  Without the table, the row's range, which is right
 * only for functions of one row.
 */
static int fde_range(struct symtab *st, uint64_t addr, uint64_t *lo, uint64_t *hi)
{
	Dwarf_Addr bias, l, h;
	Dwarf_Frame *frame = NULL;

	if (!st->fde_ready)
		load_fde_starts(st);
	size_t a = 0, b = st->nfde;    /* the last start <= addr */
	while (a < b) {
		size_t m = a + (b - a) / 2;
		if (st->fde_starts[m] <= addr)
			a = m + 1;
		else
			b = m;
	}
	/* an address of a function met before, among the rows walked then:
	 * the same answer, without asking libdw again */
	uint64_t *known = a ? u64map_get(&st->fde_done, a) : NULL;
	if (known && addr >= st->spans[*known - 1].from && addr < st->spans[*known - 1].hi) {
		*lo = st->fde_starts[a - 1];
		*hi = st->spans[*known - 1].hi;
		return 0;
	}
	Dwarf_CFI *cfi = dwfl_module_eh_cfi(st->mod, &bias);
	Dwarf_Addr shift = st->bias - bias;   /* link-time -> CFI addresses */
	if (cfi == NULL || dwarf_cfi_addrframe(cfi, addr + shift, &frame) != 0)
		return -1;
	int rc = dwarf_frame_info(frame, &l, &h, NULL) < 0 ? -1 : 0;
	free(frame);
	if (rc != 0)
		return -1;
	*lo = l - shift;
	*hi = h - shift;
	if (a == 0 || st->fde_starts[a - 1] > *lo)
		return 0;
	uint64_t from = *lo;
	*lo = st->fde_starts[a - 1];
	uint64_t next = a < st->nfde ? st->fde_starts[a] : UINT64_MAX;
	int rows = 0;
	for (; *hi < next && rows < 4096; rows++) {
		if (dwarf_cfi_addrframe(cfi, *hi + shift, &frame) != 0)
			break;
		int ok = dwarf_frame_info(frame, &l, &h, NULL) >= 0 && l - shift == *hi;
		free(frame);
		if (!ok)
			break;
		*hi = h - shift;
	}
	if (*hi > next)
		*hi = next;
	/* Any address from this row to hi is in one of the rows walked, and
	 * its walk would stop where this one did (unless cut at 4096 rows):
	 * remember the span (the widest seen) */
	if (rows < 4096) {
		uint64_t *slot = u64map_slot(&st->fde_done, a);
		if (*slot == 0) {
			grow(&st->spans, &st->capspans, st->nspans + 1, sizeof *st->spans);
			*slot = ++st->nspans;
			st->spans[*slot - 1] = (struct fde_span){ from, *hi };
		} else if (from < st->spans[*slot - 1].from) {
			st->spans[*slot - 1] = (struct fde_span){ from, *hi };
		}
	}
	return 0;
}

/* The printed name of the function starting at start: the demangled
 * symbol name, or "MODULE+0xSTART" when there is none. */
static const char *intern_name(struct symtab *st, uint64_t start, const char *name)
{
	uint64_t *slot = u64map_get(&st->names, start);
	if (slot)
		return st->strs[*slot];
	/* without its version: "__libc_start_main@@GLIBC_2.34" is
	 * __libc_start_main (no mangled name holds '@') */
	char *plain = NULL;
	if (name && name[0] && strchr(name + 1, '@') && strcmp(strchr(name + 1, '@'), "@plt") != 0)
		plain = xasprintf("%.*s", (int)(strchr(name + 1, '@') - name), name);
	if (plain)
		name = plain;
	char *d = name ? symtab_demangle(name) : NULL;
	if (d == NULL)
		d = name ? xstrdup(name) : xasprintf("%s+0x%llx", path_base(st->path), (unsigned long long)start);
	free(plain);
	*u64map_slot(&st->names, start) = st->nstrs;
	return own(st, d);
}

static size_t leading_underscores(const char *s)
{
	return strspn(s, "_");
}

static int cmp_fsym(const void *pa, const void *pb)
{
	const struct fsym *a = pa, *b = pb;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	/* at one address, prefer a typed, global, sized symbol, and of
	 * aliases the public one (fewest leading underscores: clock_gettime,
	 * not __clock_gettime): it is listed first */
	if (a->untyped != b->untyped)
		return a->untyped - b->untyped;
	if (a->global != b->global)
		return b->global - a->global;
	if ((a->size != 0) != (b->size != 0))
		return a->size ? -1 : 1;
	size_t ua = leading_underscores(a->name), ub = leading_underscores(b->name);
	if (ua != ub)
		return ua < ub ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* A section of the module's main file by name, or NULL. */
static Elf_Scn *section_named(Elf *elf, const char *name, GElf_Shdr *sh)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return NULL;
	for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
		const char *n;
		if (gelf_getshdr(scn, sh) && (n = elf_strptr(elf, shstrndx, sh->sh_name)) && strcmp(n, name) == 0)
			return scn;
	}
	return NULL;
}

/* The function a relocation names: its dynamic symbol, demangled; for an
 * IRELATIVE one (no symbol: libc's string functions), the function at its
 * addend, the IFUNC resolver, whose symbol carries the public name, else
 * "*ABS*+0xADDEND" as objdump says; or NULL.  Malloc'd. */
static char *reloc_name(struct symtab *st, const GElf_Shdr *rsh, const GElf_Rela *r)
{
	Elf *elf = st->elf;
	Elf_Scn *symscn = elf_getscn(elf, rsh->sh_link);
	GElf_Shdr ssh;
	GElf_Sym sym;
	Elf_Data *d;
	size_t k = GELF_R_SYM(r->r_info);
	if (k == 0) {
		const struct fsym *best = NULL;
		for (size_t i = 0; i < st->nsyms; i++)
			if (st->syms[i].start == (uint64_t)r->r_addend && (best == NULL || cmp_fsym(&st->syms[i], best) < 0))
				best = &st->syms[i];
		if (best) {
			char *dm = symtab_demangle(best->name);
			return dm ? dm : xstrdup(best->name);
		}
		return r->r_addend ? xasprintf("*ABS*+0x%llx", (unsigned long long)r->r_addend) : NULL;
	}
	if (symscn == NULL || gelf_getshdr(symscn, &ssh) == NULL || (d = elf_getdata(symscn, NULL)) == NULL ||
	    gelf_getsym(d, (int)k, &sym) == NULL)
		return NULL;
	const char *n = elf_strptr(elf, ssh.sh_link, sym.st_name);
	if (n == NULL || n[0] == '\0')
		return NULL;
	char *dm = symtab_demangle(n);
	return dm ? dm : xstrdup(n);
}

/* The relocations of .rela.plt and .rela.dyn, for the GOT slots the PLT
 * jumps through. */
struct plt_relocs {
	Elf_Data *data[2];
	GElf_Shdr sh[2];
	size_t n[2];
	struct u64map slot;            /* GOT slot address -> section << 40 | index */
};

/* The name of the symbol whose GOT slot is got, or NULL. */
static char *got_slot_name(struct symtab *st, const struct plt_relocs *pr, uint64_t got)
{
	uint64_t *v = u64map_get((struct u64map *)&pr->slot, got);
	GElf_Rela r;
	if (v == NULL || gelf_getrela(pr->data[*v >> 40], (int)(*v & ((1ULL << 40) - 1)), &r) == NULL)
		return NULL;
	return reloc_name(st, &pr->sh[*v >> 40], &r);
}

/*
 * PLT stubs as objdump and perf name them, "func@plt".  On x86-64 each
 * entry of .plt, .plt.sec (with IBT) and .plt.got jumps through a GOT slot
 * (jmp *disp32(%rip), after an optional endbr64 and bnd prefix), and the
 * relocation of that slot (.rela.plt's JUMP_SLOT, .rela.dyn's GLOB_DAT)
 * names the function; .plt's first entry and IBT's .plt entries jump
 * through no relocated slot and stay unnamed.  Elsewhere (AArch64) entry i
 * after .plt's 32-byte header is .rela.plt[i], as perf assumes.
 */
static void load_plt_symbols(struct symtab *st, size_t *cap)
{
	Elf *elf = st->elf;
	GElf_Ehdr eh;
	if (elf == NULL || gelf_getehdr(elf, &eh) == NULL)
		return;
	struct plt_relocs pr = { 0 };
	static const char *const rel[2] = { ".rela.plt", ".rela.dyn" };
	for (int s = 0; s < 2; s++) {
		Elf_Scn *scn = section_named(elf, rel[s], &pr.sh[s]);
		if (scn && pr.sh[s].sh_type == SHT_RELA && pr.sh[s].sh_entsize &&
		    (pr.data[s] = elf_getdata(scn, NULL)) != NULL)
			pr.n[s] = pr.data[s]->d_size / pr.sh[s].sh_entsize;
	}
	if (pr.n[0] + pr.n[1] == 0)
		return;
	for (uint64_t s = 0; s < 2; s++)
		for (size_t i = 0; i < pr.n[s]; i++) {
			GElf_Rela r;
			if (gelf_getrela(pr.data[s], (int)i, &r) && u64map_get(&pr.slot, r.r_offset) == NULL)
				*u64map_slot(&pr.slot, r.r_offset) = s << 40 | i;
		}
	static const char *const plts[] = { ".plt", ".plt.sec", ".plt.got" };
	for (size_t p = 0; p < sizeof plts / sizeof plts[0]; p++) {
		GElf_Shdr sh;
		Elf_Scn *scn = section_named(elf, plts[p], &sh);
		Elf_Data *d;
		if (scn == NULL || sh.sh_type != SHT_PROGBITS || (d = elf_getdata(scn, NULL)) == NULL ||
		    d->d_buf == NULL)
			continue;
		const uint8_t *code = d->d_buf;
		uint64_t ent = sh.sh_entsize ? sh.sh_entsize : 16, size = d->d_size;
		if (eh.e_machine == EM_AARCH64 && p == 0) {
			for (size_t i = 0; i < pr.n[0] && 32 + (i + 1) * 16 <= size; i++) {
				GElf_Rela r;
				char *n = gelf_getrela(pr.data[0], (int)i, &r) ? reloc_name(st, &pr.sh[0], &r) : NULL;
				if (n == NULL)
					continue;
				grow(&st->syms, cap, st->nsyms + 1, sizeof *st->syms);
				st->syms[st->nsyms++] = (struct fsym){ sh.sh_addr + 32 + i * 16, 16,
								       intern_str(st, xasprintf("%s@plt", n), 1), 0, NULL, 0, 0, 0 };
				free(n);
			}
			continue;
		}
		if (eh.e_machine != EM_X86_64 || ent < 6 || ent > 64)
			continue;
		for (uint64_t at = 0; at + ent <= size; at += ent) {
			const uint8_t *e = code + at;
			size_t k = 0;
			if (ent >= 10 && e[0] == 0xf3 && e[1] == 0x0f && e[2] == 0x1e && e[3] == 0xfa)
				k = 4;                 /* endbr64 */
			if (e[k] == 0xf2)
				k++;                   /* bnd */
			if (k + 6 > ent || e[k] != 0xff || e[k + 1] != 0x25)
				continue;
			int32_t disp = (int32_t)((uint32_t)e[k + 2] | (uint32_t)e[k + 3] << 8 | (uint32_t)e[k + 4] << 16 |
						 (uint32_t)e[k + 5] << 24);
			uint64_t got = sh.sh_addr + at + k + 6 + (uint64_t)(int64_t)disp;
			char *n = got_slot_name(st, &pr, got);
			if (n == NULL)
				continue;
			grow(&st->syms, cap, st->nsyms + 1, sizeof *st->syms);
			st->syms[st->nsyms++] = (struct fsym){ sh.sh_addr + at, ent, intern_str(st, xasprintf("%s@plt", n), 1), 0, NULL, 0, 0, 0 };
			free(n);
		}
	}
	u64map_free(&pr.slot);
}

/*
 * Index the function symbols (.symtab, else .dynsym, as libdwfl picks):
 * STT_FUNC and STT_GNU_IFUNC, and, as perf takes them, the untyped
 * (STT_NOTYPE) symbols of executable sections, which is how assemblers
 * such as nasm export code (libx264's, libopenh264's SIMD kernels: size
 * 0, no type), except ARM's mapping symbols ($x, $d...) and a label inside
 * a sized function.  A symbol of size 0 claims the addresses up to the
 * next symbol, within its section (and symtab_function_at bounds it by
 * .eh_frame): perf's symbols__fixup_end.
 */
static void load_symbols(struct symtab *st)
{
	size_t cap = 0;
	int n = dwfl_module_getsymtab(st->mod);
	st->syms_ready = 1;
	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr a;
		GElf_Word shndx;
		Elf *elf = NULL;
		Dwarf_Addr bias = 0;
		GElf_Shdr sh;
		Elf_Scn *scn;
		const char *name = dwfl_module_getsym_info(st->mod, i, &sym, &a, &shndx, &elf, &bias);
		if (name == NULL || name[0] == '\0' || shndx == SHN_UNDEF || a == 0)
			continue;
		int type = GELF_ST_TYPE(sym.st_info);
		int untyped = type == STT_NOTYPE;
		if (type != STT_FUNC && type != STT_GNU_IFUNC && !untyped)
			continue;
		uint64_t limit = 0;
		int exec = 0;
		if (shndx < SHN_LORESERVE && elf && (scn = elf_getscn(elf, shndx)) != NULL && gelf_getshdr(scn, &sh)) {
			exec = (sh.sh_flags & (SHF_ALLOC | SHF_EXECINSTR)) == (SHF_ALLOC | SHF_EXECINSTR);
			if (sh.sh_addr + sh.sh_size > sh.sh_addr && sh.sh_addr + bias >= st->bias)
				limit = sh.sh_addr + sh.sh_size + bias - st->bias;
		}
		if (untyped && (!exec || name[0] == '$'))
			continue;
		grow(&st->syms, &cap, st->nsyms + 1, sizeof *st->syms);
		st->syms[st->nsyms++] = (struct fsym){ a - st->bias, sym.st_size, name,
						       GELF_ST_BIND(sym.st_info) != STB_LOCAL, NULL, untyped,
						       limit, 0 };
	}
	load_plt_symbols(st, &cap);
	sort(st->syms, st->nsyms, sizeof *st->syms, cmp_fsym);
	size_t k = 0;   /* keep the preferred symbol at each address */
	uint64_t covered = 0;  /* the end of the sized typed symbols so far */
	for (size_t i = 0; i < st->nsyms; i++) {
		const struct fsym *f = &st->syms[i];
		if (k > 0 && st->syms[k - 1].start == f->start)
			continue;
		if (f->untyped && f->start < covered)  /* a label inside a function */
			continue;
		if (!f->untyped && f->size && f->start + f->size > covered)
			covered = f->start + f->size;
		st->syms[k++] = *f;
	}
	st->nsyms = k;
	for (size_t i = 0; i < k; i++) {
		struct fsym *f = &st->syms[i];
		f->bound = i + 1 < k ? st->syms[i + 1].start : UINT64_MAX;
		if (f->limit > f->start && f->limit < f->bound)
			f->bound = f->limit;
	}
}

/* The symbol covering addr: a sized one that contains it, or a sizeless
 * one, which claims everything up to its bound (the next symbol, or its
 * section's end). */
static const struct fsym *symbol_at(struct symtab *st, uint64_t addr)
{
	if (!st->syms_ready)
		load_symbols(st);
	size_t lo = 0, hi = st->nsyms;
	while (lo < hi) {   /* the first symbol starting after addr */
		size_t mid = lo + (hi - lo) / 2;
		if (st->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	const struct fsym *f = &st->syms[lo - 1];
	return f->size == 0 ? (addr < f->bound ? f : NULL) : addr - f->start < f->size ? f : NULL;
}

int symbol_is_plt(const char *name)
{
	size_t n = strlen(name);
	return n > 4 && strcmp(name + n - 4, "@plt") == 0;
}

int symtab_function_at(struct symtab *st, uint64_t addr, struct symbol *out)
{
	if (st->jit)
		return perfmap_lookup(st->jit, addr, &out->name, &out->start, &out->end);
	if (use(st) != 0)
		return -1;
	const struct fsym *f = symbol_at(st, addr);
	uint64_t lo = 0, hi = 0;
	/* A symbol with a size is the answer: the unwind table (slow to ask,
	 * libdw parses an entry per call) only serves symbols without one,
	 * and addresses no symbol covers. */
	int have_fde = !(f && f->size) && fde_range(st, addr, &lo, &hi) == 0;
	/* A symbol without a size claims everything up to the next symbol;
	 * if an unwind entry starts after it, addr is in another function. */
	if (f && !(f->size == 0 && have_fde && lo > f->start)) {
		out->start = f->start;
		out->end = f->size ? f->start + f->size : have_fde && lo == f->start && hi < f->bound ? hi :
			   f->bound != UINT64_MAX ? f->bound : 0;
		if (f->shown == NULL)
			((struct fsym *)f)->shown = intern_name(st, f->start, f->name);
		out->name = f->shown;
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
	if (use(st) != 0)
		return -1;
	const char *plus = strstr(name, "+0x");
	if (plus && (size_t)(plus - name) == strlen(path_base(st->path)) &&
	    strncmp(name, path_base(st->path), (size_t)(plus - name)) == 0) {
		char *end;
		uint64_t a = strtoull(plus + 3, &end, 16);
		return *end == '\0' && symtab_function_at(st, a, out) == 0 && out->start == a ? 0 : -1;
	}
	if (!st->syms_ready)
		load_symbols(st);
	for (size_t i = 0; i < st->nsyms; i++) {
		const char *s = st->syms[i].name;
		char *d = NULL;
		if (strcmp(s, name) == 0 || ((d = symtab_demangle(s)) && strcmp(d, name) == 0)) {
			free(d);
			return symtab_function_at(st, st->syms[i].start, out);
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
	Dwarf_Attribute attr;
	const char *dir = file[0] == '/' || cu == NULL ? NULL : dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &attr));
	if (dir && dir[0] != '/')          /* e.g. glibc's "./stdlib": joining would not help */
		dir = NULL;
	uint64_t key = (uint64_t)(uintptr_t)file ^ ((uint64_t)(uintptr_t)dir << 1) ^ 0x5bd1e995;
	uint64_t *slot = u64map_get(&st->abs, key);
	if (slot)
		return st->strs[*slot];
	size_t i = dir ? intern_index(st, xasprintf("%s/%s", dir, file), 1) : intern_index(st, file, 0);
	*u64map_slot(&st->abs, key) = i;
	return st->strs[i];
}

struct range_event {
	uint64_t at;
	int open;                      /* 1 opens, 0 closes */
	int entry, depth;
};

static int cmp_events(const void *pa, const void *pb)
{
	const struct range_event *a = pa, *b = pb;
	if (a->at != b->at)
		return a->at < b->at ? -1 : 1;
	if (a->open != b->open)
		return a->open - b->open;          /* closes first */
	return a->open ? a->depth - b->depth : b->depth - a->depth;
}

/*
 * Bounds on one compile unit's walk, against hostile DWARF.  libdw's
 * dwarf_siblingof steps over a DIE's whole subtree (unless the producer
 * wrote DW_AT_sibling), so a walk costs the unit's size once per level it
 * descends: real code nests a few dozen levels (namespaces, classes, a
 * function, its blocks and inlined subroutines), and 256 bounds the cost
 * at 256 times the unit's size.  The ranges listed by the unit's inlined
 * subroutines are each at least a byte of DWARF, unless many DIEs share
 * one list: at most as many as the unit has bytes, plus 2^20, are read and
 * taken in all.
 */
#define WALK_DEPTH_MAX 256
#define WALK_RANGES_SLACK (1u << 20)

struct walk {
	struct symtab *st;
	struct cu_inlines *ci;
	Dwarf_Die *cu;
	Dwarf_Files *files;
	size_t nfiles;
	struct range_event *ev;
	size_t nev, capev;
	struct range { uint64_t lo, hi; } *pool;  /* the ranges of the lists read */
	size_t npool, cappool;
	struct u64map lists;           /* a DW_AT_ranges (form, value) -> (its first in pool + 1) << 32 | count */
	uint64_t steps, ranges_max;    /* ranges read or taken so far, and at most */
	int deep, many;                /* the walk left out DIEs past WALK_DEPTH_MAX, ranges past ranges_max */
};

/* One level of the walk: the next DIE to visit there, and the inlined
 * entry and inline depth its DIEs are in. */
struct walk_level {
	Dwarf_Die die;
	int parent, depth;
	int level;                     /* DIE nesting: 0 for the unit's children */
};

/* Record the inlined subroutine die (in entry parent, at inline depth
 * depth) and its ranges; its entry's index. */
static int add_inline(struct walk *w, Dwarf_Die *die, int parent, int depth)
{
	struct cu_inlines *ci = w->ci;
	Dwarf_Attribute attr;
	Dwarf_Word cfile = 0, cline = 0;
	dwarf_formudata(dwarf_attr(die, DW_AT_call_file, &attr), &cfile);
	dwarf_formudata(dwarf_attr(die, DW_AT_call_line, &attr), &cline);
	const char *file = w->files && cfile < w->nfiles ? dwarf_filesrc(w->files, cfile, NULL, NULL) : NULL;
	const char *raw = die_name(die);
	char *d = symtab_demangle(raw);
	grow(&ci->e, &ci->cap, ci->n + 1, sizeof *ci->e);
	int me = (int)ci->n++;
	ci->e[me] = (struct inline_entry){ parent, depth, d ? intern_str(w->st, d, 1) : intern_str(w->st, raw, 0),
					   file ? absolute_source(w->st, w->cu, file) : "??", cline, NULL };
	/* a range list is read once, however many DIEs name it (hostile
	 * DWARF shares one long list, or one of base-address entries that
	 * libdw steps through on every call) */
	Dwarf_Attribute ra;
	Dwarf_Word key = 0;
	uint64_t *known = NULL;
	if (dwarf_attr(die, DW_AT_ranges, &ra) && dwarf_formudata(&ra, &key) == 0)
		known = u64map_slot(&w->lists, (uint64_t)dwarf_whatform(&ra) << 56 ^ key);
	size_t from = w->npool;
	if (known && *known) {
		from = (size_t)(*known >> 32) - 1;
	} else {
		Dwarf_Addr base, lo, hi;
		ptrdiff_t off = 0;
		while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
			if (++w->steps > w->ranges_max) {
				w->many = 1;
				break;
			}
			if (lo < hi) {
				grow(&w->pool, &w->cappool, w->npool + 1, sizeof *w->pool);
				w->pool[w->npool++] = (struct range){ lo, hi };
			}
		}
		if (known)  /* (first + 1) << 32 | count */
			*known = (uint64_t)(from + 1) << 32 | (w->npool - from);
	}
	size_t count = known ? (size_t)(*known & 0xffffffffu) : w->npool - from;
	for (size_t i = from; i < from + count; i++) {
		if (++w->steps > w->ranges_max) {
			w->many = 1;
			break;
		}
		grow(&w->ev, &w->capev, w->nev + 2, sizeof *w->ev);
		w->ev[w->nev++] = (struct range_event){ w->pool[i].lo, 1, me, depth };
		w->ev[w->nev++] = (struct range_event){ w->pool[i].hi, 0, me, depth };
	}
	return me;
}

/* The inlined subroutines under the compile unit's DIE, in the order of
 * the DIEs (an entry's parent comes before it), walked with a stack of
 * levels on the heap (recursion would overflow the C stack). */
static void walk_dies(struct walk *w)
{
	struct walk_level *lv = NULL;
	size_t n = 0, cap = 0;
	Dwarf_Die first;
	if (dwarf_child(w->cu, &first) != 0)
		return;
	grow(&lv, &cap, 1, sizeof *lv);
	lv[n++] = (struct walk_level){ first, -1, 0, 0 };
	while (n > 0) {
		Dwarf_Die die = lv[n - 1].die;
		int parent = lv[n - 1].parent, depth = lv[n - 1].depth, level = lv[n - 1].level, me = parent;
		/* this level moves on to die's sibling, after die's children */
		if (dwarf_siblingof(&die, &lv[n - 1].die) != 0)
			n--;
		int tag = dwarf_tag(&die);
		if (tag == DW_TAG_inlined_subroutine)
			me = add_inline(w, &die, parent, depth);
		/* types and variables hold no code: skip their subtrees */
		if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine && tag != DW_TAG_lexical_block &&
		    tag != DW_TAG_namespace && tag != DW_TAG_class_type && tag != DW_TAG_structure_type &&
		    tag != DW_TAG_try_block && tag != DW_TAG_catch_block)
			continue;
		Dwarf_Die child;
		if (dwarf_child(&die, &child) != 0)
			continue;
		if (level + 1 >= WALK_DEPTH_MAX) {
			w->deep = 1;
			continue;
		}
		grow(&lv, &cap, n + 1, sizeof *lv);
		lv[n++] = (struct walk_level){ child, me, me != parent ? depth + 1 : depth, level + 1 };
	}
	free(lv);
}

/* Bytes of the unit whose DIE is cu (its header included), or 0. */
static uint64_t unit_bytes(Dwarf_Die *cu)
{
	Dwarf *dw = dwarf_cu_getdwarf(cu->cu);
	Dwarf_Off at = dwarf_dieoffset(cu) - dwarf_cuoffset(cu), next;
	size_t hsize;
	if (dw == NULL || dwarf_next_unit(dw, at, &next, &hsize, NULL, NULL, NULL, NULL, NULL, NULL) != 0 || next <= at)
		return 0;
	return next - at;
}

/* A max-heap of open inlined entries, by inline depth then by the order
 * they were opened: its top is the innermost entry open. */
struct open_entry {
	int depth;
	int entry;
	size_t order;
};

static int open_above(const struct open_entry *a, const struct open_entry *b)
{
	return a->depth != b->depth ? a->depth > b->depth : a->order > b->order;
}

static void heap_push(struct open_entry **h, size_t *n, size_t *cap, struct open_entry x)
{
	grow(h, cap, *n + 1, sizeof **h);
	size_t i = (*n)++;
	while (i > 0 && open_above(&x, &(*h)[(i - 1) / 2])) {
		(*h)[i] = (*h)[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	(*h)[i] = x;
}

static void heap_pop(struct open_entry *h, size_t *n)
{
	struct open_entry x = h[--*n];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= *n)
			break;
		if (c + 1 < *n && open_above(&h[c + 1], &h[c]))
			c++;
		if (!open_above(&h[c], &x))
			break;
		h[i] = h[c];
		i = c;
	}
	if (*n > 0)
		h[i] = x;
}

static struct cu_inlines *cu_index(struct symtab *st, Dwarf_Die *cu)
{
	uint64_t key = dwarf_dieoffset(cu);
	uint64_t *slot = u64map_get(&st->cus, key);
	if (slot)
		return &st->inl[*slot];
	grow(&st->inl, &st->capinl, st->ninl + 1, sizeof *st->inl);
	struct cu_inlines *ci = &st->inl[st->ninl];
	memset(ci, 0, sizeof *ci);
	*u64map_slot(&st->cus, key) = st->ninl++;

	struct walk w = { .st = st, .ci = ci, .cu = cu, .ranges_max = WALK_RANGES_SLACK + unit_bytes(cu) };
	dwarf_getsrcfiles(cu, &w.files, &w.nfiles);
	walk_dies(&w);
	free(w.pool);
	u64map_free(&w.lists);
	if ((w.deep || w.many) && !st->warned_walk) {
		st->warned_walk = 1;
		warnx_("'%s': the compile unit at offset 0x%llx %s; inlined frames there may be missing",
		       symtab_file(st), (unsigned long long)key,
		       w.deep ? "nests DIEs deeper than " STR(WALK_DEPTH_MAX) " levels"
			      : "lists more inline ranges than it has bytes");
	}
	sort(w.ev, w.nev, sizeof *w.ev, cmp_events);
	/*
	 * Sweep: between consecutive event points, the innermost open entry
	 * (the heap's top).  An entry may be open through several ranges of
	 * its own: it counts them, and the heap's items of an entry whose
	 * count fell to 0 are dropped when they reach the top, so each item is
	 * pushed and popped once: O(n log n) for n ranges.
	 */
	size_t *count = xcalloc(ci->n ? ci->n : 1, sizeof *count);
	struct open_entry *heap = NULL;
	size_t nheap = 0, capheap = 0, capseg = 0, nranges = 0, order = 0;
	uint64_t last = 0;
	for (size_t i = 0; i < w.nev; i++) {
		const struct range_event *ev = &w.ev[i];
		if (nranges && ev->at > last) {
			while (count[heap[0].entry] == 0)
				heap_pop(heap, &nheap);
			grow(&ci->seg, &capseg, ci->nseg + 1, sizeof *ci->seg);
			ci->seg[ci->nseg++] = (struct inline_segment){ last, ev->at, heap[0].entry };
		}
		last = ev->at;
		if (ev->open) {
			count[ev->entry]++;
			nranges++;
			heap_push(&heap, &nheap, &capheap, (struct open_entry){ ev->depth, ev->entry, order++ });
		} else if (count[ev->entry] > 0) {
			count[ev->entry]--;
			nranges--;
		}
	}
	free(heap);
	free(count);
	free(w.ev);
	return ci;
}

/* "f@FILE:LINE;g@FILE:LINE" for entry e and the entries enclosing it. */
static const char *entry_chain(struct symtab *st, struct cu_inlines *ci, int e)
{
	if (ci->e[e].chain)
		return ci->e[e].chain;
	const char *outer = ci->e[e].parent >= 0 ? entry_chain(st, ci, ci->e[e].parent) : "";
	ci->e[e].chain = intern_str(st, xasprintf("%s@%s:%llu%s%s", ci->e[e].name, ci->e[e].call_file,
						  (unsigned long long)ci->e[e].call_line, *outer ? ";" : "", outer), 1);
	return ci->e[e].chain;
}

/* The innermost inlined entry holding addr, in *ci's table, or -1. */
static int inline_entry_at(struct symtab *st, uint64_t addr, struct cu_inlines **pci)
{
	Dwarf_Addr cubias;
	Dwarf_Die *cu = module_dwarf(st) ? dwfl_module_addrdie(st->mod, addr + st->bias, &cubias) : NULL;
	if (cu == NULL)
		return -1;
	struct cu_inlines *ci = *pci = cu_index(st, cu);
	uint64_t a = addr + st->bias - cubias;
	size_t lo = 0, hi = ci->nseg;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ci->seg[mid].hi <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == ci->nseg || a < ci->seg[lo].lo)
		return -1;
	return ci->seg[lo].entry;
}

/* "f@FILE:LINE;g@FILE:LINE" for the inlined subroutines holding addr. */
static const char *inline_chain(struct symtab *st, uint64_t addr)
{
	struct cu_inlines *ci;
	int e = inline_entry_at(st, addr, &ci);
	return e < 0 ? "" : entry_chain(st, ci, e);
}

size_t symtab_inlines(struct symtab *st, uint64_t addr, struct inline_level *out, size_t max)
{
	struct cu_inlines *ci;
	size_t n = 0;
	if (use(st) != 0)
		return 0;
	for (int e = inline_entry_at(st, addr, &ci); e >= 0; e = ci->e[e].parent, n++)
		if (n < max)
			out[n] = (struct inline_level){ ci->e[e].name, ci->e[e].call_file,
							ci->e[e].call_line > INT_MAX ? 0 : (int)ci->e[e].call_line };
	return n;
}

int symtab_srcline(struct symtab *st, uint64_t addr, struct srcline *out)
{
	if (use(st) != 0)
		return -1;
	Dwfl_Line *l = module_dwarf(st) ? dwfl_module_getsrc(st->mod, addr + st->bias) : NULL;
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
	if (use(st) != 0)
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
	return st->machine;
}

const char *symtab_soname(struct symtab *st)
{
	if (st->soname_ready)
		return st->soname;
	if (use(st) != 0)
		return NULL;
	st->soname_ready = 1;
	for (Elf_Scn *scn = elf_nextscn(st->elf, NULL); scn; scn = elf_nextscn(st->elf, scn)) {
		GElf_Shdr sh;
		Elf_Data *d;
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_DYNAMIC || (d = elf_getdata(scn, NULL)) == NULL)
			continue;
		/* one entry per d_size / entry: bounded by the section */
		size_t n = sh.sh_entsize ? d->d_size / sh.sh_entsize : 0;
		for (size_t i = 0; i < n; i++) {
			GElf_Dyn dyn;
			if (gelf_getdyn(d, (int)i, &dyn) == NULL || dyn.d_tag == DT_NULL)
				break;
			const char *name;
			if (dyn.d_tag == DT_SONAME && (name = elf_strptr(st->elf, sh.sh_link, dyn.d_un.d_val)) != NULL) {
				st->soname = intern_str(st, name, 0);
				return st->soname;
			}
		}
		break;
	}
	return NULL;
}

void symtab_free_all(void)
{
	for (size_t c = 0; c < ncache; c++) {
		struct symtab *st = cache[c];
		session_end(st);
		for (size_t i = 0; i < st->nstrs; i++)
			free(st->strs[i]);
		free(st->strs);
		u64map_free(&st->names);
		u64map_free(&st->fde_done);
		free(st->spans);
		u64map_free(&st->interned);
		u64map_free(&st->abs);
		u64map_free(&st->cus);
		for (size_t i = 0; i < st->ninl; i++) {
			free(st->inl[i].e);
			free(st->inl[i].seg);
		}
		free(st->inl);
		free(st->segs);
		free(st->syms);
		free(st->fde_starts);
		free(st->why);
		perfmap_free(st->jit);
		free(st->path);
		free(st->found);
		free(st);
	}
	free(cache);
	cache = NULL;
	ncache = capcache = 0;
	free(cache_slots);
	cache_slots = NULL;
	ncache_slots = 0;
	open_max = 0;
}
