/*
 * top.h - the model and text of `pct top`: the hottest functions of a set
 * of live profiles, with their rates over the last interval and over the
 * whole run, each with its 95% interval, and how the run's samples of
 * each function split among threads.
 *
 * Each interval the caller reads the files again (pset_load, the reader
 * of `pct report`) and hands the set to top_update, which groups its
 * samples by (module, function, pid, tid, thread) with the report's own
 * grouping (pipeline_group) and subtracts the counts of the previous
 * update: the samples of the last interval.  A rate is samples x the
 * set's effective period (cpu_ns over samples taken, as the report's
 * summary states it) over the wall-clock time they were taken in: CPU
 * seconds per second (shown as % of one CPU) for cpu and user, busy
 * threads for wall, events per second for a hardware event.  Its
 * interval is the Poisson score interval of the count (stats.h) times
 * the same factor.
 */
#ifndef PCT_TOP_H
#define PCT_TOP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "aggregate.h"
#include "pset.h"
#include "util.h"

struct top_thread {
	char *label;                   /* "NAME/TID" (escaped), or "NAME/TID[PID]" in a tree */
	uint64_t samples;              /* the function's samples of the run in this thread */
};

struct top_row {
	char *module;                  /* base name, escaped */
	char *function;                /* escaped, shortened unless full names are asked */
	uint64_t now;                  /* samples in the last interval */
	uint64_t run;                  /* samples of the whole run */
	struct top_thread *threads;    /* by samples, most first */
	size_t nthreads;
};

struct top {
	/* options, set by the caller */
	int full_names;                /* function names in full (names.h) */
	/* the last update */
	struct top_row *rows;          /* by now, then run, most first */
	size_t nrows;
	uint64_t total_now, total_run; /* samples of every function */
	uint64_t interval_ns;          /* wall-clock ns of the last interval */
	uint64_t run_ns;               /* wall-clock ns from the first profile's start to now
					  (or to the last end, once none is being written) */
	double per_sample;             /* what a sample stands for, in the dimension's unit: ns
					  of CPU (or wall) time, or events; 0 if unknown */
	char dimension[32];            /* "seconds", or an event's unit (escaped) */
	int event;                     /* enum pct_event of the set */
	size_t processes, threads;     /* in the set: distinct pids, used thread slots */
	size_t running;                /* files still being written (live.h) */
	size_t updates;                /* top_update calls so far */
	/* kept between updates */
	struct agg prev;               /* samples by (module, function, pid, tid, thread) */
	uint64_t prev_mono_ns;         /* CLOCK_MONOTONIC of the previous update */
};

/*
 * A new snapshot from s (the files read again), taken at mono_ns
 * (CLOCK_MONOTONIC) and real_ns (CLOCK_REALTIME, ns since the epoch).
 * s may be NULL: no profile yet (every count 0).  The first update's
 * interval is the run so far.  Returns 0, or -1 with *e set (as
 * pipeline_group).
 */
int top_update(struct top *t, const struct pset *s, uint64_t mono_ns, int64_t real_ns, struct error *e);

/*
 * The snapshot as text: a title line (what title names, e.g. the
 * command, escaped here), a line saying what the rates are, the column
 * heads, then at most rows rows; each line cut to width columns (0: not
 * cut).  Every byte printed is printable (escape.h).
 */
void top_print(const struct top *t, const char *title, size_t rows, int width, FILE *out);

/* The lines top_print puts before the rows. */
#define TOP_HEAD_LINES 4

void top_free(struct top *t);

#endif
