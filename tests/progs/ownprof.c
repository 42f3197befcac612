/*
 * ownprof.c - a program that profiles itself the old way: its own SIGPROF
 * handler and ITIMER_PROF at 100 Hz, over about SECONDS of CPU time.
 * Prints "ticks<TAB>N<TAB>cpu_ns<TAB>C"; pct must not change N per CPU
 * second.  usage: ownprof [SECONDS]    (default 2)
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

static volatile sig_atomic_t ticks;
static volatile uint64_t sink;

static void on_prof(int sig)
{
	(void)sig;
	ticks++;
}

static uint64_t cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	double s = argc > 1 ? atof(argv[1]) : 2.0;
	struct sigaction sa = { 0 };
	sa.sa_handler = on_prof;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGPROF, &sa, NULL);
	struct itimerval it = { { 0, 10000 }, { 0, 10000 } };
	setitimer(ITIMER_PROF, &it, NULL);
	uint64_t t0 = cpu_ns(), x = sink;
	while (cpu_ns() - t0 < (uint64_t)(s * 1e9))
		for (int i = 0; i < 10000; i++)
			x = x * 6364136223846793005u + 1442695040888963407u;
	sink = x;
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_PROF, &off, NULL);
	printf("ticks\t%d\tcpu_ns\t%llu\n", (int)ticks, (unsigned long long)(cpu_ns() - t0));
	return 0;
}
