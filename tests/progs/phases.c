/*
 * phases.c - phase_a for the first SECONDS of wall-clock time, then
 * phase_b for as long (e2e 110 and 169, time slices: --time=..S shows
 * phase_a, --time=S.. phase_b).
 *
 * usage: phases [SECONDS]    (default 1)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
static volatile unsigned long sink;
/* each runs until its end (CLOCK_MONOTONIC), reading the clock every
 * 200,000 iterations, so that the clock's own time stays small */
__attribute__((noinline)) void phase_a(double end) { while (now() < end) for (long i = 0; i < 200000; i++) sink += i; }
__attribute__((noinline)) void phase_b(double end) { while (now() < end) for (long i = 0; i < 200000; i++) sink ^= i; }
/* phases [SECONDS]: each phase SECONDS (default 1) */
int main(int argc, char **argv)
{
	double t0 = now(), len = argc > 1 ? atof(argv[1]) : 1.0;
	phase_a(t0 + len);
	phase_b(t0 + 2 * len);
	return 0;
}
