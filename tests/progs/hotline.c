/*
 * hotline.c - a workload with one known hot source line, inside an
 * inlined function.
 *
 * hot() calls the always-inlined step() in a loop; step()'s line marked
 * HOT_LINE does a 64-bit division, far slower than anything else in the
 * loop, so --by=line must put that line first, name step() as inlined
 * into hot() at the line marked CALL_SITE, and annotate must show the
 * samples inside that line.
 *
 * usage: hotline [ITERATIONS]       (default 150 million, about 1.5 s)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static inline __attribute__((always_inline)) uint64_t step(uint64_t x, uint64_t i)
{
	x = (x * 7 + 13) / (i | 1) + (x >> 3) + 0x9e3779b97f4a7c15u; /* HOT_LINE */
	return x;
}

__attribute__((noipa)) static uint64_t hot(long n)
{
	uint64_t x = 12345;
	for (long i = 1; i < n; i++)
		x = step(x, (uint64_t)i); /* CALL_SITE */
	return x;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 150000000L;
	printf("%llu\n", (unsigned long long)hot(n));
	return 0;
}
