/*
 * host-threxit.c - argv[1] (1) threads, one after another, each burning
 * argv[2] ms (3.8) of CPU and returning: under pct's ring-buffer mode (-F
 * above the tick, whose timer drains the buffer every 4 ms of a thread's
 * CPU) the first thread's exit creates the profile while the thread's
 * timer is still armed and about to fire.  It says how many threads ran.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "../progs/burn.h"

DEFINE_BURN(static, burn)

static double ms = 3.8;

static void *worker(void *arg)
{
	(void)arg;
	burn(ms / 1000);
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;
	if (argc > 2)
		ms = atof(argv[2]);
	for (int i = 0; i < n; i++) {
		pthread_t t;
		if (pthread_create(&t, NULL, worker, NULL) != 0 || pthread_join(t, NULL) != 0)
			return 2;
	}
	printf("%d threads\n", n);
	return 0;
}
