/*
 * host-idle.c - many threads that sleep: THREADS threads block in read(2)
 * on a pipe for SECONDS while the main thread waits for them
 * (tests/e2e/139-host-idle.sh).  The wall event's sampler must cost in
 * proportion to the threads that run, not to those that sleep.  Prints
 * "N threads slept".
 *
 *   host-idle THREADS SECONDS
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static int pipefd[2];

static void *sleeper(void *arg)
{
	char c;
	(void)arg;
	while (read(pipefd[0], &c, 1) < 0)
		;
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2000;
	double s = argc > 2 ? atof(argv[2]) : 2;
	if (pipe(pipefd) != 0)
		return 2;
	pthread_t *t = calloc((size_t)n, sizeof *t);
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 64 * 1024);
	for (int i = 0; i < n; i++)
		if (pthread_create(&t[i], &a, sleeper, NULL) != 0)
			return 3;
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };
	nanosleep(&ts, NULL);
	for (int i = 0; i < n; i++)
		if (write(pipefd[1], "x", 1) != 1)
			return 4;
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	printf("%d threads slept\n", n);
	return 0;
}
