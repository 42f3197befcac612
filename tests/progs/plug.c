/* plug.c - a plug-in for dlplug: built twice, as libplug-a.so (-DNAME=plug_a_work)
 * and libplug-b.so (-DNAME=plug_b_work). */
#include <stdint.h>
#include <time.h>

static volatile uint64_t sink;

__attribute__((noipa)) void NAME(double s)
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
