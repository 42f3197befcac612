/*
 * host-nofile.c - a program that needs every descriptor its RLIMIT_NOFILE
 * allows while it has many threads (tests/e2e/133-host-nofile.sh): it
 * starts THREADS threads and waits until all of them wait, burns SECONDS
 * of CPU in its main thread, then opens /dev/null until open() fails, and
 * prints how many it got and why it stopped.  pct must leave it every one (per-thread perf
 * events of -F above 250 and of -e wall held a descriptor each: 1,100
 * threads at ulimit -n 1024 left it none).
 *
 *   host-nofile [THREADS [SECONDS]]
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../progs/burn.h"

DEFINE_BURN(static, burn)

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go = PTHREAD_COND_INITIALIZER;
static int done, ready;

static void *waiter(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	ready++;
	pthread_cond_broadcast(&go);
	while (!done)
		pthread_cond_wait(&go, &lock);
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1100;
	double s = argc > 2 ? atof(argv[2]) : 0.2;
	pthread_t *t = calloc((size_t)n, sizeof *t);
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 64 * 1024);
	for (int i = 0; i < n; i++)
		if (pthread_create(&t[i], &a, waiter, NULL) != 0)
			return 3;
	pthread_mutex_lock(&lock);
	while (ready < n)
		pthread_cond_wait(&go, &lock);
	pthread_mutex_unlock(&lock);
	burn(s);
	int got = 0, err = 0;
	for (;;) {
		int fd = open("/dev/null", O_RDONLY);
		if (fd < 0) {
			err = errno;
			break;
		}
		got++;
	}
	printf("opened %d files, then: %s\n", got, strerror(err));
	fflush(stdout);
	for (int fd = 3; fd < 65536; fd++)
		close(fd);  /* pct's, if it kept any: never used again */
	pthread_mutex_lock(&lock);
	done = 1;
	pthread_cond_broadcast(&go);
	pthread_mutex_unlock(&lock);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
