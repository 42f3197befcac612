/*
 * eintr.c - blocking calls beside a spinning thread; counts EINTR.
 *
 * Thread "waiter" loops for SECONDS: a blocking read(2) of a pipe that
 * thread "writer" feeds every 2 ms, and a poll(2) with a 3 ms timeout on
 * a pipe that never gets data, and a nanosleep(2) of 1 ms.  Thread
 * "spinner" burns CPU all along.  Any call that fails with EINTR is
 * counted.  Prints "eintr<TAB>N<TAB>reads<TAB>R<TAB>polls<TAB>P".
 * usage: eintr [SECONDS]    (default 2)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double seconds = 2;
static int feed[2], never[2];
static volatile int done;
static volatile uint64_t sink;
static long eintr, reads, polls;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *spinner(void *a)
{
	(void)a;
	uint64_t x = 1;
	while (!done)
		for (int i = 0; i < 10000; i++)
			x = x * 6364136223846793005u + 1442695040888963407u;
	sink = x;
	return NULL;
}

static void *writer(void *a)
{
	(void)a;
	struct timespec ms2 = { 0, 2000000 };
	while (!done) {
		nanosleep(&ms2, NULL);
		if (write(feed[1], "x", 1) != 1)
			break;
	}
	return NULL;
}

static void *waiter(void *a)
{
	(void)a;
	double end = now() + seconds;
	char c;
	while (now() < end) {
		if (read(feed[0], &c, 1) < 0 && errno == EINTR)
			eintr++;
		reads++;
		struct pollfd p = { never[0], POLLIN, 0 };
		if (poll(&p, 1, 3) < 0 && errno == EINTR)
			eintr++;
		polls++;
		struct timespec ms1 = { 0, 1000000 };
		if (nanosleep(&ms1, NULL) != 0 && errno == EINTR)
			eintr++;
	}
	done = 1;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t s, w, r;
	if (argc > 1)
		seconds = atof(argv[1]);
	if (pipe(feed) || pipe(never))
		return 2;
	pthread_create(&s, NULL, spinner, NULL);
	pthread_create(&w, NULL, writer, NULL);
	pthread_create(&r, NULL, waiter, NULL);
	pthread_join(r, NULL);
	pthread_join(s, NULL);
	pthread_join(w, NULL);
	printf("eintr\t%ld\treads\t%ld\tpolls\t%ld\n", eintr, reads, polls);
	return eintr != 0;
}
