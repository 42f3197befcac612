/*
 * burn-exec.c - burn CPU right up to an execve, to catch a profiling
 * signal that survives exec and kills the next program.
 *
 * usage: burn-exec MS PROGRAM [ARG...]
 * Burns MS milliseconds of CPU, then execs PROGRAM with an empty
 * environment, so the new image has no pct runtime to catch SIGPROF.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: burn-exec MS PROGRAM [ARG...]\n");
		return 2;
	}
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	double end = ts.tv_sec + ts.tv_nsec / 1e9 + atof(argv[1]) / 1e3;
	volatile uint64_t x = 1;
	do {
		for (int i = 0; i < 1000; i++)
			x = x * 6364136223846793005u + 1;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	} while (ts.tv_sec + ts.tv_nsec / 1e9 < end);
	char *envp[] = { NULL };
	execve(argv[2], argv + 2, envp);
	perror("burn-exec: execve");
	return 127;
}
