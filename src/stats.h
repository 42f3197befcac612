/*
 * stats.h - the sampling error of a count.
 *
 * A location that holds n of N samples is, to a good approximation, a
 * Poisson count (the seed's argument, and gprof's manual §6.1): its
 * standard error is sqrt(n) samples, or 100*sqrt(n)/N percentage points
 * of its share.
 */
#ifndef PCT_STATS_H
#define PCT_STATS_H

#include <stdint.h>

/* Standard error of a Poisson count n, in samples: sqrt(n). */
double stats_stderr(uint64_t n);
/* Standard error of the share n/total, in percentage points. */
double stats_stderr_percent(uint64_t n, uint64_t total);

#endif
