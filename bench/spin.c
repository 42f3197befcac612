/*
 * spin.c - a fixed amount of CPU work: N iterations of a 64-bit LCG
 * (default 1.5e9, about 1.5 s here).  Its CPU time under a profiler,
 * against a plain run, is the profiler's steady-state cost.
 * usage: spin [N]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noipa)) static uint64_t step(uint64_t x, long n)
{
	for (long i = 0; i < n; i++)
		x = x * 6364136223846793005u + 1442695040888963407u;
	return x;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1500000000L;
	uint64_t x = 1;
	for (long done = 0; done < n; done += 1000000)
		x = step(x, 1000000);
	return x == 42;
}
