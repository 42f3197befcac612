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

int export_gmon(const struct pset *s, FILE *out, char *err, size_t errlen);
int export_gperftools(const struct pset *s, FILE *out, char *err, size_t errlen);
int export_pprof(const struct pset *s, FILE *out, char *err, size_t errlen);
int export_callgrind(const struct pset *s, FILE *out, char *err, size_t errlen);
int export_folded(const struct pset *s, FILE *out, char *err, size_t errlen);

#endif
