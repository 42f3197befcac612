/*
 * threads4.c - four threads with a known split of CPU time.
 *
 * Thread "worker-K" (K = 1..4) burns about K units of CPU for every unit
 * of worker-1, in turns of random length (fixed seed, against aliasing
 * with the tick), all four at once on however many CPUs there are.  Each
 * thread measures its own CPU time with CLOCK_THREAD_CPUTIME_ID and the
 * program prints, at exit, one line per thread:
 *   worker-K<TAB>cpu_ns
 *
 * usage: threads4 [SECONDS]    (CPU seconds of worker-1; default 0.5)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double seconds = 0.5;
static uint64_t spent[4];

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

__attribute__((noipa)) static uint64_t burn(uint64_t x, long n)
{
	for (long i = 0; i < n; i++)
		x = x * 6364136223846793005u + 1442695040888963407u;
	return x;
}

static void *worker(void *arg)
{
	int k = (int)(intptr_t)arg;
	char name[16];
	snprintf(name, sizeof name, "worker-%d", k + 1);
	pthread_setname_np(pthread_self(), name);
	uint32_t r = 2463534242u + (uint32_t)k;
	uint64_t x = 0, start = now_ns(), goal = (uint64_t)(seconds * 1e9 * (k + 1));
	while (now_ns() - start < goal) {
		r ^= r << 13, r ^= r >> 17, r ^= r << 5;
		x = burn(x, 100000L + r % 400000);
	}
	spent[k] = now_ns() - start + (x == 42);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[4];
	if (argc > 1)
		seconds = atof(argv[1]);
	for (int k = 0; k < 4; k++)
		if (pthread_create(&t[k], NULL, worker, (void *)(intptr_t)k) != 0)
			return 2;
	for (int k = 0; k < 4; k++)
		pthread_join(t[k], NULL);
	for (int k = 0; k < 4; k++)
		printf("worker-%d\t%llu\n", k + 1, (unsigned long long)spent[k]);
	return 0;
}
