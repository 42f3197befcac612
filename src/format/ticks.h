/*
 * ticks.h - the time of samples (pct(5), "Time"): the reader's side of
 * the tick log and the bucket table, used by profile.c.  The public part
 * (struct profile_tick, time_range_parse, profile_slice) is in profile.h.
 */
#ifndef PCT_TICKS_H
#define PCT_TICKS_H

#include <stddef.h>
#include <stdint.h>

#include "profile.h"

/* A written record of the tick log (entry not 0), and its index there. */
struct tick_rec {
	uint64_t index;
	struct pct_tick t;
};

/* The position in t[0..n) (ascending by index) of the record of index i,
 * or -1. */
ptrdiff_t tick_rec_find(const struct tick_rec *t, size_t n, uint64_t i);

/* A used slot of the bucket table (key not 0), and its index there. */
struct bucket_rec {
	uint64_t index;
	struct pct_bucket b;
};

/*
 * Fill p->ticks, p->buckets and the other time fields of p, whose samples
 * and stacks are read, from raw (see below; NULL if none) and buckets (the bucket table's used slots, nbuckets of them); slot_of[k] is
 * the table slot of p->samples[k] (ascending).  raw holds the log's
 * written records only (entry not 0), nraw of them, by index.  Every record is checked:
 * in a complete file, a tick naming a slot without samples, ticks adding
 * up to more than their slot counts, or a bucket of an empty thread are
 * errors; in a running file such ticks are skipped (a snapshot).  Returns
 * 0, or -1 with "FILE: what is wrong" in err.
 */
int ticks_build(struct profile *p, const struct tick_rec *raw, size_t nraw, const struct bucket_rec *buckets,
		size_t nbuckets, const uint64_t *slot_of, const char *file, char *err, size_t errlen);

#endif
