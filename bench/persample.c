/*
 * persample.c - the cost of one sample, measured directly.
 *
 * Run under pct (LD_PRELOAD=libpct.so PCT=...), it sends itself SIGSTKFLT
 * (pct's signal) N times as a timer's signal (si_code SI_TIMER, si_value
 * PCT_SAMPLE_COOKIE, include/pct.h), so that pct's handler takes N
 * samples: signal delivery, the handler, and sigreturn, as for a timer's
 * signal.  Run with "baseline" (no pct), it sends the same signals with
 * the signal ignored: the cost of sending alone.  Each prints the CPU
 * nanoseconds per signal; the difference is pct's cost per sample.
 *
 * usage: persample [N] [baseline]
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "pct.h"

static double cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* a timer-like signal to this thread: the kernel lets a process give
 * any si_code to a signal it sends itself (rt_tgsigqueueinfo(2)) */
static void tick(void)
{
	siginfo_t si;
	memset(&si, 0, sizeof si);
	si.si_signo = SIGSTKFLT;
	si.si_code = SI_TIMER;
	si.si_value.sival_ptr = (void *)(uintptr_t)PCT_SAMPLE_COOKIE;
	syscall(SYS_rt_tgsigqueueinfo, getpid(), (pid_t)syscall(SYS_gettid), SIGSTKFLT, &si);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200000;
	if (argc > 2 && strcmp(argv[2], "baseline") == 0)
		signal(SIGSTKFLT, SIG_IGN);
	for (int i = 0; i < 1000; i++)  /* warm up: the first sample creates the file */
		tick();
	double t0 = cpu_ns();
	for (long i = 0; i < n; i++)
		tick();
	printf("%.1f\n", (cpu_ns() - t0) / n);
	return 0;
}
