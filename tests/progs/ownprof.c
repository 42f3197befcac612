/*
 * ownprof.c - a program that profiles itself the old way: its own SIGPROF
 * handler and ITIMER_PROF at 100 Hz, over about SECONDS of CPU time.
 * Prints "ticks<TAB>N<TAB>cpu_ns<TAB>C<TAB>foreign<TAB>F": N SIGPROFs from
 * the kernel's timer (si_code SI_KERNEL) and F from anywhere else; pct
 * must not change N per CPU second, and F must stay 0.  usage: ownprof [SECONDS]    (default 2)
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

static volatile sig_atomic_t ticks, foreign;
static volatile uint64_t sink;

static void on_prof(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)uc;
	if (si->si_code == SI_KERNEL)
		ticks++;
	else
		foreign++;
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
	sa.sa_sigaction = on_prof;
	sa.sa_flags = SA_RESTART | SA_SIGINFO;
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
	printf("ticks\t%d\tcpu_ns\t%llu\tforeign\t%d\n", (int)ticks, (unsigned long long)(cpu_ns() - t0),
	       (int)foreign);
	return 0;
}
