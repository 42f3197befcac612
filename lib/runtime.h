/*
 * runtime.h - shared state and internal functions of libpct.
 *
 * Everything here is hidden (the library is built with
 * -fvisibility=hidden); only the functions in include/pct.h are exported,
 * so nothing of the runtime leaks into the host program's namespace.
 *
 * Dialect: functions marked async-signal-safe may run inside pct's signal
 * handler (sample.c).  pct's signal is SIGSTKFLT, or the real-time signal
 * named in $PCT_SIGNAL (sig.c), sent to each thread alone by its own
 * sampling source (threads.c): a POSIX timer on the thread's CPU clock or
 * a perf_event_open(2) event; a program's SIGPROF and ITIMER_PROF are left
 * alone.  Such functions take no locks that the interrupted code could
 * hold, call no malloc and no stdio, and make only system calls that take
 * no user-space lock (open, read, write, close, clock_gettime, madvise,
 * process_vm_readv, ...), plus the atomics below.
 */
#ifndef PCT_RUNTIME_H
#define PCT_RUNTIME_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "pct.h"
#include "pct_format.h"

/* Defaults, documented in pct.h and libpct(3). */
/* a symbol the program sees: pct's API and its wrappers of libc */
#define PUBLIC __attribute__((visibility("default")))

/* bytes of stack pct's handler may use below its own frame: the deepest
 * measured was 2.3 KiB (a first sample, which creates the file; 5.2 KiB
 * with the kernel's 3 KiB signal frame, tests/e2e/70-host-altstack.sh),
 * doubled and rounded */
#define RT_HANDLER_STACK 4096
#define MINSIGSTKSZ_LEGACY 2048        /* <signal.h> before glibc 2.34, where AT_MINSIGSTKSZ is missing */

#define RT_DEFAULT_HZ 250             /* cpu event: one CPU-timer period per tick at CONFIG_HZ=250 */
#define RT_TIMER_MAX_HZ PCT_TIMER_MAX_HZ          /* an explicit $PCT_HZ above this samples cpu with perf_event_open */
#define RT_WALL_DEFAULT_HZ 250         /* the wall event's default rate */
#define RT_WALL_TIMER_MAX_HZ 100       /* wall without perf: the most CPU timers keep exactly */
#define RT_THREADS_LOG2 12             /* 4096 thread slots in the file */
#define RT_ARMS_MAX 4096               /* threads armed at once */
#define RT_PHASE_FDS 64                /* one-shot perf descriptors open at once (threads.c) */
#define RT_PHASE_SLACK_NS 1000000      /* a one-shot event this late has fired (threads.c) */
#define RT_DEFAULT_SLOTS_LOG2 18
#define RT_MIN_SLOTS_LOG2 10
#define RT_MAX_SLOTS_LOG2 26
#define RT_MODULES_MAX 1024
#define RT_STRINGS_SIZE (256 * 1024)
#define RT_CMDLINE_MAX (32 * 1024)     /* bytes of argv kept in the header */
#define RT_MAX_PROBES 64               /* table probes before a sample is dropped */
#define RT_STACK_BYTES_MAX 65536       /* $PCT_STACK_BYTES limit (perf's is 65528) */
#define RT_STACK_AREA_MB 64            /* $PCT_STACK_AREA default, MiB of stack records */
#define RT_STACK_AREA_MB_MAX 4096
#define RT_MAX_RESCANS 256             /* /proc/self/maps reads per process */
#define RT_MAX_DL_RESCANS 4096         /* ... and after dlopen calls */
#define RT_AS_HEADROOM (UINT64_C(64) << 20) /* RLIMIT_AS left to the program, at least */
#define RT_MIN_STACK_AREA (UINT64_C(64) << 10) /* the stack region shrinks to fit no further */
#define RT_TIME_AREA_KB 32768          /* $PCT_TIME_AREA default, KiB of tick log: 2^21 ticks */
#define RT_TIME_AREA_KB_MAX (4u << 20) /* 4 GiB, 2^28 ticks, below the format's 2^32 */
#define RT_MIN_TIME_AREA (UINT64_C(64) << 10) /* the tick log shrinks to fit no further */
#define RT_BUCKETS_LOG2 16             /* bucket table slots: thread-seconds after the log fills */
#define RT_MIN_BUCKETS_LOG2 8          /* the bucket table shrinks to fit no further */
#define RT_BUCKET_MS 1000              /* length of a bucket, ms */

/*
 * Atomics: the one spelling of lib/.  Each helper has one memory order,
 * named in it; the plain names are sequentially consistent.
 *
 * - relaxed (rt_load_relaxed, rt_store_relaxed, rt_add_relaxed,
 *   rt_or_relaxed): counters, statistics, the file's copies of them, and
 *   bits that only ever go from 0 to 1.  Each value need only be whole
 *   and each add counted once; nothing else is read on the strength of
 *   one.  The counting path is made of these.
 * - acquire and release (rt_load_acquire, rt_store_release): publication.
 *   A writer fills something in, then release-stores the word that says
 *   it is there (table_ready, sampling, a count table key, a stack
 *   record's size and ctx, modules_count, the header's state, a perf
 *   ring's data_tail); a reader acquire-loads that word (or the kernel's
 *   data_head, a thread table tid) before it reads what the word guards.
 * - sequentially consistent (rt_load, rt_store, rt_xchg, rt_cas, rt_add,
 *   rt_sub, rt_or, rt_and, and the spin locks rt_trylock, rt_lock,
 *   rt_unlock): everything else: the state machine, the registry of armed
 *   threads, the signal's disposition, the wall sampler, warn-once flags,
 *   the claim of a count table or thread table slot.  One total order
 *   over all of them needs no argument about two flags seen in different
 *   orders.  They are off the counting path or rare on it (a claim, once
 *   per new slot, is a locked instruction on x86-64 whatever its order).
 *
 * p is the address of an _Atomic object of the runtime, or rt_shared(q)
 * for a plain integer q that other processes or the kernel read or write
 * at the same time: the file mapping (pct_format.h) and a perf ring
 * buffer's header (linux/perf_event.h) declare their words plain.
 * rt_cas(p, e, v) stores v if *p == *e and returns 1, else copies *p to
 * *e and returns 0 (it never fails spuriously).  The read-modify-writes
 * return the old value.
 */
#define rt_shared(q) ((_Atomic __typeof__(*(q)) *)(q))

#define rt_load_relaxed(p) atomic_load_explicit((p), memory_order_relaxed)
#define rt_store_relaxed(p, v) atomic_store_explicit((p), (v), memory_order_relaxed)
#define rt_add_relaxed(p, v) atomic_fetch_add_explicit((p), (v), memory_order_relaxed)
#define rt_or_relaxed(p, v) atomic_fetch_or_explicit((p), (v), memory_order_relaxed)

#define rt_load_acquire(p) atomic_load_explicit((p), memory_order_acquire)
#define rt_store_release(p, v) atomic_store_explicit((p), (v), memory_order_release)

#define rt_load(p) atomic_load_explicit((p), memory_order_seq_cst)
#define rt_store(p, v) atomic_store_explicit((p), (v), memory_order_seq_cst)
#define rt_xchg(p, v) atomic_exchange_explicit((p), (v), memory_order_seq_cst)
#define rt_cas(p, e, v) atomic_compare_exchange_strong_explicit((p), (e), (v), memory_order_seq_cst, \
								 memory_order_seq_cst)
#define rt_add(p, v) atomic_fetch_add_explicit((p), (v), memory_order_seq_cst)
#define rt_sub(p, v) atomic_fetch_sub_explicit((p), (v), memory_order_seq_cst)
#define rt_or(p, v) atomic_fetch_or_explicit((p), (v), memory_order_seq_cst)
#define rt_and(p, v) atomic_fetch_and_explicit((p), (v), memory_order_seq_cst)

/* Spin locks, held only with signals blocked (rt_block_signals, or sig.c's
 * own mask), so that no handler spins on a lock its own thread holds.
 * rt_trylock: 1 if it took the lock. */
static inline int rt_trylock(atomic_flag *f)
{
	return !atomic_flag_test_and_set_explicit(f, memory_order_seq_cst);
}

static inline void rt_lock(atomic_flag *f)
{
	while (!rt_trylock(f))
		;
}

static inline void rt_unlock(atomic_flag *f)
{
	atomic_flag_clear_explicit(f, memory_order_seq_cst);
}

enum rt_state { RT_IDLE, RT_STARTING, RT_ON, RT_OFF, RT_FAILED };

/* The sampling method of one run: see pct_format.h for the values. */
struct rt_method {
	int event;                     /* enum pct_event */
	int mechanism;                 /* enum pct_mechanism */
	uint64_t period;               /* ns of the thread's CPU time, or events */
	int signo;                     /* the signal timers and events deliver */
	unsigned ring_pages;           /* perf: data pages of each thread's ring buffer, which a
					  CPU-time timer's signal drains; 0: a signal per sample */
};

/*
 * The configuration from the environment (libpct(3), ENVIRONMENT), read
 * once, by pct_on() (pct_on.c), as profiling starts; a forked child keeps
 * its parent's, and a program started by exec(2) reads its own.  A number
 * that is set but bad stands as its default and is reported where it is
 * used (rt_config_value), so that a run warns only about the settings it
 * uses (a bad $PCT_PERIOD is no matter to the cpu event), in the order it
 * uses them.  $PCT_SECCOMP_OK alone is read when a seccomp filter is
 * judged (pct_on.c): whoever installs one vouches for it then.
 */
struct rt_setting {
	const char *name;              /* the variable, for the warning */
	unsigned value;                /* its value, or the default if unset, empty or bad */
	int bad;                       /* set but not a decimal in range */
};

struct rt_config {
	int quiet;                     /* $PCT_QUIET set and not "0": no warnings */
	uint64_t session;              /* $PCT_SESSION (header.session), 0 if unset or not 16 hex digits */
	int derived;                   /* $PCT_ROOT_PID is set and names another process */
	struct rt_setting hz;          /* $PCT_HZ, or RT_DEFAULT_HZ */
	int hz_explicit;               /* $PCT_HZ is set and not empty (even if bad) */
	struct rt_setting period;      /* $PCT_PERIOD: events per sample; 0: the event's default */
	struct rt_setting signo;       /* $PCT_SIGNAL, or SIGSTKFLT, before sig.c's check of it */
	struct rt_setting slots;       /* $PCT_SLOTS: count table slots */
	struct rt_setting stack_bytes; /* $PCT_STACK_BYTES, or 0 */
	struct rt_setting stack_area;  /* $PCT_STACK_AREA: MiB, or RT_STACK_AREA_MB */
	struct rt_setting time_area;   /* $PCT_TIME_AREA: KiB of tick log, or RT_TIME_AREA_KB; 0:
					  no time kept */
	/* strings of the environment, used only while pct_on() runs and NULL
	 * after it (the program may change its environment later) */
	const char *event;             /* $PCT_EVENT, or "cpu" if unset or empty */
	const char *signal_text;       /* $PCT_SIGNAL as given, or NULL */
};

/*
 * What the runtime knows of its file, kept in private memory.  The file
 * is a MAP_SHARED mapping that anyone able to write the file can change
 * under the running program, so the runtime treats it as output only:
 * every bound, count, offset and identity it relies on is kept here,
 * written to the file as it changes and never read back from it.  Only
 * the keys of the count table and the tids of the thread table are read
 * from the file (they are the data itself); indices into either come from
 * the masks here and every probe loop is bounded, so a hostile key can
 * misplace a count but never make the runtime touch memory outside the
 * mapping or loop without end.
 */
struct rt_module_range {
	uint64_t start, end, file_offset;  /* as in struct pct_module */
	_Atomic uint8_t unmapped;          /* PCT_MODF_UNMAPPED */
	uint8_t anon;                      /* PCT_MOD_ANON */
};

struct rt_ledger {
	uint32_t pid;                  /* the process that writes the file */
	uint64_t file_size;
	uint64_t modules_offset, strings_offset, threads_offset, table_offset, stacks_offset;
	uint64_t ticks_offset, ticks_max, buckets_offset;
	uint32_t buckets_slots;        /* a power of two, or 0 */
	uint64_t clock_start_ns;       /* CLOCK_MONOTONIC at the start of sampling */
	uint32_t modules_max;
	_Atomic uint32_t modules_count;  /* appended under module_lock */
	uint32_t exe_module;
	uint64_t strings_size;
	uint64_t strings_used;         /* under module_lock */
	uint64_t cmdline_offset;       /* the command line the header names, in the pool */
	uint32_t cmdline_len;
	uint32_t threads_max;          /* a power of two */
	uint64_t stacks_size;
	uint64_t cpu_start_ns;
	/* the counters every handler adds to, on a cache line apart from
	 * the fields above, which the handler only reads */
	_Alignas(64) _Atomic uint64_t samples;
	_Atomic uint64_t dropped;
	_Atomic uint64_t slots_used;
	_Atomic uint64_t stacks_used;  /* may pass stacks_size: see pct_format.h */
	_Atomic uint64_t stacks_dropped;
	_Atomic uint64_t ticks_used;   /* may pass ticks_max: see pct_format.h */
	_Atomic uint64_t buckets_used;
	_Atomic uint64_t untimed;
	_Atomic uint64_t rescans;
	_Atomic uint32_t threads_count;
	_Alignas(64) struct rt_module_range mods[RT_MODULES_MAX];
};

struct rt {
	_Atomic int state;             /* enum rt_state */
	_Atomic int sampling;          /* the handler records only while set */
	_Atomic int table_ready;       /* the file exists and table points into it */
	atomic_flag module_lock;       /* held while appending a module record */
	_Atomic int modules_pending;   /* the module table awaits its first full scan */
	struct rt_method method;
	/* in force, from cfg by pct_on() */
	unsigned slots_log2;           /* $PCT_SLOTS */
	unsigned stack_bytes;          /* $PCT_STACK_BYTES: stack copied per sample; 0: no stacks */
	unsigned stack_area_mb;        /* $PCT_STACK_AREA: MiB reserved for stack records */
	unsigned time_area_kb;         /* $PCT_TIME_AREA: KiB reserved for the tick log; 0: none */
	_Atomic int wall_tid;          /* the wall sampler thread, or 0 */
	_Atomic int wall_stop;         /* asks the wall sampler thread to end */
	_Atomic int wall_alive;        /* from its start until the wall sampler thread returns */
	_Atomic int main_pthread_exit; /* the main thread ended with pthread_exit(3) (sig.c) */
	_Atomic uint32_t threads_started; /* by pct's pthread_create(), for the wall sampler */
	_Atomic int writers;           /* threads writing pct's range now (rt_write_begin) */
	_Atomic int hold;              /* no writer may begin (rt_hold) */
	_Atomic int mlock_future;      /* the program's mlockall(MCL_FUTURE) is in force (memlock.c) */

	struct pct_header *hdr;        /* the file's MAP_SHARED mapping, or the anonymous staging
					  copy before the first sample, at the same address */
	struct pct_module *modules;
	char *strings;
	struct pct_thread *threads;    /* in the file; valid once table_ready */
	struct pct_entry *table;       /* in the file; NULL until table_ready */
	char *stacks;                  /* the stack region in the file, or NULL */
	struct pct_tick *ticks;        /* the tick log in the file, or NULL */
	struct pct_bucket *buckets;    /* the bucket table in the file, or NULL */
	uint64_t slots_mask;
	uint64_t slots_limit;          /* stop claiming new slots past this */
	unsigned slots_shift;          /* 64 - log2(slots), for the hash */
	/* Pages of the file reserved so far (output.c): a page is touched only
	 * once it is, so a full disk drops samples and never raises SIGBUS. */
	_Atomic uint64_t *reserved;    /* bitmap by page of the file, or NULL */
	char *reserve_base;            /* the file mapping it describes; NULL before it exists */
	unsigned reserve_shift;        /* log2 of the page size */
	int reserve_all;               /* the whole file was reserved when it was created */
	struct rt_ledger led;          /* the file's bounds and counters, private */

	struct rt_config cfg;          /* from the environment, by pct_on() */

	/* The names last, so that the fields above share a page */
	char pattern[PCT_PATH_MAX + 1]; /* $PCT, expanded again in a forked child */
	char name[PCT_PATH_MAX + 1];   /* its expansion in this process */
	char path[PCT_PATH_MAX + 1];   /* the file's final name */

	/* The host's resources (libpct(3), RESOURCES) */
	int err_known;                 /* fd 2 was open at pct_on, as err_dev/err_ino */
	uint64_t err_dev, err_ino;     /* warnings go only to that file */
	_Atomic int sigq_warned;       /* a thread was left unarmed for the signal quota */
	uint64_t seccomp_start;        /* /proc/self/status Seccomp: at pct_on */
	_Atomic int seccomp_warned;
};

extern struct rt rt_g;

/* async-signal-safe: is page i of the file reserved? */
static inline int rt_reserved_page(uint64_t i)
{
	return (int)((rt_load_relaxed(&rt_g.reserved[i / 64]) >> (i % 64)) & 1);
}

int rt_output_reserve(const void *p, size_t len);  /* async-signal-safe */

/* async-signal-safe: make [p, p + len) of the file mapping safe to touch:
 * 0, or -1 if the file system has no room for it (output.c).  Inline for
 * the common case of a page already reserved. */
static inline int rt_reserve(const void *p, size_t len)
{
	if (rt_g.reserve_all || rt_g.reserve_base == NULL || len == 0)
		return 0;
	uint64_t i = (uint64_t)((const char *)p - rt_g.reserve_base) >> rt_g.reserve_shift;
	if ((uint64_t)((const char *)p + len - 1 - rt_g.reserve_base) >> rt_g.reserve_shift == i &&
	    rt_reserved_page(i))
		return 0;
	return rt_output_reserve(p, len);
}

/*
 * async-signal-safe: may the caller write to pct's range (the file, its
 * staging copy) now?  1, and rt_write_end() follows; 0 if sampling is off
 * or another thread holds the range (rt_hold: mlockall changes it), and
 * the caller writes nothing.  Two sequentially consistent operations each
 * way: a holder that saw no writer saw every later one see hold.
 */
static inline int rt_write_begin(void)
{
	rt_add(&rt_g.writers, 1);
	if (rt_load(&rt_g.hold) || !rt_load_acquire(&rt_g.sampling)) {
		rt_sub(&rt_g.writers, 1);
		return 0;
	}
	return 1;
}

/* async-signal-safe: rt_write_begin for the writes that follow the end of
 * sampling (the last drain of the ring buffers, a thread's name at its
 * end): only a hold stops them. */
static inline int rt_write_begin_any(void)
{
	rt_add(&rt_g.writers, 1);
	if (rt_load(&rt_g.hold)) {
		rt_sub(&rt_g.writers, 1);
		return 0;
	}
	return 1;
}

static inline void rt_write_end(void)
{
	rt_sub(&rt_g.writers, 1);
}

/* memlock.c: no writer begins from now, and those under way have ended
 * (waited for at most 100 ms): 1, and rt_unhold() follows; 0 if one was
 * still writing (nothing is held). */
int rt_hold(void);
void rt_unhold(void);
/* After any mapping pct makes: under the program's mlockall(MCL_FUTURE)
 * it is locked, and counts against RLIMIT_MEMLOCK, until unlocked here. */
void rt_mapped(void *p, size_t len);
/* output.c: does a MAP_FIXED mapping that fails leave the range as it
 * was (Linux 6.12 and later), rather than unmapped? */

/* pct_on.c: a number of rt_g.cfg, after one warning if its value was bad */
unsigned rt_config_value(const struct rt_setting *s);

/* modules.c */
void rt_modules_defer_scan(void);
void rt_modules_scan_pending(void);
int rt_modules_add_mapping_of(uintptr_t pc);        /* async-signal-safe */
int rt_module_find(uintptr_t pc);                   /* async-signal-safe */

int rt_modules_retire_unmapped(void);
void rt_modules_resolve(void);                      /* the constructor: dlopen's next */
void rt_modules_after_dlopen(void);                 /* async-signal-safe, each sample */

/* method.c: the choice of the sampling method */
int rt_method_choose(unsigned hz, int hz_explicit, const char *event);
void rt_method_describe(struct pct_header *h);

/* sample.c */
uint32_t rt_thread_slot(uint32_t tid, const char *name); /* async-signal-safe */
uint32_t rt_thread_find(uint32_t tid);              /* async-signal-safe */
void rt_thread_name_mine(uint32_t slot);            /* async-signal-safe */
uint32_t rt_sample(uintptr_t pc, uint32_t thread, uint64_t n); /* async-signal-safe */
uint32_t rt_sample_at(uintptr_t pc, uint32_t thread, uint64_t n, uint64_t when_ns); /* the same, without the
									CPU clock */
uint64_t rt_monotonic_ns(void); /* async-signal-safe */
void rt_sample_lost(uint64_t n);                    /* async-signal-safe */
void rt_note_cpu_now(void);                         /* async-signal-safe */
void rt_stack_record(const uint64_t *regs, uint32_t thread, uint64_t n, uintptr_t stack_hi,
		     uint32_t tick); /* a-s-safe */
void rt_thread_stack_known(void);
int rt_sampling_start(unsigned hz, int hz_explicit, const char *event);
void rt_sampling_disarm(void);                      /* async-signal-safe */
void rt_sampling_stop(void);
void rt_sampling_after_fork(void);

/* threads.c: one timer or perf event per thread */
int rt_arm_probe(struct rt_method *m);
int rt_arm_drain_mine(uint32_t slot);                /* async-signal-safe */
void rt_arms_drain_all(void);
int rt_arm_thread(uint32_t tid, int own);
int rt_arm_existing_threads(void);
void rt_for_each_task(int dirfd, int (*fn)(uint32_t tid, const char *name, void *arg), void *arg);
void rt_disarm_all(int rings);                       /* async-signal-safe */
void rt_arms_forget_after_fork(void);
void rt_arms_munlock(void);         /* unlock every thread's reserved range (memlock.c) */
void rt_arms_release_ranges(void);  /* let go of them (pct steps aside; sampling stopped) */
uint32_t rt_gettid(void);                           /* async-signal-safe */
uint64_t rt_thread_cpu_ns(uint32_t tid);            /* async-signal-safe: its CPU clock, ns; 0 if gone */
int rt_thread_spawn(void *thread, const void *attr, void *(*fn)(void *), void *arg);

/* threads.c: pausing a thread that blocks pct's signal (sig.c) */
int rt_arm_owns_fd(int fd);                         /* async-signal-safe */
int rt_arm_pause_mine(int pause);                   /* async-signal-safe */
int rt_arm_overflow_mine(int fd);                   /* async-signal-safe */
void rt_arm_timer_mine(void);                       /* async-signal-safe */

/* sig.c: pct's signal and the program's view of it */
/* si_value of pct's timers: a signal with si_code SI_TIMER and this value
 * is a sample (libpct(3), SIGNALS; bench/persample.c sends such signals) */
#define RT_SIG_COOKIE ((void *)(uintptr_t)PCT_SAMPLE_COOKIE)
#include <signal.h>
void rt_sig_resolve(void);
int rt_sig_choose(void);
int rt_sig_install(int signo, void (*handler)(int, siginfo_t *, void *));
int rt_sig_mine(const siginfo_t *si);               /* async-signal-safe */
void rt_sig_forward(int sig, siginfo_t *si, void *uc); /* async-signal-safe */
void rt_sig_mask_changed(void);                     /* async-signal-safe */
void rt_sig_take_back(void);                        /* async-signal-safe */
void rt_sig_before_exec(void);      /* async-signal-safe: the program's SIG_IGN, in the kernel */
void rt_sig_exec_failed(void);      /* async-signal-safe: pct's handlers again */
void rt_sig_note_setxid(void);      /* before pct's first thread: glibc's SIGSETXID inherited ignored? */
void rt_sig_program_thread(void);   /* the program creates a thread (pthread_create) */
int rt_sig_vblocked(void);          /* the calling thread blocks pct's signal, as the program sees it */
void rt_sig_vinherit(int blocked);  /* a new thread: its creator's rt_sig_vblocked() */

/* wall.c: the off-CPU sampler thread of the wall event */
int rt_wall_start(void);
void rt_wall_stop(void);
void rt_wall_same_credentials(void);  /* the caller changed its own credentials */
void rt_wall_main_exits(void);        /* the main thread's pthread_exit */
int rt_wall_give_way(void);           /* RLIMIT_NPROC: the program needs the samplers' slots */

/* limits.c (the shared library only: weak): its wrappers' next functions */
void rt_limits_resolve(void) __attribute__((weak));
void rt_exec_resolve(void) __attribute__((weak));   /* exec.c: the C library's execvp, execvpe */
/* memlock.c: mlockall's and munlockall's */
void rt_memlock_resolve(void);

/* threads.c: the program needs the pending signals pct's timers hold */
int rt_timers_give_back(int n);
int rt_timers_held(void);

/* output.c */
/* derived: the name belongs to another process of the tree (a parent's
 * name in a forked child, or not the root of `pct record`): write
 * NAME.PID.pct from the start */
int rt_output_prepare(const char *name, unsigned slots_log2, int derived);
int rt_output_create(void);                         /* async-signal-safe */
void rt_output_finish(void);
void rt_output_abandon(void);
int rt_output_fault(const void *addr);              /* async-signal-safe: a SIGBUS at addr was pct's */
void rt_output_protect(int none);   /* the range PROT_NONE (none) or as it was (held: no writer) */
void rt_output_munlock(void);       /* unlock the range and the page bitmap */
void rt_output_release(void);       /* unmap the range (held, sampling stopped, file finished) */

/* pct_on.c: the command line, copied at start (len: its bytes, NUL separated) */
const char *rt_cmdline(size_t *len);
/* pct_on.c: the host's limits (RESOURCES in libpct(3)) */
uint32_t rt_getpid(void);                           /* async-signal-safe, never glibc's cache */
/* Before execve and _exit (exec.c): under pct record, a process that took
 * no sample writes its profile, empty and complete, so that the tree
 * lists the program.  async-signal-safe; does nothing in a vfork child. */
void rt_before_exec(void);
int rt_status_field(const char *field, uint64_t *a, uint64_t *b); /* async-signal-safe */
void rt_block_signals(void *old_sigset);            /* async-signal-safe */
void rt_restore_signals(const void *old_sigset);    /* async-signal-safe */
/* sig.c, async-signal-safe: open SIGBUS for pct's writes in a thread whose
 * mask (the sigset mask, its mask now) blocks it; and, with that mask back
 * (rt_bus_close), a SIGBUS sent meanwhile, kept by on_bus, is sent again
 * to be pending as without pct */
void rt_bus_open(const void *mask_sigset);
void rt_bus_close(const void *mask_sigset);
int rt_bus_pending(void);  /* async-signal-safe: a SIGBUS waits for the thread or the process */
int rt_seccomp_changed(void);                       /* stops sampling if a filter came */

/* warn.c */
void rt_warn(const char *what, const char *detail, int err);  /* async-signal-safe */
void rt_warn_deferred(void);        /* the calling thread has no stderr: its lines wait */
void rt_say_pending(void);          /* async-signal-safe: print a line that waits */
void rt_say(const char *what, const char *detail, int err, const char *tail); /* async-signal-safe */
char *rt_utoa(uint64_t v, char *buf_end);                     /* async-signal-safe */

#endif
