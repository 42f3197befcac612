/*
 * host-sigq.c - a program that uses its pending-signal quota (ulimit -i):
 * 30 threads each burn 20 ms of CPU and wait, then the main thread creates
 * 18 POSIX timers (each holds one queued signal of the user's quota) and
 * says how many it got.  Run with ulimit -i 40 by a user with nothing
 * else queued: all 18 without pct, so all 18 under pct.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../progs/burn.h"

DEFINE_BURN(static, burn)

#define THREADS 30
#define TIMERS 18

static pthread_barrier_t started, done;

static void *worker(void *arg)
{
	(void)arg;
	burn(0.02);
	pthread_barrier_wait(&started);
	pthread_barrier_wait(&done);
	return NULL;
}

int main(void)
{
	pthread_t t[THREADS];
	timer_t tm[TIMERS];
	int got = 0;

	pthread_barrier_init(&started, NULL, THREADS + 1);
	pthread_barrier_init(&done, NULL, THREADS + 1);
	for (int i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], NULL, worker, NULL) != 0)
			return 2;
	pthread_barrier_wait(&started);
	for (int i = 0; i < TIMERS; i++) {
		struct sigevent sev;
		memset(&sev, 0, sizeof sev);
		sev.sigev_notify = SIGEV_SIGNAL;
		sev.sigev_signo = SIGUSR1;
		if (timer_create(CLOCK_MONOTONIC, &sev, &tm[got]) == 0)
			got++;
	}
	pthread_barrier_wait(&done);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	burn(0.1);
	printf("%d of %d timers created\n", got, TIMERS);
	return got == TIMERS ? 0 : 1;
}
