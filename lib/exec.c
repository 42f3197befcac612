/*
 * exec.c - execve(2) and _exit(2) seen by the runtime (the shared libpct.so only: a
 * static program has no dynamic symbol table to interpose on, and libpct.a
 * leaves this file out).
 *
 * Under `pct record` ($PCT_SESSION set), a process that took no sample
 * before it exec'd another program would leave no trace of that program
 * in the tree: a shell that runs `sh -c 'gcc -c x.c'` execs gcc.  So,
 * before the exec, such a process writes its profile with no sample
 * (rt_before_exec), and the tree lists it (pct-record(1), "Process
 * trees"); so does one that ends by _exit, which runs no destructor.  The exec itself is the system call, as glibc's execve is:
 * nothing is resolved at run time, so it is async-signal-safe, as
 * execve(2) must be (a vfork(2) child, a handler, a forked child of a
 * threaded program may call it).
 *
 * Not covered: exec functions inside glibc that bypass the dynamic
 * symbol table (execvp(3), posix_spawn(3) call its internal execve) and
 * raw system calls; their programs still appear once they take a sample
 * or exit (pct_off).
 */
#define _GNU_SOURCE
#include <sys/syscall.h>
#include <unistd.h>

#include "runtime.h"

PUBLIC int execve(const char *path, char *const argv[], char *const envp[])
{
	rt_before_exec();
	return (int)syscall(SYS_execve, path, argv, envp);
}

/* _exit(2) and _Exit(3) skip the destructors, and with them pct_off: a
 * shell (dash) ends with _exit.  The same as before an exec, then the
 * system call glibc's _exit makes. */
PUBLIC void _exit(int status)
{
	rt_before_exec();
	for (;;)
		syscall(SYS_exit_group, status);
}

PUBLIC void _Exit(int status)
{
	rt_before_exec();
	for (;;)
		syscall(SYS_exit_group, status);
}
