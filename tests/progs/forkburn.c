/*
 * forkburn SECONDS - burn SECONDS of the main thread's CPU time in slices
 * of 100 ms, forking a child that exits at once after each slice (as a
 * shell running `( : )` does), and print the main thread's user CPU time
 * in ns (getrusage RUSAGE_THREAD) on stdout.  Test 89: samples taken above
 * the tick must not stop after a fork.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "burn.h"

DEFINE_BURN(static, burn_slice)

int main(int argc, char **argv)
{
	double total = argc > 1 ? atof(argv[1]) : 2.0;
	for (double done = 0; done < total; done += 0.1) {
		burn_slice(0.1);
		pid_t pid = fork();
		if (pid == 0)
			_exit(0);
		if (pid > 0)
			waitpid(pid, NULL, 0);
	}
	struct rusage ru;
	getrusage(RUSAGE_THREAD, &ru);
	printf("%llu\n", (unsigned long long)ru.ru_utime.tv_sec * 1000000000ull + (unsigned long long)ru.ru_utime.tv_usec * 1000ull);
	return 0;
}
