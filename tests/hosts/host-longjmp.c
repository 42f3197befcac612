/*
 * host-longjmp.c - the timeout pattern: SIGALRM every 100 us, whose
 * handler siglongjmps out of whatever ran, argv[1] times (3000).  It says
 * how many jumps it made.  pct must not hold a lock where such a handler
 * can leave it held: the next sample would wait on it for ever.  After
 * the last jump it spins 50 ms more with the alarm off, so that such a
 * wait has no SIGALRM to end it.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

static sigjmp_buf env;
static volatile unsigned long spin;
static volatile sig_atomic_t jumps, want = 3000;

static void on_alarm(int sig)
{
	(void)sig;
	if (jumps < want) {
		jumps++;
		siglongjmp(env, 1);
	}
}

int main(int argc, char **argv)
{
	if (argc > 1)
		want = atoi(argv[1]);
	/* the target first, then the alarm: an alarm before sigsetjmp had
	 * saved the mask would jump to nowhere (SIGSEGV) or leave SIGALRM
	 * blocked for good (a hang) */
	if (sigsetjmp(env, 1) == 0) {
		struct itimerval it = { { 0, 100 }, { 0, 100 } };
		struct sigaction sa = { .sa_handler = on_alarm };
		sigemptyset(&sa.sa_mask);
		sigaction(SIGALRM, &sa, NULL);
		setitimer(ITIMER_REAL, &it, NULL);
	}
	while (jumps < want)
		spin++;
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &off, NULL);
	struct timespec t0, t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 10000; i++)
			spin++;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 50000000L);
	printf("%d jumps\n", (int)jumps);
	return 0;
}
