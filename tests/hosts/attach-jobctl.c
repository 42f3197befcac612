/*
 * attach-jobctl.c - a parent that watches its child as a shell does, for
 * the tests of attaching to the child: does its job control, its signals
 * and its exit status stay as they are?
 *
 * The child runs two computing threads and one that sleeps; it counts the
 * real-time signals (SIGRTMIN + 1) it gets, checking each one's siginfo (SI_QUEUE from its parent,
 * value 42), and on SIGTERM it prints "child rt N bad M" and exits 7.
 * The parent prints "child PID", then every change waitpid(WUNTRACED |
 * WCONTINUED) reports: "stopped SIG", "continued", "exited N" or "killed
 * SIG", one a line; on SIGUSR2 it sends the child 200 of them by
 * sigqueue(3), 2 ms apart.  It exits when the child has.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t got, bad, burst;
static volatile unsigned long sink;
static pid_t parent;

static void on_usr1(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)uc;
	got++;
	if (si->si_code != SI_QUEUE || si->si_value.sival_int != 42 || si->si_pid != parent)
		bad++;
}

static void on_term(int sig)
{
	(void)sig;
	char line[64];
	int n = snprintf(line, sizeof line, "child rt %d bad %d\n", (int)got, (int)bad);
	if (write(1, line, (size_t)n) < 0)
		_exit(3);
	_exit(7);
}

static void *burn(void *arg)
{
	(void)arg;
	for (;;)
		sink = sink * 6364136223846793005u + 1;
	return NULL;
}

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;) {
		struct timespec t = { 0, 5000000 };
		nanosleep(&t, NULL);
	}
	return NULL;
}

static void on_usr2(int sig)
{
	(void)sig;
	burst = 1;
}

int main(void)
{
	parent = getpid();
	setvbuf(stdout, NULL, _IOLBF, 0);
	struct sigaction sa = { .sa_handler = on_usr2 };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR2, &sa, NULL);
	pid_t child = fork();
	if (child < 0)
		return 2;
	if (child == 0) {
		struct sigaction u = { .sa_sigaction = on_usr1, .sa_flags = SA_SIGINFO | SA_RESTART };
		sigemptyset(&u.sa_mask);
		sigaction(SIGRTMIN + 1, &u, NULL);
		struct sigaction t = { .sa_handler = on_term };
		sigemptyset(&t.sa_mask);
		sigaction(SIGTERM, &t, NULL);
		pthread_t th;
		pthread_create(&th, NULL, burn, NULL);
		pthread_create(&th, NULL, burn, NULL);
		pthread_create(&th, NULL, sleeper, NULL);
		for (;;)
			pause();
	}
	printf("child %d\n", (int)child);
	for (;;) {
		int st;
		pid_t r = waitpid(child, &st, WUNTRACED | WCONTINUED);
		if (r < 0 && errno == EINTR) {
			if (burst) {
				burst = 0;
				union sigval v = { .sival_int = 42 };
				for (int i = 0; i < 200; i++) {
					sigqueue(child, SIGRTMIN + 1, v);
					struct timespec ts = { 0, 2000000 };
					nanosleep(&ts, NULL);
				}
				printf("sent 200\n");
			}
			continue;
		}
		if (r != child)
			return 2;
		if (WIFSTOPPED(st))
			printf("stopped %d\n", WSTOPSIG(st));
		else if (WIFCONTINUED(st))
			printf("continued\n");
		else if (WIFEXITED(st)) {
			printf("exited %d\n", WEXITSTATUS(st));
			return 0;
		} else if (WIFSIGNALED(st)) {
			printf("killed %d\n", WTERMSIG(st));
			return 0;
		}
	}
}
