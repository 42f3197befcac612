/*
 * attach-forkexec.c - a process that forks, execs and ends processes and
 * threads all the time, for the tests of attaching to it: while pct is
 * attached, its children and their exec'd programs must be profiled too
 * (the profile complete), and their exit statuses reach the parent as
 * without pct.
 *
 * usage: attach-forkexec SECONDS
 *   the parent burns in parent_work between rounds of 150 ms; each round
 *   it forks a child, which burns 40 ms in child_work and execs
 *   "attach-forkexec exec", which burns 40 ms in exec_work and exits 5;
 *   and it starts a thread that burns 30 ms in thread_work and ends.  The
 *   parent waits for each child and checks its status.
 * Prints "ready" on stderr at its start and "children N bad M threads K"
 * at its end; exits 0 if every child exited 5.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../progs/burn.h"

DEFINE_BURN(static, parent_work)
DEFINE_BURN(static, child_work)
DEFINE_BURN(static, exec_work)
DEFINE_BURN(static, thread_work)

static void *thread_main(void *arg)
{
	(void)arg;
	thread_work(0.03);
	return NULL;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "exec") == 0) {
		exec_work(0.04);
		return 5;
	}
	double seconds = argc > 1 ? atof(argv[1]) : 3, end = now_s() + seconds;
	int children = 0, bad = 0, threads = 0;
	fprintf(stderr, "ready\n");
	while (now_s() < end) {
		pid_t pid = fork();
		if (pid < 0)
			return 2;
		if (pid == 0) {
			child_work(0.04);
			execl("/proc/self/exe", argv[0], "exec", (char *)NULL);
			_exit(127);
		}
		pthread_t t;
		if (pthread_create(&t, NULL, thread_main, NULL) == 0)
			threads++;
		parent_work(0.05);
		pthread_join(t, NULL);
		int st;
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 5)
			bad++;
		children++;
	}
	printf("children %d bad %d threads %d\n", children, bad, threads);
	return bad != 0;
}
