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

/*
 * Fill p->ticks, p->buckets and the other time fields of p, whose samples
 * and stacks are read, from raw (nraw records of the file's tick log, NULL
 * if none) and buckets (hdr.buckets_slots records, or NULL); slot_of[k] is
 * the table slot of p->samples[k] (ascending).  Every record is checked:
 * in a complete file, a tick naming a slot without samples, ticks adding
 * up to more than their slot counts, or a bucket of an empty thread are
 * errors; in a running file such ticks are skipped (a snapshot).  Returns
 * 0, or -1 with "FILE: what is wrong" in err.
 */
int ticks_build(struct profile *p, const struct pct_tick *raw, size_t nraw, const struct pct_bucket *buckets,
		const uint64_t *slot_of, const char *file, char *err, size_t errlen);

#endif
