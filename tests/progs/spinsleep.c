/*
 * spinsleep.c - spin for SECONDS of CPU in spin(), then sleep SECONDS in
 * nanosleep(2).  usage: spinsleep [SECONDS]   (default 1)
 */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static volatile uint64_t sink;

__attribute__((noipa)) static void spin(double s)
{
	struct timespec ts;
	uint64_t x = sink, t0, t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	t0 = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	do {
		for (int i = 0; i < 10000; i++)
			x = x * 6364136223846793005u + 1442695040888963407u;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
		t = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	} while (t - t0 < (uint64_t)(s * 1e9));
	sink = x;
}

int main(int argc, char **argv)
{
	double s = argc > 1 ? atof(argv[1]) : 1.0;
	spin(s);
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };
	while (nanosleep(&ts, &ts) != 0)
		;
	return 0;
}
