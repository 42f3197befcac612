/*
 * callstack.h - the call stacks of profiles recorded with `pct record -g`.
 *
 * Each stack record holds the registers and a copy of the thread's stack
 * at the sample (pct_format.h, struct pct_stack).  They are unwound here,
 * after the run, with elfutils' unwinder (libdwfl: dwfl_attach_state and
 * dwfl_getthread_frames) over the modules' CFI, .eh_frame or
 * .debug_frame, with the stack copy as the only memory: what perf does for
 * --call-graph=dwarf.  So code built without frame pointers unwinds too.
 * On x86_64 the plain CFI rules of each PC are cached and applied by
 * callstack.c itself; any other stack is left to libdwfl, so the frames
 * are libdwfl's either way ($PCT_UNWIND=libdwfl: libdwfl for every stack).
 */
#ifndef PCT_CALLSTACK_H
#define PCT_CALLSTACK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "aggregate.h"
#include "pset.h"
#include "symtab.h"

#define CALLSTACK_MAX_FRAMES 256
#define CALLSTACK_MAX_INLINES 16       /* inlined functions kept at one frame, the innermost */
#define CALLSTACK_RUNTIME_SONAME "libpct.so"  /* pct's runtime: DT_SONAME libpct.so[.N] */
#define CS_INLINE_SUFFIX " (inline)"   /* an inlined function's frame is "NAME (inline)", as
					  google-pprof names it */

/* A frame: a module of the set (pset.h) and a link-time address in it, or
 * PSET_NO_MODULE and the absolute PC.  A caller's address is its return
 * address - 1, inside the call instruction, so that it names the caller's
 * function and line. */
struct cs_frame {
	uint32_t module;
	uint64_t addr;
	uint64_t pc;                   /* the absolute PC, as the process saw it */
};

/* One unwound stack: frames leaf first, pct's own left out. */
struct cs_stack {
	size_t profile;                /* index in the set */
	const struct profile_stack *rec;
	const struct cs_frame *frames;
	size_t nframes;
	int rooted;                    /* 1: unwound to its root (see callstack_each) */
};

/* Does any profile of the set have stack records? */
int callstack_present(const struct pset *s);

/*
 * Unwind every stack record of the set and call fn for each (the frames
 * are valid during the call).  Returns the samples the records stand for.
 *
 * A stack is unwound to its root (rooted 1) when libdwfl's
 * dwfl_getthread_frames ends without an error: the CFI of the last frame
 * marks its return address undefined (the outermost frame: _start, the
 * thread start in clone/clone3 say so), or a frame returns to address 0.
 * It is not (rooted 0) when the unwinding stopped on an error: no CFI for
 * a PC or damaged CFI, a read outside the copied stack, CALLSTACK_MAX_FRAMES
 * frames, registers of a machine (the header's stack_machine) that is not
 * the modules' or that pct does not know, no module to unwind with.  Such
 * a stack holds the frames found before the stop, at least the sampled PC.
 *
 * The frames of pct's runtime (the module whose DT_SONAME is libpct.so or
 * libpct.so.N: thread_start, which starts each thread the program
 * creates, and the functions it wraps) are no part of the program's
 * stacks and are left out: a thread's function is then the callee of
 * glibc's start_thread, as perf shows it.  A stack of nothing else keeps
 * its leaf.
 *
 * A PC's module and link-time address are found once per profile.  When
 * standard error is a terminal and the unwinding has taken longer than
 * $PCT_PROGRESS_DELAY seconds (default 1), a progress line "pct:
 * unwinding stacks: N of M" (M: the set's stack records) is rewritten
 * there in place, and erased before the function returns.
 */
uint64_t callstack_each(const struct pset *s, void (*fn)(const struct cs_stack *st, void *arg), void *arg);

/* A function of the stacks, identified by what names it: its module and
 * the link-time start of its symbol. */
struct cs_func {
	uint32_t module;               /* a module of the set, or PSET_NO_MODULE */
	uint64_t start;                /* the symbol's start; without a symbol, the frame's address */
	const char *name;              /* its function, else "MODULE+0xADDR", else "[unknown]";
					  an inlined one "NAME" CS_INLINE_SUFFIX; never cut (valid
					  until callstack_graph_free and symtab_free_all) */
	const char *bare;              /* the function's own name: name, or NAME alone for an
					  inlined one (what --callers=NAME matches) */
	size_t group;                  /* functions of one module with one name share it: the
					  rows of a flat report, keyed by (module, function) */
	int inlined;                   /* a function inlined there, start 0 */
	int unnamed;                   /* no symbol names it: "[unknown]" or "MODULE+0xADDR",
					  which differ between builds (not a name to match by) */
};

/* A distinct call stack: functions root first, and its samples. */
struct cs_path {
	uint32_t *funcs;
	size_t n;
	uint64_t samples;
};

/* The set's stacks with frames resolved to functions. */
struct cs_graph {
	struct cs_func *funcs;
	size_t nfuncs, capfuncs;
	struct cs_path *paths;
	size_t npaths, cappaths;
	size_t ngroups;
	uint64_t samples;              /* samples of all stacks */
	uint64_t unrooted;             /* samples whose stack was not unwound to its root */
	uint32_t **path_of;            /* callstack_graph_paths only: [profile][stack record] ->
					  its path; NULL otherwise */
	size_t npath_of;               /* profiles in path_of */
	struct agg groups;             /* internal: group keys (module path, name) */
	char **owned;                  /* internal: names made here */
	size_t nowned, capowned;
};

/*
 * The functions inlined at frame f, innermost first (DWARF's inlined
 * subroutines, symtab_inlines), at most CALLSTACK_MAX_INLINES (the
 * innermost ones): each is a frame of the stack model of its own, between
 * f's function and f's callee.  Every view takes them from here.  Returns
 * their number, written to out[0..CALLSTACK_MAX_INLINES).
 */
size_t callstack_inlines(const struct pset *s, const struct cs_frame *f, struct inline_level *out);

/* A frame of the stack model, as the views without a graph take them
 * (callstack_model): an unwound frame's own function, or a function
 * inlined at its address. */
struct cs_mframe {
	const struct cs_frame *f;      /* the unwound frame */
	int inlined;                   /* 0: f's own function (its symbol's); 1: inl */
	struct inline_level inl;       /* inlined: the function, and its call site in the
					  function it was inlined into */
	const char *file;              /* inlined: the source file of its code at f (the line
					  table's for the innermost, else the call site of the
					  one inlined into it), NULL if unknown */
	int line;                      /* and the line there, 0 if unknown */
};

/*
 * The model's frames of an unwound stack frames[0..n) (leaf first, as
 * callstack_each gives it) in out, root first: each frame's function,
 * then the functions inlined at its address, outermost first
 * (callstack_inlines); at most CALLSTACK_MAX_FRAMES, the outermost, as a
 * graph's path holds them.  Strings are the symtabs'.  Returns how many.
 */
size_t callstack_model(const struct pset *s, const struct cs_frame *frames, size_t n,
		       struct cs_mframe out[CALLSTACK_MAX_FRAMES]);

/*
 * Unwind the set's stacks (callstack_each) into g (free it with
 * callstack_graph_free).  Returns the samples.  A frame is its symbol's
 * function, then the functions inlined at its address, outermost first
 * (callstack_inlines): pseudo-functions "NAME (inline)" with inlined set,
 * each its own group.  A path holds at most CALLSTACK_MAX_FRAMES
 * functions.
 */
uint64_t callstack_graph(const struct pset *s, struct cs_graph *g);
/*
 * callstack_graph, with flags:
 *   CS_GRAPH_PATHS    keep each stack record's path in g->path_of (freed
 *                     by callstack_graph_free): for commands that follow a
 *                     sample's time to its stack (the tick log names stack
 *                     records).
 */
#define CS_GRAPH_PATHS 1u
uint64_t callstack_graph_ex(const struct pset *s, struct cs_graph *g, unsigned flags);
void callstack_graph_free(struct cs_graph *g);

/*
 * Print the unwinding line of a -g report to out: "# N of M samples with
 * stacks (P%) were not unwound to their root ...", prefix first (e.g.
 * "report: " for standard error).
 */
void callstack_print_unrooted(const struct cs_graph *g, const char *prefix, FILE *out);

/*
 * Fold the graph's stacks into a one-key agg: key "root;...;leaf" (the
 * functions' names, with each ';' in a name written "\x3b" as escape.h
 * writes a byte, so that the separator stays one), value the samples.
 * Stacks whose names agree fold into one line.
 */
void callstack_fold(const struct cs_graph *g, struct agg *out);

/* For each function, the samples whose stack holds it at least once (its
 * total, or inclusive, time), counted per function and summed by group: a
 * two-key agg by (module path, or "[unknown]"; name), both escaped as the
 * pipeline's TSV writes them (put_tsv_field), as `pct sum` reads rows.
 * Functions of symbols only: the function view has no rows of inlined
 * ones. */
void callstack_totals(const struct cs_graph *g, struct agg *out);

/*
 * The callers (callees 0) or callees (1) of the functions whose name is
 * fn (exactly; of an inlined one, its bare name: fn's frames inlined or
 * not): one row per neighbouring function, by name, with the samples of
 * fn it accounts for, taking fn's outermost frame in each stack; a callee
 * row "[self]" holds the samples where fn is the leaf, a caller row
 * "[root]" those where it is the root.  Returns fn's total.
 */
uint64_t callstack_neighbours(const struct cs_graph *g, const char *fn, int callees, struct agg *out);

#endif
