/*
 * export.h - pct profiles in the formats other tools read (pct-export(1)).
 *
 * Each exporter writes the summed set s to out and returns 0, or -1 with a
 * message in err.  Their sources:
 *   gmon        GNU gmon.out, a histogram record and call arcs (glibc gmon/sys/gmon_out.h;
 *               the gprof manual, "gmon.out File Format")
 *   gperftools  the legacy CPU profile (gperftools docs/cpuprofile-fileformat.html)
 *   pprof       gzipped profile.proto (github.com/google/pprof proto/profile.proto,
 *               Debian golang-github-google-pprof-dev), encoded with protobuf-c
 *   callgrind   the Callgrind format (valgrind docs, "Callgrind Format Specification")
 *   folded      "root;...;leaf COUNT" lines (flamegraph.pl's stackcollapse output)
 *   speedscope  speedscope's JSON file format (www.speedscope.app/file-format-schema.json,
 *               shipped in the npm package speedscope), one sampled profile per thread
 *   perf-script the text `perf script` prints (perf-script(1)), samples in time order
 * The last two need every sample's time (format version 3, profile.h).
 */
#ifndef PCT_EXPORT_H
#define PCT_EXPORT_H

#include <stddef.h>
#include <stdio.h>

#include "pset.h"

struct cs_stack;
struct cs_frame;

/*
 * Frame k of an unwound stack as the exporters key places, with the
 * stack's samples (pset_addresses_all's terms): a module and link-time
 * address; or, unplaced, a module whose file cannot be read and the file
 * offset, or PSET_NO_MODULE and the absolute address.  A caller's address
 * is its return address - 1 (callstack.h).
 */
void export_frame(const struct pset *s, const struct cs_stack *st, size_t k, struct pset_addr *out);

/*
 * A call arc of the set's stacks, between two adjacent unwound frames
 * (functions of symbols: the formats that take arcs, gmon and callgrind,
 * have no inlined frames): from the caller frame (export_frame's place,
 * its return address - 1) to the callee function (its place, addr the
 * start of its symbol's function, or the frame's own address where no
 * symbol names it), with the samples whose stack holds it.  A stack
 * counts once for each arc it holds however often it repeats it (a
 * recursion), as `pct report --callers` counts a function's caller once
 * per stack; so the arcs into a function that does not recur, summed by
 * caller, are the rows of `pct report --callers` for it.
 */
struct export_arc {
	struct pset_addr from, to;     /* from.samples: the arc's samples */
};
/* Every arc of the set's stacks (callstack_each), in *out (malloc'd, *n of
 * them), in the order first met. */
void export_arcs(const struct pset *s, struct export_arc **out, size_t *n);

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
int export_speedscope(const struct pset *s, FILE *out, char *err, size_t errlen);
int export_perfscript(const struct pset *s, FILE *out, char *err, size_t errlen);

/*
 * What the exports with time (speedscope, perf-script) read: the samples
 * whose time is known to the ns (the profiles' ticks), each with its call
 * stack.  export_timed_load() fails, with "FILE: no sample times (format
 * version 2; record it again)" in err, when a profile of the set has no
 * time log (or "pct merge keeps none..." for a merged file, "recorded
 * with PCT_TIME_AREA=0..." for one recorded without a log); it unwinds the set's -g stacks once (callstack_each), and
 * prints one note on standard error giving the samples left out because
 * their time is known only to a bucket or not at all.
 */
struct export_timed {
	const struct pset *s;
	struct cs_frame *frames;       /* every stack record's frames, leaf first */
	size_t nframes, capframes;
	size_t **first;                /* [profile][stack record]: its first frame in frames */
	uint32_t **count;              /* [profile][stack record]: its frames */
	uint64_t origin_ns;            /* the set's origin: the smallest hdr.clock_start_ns
					  (CLOCK_MONOTONIC, ns) */
	uint64_t timed;                /* samples kept: the ticks' weights */
	uint64_t untimed;              /* samples left out: in buckets, or untimed */
	double period;                 /* the set's effective period, in its dimension's unit
					  (ns for time; events for a hardware event) */
	int time;                      /* 1 if the dimension is time (seconds) */
};
int export_timed_load(const struct pset *s, struct export_timed *t, char *err, size_t errlen);
void export_timed_free(struct export_timed *t);

/*
 * The frames of tick tk of profile prof, leaf first, in *frames (valid
 * until export_timed_free; tmp holds the one frame of a tick without a
 * stack record: its sampled PC); returns how many, 0 if the tick names no
 * sample of the profile (a corrupt file).  A frame is callstack.h's: a
 * module of the set and link-time address, or PSET_NO_MODULE and the
 * absolute PC when no module's file places it.
 */
size_t export_tick_frames(const struct export_timed *t, size_t prof, const struct profile_tick *tk,
			  const struct cs_frame **frames, struct cs_frame *tmp);

/* Where a frame of profile prof is, for a name: its module (placed 1, addr
 * the link-time address, name and start its function's if a symbol holds
 * it, else NULL); or, unplaced (placed 0), the module mapping the PC
 * (addr its file offset) or PSET_NO_MODULE (addr the absolute PC), with
 * no name.  The name is the symtab's (symtab_free_all). */
struct export_place {
	uint32_t module;
	uint64_t addr;
	int placed;
	const char *name;
	uint64_t start;
};
void export_place(const struct pset *s, size_t prof, const struct cs_frame *f, struct export_place *out);

/* The thread slot + 1 (0: unknown) of tick tk of profile p, or UINT32_MAX
 * if it names no sample or thread of p. */
uint32_t export_tick_thread(const struct profile *p, const struct profile_tick *tk);

#endif
