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
 * The other exec functions are wrapped too: glibc's execv(3), execl(3)
 * and the rest call its internal execve, which bypasses the dynamic
 * symbol table.  execv, execl, execle and fexecve are built on the
 * system calls here (they are async-signal-safe); execvp, execvpe and
 * execlp search $PATH, which is the C library's (found by the
 * constructor, rt_exec_resolve), bracketed by the same steps.
 *
 * Not covered: posix_spawn(3), system(3) and popen(3), whose child calls
 * glibc's internal execve (the child resets pct's handlers to SIG_DFL,
 * so a signal the program ignores through pct's virtual disposition is
 * SIG_DFL in the spawned program), and raw system calls; their programs
 * still appear once they take a sample or exit (pct_off).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runtime.h"

extern char **environ;

typedef int execvpe_fn(const char *, char *const[], char *const[]);
static execvpe_fn *real_execvpe;
static int (*real_execvp)(const char *, char *const[]);

void rt_exec_resolve(void)
{
	real_execvpe = (execvpe_fn *)dlsym(RTLD_NEXT, "execvpe");
	real_execvp = (int (*)(const char *, char *const[]))dlsym(RTLD_NEXT, "execvp");
}

/* the steps before any exec, and after one that failed; errno is the exec's */
static void before(void)
{
	rt_before_exec();
	rt_sig_before_exec();  /* the program's SIG_IGN inherited (sig.c) */
}

static int failed(int rc)
{
	int e = errno;
	rt_sig_exec_failed();
	errno = e;
	return rc;
}

PUBLIC int execve(const char *path, char *const argv[], char *const envp[])
{
	before();
	return failed((int)syscall(SYS_execve, path, argv, envp));
}

PUBLIC int execveat(int dirfd, const char *path, char *const argv[], char *const envp[], int flags)
{
	before();
	return failed((int)syscall(SYS_execveat, dirfd, path, argv, envp, flags));
}

PUBLIC int fexecve(int fd, char *const argv[], char *const envp[])
{
	return execveat(fd, "", argv, envp, AT_EMPTY_PATH);
}

PUBLIC int execv(const char *path, char *const argv[])
{
	return execve(path, argv, environ);
}

PUBLIC int execvpe(const char *file, char *const argv[], char *const envp[])
{
	if (real_execvpe == NULL) {
		errno = ENOSYS;
		return -1;
	}
	before();
	return failed(real_execvpe(file, argv, envp));
}

PUBLIC int execvp(const char *file, char *const argv[])
{
	if (real_execvp == NULL) {
		errno = ENOSYS;
		return -1;
	}
	before();
	return failed(real_execvp(file, argv));
}

/* The argument count of an execl(3) call: arg0 and the rest up to the
 * NULL. */
static size_t count(const char *arg0, va_list ap)
{
	size_t n = 1;
	(void)arg0;  /* glibc's execl and execlp declare it nonnull */
	while (va_arg(ap, const char *) != NULL)
			n++;
	return n;
}

/* execl(3), execle(3), execlp(3): the vector on the stack, as glibc
 * builds it; envp from after the NULL for execle, environ otherwise. */
#define EXECL(call, with_envp)                                    \
	do {                                                          \
		va_list ap;                                               \
		va_start(ap, arg0);                                       \
		size_t n = count(arg0, ap);                               \
		va_end(ap);                                               \
		char *argv[n + 1];                                        \
		char *const *envp = environ;                              \
		argv[0] = (char *)arg0;                                   \
		va_start(ap, arg0);                                       \
		for (size_t i = 1; i <= n; i++)                           \
			argv[i] = i < n ? va_arg(ap, char *) : NULL;          \
		(void)va_arg(ap, char *);                                 \
		if (with_envp)                                            \
			envp = va_arg(ap, char *const *);                     \
		va_end(ap);                                               \
		(void)envp;                                               \
		return call;                                              \
	} while (0)

PUBLIC int execl(const char *path, const char *arg0, ...)
{
	EXECL(execve(path, argv, environ), 0);
}

PUBLIC int execle(const char *path, const char *arg0, ...)
{
	EXECL(execve(path, argv, envp), 1);
}

PUBLIC int execlp(const char *file, const char *arg0, ...)
{
	EXECL(execvp(file, argv), 0);
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
