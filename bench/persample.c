/*
 * persample.c - the cost of one sample, measured directly.
 *
 * Run under pct (LD_PRELOAD=libpct.so PCT=...), it raises SIGSTKFLT (pct's signal) N times,
 * so that pct's handler runs N times: signal delivery, the handler, and
 * sigreturn, as for a timer's signal.  Run with "baseline" (no pct), it
 * raises SIGPROF with the signal ignored: the cost of raise(3) alone.  Each
 * prints the CPU nanoseconds per raise; the difference is pct's cost per
 * sample.
 *
 * usage: persample [N] [baseline]
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200000;
	if (argc > 2 && strcmp(argv[2], "baseline") == 0)
		signal(SIGSTKFLT, SIG_IGN);
	for (int i = 0; i < 1000; i++)  /* warm up: the first sample creates the file */
		raise(SIGSTKFLT);
	double t0 = cpu_ns();
	for (long i = 0; i < n; i++)
		raise(SIGSTKFLT);
	printf("%.1f\n", (cpu_ns() - t0) / n);
	return 0;
}
