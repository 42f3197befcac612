/*
 * burn.h - CPU burning for the test programs.
 *
 * thread_cpu_ns(): the calling thread's CPU time in ns
 * (CLOCK_THREAD_CPUTIME_ID).
 * DEFINE_BURN(linkage, name): defines `linkage void name(double s)`, which
 * spins for s seconds of the calling thread's CPU time in a loop of its
 * own, never inlined, so that samples land in a function of that name.
 * DEFINE_BURN_CHUNK(linkage, name, n): the same, reading the clock every n
 * iterations (DEFINE_BURN: 10,000, about 30 us).  Each read is a system
 * call, where the samples of a loaded machine gather (see callchain.c).
 */
#ifndef PCT_TESTS_BURN_H
#define PCT_TESTS_BURN_H

#include <stdint.h>
#include <time.h>

static volatile uint64_t burn_sink;

static inline uint64_t thread_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#define DEFINE_BURN(linkage, name) DEFINE_BURN_CHUNK(linkage, name, 10000)
#define DEFINE_BURN_CHUNK(linkage, name, n)                                     \
	linkage __attribute__((noipa)) void name(double s)                      \
	{                                                                       \
		uint64_t x = burn_sink, t0 = thread_cpu_ns();                   \
		while (thread_cpu_ns() - t0 < (uint64_t)(s * 1e9))              \
			for (int i = 0; i < (n); i++)                           \
				x = x * 6364136223846793005u + 1442695040888963407u; \
		burn_sink = x;                                                  \
	}

#endif
