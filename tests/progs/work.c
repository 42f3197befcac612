/*
 * work.c - a fixed amount of work in three functions, for comparing two
 * builds.  Iteration i calls work_a, work_b and work_c with A_UNITS, 3 and
 * 1 units on average, drawn from one fixed random sequence (the same in
 * every build and run), so that the loop has no period for the kernel's
 * tick to lock onto (see "Aliasing" in libpct(3));
 * a unit is about 0.09 ms here.  The Makefile builds it
 * with A_UNITS=16 (work-full), 8 (work-half: work_a cut by half) and 12
 * (work-fast: work_a 25% faster), so only work_a's time differs.
 *
 * usage: work ITERATIONS
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef A_UNITS
#define A_UNITS 16
#endif

static volatile uint64_t sink;

__attribute__((noipa)) static void work_a(int units)
{
	uint64_t x = sink;
	for (long i = 0; i < units * 75000L; i++)
		x = x * 6364136223846793005u + 1442695040888963407u;
	sink = x;
}

__attribute__((noipa)) static void work_b(int units)
{
	uint64_t x = sink;
	for (long i = 0; i < units * 75000L; i++)
		x = (x ^ (x >> 7)) * 0x9e3779b97f4a7c15u + 3;
	sink = x;
}

__attribute__((noipa)) static void work_c(int units)
{
	uint64_t x = sink;
	for (long i = 0; i < units * 75000L; i++)
		x = x * 2862933555777941757u + (x >> 11);
	sink = x;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	uint32_t r = 2463534242u;   /* xorshift32, fixed seed */
	for (long i = 0; i < n; i++) {
		r ^= r << 13, r ^= r >> 17, r ^= r << 5;
		work_a(A_UNITS - 2 + (int)(r % 5));   /* mean A_UNITS */
		work_b(2 + (int)(r / 5 % 3));          /* mean 3 */
		work_c(1);
	}
	printf("%llu\n", (unsigned long long)sink);
	return 0;
}
