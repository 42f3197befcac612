/*
 * symtab.h - what a module's file says about an address: the function,
 * the source line with its inlined-function chain, and the code bytes.
 *
 * Everything comes from the module's ELF file through elfutils: libdwfl
 * reads .symtab, else .dynsym, and finds separate debug info by build-id
 * (/usr/lib/debug/.build-id/xx/yyyy.debug) or .gnu_debuglink; libdw reads
 * DWARF line tables, inlined subroutines and .eh_frame.  C++ names are
 * demangled.  Addresses here are link-time addresses (what objdump and
 * addr2line show); samples carry file offsets, and symtab_addr() converts.
 */
#ifndef PCT_SYMTAB_H
#define PCT_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

struct symtab;

struct symbol {
	const char *name;              /* demangled; "FUNC@plt" for a PLT stub (as objdump names it);
					  "MODULE+0xSTART" if known only from .eh_frame */
	uint64_t start;                /* link-time address of the first byte */
	uint64_t end;                  /* one past the last byte, or 0 if unknown */
};

struct srcline {
	const char *file;              /* source file as DWARF names it */
	int line;                      /* 1-based */
	const char *inlined;           /* "f@FILE:LINE;g@FILE:LINE": the inlined functions holding
					  the address, innermost first, each with the call site it was
					  inlined at; "" if none */
};

/*
 * The symtab of the module at path with that build-id, opened on first use
 * and kept until symtab_free_all(); found by a hash, in constant time.
 * Only so many modules keep their files open (a quarter of RLIMIT_NOFILE):
 * the least recently used is closed and reopened when next used, and if
 * its file is then another (device, inode, size, mtime or build-id
 * differ), it names nothing more, with a warning.  Strings a symtab hands
 * out stay valid until symtab_free_all() all the same.  If the file cannot be read, or its
 * build-id differs from a non-empty build_id (the file changed since the
 * profile was taken), the symtab names nothing: symtab_why() says why, and
 * one warning is printed for a real file.  Never returns NULL.  "[vdso]"
 * is read from pct's own vDSO, whose build-id must match.
 */
struct symtab *symtab_get(const char *path, const uint8_t *build_id, size_t build_id_len);
void symtab_free_all(void);

/* The file read for st's module: its recorded path, or where modfile.h's
 * search found a file with its build-id (the build-id cache, --symfs,
 * debuginfod), opened first if need be; the recorded path if none is
 * found. */
const char *symtab_file(struct symtab *st);
/* The separate debug file libdwfl found for st's module (debuginfo.h),
 * or NULL if none (or the module names nothing).  Valid until the module
 * is closed to open others: copy it before asking other modules. */
const char *symtab_debug_file(struct symtab *st);
/* Why lookups name nothing ("" if they can). */
const char *symtab_why(const struct symtab *st);

/* The link-time address of file offset off; -1 if no loaded segment maps it. */
int symtab_addr(const struct symtab *st, uint64_t off, uint64_t *addr);

/*
 * The function holding addr: the symbol that covers it, else the function
 * .eh_frame says holds it (a static function of a stripped file is never
 * charged to the exported symbol before it).  Returns 0, or -1 if nothing
 * names addr.  Strings belong to the symtab.
 */
int symtab_function_at(struct symtab *st, uint64_t addr, struct symbol *out);

/* 1 if a symbol's name is a PLT stub's ("FUNC@plt", as above), else 0. */
int symbol_is_plt(const char *name);

/* A function by its name (raw or demangled) or "MODULE+0xSTART"; 0 or -1. */
int symtab_find_function(struct symtab *st, const char *name, struct symbol *out);

/* The source line of addr, with its inline chain; 0, or -1 without line info. */
int symtab_srcline(struct symtab *st, uint64_t addr, struct srcline *out);

/* One level of the inline chain of an address: a function inlined there,
 * and the call site (file, 1-based line; 0 if unknown) in the function it
 * was inlined into.  Strings belong to the symtab. */
struct inline_level {
	const char *name;              /* demangled */
	const char *call_file;
	int call_line;
};

/*
 * The inlined functions holding addr, innermost first: the levels of
 * symtab_srcline's inlined string, one struct each.  Returns their number
 * (0 if none, or without DWARF); the first min(that, max) are written to
 * out, which may be NULL when max is 0.
 */
size_t symtab_inlines(struct symtab *st, uint64_t addr, struct inline_level *out, size_t max);

/* The code bytes at [addr, addr + len) from the file's sections: a pointer
 * into the open file, valid until symtab_free_all() or until the module is
 * closed to open others (use it before asking other modules), and how
 * many bytes it holds (0 if none). */
size_t symtab_code(struct symtab *st, uint64_t addr, size_t len, const uint8_t **bytes);

/* The ELF e_machine of the module (EM_X86_64, EM_AARCH64, ...), or 0. */
int symtab_machine(const struct symtab *st);

/* The module's DT_SONAME ("libc.so.6"), or NULL if it has none or its
 * file cannot be read.  Valid until symtab_free_all(). */
const char *symtab_soname(struct symtab *st);

/* Open a module's file for reading: a regular file named by an absolute
 * path, or "[vdso]" (pct's own vDSO in a memfd).  Returns the descriptor,
 * or -1 with a malloc'd reason in *why. */
int symtab_open_file(const char *path, char **why);
/* A malloc'd demangled form of name, or NULL if it is not mangled. */
char *symtab_demangle(const char *name);

#endif
