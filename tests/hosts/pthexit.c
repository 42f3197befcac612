/*
 * pthexit - main() ends with pthread_exit(3) while a worker runs on: glibc
 * ends the process with exit(0) when the worker, the last thread, ends,
 * which runs the atexit handlers and flushes stdout.  Prints three lines
 * (into a pipe, so that only the flush at exit writes them).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "../progs/burn.h"

DEFINE_BURN(static, work)

static void bye(void)
{
	printf("atexit ran\n");
}

static void *worker(void *arg)
{
	(void)arg;
	work(0.2);
	printf("worker done\n");
	return NULL;
}

int main(void)
{
	atexit(bye);
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	printf("main exits\n");
	pthread_exit(NULL);
}
