/*
 * handoff.c - two threads that burn CPU one after the other (pct
 * timeline's test, e2e 109).
 *
 * Thread "phase-a" burns SECONDS of its CPU time in phase_a_work, then
 * hands off to thread "phase-b", which only then burns SECONDS in
 * phase_b_work; the main thread waits (no CPU).  Each thread measures its
 * own CPU time (CLOCK_THREAD_CPUTIME_ID).  At exit it prints
 *   phase-a<TAB>cpu_ns
 *   phase-b<TAB>cpu_ns
 *   handoff<TAB>ns
 * the last the CLOCK_MONOTONIC time of the handoff, since main started.
 *
 * usage: handoff [SECONDS]    (default 1)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "burn.h"

DEFINE_BURN(static, phase_a_work)
DEFINE_BURN(static, phase_b_work)

static double seconds = 1.0;
static uint64_t spent_a, spent_b, handoff_ns, start_ns;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t turn = PTHREAD_COND_INITIALIZER;
static int b_may_run;

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void *phase_a(void *arg)
{
	pthread_setname_np(pthread_self(), "phase-a");
	uint64_t t0 = thread_cpu_ns();
	phase_a_work(seconds);
	spent_a = thread_cpu_ns() - t0;
	pthread_mutex_lock(&lock);
	handoff_ns = mono_ns() - start_ns;
	b_may_run = 1;
	pthread_cond_signal(&turn);
	pthread_mutex_unlock(&lock);
	return arg;
}

static void *phase_b(void *arg)
{
	pthread_setname_np(pthread_self(), "phase-b");
	pthread_mutex_lock(&lock);
	while (!b_may_run)
		pthread_cond_wait(&turn, &lock);
	pthread_mutex_unlock(&lock);
	uint64_t t0 = thread_cpu_ns();
	phase_b_work(seconds);
	spent_b = thread_cpu_ns() - t0;
	return arg;
}

int main(int argc, char **argv)
{
	pthread_t a, b;
	start_ns = mono_ns();
	if (argc > 1)
		seconds = atof(argv[1]);
	if (pthread_create(&b, NULL, phase_b, NULL) != 0 || pthread_create(&a, NULL, phase_a, NULL) != 0)
		return 2;
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("phase-a\t%llu\nphase-b\t%llu\nhandoff\t%llu\n", (unsigned long long)spent_a,
	       (unsigned long long)spent_b, (unsigned long long)handoff_ns);
	return 0;
}
