/*
 * forkexec.c - a process tree with known work in each process.
 *
 *   forkexec            parent: forks a child, burns in parent_work, waits
 *     child (fork)      burns in child_work, then execs "forkexec exec"
 *       forkexec exec   burns in exec_work
 * Each burns about 0.3 s of CPU.  Exit status 0 if every step worked.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "burn.h"

DEFINE_BURN(static, parent_work)
DEFINE_BURN(static, child_work)
DEFINE_BURN(static, exec_work)

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "exec") == 0) {
		exec_work(0.3);
		return 0;
	}
	pid_t pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		child_work(0.3);
		execl("/proc/self/exe", argv[0], "exec", (char *)NULL);
		_exit(3);
	}
	parent_work(0.3);
	int st;
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return 4;
	return 0;
}
