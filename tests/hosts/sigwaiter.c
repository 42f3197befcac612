/*
 * sigwaiter - a program that takes its signals synchronously: main blocks
 * every signal before it starts two threads, which burn CPU and poll with
 * sigtimedwait(2) and a signalfd(2) while main waits in sigtimedwait.  At
 * the end it sends itself SIGUSR1.  Prints every signal taken: only
 * SIGUSR1, once.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/signalfd.h>
#include <unistd.h>
#include "../progs/burn.h"

DEFINE_BURN(static, spin)

static sigset_t all;
static int sfd;
static double secs;

static void took(const char *how, int sig)
{
	printf("%s took signal %d\n", how, sig);
	fflush(stdout);
}

static void *poller(void *arg)
{
	int use_fd = arg != NULL;
	uint64_t t0 = thread_cpu_ns();
	while (thread_cpu_ns() - t0 < (uint64_t)(secs * 1e9)) {
		spin(0.01);
		if (use_fd) {
			struct signalfd_siginfo fi;
			while (read(sfd, &fi, sizeof fi) == (ssize_t)sizeof fi)
				took("signalfd", (int)fi.ssi_signo);
		} else {
			struct timespec zero = { 0, 0 };
			int s;
			while ((s = sigtimedwait(&all, NULL, &zero)) > 0)
				took("sigtimedwait", s);
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	secs = argc > 1 ? atof(argv[1]) : 1.0;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	sfd = signalfd(-1, &all, SFD_NONBLOCK | SFD_CLOEXEC);
	if (sfd < 0)
		return perror("signalfd"), 1;
	pthread_t a, b;
	pthread_create(&a, NULL, poller, NULL);
	pthread_create(&b, NULL, poller, "fd");
	/* main burns too, between waits */
	uint64_t t0 = thread_cpu_ns();
	while (thread_cpu_ns() - t0 < (uint64_t)(secs * 1e9)) {
		spin(0.01);
		struct timespec ms = { 0, 1000000 };
		int s;
		while ((s = sigtimedwait(&all, NULL, &ms)) > 0)
			took("main", s);
	}
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	kill(getpid(), SIGUSR1);
	struct timespec sec = { 5, 0 };
	int s = sigtimedwait(&all, NULL, &sec);
	took("end", s);
	return 0;
}
