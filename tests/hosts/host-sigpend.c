/*
 * host-sigpend.c - a program that needs its pending-signal quota
 * (RLIMIT_SIGPENDING, shared by every process of the user), which pct's
 * CPU-time timers draw on, one each (tests/e2e/136-host-sigpend.sh).  It
 * starts THREADS threads that burn 20 ms each and wait (so that each has
 * a timer of pct's), then:
 *   lower: sets its limit to 10 and, with SIGRTMIN blocked, queues 6
 *          SIGRTMIN to itself and creates 4 POSIX timers;
 *   need N: creates N POSIX timers (under a limit set by its caller).
 * It prints how many of each it got.
 *
 *   host-sigpend THREADS lower | THREADS need N
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "../progs/burn.h"

DEFINE_BURN(static, burn)

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go = PTHREAD_COND_INITIALIZER;
static int done, ready;

static void *worker(void *arg)
{
	(void)arg;
	burn(0.02);
	pthread_mutex_lock(&lock);
	ready++;
	pthread_cond_broadcast(&go);
	while (!done)
		pthread_cond_wait(&go, &lock);
	pthread_mutex_unlock(&lock);
	return NULL;
}

static int timers(int n)
{
	int got = 0;
	for (int i = 0; i < n; i++) {
		struct sigevent sev;
		memset(&sev, 0, sizeof sev);
		sev.sigev_notify = SIGEV_SIGNAL;
		sev.sigev_signo = SIGRTMIN + 1;
		timer_t t;
		if (timer_create(CLOCK_MONOTONIC, &sev, &t) == 0)
			got++;
	}
	return got;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 8;
	const char *mode = argc > 2 ? argv[2] : "lower";
	/* blocked in every thread: queued signals stay pending */
	sigset_t rt;
	sigemptyset(&rt);
	sigaddset(&rt, SIGRTMIN);
	sigaddset(&rt, SIGRTMIN + 1);
	pthread_sigmask(SIG_BLOCK, &rt, NULL);
	pthread_t *t = calloc((size_t)n, sizeof *t);
	for (int i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, worker, NULL) != 0)
			return 3;
	pthread_mutex_lock(&lock);
	while (ready < n)
		pthread_cond_wait(&go, &lock);
	pthread_mutex_unlock(&lock);
	burn(0.05);
	if (strcmp(mode, "lower") == 0) {
		struct rlimit rl = { 10, 10 };
		if (setrlimit(RLIMIT_SIGPENDING, &rl) != 0)
			return 4;
		int q = 0;
		for (int i = 0; i < 6; i++)
			q += sigqueue(getpid(), SIGRTMIN, (union sigval){ .sival_int = i }) == 0;
		printf("sigqueue %d of 6, timer_create %d of 4\n", q, timers(4));
	} else {
		int want = argc > 3 ? atoi(argv[3]) : 30;
		printf("timer_create %d of %d\n", timers(want), want);
	}
	fflush(stdout);
	pthread_mutex_lock(&lock);
	done = 1;
	pthread_cond_broadcast(&go);
	pthread_mutex_unlock(&lock);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
