/*
 * host-clonevm.c - a raw clone(CLONE_VM) child (not a thread) that calls
 * exit(), which runs the atexit handlers and destructors of the parent's
 * libraries in the shared memory.  The parent burns 0.3 s of CPU before
 * and 1.2 s after; pct must sample all 1.5 s.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "../progs/burn.h"

DEFINE_BURN(static, burn)

static char stack[256 * 1024] __attribute__((aligned(16)));

static int child(void *arg)
{
	(void)arg;
	exit(0);
}

int main(void)
{
	burn(0.3);
	int pid = clone(child, stack + sizeof stack, CLONE_VM | SIGCHLD, NULL);
	int status;
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 2;
	burn(1.2);
	printf("child exited %d\n", WEXITSTATUS(status));
	return 0;
}
