/*
 * symtab.h - from (module, offset in its file) to a function name.
 *
 * Symbols come from the module's ELF file through elfutils' libdwfl, which
 * reads .symtab, else .dynsym, and finds separate debug info by build-id
 * or .gnu_debuglink.  C++ and other Itanium-ABI names are demangled.
 */
#ifndef PCT_SYMTAB_H
#define PCT_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

struct symtab;

/*
 * Open the ELF file at path for lookups.  If build_id_len > 0 and the file
 * on disk has another build-id, the file changed since the profile was
 * taken: the symtab then names nothing and symtab_why() says so.  Never
 * returns NULL.
 */
struct symtab *symtab_open(const char *path, const uint8_t *build_id, size_t build_id_len);

/* Why lookups name nothing ("" if they can). */
const char *symtab_why(const struct symtab *st);

/*
 * The function holding file offset off: its (demangled) name, owned by the
 * symtab, with its link-time start address in *start and the link-time
 * address of off in *addr; or NULL if nothing names off.  A function with
 * no symbol but an unwind (.eh_frame) entry is named "MODULE+0xSTART".
 */
const char *symtab_function(struct symtab *st, uint64_t off, uint64_t *start, uint64_t *addr);

void symtab_close(struct symtab *st);

/* A malloc'd demangled form of name, or NULL if it is not mangled. */
char *symtab_demangle(const char *name);

#endif
