/*
 * host-inherit.c - what a program hands on, and holds, through signals
 * pct also uses.  argv[1] says how:
 *
 *   execl, execle, execlp, execv, execvp, execve: ignore SIGBUS, SIGPROF
 *     and SIGSTKFLT (pct's signals: its SIGBUS handler, its timer signal),
 *     burn 0.1 s, then exec, by that function, a program with no libpct
 *     (LD_PRELOAD unset) that prints its line SigIgn of /proc/self/status:
 *     the ignored set it inherited, 0000000004008040 without pct.
 *   pending: block every signal, send itself SIGBUS, burn 0.2 s, then
 *     print whether SIGBUS is pending and take it with sigwait(3): as
 *     without pct, "pending 1" and "sigwait 7".
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../progs/burn.h"

DEFINE_BURN(static, work)

extern char **environ;

int main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "";
	if (strcmp(how, "pending") == 0) {
		sigset_t all, set;
		sigfillset(&all);
		sigprocmask(SIG_BLOCK, &all, NULL);
		kill(getpid(), SIGBUS);
		work(0.2);
		sigpending(&set);
		printf("pending %d\n", sigismember(&set, SIGBUS));
		sigemptyset(&set);
		sigaddset(&set, SIGBUS);
		int sig = 0;
		sigwait(&set, &sig);
		printf("sigwait %d\n", sig);
		return 0;
	}
	signal(SIGBUS, SIG_IGN);
	signal(SIGPROF, SIG_IGN);
	signal(SIGSTKFLT, SIG_IGN);
	work(0.1);
	fflush(stdout);
	unsetenv("LD_PRELOAD");
	char *av[] = {"grep", "SigIgn", "/proc/self/status", NULL};
	if (strcmp(how, "execl") == 0)
		execl("/bin/grep", "grep", "SigIgn", "/proc/self/status", (char *)NULL);
	else if (strcmp(how, "execle") == 0)
		execle("/bin/grep", "grep", "SigIgn", "/proc/self/status", (char *)NULL, environ);
	else if (strcmp(how, "execlp") == 0)
		execlp("grep", "grep", "SigIgn", "/proc/self/status", (char *)NULL);
	else if (strcmp(how, "execv") == 0)
		execv("/bin/grep", av);
	else if (strcmp(how, "execvp") == 0)
		execvp("grep", av);
	else if (strcmp(how, "execve") == 0)
		execve("/bin/grep", av, environ);
	perror(how);
	return 1;
}
