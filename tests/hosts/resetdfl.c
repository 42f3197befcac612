/*
 * resetdfl - a program that resets every disposition to SIG_DFL, as shells
 * and daemons do, burns CPU, then forks a child that resets them again
 * before it execs itself (argv[1] "child") to burn more.  Prints how the
 * child ended.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../progs/burn.h"

DEFINE_BURN(static, spin)

static void reset_all(void)
{
	for (int i = 1; i < _NSIG; i++)
		signal(i, SIG_DFL);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	for (int i = 1; i < _NSIG; i++)
		sigaction(i, &sa, NULL);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

int main(int argc, char **argv)
{
	double s = argc > 2 ? atof(argv[2]) : 1.0;
	reset_all();
	spin(s);
	if (argc > 1 && strcmp(argv[1], "child") == 0)
		return 3;
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		reset_all();
		spin(s / 2);
		char arg[32];
		snprintf(arg, sizeof arg, "%g", s / 2);
		execl("/proc/self/exe", argv[0], "child", arg, (char *)NULL);
		_exit(127);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	if (WIFEXITED(st))
		printf("child exited %d\n", WEXITSTATUS(st));
	else
		printf("child killed by signal %d\n", WTERMSIG(st));
	return 0;
}
