/*
 * hostile.c - things programs do that a profiler must survive:
 *   - a thread that blocks every signal while it burns CPU;
 *   - vfork + exec of /bin/true;
 *   - closing every descriptor above 2, then starting and joining threads;
 *   - _exit without running atexit handlers.
 * Exit status 0 if everything behaved; prints "ok".
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "burn.h"

DEFINE_BURN(static, burn)

static void *masked(void *a)
{
	(void)a;
	sigset_t all;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	burn(0.2);
	return NULL;
}

static void *plain(void *a)
{
	(void)a;
	burn(0.1);
	return NULL;
}

int main(void)
{
	pthread_t t;
	if (pthread_create(&t, NULL, masked, NULL) || pthread_join(t, NULL))
		return 2;
	pid_t pid = vfork();
	if (pid == 0) {
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	int st;
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return 3;
	for (int fd = 3; fd < 1024; fd++)
		close(fd);
	for (int i = 0; i < 4; i++)
		if (pthread_create(&t, NULL, plain, NULL) || pthread_join(t, NULL))
			return 4;
	burn(0.1);
	printf("ok\n");
	fflush(stdout);
	_exit(0);
}
