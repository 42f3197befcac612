/*
 * shortthreads N MS - start N threads one after another, each burning MS
 * milliseconds of its own CPU time in short_work(), while main() burns the
 * same total in main_work() between them; print "function<TAB>cpu_ns" for
 * both, measured with CLOCK_THREAD_CPUTIME_ID (tests/e2e/lib.sh,
 * check_truth).  Test 89: threads shorter than one sampling period must
 * be sampled in proportion to their CPU time.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "burn.h"

DEFINE_BURN(static, short_work)
DEFINE_BURN(static, main_work)

static double ms = 0.5;

static void *thread_main(void *arg)
{
	uint64_t t0 = thread_cpu_ns();
	short_work(ms / 1e3);
	*(uint64_t *)arg = thread_cpu_ns() - t0;
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2000;
	ms = argc > 2 ? atof(argv[2]) : 0.5;
	uint64_t in_threads = 0, in_main = 0;
	for (int i = 0; i < n; i++) {
		pthread_t t;
		uint64_t used = 0;
		if (pthread_create(&t, NULL, thread_main, &used) != 0)
			return 1;
		pthread_join(t, NULL);
		in_threads += used;
		uint64_t t0 = thread_cpu_ns();
		main_work(ms / 1e3);
		in_main += thread_cpu_ns() - t0;
	}
	printf("short_work\t%llu\nmain_work\t%llu\n", (unsigned long long)in_threads, (unsigned long long)in_main);
	return 0;
}
