/*
 * pthexit - main() ends with pthread_exit(3) while a worker runs on: glibc
 * ends the process with exit(0) when the worker, the last thread, ends,
 * which runs the atexit handlers and flushes stdout.  Prints three lines
 * (into a pipe, so that only the flush at exit writes them).  With
 * argument "joined", main joins the worker first and so is the last
 * thread when it calls pthread_exit: glibc's exit(0) then comes at once.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int main(int argc, char **argv)
{
	atexit(bye);
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	if (argc > 1 && strcmp(argv[1], "joined") == 0)
		pthread_join(t, NULL);
	printf("main exits\n");
	pthread_exit(NULL);
}
