/*
 * cxxthreads.cc - a multi-threaded C++ program with a known call graph,
 * for -g stacks against perf (tests 140, 141, 146):
 *
 *   std::thread -> worker -> stage_a -> work::delta   (1 part)
 *                         -> stage_b -> work::delta   (2 parts)
 *
 * work::delta's loop is mix(), inlined from cxxthreads.h.  Each thread
 * burns SECONDS of its own CPU time.  usage: cxxthreads THREADS SECONDS
 */
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <thread>
#include <vector>

#include "cxxthreads.h"

namespace work {
__attribute__((noinline)) uint64_t delta(uint64_t x, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		x = mix(x, i);
	return x;
}
}

static volatile uint64_t sink;

/* not tail calls: each stage stays on the stack under delta */
__attribute__((noinline)) static uint64_t stage_a(uint64_t x)
{
	return work::delta(x, 200000) ^ sink;
}

__attribute__((noinline)) static uint64_t stage_b(uint64_t x)
{
	return work::delta(x, 400000) ^ sink;
}

static double thread_cpu(void)
{
	timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

__attribute__((noinline)) static void worker(double secs, unsigned seed)
{
	uint64_t x = seed;
	while (thread_cpu() < secs) {
		x = stage_a(x);
		x = stage_b(x);
	}
	sink = x;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2;
	double secs = argc > 2 ? atof(argv[2]) : 0.5;
	std::vector<std::thread> ts;
	for (int i = 0; i < n; i++)
		ts.emplace_back(worker, secs, (unsigned)i + 1);
	for (auto &t : ts)
		t.join();
	printf("%llu\n", (unsigned long long)sink);
	return 0;
}
