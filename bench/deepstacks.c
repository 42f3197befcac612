/*
 * deepstacks.c - many distinct deep call stacks, for bench/callstacks.sh.
 *
 * Eight functions call each other in an order drawn from a per-call LCG,
 * 4 to 35 deep, and the innermost burns a short loop: nearly every sample
 * lands on a call path of its own, as in a recursive-descent parser or an
 * interpreter.  Each of THREADS threads runs until its own CPU time
 * (CLOCK_THREAD_CPUTIME_ID) reaches SECONDS, so that a profiler's sample
 * count does not depend on the machine's load.
 *
 * usage: deepstacks [SECONDS [THREADS]]   (default 5 s, 2 threads)
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NFUNCS 8

typedef uint64_t step_fn(int depth, uint64_t seed);
static step_fn *const steps[NFUNCS];
static volatile uint64_t sink;

__attribute__((noipa)) static uint64_t leaf(uint64_t x)
{
	for (int i = 0; i < 3000; i++)
		x = x * 6364136223846793005u + 1442695040888963407u;
	return x;
}

/* the call after the recursive one keeps it from being a tail call, so
 * every level keeps its frame */
#define STEP(k)                                                                                    \
	__attribute__((noipa)) static uint64_t step##k(int depth, uint64_t seed)                   \
	{                                                                                          \
		if (depth == 0)                                                                    \
			return leaf(seed + k);                                                     \
		uint64_t next = seed * 6364136223846793005u + 1442695040888963407u;               \
		uint64_t r = steps[(next >> 59) & (NFUNCS - 1)](depth - 1, next);                  \
		return r ^ leaf(seed & 15);                                                        \
	}
STEP(0) STEP(1) STEP(2) STEP(3) STEP(4) STEP(5) STEP(6) STEP(7)
static step_fn *const steps[NFUNCS] = { step0, step1, step2, step3, step4, step5, step6, step7 };

static double seconds = 5;

static double thread_cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *run(void *arg)
{
	uint64_t seed = (uintptr_t)arg * 0x9e3779b97f4a7c15u + 1, x = 0;
	while (thread_cpu() < seconds)
		for (int i = 0; i < 64; i++) {
			seed = seed * 6364136223846793005u + 1442695040888963407u;
			x ^= steps[seed >> 61](4 + (int)((seed >> 32) % 32), seed);
		}
	sink = x;
	return NULL;
}

int main(int argc, char **argv)
{
	int nthreads = argc > 2 ? atoi(argv[2]) : 2;
	seconds = argc > 1 ? atof(argv[1]) : 5;
	if (nthreads < 1 || nthreads > 64 || !(seconds > 0)) {
		fprintf(stderr, "usage: deepstacks [SECONDS [THREADS]]\n");
		return 2;
	}
	pthread_t *t = calloc((size_t)nthreads, sizeof *t);
	for (int i = 1; i < nthreads; i++)
		pthread_create(&t[i], NULL, run, (void *)(uintptr_t)i);
	run(0);
	for (int i = 1; i < nthreads; i++)
		pthread_join(t[i], NULL);
	free(t);
	return 0;
}
