/*
 * floor.c - what sampling at a rate costs before any profiler code runs:
 * the kernel's part, for comparing with pct's (bench/overhead.sh).
 *
 * It does the fixed work of bench/spin.c (N iterations of a 64-bit LCG)
 * while the kernel samples it at HZ in one of these ways, and prints the
 * process's CPU seconds (CLOCK_PROCESS_CPUTIME_ID) and the signals taken:
 *   none     no sampling
 *   event    a perf_event_open(2) task-clock event of this thread with
 *            sample_period 1e9/HZ ns and exclude_kernel (what pct opens
 *            above the tick), overflowing with no buffer and no signal:
 *            the kernel's timer interrupt and overflow only
 *   signal   the same event, each overflow sent as a signal (F_SETSIG,
 *            F_SETOWN_EX to this thread, O_ASYNC) to an empty handler:
 *            pct's mechanism with nothing in the handler
 * usage: floor none|event|signal HZ [N]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static volatile long signals;

static void on_signal(int sig)
{
	(void)sig;
	signals++;
}

__attribute__((noipa)) static uint64_t step(uint64_t x, long n)
{
	for (long i = 0; i < n; i++)
		x = x * 6364136223846793005u + 1442695040888963407u;
	return x;
}

static double cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: floor none|event|signal HZ [N]\n");
		return 2;
	}
	const char *mode = argv[1];
	long hz = atol(argv[2]), n = argc > 3 ? atol(argv[3]) : 1500000000L;
	if (strcmp(mode, "none") != 0) {
		struct perf_event_attr a;
		memset(&a, 0, sizeof a);
		a.size = sizeof a;
		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_TASK_CLOCK;
		a.sample_period = 1000000000 / (hz > 0 ? hz : 1);
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
		a.wakeup_events = 1;
		int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
		if (fd < 0) {
			perror("floor: perf_event_open");
			return 1;
		}
		if (strcmp(mode, "signal") == 0) {
			struct f_owner_ex owner = { F_OWNER_TID, (pid_t)syscall(SYS_gettid) };
			signal(SIGSTKFLT, on_signal);
			if (fcntl(fd, F_SETOWN_EX, &owner) || fcntl(fd, F_SETSIG, SIGSTKFLT) || fcntl(fd, F_SETFL, O_ASYNC)) {
				perror("floor: fcntl");
				return 1;
			}
		}
	}
	double t0 = cpu_s();
	uint64_t x = 1;
	for (long done = 0; done < n; done += 1000000)
		x = step(x, 1000000);
	printf("%.4f %ld\n", cpu_s() - t0, signals);
	return x == 42;
}
