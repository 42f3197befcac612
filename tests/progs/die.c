/*
 * die.c - burn CPU in burn() for MS milliseconds, then end abnormally:
 *   die MS segv | abort | _exit | exec
 * (exec runs /bin/true).  Each must leave a readable profile with the
 * samples taken in burn().
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile uint64_t sink;

__attribute__((noipa)) static void burn(double ms)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	double end = ts.tv_sec * 1e3 + ts.tv_nsec / 1e6 + ms;
	do {
		for (int i = 0; i < 10000; i++)
			sink = sink * 6364136223846793005u + 1;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	} while (ts.tv_sec * 1e3 + ts.tv_nsec / 1e6 < end);
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	burn(atof(argv[1]));
	if (strcmp(argv[2], "segv") == 0)
		*(volatile int *)(uintptr_t)8 = 1;
	else if (strcmp(argv[2], "abort") == 0)
		abort();
	else if (strcmp(argv[2], "_exit") == 0)
		_exit(7);
	else if (strcmp(argv[2], "exec") == 0)
		execl("/bin/true", "true", (char *)NULL);
	return 3;
}
