/*
 * sample.c - the sampling path: the signal handler, the thread table and
 * the count table.
 *
 * Every thread has its own sampling source (threads.c): a POSIX timer on
 * the thread's CPU clock, or a perf_event_open(2) event, each delivering
 * the pct signal to that thread alone.  So each thread is sampled in
 * proportion to its own CPU time, however many run at once, and the
 * signal never lands in a thread that is blocked in a system call (the
 * cause of gperftools' EINTR reports).  The signal is SIGSTKFLT by
 * default ($PCT_SIGNAL), which Linux never raises, so a program's own
 * SIGPROF and ITIMER_PROF work exactly as without pct.
 *
 * The count table is open addressing with linear probing over (key, ctx)
 * pairs (pct_format.h).  Slots are claimed with compare-and-swap and counts
 * bumped with atomic adds, so handlers running at once on several threads
 * need no lock, and every count is already in the shared file mapping when
 * the handler returns: a SIGKILL loses nothing that was sampled.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include <time.h>

#include "arch.h"
#include "runtime.h"

/* async-signal-safe: add n to a private counter and show its new value
 * in the file, which is never read back (runtime.h). */
static inline void store_count(uint64_t *in_file, _Atomic uint64_t *mine, uint64_t n)
{
	uint64_t v = rt_add_relaxed(mine, n) + n;
	rt_store_relaxed(rt_shared(in_file), v);
}

/* The calling thread's tid and thread slot + 1, cached for the handler.
 * initial-exec TLS is a plain %fs-relative load: no call, no allocation. */
static __thread struct {
	uint32_t tid;
	uint32_t slot;
	uintptr_t stack_hi;            /* one past the top of this thread's stack, or 0 */
	uint32_t signals;              /* handled in this thread, to refresh its name now and then */
} self __attribute__((tls_model("initial-exec")));

/* glibc's (ld.so): the stack pointer at process entry, above main's frame.
 * Weak: musl has none, and there the main thread's stack is left unbounded
 * (each copy stops at the first unreadable page). */
extern void *__libc_stack_end __attribute__((weak));

/* Note where the calling thread's stack ends, for -g: called by each new
 * thread before it runs its start routine, and by the starting thread.
 * No call into the C library: a new thread runs this before a sanitizer's
 * runtime (TSan, ASan's static one) has set it up, and their interceptors
 * of pthread_getattr_np and malloc then crash.  Another thread's stack is
 * below its TCB (arch_thread_pointer); the main thread's ends at
 * __libc_stack_end. */
void rt_thread_stack_known(void)
{
	if (rt_gettid() == rt_getpid())
		self.stack_hi = &__libc_stack_end != NULL ? (uintptr_t)__libc_stack_end : 0;
	else
		self.stack_hi = arch_thread_pointer();
}

/*
 * async-signal-safe: copy up to len bytes of this process's memory from
 * addr to dst, stopping at the first unreadable page instead of faulting:
 * process_vm_readv(2) on ourselves, one remote piece per page.  Returns
 * the bytes copied.
 */
static int no_vm_readv;                /* process_vm_readv(2) said ENOSYS (qemu-user) */
static size_t copy_readable(void *dst, uintptr_t addr, size_t len)
{
	struct iovec local = { dst, len }, remote[RT_STACK_BYTES_MAX / 4096 + 2];
	int n = 0;
	for (uintptr_t a = addr, end = addr + len; a < end && n < (int)(sizeof remote / sizeof remote[0]); n++) {
		uintptr_t next = (a | 4095) + 1;
		remote[n].iov_base = (void *)a;
		remote[n].iov_len = (next < end ? next : end) - a;
		a += remote[n].iov_len;
	}
	ssize_t got = syscall(SYS_process_vm_readv, (pid_t)rt_g.led.pid, &local, 1UL, remote, (unsigned long)n, 0UL);
	if (got < 0 && errno == ENOSYS)
		no_vm_readv = 1;
	return got > 0 ? (size_t)got : 0;
}

/*
 * async-signal-safe: a call-stack record (pct_format.h) of n samples for
 * thread (slot + 1), logged as tick (index + 1, 0: none), from regs
 * (ARCH_STACK_REGS, DWARF order, PC last):
 * the registers and the stack from the stack pointer up to stack_hi (if
 * known) or $PCT_STACK_BYTES.  A full region counts the samples in
 * stacks_dropped.
 */
void rt_stack_record(const uint64_t *regs, uint32_t thread, uint64_t n, uintptr_t stack_hi, uint32_t tick)
{
	struct pct_header *h = rt_g.hdr;
	struct rt_ledger *l = &rt_g.led;
	uintptr_t sp = (uintptr_t)regs[ARCH_SP_INDEX];
	size_t want = rt_g.stack_bytes;
	if (stack_hi > sp && stack_hi - sp < want)
		want = stack_hi - sp;
	uint64_t head = sizeof(struct pct_stack) + 8 * ARCH_STACK_REGS;
	uint64_t size = head + ((want + 7) & ~(size_t)7);
	uint64_t off = rt_add_relaxed(&l->stacks_used, size);
	if (off + size > l->stacks_size || off + size < off) {
		store_count(&h->stacks_dropped, &l->stacks_dropped, n);
		return;
	}
	char *rec = rt_g.stacks + off;
	/* Reserve up to the next 64 KiB boundary, so that a run of records
	 * costs one madvise per 64 KiB.  If there is no room, close the region:
	 * readers stop at this unwritten record anyway. */
	uint64_t ahead = ((off + size + 65535) & ~(uint64_t)65535) - off;
	if (rt_reserve(rec, ahead < l->stacks_size - off ? ahead : l->stacks_size - off) != 0) {
		rt_add_relaxed(&l->stacks_used, l->stacks_size + 1);
		store_count(&h->stacks_dropped, &l->stacks_dropped, n);
		return;
	}
	rt_store_relaxed(rt_shared(&h->stacks_used), off + size);
	struct pct_stack *r = (struct pct_stack *)rec;
	rt_store_release(rt_shared(&r->size), (uint32_t)size);
	r->weight = n;
	r->sp = sp;
	memcpy(rec + sizeof *r, regs, 8 * ARCH_STACK_REGS);
	/* Without process_vm_readv (qemu-user answers ENOSYS), the stack is
	 * copied directly, but only when sp lies within 8 MiB (the default
	 * RLIMIT_STACK) below the known top of this thread's stack, so that
	 * sp..sp+want is this stack, mapped; otherwise (stack_hi unknown, a
	 * signal or coroutine stack elsewhere) the record has the registers
	 * alone */
	if (!no_vm_readv)
		r->stack_len = (uint32_t)copy_readable(rec + head, sp, want);
	else
		r->stack_len = 0;
	if (r->stack_len == 0 && no_vm_readv && stack_hi > sp && stack_hi - sp <= ((size_t)8 << 20)) {
		memcpy(rec + head, (const void *)sp, want);
		r->stack_len = (uint32_t)want;
	}
	r->tick = tick;
	rt_store_release(rt_shared(&r->ctx), (thread & PCT_CTX_THREAD_MASK) | PCT_STACK_DONE);
}

/* async-signal-safe */
static uint64_t cpu_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* async-signal-safe: the calling thread's name, as it is now, into its
 * slot + 1 (0: none) */
void rt_thread_name_mine(uint32_t slot)
{
	char buf[16] = { 0 };
	if (slot != 0 && syscall(SYS_prctl, PR_GET_NAME, buf, 0, 0, 0) == 0)
		memcpy(rt_g.threads[slot - 1].name, buf, sizeof buf);
}

/*
 * async-signal-safe: the thread slot + 1 of tid, registering it (with its
 * name: name, or the caller's own PR_GET_NAME if name is NULL) if it is
 * new.  0 if the thread table is full.
 */
uint32_t rt_thread_slot(uint32_t tid, const char *name)
{
	struct rt_ledger *l = &rt_g.led;
	uint32_t mask = l->threads_max - 1;
	uint32_t i = (uint32_t)(tid * 2654435761u) & mask;

	for (int probe = 0; probe < RT_MAX_PROBES; probe++, i = (i + 1) & mask) {
		struct pct_thread *t = &rt_g.threads[i];
		if (rt_reserve(t, sizeof *t) != 0)
			return 0;
		uint32_t cur = rt_load_acquire(rt_shared(&t->tid));
		if (cur == 0) {
			if (rt_load_relaxed(&l->threads_count) >= l->threads_max - l->threads_max / 8)
				return 0;
			if (rt_cas(rt_shared(&t->tid), &cur, tid)) {
				char buf[16] = { 0 };
				if (name)
					strncpy(buf, name, sizeof buf - 1);
				else
					syscall(SYS_prctl, PR_GET_NAME, buf, 0, 0, 0);
				memcpy(t->name, buf, sizeof t->name);
				uint32_t count = rt_add_relaxed(&l->threads_count, 1);
				rt_store_relaxed(rt_shared(&rt_g.hdr->threads_count), count + 1);
				return i + 1;
			}
		}
		if (cur == tid)
			return i + 1;
	}
	return 0;
}

/* async-signal-safe: the thread slot + 1 of tid, or 0 if it has none. */
uint32_t rt_thread_find(uint32_t tid)
{
	uint32_t mask = rt_g.led.threads_max - 1;
	uint32_t i = (uint32_t)(tid * 2654435761u) & mask;
	for (int probe = 0; probe < RT_MAX_PROBES; probe++, i = (i + 1) & mask) {
		if (rt_reserve(&rt_g.threads[i], sizeof rt_g.threads[i]) != 0)
			return 0;
		uint32_t cur = rt_load_acquire(rt_shared(&rt_g.threads[i].tid));
		if (cur == tid)
			return i + 1;
		if (cur == 0)
			return 0;
	}
	return 0;
}

/* async-signal-safe: add n samples at (key, ctx); the slot + 1 that
 * counted them, or 0 if they were dropped. */
static uint32_t table_count(uint64_t key, uint64_t ctx, uint64_t n)
{
	struct pct_header *h = rt_g.hdr;
	struct rt_ledger *l = &rt_g.led;
	/* Fibonacci hashing: the top bits of a mix of both words. */
	uint64_t i = ((key ^ (ctx * UINT64_C(0xff51afd7ed558ccd))) * UINT64_C(0x9e3779b97f4a7c15)) >>
		     rt_g.slots_shift;

	for (int probe = 0; probe < RT_MAX_PROBES; probe++, i = (i + 1) & rt_g.slots_mask) {
		struct pct_entry *e = &rt_g.table[i];
		if (rt_reserve(e, sizeof *e) != 0)
			break;
		uint64_t k = rt_load_acquire(rt_shared(&e->key));
		if (k == 0) {
			if (rt_load_relaxed(&l->slots_used) >= rt_g.slots_limit)
				break;
			if (rt_cas(rt_shared(&e->key), &k, PCT_KEY_BUSY)) {
				rt_store_relaxed(rt_shared(&e->ctx), ctx);
				rt_add_relaxed(rt_shared(&e->count), n);
				rt_store_release(rt_shared(&e->key), key);
				store_count(&h->slots_used, &l->slots_used, 1);
				store_count(&h->samples, &l->samples, n);
				return (uint32_t)i + 1;
			}
		}
		/* A slot being claimed (PCT_KEY_BUSY) is passed over: at worst
		 * the same (key, ctx) gets a second slot, which readers add. */
		if (k == key && rt_load_relaxed(rt_shared(&e->ctx)) == ctx) {
			rt_add_relaxed(rt_shared(&e->count), n);
			store_count(&h->samples, &l->samples, n);
			return (uint32_t)i + 1;
		}
	}
	store_count(&h->dropped, &l->dropped, n);
	return 0;
}

/* async-signal-safe: CLOCK_MONOTONIC, ns (the vDSO: no system call) */
uint64_t rt_monotonic_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* async-signal-safe: count n samples of thread (slot + 1) in the bucket
 * of time t (ns since the start); 0, or -1 if no slot is free. */
static int bucket_count(uint64_t t, uint32_t thread, uint64_t n)
{
	struct rt_ledger *l = &rt_g.led;
	uint64_t b = t / ((uint64_t)RT_BUCKET_MS * 1000000u);
	uint64_t key = ((b + 1) << PCT_BUCKET_SHIFT) | (thread & PCT_BUCKET_THREAD_MASK);
	uint32_t mask = l->buckets_slots - 1;
	uint32_t i = (uint32_t)((key * UINT64_C(0x9e3779b97f4a7c15)) >> 40) & mask;

	for (int probe = 0; probe < RT_MAX_PROBES; probe++, i = (i + 1) & mask) {
		struct pct_bucket *e = &rt_g.buckets[i];
		if (rt_reserve(e, sizeof *e) != 0)
			return -1;
		uint64_t k = rt_load_acquire(rt_shared(&e->key));
		if (k == 0) {
			if (rt_load_relaxed(&l->buckets_used) >= l->buckets_slots - l->buckets_slots / 8)
				return -1;
			if (rt_cas(rt_shared(&e->key), &k, key)) {
				rt_add_relaxed(&l->buckets_used, 1);
				rt_add_relaxed(rt_shared(&e->count), n);
				return 0;
			}
		}
		if (k == key) {
			rt_add_relaxed(rt_shared(&e->count), n);
			return 0;
		}
	}
	return -1;
}

/*
 * async-signal-safe: log n samples counted at table slot entry - 1 for
 * thread (slot + 1) at when_ns (CLOCK_MONOTONIC): a tick while the log
 * has room, then a bucket, else counted as untimed.  Returns the tick's
 * index + 1, or 0 if it got none.
 */
static uint32_t time_log(uint32_t entry, uint32_t thread, uint64_t n, uint64_t when_ns)
{
	struct pct_header *h = rt_g.hdr;
	struct rt_ledger *l = &rt_g.led;
	uint64_t t = when_ns > l->clock_start_ns ? when_ns - l->clock_start_ns : 0;
	/* (a weight past 32 bits, a wall sample after a very long stop, goes
	 * to its bucket) */
	uint64_t idx = rt_load_relaxed(&l->ticks_used) < l->ticks_max && n <= UINT32_MAX ?
			       rt_add_relaxed(&l->ticks_used, 1) : l->ticks_max;
	if (idx < l->ticks_max) {
		struct pct_tick *k = &rt_g.ticks[idx];
		/* reserved a 64 KiB run at a time, as the stack records are */
		uint64_t off = idx * sizeof *k, ahead = ((off + sizeof *k + 65535) & ~(uint64_t)65535) - off;
		uint64_t left = (l->ticks_max - idx) * sizeof *k;
		if (rt_reserve(k, ahead < left ? ahead : left) == 0) {
			k->time_ns = t;
			k->weight = (uint32_t)n;
			rt_store_release(rt_shared(&k->entry), entry);
			/* the header's count only grows (a handler that claimed an
			 * earlier record may store after this one); a few tries,
			 * as a hostile writer may change it */
			uint64_t cur = rt_load_relaxed(rt_shared(&h->ticks_used));
			for (int i = 0; i < 4 && cur < idx + 1; i++)
				if (rt_cas(rt_shared(&h->ticks_used), &cur, idx + 1))
					break;
			return (uint32_t)idx + 1;
		}
		/* no room on the disk: the log is closed, as the stack region is */
		rt_add_relaxed(&l->ticks_used, l->ticks_max);
	}
	if (rt_g.buckets == NULL || bucket_count(t, thread, n) != 0)
		store_count(&h->untimed, &l->untimed, n);
	return 0;
}

/* async-signal-safe: n samples were lost before pct could count them
 * (a full perf ring buffer). */
void rt_sample_lost(uint64_t n)
{
	store_count(&rt_g.hdr->dropped, &rt_g.led.dropped, n);
}

/*
 * async-signal-safe: show the process's CPU clock in the header
 * (cpu_last_ns, for readers of the live file), at most once in 10 ms of
 * the clock now_ns (CLOCK_MONOTONIC): CLOCK_PROCESS_CPUTIME_ID costs the
 * kernel a walk over every thread of the process, and read at each sample
 * it made sampling quadratic in the threads (the wall sampler spent 99% of
 * its time there with 2,000 threads).  rt_sampling_stop writes the last.
 */
static _Atomic uint64_t cpu_noted_ns;
static void note_cpu(uint64_t now_ns)
{
	uint64_t last = rt_load_relaxed(&cpu_noted_ns);
	if (now_ns - last >= 10000000 && rt_cas(&cpu_noted_ns, &last, now_ns))
		rt_store_relaxed(rt_shared(&rt_g.hdr->cpu_last_ns), cpu_now_ns());
}

/*
 * async-signal-safe: cpu_last_ns is the process's CPU clock now, whenever
 * it was noted last: before an exec or _exit (pct_on.c, rt_before_exec),
 * whose file stays unfinished.  The program exec'd next starts its CPU
 * clock there (a process's clock runs on through exec), and the time
 * between is its "before sampling started" (pset_cpu_before_ns); the
 * last note at a sample could be 10 ms and the signals' spacing older,
 * which on a loaded machine (a signal for up to 40 periods) moved 0.1 s
 * of the earlier program's time, sampled at its rate, to the exec'd
 * program's start.  The caller may write to the range (rt_write_begin).
 */
void rt_note_cpu_now(void)
{
	rt_store_relaxed(rt_shared(&rt_g.hdr->cpu_last_ns), cpu_now_ns());
}

/* async-signal-safe: charge n samples at pc to thread slot + 1 thread
 * (0: unknown), taken now.  The file must exist (table_ready).  Returns
 * the tick's index + 1 (0: none), for the sample's stack record. */
uint32_t rt_sample(uintptr_t pc, uint32_t thread, uint64_t n)
{
	uint64_t now = rt_monotonic_ns();
	uint32_t tick = rt_sample_at(pc, thread, n, now);
	note_cpu(now);
	return tick;
}

/* async-signal-safe: rt_sample of a sample taken at when_ns
 * (CLOCK_MONOTONIC), without noting the CPU clock, for a caller that
 * counts many samples at once. */
uint32_t rt_sample_at(uintptr_t pc, uint32_t thread, uint64_t n, uint64_t when_ns)
{
	uint64_t key;
	int m = rt_module_find(pc);
	if (m < 0)
		m = rt_modules_add_mapping_of(pc);
	if (m >= 0) {
		const struct rt_module_range *mod = &rt_g.led.mods[m];
		key = pct_key((uint32_t)m + 1, pc - mod->start + mod->file_offset);
	} else {
		key = pct_key(PCT_KEY_UNKNOWN_MODULE, pc);
	}
	uint32_t entry = table_count(key, thread & PCT_CTX_THREAD_MASK, n);
	if (thread)
		rt_add_relaxed(rt_shared(&rt_g.threads[thread - 1].samples), n);
	return entry && rt_g.ticks ? time_log(entry, thread, n, when_ns) : 0;
}

/* async-signal-safe */
/*
 * How many periods one signal stands for.  A POSIX CPU timer is checked
 * at the scheduler tick, so a thread that ran for two periods between
 * checks gets one signal with si_overrun 1 (timer_getoverrun(2)); counting
 * 1 + si_overrun keeps every thread's samples proportional to its CPU
 * time even when the checks fall behind.  perf signals carry no overrun.
 * Bounded so that a corrupt value cannot swamp the profile.
 */
static uint64_t sample_weight(const siginfo_t *si)
{
	if (si->si_code != SI_TIMER || si->si_overrun <= 0)
		return 1;
	return 1 + (uint64_t)(si->si_overrun < 1000 ? si->si_overrun : 1000);
}

/* async-signal-safe: is the handler on the alternate stack with less than
 * RT_HANDLER_STACK of it left?  The kernel describes the stack in the
 * context (uc_stack), so this costs no system call. */
static int altstack_short(const ucontext_t *u)
{
	const stack_t *ss = &u->uc_stack;
	uintptr_t lo = (uintptr_t)ss->ss_sp, sp = (uintptr_t)__builtin_frame_address(0);
	return !(ss->ss_flags & SS_DISABLE) && sp >= lo && sp - lo < ss->ss_size && sp - lo < RT_HANDLER_STACK;
}

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	int saved = errno;
	if (!rt_sig_mine(si)) {
		/* not pct's: the program's, as if pct were not there (sig.c) */
		rt_sig_forward(sig, si, uc);
		return;
	}
	/* the end of a random first period (a one-shot event's only
	 * signal, POLL_HUP; it must end even if no sample is taken now), or
	 * a late signal of a one-shot event the timer beat? */
	if (si->si_code == POLL_HUP && !rt_arm_overflow_mine(si->si_fd))
		goto out;
	if (!rt_write_begin()) {
		/* off, or mlockall holds the range: a sample lost, counted
		 * privately (the file shows it at the next count) */
		if (rt_load_acquire(&rt_g.sampling))
			rt_add_relaxed(&rt_g.led.dropped, sample_weight(si));
		goto out;
	}
	/* SIGBUS open while the handler writes to the mapping (the mask the
	 * frame restores is the program's) */
	rt_bus_open(&((const ucontext_t *)uc)->uc_sigmask);
	if (altstack_short(uc)) {
		/* a small alternate stack (one set up by a raw system call,
		 * which sigaltstack() in sig.c does not see): lost, not a fault */
		if (rt_load_acquire(&rt_g.table_ready))
			rt_sample_lost(sample_weight(si));
		goto end;
	}
	if (!rt_load_acquire(&rt_g.table_ready) && rt_output_create() != 0)
		goto end;
	rt_modules_after_dlopen();
	if (self.tid == 0)
		self.tid = rt_gettid();
	if (self.slot == 0)
		self.slot = rt_thread_slot(self.tid, NULL);
	else if (++self.signals < 256 ? (self.signals & (self.signals - 1)) == 0 : (self.signals & 255) == 0)
		rt_thread_name_mine(self.slot);  /* a name set after its first sample: at the 1st, 2nd,
						    4th ... 128th signal after it, then every 256th, so
						    that a short thread has its name before its end */
	if (si->si_code == SI_TIMER)
		rt_arm_timer_mine();  /* the end of the first period (threads.c)? */
	if (rt_g.method.ring_pages && si->si_code == SI_TIMER) {
		/* the tick that drains this thread's perf ring buffer */
		if (rt_arm_drain_mine(self.slot) > 0)
			note_cpu(rt_monotonic_ns());
		goto end;
	}
	uint64_t n = sample_weight(si);
	uint32_t tick = rt_sample(arch_pc(uc), self.slot, n);
	if (rt_g.stacks) {
		uint64_t regs[ARCH_STACK_REGS];
		arch_regs(uc, regs);
		rt_stack_record(regs, self.slot, n, self.stack_hi, tick);
	}
end:
	rt_bus_close(&((const ucontext_t *)uc)->uc_sigmask);
	rt_write_end();
out:
	errno = saved;
}

/* Describe the chosen method in the (new) header, and start its clock. */
static void header_method(void)
{
	struct pct_header *h = rt_g.hdr;
	rt_method_describe(h);
	rt_g.led.cpu_start_ns = cpu_now_ns();
	h->cpu_start_ns = rt_g.led.cpu_start_ns;
	rt_g.led.clock_start_ns = rt_monotonic_ns();
	h->clock_start_ns = rt_g.led.clock_start_ns;
	h->cpu_last_ns = rt_g.led.cpu_start_ns;
}

/*
 * Install the handler and arm every thread at hz for the named event.
 * A disposition the program already has for pct's signal stays its own
 * (sig.c).
 */
int rt_sampling_start(unsigned hz, int hz_explicit, const char *event)
{
	if (rt_method_choose(hz, hz_explicit, event) != 0)
		return -1;
	if (rt_sig_install(rt_g.method.signo, on_signal) != 0)
		return -1;
	header_method();
	if (rt_g.stack_bytes)
		rt_thread_stack_known();
	rt_store_release(&rt_g.sampling, 1);
	if (rt_arm_thread(rt_gettid(), 1) != 0) {
		rt_store_release(&rt_g.sampling, 0);
		return -1;
	}
	rt_sig_mask_changed();  /* a program that blocked it before pct_on */
	rt_arm_existing_threads();
	if (rt_g.method.event == PCT_EVENT_WALL && rt_wall_start() != 0) {
		rt_sampling_disarm();
		return -1;
	}
	return 0;
}

/* async-signal-safe: stop every thread's timer or event, and let go of
 * the ring buffers (a failure: their samples are lost). */
void rt_sampling_disarm(void)
{
	rt_store_release(&rt_g.sampling, 0);
	rt_disarm_all(1);
}

/*
 * Stop sampling and write the measured period.  The handler stays
 * installed: a signal already pending would otherwise kill the process
 * with the default action.
 */
void rt_sampling_stop(void)
{
	rt_wall_stop();
	rt_store_release(&rt_g.sampling, 0);
	rt_disarm_all(0);
	rt_arms_drain_all();  /* and then lets go of the rings */
	struct pct_header *h = rt_g.hdr;
	struct rt_ledger *l = &rt_g.led;
	if (h == NULL)
		return;  /* the range was lost (output.c, range_keep) */
	const struct rt_method *m = &rt_g.method;
	uint64_t samples = rt_load(&l->samples), dropped = rt_load(&l->dropped);
	uint64_t now = cpu_now_ns();
	/* the final counts, in case a store of two racing handlers landed
	 * out of order */
	rt_store_relaxed(rt_shared(&h->samples), samples);
	rt_store_relaxed(rt_shared(&h->dropped), dropped);
	rt_store_relaxed(rt_shared(&h->slots_used), rt_load(&l->slots_used));
	rt_store_relaxed(rt_shared(&h->threads_count), rt_load(&l->threads_count));
	rt_store_relaxed(rt_shared(&h->stacks_dropped), rt_load(&l->stacks_dropped));
	rt_store_relaxed(rt_shared(&h->untimed), rt_load(&l->untimed));
	rt_store_relaxed(rt_shared(&h->cpu_last_ns), now);
	if (samples + dropped > 0 && m->mechanism == PCT_MECH_CPU_TIMER && m->event != PCT_EVENT_WALL)
		h->period_ns = (now - l->cpu_start_ns) / (samples + dropped);
	else if (m->event == PCT_EVENT_WALL || m->mechanism == PCT_MECH_PERF)
		h->period_ns = m->period;
}

/* In a forked child (one thread, the caller): forget the parent's thread
 * cache and clock, and arm this thread. */
void rt_sampling_after_fork(void)
{
	self.tid = 0;
	self.slot = 0;
	header_method();
	rt_store_release(&rt_g.sampling, 1);
	if (rt_arm_thread(rt_gettid(), 1) != 0) {
		rt_store_release(&rt_g.sampling, 0);
		return;
	}
	rt_sig_mask_changed();
	if (rt_g.method.event == PCT_EVENT_WALL)
		rt_wall_start();
}
