/*
 * latewait - linked with libpct.a, it starts a thread that blocks every
 * signal and polls with sigtimedwait(2) while it burns CPU, then sets $PCT
 * from $LATE_PCT and calls pct_on() itself, so that pct finds that thread
 * already running and blocking its signal.  Prints every signal the thread
 * took: none.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include "pct.h"
#include "../progs/burn.h"

DEFINE_BURN(static, spin)

static double secs;
static volatile int ready;

static void *waiter(void *arg)
{
	sigset_t all;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	ready = 1;
	uint64_t t0 = thread_cpu_ns();
	while (thread_cpu_ns() - t0 < (uint64_t)(secs * 1e9)) {
		struct timespec zero = { 0, 0 };
		int s;
		spin(0.01);
		while ((s = sigtimedwait(&all, NULL, &zero)) > 0)
			printf("waiter took signal %d\n", s);
	}
	return arg;
}

int main(int argc, char **argv)
{
	secs = argc > 1 ? atof(argv[1]) : 1.0;
	pthread_t t;
	pthread_create(&t, NULL, waiter, NULL);
	while (!ready)
		;
	if (getenv("LATE_PCT"))
		setenv("PCT", getenv("LATE_PCT"), 1);
	pct_on();
	spin(secs);
	pthread_join(t, NULL);
	pct_off();
	printf("done\n");
	return 0;
}
