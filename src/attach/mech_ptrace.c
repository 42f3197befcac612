/*
 * mech_ptrace.c - the ptrace mechanism, for where perf events are
 * refused (kernel.perf_event_paranoid 3 or 4 for non-root users).
 *
 * Each thread is seized (PTRACE_SEIZE: no stop, no signal, no change the
 * thread or its parent can see), with the threads and processes it
 * creates auto-attached (PTRACE_O_TRACECLONE, TRACEFORK, TRACEVFORK) and
 * its execs reported (TRACEEXEC).  A CPU-time timer on each process's
 * clock (clock_getcpuclockid(3), timer_create(2) to this thread) wakes
 * the sampler each period of the process's CPU time, at most once per
 * kernel tick; then every thread whose own CPU time
 * (/proc/PID/task/TID/schedstat, its first field) has passed its next
 * due point (a random phase, then one period apart) is sampled:
 *
 *   - if /proc/PID/task/TID/syscall says it is running, it is stopped
 *     with PTRACE_INTERRUPT; at its stop its registers are read (and,
 *     with -g, its stack: process_vm_readv), and PTRACE_CONT lets it go
 *     on;
 *   - if it has just blocked (it ran past its due point, then entered a
 *     system call before the sampler woke), it is not interrupted, and
 *     the sample is charged where it waits, the system call's return
 *     address (counted in the summary: the mechanism's bias).
 *
 * Never harming the target:
 *   - Group-stops (SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU) are kept: such a
 *     stop is left in force with PTRACE_LISTEN, and the real parent's
 *     wait sees it as without pct (the kernel notifies it apart from the
 *     tracer).  Signals are passed on as they came, siginfo unchanged.
 *   - A system call that returns EINTR because of our interrupt (those
 *     the kernel does not restart when no handler runs: epoll_wait,
 *     sigtimedwait, a socket with a timeout...) is seen at the stop
 *     (orig_rax >= 0, rax == -EINTR, no signal pending for the thread)
 *     and restarted before the thread sees it, as the kernel restarts
 *     ERESTARTSYS (the instruction pointer moved back over the syscall
 *     instruction).  A thread blocked in a system call is never
 *     interrupted, so only one that enters it in the instant between the
 *     check and the interrupt is restarted.  (x86_64 only: aarch64's
 *     ptrace gives no orig_x0.)
 *   - Detaching is the end of the sampler thread: the kernel detaches
 *     every tracee of a thread that exits, resuming those in a ptrace
 *     stop (PTRACE_INTERRUPT's included) and leaving group-stops in
 *     force, as when pct is killed.  Before it ends, the sampler waits
 *     (100 ms at most) for the stops of interrupts it sent, and lets them
 *     go.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "attach_int.h"
#include "profile.h"
#include "util.h"

#define OPTS (PTRACE_O_TRACECLONE | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | PTRACE_O_TRACEEXEC)
#define TIMER_SIG (SIGRTMIN + 5)

struct pt_st {
	int sigfd;
	uint64_t rnd;                  /* xorshift state for the phases */
	uint64_t next_full;            /* when every thread is looked at, whatever the timers */
	void *stack;                   /* a stack copy's buffer */
};

static uint64_t rnd_next(struct pt_st *ps)
{
	uint64_t x = ps->rnd;
	x ^= x << 13, x ^= x >> 7, x ^= x << 17;
	return ps->rnd = x;
}

/* A CPU-time timer on p's clock, firing each period of its CPU time to
 * the sampler thread, the first at a random point of the first period. */
static void arm_timer(struct session *s, struct aproc *p)
{
	struct pt_st *ps = s->mech;
	clockid_t c;
	if (p->have_timer || clock_getcpuclockid((pid_t)p->pid, &c) != 0)
		return;
	struct sigevent ev;
	memset(&ev, 0, sizeof ev);
	ev.sigev_notify = SIGEV_THREAD_ID;
	ev.sigev_signo = TIMER_SIG;
	ev.sigev_value.sival_int = (int)p->pid;
	ev._sigev_un._tid = (pid_t)s->self_tid;
	if (timer_create(c, &ev, &p->timer) != 0)
		return;
	p->have_timer = 1;
	uint64_t first = 1 + rnd_next(ps) % s->o.period;
	struct itimerspec its = { { (time_t)(s->o.period / 1000000000u), (long)(s->o.period % 1000000000u) },
				  { (time_t)(first / 1000000000u), (long)(first % 1000000000u) } };
	timer_settime(p->timer, 0, &its, NULL);
}

static void disarm_timer(struct aproc *p)
{
	if (p->have_timer)
		timer_delete(p->timer);
	p->have_timer = 0;
}

/* Start pacing thread t: its CPU time now, and a random first due point. */
static void pace(struct session *s, struct athread *t)
{
	struct pt_st *ps = s->mech;
	if (t->stat_fd < 0)
		t->stat_fd = proc_schedstat_open(t->proc->pid, t->tid);
	int64_t now = t->stat_fd >= 0 ? proc_schedstat(t->stat_fd) : 0;
	t->due_ns = (uint64_t)(now > 0 ? now : 0) + 1 + rnd_next(ps) % s->o.period;
}

static struct athread *new_thread(struct session *s, struct aproc *p, uint32_t tid, int state)
{
	struct athread *t = sess_thread_new(s, p, tid);
	t->state = state;
	pace(s, t);
	return t;
}

/* The process of a task we were told of (auto-attached, or its clone
 * event): found by its thread group, made if new (its maps, read while it
 * is stopped at its first stop, are its parent's copy). */
static struct aproc *proc_of_task(struct session *s, uint32_t tid, uint32_t parent_pid)
{
	long tgid = proc_status_num(tid, "Tgid");
	if (tgid <= 0)
		return NULL;
	struct aproc *p = sess_proc(s, (uint32_t)tgid);
	if (p)
		return p;
	long pp = proc_status_num((uint32_t)tgid, "PPid");
	struct aproc *parent = sess_proc(s, parent_pid);
	p = sess_proc_new(s, (uint32_t)tgid, pp > 0 ? (uint32_t)pp : parent_pid, parent, PROC_SCAN | PROC_FORKED);
	arm_timer(s, p);
	return p;
}

#if defined(__x86_64__)
struct regs {
	struct user_regs_struct r;
};
static int get_regs(uint32_t tid, struct regs *r)
{
	return ptrace(PTRACE_GETREGS, tid, 0, &r->r) == 0 ? 0 : -1;
}
static uint64_t regs_pc(const struct regs *r)
{
	return r->r.rip;
}
static int regs_in_syscall(uint32_t tid, const struct regs *r)
{
	(void)tid;
	return (int64_t)r->r.orig_rax >= 0;
}
static uint64_t regs_sp(const struct regs *r)
{
	return r->r.rsp;
}
static void regs_dwarf(const struct regs *r, uint64_t *d)
{
	const struct user_regs_struct *g = &r->r;
	uint64_t v[ATTACH_REGS] = { g->rax, g->rdx, g->rcx, g->rbx, g->rsi, g->rdi, g->rbp, g->rsp, g->r8, g->r9,
				    g->r10, g->r11, g->r12, g->r13, g->r14, g->r15, g->rip };
	memcpy(d, v, sizeof v);
}
/* A system call our stop made fail with EINTR (see above): restarted.
 * 1 if it was. */
static int restart_eintr(uint32_t pid, uint32_t tid, struct regs *r)
{
	if ((int64_t)r->r.orig_rax < 0 || (int64_t)r->r.rax != -EINTR)
		return 0;
	/* a signal on its way to a handler makes EINTR the program's */
	char path[80], buf[4096];
	snprintf(path, sizeof path, "/proc/%u/task/%u/status", pid, tid);
	FILE *f = fopen(path, "re");
	unsigned long long pnd = 0, shd = 0, blk = 0, v;
	while (f && fgets(buf, sizeof buf, f)) {
		if (sscanf(buf, "SigPnd: %llx", &v) == 1)
			pnd = v;
		else if (sscanf(buf, "ShdPnd: %llx", &v) == 1)
			shd = v;
		else if (sscanf(buf, "SigBlk: %llx", &v) == 1)
			blk = v;
	}
	if (f)
		fclose(f);
	if ((pnd | shd) & ~blk)
		return 0;
	r->r.rax = r->r.orig_rax;
	r->r.rip -= 2;                 /* syscall is 0f 05 (and int $0x80 cd 80) */
	return ptrace(PTRACE_SETREGS, tid, 0, &r->r) == 0;
}
#elif defined(__aarch64__)
struct regs {
	struct user_pt_regs r;
};
static int get_regs(uint32_t tid, struct regs *r)
{
	struct iovec io = { &r->r, sizeof r->r };
	return ptrace(PTRACE_GETREGSET, tid, (void *)NT_PRSTATUS, &io) == 0 ? 0 : -1;
}
static uint64_t regs_pc(const struct regs *r)
{
	return r->r.pc;
}
static int regs_in_syscall(uint32_t tid, const struct regs *r)
{
	(void)r;
	int nr = -1;
	struct iovec io = { &nr, sizeof nr };
	return ptrace(PTRACE_GETREGSET, tid, (void *)NT_ARM_SYSTEM_CALL, &io) == 0 && nr >= 0;
}
static uint64_t regs_sp(const struct regs *r)
{
	return r->r.sp;
}
static void regs_dwarf(const struct regs *r, uint64_t *d)
{
	for (int i = 0; i < 31; i++)
		d[i] = r->r.regs[i];
	d[31] = r->r.sp;
	d[32] = r->r.pc;
}
static int restart_eintr(uint32_t pid, uint32_t tid, struct regs *r)
{
	(void)pid, (void)tid, (void)r;
	return 0;
}
#endif

/*
 * Thread t is stopped at our interrupt: take its sample, then let it go.
 *
 * A thread that was waiting for a CPU when interrupted stops where it
 * was preempted.  In user mode that is where an interrupt (the tick, a
 * wakeup's IPI) found it: a place its CPU time picks.  At the exit of a
 * system call it is a place the scheduler picks: one that charges the
 * thread its time (clock_gettime of a CPU clock, a context switch) ends
 * its slice there on a busy machine, and the thread waits there, while
 * the period that fell due was spent before, at a place not known.  So a
 * stop at a system call's exit (orig_rax >= 0) after the kernel gave the
 * thread a CPU again (schedstat's pcount moved since the interrupt) is
 * not a sample: its period is counted as dropped.  (Measured with
 * attach-truth's 3 ms turns on the 2-CPU test machine at load 8: 45% of
 * the samples landed in clock_gettime's system call when such stops were
 * samples.  pct-record(1), ATTACHING, gives what remains of the bias.)
 */
/* Copy up to len bytes of pid's stack from sp into buf: as far as it is
 * mapped (one remote piece per page, so that the copy stops at the first
 * page that is not, where a single piece would fail whole).  Its length. */
static uint32_t copy_stack(uint32_t pid, uint64_t sp, void *buf, uint32_t len)
{
	struct iovec l = { buf, len }, rm[PROFILE_STACK_BYTES_MAX / PCT_PAGE + 2];
	size_t n = 0;
	for (uint64_t at = sp, end = sp + len; at < end && n < sizeof rm / sizeof rm[0]; n++) {
		uint64_t next = (at & ~(uint64_t)(PCT_PAGE - 1)) + PCT_PAGE;
		if (next > end)
			next = end;
		rm[n] = (struct iovec){ (void *)(uintptr_t)at, (size_t)(next - at) };
		at = next;
	}
	ssize_t got = process_vm_readv((pid_t)pid, &l, 1, rm, (unsigned long)n, 0);
	return got > 0 ? (uint32_t)got : 0;
}

static void take_sample(struct session *s, struct athread *t)
{
	struct pt_st *ps = s->mech;
	struct regs r;
	uint64_t now = mono_now(), runs = 0;
	int have = get_regs(t->tid, &r) == 0, sample = have;
	if (have && regs_in_syscall(t->tid, &r) && t->stat_fd >= 0 && proc_schedstat_runs(t->stat_fd, &runs) >= 0 &&
	    runs != t->runs) {
		sample = 0;
		sess_dropped(s, t, 1, now);
		s->res.off_cpu++;
	}
	uint64_t pc = 0, sp = 0, d[ATTACH_REGS];
	uint32_t got = 0;
	if (sample) {
		pc = regs_pc(&r);
		sp = regs_sp(&r);
		regs_dwarf(&r, d);
		if (s->o.stack_bytes)
			got = copy_stack(t->proc->pid, sp, ps->stack, s->o.stack_bytes);
	}
	if (have && restart_eintr(t->proc->pid, t->tid, &r))
		s->res.eintr_restarted++;
	/* let it go first, then file the sample */
	t->state = TH_RUNNING;
	ptrace(PTRACE_CONT, t->tid, 0, 0);
	uint64_t end = mono_now();
	s->res.stop_ns += end - t->stop_at;
	s->res.held_ns += end - now;
	if (sample)
		sess_sample(s, t, pc, t->weight, now, s->o.stack_bytes ? d : NULL, sp, ps->stack, got);
}

static int is_stop_signal(int sig)
{
	return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

/* One wait status of tracee tid. */
static void on_status(struct session *s, uint32_t tid, int st)
{
	struct athread *t = sess_thread(s, tid);
	if (WIFEXITED(st) || WIFSIGNALED(st)) {
		if (t) {
			struct aproc *p = t->proc;
			sess_thread_gone(s, t);
			if (p->nthreads_alive == 0 || tid == p->pid) {
				/* the leader is reported last (or alone, at exit_group) */
				for (size_t i = 0; i < s->nthreads; i++)
					if (s->threads[i]->proc == p)
						sess_thread_gone(s, s->threads[i]);
				disarm_timer(p);
				sess_proc_gone(s, p, mono_now());
			}
		}
		return;
	}
	if (!WIFSTOPPED(st))
		return;
	int sig = WSTOPSIG(st), event = (st >> 16) & 0xff;
	if (t == NULL) {
		/* auto-attached: its first stop, perhaps before its parent's event */
		struct aproc *p = proc_of_task(s, tid, 0);
		if (p == NULL) {
			/* let it go, its signal with it */
			ptrace(PTRACE_CONT, tid, 0, (void *)(uintptr_t)(event == 0 ? sig : 0));
			return;
		}
		t = new_thread(s, p, tid, TH_NEW);
	}
	switch (event) {
	case PTRACE_EVENT_STOP:
		if (is_stop_signal(sig)) {
			/* a group-stop: kept so, as without us */
			if (t->state == TH_INTERRUPTING) {
				t->state = TH_GROUP_STOP;
				struct regs r;
				if (get_regs(tid, &r) == 0)
					sess_sample(s, t, regs_pc(&r), t->weight, mono_now(), NULL, 0, NULL, 0);
				s->res.stop_ns += mono_now() - t->stop_at;
			}
			t->state = TH_GROUP_STOP;
			ptrace(PTRACE_LISTEN, tid, 0, 0);
			return;
		}
		if (t->state == TH_INTERRUPTING) {
			take_sample(s, t);
			return;
		}
		if (t->state == TH_NEW || t->state == TH_GROUP_STOP)
			pace(s, t);   /* its CPU time from now on */
		t->state = TH_RUNNING;
		ptrace(PTRACE_CONT, tid, 0, 0);
		return;
	case PTRACE_EVENT_CLONE:
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK: {
		unsigned long child = 0;
		if (ptrace(PTRACE_GETEVENTMSG, tid, 0, &child) == 0 && child && sess_thread(s, (uint32_t)child) == NULL) {
			struct aproc *p = proc_of_task(s, (uint32_t)child, t->proc->pid);
			if (p)
				new_thread(s, p, (uint32_t)child, TH_NEW);
		}
		ptrace(PTRACE_CONT, tid, 0, 0);
		return;
	}
	case PTRACE_EVENT_EXEC: {
		unsigned long former = 0;
		ptrace(PTRACE_GETEVENTMSG, tid, 0, &former);
		struct aproc *p = t->proc;
		/* the other threads are gone with the old program; the one that
		 * exec'd now has the leader's tid */
		for (size_t i = 0; i < s->nthreads; i++)
			if (s->threads[i]->proc == p && s->threads[i] != t)
				sess_thread_gone(s, s->threads[i]);
		p->nthreads_alive = 1;
		if (t->stat_fd >= 0)
			close(t->stat_fd);
		t->stat_fd = -1;
		proc_comm(p->pid, tid, t->name);
		pace(s, t);
		sess_exec(s, p, mono_now(), 1);
		if (t->state == TH_INTERRUPTING)
			t->state = TH_RUNNING;   /* its interrupt went with the old program */
		ptrace(PTRACE_CONT, tid, 0, 0);
		return;
	}
	case 0:
		/* a signal on its way: passed on as it came */
		ptrace(PTRACE_CONT, tid, 0, (void *)(uintptr_t)sig);
		return;
	default:
		ptrace(PTRACE_CONT, tid, 0, 0);
		return;
	}
}

/* The command has ended: reap it, with its rusage (the caller stops
 * passing signals on first). */
static void reap_command(struct session *s)
{
	char path[64], buf[1024];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)s->cmd_pid);
	FILE *f = fopen(path, "re");
	if (f) {
		size_t n = fread(buf, 1, sizeof buf - 1, f);
		buf[n] = '\0';
		fclose(f);
		char *c = strrchr(buf, ')');
		unsigned long long ut, stt;
		long tick = sysconf(_SC_CLK_TCK);
		if (c && tick > 0 && sscanf(c + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &stt) == 2)
			s->res.own_ns = (uint64_t)((ut + stt) * (1e9 / (double)tick));
	}
	struct aproc *cp = sess_proc(s, (uint32_t)s->cmd_pid);
	if (cp)
		sess_proc_cpu_final(s, cp, proc_cpu_ns(cp->pid));
	if (s->unfwd)
		s->unfwd();
	while (wait4(s->cmd_pid, &s->res.status, __WALL, &s->res.ru) < 0 && errno == EINTR)
		;
	s->cmd_done = 1;
	struct aproc *p = sess_proc(s, (uint32_t)s->cmd_pid);
	if (p) {
		for (size_t i = 0; i < s->nthreads; i++)
			if (s->threads[i]->proc == p)
				sess_thread_gone(s, s->threads[i]);
		disarm_timer(p);
		sess_proc_gone(s, p, mono_now());
	}
}

/* Every wait status there is now. */
static void reap_all(struct session *s)
{
	for (int n = 0; n < 100000; n++) {
		siginfo_t si;
		memset(&si, 0, sizeof si);
		if (waitid(P_ALL, 0, &si, WEXITED | WSTOPPED | WNOHANG | WNOWAIT | __WALL) != 0 || si.si_pid == 0)
			return;
		if (s->cmd_pid && si.si_pid == s->cmd_pid && !s->cmd_done &&
		    (si.si_code == CLD_EXITED || si.si_code == CLD_KILLED || si.si_code == CLD_DUMPED)) {
			reap_command(s);
			continue;
		}
		if (si.si_code == CLD_EXITED || si.si_code == CLD_KILLED || si.si_code == CLD_DUMPED) {
			/* a process's end: its CPU time, read before it is let go */
			struct aproc *p = sess_proc(s, (uint32_t)si.si_pid);
			if (p)
				sess_proc_cpu_final(s, p, proc_cpu_ns(p->pid));
		}
		int st;
		pid_t r = waitpid(si.si_pid, &st, __WALL | WNOHANG);
		if (r == si.si_pid)
			on_status(s, (uint32_t)r, st);
		else if (r < 0 && errno == ECHILD)
			return;
	}
}

/* Sample the threads of p whose CPU time has passed their due point. */
static void sample_due(struct session *s, struct aproc *p)
{
	uint64_t now = mono_now();
	int mine = sched_getcpu();
	for (size_t i = 0; i < s->nthreads; i++) {
		struct athread *t = s->threads[i];
		if (t->proc != p || t->state != TH_RUNNING || t->stat_fd < 0)
			continue;
		uint64_t runs;
		int64_t cpu = proc_schedstat_runs(t->stat_fd, &runs);
		if (cpu < 0 || (uint64_t)cpu < t->due_ns)
			continue;
		/* one sample, of one period, wherever the thread is found: the
		 * periods passed since are counted as dropped.  (Charging them
		 * all to that one place biased the shares by several points,
		 * measured with attach-truth at load 8: a late wake's position
		 * is not independent of how late it is.) */
		uint64_t periods = 1 + ((uint64_t)cpu - t->due_ns) / s->o.period;
		t->due_ns += periods * s->o.period;
		if (periods > 1)
			sess_dropped(s, t, periods - 1, now);
		uint64_t pc, sp;
		int b = proc_blocked_at(p->pid, t->tid, &pc, &sp);
		if (b < 0)
			continue;
		if (b == 1) {
			/* it blocked since: charged where it waits, not woken */
			uint64_t d[ATTACH_REGS] = { 0 };
			d[ATTACH_SP] = sp;
			d[ATTACH_REGS - 1] = pc;
			sess_sample(s, t, pc, 1, now, s->o.stack_bytes ? d : NULL, sp, NULL, 0);
			s->res.blocked_at_due++;
			continue;
		}
		if (ptrace(PTRACE_INTERRUPT, t->tid, 0, 0) != 0)
			continue;
		t->state = TH_INTERRUPTING;
		t->weight = 1;
		t->runs = runs;
		t->stop_at = mono_now();
		t->on_our_cpu = mine >= 0 && proc_last_cpu(p->pid, t->tid) == mine;
	}
}

/* Seize every thread of p, again until no new one shows: 0, or -1 with
 * errno if not even the first could be. */
static int seize_all(struct session *s, struct aproc *p)
{
	int any = 0, err = 0;
	for (int round = 0; round < 50; round++) {
		uint32_t *tids;
		long n = proc_tids(p->pid, &tids);
		int fresh = 0;
		for (long i = 0; i < n; i++) {
			if (sess_thread(s, tids[i]))
				continue;
			if (ptrace(PTRACE_SEIZE, tids[i], 0, (void *)(uintptr_t)OPTS) == 0) {
				new_thread(s, p, tids[i], TH_RUNNING);
				any = fresh = 1;
			} else if (errno == EPERM && proc_status_num(tids[i], "TracerPid") == (long)s->self_tid) {
				/* auto-attached already (a thread it made): its stop is on its way */
				new_thread(s, p, tids[i], TH_NEW);
				fresh = 1;
			} else if (errno != ESRCH) {
				err = errno;
			}
		}
		free(tids);
		if (!fresh)
			break;
	}
	if (!any)
		errno = err ? err : ESRCH;
	return any ? 0 : -1;
}

static int pt_start(struct session *s)
{
	struct pt_st *ps = xcalloc(1, sizeof *ps);
	s->mech = ps;
	if (getrandom(&ps->rnd, sizeof ps->rnd, 0) != (ssize_t)sizeof ps->rnd || ps->rnd == 0)
		ps->rnd = (uint64_t)mono_now() | 1;
	ps->stack = s->o.stack_bytes ? xmalloc(s->o.stack_bytes) : NULL;
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, TIMER_SIG);
	ps->sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (ps->sigfd < 0) {
		snprintf(s->err, sizeof s->err, "signalfd: %s", strerror(errno));
		return -1;
	}
	/* the descriptors of the threads' schedstat files are pct's own */
	struct rlimit nofile;
	if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur < nofile.rlim_max) {
		nofile.rlim_cur = nofile.rlim_max;
		setrlimit(RLIMIT_NOFILE, &nofile);
	}
	if (s->cmd_pid) {
		struct aproc *p = sess_proc_new(s, (uint32_t)s->cmd_pid, (uint32_t)getpid(), NULL, PROC_EMPTY);
		if (ptrace(PTRACE_SEIZE, s->cmd_pid, 0, (void *)(uintptr_t)OPTS) != 0) {
			snprintf(s->err, sizeof s->err, "cannot trace the command: PTRACE_SEIZE: %s", strerror(errno));
			return -1;
		}
		new_thread(s, p, (uint32_t)s->cmd_pid, TH_RUNNING);
		arm_timer(s, p);
		return sess_release_command(s);
	}
	for (size_t i = 0; i < s->o.npids; i++) {
		uint32_t pid = s->o.pids[i];
		long pp = proc_status_num(pid, "PPid");
		struct aproc *p = sess_proc_new(s, pid, pp > 0 ? (uint32_t)pp : 0, NULL, PROC_SCAN);
		if (seize_all(s, p) != 0) {
			snprintf(s->err, sizeof s->err, "cannot attach to process %u: PTRACE_SEIZE: %s", pid,
				 strerror(errno));
			return -1;
		}
		arm_timer(s, p);
	}
	return 0;
}

/* Interrupts just sent: wait for their stops on the CPU we hold, for
 * SPIN_NS at most.  A stopped thread waits for us, and a sampler woken
 * from poll(2) may wait milliseconds for a CPU on a busy machine (the
 * thread it stopped just gave one up, to whatever ran next).  But not for
 * a thread that last ran on this CPU: it waits for the CPU we hold to
 * reach its stop, and is left to wake us (SIGCHLD). */
#define SPIN_NS 500000
static void wait_stops(struct session *s)
{
	uint64_t end = mono_now() + SPIN_NS;
	for (;;) {
		int pending = 0;
		for (size_t i = 0; i < s->nthreads && !pending; i++)
			pending = s->threads[i]->state == TH_INTERRUPTING && !s->threads[i]->on_our_cpu;
		if (!pending || mono_now() >= end)
			return;
		reap_all(s);
	}
}

/* One step: wait for a timer or a tracee, then sample the threads of
 * each process whose timer fired (and of all, every 100 ms). */
static void pt_step(struct session *s, uint64_t until)
{
	struct pt_st *ps = s->mech;
	struct pollfd pfd[2] = { { .fd = ps->sigfd, .events = POLLIN }, { .fd = s->wake_fd, .events = POLLIN } };
	uint64_t now = mono_now();
	struct timespec ts = { (time_t)((until > now ? until - now : 0) / 1000000000u),
			       (long)((until > now ? until - now : 0) % 1000000000u) };
	ppoll(pfd, 2, &ts, NULL);
	struct signalfd_siginfo si;
	while (read(ps->sigfd, &si, sizeof si) == (ssize_t)sizeof si) {
		if ((int)si.ssi_signo == TIMER_SIG) {
			struct aproc *p = sess_proc(s, (uint32_t)si.ssi_int);
			if (p)
				p->due = 1;
		}
	}
	/* stops first: a stopped thread waits for us (SIGCHLD merges, so the
	 * statuses are looked for at every step) */
	reap_all(s);
	now = mono_now();
	int full = now >= ps->next_full;
	if (full)
		ps->next_full = now + 100000000;
	for (size_t i = 0; i < s->nprocs; i++) {
		struct aproc *p = s->procs[i];
		if (p->alive && (p->due || full)) {
			p->due = 0;
			sample_due(s, p);
		}
	}
	wait_stops(s);
}

static void pt_stop(struct session *s)
{
	struct pt_st *ps = s->mech;
	/* the interrupts sent: their stops seen and let go, 100 ms at most */
	uint64_t end = mono_now() + 100000000;
	for (;;) {
		reap_all(s);
		int pending = 0;
		for (size_t i = 0; i < s->nthreads; i++)
			pending |= s->threads[i]->state == TH_INTERRUPTING;
		uint64_t now = mono_now();
		if (!pending || now >= end)
			break;
		struct pollfd pfd = { .fd = ps->sigfd, .events = POLLIN };
		poll(&pfd, 1, (int)((end - now) / 1000000 + 1));
		struct signalfd_siginfo si;
		while (read(ps->sigfd, &si, sizeof si) == (ssize_t)sizeof si)
			;
	}
	for (size_t i = 0; i < s->nprocs; i++)
		disarm_timer(s->procs[i]);
	close(ps->sigfd);
	free(ps->stack);
	free(ps);
	s->mech = NULL;
	/* the sampler thread ends next: the kernel detaches every tracee */
}

const struct mech_ops mech_ptrace = { pt_start, pt_step, pt_stop };
