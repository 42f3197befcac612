/*
 * attachload.c - a CPU-bound target for bench/attach.sh: one thread that
 * does work in units of about 0.1 ms (a call chain four deep, so that -g
 * copies a real stack), for SECONDS of wall-clock time, and prints how
 * many units it did between FROM and TO seconds after its start, with the
 * CPU time (CLOCK_PROCESS_CPUTIME_ID) they took:
 *   units<TAB>wall_s<TAB>cpu_s
 * usage: attachload SECONDS FROM TO
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile uint64_t sink;

static double now(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

__attribute__((noinline)) static void leaf(int n)
{
	uint64_t x = sink;
	for (int i = 0; i < n; i++)
		x = x * 6364136223846793005u + 1442695040888963407u;
	sink = x;
}
__attribute__((noinline)) static void mid(int n)
{
	leaf(n / 2);
	leaf(n - n / 2);
}
__attribute__((noinline)) static void top(int n)
{
	mid(n);
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 3, from = argc > 2 ? atof(argv[2]) : 0.5,
	       to = argc > 3 ? atof(argv[3]) : seconds - 0.5;
	double t0 = now(CLOCK_MONOTONIC), c_from = 0, w_from = 0, c_to = 0, w_to = 0;
	uint64_t units = 0, u_from = 0;
	int phase = 0;
	for (;;) {
		top(30000);
		units++;
		if ((units & 15) != 0)
			continue;
		double t = now(CLOCK_MONOTONIC) - t0;
		if (phase == 0 && t >= from) {
			u_from = units, w_from = t, c_from = now(CLOCK_PROCESS_CPUTIME_ID), phase = 1;
		} else if (phase == 1 && t >= to) {
			w_to = t, c_to = now(CLOCK_PROCESS_CPUTIME_ID), phase = 2;
			printf("%llu\t%.6f\t%.6f\n", (unsigned long long)(units - u_from), w_to - w_from, c_to - c_from);
			fflush(stdout);
		}
		if (t >= seconds)
			break;
	}
	return 0;
}
