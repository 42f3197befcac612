/*
 * threads.c - one sampling source per thread, armed for every thread
 * without the program's help.
 *
 * A source is either
 *   - a POSIX timer on the thread's CPU clock (timer_create(2) with
 *     CLOCK_THREAD_CPUTIME_ID's clock id for that tid, SIGEV_THREAD_ID), or
 *   - a perf_event_open(2) event counting that thread only (pid = tid,
 *     exclude_kernel, which perf_event_paranoid 2 allows unprivileged),
 *     whose overflow is sent as the pct signal to that thread (F_SETOWN_EX
 *     with F_OWNER_TID, F_SETSIG, O_ASYNC): the method of PAPI and of
 *     perf's own self-monitoring examples.
 * Both fire only while their thread runs, and only at that thread.
 *
 * Above the tick, a signal per sample is most of the cost: on this VM an
 * empty handler at 5 kHz costs 9-20% of the CPU, the event alone 2-9%.  So
 * a perf event records its samples (PERF_SAMPLE_IP) in a ring buffer
 * mapped from its descriptor (perf_event_open(2), "MMAP layout"), without
 * O_ASYNC, and the thread's CPU-time timer at the tick drains it: one
 * signal per 4 ms of the thread's CPU, whatever the rate.  A thread's
 * buffer is also drained when it exits and at pct_off(); a process killed
 * by SIGKILL or ending in _exit(2) loses what its buffers hold, at most one
 * tick's samples per thread.  Where the buffer cannot be mapped, each
 * sample is a signal.
 *
 * pct holds no descriptor of the program's table while it samples: a perf
 * event lives on through its mapping (the ring, or its one header page,
 * which holds the file as a descriptor would, with its O_ASYNC owner), and
 * its descriptor is closed as soon as it is mapped, so the program's
 * RLIMIT_NOFILE is all its own.  The mapping lies in an address range
 * reserved for the thread when it is armed (span), replaced with MAP_FIXED
 * as the thread's events come and go, so no mapping of pct's lands in a
 * hole the program planned for.  Without descriptors there is no ioctl:
 *   - the first period is a one-shot event of a random length (phase),
 *     whose one signal creates the thread's sampling event (in the
 *     handler) over the one-shot's page, which that frees;
 *   - a pause (sig.c: the thread blocks pct's signal, or a small alternate
 *     stack) frees a signalling event (its span made PROT_NONE again) and
 *     a resume starts a new first period: with a random phase each time,
 *     the thread's samples stay proportional to its CPU time;
 *   - a ring event is left running through a pause (it sends no signal;
 *     its drain timer is stopped), and freed once pct stops.
 * Where the mapping is refused (the user's perf_event_mlock_kb and then
 * RLIMIT_MEMLOCK, perf_event_open(2)), the descriptor is kept instead,
 * above the soft RLIMIT_NOFILE (held_take), while pct holds fewer than
 * RT_PHASE_FDS, as hardware events' one-shot descriptors are (their count
 * is the only sign that one fired); past that, or with no room above the
 * soft limit, the thread is not sampled, with one warning.
 *
 * Threads are armed
 *   - at start: the calling thread, then every other thread listed in
 *     /proc/self/task (threads a constructor started before pct's);
 *   - when created: pct's pthread_create() wraps the start routine, arms
 *     the new thread before the program's code runs, and disarms it when
 *     the routine returns or the thread calls pthread_exit() (a cleanup
 *     handler), so a program that makes a million short threads does not
 *     leak a million timers.  The wrapper is found first because libpct.so
 *     is preloaded (or linked before libc); it calls glibc's through
 *     dlsym(RTLD_NEXT).  Threads made with raw clone(2) are not armed.
 *
 * A registry of armed sources lets pct_off() stop them all, and a forked
 * child drop the parent's.  A descriptor pct keeps is used and closed only
 * if PERF_EVENT_IOC_ID still returns the id it had: a program that closed
 * every descriptor may have reused the number, and pct must never close
 * the program's file.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "runtime.h"


enum { EV_NONE, EV_MAPPED, EV_HELD };

struct arm {
	_Atomic int used;              /* 0 free, 1 being set up, 2 armed */
	uint32_t tid;
	/* the address range of the thread's perf mapping: the one-shot
	 * event's header page, then the sampling event's ring or page */
	char *span;
	size_t span_size;
	/* the sampling event: mapped at span (its descriptor closed), or held
	 * at fd where it could not be mapped */
	int ev;                        /* EV_* */
	int fd;                        /* held descriptor, or -1 */
	uint64_t perf_id;              /* PERF_EVENT_IOC_ID of fd */
	int sig_fd;                    /* the descriptor number its signals carry (si_fd), or -1 */
	_Atomic(struct perf_event_mmap_page *) ring; /* its ring buffer (at span), or NULL */
	size_t ring_size;              /* bytes mapped: a header page and the data pages */
	int timer;                     /* the sampling timer, or the ring's drain timer (a kernel id) */
	int have_timer;                /* under tlock: the program may need it back (limits.c) */
	atomic_flag tlock;
	_Atomic int draining;          /* 1 while ring is read; 2 once it is let go */
	_Atomic int let_go;            /* let go of the ring when the drain under way ends */
	atomic_flag elock;             /* held (signals blocked) while the events and range change */
	_Atomic uint32_t slot;         /* the thread's slot + 1, once known */
	_Atomic int paused;            /* the thread blocks pct's signal (sig.c) */
	int rearm;                     /* its events were freed by a pause: start anew */
	struct timespec left;          /* while paused: what was left of the timer's period */
	/* the one-shot event that ends the thread's first, random, period */
	int phase_ev;                  /* EV_* */
	int phase_fd;                  /* held descriptor (hardware events), or -1 */
	uint64_t phase_id;
	int phase_sig;                 /* the descriptor number its signal carries, or -1 */
	_Atomic int phase_spent;       /* the first period has ended */
	uint64_t phase;                /* its period: ns of CPU time, or events */
	uint64_t phase_cpu0;           /* the thread's CPU clock when it started, ns */
};

static struct arm arms[RT_ARMS_MAX];
/* One past the highest arm ever taken: the loops over the registry stop
 * there, so a process with one thread touches one page of it, not the 32
 * pages (4096 arms) that would each cost a page fault at exit. */
static _Atomic int arms_end;

/* The calling thread's arm + 1, or 0. */
static __thread int my_arm __attribute__((tls_model("initial-exec")));

/* An arm's events and range change under its elock, with every signal
 * blocked (its own thread's handler changes them too): its thread at the
 * end of the first period or at a pause, another thread when pct stops
 * or steps aside. */
static void elock_take(struct arm *a, sigset_t *old)
{
	rt_block_signals(old);
	rt_lock(&a->elock);
}

static void elock_drop(struct arm *a, const sigset_t *old)
{
	rt_unlock(&a->elock);
	rt_restore_signals(old);
}

/* async-signal-safe */
uint32_t rt_gettid(void)
{
	return (uint32_t)syscall(SYS_gettid);
}

/*
 * Each timer holds one signal of the user's RLIMIT_SIGPENDING quota from
 * its creation, which the program may need for its own timers and
 * sigqueue(3).  pct takes at most half of the quota: its own timers
 * (timers_held, counted before they exist, so that threads starting at
 * once cannot all pass the check) plus what the user had queued when
 * pct started.
 */
static _Atomic int64_t timers_held;
static _Atomic int64_t sigq_others = -1;   /* the user's queued signals at start */

static int sigq_take(uint64_t queued, uint64_t quota)
{
	int64_t others = rt_load(&sigq_others);
	if (others < 0) {
		others = (int64_t)queued - rt_load(&timers_held);
		rt_store(&sigq_others, others > 0 ? others : 0);
	}
	int64_t mine = rt_add(&timers_held, 1) + 1;
	if ((uint64_t)(mine + others) > quota / 2 || queued + 1 > quota / 2) {
		rt_sub(&timers_held, 1);
		return 0;
	}
	return 1;
}

/*
 * pct's own timers are made with the system calls, not with the C
 * library's timer_create(), which the runtime wraps to give timers back
 * (limits.c); their ids are the kernel's.  An arm's timer is used and
 * deleted under its lock: the program's thread that needs a pending
 * signal back deletes another thread's timer (rt_timers_give_back), and
 * a deleted id may be the program's next.
 */
static int ktimer_create(clockid_t clock, struct sigevent *sev, int *id)
{
	return (int)syscall(SYS_timer_create, clock, sev, id);
}

/* async-signal-safe: set arm a's timer to ts (old: what was left of it),
 * if it still has one.  0, or -1. */
static int timer_set(struct arm *a, const struct itimerspec *ts, struct itimerspec *old)
{
	sigset_t m;
	rt_block_signals(&m);
	rt_lock(&a->tlock);
	int rc = a->have_timer ? (int)syscall(SYS_timer_settime, a->timer, 0, ts, old) : -1;
	rt_unlock(&a->tlock);
	rt_restore_signals(&m);
	return rc;
}

/* async-signal-safe: delete arm a's timer, if it has one (forked: in a
 * child, which has none of the parent's timers, only forget it); 1 if it
 * had one. */
static int timer_drop(struct arm *a, int forked)
{
	sigset_t m;
	rt_block_signals(&m);
	rt_lock(&a->tlock);
	int had = a->have_timer;
	if (had && !forked)
		syscall(SYS_timer_delete, a->timer);
	a->have_timer = 0;
	rt_unlock(&a->tlock);
	rt_restore_signals(&m);
	if (had)
		rt_sub(&timers_held, 1);
	return had;
}

/* Linux's clock id for a thread's CPU clock, as pthread_getcpuclockid()
 * makes it: MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED) in the kernel's
 * include/linux/posix-timers.h. */
static clockid_t thread_clock(uint32_t tid)
{
	return (clockid_t)((~(unsigned)tid << 3) | 4 | 2);
}

/*
 * A uniformly random phase in 1..period (ns or events): the first period
 * of a thread's timer or event.  With every thread starting at a random
 * point of its period, a thread that runs t < period is sampled with
 * probability t / period, so that every thread's expected samples are its
 * CPU time / period however short it is (a thread started at phase 0
 * and ending before one period would never be sampled).  splitmix64
 * (Steele, Lea and Flood, "Fast splittable pseudorandom number
 * generators", 2014) over a counter seeded by getrandom(2); lock-free
 * and async-signal-safe.
 */
static _Atomic uint64_t phase_state;

static uint64_t random_phase(uint64_t period, uint32_t tid)
{
	uint64_t z = rt_add(&phase_state, 0x9e3779b97f4a7c15ull);
	if (z == 0) {
		uint64_t seed = 0x243f6a8885a308d3ull ^ (uint64_t)getpid();
		if (syscall(SYS_getrandom, &seed, sizeof seed, GRND_NONBLOCK) != (long)sizeof seed)
			seed ^= (uint64_t)(uintptr_t)&seed;
		uint64_t expect = 0x9e3779b97f4a7c15ull;
		rt_cas(&phase_state, &expect, seed + 0x9e3779b97f4a7c15ull);
		z = seed;
	}
	z ^= (uint64_t)tid << 32;      /* a forked child continues the parent's sequence */
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return period <= 1 ? 1 : 1 + z % period;
}

/* Thread tid's CPU time in ns, or 0; async-signal-safe. */
uint64_t rt_thread_cpu_ns(uint32_t tid)
{
	struct timespec ts;
	if (clock_gettime(thread_clock(tid), &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The attributes of method m's event with the given period; ring: record
 * each sample's IP and time in a ring buffer, with no wakeups; disabled:
 * start disabled (a one-shot event, enabled by PERF_EVENT_IOC_REFRESH). */
static int perf_open_period(const struct rt_method *m, uint32_t tid, int ring, uint64_t period, int disabled)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	static const struct pct_event_perf perf[PCT_EVENT_MAX + 1] = { PCT_EVENTS(PCT_EVENT_PERF) };
	unsigned e = m->event >= 1 && m->event <= PCT_EVENT_MAX ? (unsigned)m->event : PCT_EVENT_CPU;
	a.type = perf[e].type;
	a.config = perf[e].config;
	a.sample_period = period;
	a.exclude_kernel = 1;          /* unprivileged at perf_event_paranoid 2 */
	a.exclude_hv = 1;
	a.disabled = disabled ? 1 : 0;
	if (ring) {
		a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TIME;
		a.use_clockid = 1;     /* the time on the tick log's clock */
		a.clockid = CLOCK_MONOTONIC;
		a.watermark = 1;
		a.wakeup_watermark = UINT32_MAX;  /* nobody polls it */
	} else {
		a.wakeup_events = 1;
	}
	return (int)syscall(SYS_perf_event_open, &a, (pid_t)tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

/* Deliver fd's overflows to thread tid as pct's signal; 0 or -1. */
static int perf_signal_to(int fd, uint32_t tid, int signo)
{
	struct f_owner_ex owner = { F_OWNER_TID, (pid_t)tid };
	return fcntl(fd, F_SETOWN_EX, &owner) != 0 || fcntl(fd, F_SETSIG, signo) != 0 ||
	       fcntl(fd, F_SETFL, O_ASYNC) != 0 ? -1 : 0;
}

/* Is perf descriptor fd still the event with id (not a number the
 * program reused after closing everything)? */
static int perf_is(int fd, uint64_t want)
{
	uint64_t id = 0;
	return fd >= 0 && ioctl(fd, PERF_EVENT_IOC_ID, &id) == 0 && id == want;
}

static size_t page_size(void)
{
	static size_t page;
	if (page == 0)
		page = (size_t)sysconf(_SC_PAGESIZE);
	return page;
}

/*
 * Can method m be used here?  0, or the errno perf_event_open gave.  A
 * method with a ring buffer that cannot be mapped here (a locked-memory
 * limit) loses it: each sample is then a signal.
 */
int rt_arm_probe(struct rt_method *m)
{
	int fd = perf_open_period(m, rt_gettid(), m->ring_pages != 0, m->period, 1);
	if (fd < 0)
		return errno ? errno : EINVAL;
	if (m->ring_pages) {
		size_t size = page_size() * (1 + (size_t)m->ring_pages);
		void *r = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (r != MAP_FAILED)
			munmap(r, size);
		else
			m->ring_pages = 0;
	}
	close(fd);
	return 0;
}

/* ---- descriptors kept where a mapping was refused ---- */

static _Atomic int held_fds;  /* descriptors pct keeps open (EV_HELD, hardware one-shots) */
static _Atomic int held_warned;

/* async-signal-safe: keep descriptor fd, an event whose signals go to
 * its thread (perf_signal_to)?  Fewer than RT_PHASE_FDS are kept, each
 * moved above the soft RLIMIT_NOFILE, where no open(2) of the program
 * can reach (the kernel allocates below the soft limit only): the soft
 * limit is raised for the one fcntl(F_DUPFD), then put back unless the
 * program changed it meanwhile.  So none is kept when the soft limit is
 * the hard one, nor while another thread is in that window (a window in
 * which an open(2) of the program's could go above its limit).  Its
 * signals then carry the new number.  The kept
 * descriptor (counted in held_fds), or -1, and fd is closed either way. */
static atomic_flag nofile_raised = ATOMIC_FLAG_INIT;  /* one thread at a time in the raise */

static int held_take(int fd)
{
	struct rlimit was, up, now;
	int kept = -1, mine = 0;
	if (rt_add(&held_fds, 1) < RT_PHASE_FDS && (mine = !atomic_flag_test_and_set(&nofile_raised)) &&
	    syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, NULL, &was) == 0 && was.rlim_cur < was.rlim_max &&
	    was.rlim_cur < (rlim_t)1 << 30) {
		up = was;
		up.rlim_cur = was.rlim_max - was.rlim_cur > RT_PHASE_FDS ? was.rlim_cur + RT_PHASE_FDS : was.rlim_max;
		if (syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, &up, NULL) == 0) {
			kept = fcntl(fd, F_DUPFD_CLOEXEC, (int)was.rlim_cur);
			if (syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, NULL, &now) == 0 && now.rlim_cur == up.rlim_cur &&
			    now.rlim_max == up.rlim_max)
				syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, &was, NULL);
		}
		/* O_ASYNC set again, for the fasync entry to name the new number */
		if (kept >= 0 && (fcntl(kept, F_SETFL, 0) != 0 || fcntl(kept, F_SETFL, O_ASYNC) != 0)) {
			close(kept);
			kept = -1;
		}
		if (kept < 0)
			rt_sub(&held_fds, 1);
	} else {
		rt_sub(&held_fds, 1);
	}
	if (mine)
		atomic_flag_clear(&nofile_raised);
	close(fd);
	return kept;
}

/* async-signal-safe: close a descriptor pct keeps, if it is still its own
 * (id); disable: stop its event first (not in a forked child, whose
 * inherited descriptor names the parent's event). */
static void held_close(int *fd, uint64_t id, int disable)
{
	if (perf_is(*fd, id)) {
		if (disable)
			ioctl(*fd, PERF_EVENT_IOC_DISABLE, 0);
		close(*fd);
		rt_sub(&held_fds, 1);
	}
	*fd = -1;
}

static void no_room_warning(void)
{
	if (!rt_xchg(&held_warned, 1))
		rt_say("perf events: no locked memory (ulimit -l, perf_event_mlock_kb) for another thread's event, "
		       "and pct keeps no more descriptors", NULL, 0, "threads started from now on may not be sampled");
}

/* ---- the thread's address range ---- */

/* Reserve arm a's range: a header page and the ring's data pages. */
static int span_reserve(struct arm *a, const struct rt_method *m)
{
	a->span_size = page_size() * (1 + (size_t)m->ring_pages);
	void *p = mmap(NULL, a->span_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	a->span = p == MAP_FAILED ? NULL : p;
	if (a->span)
		rt_mapped(a->span, a->span_size);
	return a->span ? 0 : -1;
}

/* async-signal-safe: free the event mapped at arm a's range, keeping the
 * range reserved. */
static void span_clear(struct arm *a)
{
	if (a->span && mmap(a->span, a->span_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED,
			    -1, 0) == a->span)
		rt_mapped(a->span, a->span_size);
}

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000   /* Linux 4.17, asm-generic/mman-common.h */
#endif

/* async-signal-safe: map event fd at arm a's range (bytes from its start;
 * prot); 0, or -1 if the mapping is refused.  Linux unmaps the range
 * before it asks the event, and leaves a hole when the event refuses (its
 * locked-memory charge; so on 6.18 too, measured: a MAP_FIXED_NOREPLACE
 * refill then succeeds): the hole is filled again at once, without
 * replacing anything; a range that another mapping took meanwhile is
 * forgotten, never to be touched again. */
static int span_map(struct arm *a, int fd, size_t bytes, int prot)
{
	if (a->span == NULL)
		return -1;
	if (mmap(a->span, bytes, prot, MAP_SHARED | MAP_FIXED, fd, 0) == a->span)
		return 0;
	void *p = mmap(a->span, a->span_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE,
		       -1, 0);
	if (p != a->span) {
		/* taken meanwhile: the program's now, never touched again */
		if (p != MAP_FAILED)
			munmap(p, a->span_size);  /* a kernel before 4.17 took it as a hint */
		a->span = NULL;
	}
	return -1;
}

/* ---- the events ---- */

/*
 * async-signal-safe: start arm a's sampling event now, for its thread,
 * which must be the caller unless at arming: a ring event mapped at its
 * range (ring mode), else a signalling one with its header page mapped
 * there; its descriptor closed, or kept (held_take) where the mapping is
 * refused.  0, or -1 if the thread goes unsampled.
 */
static int main_start(struct arm *a, const struct rt_method *m)
{
	size_t page = page_size();
	if (m->ring_pages && a->ring_size == 0) {
		int fd = perf_open_period(m, a->tid, 1, m->period, 0);
		if (fd >= 0 && span_map(a, fd, page * (1 + (size_t)m->ring_pages), PROT_READ | PROT_WRITE) == 0) {
			close(fd);
			a->ring_size = page * (1 + (size_t)m->ring_pages);
			a->ev = EV_MAPPED;
			rt_store_release(&a->ring, (struct perf_event_mmap_page *)a->span);
			return 0;
		}
		if (fd >= 0)
			close(fd);
		/* no room for its ring: a signal per sample, as below */
	}
	int fd = perf_open_period(m, a->tid, 0, m->period, 1);
	if (fd < 0)
		return -1;
	if (perf_signal_to(fd, a->tid, m->signo) != 0 || ioctl(fd, PERF_EVENT_IOC_ID, &a->perf_id) != 0) {
		close(fd);
		return -1;
	}
	a->sig_fd = fd;
	/* enabled once mapped or kept: a signal before that would name a
	 * descriptor the arm does not know yet */
	if (span_map(a, fd, page, PROT_READ) == 0) {
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		close(fd);
		a->ev = EV_MAPPED;
		return 0;
	}
	if ((fd = held_take(fd)) >= 0) {
		a->fd = a->sig_fd = fd;
		a->ev = EV_HELD;
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		return 0;
	}
	no_room_warning();
	return -1;
}

/*
 * async-signal-safe: begin arm a's first period: a one-shot event of
 * phase (ns of its thread's CPU time, or events), whose one signal
 * (POLL_HUP: PERF_EVENT_IOC_REFRESH 1 lets one overflow through, then the
 * kernel disables it) is the thread's first sample and starts its
 * sampling event (rt_arm_overflow_mine).  Its header page is mapped at the
 * range and its descriptor closed; a hardware event's is kept, its count
 * being the only sign that it fired.  0, or -1 if there is none.
 */
static int phase_begin(struct arm *a, const struct rt_method *m, uint64_t phase)
{
	a->phase_ev = EV_NONE;
	a->phase_fd = -1;
	a->phase = phase;
	a->phase_cpu0 = rt_thread_cpu_ns(a->tid);
	rt_store(&a->phase_spent, 0);
	int fd = perf_open_period(m, a->tid, 0, phase, 1);
	if (fd < 0)
		return -1;
	int hw = m->event != PCT_EVENT_CPU && m->event != PCT_EVENT_USER && m->event != PCT_EVENT_WALL;
	if (perf_signal_to(fd, a->tid, m->signo) != 0 || ioctl(fd, PERF_EVENT_IOC_ID, &a->phase_id) != 0) {
		close(fd);
		return -1;
	}
	a->phase_sig = fd;
	int mapped = !hw && span_map(a, fd, page_size(), PROT_READ) == 0;
	if (mapped) {
		a->phase_ev = EV_MAPPED;
	} else if ((fd = held_take(fd)) >= 0) {
		a->phase_ev = EV_HELD;
		a->phase_fd = a->phase_sig = fd;
	} else {
		return -1;
	}
	/* (a phase of a few ns may end at once: the handler, on this
	 * thread, then starts the sampling event before the ioctl returns,
	 * so what follows goes by what was done here, not by the arm) */
	if (ioctl(fd, PERF_EVENT_IOC_REFRESH, 1) != 0) {
		if (!mapped)
			held_close(&a->phase_fd, a->phase_id, 0);
		else
			close(fd);
		span_clear(a);
		a->phase_ev = EV_NONE;
		return -1;
	}
	if (mapped)
		close(fd);
	return 0;
}

/* async-signal-safe: the thread's first period begins anew, or, without
 * a one-shot event, its sampling event starts now. */
static void events_begin(struct arm *a, const struct rt_method *m)
{
	a->rearm = 0;
	if (phase_begin(a, m, random_phase(m->period, a->tid)) != 0)
		main_start(a, m);
}

/* Did arm a's one-shot event fire, or should it have (its signal may
 * have been lost: a legacy signal does not queue behind one already
 * pending, the program's own or pct's timer's)?  A hardware event's count
 * reaches its period when it fires; a task-clock one fires once the
 * thread has run that long (RT_PHASE_SLACK_NS allows for the hrtimer's
 * slack). */
static int phase_fired(const struct arm *a)
{
	uint64_t count = 0;
	if (a->phase_ev == EV_HELD)
		return !perf_is(a->phase_fd, a->phase_id) ||
		       (read(a->phase_fd, &count, sizeof count) == (ssize_t)sizeof count && count >= a->phase);
	uint64_t now = rt_thread_cpu_ns(a->tid);
	return now != 0 && now - a->phase_cpu0 >= a->phase + RT_PHASE_SLACK_NS;
}

/* async-signal-safe, in arm a's thread: its first period has ended (once:
 * phase_spent is taken by the caller).  Its sampling event starts, over
 * the one-shot's page, which that frees; paused, it waits for the resume. */
static void phase_end(struct arm *a)
{
	if (a->phase_ev == EV_HELD)
		held_close(&a->phase_fd, a->phase_id, 1);
	a->phase_ev = EV_NONE;
	if (!rt_load_acquire(&rt_g.sampling)) {
		span_clear(a);  /* pct stopped: no event from now */
		return;
	}
	if (rt_load(&a->paused)) {
		span_clear(a);
		a->rearm = 1;
		return;
	}
	if (main_start(a, &rt_g.method) != 0)
		span_clear(a);
}

/* async-signal-safe: free arm a's signalling events (a pause, or pct
 * stops): its range is made PROT_NONE again, and held descriptors are
 * disabled.  Its ring, which sends no signal, stays. */
static void events_quiet(struct arm *a)
{
	if (a->ev == EV_HELD && perf_is(a->fd, a->perf_id))
		ioctl(a->fd, PERF_EVENT_IOC_DISABLE, 0);
	if (a->phase_ev == EV_HELD && perf_is(a->phase_fd, a->phase_id))
		ioctl(a->phase_fd, PERF_EVENT_IOC_DISABLE, 0);
	if ((a->ev == EV_MAPPED && rt_load(&a->ring) == NULL) || a->phase_ev == EV_MAPPED) {
		span_clear(a);
		if (a->ev == EV_MAPPED)
			a->ev = EV_NONE;
		a->phase_ev = EV_NONE;
		a->rearm = 1;
	}
}

/* async-signal-safe: let go of arm a's ring (pct stopped); a drain that
 * holds it lets go of it as it ends (ring_release). */
static void ring_let_go(struct arm *a)
{
	int expect = 0;
	if (rt_load(&a->ring) == NULL)
		return;
	rt_store(&a->let_go, 1);
	if (rt_cas(&a->draining, &expect, 2)) {
		rt_store(&a->ring, NULL);
		span_clear(a);
		a->ev = EV_NONE;
	}
}

/* Wait until no drain holds arm a's ring, and keep any from holding it
 * again: before its range is unmapped (a drain of another thread, pct_off's,
 * may be reading it).  Not in a handler. */
static void ring_claim_gone(struct arm *a)
{
	for (;;) {
		int expect = 0;
		if (rt_cas(&a->draining, &expect, 2) || expect == 2)
			return;
		sched_yield();
	}
}

static int arm_take(void)
{
	for (int i = 0; i < RT_ARMS_MAX; i++) {
		int expect = 0;
		if (rt_load_relaxed(&arms[i].used) == 0 && rt_cas(&arms[i].used, &expect, 1)) {
			int end = rt_load(&arms_end);
			while (end < i + 1 && !rt_cas(&arms_end, &end, i + 1))
				;
			return i;
		}
	}
	return -1;
}

/* Stop and free arm i: its timer, the descriptors pct keeps (only if
 * still its own; forked: in a child, whose inherited descriptors name the
 * parent's events, which must go on, closed without disabling them), and
 * its range, which frees its events. */
static void arm_release(int i, int forked)
{
	struct arm *a = &arms[i];
	if (a->ev == EV_HELD)
		held_close(&a->fd, a->perf_id, !forked);
	if (a->phase_ev == EV_HELD)
		held_close(&a->phase_fd, a->phase_id, !forked);
	a->ev = a->phase_ev = EV_NONE;
	timer_drop(a, forked);
	sigset_t old;
	elock_take(a, &old);
	if (!forked)
		ring_claim_gone(a);  /* (a forked child has no ring: not copied) */
	rt_store(&a->ring, NULL);
	if (a->span)
		munmap(a->span, a->span_size);
	a->span = NULL;
	a->ring_size = 0;
	a->sig_fd = a->phase_sig = -1;
	elock_drop(a, &old);
	rt_store(&a->slot, 0);
	rt_store(&a->used, 0);
}

/*
 * async-signal-safe: read the samples in arm a's ring buffer into the
 * count table, for thread slot (+ 1), and free their space.  Returns how
 * many, or -1 if another thread is reading it.  Layout and ordering:
 * perf_event_open(2), "MMAP layout": data_head is read with acquire
 * semantics, data_tail written with release.
 */
static void span_clear(struct arm *a);

/* async-signal-safe: the drain that held arm a's ring ends: the ring is
 * free again, or let go of if that was asked meanwhile (ring_let_go). */
static void ring_release(struct arm *a)
{
	if (rt_load(&a->let_go)) {
		rt_store(&a->ring, NULL);
		span_clear(a);
		a->ev = EV_NONE;
		rt_store(&a->draining, 2);
	} else {
		rt_store(&a->draining, 0);
	}
}

static int ring_drain(struct arm *a, uint32_t slot)
{
	int expect = 0, n = 0;
	sigset_t old;
	/* a program's handler that siglongjmps out of this one would leave
	 * draining set, and the ring would never be read again */
	rt_block_signals(&old);
	if (!rt_cas(&a->draining, &expect, 1)) {
		rt_restore_signals(&old);
		return -1;
	}
	/* the ring is read only once it is held: a thread that frees it
	 * waits for the hold to end (ring_claim_gone) */
	struct perf_event_mmap_page *r = rt_load_acquire(&a->ring);
	if (r == NULL) {
		ring_release(a);
		rt_restore_signals(&old);
		return -1;
	}
	const unsigned char *data = (const unsigned char *)r + r->data_offset;
	uint64_t size = r->data_size, mask = size - 1;
	uint64_t head = rt_load_acquire(rt_shared(&r->data_head)), tail = r->data_tail;
	while (tail < head) {
		uint64_t w[3] = { 0, 0, 0 };  /* a record's first three words, across the wrap */
		for (int k = 0; k < 3; k++)
			memcpy(&w[k], data + ((tail + 8 * (uint64_t)k) & mask), 8);
		struct perf_event_header h;
		memcpy(&h, &w[0], sizeof h);
		if (h.size < sizeof h || h.size > size || h.size % 8) {
			tail = head;  /* not a record: skip what is there */
			break;
		}
		if (h.type == PERF_RECORD_SAMPLE && h.size >= 16) {
			/* IP, then TIME (records of a kernel without
			 * use_clockid's time are 16 bytes: now) */
			rt_sample_at((uintptr_t)w[1], slot, 1, h.size >= 24 ? w[2] : rt_monotonic_ns());
			n++;
		} else if (h.type == PERF_RECORD_LOST && h.size >= 24) {
			rt_sample_lost(w[2]);
		}
		tail += h.size;
	}
	rt_store_release(rt_shared(&r->data_tail), tail);
	ring_release(a);
	rt_restore_signals(&old);
	return n;
}

/* async-signal-safe: drain the calling thread's ring buffer, charging its
 * samples to thread slot (+ 1).  Returns how many, or -1 if it has none. */
int rt_arm_drain_mine(uint32_t slot)
{
	int i = my_arm - 1;
	if (i < 0 || rt_load(&arms[i].used) != 2 || rt_load(&arms[i].ring) == NULL)
		return -1;
	rt_store(&arms[i].slot, slot);
	return ring_drain(&arms[i], slot);
}

/* Drain arm a's ring buffer outside the handler (a thread's end,
 * pct_off), creating the file first if samples wait there and there is
 * none yet.  name: the thread's, for a slot it did not have (NULL: the
 * caller's own). */
static void drain_outside(struct arm *a, const char *name)
{
	if (rt_load_acquire(&a->ring) == NULL || !rt_write_begin_any())
		return;
	/* the file and the thread's slot first, then the drain, which
	 * holds the ring before it reads it; a ring found empty there costs
	 * a file that a thread whose samples wait in it would make anyway */
	if (rt_load_acquire(&rt_g.table_ready) || rt_output_create() == 0) {
		uint32_t slot = rt_load(&a->slot);
		if (slot == 0 && (slot = rt_thread_find(a->tid)) == 0)
			slot = rt_thread_slot(a->tid, name);
		ring_drain(a, slot);
	}
	rt_write_end();
}

/* Drain every armed thread's ring buffer (at pct_off, after disarming),
 * then let go of the rings. */
void rt_arms_drain_all(void)
{
	for (int i = 0, end = rt_load(&arms_end); i < end; i++)
		if (rt_load(&arms[i].used) == 2) {
			sigset_t old;
			drain_outside(&arms[i], "?");
			elock_take(&arms[i], &old);
			ring_let_go(&arms[i]);
			elock_drop(&arms[i], &old);
		}
}

/*
 * Start sampling thread tid with the run's method; own: tid is the
 * caller, whose arm is remembered for its exit.  0, or -1 after a warning
 * (only for the first thread: later failures leave that thread unsampled).
 */
int rt_arm_thread(uint32_t tid, int own)
{
	const struct rt_method *m = &rt_g.method;
	int i = arm_take();
	if (i < 0)
		return -1;
	struct arm *a = &arms[i];
	a->tid = tid;
	a->fd = a->phase_fd = a->sig_fd = a->phase_sig = -1;
	a->ev = a->phase_ev = EV_NONE;
	a->ring_size = 0;
	rt_store(&a->ring, NULL);
	rt_store(&a->draining, 0);
	rt_store(&a->let_go, 0);
	a->have_timer = 0;
	a->rearm = 0;
	rt_store(&a->paused, 0);
	a->left.tv_sec = 0;
	a->left.tv_nsec = 0;
	rt_store(&a->phase_spent, 0);
	int main_thread = own && tid == (uint32_t)getpid();
	uint64_t phase = random_phase(m->period, tid);
	if (m->mechanism == PCT_MECH_PERF && span_reserve(a, m) != 0) {
		rt_store(&a->used, 0);
		if (main_thread && my_arm == 0)
			rt_warn("cannot reserve address space for a perf event", NULL, errno);
		return -1;
	}
	if (m->mechanism != PCT_MECH_PERF || m->ring_pages) {
		/* the sampling timer, or the one that drains the ring buffer
		 * once per tick of the thread's CPU time */
		uint64_t period = m->ring_pages ? 1000000000u / RT_DEFAULT_HZ : m->period;
		struct sigevent sev;
		struct itimerspec ts;
		memset(&sev, 0, sizeof sev);
		sev.sigev_notify = SIGEV_THREAD_ID;
		sev.sigev_signo = m->signo;
		sev.sigev_value.sival_ptr = RT_SIG_COOKIE;
#ifdef sigev_notify_thread_id
		sev.sigev_notify_thread_id = (pid_t)tid;   /* musl, glibc 2.35 and later */
#else
		sev._sigev_un._tid = (pid_t)tid;
#endif
		ts.it_interval.tv_sec = (time_t)(period / 1000000000u);
		ts.it_interval.tv_nsec = (long)(period % 1000000000u);
		ts.it_value = ts.it_interval;
		if (m->mechanism != PCT_MECH_PERF) {
			/* the sampling timer's first expiry: the random phase */
			ts.it_value.tv_sec = (time_t)(phase / 1000000000u);
			ts.it_value.tv_nsec = (long)(phase % 1000000000u);
		}
		const char *what = NULL;
		uint64_t queued, quota;
		if (rt_status_field("SigQ", &queued, &quota) != 0 || quota == 0)
			rt_add(&timers_held, 1);  /* no /proc: counted, not checked */
		else if (!sigq_take(queued, quota)) {
			/* each timer holds one of the user's RLIMIT_SIGPENDING
			 * signals: leave the program at least half */
			arm_release(i, 0);
			if (!rt_xchg(&rt_g.sigq_warned, 1))
				rt_say("the pending-signal limit (ulimit -i) is half used", NULL, 0,
				       main_thread ? "the program runs on without profiling" :
						     "threads started from now on are not profiled");
			return -1;
		}
		if (ktimer_create(thread_clock(tid), &sev, &a->timer) != 0) {
			what = "cannot create a CPU-time timer";
			rt_sub(&timers_held, 1);
		} else {
			a->have_timer = 1;
			/* the first expiry is the random phase (a sampling
			 * timer's), checked at the tick after it */
			if (timer_set(a, &ts, NULL) != 0)
				what = "cannot arm the CPU-time timer";
		}
		if (what) {
			int err = errno;
			arm_release(i, 0);
			if (main_thread)
				rt_warn(what, NULL, err);
			return -1;
		}
	}
	/* published before the one-shot event is enabled: its signal, which
	 * may come at once, finds the arm */
	rt_store(&a->used, 2);
	if (own)
		my_arm = i + 1;
	if (m->mechanism == PCT_MECH_PERF) {
		/* The first period is the random phase: a one-shot event of that
		 * period, whose one signal starts the sampling event
		 * (rt_arm_overflow_mine).  Without it the thread starts at
		 * phase 0. */
		if (phase_begin(a, m, phase) != 0 && main_start(a, m) != 0) {
			int err = errno;
			if (own)
				my_arm = 0;
			arm_release(i, 0);
			if (main_thread)
				rt_warn("cannot open a perf event for the main thread", NULL, err);
			return -1;
		}
	}
	return 0;
}

/*
 * Call fn(tid, name, arg) for each entry of the /proc/self/task directory
 * open at dirfd (name: the entry, the tid in decimal), from the start,
 * until fn returns nonzero.  getdents64 into a stack buffer: no malloc
 * (opendir's 32 KiB buffer was a tenth of pct's start-up cost), and safe
 * in pct's own threads.
 */
void rt_for_each_task(int dirfd, int (*fn)(uint32_t tid, const char *name, void *arg), void *arg)
{
	char dents[2048];
	long got;
	lseek(dirfd, 0, SEEK_SET);
	while ((got = syscall(SYS_getdents64, dirfd, dents, sizeof dents)) > 0)
		for (long off = 0; off < got;) {
			struct { uint64_t ino; int64_t off; unsigned short reclen; unsigned char type; char name[]; }
				*d = (void *)(dents + off);
			off += d->reclen;
			uint32_t tid = 0;
			for (const char *c = d->name; *c >= '0' && *c <= '9'; c++)
				tid = tid * 10 + (uint32_t)(*c - '0');
			if (tid && fn(tid, d->name, arg))
				return;
		}
}

/* Does thread tid block signal sig?  Its SigBlk line in
 * /proc/self/task/TID/status, a mask in hex (proc(5)). */
static int task_blocks(const char *tid, int sig)
{
	char path[64], buf[2048];
	snprintf(path, sizeof path, "/proc/self/task/%s/status", tid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t got = read(fd, buf, sizeof buf - 1);
	close(fd);
	buf[got > 0 ? got : 0] = '\0';
	const char *p = strstr(buf, "\nSigBlk:");
	if (p == NULL)
		return 0;
	unsigned long long mask = strtoull(p + 9, NULL, 16);
	return sig >= 1 && sig <= 64 && ((mask >> (sig - 1)) & 1);
}

/* A thread that blocks pct's signal is left unarmed, as if paused
 * (sig.c): it may be waiting for signals with sigwait(3). */
static int arm_other(uint32_t tid, const char *name, void *arg)
{
	int *n = arg;
	if (tid != rt_gettid() && tid != (uint32_t)rt_load(&rt_g.wall_tid) && !task_blocks(name, rt_g.method.signo) &&
	    rt_arm_thread(tid, 0) == 0)
		(*n)++;
	return 0;
}

/* Arm every thread of the process but the caller (threads that existed
 * before pct started).  Returns how many were armed. */
int rt_arm_existing_threads(void)
{
	int n = 0, dirfd = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return 0;
	rt_for_each_task(dirfd, arm_other, &n);
	close(dirfd);
	return n;
}

/* async-signal-safe: stop arm a's timer and signalling events, keeping
 * the arm (its late signals are still known as pct's). */
static void arm_stop(struct arm *a)
{
	struct itimerspec off;
	sigset_t old;
	memset(&off, 0, sizeof off);
	elock_take(a, &old);
	rt_store(&a->paused, 1);
	events_quiet(a);
	elock_drop(a, &old);
	timer_set(a, &off, NULL);
}

/* async-signal-safe: stop every source (pct_off, or a failed file);
 * rings: also let go of the ring buffers, whose samples are then lost
 * (not at pct_off, which drains them first). */
void rt_disarm_all(int rings)
{
	for (int i = 0, end = rt_load(&arms_end); i < end; i++)
		if (rt_load(&arms[i].used) == 2) {
			arm_stop(&arms[i]);
			if (rings) {
				sigset_t old;
				elock_take(&arms[i], &old);
				ring_let_go(&arms[i]);
				elock_drop(&arms[i], &old);
			}
		}
}

/* async-signal-safe: is fd a perf event pct armed?  The number its
 * signals carry (si_fd), which stays known while the arm lives even once
 * the descriptor is closed or the event freed, so that a late signal is
 * never taken for the program's. */
int rt_arm_owns_fd(int fd)
{
	for (int i = 0, end = rt_load(&arms_end); i < end; i++)
		/* also while being set up (used 1): an event may fire before
		 * its arm is published, and a free arm holds no descriptor */
		if (rt_load(&arms[i].used) != 0 && fd >= 0 && (arms[i].sig_fd == fd || arms[i].phase_sig == fd))
			return 1;
	return 0;
}

/* The calling thread's arm, or NULL; async-signal-safe.  setup: also
 * one still being set up. */
static struct arm *arm_mine(int setup)
{
	uint32_t tid = rt_gettid();
	int lo = setup ? 1 : 2;
	struct arm *a = NULL;
	if (my_arm > 0)
		a = &arms[my_arm - 1];
	for (int i = 0, end = rt_load(&arms_end); a == NULL && i < end; i++)
		if (rt_load(&arms[i].used) >= lo && arms[i].tid == tid)
			a = &arms[i];
	return a && rt_load(&a->used) >= lo && a->tid == tid ? a : NULL;
}

/*
 * async-signal-safe: a CPU timer's signal arrived in the calling thread,
 * which may still wait for its one-shot event: a ring buffer's drain timer
 * looks whether the one-shot event fired with its signal lost (a legacy
 * signal is dropped when one of pct's is already pending, such as this
 * timer's), and then starts the thread's event.
 */
void rt_arm_timer_mine(void)
{
	struct arm *a = arm_mine(0);
	if (a == NULL || a->phase_ev == EV_NONE || rt_load(&a->phase_spent))
		return;
	if (phase_fired(a) && !rt_xchg(&a->phase_spent, 1)) {
		sigset_t old;
		elock_take(a, &old);
		if (a->phase_ev != EV_NONE)
			phase_end(a);
		elock_drop(a, &old);
	}
}

/*
 * async-signal-safe: a perf overflow signal for descriptor number fd
 * arrived in the calling thread.  If it is the one-shot event's (POLL_HUP),
 * the thread's random first period has ended: its sampling event starts
 * now (the handler runs microseconds after the overflow).  Returns 1 if
 * the signal is a sample, 0 if it is a second one of a spent one-shot
 * event.
 */
int rt_arm_overflow_mine(int fd)
{
	struct arm *a = arm_mine(1);
	if (a == NULL || fd != a->phase_sig)
		return 1;
	if (rt_xchg(&a->phase_spent, 1))
		return 0;  /* found fired already (its signal late, not lost) */
	sigset_t old;
	elock_take(a, &old);
	if (a->phase_ev != EV_NONE)
		phase_end(a);
	elock_drop(a, &old);
	return 1;
}

/*
 * async-signal-safe: stop (pause) or restart the calling thread's
 * sampling, for a thread that blocks pct's signal or has a small
 * alternate stack (sig.c).  1 if that changed its state, 0 if not, -1 if
 * the thread is not armed.  A signalling perf event is freed by a pause
 * and started anew, with a new random first period, by the resume.
 */
int rt_arm_pause_mine(int pause)
{
	struct arm *a = arm_mine(0);
	if (a == NULL)
		return -1;
	if (!pause && !rt_load_acquire(&rt_g.sampling))
		return 0;
	int was = rt_load(&a->paused);
	/* no change, no call: a resume of a thread that was not paused
	 * (every thread, as it starts) would reset the timer's first,
	 * random, expiry to a whole period, and a process shorter than a
	 * period would then never be sampled (500 awk processes of 3 ms
	 * took 1 sample) */
	if (pause == was)
		return 0;
	uint64_t period = rt_g.method.ring_pages ? 1000000000u / RT_DEFAULT_HZ : rt_g.method.period;
	struct itimerspec ts, was_ts;
	memset(&ts, 0, sizeof ts);
	if (!pause) {
		/* the rest of the period the thread had run into when it paused,
		 * so that a thread that blocks the signal often is still sampled
		 * in proportion to its CPU time */
		ts.it_interval.tv_sec = (time_t)(period / 1000000000u);
		ts.it_interval.tv_nsec = (long)(period % 1000000000u);
		ts.it_value = a->left.tv_sec || a->left.tv_nsec ? a->left : ts.it_interval;
	}
	if (timer_set(a, &ts, &was_ts) == 0 && pause)
		a->left = was_ts.it_value;
	rt_store(&a->paused, pause);
	if (rt_g.method.mechanism != PCT_MECH_PERF)
		return 1;
	sigset_t old;
	elock_take(a, &old);
	if (pause) {
		events_quiet(a);
		elock_drop(a, &old);
		return 1;
	}
	/* resumed: a one-shot event kept (hardware) that fired meanwhile, its
	 * signal lost, ends the first period now; else the events resume or
	 * start anew */
	if (a->phase_ev == EV_HELD && !rt_load(&a->phase_spent) && phase_fired(a) && !rt_xchg(&a->phase_spent, 1)) {
		phase_end(a);
	} else if (a->phase_ev == EV_HELD && perf_is(a->phase_fd, a->phase_id)) {
		ioctl(a->phase_fd, PERF_EVENT_IOC_ENABLE, 0);
	} else if (a->ev == EV_HELD && perf_is(a->fd, a->perf_id)) {
		ioctl(a->fd, PERF_EVENT_IOC_ENABLE, 0);
	} else if (a->rearm && a->ev == EV_NONE) {
		events_begin(a, &rt_g.method);
	}
	elock_drop(a, &old);
	return 1;
}

/*
 * Give back up to n of pct's CPU-time timers, the latest threads' first:
 * each holds one of the user's RLIMIT_SIGPENDING signals, and the program
 * needs them (limits.c).  Those threads are sampled no more (one warning).
 * Returns how many were given back.
 */
static _Atomic int gave_back_warned;
int rt_timers_give_back(int n)
{
	int k = 0;
	for (int i = rt_load(&arms_end) - 1; i >= 0 && k < n; i--)
		if (rt_load(&arms[i].used) == 2 && timer_drop(&arms[i], 0))
			k++;
	if (k && !rt_xchg(&gave_back_warned, 1))
		rt_say("the program needs the pending signals (ulimit -i) that pct's CPU-time timers hold", NULL, 0,
		       "pct gives them back, and the threads whose timers they were are sampled no more");
	return k;
}

int rt_timers_held(void)
{
	return (int)rt_load(&timers_held);
}

/* Unlock every thread's reserved range (the program's mlockall locked it:
 * memlock.c); their perf mappings are never locked (VM_DONTEXPAND). */
void rt_arms_munlock(void)
{
	for (int i = 0, end = rt_load(&arms_end); i < end; i++)
		if (rt_load(&arms[i].used) != 0 && arms[i].span)
			munlock(arms[i].span, arms[i].span_size);
}

/* pct steps aside (memlock.c), sampling stopped: every thread's range and
 * the events in it are let go; the arms stay, so that late signals are
 * still known as pct's. */
void rt_arms_release_ranges(void)
{
	for (int i = 0, end = rt_load(&arms_end); i < end; i++)
		if (rt_load(&arms[i].used) == 2 && arms[i].span) {
			sigset_t old;
			elock_take(&arms[i], &old);
			ring_claim_gone(&arms[i]);
			rt_store(&arms[i].ring, NULL);
			munmap(arms[i].span, arms[i].span_size);
			arms[i].span = NULL;
			arms[i].ev = arms[i].phase_ev = EV_NONE;
			elock_drop(&arms[i], &old);
		}
}

/* In a forked child: the parent's timers are gone, its perf events are
 * the parent's (inherited descriptors are closed, the ring mappings were
 * not copied, VM_DONTCOPY), and the ranges reserved for them are let go. */
void rt_arms_forget_after_fork(void)
{
	for (int i = 0, end = rt_load(&arms_end); i < end; i++)
		if (rt_load(&arms[i].used) == 2)
			arm_release(i, 1);
	rt_store(&timers_held, 0);
	rt_store(&sigq_others, -1);
	rt_store(&held_fds, 0);
	my_arm = 0;
}

/* ---- pthread_create() ---- */

typedef int create_fn(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

/* The C library's pthread_create: the next definition after pct's, or in
 * libpct.a, which has no wrapper (a static program could not reach the
 * C library's past it), the function itself. */
#ifndef RT_NO_INTERPOSE
static create_fn *real_create(void)
{
	static create_fn *real;
	if (real == NULL)
		real = (create_fn *)dlsym(RTLD_NEXT, "pthread_create");
	return real;
}
#else
static create_fn *real_create(void)
{
	return pthread_create;
}
#endif

/* glibc's pthread_create, for pct's own thread, which is not armed. */
int rt_thread_spawn(void *thread, const void *attr, void *(*fn)(void *), void *arg)
{
	create_fn *real = real_create();
	return real ? real(thread, attr, fn, arg) : EAGAIN;
}

#ifndef RT_NO_INTERPOSE
/* ---- pthread_create() ---- */

/* What a new thread needs from its creator, in a fixed pool rather than
 * from malloc: the new thread releases its entry before the program's code
 * runs, and a malloc'd one would be freed there, before a sanitizer's
 * runtime (TSan) has set the thread up, which crashes in its free(). */
struct start {
	_Atomic int used;
	void *(*fn)(void *);
	void *arg;
	int vblocked;  /* the creator blocks pct's signal (sig.c): so does the thread */
};

static struct start starts[RT_ARMS_MAX];
static _Atomic unsigned starts_next;

/* A free entry of the pool, or NULL if every one waits for its thread. */
static struct start *start_take(void)
{
	unsigned first = rt_add(&starts_next, 1);
	for (unsigned k = 0; k < RT_ARMS_MAX; k++) {
		struct start *st = &starts[(first + k) % RT_ARMS_MAX];
		int expect = 0;
		if (rt_load_relaxed(&st->used) == 0 && rt_cas(&st->used, &expect, 1))
			return st;
	}
	return NULL;
}

static void thread_done(void *unused)
{
	(void)unused;
	int i = my_arm - 1;
	my_arm = 0;  /* from here the handler leaves the ring to this code */
	if (i >= 0 && rt_load(&arms[i].used) == 2 && arms[i].tid == rt_gettid()) {
		sigset_t old;
		rt_block_signals(&old);
		drain_outside(&arms[i], NULL);
		/* the name it had at its end: it may have set it after its
		 * first sample named its slot */
		if (rt_load_acquire(&rt_g.table_ready) && rt_write_begin_any()) {
			rt_thread_name_mine(rt_thread_find(arms[i].tid));
			rt_write_end();
		}
		/* stopped, and its signals already sent taken back while the
		 * arm still owns their descriptors: once freed, a late one
		 * would be the program's own, and kill by default */
		arm_stop(&arms[i]);
		rt_sig_take_back();
		arm_release(i, 0);
		rt_restore_signals(&old);
	}
}

static void *thread_start(void *p)
{
	struct start *sp = p, st = { .fn = sp->fn, .arg = sp->arg, .vblocked = sp->vblocked };
	void *ret;

	rt_store(&sp->used, 0);
	rt_add(&rt_g.threads_started, 1);
	rt_sig_vinherit(st.vblocked);
	if (rt_load_acquire(&rt_g.sampling) && rt_g.led.pid == rt_getpid() &&
	    !rt_seccomp_changed()) {
		if (rt_g.stack_bytes)
			rt_thread_stack_known();
		rt_arm_thread(rt_gettid(), 1);
		rt_sig_mask_changed();  /* born blocking pct's signal: paused */
	}
	pthread_cleanup_push(thread_done, NULL);
	ret = st.fn(st.arg);
	pthread_cleanup_pop(1);
	return ret;
}

/*
 * pthread_create(3), with the new thread armed for sampling while pct is
 * on; otherwise exactly glibc's.  If the pool of starts is empty (4096
 * threads created and not yet running), the thread is created unarmed.
 * Not in libpct.a: a static program's threads are armed only if they
 * existed when sampling started.
 */
PUBLIC int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	create_fn *real = real_create();
	if (real == NULL)
		return EAGAIN;
	int vblocked = rt_sig_vblocked();
	if ((rt_load(&rt_g.state) != RT_ON || rt_g.led.pid != rt_getpid()) && !vblocked)
		return real(thread, attr, fn, arg);
	struct start *st = start_take();
	if (st == NULL)
		return real(thread, attr, fn, arg);
	st->fn = fn;
	st->arg = arg;
	st->vblocked = vblocked;
	int rc = real(thread, attr, thread_start, st);
	/* short of RLIMIT_NPROC, which pct's wall samplers count against:
	 * they make way, and the call is made again for up to 100 ms */
	if (rc == EAGAIN && rt_wall_give_way())
		for (int i = 0; i < 100 && rc == EAGAIN; i++) {
			struct timespec ms = { 0, 1000000 };
			nanosleep(&ms, NULL);
			rc = real(thread, attr, thread_start, st);
		}
	if (rc != 0)
		rt_store(&st->used, 0);
	return rc;
}
#endif
