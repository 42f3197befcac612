/*
 * limits.c - the program needs back what pct holds: process slots and
 * pending signals (libpct(3), RESOURCES).  The shared library's only, as
 * exec.c: a static program has no dynamic symbol table to interpose on,
 * and libpct.a leaves this file out.
 *
 * RLIMIT_NPROC counts every thread of the user, and the wall event's
 * sampler is one per process.  When the program's fork(2), clone(2),
 * posix_spawn(3), system(3) or popen(3) fails with EAGAIN while samplers
 * run in its fork tree, they make way (wall.c, rt_wall_give_way) and the
 * call is made again, for at most 100 ms (pthread_create is threads.c's).
 *
 * RLIMIT_SIGPENDING counts the user's queued signals, and each CPU-time
 * timer of pct's holds one from its creation.  When the program's
 * sigqueue(3), pthread_sigqueue(3) or timer_create(2) fails with EAGAIN,
 * pct gives its timers back one at a time (threads.c,
 * rt_timers_give_back) until the call succeeds; and when the program
 * lowers the limit (setrlimit, prlimit), pct keeps at most half of the new
 * one, as it does at the start.
 *
 * Not covered: vfork(2), which a wrapper cannot call for its caller, and
 * the calls inside the C library that bypass the symbol table.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "runtime.h"

/* the resource argument of setrlimit(2) and prlimit(2): glibc's enum in
 * GNU mode, an int elsewhere */
#ifdef __GLIBC__
typedef __rlimit_resource_t resource_t;
#else
typedef int resource_t;
#endif

/*
 * The C library's definitions (the next after libpct), found by the
 * constructor (rt_limits_resolve), before any thread could call a wrapper
 * from a signal handler (fork and sigqueue are async-signal-safe, and
 * dlsym is not).
 */
enum { N_FORK, N_SPAWN, N_SPAWNP, N_SYSTEM, N_POPEN, N_CLONE, N_SIGQUEUE, N_PTHREAD_SIGQUEUE, N_TIMER_CREATE,
       N_SETRLIMIT, N_SETRLIMIT64, N_PRLIMIT, N_PRLIMIT64, N_MAX };
static const char *const names[N_MAX] = {
	"fork", "posix_spawn", "posix_spawnp", "system", "popen", "clone", "sigqueue", "pthread_sigqueue",
	"timer_create", "setrlimit", "setrlimit64", "prlimit", "prlimit64",
};
static void *reals[N_MAX];

void rt_limits_resolve(void)
{
	for (int i = 0; i < N_MAX; i++)
		if (reals[i] == NULL)
			reals[i] = dlsym(RTLD_NEXT, names[i]);
}

/* The C library's definition of name (the next after libpct). */
static void *next(const char *name)
{
	for (int i = 0; i < N_MAX; i++)
		if (strcmp(names[i], name) == 0)
			return reals[i] ? reals[i] : (reals[i] = dlsym(RTLD_NEXT, name));
	return dlsym(RTLD_NEXT, name);
}

/* Wait a millisecond before trying a call again: the kernel frees a
 * sampler's slot once its thread has gone. */
static void pause_ms(void)
{
	struct timespec ms = { 0, 1000000 };
	nanosleep(&ms, NULL);
}

/* Try a failed call again while it fails with EAGAIN, at most 100 ms, if
 * pct's samplers made way.  COND: the call failed with EAGAIN. */
#define AGAIN_NPROC(COND, CALL)                                           \
	do {                                                              \
		if ((COND) && rt_wall_give_way())                         \
			for (int try_ = 0; try_ < 100 && (COND); try_++) { \
				pause_ms();                               \
				CALL;                                     \
			}                                                 \
	} while (0)

PUBLIC pid_t fork(void)
{
	static pid_t (*real)(void);
	if (real == NULL)
		real = (pid_t (*)(void))next("fork");
	if (real == NULL)
		return errno = ENOSYS, -1;
	pid_t p = real();
	AGAIN_NPROC(p < 0 && errno == EAGAIN, p = real());
	return p;
}

typedef int spawn_fn(pid_t *, const char *, const posix_spawn_file_actions_t *, const posix_spawnattr_t *,
		     char *const[], char *const[]);

static int spawn(spawn_fn **real, const char *name, pid_t *pid, const char *path,
		 const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *attr, char *const argv[],
		 char *const envp[])
{
	if (*real == NULL)
		*real = (spawn_fn *)next(name);
	if (*real == NULL)
		return ENOSYS;
	int rc = (*real)(pid, path, fa, attr, argv, envp);
	AGAIN_NPROC(rc == EAGAIN, rc = (*real)(pid, path, fa, attr, argv, envp));
	return rc;
}

PUBLIC int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa,
		       const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	static spawn_fn *real;
	return spawn(&real, "posix_spawn", pid, path, fa, attr, argv, envp);
}

PUBLIC int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *fa,
			const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	static spawn_fn *real;
	return spawn(&real, "posix_spawnp", pid, file, fa, attr, argv, envp);
}

PUBLIC int system(const char *command)
{
	static int (*real)(const char *);
	if (real == NULL)
		real = (int (*)(const char *))next("system");
	if (real == NULL)
		return errno = ENOSYS, -1;
	int rc = real(command);
	AGAIN_NPROC(rc == -1 && errno == EAGAIN && command, rc = real(command));
	return rc;
}

PUBLIC FILE *popen(const char *command, const char *type)
{
	static FILE *(*real)(const char *, const char *);
	if (real == NULL)
		real = (FILE * (*)(const char *, const char *)) next("popen");
	if (real == NULL)
		return errno = ENOSYS, NULL;
	FILE *f = real(command, type);
	AGAIN_NPROC(f == NULL && errno == EAGAIN, f = real(command, type));
	return f;
}

/* clone(3), the C library's wrapper: the optional parent_tid, tls and
 * child_tid are passed on whatever the flags (it reads only those they
 * name). */
PUBLIC int clone(int (*fn)(void *), void *stack, int flags, void *arg, ...)
{
	static int (*real)(int (*)(void *), void *, int, void *, ...);
	va_list ap;
	va_start(ap, arg);
	pid_t *ptid = va_arg(ap, pid_t *);
	void *tls = va_arg(ap, void *);
	pid_t *ctid = va_arg(ap, pid_t *);
	va_end(ap);
	if (real == NULL)
		real = (int (*)(int (*)(void *), void *, int, void *, ...))next("clone");
	if (real == NULL)
		return errno = ENOSYS, -1;
	int rc = real(fn, stack, flags, arg, ptid, tls, ctid);
	AGAIN_NPROC(rc == -1 && errno == EAGAIN, rc = real(fn, stack, flags, arg, ptid, tls, ctid));
	return rc;
}

/* ---- pending signals ---- */

PUBLIC int sigqueue(pid_t pid, int sig, const union sigval value)
{
	static int (*real)(pid_t, int, const union sigval);
	if (real == NULL)
		real = (int (*)(pid_t, int, const union sigval))next("sigqueue");
	if (real == NULL)
		return errno = ENOSYS, -1;
	int rc;
	while ((rc = real(pid, sig, value)) == -1 && errno == EAGAIN && rt_timers_give_back(1))
		;
	return rc;
}

PUBLIC int pthread_sigqueue(pthread_t thread, int sig, const union sigval value)
{
	static int (*real)(pthread_t, int, const union sigval);
	if (real == NULL)
		real = (int (*)(pthread_t, int, const union sigval))next("pthread_sigqueue");
	if (real == NULL)
		return ENOSYS;
	int rc;
	while ((rc = real(thread, sig, value)) == EAGAIN && rt_timers_give_back(1))
		;
	return rc;
}

PUBLIC int timer_create(clockid_t clock, struct sigevent *sev, timer_t *id)
{
	static int (*real)(clockid_t, struct sigevent *, timer_t *);
	if (real == NULL)
		real = (int (*)(clockid_t, struct sigevent *, timer_t *))next("timer_create");
	if (real == NULL)
		return errno = ENOSYS, -1;
	int rc;
	while ((rc = real(clock, sev, id)) == -1 && errno == EAGAIN && rt_timers_give_back(1))
		;
	return rc;
}

/* The program set RLIMIT_SIGPENDING to rl: pct keeps at most half of its
 * soft limit, as when its timers were made. */
static void pending_limit_set(int resource, uint64_t cur)
{
	/* (not in a vfork child, which shares the parent's memory) */
	if (resource != RLIMIT_SIGPENDING || cur == (uint64_t)RLIM_INFINITY || rt_g.led.pid != rt_getpid())
		return;
	int held = rt_timers_held(), keep = (int)(cur / 2);
	if (held > keep)
		rt_timers_give_back(held - keep);
}

/* setrlimit and prlimit, and their 64-bit names (the same on 64-bit
 * systems), with the limit set passed on to pending_limit_set */
#define SET_LIMIT(NAME, RL)                                                             \
	PUBLIC int NAME(resource_t resource, const struct RL *rl)                         \
	{                                                                               \
		static int (*real)(resource_t, const struct RL *);                      \
		if (real == NULL)                                                       \
			real = (int (*)(resource_t, const struct RL *))next(#NAME);     \
		if (real == NULL)                                                       \
			return errno = ENOSYS, -1;                                      \
		int rc = real(resource, rl), e = errno;                                 \
		const void *given_ = rl;  /* declared nonnull; a null one is EFAULT */  \
		__asm__("" : "+r"(given_));                                             \
		if (rc == 0 && given_)                                                  \
			pending_limit_set((int)resource, (uint64_t)rl->rlim_cur);       \
		errno = e;                                                              \
		return rc;                                                              \
	}
#define PR_LIMIT(NAME, RL)                                                                      \
	PUBLIC int NAME(pid_t pid, resource_t resource, const struct RL *rl, struct RL *old)      \
	{                                                                                       \
		static int (*real)(pid_t, resource_t, const struct RL *, struct RL *);          \
		if (real == NULL)                                                               \
			real = (int (*)(pid_t, resource_t, const struct RL *, struct RL *))next(#NAME); \
		if (real == NULL)                                                               \
			return errno = ENOSYS, -1;                                              \
		int rc = real(pid, resource, rl, old), e = errno;                               \
		if (rc == 0 && rl && (pid == 0 || (uint32_t)pid == rt_getpid()))                \
			pending_limit_set((int)resource, (uint64_t)rl->rlim_cur);               \
		errno = e;                                                                      \
		return rc;                                                                      \
	}

SET_LIMIT(setrlimit, rlimit)
SET_LIMIT(setrlimit64, rlimit64)
PR_LIMIT(prlimit, rlimit)
PR_LIMIT(prlimit64, rlimit64)
