/*
 * ownsig - a program that sends itself SIGSTKFLT (pct's signal) while it
 * blocks it, in the patterns that wait for a blocked signal: sigsuspend(2)
 * with the old mask, a thread that sigwait(3)s while another sends the
 * signal to the process and to the thread, and sigpending(2) across
 * fork(2).  (A signalfd(2) never reads pct's signal: libpct(3), SIGNALS.)  Prints what it saw; the same
 * with and without pct.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../progs/burn.h"

DEFINE_BURN(static, work)

static volatile sig_atomic_t got;
static sigset_t one;

static void on_sig(int sig)
{
	(void)sig;
	got++;
}

static void *waiter(void *arg)
{
	int sig = 0;
	sigwait(&one, &sig);
	printf("sigwait thread got %d (%s)\n", sig, (const char *)arg);
	return NULL;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_sig };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSTKFLT, &sa, NULL);
	sigemptyset(&one);
	sigaddset(&one, SIGSTKFLT);
	sigset_t old;
	sigprocmask(SIG_BLOCK, &one, &old);
	work(0.05);

	/* sigsuspend with the old mask takes the pending signal */
	raise(SIGSTKFLT);
	while (!got)
		sigsuspend(&old);
	printf("sigsuspend: handled %d\n", (int)got);

	/* a sigwait thread gets a process-directed and a thread-directed one */
	pthread_t t;
	pthread_create(&t, NULL, waiter, "process");
	work(0.05);
	kill(getpid(), SIGSTKFLT);
	pthread_join(t, NULL);
	pthread_create(&t, NULL, waiter, "thread");
	work(0.05);
	pthread_kill(t, SIGSTKFLT);
	pthread_join(t, NULL);

	/* pending across fork: the child has none of the parent's */
	raise(SIGSTKFLT);
	work(0.05);
	sigset_t pend;
	sigpending(&pend);
	printf("pending before fork %d\n", sigismember(&pend, SIGSTKFLT));
	fflush(stdout);
	pid_t c = fork();
	if (c == 0) {
		sigpending(&pend);
		printf("child pending %d\n", sigismember(&pend, SIGSTKFLT));
		fflush(stdout);
		_exit(0);
	}
	waitpid(c, NULL, 0);
	sigprocmask(SIG_SETMASK, &old, NULL);
	printf("end: handled %d\n", (int)got);
	return 0;
}
