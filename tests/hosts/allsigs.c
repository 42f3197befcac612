/*
 * allsigs - a program that handles every signal it can (1..SIGRTMAX but
 * SIGKILL, SIGSTOP and glibc's internal two), burns CPU in two threads,
 * and prints which signals it received: none, but the one it sends itself.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../progs/burn.h"

DEFINE_BURN(static, spin)

static volatile sig_atomic_t count[_NSIG];

static void on_any(int sig)
{
	count[sig]++;
}

static void *worker(void *arg)
{
	spin(*(double *)arg);
	return NULL;
}

int main(int argc, char **argv)
{
	double s = argc > 1 ? atof(argv[1]) : 1.0;
	int handled = 0;
	for (int i = 1; i <= SIGRTMAX; i++) {
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_any;
		sa.sa_flags = SA_RESTART | SA_ONSTACK;
		if (sigaction(i, &sa, NULL) == 0)
			handled++;
	}
	pthread_t t;
	pthread_create(&t, NULL, worker, &s);
	spin(s);
	pthread_join(t, NULL);
	raise(SIGRTMAX);
	printf("handled %d signals\n", handled);
	for (int i = 1; i <= SIGRTMAX; i++)
		if (count[i])
			printf("received signal %d x%d\n", i, (int)count[i]);
	return 0;
}
