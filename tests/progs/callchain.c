/*
 * callchain.c - a call graph with known inclusive times, for -g stacks.
 * Built with -fomit-frame-pointer: the stacks must unwind from CFI alone.
 *
 *   main -> via_a -> inner      (2 units)
 *           via_a itself        (1 unit, its own loop)
 *   main -> via_b -> inner      (4 units)
 *
 * Each part times itself with CLOCK_THREAD_CPUTIME_ID; at exit it prints
 * the truth, one "name<TAB>ns" line each:
 *   via_a, via_b, inner         total (inclusive) CPU time
 *   inner<-via_a, inner<-via_b  inner's time under each caller
 *   via_a->[self]               via_a's own loop
 *
 * The loops read the clock every 10^6 iterations (about 3 ms), not every
 * 10^4: on an oversubscribed machine the samples of the CPU-time timers
 * gather in those reads (a thread's time slices end and start at its
 * system calls), and a read is a callee, clock_gettime, not the loop's own
 * time.  With reads every 10^4 iterations, at a load of 6 on 2 CPUs,
 * via_a->[self] got 13.5% of via_a's samples for 33.3% of its time.
 *
 * usage: callchain [UNIT_SECONDS]   (default 0.1)
 */
#include <stdio.h>
#include <stdlib.h>

#include "burn.h"

#define CHUNK 1000000
DEFINE_BURN_CHUNK(static, inner, CHUNK)

static uint64_t t_inner_a, t_inner_b, t_self_a, t_a, t_b;

/* via_a's own work: the loop of DEFINE_BURN, inlined here so that its
 * samples are via_a's own */
__attribute__((noipa)) static void via_a(double unit)
{
	uint64_t t0 = thread_cpu_ns();
	inner(2 * unit);
	uint64_t t1 = thread_cpu_ns(), x = burn_sink;
	while (thread_cpu_ns() - t1 < (uint64_t)(unit * 1e9))
		for (int i = 0; i < CHUNK; i++)
			x = x * 6364136223846793005u + 1442695040888963407u;
	burn_sink = x;
	uint64_t t2 = thread_cpu_ns();
	t_inner_a += t1 - t0;
	t_self_a += t2 - t1;
	t_a += t2 - t0;
}

__attribute__((noipa)) static void via_b(double unit)
{
	uint64_t t0 = thread_cpu_ns();
	inner(4 * unit);
	uint64_t t1 = thread_cpu_ns();
	t_inner_b += t1 - t0;
	t_b += t1 - t0;
}

int main(int argc, char **argv)
{
	double unit = argc > 1 ? atof(argv[1]) : 0.1;
	/* interleaved in slices, so that neither half sits at one end */
	for (int i = 0; i < 10; i++) {
		via_a(unit / 10);
		via_b(unit / 10);
	}
	printf("via_a\t%llu\nvia_b\t%llu\ninner\t%llu\n", (unsigned long long)t_a, (unsigned long long)t_b,
	       (unsigned long long)(t_inner_a + t_inner_b));
	printf("inner<-via_a\t%llu\ninner<-via_b\t%llu\nvia_a->[self]\t%llu\n", (unsigned long long)t_inner_a,
	       (unsigned long long)t_inner_b, (unsigned long long)t_self_a);
	return 0;
}
