/*
 * export.h - pct profiles in the formats other tools read (pct-export(1)).
 *
 * Each exporter writes the summed set s to out and returns 0, or -1 with a
 * message in err.  Their sources:
 *   gmon        GNU gmon.out, histogram records (glibc gmon/sys/gmon_out.h;
 *               the gprof manual, "gmon.out File Format")
 *   gperftools  the legacy CPU profile (gperftools docs/cpuprofile-fileformat.html)
 *   pprof       gzipped profile.proto (github.com/google/pprof proto/profile.proto,
 *               Debian golang-github-google-pprof-dev), encoded with protobuf-c
 *   callgrind   the Callgrind format (valgrind docs, "Callgrind Format Specification")
 *   folded      "root;...;leaf COUNT" lines (flamegraph.pl's stackcollapse output)
 */
#ifndef PCT_EXPORT_H
#define PCT_EXPORT_H

#include <stddef.h>
#include <stdio.h>

#include "pset.h"

struct cs_stack;

/*
 * Frame k of an unwound stack as the exporters key places, with the
 * stack's samples (pset_addresses_all's terms): a module and link-time
 * address; or, unplaced, a module whose file cannot be read and the file
 * offset, or PSET_NO_MODULE and the absolute address.  A caller's address
 * is its return address - 1 (callstack.h).
 */
void export_frame(const struct pset *s, const struct cs_stack *st, size_t k, struct pset_addr *out);

struct symtab;

/* The source file of the function that starts at fn_start itself, not of
 * code inlined at its first instruction: the call site of the outermost
 * function inlined there (symtab_inlines), else the line table's file;
 * "???" if unknown.  Valid until symtab_free_all(). */
const char *export_function_file(struct symtab *st, uint64_t fn_start);

int export_gmon(const struct pset *s, FILE *out, char *err, size_t errlen);
int export_gperftools(const struct pset *s, FILE *out, char *err, size_t errlen);
int export_pprof(const struct pset *s, FILE *out, char *err, size_t errlen);
int export_callgrind(const struct pset *s, FILE *out, char *err, size_t errlen);
int export_folded(const struct pset *s, FILE *out, char *err, size_t errlen);

#endif
