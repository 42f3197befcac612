/*
 * timeline.h - when the samples of a set of profiles were taken (`pct
 * timeline`): per thread, or per function, counted in buckets of time.
 *
 * Times come from the files' time logs (format version 3, pct(5)): a
 * sample logged with its time (profile.ticks) counts in the bucket of its
 * time; a sample known only to the file's coarse bucket (profile.buckets,
 * after the log filled) is kept as that coarse bucket, with its own start
 * and length; a sample in neither (hdr.untimed) counts only in the shares.
 * The processes of a tree are lined up by their absolute start
 * (hdr.clock_start_ns, CLOCK_MONOTONIC): the timeline's origin is the
 * earliest, and every time here is ns since that origin.
 *
 * A function row groups samples exactly as `pct report --by=function`
 * does (module, function), through the same stages (pipeline_group), and
 * the rows are in the report's order.  A coarse sample has a thread but no
 * PC, so it has no function: function rows count only logged samples in
 * their buckets (their shares count them all, as the report's do).
 */
#ifndef PCT_TIMELINE_H
#define PCT_TIMELINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pset.h"
#include "util.h"

enum tl_by {
	TL_BY_THREAD,                  /* a row per thread of each process */
	TL_BY_FUNCTION,                /* a row per function (module, function) */
};

struct tl_row {
	size_t profile;                /* the process: index in the set */
	uint32_t thread;               /* TL_BY_THREAD: thread slot + 1; 0: unknown thread */
	char *module, *function;       /* TL_BY_FUNCTION: the key as the stages print it
					  (escaped; module: the path) */
	uint64_t samples;              /* every sample of the row, timed or not: the share
					  is samples / timeline.total */
	double per_bucket;             /* TL_BY_THREAD: the samples a thread takes in one
					  bucket if it runs all through it (bucket_ns over the
					  profile's requested period; tl_busy_samples); 0 if the
					  profile's event is not time */
};

/* Samples of a thread known only to a coarse bucket of its file. */
struct tl_coarse {
	size_t row;                    /* by thread: the thread's row; by function: SIZE_MAX
					  (a coarse sample has no PC) */
	uint64_t start_ns, len_ns;     /* since the origin */
	uint64_t count;
};

struct timeline {
	enum tl_by by;
	uint64_t origin_ns;            /* CLOCK_MONOTONIC ns: the earliest hdr.clock_start_ns */
	uint64_t span_ns;              /* from the origin to the latest end of sampling (or
					  sample time), at least 1 */
	struct tl_row *rows;
	size_t nrows;
	size_t functions;              /* TL_BY_FUNCTION: the functions of the set (rows holds
					  at most the limit's first) */
	uint64_t total;                /* samples of the set (pset.total) */
	uint64_t logged;               /* samples logged with their time (sum of tick weights) */
	uint64_t coarse_samples;       /* samples known only to a coarse bucket */
	uint64_t coarse_from_ns;       /* the earliest coarse bucket's start; UINT64_MAX: none */
	uint64_t coarse_len_ns;        /* the longest coarse bucket */
	uint64_t untimed;              /* samples with no time at all (hdr.untimed, summed) */

	/* after tl_bucket: */
	uint64_t bucket_ns;            /* a bucket's length */
	size_t nbuckets;               /* buckets from the origin: ceil(span_ns / bucket_ns) */
	uint64_t *counts;              /* [row * nbuckets + b]: logged samples of row in bucket b */
	uint64_t *bucket_total;        /* [b]: logged samples of the whole set in bucket b (every
					  function's, shown or not: a function row's share's
					  denominator) */
	struct tl_coarse *coarse;      /* in time order, then by row */
	size_t ncoarse;

	uint32_t **row_of;             /* per profile: [sample] -> row, or UINT32_MAX (internal) */
	size_t nprofiles;
};

/*
 * The rows of the timeline of s (at least one profile), with no buckets
 * yet: by thread (every thread with samples, process by process in the
 * set's order, threads in the order of their slots, the unknown thread
 * last) or by function (the limit functions with the most samples,
 * SIZE_MAX for all, in the report's order).  Returns 0, or -1 with *e
 * set: status 1 for a file without sample times, "FILE: no sample times
 * (format version 2; record it again)" (or made by pct merge, or
 * recorded with PCT_TIME_AREA=0, which keep none), or a stage's error.
 */
int tl_load(const struct pset *s, enum tl_by by, size_t limit, struct timeline *tl, struct error *e);

/* Count the samples of s (tl_load's) into buckets of bucket_ns (> 0) from
 * the origin: counts, bucket_total and coarse. */
void tl_bucket(struct timeline *tl, const struct pset *s, uint64_t bucket_ns);

void tl_free(struct timeline *tl);

/*
 * The bucket length, ns, that fits span_ns in at most columns (>= 1)
 * buckets: the shortest of 1, 2 and 5 times a power of ten, from 1 us,
 * with ceil(span_ns / length) <= columns.
 */
uint64_t tl_nice_bucket(uint64_t span_ns, size_t columns);

/*
 * The samples a thread takes in bucket_ns of running, at a requested
 * period of period_ns (the dimension's ns: CPU time, or wall-clock time
 * for event wall): bucket_ns / period_ns; 0 if period_ns is 0.
 */
double tl_busy_samples(uint64_t bucket_ns, uint64_t period_ns);

/*
 * The character that draws a cell filled to fraction f (samples over what
 * fills it): ' ' for 0 (no sample), then '.' below 0.2, ':' below 0.4, '-'
 * below 0.6, '=' below 0.8 and '#' from 0.8 up (more than full, as a
 * timer's overruns or a coarse bucket's spread can give, is '#' too).
 */
char tl_grade(double f);

/*
 * The share, per bucket and row, that the text draws: its samples (a
 * coarse bucket's spread evenly over the buckets it overlaps, by overlap)
 * over what fills the cell: for a thread, tl_busy_samples of its
 * process (or, for an event that is not time, the largest cell of any
 * row); for a function, the bucket's samples of every function.  cells
 * gets nrows x nbuckets values; coarse (may be NULL) 1 per bucket that a
 * coarse bucket overlaps.
 */
void tl_cells(const struct timeline *tl, double *cells, unsigned char *coarse);

/*
 * Print the timeline as text, every line at most width columns (>= 40):
 * a summary, the legend, a row per thread or function (its label, the
 * strip of its buckets, its share of all samples), the time axis in
 * seconds, and notes on samples without an exact time.  Labels are
 * escaped (escape.h).  full_names: function names in full, else shortened
 * as the report shows them (names.h).
 */
void tl_print_text(const struct timeline *tl, const struct pset *s, size_t width, int full_names, FILE *out);

/*
 * Print the timeline as TSV (a header line, then one line per bucket and
 * row with samples, in time order):
 *   by thread:   start_s length_s pid tid thread samples
 *   by function: start_s length_s module function samples bucket_samples
 * start_s is seconds since the origin, length_s the bucket's length: a
 * coarse bucket's line has its own start and length (a thread's samples
 * known only to it).  bucket_samples: the samples of every function in
 * the bucket.  Fields are escaped (put_tsv_field).
 */
void tl_print_tsv(const struct timeline *tl, const struct pset *s, FILE *out);

/* The width of the label column and of the strip that tl_print_text
 * uses for width columns: *strip is the most buckets a row may show. */
void tl_layout(const struct timeline *tl, const struct pset *s, size_t width, int full_names, size_t *label,
	       size_t *strip);

/* ns as seconds in buf (at least 32 bytes): the decimal digits it needs,
 * at most 9 ("0", "0.05", "1.5", "12.000000001"). */
const char *tl_seconds(uint64_t ns, char *buf);

#endif
