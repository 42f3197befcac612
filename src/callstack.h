/*
 * callstack.h - the call stacks of profiles recorded with `pct record -g`.
 *
 * Each stack record holds the registers and a copy of the thread's stack
 * at the sample (pct_format.h, struct pct_stack).  They are unwound here,
 * after the run, with elfutils' unwinder (libdwfl: dwfl_attach_state and
 * dwfl_getthread_frames) over the modules' CFI, .eh_frame or
 * .debug_frame, with the stack copy as the only memory: what perf does for
 * --call-graph=dwarf.  So code built without frame pointers unwinds too.
 */
#ifndef PCT_CALLSTACK_H
#define PCT_CALLSTACK_H

#include <stddef.h>
#include <stdint.h>

#include "aggregate.h"
#include "pset.h"

#define CALLSTACK_MAX_FRAMES 256

/* A frame: a module of the set (pset.h) and a link-time address in it, or
 * PSET_NO_MODULE and the absolute PC.  A caller's address is its return
 * address - 1, inside the call instruction, so that it names the caller's
 * function and line. */
struct cs_frame {
	uint32_t module;
	uint64_t addr;
	uint64_t pc;                   /* the absolute PC, as the process saw it */
};

/* One unwound stack: frames leaf first. */
struct cs_stack {
	size_t profile;                /* index in the set */
	const struct profile_stack *rec;
	const struct cs_frame *frames;
	size_t nframes;
};

/* Does any profile of the set have stack records? */
int callstack_present(const struct pset *s);

/*
 * Unwind every stack record of the set and call fn for each (the frames
 * are valid during the call).  Returns the samples the records stand for.
 */
uint64_t callstack_each(const struct pset *s, void (*fn)(const struct cs_stack *st, void *arg), void *arg);

/* The name a frame has in folded stacks and call graphs: its function,
 * else "MODULE+0xADDR", else "[unknown]"; ';' in a name becomes ':'.
 * Valid until symtab_free_all(). */
const char *callstack_frame_name(const struct pset *s, const struct cs_frame *f, char *buf, size_t len);

/*
 * Fold the set's stacks into a one-key agg: key "root;...;leaf" (function
 * names, callstack_frame_name), value the samples.  Returns the samples.
 */
uint64_t callstack_fold(const struct pset *s, struct agg *out);

/* For each function, the samples whose stack holds it at least once (its
 * total, or inclusive, time): a two-key agg by (module, function), with
 * the module path, as dump names it.  Returns the samples. */
uint64_t callstack_totals(const struct pset *s, struct agg *out);

/*
 * The callers (callees 0) or callees (1) of function fn from folded
 * stacks: one row per neighbouring function with the samples of fn it
 * accounts for, taking fn's outermost frame in each stack; a callee row
 * "[self]" holds the samples where fn is the leaf.  Returns fn's total.
 */
uint64_t callstack_neighbours(const struct agg *folded, const char *fn, int callees, struct agg *out);

#endif
