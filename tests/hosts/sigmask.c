/*
 * sigmask - a program that blocks SIGSTKFLT (pct's signal) and reads its
 * mask back, sends itself the signal while it is blocked, finds it
 * pending, takes it by unblocking, then again with sigwaitinfo(2); a
 * thread created with it blocked reads that back too, and burns argv[1]
 * seconds of CPU with every signal blocked.  Prints what it saw; the same
 * with and without pct.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include "../progs/burn.h"

DEFINE_BURN(static, blocked_work)

static volatile sig_atomic_t got, value;
static double secs = 0.3;

static void on_stkflt(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)uc;
	got++;
	value = si->si_value.sival_int;
}

static int blocked(void)
{
	sigset_t cur;
	pthread_sigmask(SIG_BLOCK, NULL, &cur);
	return sigismember(&cur, SIGSTKFLT);
}

static int pending(void)
{
	sigset_t p;
	sigpending(&p);
	return sigismember(&p, SIGSTKFLT);
}

static void *worker(void *arg)
{
	(void)arg;
	printf("thread: blocked %d\n", blocked());
	sigset_t all;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, NULL);
	blocked_work(secs);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		secs = atof(argv[1]);
	struct sigaction sa = { .sa_sigaction = on_stkflt, .sa_flags = SA_SIGINFO };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSTKFLT, &sa, NULL);
	sigset_t one, old;
	sigemptyset(&one);
	sigaddset(&one, SIGSTKFLT);
	sigprocmask(SIG_BLOCK, &one, &old);
	printf("before: blocked %d; now: blocked %d\n", sigismember(&old, SIGSTKFLT), blocked());
	union sigval v = { .sival_int = 7 };
	sigqueue(getpid(), SIGSTKFLT, v);
	printf("sent while blocked: handled %d, pending %d\n", (int)got, pending());
	sigprocmask(SIG_UNBLOCK, &one, NULL);
	printf("unblocked: handled %d (value %d), pending %d\n", (int)got, (int)value, pending());
	sigprocmask(SIG_BLOCK, &one, NULL);
	v.sival_int = 8;
	sigqueue(getpid(), SIGSTKFLT, v);
	siginfo_t si;
	int s = sigwaitinfo(&one, &si);
	printf("sigwaitinfo: signal %d value %d; handled %d, pending %d\n", s, si.si_value.sival_int, (int)got,
	       pending());
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	pthread_join(t, NULL);
	sigprocmask(SIG_SETMASK, &old, NULL);
	printf("end: blocked %d, handled %d\n", blocked(), (int)got);
	return 0;
}
