/*
 * selftime.c - a workload that knows the truth about itself.
 *
 * Three functions burn CPU in turns of a few milliseconds, and each
 * measures its own CPU time with CLOCK_THREAD_CPUTIME_ID.  The work of
 * each turn is drawn at random (fixed seed): a strictly periodic loop can
 * lock in phase with the kernel's tick, and then every sample lands on the
 * same code (see "Aliasing" in libpct(3)).
 * A turn's length grows with the run (1 ms a unit at up to 0.25 s, up to
 * 8 ms a unit from 2 s): on an oversubscribed machine each clock read is a
 * point where the scheduler may switch threads (the read updates the
 * thread's runtime, and a spent slice is then given up at once), so a
 * thread's time slices start at function boundaries and the kernel's tick,
 * which drives the CPU-time timers, falls more often late in the long calls
 * than in the short ones.  Measured at a load of 5 on 2 CPUs, 3 s runs at
 * 250 Hz: work_c got 8.2-13.1% of the samples for 17.0% of the CPU time
 * with 1 ms units, 14.5-15.4% for 17.7% with 4 ms, and 16.2-16.5% for
 * 17.7-17.9% with 8 ms.
 * At exit the program prints, on stdout, one line per function:
 *   function<TAB>cpu_ns
 * so a test can compare pct's report with what really happened.
 *
 * usage: selftime [SECONDS]      (default 3 s of CPU time in all)
 * Built with -DMANUAL, main() sets $PCT itself and calls pct_on(), so
 * sampling can only have been started by hand.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#ifdef MANUAL
#include "pct.h"
#endif

static volatile uint64_t sink;

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Each burns about units * scale ms; the bodies differ so that the
 * compiler cannot fold them into one. */
static long unit = 300000;   /* loop iterations, about 1 ms */
__attribute__((noipa)) static void work_a(int units)
{
	uint64_t x = sink;
	for (long i = 0; i < units * unit; i++)
		x = x * 6364136223846793005u + 1442695040888963407u;
	sink = x;
}

__attribute__((noipa)) static void work_b(int units)
{
	uint64_t x = sink;
	for (long i = 0; i < units * unit; i++)
		x = (x ^ (x >> 7)) * 0x9e3779b97f4a7c15u + 3;
	sink = x;
}

__attribute__((noipa)) static void work_c(int units)
{
	uint64_t x = sink;
	for (long i = 0; i < units * unit; i++)
		x = x * 2862933555777941757u + (x >> 11);
	sink = x;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 3.0;
	uint64_t t[3] = { 0, 0, 0 }, t0, start;
#ifdef MANUAL
	if (argc > 2)
		setenv("PCT", argv[2], 1);
	if (pct_on() != 1) {
		fprintf(stderr, "selftime: pct_on() did not start profiling\n");
		return 3;
	}
#endif
	double scale = seconds * 4;
	unit = (long)(300000 * (scale < 1 ? 1 : scale > 8 ? 8 : scale));
	uint32_t r = 2463534242u;   /* xorshift32, fixed seed */
	start = now_ns();
	while (now_ns() - start < (uint64_t)(seconds * 1e9)) {
		r ^= r << 13, r ^= r >> 17, r ^= r << 5;
		t0 = now_ns(); work_a(3 + (int)(r % 5)); t[0] += now_ns() - t0;
		t0 = now_ns(); work_b(1 + (int)(r / 5 % 5)); t[1] += now_ns() - t0;
		t0 = now_ns(); work_c(1 + (int)(r / 25 % 3)); t[2] += now_ns() - t0;
	}
	printf("work_a\t%llu\nwork_b\t%llu\nwork_c\t%llu\n", (unsigned long long)t[0],
	       (unsigned long long)t[1], (unsigned long long)t[2]);
	return 0;
}
