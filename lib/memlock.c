/*
 * memlock.c - the program locks its memory: mlockall(2) and munlockall(2)
 * seen by the runtime, and the hold that keeps every writer off pct's
 * range while it changes.
 *
 * mlockall(MCL_CURRENT) locks and fills every mapping of the process, and
 * pct's are large: the profile's range (41 MB, 108 MB with -g), the
 * threads' ranges, the runtime's own data.  Unprivileged, the call fails
 * with ENOMEM once the whole address space (VmSize, pct's included) is
 * over RLIMIT_MEMLOCK; as root it pins all of it; and MCL_FUTURE locks
 * (and fills, and counts against the limit) every mapping made later.
 * So the wrapper (libpct(3), RESOURCES):
 *   - with every writer held (rt_hold), makes the profile's range
 *     PROT_NONE, which mlockall leaves unfilled, calls mlockall, unlocks
 *     all of pct's mappings, and opens the range again: the program's
 *     memory is locked, pct's is not, and sampling goes on;
 *   - under MCL_FUTURE, creates the file first if no sample has (a later
 *     mapping would be locked and filled), and from then on unlocks each
 *     mapping it makes (rt_mapped);
 *   - where mlockall still fails for want of memory (ENOMEM, EAGAIN), pct
 *     steps aside: the profile is finished with what it holds, every
 *     mapping of pct's is let go, one warning says so, and the call is
 *     made again, so that the program sees what it would without pct.
 * libpct.a has the same wrapper: a static program's mlockall is pct's too.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "runtime.h"

int rt_hold(void)
{
	struct timespec t = { 0, 100000 };
	/* one holder at a time: a second mlockall waits for the first */
	for (int i = 0;; i++) {
		int expect = 0;
		if (rt_cas(&rt_g.hold, &expect, 1))
			break;
		if (i >= 10000)
			return 0;  /* a second after: not held */
		nanosleep(&t, NULL);
	}
	for (int i = 0; i < 1000 && rt_load(&rt_g.writers) > 0; i++)
		nanosleep(&t, NULL);
	if (rt_load(&rt_g.writers) == 0)
		return 1;
	rt_store(&rt_g.hold, 0);
	return 0;
}

void rt_unhold(void)
{
	rt_store(&rt_g.hold, 0);
}

void rt_mapped(void *p, size_t len)
{
	/* whether or not the wrapper saw the program's mlockall (it may have
	 * come before pct_on) */
	if (p && len)
		munlock(p, len);
}

/* Unlock the runtime's own loaded segments (text, data, bss), when it
 * is a shared library of its own: linked into the program (libpct.a, the
 * main executable, dlpi_name ""), they are the program's. */
static int unlock_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	uintptr_t me = (uintptr_t)arg;
	int mine = 0;
	if (info->dlpi_name == NULL || info->dlpi_name[0] == '\0')
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type == PT_LOAD && me >= lo && me < lo + ph->p_memsz)
			mine = 1;
	}
	for (int i = 0; mine && i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_LOAD)
			munlock((void *)(info->dlpi_addr + ph->p_vaddr), ph->p_memsz);
	}
	return mine;
}

/* Unlock every mapping of pct's. */
static void unlock_mine(void)
{
	rt_output_munlock();
	rt_arms_munlock();
	dl_iterate_phdr(unlock_object, (void *)&rt_g);
}

static int _Atomic stepped_aside;

/* The program's mlockall fails with pct's mappings: pct finishes its
 * profile and lets go of every one of them (libpct(3), RESOURCES). */
static void step_aside(void)
{
	int expect = RT_ON;
	if (!rt_cas(&rt_g.state, &expect, RT_OFF))
		return;
	rt_wall_stop();
	rt_store_release(&rt_g.sampling, 0);
	rt_disarm_all(0);
	rt_arms_drain_all();
	int held = rt_hold();
	rt_output_finish();
	if (held) {
		rt_output_release();
		rt_arms_release_ranges();
		rt_unhold();
	}
	if (!rt_xchg(&stepped_aside, 1))
		rt_say("the program locks its memory (mlockall) and its limit (ulimit -l) has no room for pct's "
		       "mappings", rt_g.path[0] ? rt_g.path : NULL, 0,
		       "profiling stops there, and the profile holds what was sampled before");
}

typedef int mlockall_fn(int);
static mlockall_fn *real_mlockall;
static int (*real_munlockall)(void);

/* found by the constructor (a wrapper may be called in a handler) */
void rt_memlock_resolve(void)
{
	if (real_mlockall == NULL)
		real_mlockall = (mlockall_fn *)dlsym(RTLD_NEXT, "mlockall");
	if (real_munlockall == NULL)
		real_munlockall = (int (*)(void))dlsym(RTLD_NEXT, "munlockall");
}

static int call_mlockall(int flags)
{
	/* the system call where there is no next (a static program) */
	return real_mlockall ? real_mlockall(flags) : (int)syscall(SYS_mlockall, flags);
}

PUBLIC int mlockall(int flags)
{
	if (rt_load(&rt_g.state) != RT_ON || rt_g.hdr == NULL || rt_g.led.pid != rt_getpid())
		return call_mlockall(flags);
	sigset_t old;
	rt_block_signals(&old);
	/* a mapping made under MCL_FUTURE would be locked and filled: the
	 * file is made now if no sample has made it */
	if ((flags & MCL_FUTURE) && !rt_load_acquire(&rt_g.table_ready) && rt_load_acquire(&rt_g.sampling))
		rt_output_create();
	int held = rt_hold();
	if (held)
		rt_output_protect(1);
	int rc = call_mlockall(flags), e = errno;
	if (rc == 0) {
		if (flags & MCL_FUTURE)
			rt_store(&rt_g.mlock_future, 1);
		unlock_mine();
	}
	if (held) {
		rt_output_protect(0);
		rt_unhold();
	}
	if (rc != 0 && (e == ENOMEM || e == EAGAIN)) {
		step_aside();
		rc = call_mlockall(flags);
		e = errno;
		if (rc == 0) {
			if (flags & MCL_FUTURE)
				rt_store(&rt_g.mlock_future, 1);
			unlock_mine();  /* what is left of pct: its own segments */
		}
	}
	rt_restore_signals(&old);
	errno = e;
	return rc;
}

PUBLIC int munlockall(void)
{
	int rc = real_munlockall ? real_munlockall() : (int)syscall(SYS_munlockall), e = errno;
	if (rc == 0)
		rt_store(&rt_g.mlock_future, 0);
	errno = e;
	return rc;
}
