/*
 * sample.c - the sampling path: the SIGPROF handler and the count table.
 *
 * A POSIX timer on CLOCK_PROCESS_CPUTIME_ID makes the kernel send SIGPROF
 * each time the process has used another period of CPU time (user +
 * system, all threads): ITIMER_PROF's semantics.  It is not setitimer(2)
 * because interval timers survive execve(2) while the handler does not: a
 * profiled shell that execs a program would kill it with SIGPROF.  POSIX
 * timers are deleted at exec and not inherited by fork.  The kernel checks
 * CPU timers on its scheduler tick, so one signal per tick is the most it
 * delivers (250 Hz on a CONFIG_HZ=250 kernel) whatever shorter period is
 * asked; the file therefore records the period measured with
 * CLOCK_PROCESS_CPUTIME_ID, not the one requested.
 *
 * The table is open addressing with linear probing over 64-bit keys
 * (pct_format.h).  Slots are claimed with compare-and-swap and counts
 * bumped with atomic adds, so handlers running at once on several threads
 * need no lock, and every count is already in the shared file mapping when
 * the handler returns: a SIGKILL loses nothing that was sampled.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "arch.h"
#include "runtime.h"

#define A64(p) ((_Atomic uint64_t *)(p))

/* async-signal-safe */
static uint64_t cpu_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* async-signal-safe: add one sample at key. */
static void table_count(uint64_t key)
{
	struct pct_header *h = rt_g.hdr;
	/* Fibonacci hashing: the top bits of key * 2^64/phi. */
	uint64_t i = (key * UINT64_C(0x9e3779b97f4a7c15)) >> rt_g.slots_shift;

	for (int probe = 0; probe < RT_MAX_PROBES; probe++, i = (i + 1) & rt_g.slots_mask) {
		struct pct_entry *e = &rt_g.table[i];
		uint64_t k = atomic_load_explicit(A64(&e->key), memory_order_relaxed);
		if (k == 0) {
			if (atomic_load_explicit(A64(&h->slots_used), memory_order_relaxed) >=
			    rt_g.slots_limit)
				break;
			if (atomic_compare_exchange_strong_explicit(A64(&e->key), &k, key,
								    memory_order_relaxed,
								    memory_order_relaxed)) {
				atomic_fetch_add_explicit(A64(&h->slots_used), 1, memory_order_relaxed);
				k = key;
			}
		}
		if (k == key) {
			atomic_fetch_add_explicit(A64(&e->count), 1, memory_order_relaxed);
			atomic_fetch_add_explicit(A64(&h->samples), 1, memory_order_relaxed);
			return;
		}
	}
	atomic_fetch_add_explicit(A64(&h->dropped), 1, memory_order_relaxed);
}

/* async-signal-safe: charge one sample to pc. */
void rt_sample(uintptr_t pc)
{
	uint64_t key;

	if (!atomic_load_explicit(&rt_g.table_ready, memory_order_acquire) && rt_output_create() != 0)
		return;
	int m = rt_module_find(pc);
	if (m < 0)
		m = rt_modules_add_mapping_of(pc);
	if (m >= 0) {
		const struct pct_module *mod = &rt_g.modules[m];
		key = pct_key((uint32_t)m + 1, pc - mod->start + mod->file_offset);
	} else {
		key = pct_key(PCT_KEY_UNKNOWN_MODULE, pc);
	}
	table_count(key);
	atomic_store_explicit(A64(&rt_g.hdr->cpu_last_ns), cpu_now_ns(), memory_order_relaxed);
}

/* async-signal-safe */
static void on_sigprof(int sig, siginfo_t *si, void *uc)
{
	int saved = errno;
	(void)sig;
	(void)si;
	if (atomic_load_explicit(&rt_g.sampling, memory_order_acquire))
		rt_sample(arch_pc(uc));
	errno = saved;
}

static timer_t cpu_timer;

/*
 * Install the handler and arm the CPU-time timer at hz.  Steps aside (returns -1
 * after one warning) if the program already uses SIGPROF or ITIMER_PROF,
 * so that its own profiling keeps working exactly as without pct.
 */
int rt_sampling_start(unsigned hz)
{
	struct sigaction old, sa;
	struct itimerval it;
	struct itimerspec ts;
	struct sigevent sev;

	if (sigaction(SIGPROF, NULL, &old) != 0 || getitimer(ITIMER_PROF, &it) != 0) {
		rt_warn("cannot inspect SIGPROF", NULL, errno);
		return -1;
	}
	if ((old.sa_flags & SA_SIGINFO) || (old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN)) {
		rt_warn("SIGPROF already has a handler in this program; pct steps aside", NULL, 0);
		return -1;
	}
	if (it.it_value.tv_sec || it.it_value.tv_usec) {
		rt_warn("ITIMER_PROF is already armed in this program; pct steps aside", NULL, 0);
		return -1;
	}

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_sigprof;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGPROF, &sa, NULL) != 0) {
		rt_warn("cannot install the SIGPROF handler", NULL, errno);
		return -1;
	}

	uint64_t period_us = 1000000u / hz;
	if (period_us == 0)
		period_us = 1;
	rt_g.hdr->period_requested_ns = period_us * 1000u;
	rt_g.hdr->cpu_start_ns = cpu_now_ns();
	rt_g.hdr->cpu_last_ns = rt_g.hdr->cpu_start_ns;
	atomic_store_explicit(&rt_g.sampling, 1, memory_order_release);

	memset(&sev, 0, sizeof sev);
	sev.sigev_notify = SIGEV_SIGNAL;
	sev.sigev_signo = SIGPROF;
	ts.it_interval.tv_sec = (time_t)(period_us / 1000000u);
	ts.it_interval.tv_nsec = (long)(period_us % 1000000u) * 1000;
	ts.it_value = ts.it_interval;
	if (timer_create(CLOCK_PROCESS_CPUTIME_ID, &sev, &cpu_timer) != 0) {
		atomic_store_explicit(&rt_g.sampling, 0, memory_order_release);
		rt_warn("cannot create a CPU-time timer", NULL, errno);
		return -1;
	}
	if (timer_settime(cpu_timer, 0, &ts, NULL) != 0) {
		atomic_store_explicit(&rt_g.sampling, 0, memory_order_release);
		timer_delete(cpu_timer);
		rt_warn("cannot arm the CPU-time timer", NULL, errno);
		return -1;
	}
	return 0;
}

/* async-signal-safe: stop the timer (timer_settime is on POSIX's list). */
void rt_sampling_disarm(void)
{
	struct itimerspec off;
	memset(&off, 0, sizeof off);
	atomic_store_explicit(&rt_g.sampling, 0, memory_order_release);
	timer_settime(cpu_timer, 0, &off, NULL);
}

/*
 * Disarm the timer and stop recording.  The handler stays installed: a
 * SIGPROF already pending would otherwise kill the process with the
 * default action.
 */
void rt_sampling_stop(void)
{
	timer_delete(cpu_timer);
	atomic_store_explicit(&rt_g.sampling, 0, memory_order_release);
	struct pct_header *h = rt_g.hdr;
	uint64_t n = atomic_load_explicit(A64(&h->samples), memory_order_relaxed) +
		     atomic_load_explicit(A64(&h->dropped), memory_order_relaxed);
	uint64_t now = cpu_now_ns();
	atomic_store_explicit(A64(&h->cpu_last_ns), now, memory_order_relaxed);
	if (n > 0)
		h->period_ns = (now - h->cpu_start_ns) / n;
}
