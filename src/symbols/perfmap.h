/*
 * perfmap.h - names for JIT code from a perf map, the text file a JIT
 * compiler writes as /tmp/perf-PID.map for perf (Linux
 * tools/perf/Documentation/jit-interface.txt): node --perf-basic-prof,
 * the JVM's -XX:+DumpPerfMapAtExit, LuaJIT, CPython 3.12's -X perf...
 *
 * One line per symbol:
 *
 *   START SIZE NAME
 *
 * START and SIZE in hex (an optional "0x" is accepted, as the JVM writes
 * it), separated by one or more spaces, NAME the rest of the line (spaces
 * included).  Lines are appended as code is compiled, so a later line
 * whose range overlaps an earlier one describes newer code at those
 * addresses and wins there, as in perf.  A line of SIZE 0 names nothing.
 *
 * A map is hostile input like any other file pct reads: it is read only
 * if it is a regular file of at most PERFMAP_SIZE_MAX bytes whose lines
 * are at most PERFMAP_LINE_MAX bytes; a line that is not of the form
 * above, a range that passes 2^64, or an empty NAME rejects the whole map
 * (its code stays unnamed), with a reason that names the line.  Names
 * are kept as they are, any bytes but NUL and newline: printers escape
 * them (escape.h).
 *
 * Where a profile's map is (perfmap_path): first the copy `pct record`
 * kept beside the profile, STEM.perf-PID.map (perfmap_copy_name), then
 * /tmp/perf-PID.map.  Either is used only if it is plausibly the
 * profiled process's: a regular file (not followed through a symbolic
 * link), owned by the reading user or root, modified no earlier than
 * PERFMAP_CLOCK_SLACK_NS before the profile started (a map left by an
 * earlier process with the same pid is older).
 *
 * Samples in a process's anonymous executable memory are at absolute
 * addresses (profile.c), the addresses a map gives.
 */
#ifndef PCT_PERFMAP_H
#define PCT_PERFMAP_H

#include <stddef.h>
#include <stdint.h>

#define PERFMAP_SIZE_MAX (256u << 20)  /* bytes: a bigger map is not read nor kept */
#define PERFMAP_LINE_MAX 65536         /* bytes of a line, without its newline */
#define PERFMAP_CLOCK_SLACK_NS 1000000000 /* ns a map's mtime may precede the profile's start:
					     file times come from a coarser clock */

struct perfmap;

/*
 * Read the map at path.  Returns it, or NULL with a malloc'd reason in
 * *why ("'PATH' line N: what is wrong", "cannot open 'PATH': ...").
 */
struct perfmap *perfmap_load(const char *path, char **why);
void perfmap_free(struct perfmap *m);

/*
 * The symbol at absolute address addr: the last line of the map whose
 * range holds it.  Returns 0 with *name (owned by the map), *start and
 * *end (one past the last byte) set, or -1 if no line covers addr.
 */
int perfmap_lookup(const struct perfmap *m, uint64_t addr, const char **name, uint64_t *start, uint64_t *end);

/* 1 if path names a perf map by the convention perf and pct follow: its
 * base name is "perf-PID.map", or ends in ".perf-PID.map" (a copy kept
 * by pct record), PID decimal digits; else 0. */
int perfmap_is_name(const char *path);

/* "/tmp/perf-PID.map", malloc'd. */
char *perfmap_tmp_name(uint32_t pid);

/* The name of the copy of process pid's map kept beside the profile
 * file: file without its ".pct" suffix, then ".perf-PID.map" (malloc'd). */
char *perfmap_copy_name(const char *file, uint32_t pid);

/*
 * The map that names the JIT code of process pid, profiled in file
 * (the name it was read from) from start_ns (the header's start_time_ns,
 * ns since the epoch): the copy beside file, else /tmp/perf-PID.map, if
 * either is plausible (see above).  For a profile among a tree's files
 * "STEM.PID.pct" (or "STEM.PID.K.pct"), the copy is looked for as
 * "STEM.perf-PID.map" as well, and for a member of a tree file, named
 * "FILE:PID" (tree.h), beside FILE.  Returns a malloc'd absolute path, or NULL
 * with a malloc'd reason in *why naming /tmp/perf-PID.map.  This is the
 * map a report uses, and the one an archive of the profile should hold.
 */
char *perfmap_path(const char *file, uint32_t pid, int64_t start_ns, char **why);

/*
 * pct record's end: copy /tmp/perf-PID.map beside the run's profile file
 * as perfmap_copy_name(file, pid), if it is a regular file owned by the
 * effective user, modified no earlier than PERFMAP_CLOCK_SLACK_NS before
 * start_ns, and at most PERFMAP_SIZE_MAX bytes.  The copy is created
 * with O_EXCL | O_NOFOLLOW; an older copy of our own (from an earlier
 * run whose process had the same pid) is replaced.  Returns 1 if copied,
 * 0 if there is no map to keep, -1 with a malloc'd reason in *why.
 */
int perfmap_keep(const char *file, uint32_t pid, int64_t start_ns, char **why);

#endif
