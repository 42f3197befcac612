/*
 * wall.c - the wall event's sampler of blocked threads.
 *
 * Wall-clock time of a thread = time on a CPU + time off it.  The on-CPU
 * part comes from the thread's own timer or perf event like any CPU
 * sample (threads.c), with the same period.  The off-CPU part comes from
 * this thread, "pct-wall", which wakes once per period and reads, for
 * every other thread, /proc/self/task/TID/syscall: the kernel's view of a
 * blocked thread, "NR ARG1..ARG6 SP PC", PC being the user address the
 * thread will return to.  A thread that reads "running" is on a CPU (or
 * waiting for one) and is left to its own sampling source.
 *
 * A blocked thread is observed, never interrupted: no signal is sent to
 * it, so its read(2), poll(2) or nanosleep(2) cannot fail with EINTR
 * because of pct.  The sampler blocks every signal, so the program's
 * process-directed signals are never delivered to it.  If the sampler
 * wakes late, each blocked thread is charged one sample per period that
 * elapsed, so wall time is not lost to a busy machine.
 *
 * The sampler holds descriptors (/proc/self/task, and each TID/syscall
 * it reads) in a descriptor table of its own (close_range(2) with
 * CLOSE_RANGE_UNSHARE at its start, which copies none of the program's):
 * a program that closes every descriptor and opens its files again, or a
 * shell's `exec 5>log`, gets its own numbers, which the sampler can never
 * read, rewind or close.  Its warnings wait for a thread of the program to
 * print them (warn.c), since it has no standard error.
 *
 * Its cost scales with the threads that run, not with those that sleep.
 * A thread's CPU clock that has not moved since it was last seen blocked
 * means it is still blocked where it was (one clock read instead of
 * reading its syscall file), and such a thread is looked at again after
 * 1, 2, 4, ... up to 32 passes, being charged then the periods that
 * passed; a thread found to have run meanwhile is charged those periods,
 * less the CPU time it used, where it was blocked before.  The threads
 * are listed again at each pass while there are fewer than 64, else every
 * 64 passes, or 4 when pct's pthread_create() started one meanwhile.  A pass that
 * still costs more than an eighth of the period delays the next, so that
 * the sampler never uses more than an eighth of one CPU.
 *
 * Known gaps (libpct(3)): time spent runnable but waiting for a CPU is in
 * neither part (but for a thread woken and not yet run since it was last
 * seen blocked, charged where it was blocked); with perf events, kernel
 * time on a CPU is in neither part.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "arch.h"
#include "runtime.h"

#ifndef CLOSE_RANGE_UNSHARE
#define CLOSE_RANGE_UNSHARE (1U << 1)  /* linux/close_range.h, Linux 5.9 */
#endif
#ifndef SYS_close_range
#define SYS_close_range 436            /* Linux 5.9, every architecture (asm-generic/unistd.h) */
#endif

/*
 * One page shared by every process of a fork tree (MAP_SHARED, which
 * fork(2) keeps shared).  stop is set when a process of the tree cannot
 * make a process or thread for want of RLIMIT_NPROC (EAGAIN), which every
 * sampler of the tree counts against (libpct(3), RESOURCES); then every
 * sampler of the tree ends at its next pass, and none starts again.  live
 * counts the tree's samplers that have not ended (one killed with its
 * process is never taken off: stop_ns bounds the wait for them), zero_ns
 * is when it last fell to 0: a call that fails with EAGAIN is made again
 * while a sampler of the tree may still hold a slot (under load a
 * sampler's next pass can be tens of ms away: a loaded suite's 30 forks
 * at ulimit -u 40 got 23 when only the first failure was made again).
 */
struct wall_tree {
	_Atomic int stop;
	_Atomic int live;
	_Atomic uint64_t stop_ns, zero_ns;
};
static struct wall_tree *tree;
#define WALL_WAY_NS 2000000000ull      /* after stop, samplers are waited for at most 2 s */
#define WALL_GONE_NS 50000000ull       /* a returned thread's slot: 50 ms to leave the kernel */
static int sampler_stop_wait(void);
static uint64_t mono_ns(void);

/* The calling sampler thread ends: taken off the tree's live count. */
static void sampler_gone(void)
{
	if (tree && rt_sub(&tree->live, 1) == 1)
		rt_store(&tree->zero_ns, mono_ns());
}

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Read DIRFD/TID/LEAF into buf (NUL-terminated); length or -1. */
static ssize_t read_task_file(int dirfd, const char *tid, const char *leaf, char *buf, size_t cap)
{
	char path[64];
	size_t n = strlen(tid);
	if (n + strlen(leaf) + 2 > sizeof path)
		return -1;
	memcpy(path, tid, n);
	path[n] = '/';
	strcpy(path + n + 1, leaf);
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t r = read(fd, buf, cap - 1);
	close(fd);
	if (r < 0)
		return -1;
	buf[r] = '\0';
	return r;
}

/* The user PC of a blocked thread: the last field of its syscall file. */
static int hex_word(const char *c, uintptr_t *out)
{
	uintptr_t v = 0;
	if (strncmp(c, "0x", 2) != 0)
		return -1;
	for (c += 2; *c && *c != '\n' && *c != ' '; c++) {
		int d = *c >= '0' && *c <= '9' ? *c - '0' : *c >= 'a' && *c <= 'f' ? *c - 'a' + 10 : -1;
		if (d < 0)
			return -1;
		v = v * 16 + (uintptr_t)d;
	}
	*out = v;
	return 0;
}

/* The PC and stack pointer of a thread blocked in a system call: the last
 * two words of /proc/TID/syscall ("NR ARGS... SP PC", proc(5)). */
static int blocked_pc(const char *text, uintptr_t *pc, uintptr_t *sp)
{
	if (strncmp(text, "running", 7) == 0)
		return -1;
	const char *last = strrchr(text, ' ');
	if (last == NULL || hex_word(last + 1, pc) != 0 || *pc == 0)
		return -1;
	const char *prev = last;
	while (prev > text && prev[-1] != ' ')
		prev--;
	if (prev == text || hex_word(prev, sp) != 0)
		*sp = 0;
	return 0;
}

/* What the sampler knows of a thread between passes: a hash table by
 * tid, made again from each listing of /proc/self/task (two, so that the
 * new one carries the old one's state). */
struct seen {
	uint32_t tid;
	uint8_t skip;                  /* passes left before it is looked at again */
	uint8_t wait;                  /* passes between looks now: 1, 2, 4, ... WALL_WAIT_MAX */
	uint8_t blocked;               /* blocked at pc, sp when last looked at */
	uint64_t cpu_ns;               /* its CPU clock then */
	uint64_t owed;                 /* periods passed since, not yet charged */
	uintptr_t pc, sp;
};
#define WALL_SEEN 4096                 /* the file's thread table holds as many */
#define WALL_WAIT_MAX 32
#define WALL_FEW 64                    /* listed at every pass below this */
#define WALL_LIST_EVERY 64             /* passes between listings of many threads */
#define WALL_LIST_NEW 4                /* ... or this many, when pct started one meanwhile */
static struct seen seen_tab[2][WALL_SEEN];
static uint16_t seen_used[2][WALL_SEEN];  /* the slots each table uses, in listing order */
static unsigned seen_n[2];
static int seen_cur;

static struct seen *seen_slot(struct seen *t, uint32_t tid)
{
	for (uint32_t i = (tid * 2654435761u) & (WALL_SEEN - 1), k = 0; k < WALL_SEEN; k++, i = (i + 1) & (WALL_SEEN - 1))
		if (t[i].tid == tid || t[i].tid == 0)
			return &t[i];
	return NULL;
}

struct listing {
	uint32_t me;
	int old, now;
};

static int list_one(uint32_t tid, const char *name, void *arg)
{
	(void)name;
	struct listing *l = arg;
	if (tid == l->me)
		return 0;
	struct seen *to = seen_slot(seen_tab[l->now], tid), *from = seen_slot(seen_tab[l->old], tid);
	if (to == NULL || to->tid)  /* full, or listed twice */
		return 0;
	if (from && from->tid == tid)
		*to = *from;
	else
		*to = (struct seen){ .tid = tid };
	seen_used[l->now][seen_n[l->now]++] = (uint16_t)(to - seen_tab[l->now]);
	return 0;
}

/* List the threads again into the other table, cleared of its old
 * entries first (only those: a pass costs what the threads do). */
static void relist(int dirfd, uint32_t me)
{
	struct listing l = { me, seen_cur, !seen_cur };
	for (unsigned k = 0; k < seen_n[l.now]; k++)
		seen_tab[l.now][seen_used[l.now][k]] = (struct seen){ 0 };
	seen_n[l.now] = 0;
	rt_for_each_task(dirfd, list_one, &l);
	seen_cur = l.now;
}

/* Charge periods samples at pc (stack pointer sp) to blocked thread tid. */
static void charge(int dirfd, uint32_t tid, uintptr_t pc, uintptr_t sp, uint64_t periods)
{
	if (periods == 0 || (!rt_load_acquire(&rt_g.table_ready) && rt_output_create() != 0))
		return;
	uint32_t slot = rt_thread_find(tid);
	if (slot == 0) {
		char comm[32], name[16];
		const char *t = rt_utoa(tid, name + sizeof name - 1);
		name[sizeof name - 1] = '\0';
		ssize_t r = read_task_file(dirfd, t, "comm", comm, sizeof comm);
		if (r > 0 && comm[r - 1] == '\n')
			comm[r - 1] = '\0';
		slot = rt_thread_slot(tid, r > 0 ? comm : "?");
	}
	/* (not rt_sample: the process's CPU clock, which costs a walk over
	 * every thread, is the CPU samples' to show) */
	uint32_t tick = rt_sample_at(pc, slot, periods, rt_monotonic_ns());
	if (rt_g.stacks && sp) {
		/* a blocked thread's other registers are not known: CFI that
		 * needs them ends its stack early */
		uint64_t regs[ARCH_STACK_REGS] = { 0 };
		regs[ARCH_SP_INDEX] = sp;
		regs[ARCH_STACK_REGS - 1] = pc;
		rt_stack_record(regs, slot, periods, 0, tick);
	}
}

/* One look at thread e in a pass worth n periods. */
static void visit(int dirfd, struct seen *e, uint64_t n, uint64_t period)
{
	e->owed += n;
	if (e->skip) {
		e->skip--;
		return;
	}
	uint64_t cpu = rt_thread_cpu_ns(e->tid);
	if (cpu == 0)
		return;  /* gone (until the next listing) */
	if (e->blocked && cpu == e->cpu_ns) {
		/* it has not run: still blocked where it was */
		charge(dirfd, e->tid, e->pc, e->sp, e->owed);
		e->owed = 0;
		e->wait = e->wait ? (e->wait < WALL_WAIT_MAX ? e->wait * 2 : WALL_WAIT_MAX) : 1;
		e->skip = e->wait - 1;
		return;
	}
	/* it ran, or was not blocked: the periods owed from before this pass
	 * were spent blocked where it was, but for its CPU time */
	if (e->blocked && e->owed > n) {
		uint64_t ran = (cpu - e->cpu_ns + period - 1) / period, before = e->owed - n;
		charge(dirfd, e->tid, e->pc, e->sp, before > ran ? before - ran : 0);
	}
	char text[512], name[16];
	const char *t = rt_utoa(e->tid, name + sizeof name - 1);
	name[sizeof name - 1] = '\0';
	uintptr_t pc, sp;
	e->blocked = read_task_file(dirfd, t, "syscall", text, sizeof text) >= 0 && blocked_pc(text, &pc, &sp) == 0;
	if (e->blocked) {
		e->pc = pc;
		e->sp = sp;
		charge(dirfd, e->tid, pc, sp, n);
	}
	e->cpu_ns = cpu;
	e->owed = 0;
	e->wait = 0;
	e->skip = 0;
}

/* One pass over the threads: charge the blocked ones n periods if record
 * (list: list them again first).  Returns how many threads there are but
 * the sampler. */
static unsigned sample_blocked(int dirfd, uint32_t me, uint64_t n, uint64_t period, int record, int list)
{
	if (list)
		relist(dirfd, me);
	for (unsigned k = 0; record && k < seen_n[seen_cur]; k++)
		visit(dirfd, &seen_tab[seen_cur][seen_used[seen_cur][k]], n, period);
	return seen_n[seen_cur];
}

/* A descriptor table of the sampler's own, holding none of the program's
 * descriptors: close_range(2) with CLOSE_RANGE_UNSHARE (Linux 5.9), else
 * unshare(2) of CLONE_FILES and every descriptor of the copy closed.
 * 0, or -1 if neither works. */
static int private_descriptors(void)
{
	if (syscall(SYS_close_range, 0u, ~0u, CLOSE_RANGE_UNSHARE) == 0)
		return 0;
	if (syscall(SYS_unshare, CLONE_FILES) != 0)
		return -1;
	struct rlimit nofile;
	if (getrlimit(RLIMIT_NOFILE, &nofile) != 0)
		return -1;
	uint64_t table = 0, unused;
	/* the copy is as large as the program's table (FDSize), at most */
	if (rt_status_field("FDSize", &table, &unused) != 0 || table == 0)
		table = nofile.rlim_cur;
	for (uint64_t fd = 0; fd < table && fd < (1u << 20); fd++)
		close((int)fd);
	return 0;
}

/*
 * The main thread ended with pthread_exit(3): glibc calls exit(0) when
 * the last thread ends, so when the sampler is left alone it does that.
 * The main thread ended with a raw exit(2) (not exit_group): without pct,
 * the process ends when its last thread does, with the status of that
 * thread's exit.  So the sampler ends itself then, with the main thread's
 * status in case it is the last, after finishing the profile if it is
 * (alone: no other thread is left); off-CPU time of threads that outlive
 * the main thread is not sampled.  The main thread, a zombie, keeps its
 * status in field 52 of its stat file (exit_code, as waitpid(2) gives it;
 * proc(5)).
 */
static void end_if_main_gone(int dirfd, int alone)
{
	char name[16], text[1024];
	char *end = rt_utoa(rt_getpid(), name + sizeof name - 1);
	name[sizeof name - 1] = '\0';
	if (read_task_file(dirfd, end, "stat", text, sizeof text) < 0)
		return;
	const char *c = strrchr(text, ')');  /* after the command, which may hold anything */
	if (c == NULL || c[1] != ' ' || c[2] != 'Z')
		return;
	unsigned field = 2;
	long code = 0;
	for (; *c; c++)
		if (*c == ' ' && ++field == 52)
			code = strtol(c + 1, NULL, 10);
	if (field < 52)
		return;
	if (rt_load(&rt_g.main_pthread_exit)) {
		/* glibc ends the process with exit(0) when its last thread
		 * ends, and counts the sampler, which the main thread's
		 * pthread_exit stopped (rt_wall_main_exits); left alone all
		 * the same (a static program), the sampler ends the process
		 * with status 0, without the atexit handlers and stdio */
		if (alone) {
			pct_off();
			syscall(SYS_exit_group, 0);
		}
		return;
	}
	if (alone)
		pct_off();
	else
		rt_wall_stop();
	rt_store(&rt_g.wall_tid, 0);
	sampler_gone();
	rt_store(&rt_g.wall_alive, 0);
	syscall(SYS_exit, (int)((code >> 8) & 0xff));
}

static void *wall_main(void *arg)
{
	(void)arg;
	sigset_t old;
	rt_block_signals(&old);
	rt_bus_close(&old);  /* this thread's SIGBUS is opened for its passes only */
	/* but glibc's own (32, 33): setuid(2) and kin in a threaded process
	 * make every thread take SIGSETXID, and abort if one does not */
	uint64_t internal = (1ULL << 31) | (1ULL << 32);
	syscall(SYS_rt_sigprocmask, SIG_UNBLOCK, &internal, NULL, sizeof internal);
	/* and SIGBUS blocked but in its passes (rt_bus_open), so that one sent
	 * to the process while the program's threads block it stays pending
	 * instead of being taken here */
	sigset_t with_bus;
	sigemptyset(&with_bus);
	sigaddset(&with_bus, SIGBUS);
	syscall(SYS_rt_sigprocmask, SIG_BLOCK, &with_bus, NULL, (size_t)(_NSIG / 8));
	prctl(PR_SET_NAME, "pct-wall");
	uint32_t me = rt_gettid();
	rt_store(&rt_g.wall_tid, (int)me);
	/* no standard error from here: a thread of the program prints what
	 * this one has to say */
	rt_warn_deferred();
	int dirfd = private_descriptors() == 0 ? open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	if (dirfd < 0) {
		rt_say("cannot read /proc/self/task in a descriptor table of pct's own", NULL, errno,
		       "wall time shows CPU time only");
		sampler_gone();
		rt_store(&rt_g.wall_alive, 0);
		return NULL;
	}
	uint64_t period = rt_g.method.period, last = mono_ns(), next = last + period;
	uint32_t started = rt_load(&rt_g.threads_started) - 1;
	unsigned listed = 0;
	for (unsigned pass = 0; !rt_load(&rt_g.wall_stop); pass++) {
		struct timespec ts = { (time_t)(next / 1000000000u), (long)(next % 1000000000u) };
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		uint64_t now = mono_ns();
		/* the periods that ended since the last pass, one at least */
		uint64_t n = (now - last + period / 2) / period;
		if (n == 0)
			n = 1;
		last += n * period;
		next = last + period;
		if (rt_load(&rt_g.wall_stop) || (tree && rt_load(&tree->stop)))
			break;
		uint32_t s_now = rt_load(&rt_g.threads_started);
		int list = pass == 0 || seen_n[seen_cur] < WALL_FEW || pass - listed >= WALL_LIST_EVERY ||
			   (s_now != started && pass - listed >= WALL_LIST_NEW);
		if (list) {
			listed = pass;
			started = s_now;
		}
		uint64_t cost = rt_thread_cpu_ns(me);
		int record = rt_write_begin();
		if (record && rt_bus_pending()) {
			/* the program's SIGBUS waits, its threads blocking it: this
			 * pass records nothing rather than take it (rt_bus_pending) */
			rt_write_end();
			record = 0;
		}
		if (record)
			rt_bus_open(&with_bus);
		unsigned others = sample_blocked(dirfd, me, n, period, record, list);
		if (record) {
			/* blocked again (rt_bus_close does so only to send a kept
			 * one: a handler's mask comes back at its return) */
			syscall(SYS_rt_sigprocmask, SIG_BLOCK, &with_bus, NULL, (size_t)(_NSIG / 8));
			rt_bus_close(&with_bus);
			rt_write_end();
		}
		cost = rt_thread_cpu_ns(me) - cost;
		if (cost > period / 8)  /* at most an eighth of one CPU */
			next = now + cost * 8;
		end_if_main_gone(dirfd, others == 1);
	}
	close(dirfd);
	rt_store(&rt_g.wall_tid, 0);
	sampler_gone();
	rt_store(&rt_g.wall_alive, 0);
	return NULL;
}


/* Stop every sampler of the tree, first caller only (it warns): 1 if
 * this call set stop. */
static int tree_stop(void)
{
	if (tree == NULL || rt_xchg(&tree->stop, 1))
		return 0;
	rt_store(&tree->stop_ns, mono_ns());
	rt_say("the program needs the process slots (ulimit -u) that pct's wall sampler threads take", NULL, 0,
	       "they end, and off-CPU time is no longer sampled");
	return 1;
}

/* A call that makes a process or thread failed with EAGAIN (limits.c,
 * threads.c): if pct's wall samplers of this fork tree may be the cause,
 * they make way (this process's sampler ended, the others at their next
 * pass); 1 if the caller should try again, for at most 100 ms: at the
 * first such failure, and later ones while a sampler of the tree may
 * still hold a slot (live, or gone less than WALL_GONE_NS ago, within
 * WALL_WAY_NS of the first).  0 once they are gone: the program's own
 * EAGAIN is not delayed. */
int rt_wall_give_way(void)
{
	if (tree == NULL || rt_g.led.pid != rt_getpid())
		return 0;
	if (tree_stop()) {
		sampler_stop_wait();
		return 1;
	}
	sampler_stop_wait();
	uint64_t now = mono_ns();
	if (now - rt_load(&tree->stop_ns) >= WALL_WAY_NS)
		return 0;
	return rt_load(&tree->live) > 0 || now - rt_load(&tree->zero_ns) < WALL_GONE_NS;
}

/* Start the sampler thread.  0, or -1 after a warning. */
int rt_wall_start(void)
{
	if (tree == NULL) {
		void *p = mmap(NULL, sizeof *tree, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (p != MAP_FAILED) {
			tree = p;
			rt_mapped(p, sizeof *tree);
		}
	}
	if (tree && rt_load(&tree->stop))
		return 0;  /* made way for the program in this fork tree */
	pthread_t t;
	pthread_attr_t a;
	int probe = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (probe < 0) {
		rt_say("cannot read /proc/self/task", NULL, errno, "wall time shows CPU time only");
		return 0;
	}
	close(probe);
	rt_store(&rt_g.wall_stop, 0);
	rt_store(&rt_g.wall_tid, 0);
	rt_store(&rt_g.wall_alive, 1);
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&a, 64 * 1024);
	/* born with every signal blocked, SIGBUS too (the thread opens it
	 * for its passes only): none can land in it even before it runs */
	sigset_t old, bus;
	rt_block_signals(&old);
	sigemptyset(&bus);
	sigaddset(&bus, SIGBUS);
	syscall(SYS_rt_sigprocmask, SIG_BLOCK, &bus, NULL, (size_t)(_NSIG / 8));
	if (tree)
		rt_add(&tree->live, 1);
	int rc = rt_thread_spawn(&t, &a, wall_main, NULL);
	rt_restore_signals(&old);
	pthread_attr_destroy(&a);
	if (rc != 0) {
		sampler_gone();
		rt_store(&rt_g.wall_alive, 0);
		/* the tree is at RLIMIT_NPROC: its samplers make way (one
		 * warning for the tree), and CPU time is sampled on */
		if (rc == EAGAIN && tree) {
			tree_stop();
			return 0;
		}
		rt_warn("cannot start the wall-clock sampler thread", NULL, rc);
		return -1;
	}
	return 0;
}

/* Stop the sampler and wait until its thread has returned (at most 1 s,
 * the next wake-up being one period away).  1 if it was running. */
static int sampler_stop_wait(void)
{
	if (!rt_load(&rt_g.wall_alive) || rt_load(&rt_g.wall_stop))
		return 0;
	rt_wall_stop();
	struct timespec ms = { 0, 1000000 };
	for (int i = 0; i < 1000 && rt_load(&rt_g.wall_alive); i++)
		nanosleep(&ms, NULL);
	return 1;
}

/* The main thread calls pthread_exit(3) (sig.c): the sampler ends first. */
void rt_wall_main_exits(void)
{
	if (rt_g.led.pid == rt_getpid())
		sampler_stop_wait();
}

#ifndef RT_NO_INTERPOSE
static void sampler_again(void)
{
	if (rt_load_acquire(&rt_g.sampling))
		rt_wall_start();
}

/*
 * unshare(2) and setns(2) of a user namespace (and of what implies
 * CLONE_FS) refuse a process with more than one thread (EINVAL).  With
 * the wall event, pct's sampler is such a thread: when one of them fails
 * so, the sampler is stopped, the call is made again once the sampler is
 * gone (tried for 100 ms), and the sampler is started again.
 */
static int without_sampler(int (*call)(int, int), int a, int b)
{
	int rc = call(a, b), e = errno;
	uint64_t threads = 0, unused;
	/* only where the sampler is the one thread too many (not in a vfork
	 * child, whose sampler is the parent's) */
	if (rc == 0 || e != EINVAL || rt_g.led.pid != rt_getpid() ||
	    rt_status_field("Threads", &threads, &unused) != 0 || threads != 2 || !sampler_stop_wait()) {
		errno = e;
		return rc;
	}
	/* the thread has returned, but may not have left the kernel yet */
	struct timespec ms = { 0, 1000000 };
	for (int i = 0; i < 100; i++) {
		rc = call(a, b);
		e = errno;
		if (rc == 0 || e != EINVAL)
			break;
		nanosleep(&ms, NULL);
	}
	sampler_again();
	errno = e;
	return rc;
}

/*
 * Credentials are a thread's own: capset(2), and PR_SET_KEEPCAPS,
 * PR_SET_SECUREBITS, PR_CAPBSET_DROP, PR_CAP_AMBIENT and
 * PR_SET_NO_NEW_PRIVS of prctl(2) (pct_on.c) change the calling thread's only, while glibc's
 * setuid(2) and kin change every thread's and abort the process if one
 * fails (setpriv(1) drops its capabilities so).  After such a change the
 * sampler is started again from the changed thread, whose credentials a
 * new thread inherits.
 */
void rt_wall_same_credentials(void)
{
	if (rt_g.led.pid == rt_getpid() && sampler_stop_wait())
		sampler_again();
}

static int call_unshare(int flags, int unused)
{
	static int (*real)(int);
	(void)unused;
	if (real == NULL)
		real = (int (*)(int))dlsym(RTLD_NEXT, "unshare");
	return real ? real(flags) : (int)syscall(SYS_unshare, flags);  /* static: no dlsym */
}

static int call_setns(int fd, int nstype)
{
	static int (*real)(int, int);
	if (real == NULL)
		real = (int (*)(int, int))dlsym(RTLD_NEXT, "setns");
	return real ? real(fd, nstype) : (int)syscall(SYS_setns, fd, nstype);
}

PUBLIC int unshare(int flags)
{
	return without_sampler(call_unshare, flags, 0);
}

PUBLIC int setns(int fd, int nstype)
{
	return without_sampler(call_setns, fd, nstype);
}

PUBLIC int capset(void *header, void *data)
{
	static int (*real)(void *, void *);
	if (real == NULL)
		real = (int (*)(void *, void *))dlsym(RTLD_NEXT, "capset");
	int rc = real ? real(header, data) : (int)syscall(SYS_capset, header, data), e = errno;
	if (rc == 0)
		rt_wall_same_credentials();
	errno = e;
	return rc;
}

#endif

/* Ask the sampler to stop; it exits at its next wake-up.  Not joined, so
 * that exit is not delayed by up to one period. */
void rt_wall_stop(void)
{
	rt_store(&rt_g.wall_stop, 1);
}
