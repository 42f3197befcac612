/*
 * host-argv.c - a program that rewrites its argv in place, as git, perf
 * and setproctitle do: argv[1..] set to NULL and argv[0]'s text
 * overwritten, then it forks a child that prints and exits
 * (tests/e2e/130-host-argv.sh).  pct's child handler read the saved argv
 * and died in strlen(NULL) before the child's code ran.
 *
 *   host-argv ARG...
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../progs/burn.h"

DEFINE_BURN(static, burn)

int main(int argc, char **argv)
{
	burn(0.05);
	size_t len = strlen(argv[0]);
	memset(argv[0], 0, len);
	strncpy(argv[0], "renamed", len);
	for (int i = 1; i < argc; i++)
		argv[i] = NULL;
	pid_t p = fork();
	if (p == 0) {
		burn(0.05);
		printf("child ran\n");
		return 0;
	}
	int status = 0;
	if (p < 0 || waitpid(p, &status, 0) != p)
		return 2;
	printf("parent: child exited %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return 0;
}
