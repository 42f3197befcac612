/*
 * attach-eintr.c - a host that counts EINTR: threads that block again
 * and again in the system calls a stop can end with EINTR (nanosleep,
 * read of a pipe, futex wait, epoll_wait, poll, select, sigtimedwait,
 * recv with SO_RCVTIMEO), three that compute between short epoll_waits,
 * sigtimedwaits and recvs (so that a sample falls due as they enter one:
 * those three return EINTR, not restarted, when a stop ends them), and
 * one that computes.
 * No signal is sent to it, so every EINTR is the profiler's doing.
 *
 * usage: attach-eintr SECONDS [none|restart|norestart]
 *   a handler for SIGUSR1 is installed with SA_RESTART, without, or not
 *   at all (it is never sent)
 * Prints "ready" on stdout once its threads run, then at the end one line
 * per call, "NAME calls eintr"; exits 1 if any call failed with EINTR.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

enum { NANOSLEEP, READ, FUTEX, EPOLL, POLL, SELECT, SIGTIMEDWAIT, RECV, MIX_EPOLL, MIX_SIGWAIT, MIX_RECV, NCALLS };
static const char *names[NCALLS] = { "nanosleep", "read", "futex", "epoll_wait", "poll", "select",
				     "sigtimedwait", "recv", "mix_epoll", "mix_sigtimedwait", "mix_recv" };
static volatile long calls[NCALLS], eintr[NCALLS];
static volatile int stop;
static int pipefd[2], sockfd[2], epfd;
static volatile unsigned long sink;

static void count(int k, int rc)
{
	calls[k]++;
	if (rc < 0 && errno == EINTR)
		eintr[k]++;
}

static void *blocker(void *arg)
{
	int k = (int)(long)arg;
	struct timespec ms = { 0, 1000000 };
	char c;
	uint32_t word = 0;
	struct epoll_event ev;
	sigset_t usr2;
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	while (!stop) {
		switch (k) {
		case NANOSLEEP: {
			struct timespec t = { 0, 200000 };
			count(k, nanosleep(&t, NULL));
			break;
		}
		case READ:
			count(k, (int)read(pipefd[0], &c, 1));
			break;
		case FUTEX:
			count(k, (int)syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 0, &ms, NULL, 0));
			break;
		case EPOLL:
			count(k, epoll_wait(epfd, &ev, 1, 1));
			break;
		case POLL:
			count(k, poll(NULL, 0, 1));
			break;
		case SELECT: {
			struct timeval tv = { 0, 1000 };
			count(k, select(0, NULL, NULL, NULL, &tv));
			break;
		}
		case SIGTIMEDWAIT:
			count(k, sigtimedwait(&usr2, NULL, &ms));
			break;
		case RECV:
			count(k, (int)recv(sockfd[0], &c, 1, 0));
			break;
		case MIX_EPOLL:
		case MIX_SIGWAIT:
		case MIX_RECV:
			/* about 50 us of work, then the call: a sample falls due
			 * as often as the thread enters it */
			for (int i = 0; i < 20000; i++)
				sink = sink * 6364136223846793005u + 1;
			if (k == MIX_EPOLL)
				count(k, epoll_wait(epfd, &ev, 1, 1));
			else if (k == MIX_SIGWAIT)
				count(k, sigtimedwait(&usr2, NULL, &ms));
			else
				count(k, (int)recv(sockfd[1], &c, 1, 0));
			break;
		}
	}
	return NULL;
}

static void *writer(void *arg)
{
	(void)arg;
	while (!stop) {
		struct timespec t = { 0, 1000000 };
		nanosleep(&t, NULL);
		if (write(pipefd[1], "x", 1) < 0 && errno != EINTR)
			break;
	}
	return NULL;
}

static void *burner(void *arg)
{
	(void)arg;
	while (!stop)
		sink = sink * 6364136223846793005u + 1;
	return NULL;
}

static void on_usr1(int sig)
{
	(void)sig;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 3;
	const char *mode = argc > 2 ? argv[2] : "none";
	if (strcmp(mode, "none") != 0) {
		struct sigaction sa = { .sa_handler = on_usr1 };
		sigemptyset(&sa.sa_mask);
		sa.sa_flags = strcmp(mode, "restart") == 0 ? SA_RESTART : 0;
		sigaction(SIGUSR1, &sa, NULL);
	}
	sigset_t usr2;
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &usr2, NULL);
	if (pipe(pipefd) != 0 || socketpair(AF_UNIX, SOCK_STREAM, 0, sockfd) != 0 || (epfd = epoll_create1(0)) < 0)
		return 2;
	struct timeval tv = { 0, 1000 };
	setsockopt(sockfd[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	setsockopt(sockfd[1], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	pthread_t t[NCALLS + 2];
	for (long k = 0; k < NCALLS; k++)
		pthread_create(&t[k], NULL, blocker, (void *)k);
	pthread_create(&t[NCALLS], NULL, writer, NULL);
	pthread_create(&t[NCALLS + 1], NULL, burner, NULL);
	printf("ready\n");
	fflush(stdout);
	struct timespec end;
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += (time_t)seconds;
	end.tv_nsec += (long)((seconds - (double)(time_t)seconds) * 1e9);
	if (end.tv_nsec >= 1000000000)
		end.tv_sec++, end.tv_nsec -= 1000000000;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &end, NULL) == EINTR)
		;
	stop = 1;
	if (write(pipefd[1], "xx", 2) < 0)   /* the reader may wait for one more */
		return 2;
	for (int k = 0; k < NCALLS + 2; k++)
		pthread_join(t[k], NULL);
	int bad = 0;
	for (int k = 0; k < NCALLS; k++) {
		printf("%s %ld %ld\n", names[k], calls[k], eintr[k]);
		bad |= eintr[k] != 0;
	}
	return bad;
}
