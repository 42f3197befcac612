/*
 * sanitized.c - a threaded program to build with a sanitizer (clang
 * -fsanitize=thread, gcc -fsanitize=address; tests/e2e/137-host-sanitizers.sh,
 * which compiles it; it is not built by make): two threads burn CPU in
 * hot() for SECONDS each, then it prints their sum.  TSan crashed at the
 * first pthread_create under pct -g (pct called pthread_getattr_np and
 * free in the new thread before TSan had set it up); gcc's ASan refused
 * to run under pct record ("ASan runtime does not come first").
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double seconds = 0.3;

/* burn.h's burn shares one sink between threads, a race TSan reports:
 * each thread here keeps its own */
static __attribute__((noinline)) uint64_t hot(double s)
{
	struct timespec t0, t;
	uint64_t x = 1;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 10000; i++)
			x = x * 6364136223846793005u + 1442695040888963407u;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9 < s);
	return x;
}

static void *worker(void *arg)
{
	*(uint64_t *)arg = hot(seconds);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		seconds = atof(argv[1]);
	pthread_t t[2];
	uint64_t sum[2];
	for (int i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, worker, &sum[i]) != 0)
			return 2;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("done%s\n", sum[0] + sum[1] == 0 ? " (zero)" : "");
	return 0;
}
