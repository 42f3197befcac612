/*
 * attach-truth.c - a multi-threaded workload that knows the truth about
 * any window of its run, for the tests that attach to it: its threads run
 * work_a, work_b and work_c in turns of a few milliseconds (the mix
 * differs by thread, the amounts drawn at random with a fixed seed, as in
 * tests/progs/selftime.c), and log every turn: which function, when it
 * started and ended (CLOCK_MONOTONIC) and how much CPU time it took
 * (CLOCK_THREAD_CPUTIME_ID).  At the end it prints the log on stdout,
 * "function<TAB>start_ns<TAB>cpu_ns<TAB>end_ns" a line, so that a test
 * can sum each function's CPU time over the window pct sampled (the
 * profile's clock_start_ns to clock_end_ns, the same clock).
 *
 * The turns are long (5 to 70 ms) so that the program's own clock reads,
 * system calls that charge the thread its CPU time and so may end its
 * scheduler slice there, are rare: a thread waiting for a CPU is then
 * found where a tick preempted it, not at a clock read (pct-record(1),
 * ATTACHING, the ptrace mechanism's bias).
 *
 * usage: attach-truth [THREADS [SECONDS [SLEEPERS]]]   (default 3 threads,
 *        4 s, no sleeper)
 * SLEEPERS more threads block in sleeper(), in read(2) of a pipe that
 * nobody writes, for the whole run (the wall event's blocked threads,
 * e2e 165); they print nothing.
 * Prints "ready" on stderr once its threads run.  Built dynamically and
 * statically (attach-truth-static, without libpct: the runtime cannot
 * enter it).  Exits 0.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static volatile uint64_t sink;

static uint64_t ns_of(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Each burns about units * 1 ms; the bodies differ so that the compiler
 * cannot fold them into one. */
__attribute__((noinline)) void work_a(int units)
{
	uint64_t x = sink;
	for (long i = 0; i < units * 300000L; i++)
		x = x * 6364136223846793005u + 1442695040888963407u;
	sink = x;
}

__attribute__((noinline)) void work_b(int units)
{
	uint64_t x = sink;
	for (long i = 0; i < units * 300000L; i++)
		x = (x ^ (x >> 7)) * 0x9e3779b97f4a7c15u + 3;
	sink = x;
}

__attribute__((noinline)) void work_c(int units)
{
	uint64_t x = sink;
	for (long i = 0; i < units * 300000L; i++)
		x = x * 2862933555777941757u + (x >> 11);
	sink = x;
}

struct rec {
	uint8_t fn;
	uint64_t start, cpu, end;
};

struct worker {
	int index;
	double seconds;
	struct rec *log;
	size_t n, cap;
};

static void turn(struct worker *w, int fn, int units)
{
	static void (*const fns[3])(int) = { work_a, work_b, work_c };
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 4096;
		w->log = realloc(w->log, w->cap * sizeof *w->log);
		if (w->log == NULL)
			exit(2);
	}
	uint64_t start = ns_of(CLOCK_MONOTONIC), c0 = ns_of(CLOCK_THREAD_CPUTIME_ID);
	fns[fn](units);
	uint64_t cpu = ns_of(CLOCK_THREAD_CPUTIME_ID) - c0;
	w->log[w->n++] = (struct rec){ (uint8_t)fn, start, cpu, ns_of(CLOCK_MONOTONIC) };
}

static void *run(void *arg)
{
	struct worker *w = arg;
	uint32_t r = 2463534242u + (uint32_t)w->index * 7919u;   /* xorshift32, fixed seed per thread */
	uint64_t end = ns_of(CLOCK_MONOTONIC) + (uint64_t)(w->seconds * 1e9);
	while (ns_of(CLOCK_MONOTONIC) < end) {
		r ^= r << 13, r ^= r >> 17, r ^= r << 5;
		/* thread k favours function k % 3 */
		turn(w, w->index % 3, 30 + (int)(r % 41));
		turn(w, (w->index + 1) % 3, 10 + (int)(r / 41 % 31));
		turn(w, (w->index + 2) % 3, 5 + (int)(r / 1271 % 21));
	}
	return NULL;
}

static int sleep_pipe[2];

/* Blocks in read(2) until the pipe's write end is closed at the end. */
__attribute__((noinline)) static void *sleeper(void *arg)
{
	char c;
	while (read(sleep_pipe[0], &c, 1) < 0 && errno == EINTR)
		;
	return arg;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3;
	double seconds = argc > 2 ? atof(argv[2]) : 4;
	int sleepers = argc > 3 ? atoi(argv[3]) : 0;
	if (n < 1 || n > 64 || sleepers < 0 || sleepers > 64)
		return 2;
	pthread_t st[64];
	if (sleepers && pipe(sleep_pipe) != 0)
		return 2;
	for (int i = 0; i < sleepers; i++)
		if (pthread_create(&st[i], NULL, sleeper, NULL) != 0)
			return 2;
	struct worker w[64] = { { 0 } };
	pthread_t t[64];
	for (int i = 0; i < n; i++) {
		w[i].index = i;
		w[i].seconds = seconds;
		if (i > 0 && pthread_create(&t[i], NULL, run, &w[i]) != 0)
			return 2;
	}
	fprintf(stderr, "ready\n");
	run(&w[0]);
	for (int i = 1; i < n; i++)
		pthread_join(t[i], NULL);
	if (sleepers) {
		close(sleep_pipe[1]);
		for (int i = 0; i < sleepers; i++)
			pthread_join(st[i], NULL);
	}
	static const char *names[3] = { "work_a", "work_b", "work_c" };
	for (int i = 0; i < n; i++)
		for (size_t k = 0; k < w[i].n; k++)
			printf("%s\t%llu\t%llu\t%llu\n", names[w[i].log[k].fn], (unsigned long long)w[i].log[k].start,
			       (unsigned long long)w[i].log[k].cpu, (unsigned long long)w[i].log[k].end);
	return 0;
}
