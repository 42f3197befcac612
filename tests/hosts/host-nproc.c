/*
 * host-nproc.c - a program that makes as many processes or threads as
 * its RLIMIT_NPROC allows (tests/e2e/135-host-nproc.sh): it forks N
 * children (or starts N threads) that wait on a pipe, counts how many it
 * got, then lets them go and waits for them.  pct's wall sampler thread,
 * one in each process of the tree, counts against the same limit.
 *
 *   host-nproc N fork|thread
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../progs/burn.h"

DEFINE_BURN(static, burn)

static int pipefd[2];

static void *waiter(void *arg)
{
	char c;
	(void)arg;
	while (read(pipefd[0], &c, 1) < 0)
		;
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 30, got = 0;
	int threads = argc > 2 && strcmp(argv[2], "thread") == 0;
	if (pipe(pipefd) != 0)
		return 2;
	burn(0.05);
	pthread_t *t = calloc((size_t)n, sizeof *t);
	for (int i = 0; i < n; i++) {
		if (threads) {
			if (pthread_create(&t[got], NULL, waiter, NULL) == 0)
				got++;
			continue;
		}
		pid_t p = fork();
		if (p == 0) {
			waiter(NULL);
			_exit(0);
		}
		if (p > 0)
			got++;
	}
	printf("%d of %d %s\n", got, n, threads ? "threads" : "children");
	fflush(stdout);
	for (int i = 0; i < got; i++)
		if (write(pipefd[1], "x", 1) != 1)
			return 3;
	if (threads)
		for (int i = 0; i < got; i++)
			pthread_join(t[i], NULL);
	else
		while (wait(NULL) > 0)
			;
	return 0;
}
