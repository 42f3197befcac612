/*
 * sig.c - pct's signal, and the program's view of it.
 *
 * pct samples with one signal (SIGSTKFLT, or a real-time signal named in
 * $PCT_SIGNAL) whose kernel disposition is pct's handler from pct_on() to
 * the end of the process.  The program never sees that: pct's sigaction(),
 * signal(), bsd_signal(), sysv_signal(), sigset() and siginterrupt() keep
 * the program's own ("virtual") disposition of that signal, report it back,
 * and pct's handler hands every instance of the signal that pct did not
 * send (a program's kill(2), sigqueue(3) or its own timer) to it: the
 * program's handler with its mask and flags, nothing for SIG_IGN, and the
 * default action (death by the signal) for SIG_DFL.  pct's own instances
 * are known by their origin: a timer whose si_value is pct's cookie, or a
 * perf event descriptor pct armed.  So the program may install, reset or
 * read its handler for pct's signal at any time, and a program that resets
 * every disposition to SIG_DFL, or handles every signal (Go's runtime),
 * runs as without pct while pct keeps sampling.
 *
 * The kernel's mask never blocks pct's signal for the program: the
 * wrapped pthread_sigmask(3) and sigprocmask(2) take it out and keep the
 * program's blocking of it per thread (vmask), so threads that block every
 * signal are sampled; sigwait(3), sigwaitinfo(2), sigtimedwait(2) and
 * signalfd(2) leave it out of their sets, so they never take a sample.
 * A thread whose kernel mask blocks it anyway (a raw system call, or
 * before pct started) is paused: its timer or event is stopped and a pct
 * signal already pending for it is taken back (rt_sig_mask_changed).
 *
 * Not covered: calls inside glibc that bypass the dynamic symbol table
 * (signal dispositions set by posix_spawn(3) in the child, by system(3)),
 * raw system calls (rt_sigaction, rt_sigprocmask), temporary masks of
 * sigsuspend(2), pselect(2), ppoll(2) and epoll_pwait(2), and programs
 * linked with libpct.a: its copy of this file is built without the
 * wrappers (RT_NO_INTERPOSE), which a static link could not forward to
 * libc (no dlsym), so there the program's disposition of pct's signal replaces
 * pct's handler, and pct's samples then reach the program.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sys/auxv.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "runtime.h"


typedef int sigaction_fn(int, const struct sigaction *, struct sigaction *);
typedef int sigmask_fn(int, const sigset_t *, sigset_t *);
/* a signal handler, as signal(2) takes it (glibc's __sighandler_t, which musl lacks) */
typedef void (*rt_sighandler)(int);
typedef rt_sighandler signal_fn(int, rt_sighandler);
typedef int siginterrupt_fn(int, int);

static sigaction_fn *real_sigaction;
static sigmask_fn *real_pthread_sigmask, *real_sigprocmask;
static signal_fn *real_signal, *real_bsd_signal, *real_sysv_signal, *real_sigset;
static siginterrupt_fn *real_siginterrupt;
static int (*real_sigpending)(sigset_t *);
static int (*real_sigtimedwait)(const sigset_t *, siginfo_t *, const struct timespec *);
static int (*real_signalfd)(int, const sigset_t *, int);
static int (*real_sigaltstack)(const stack_t *, stack_t *);

/*
 * The program's dispositions of the signals whose kernel disposition is
 * pct's: pct's own signal (VS_PCT), and SIGBUS (VS_BUS), which a write to
 * pct's file mapping raises once another program has truncated the file
 * (rt_output_fault).  Two copies of each, the current one named by cur,
 * so that a handler never reads one half-written.
 */
enum { VS_PCT, VS_BUS, VS_N };
struct vsig {
	_Atomic int signo;             /* the signal once pct's handler holds it, else 0 */
	struct sigaction v[2];
	_Atomic int cur;
};
static struct vsig vs[VS_N];
static void (*pct_handler)(int, siginfo_t *, void *);  /* pct's signal's, once installed */
#define sig_no (vs[VS_PCT].signo)      /* pct's signal once its handler is installed, else 0 */

#ifndef RT_NO_INTERPOSE
/* The calling thread's blocking of pct's signal (see the wrappers below) */
static __thread struct {
	int blocked;   /* the program blocks pct's signal in this thread */
	int real;      /* ... and so does the kernel's mask (fallen back) */
	int forward;   /* running the program's handler for pct's signal */
} vmask __attribute__((tls_model("initial-exec")));
/* the thread's alternate stack is too small for pct's handler (below) */
static __thread int small_altstack __attribute__((tls_model("initial-exec")));
#endif

/* Find the functions pct's wrap: once, before any handler could need them
 * (the constructor, pct_on), or at a wrapper's first call. */
void rt_sig_resolve(void)
{
	if (real_sigaction)
		return;
#ifdef RT_NO_INTERPOSE
	real_pthread_sigmask = pthread_sigmask;
	real_sigaction = sigaction;
	return;
#endif
	real_pthread_sigmask = (sigmask_fn *)dlsym(RTLD_NEXT, "pthread_sigmask");
	real_sigprocmask = (sigmask_fn *)dlsym(RTLD_NEXT, "sigprocmask");
	real_signal = (signal_fn *)dlsym(RTLD_NEXT, "signal");
	real_bsd_signal = (signal_fn *)dlsym(RTLD_NEXT, "bsd_signal");
	real_sysv_signal = (signal_fn *)dlsym(RTLD_NEXT, "sysv_signal");
	real_sigset = (signal_fn *)dlsym(RTLD_NEXT, "sigset");
	real_siginterrupt = (siginterrupt_fn *)dlsym(RTLD_NEXT, "siginterrupt");
	real_sigpending = (int (*)(sigset_t *))dlsym(RTLD_NEXT, "sigpending");
	real_sigtimedwait = (int (*)(const sigset_t *, siginfo_t *, const struct timespec *))dlsym(RTLD_NEXT, "sigtimedwait");
	real_signalfd = (int (*)(int, const sigset_t *, int))dlsym(RTLD_NEXT, "signalfd");
	real_sigaltstack = (int (*)(const stack_t *, stack_t *))dlsym(RTLD_NEXT, "sigaltstack");
	real_sigaction = (sigaction_fn *)dlsym(RTLD_NEXT, "sigaction");
}

/* The signal pct uses: $PCT_SIGNAL if it is SIGSTKFLT or a real-time
 * signal libc leaves to programs, else SIGSTKFLT after one warning.  The
 * others either have a meaning (SIGCHLD, SIGALRM, SIGPROF, SIGUSR1, ...) or
 * are raised by faults (SIGSEGV, SIGBUS, ...), where a handler that
 * returns would loop. */
int rt_sig_choose(void)
{
	int s = (int)rt_config_value(&rt_g.cfg.signo);
	if (s != SIGSTKFLT && (s < SIGRTMIN || s > SIGRTMAX)) {
		rt_say("$PCT_SIGNAL must be SIGSTKFLT (16) or a real-time signal (SIGRTMIN..SIGRTMAX), "
		       "not", rt_g.cfg.signal_text, 0, "pct samples with SIGSTKFLT");
		s = SIGSTKFLT;
	}
	return s;
}

static void on_bus(int sig, siginfo_t *si, void *uc);

/* The calling thread's SIGBUS that pct opened (rt_bus_open): how many of
 * pct's sections opened it, and a SIGBUS sent while it was open, kept to
 * be sent again as pct closes it. */
static __thread struct {
	int open;
	int kept;
	siginfo_t si;
} bus __attribute__((tls_model("initial-exec")));

static int requeue(int sig, siginfo_t *si);

void rt_bus_open(const void *mask)
{
	if (sigismember((const sigset_t *)mask, SIGBUS) == 1) {
		sigset_t one;
		sigemptyset(&one);
		sigaddset(&one, SIGBUS);
		bus.open++;
		syscall(SYS_rt_sigprocmask, SIG_UNBLOCK, &one, NULL, (size_t)(_NSIG / 8));
	}
}

void rt_bus_close(const void *mask)
{
	if (sigismember((const sigset_t *)mask, SIGBUS) != 1 || bus.open <= 0)
		return;
	if (--bus.open > 0 || !bus.kept)
		return;
	/* blocked again first, so that the signal sent again is pending
	 * (the program's mask blocks it), as it would have been */
	sigset_t one;
	sigemptyset(&one);
	sigaddset(&one, SIGBUS);
	syscall(SYS_rt_sigprocmask, SIG_BLOCK, &one, NULL, (size_t)(_NSIG / 8));
	bus.kept = 0;
	if (bus.si.si_code == SI_USER || bus.si.si_code == SI_QUEUE) {
		/* sent to the process again; the kernel lets only the main
		 * thread send an SI_USER signal to its process
		 * (rt_sigqueueinfo(2), EPERM), so from another thread it goes
		 * as SI_QUEUE, with the sender's si_pid and si_uid */
		if (bus.si.si_code == SI_USER && (pid_t)rt_gettid() != getpid())
			bus.si.si_code = SI_QUEUE;
		syscall(SYS_rt_sigqueueinfo, getpid(), SIGBUS, &bus.si);
	} else {
		requeue(SIGBUS, &bus.si);
	}
}

/* pct's kernel disposition of SIGBUS: on_bus, on the alternate stack and
 * restarting system calls if the program's own disposition asks for it,
 * so that a program's handler that on_bus calls runs as the program
 * expects. */
static int bus_install(const struct sigaction *prog)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_bus;
	sa.sa_flags = SA_SIGINFO | (prog->sa_flags & (SA_ONSTACK | SA_RESTART));
	sigemptyset(&sa.sa_mask);
	return real_sigaction(SIGBUS, &sa, NULL);
}

/* Install handler for signo, keeping the disposition the program had as
 * its virtual one; and on_bus for SIGBUS, likewise.  0, or -1 after a
 * warning. */
int rt_sig_install(int signo, void (*handler)(int, siginfo_t *, void *))
{
	struct sigaction sa;
	rt_sig_resolve();
	if (real_sigaction == NULL || real_pthread_sigmask == NULL) {
		rt_warn("cannot find libc's sigaction", NULL, 0);
		return -1;
	}
	if (rt_load(&sig_no) == signo)
		return 0;
	if (real_sigaction(signo, NULL, &vs[VS_PCT].v[0]) != 0) {
		rt_warn("cannot inspect the signal in $PCT_SIGNAL", NULL, errno);
		return -1;
	}
	rt_store(&vs[VS_PCT].cur, 0);
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = handler;
	/* SA_ONSTACK: Go's runtime refuses handlers without it */
	sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
	/* every signal blocked while pct's handler runs: a program's own
	 * handler that siglongjmps must never leave from inside it, where pct
	 * may hold a lock (rt_sig_forward restores the program's mask before
	 * calling the program's handler); but SIGBUS, which a write to a
	 * truncated file raises (on_bus), and which the kernel would turn
	 * into death while blocked */
	sigfillset(&sa.sa_mask);
	sigdelset(&sa.sa_mask, SIGBUS);
	if (real_sigaction(signo, &sa, NULL) != 0) {
		rt_warn("cannot install pct's signal handler", NULL, errno);
		return -1;
	}
	pct_handler = handler;
	rt_store(&sig_no, signo);
	if (rt_load(&vs[VS_BUS].signo) == 0 && real_sigaction(SIGBUS, NULL, &vs[VS_BUS].v[0]) == 0) {
		rt_store(&vs[VS_BUS].cur, 0);
		if (bus_install(&vs[VS_BUS].v[0]) == 0)
			rt_store(&vs[VS_BUS].signo, SIGBUS);
	}
	return 0;
}

/*
 * Before execve(2) (exec.c): a signal the program ignores stays ignored in
 * the new program, which inherits SIG_IGN but not handlers; for the signals
 * whose kernel disposition is pct's, the program's SIG_IGN is put in the
 * kernel now, and pct's handlers back if the exec fails.
 */
void rt_sig_before_exec(void)
{
	struct sigaction ign;
	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	for (int i = 0; i < VS_N; i++) {
		int sig = rt_load(&vs[i].signo);
		if (sig && vs[i].v[rt_load(&vs[i].cur)].sa_handler == SIG_IGN)
			real_sigaction(sig, &ign, NULL);
	}
}

void rt_sig_exec_failed(void)
{
	struct sigaction sa;
	for (int i = 0; i < VS_N; i++) {
		int sig = rt_load(&vs[i].signo);
		if (sig == 0 || vs[i].v[rt_load(&vs[i].cur)].sa_handler != SIG_IGN)
			continue;
		if (i == VS_BUS) {
			bus_install(&vs[i].v[rt_load(&vs[i].cur)]);
		} else if (real_sigaction(sig, NULL, &sa) == 0) {
			sa.sa_sigaction = pct_handler;
			sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
			sigfillset(&sa.sa_mask);
			sigdelset(&sa.sa_mask, SIGBUS);
			real_sigaction(sig, &sa, NULL);
		}
	}
}

/* async-signal-safe: did pct send this signal? */
int rt_sig_mine(const siginfo_t *si)
{
	if (si->si_code == SI_TIMER)
		return si->si_value.sival_ptr == RT_SIG_COOKIE;
	if (si->si_code >= POLL_IN && si->si_code <= POLL_HUP)
		return rt_arm_owns_fd(si->si_fd);
	return 0;
}

#ifndef RT_NO_INTERPOSE
static int vmask_fall_back(int sig, siginfo_t *si, void *uc);
static void forward_depth(int d);
static void settle(int sig);
static void reopen(int sig, void *uc);
#else
int rt_sig_vblocked(void)
{
	return 0;
}

void rt_sig_vinherit(int blocked)
{
	(void)blocked;
}
#endif

static int requeue(int sig, siginfo_t *si)
{
	return (int)syscall(SYS_rt_tgsigqueueinfo, getpid(), (pid_t)rt_gettid(), sig, si);
}

/* async-signal-safe: the program's disposition of sig (slot v), taken for
 * one delivery: SA_RESETHAND resets it to SIG_DFL, as the kernel would. */
static struct sigaction take_disposition(struct vsig *v)
{
	struct sigaction a = v->v[rt_load(&v->cur)];
	if (a.sa_handler != SIG_DFL && a.sa_handler != SIG_IGN && (a.sa_flags & SA_RESETHAND)) {
		int next = !rt_load(&v->cur);
		memset(&v->v[next], 0, sizeof v->v[next]);
		v->v[next].sa_handler = SIG_DFL;
		rt_store(&v->cur, next);
	}
	return a;
}

/* async-signal-safe: run the program's handler a for sig, with the mask
 * the kernel would have set for it: the interrupted mask, plus its
 * sa_mask, plus sig unless SA_NODEFER (and pct's signal for a handler on
 * the alternate stack, as sigaction() below adds it) */
static void call_handler(const struct sigaction *a, int sig, siginfo_t *si, void *uc)
{
	sigset_t set, saved;
	set = ((const ucontext_t *)uc)->uc_sigmask;
	sigorset(&set, &set, &a->sa_mask);
	if (a->sa_flags & SA_NODEFER)
		sigdelset(&set, sig);
	else
		sigaddset(&set, sig);
	if ((a->sa_flags & SA_ONSTACK) && sig != rt_load(&sig_no) && rt_load(&sig_no) != 0)
		sigaddset(&set, rt_load(&sig_no));
	real_pthread_sigmask(SIG_SETMASK, &set, &saved);
#ifndef RT_NO_INTERPOSE
	forward_depth(1);
#endif
	if (a->sa_flags & SA_SIGINFO)
		a->sa_sigaction(sig, si, uc);
	else
		a->sa_handler(sig);
#ifndef RT_NO_INTERPOSE
	forward_depth(-1);
#endif
	real_pthread_sigmask(SIG_SETMASK, &saved, NULL);
}

/* async-signal-safe: end the process by sig, its default action: the
 * kernel's disposition back to SIG_DFL, then sig sent again (requeued
 * with its siginfo) and unblocked. */
static void die_by(int sig, siginfo_t *si)
{
	struct sigaction dfl;
	sigset_t set;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	real_sigaction(sig, &dfl, NULL);
	requeue(sig, si);
	sigemptyset(&set);
	sigaddset(&set, sig);
	real_pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

/* async-signal-safe: deliver sig, which pct did not send, as the program's
 * disposition says. */
void rt_sig_forward(int sig, siginfo_t *si, void *uc)
{
#ifndef RT_NO_INTERPOSE
	if (vmask_fall_back(sig, si, uc))
		return;  /* the thread blocks it: pending in the kernel again */
#endif
	struct sigaction a = take_disposition(&vs[VS_PCT]);
	if (a.sa_handler == SIG_DFL)
		/* the default action of SIGSTKFLT and the real-time signals:
		 * end the process by this signal */
		die_by(sig, si);
	else if (a.sa_handler != SIG_IGN)
		call_handler(&a, sig, si, uc);
#ifndef RT_NO_INTERPOSE
	if (a.sa_handler != SIG_DFL)
		reopen(sig, uc);
#endif
}

/*
 * The SIGBUS handler.  A fault in pct's own file mapping (another program
 * truncated the live profile: `: > FILE`, logrotate's copytruncate) is
 * pct's, and rt_output_fault makes the access safe and stops sampling; the
 * faulting write then runs again on memory of pct's own.  Every other
 * SIGBUS is the program's, delivered as its disposition says: its handler;
 * or for SIG_DFL and SIG_IGN, the kernel's SIG_DFL put back, so that a
 * fault (si_code > 0) met again as the instruction runs again ends the
 * process with a core, as without pct, and a sent one ends it or is
 * ignored.
 */
static void on_bus(int sig, siginfo_t *si, void *uc)
{
	int saved = errno;
	if (si->si_code > 0 && rt_output_fault(si->si_addr)) {
		errno = saved;
		return;
	}
	/* sent while pct had it open in a thread whose program blocks it:
	 * kept, and sent again once pct's section closes it (rt_bus_close) */
	if (si->si_code <= 0 && bus.open > 0) {
		if (!bus.kept) {
			bus.si = *si;
			bus.kept = 1;
		}
		errno = saved;
		return;
	}
	struct sigaction a = take_disposition(&vs[VS_BUS]);
	if (a.sa_handler != SIG_DFL && a.sa_handler != SIG_IGN) {
		call_handler(&a, sig, si, uc);
	} else if (si->si_code > 0) {
		struct sigaction dfl;
		memset(&dfl, 0, sizeof dfl);
		dfl.sa_handler = SIG_DFL;
		real_sigaction(sig, &dfl, NULL);
	} else if (a.sa_handler == SIG_DFL) {
		die_by(sig, si);
	}
	errno = saved;
}

/*
 * async-signal-safe: pause the calling thread's sampling while it blocks
 * pct's signal sig, and take back a pct signal already pending for it (a
 * signal that is not pct's goes back in the queue); resume it when it
 * unblocks the signal.
 */
static void sig_blocked(int sig, int blocked)
{
	if (rt_arm_pause_mine(blocked) <= 0 || !blocked)
		return;
	rt_sig_take_back();
}

/*
 * async-signal-safe: take back the instances of pct's signal pending for
 * the calling thread (it blocks the signal, or is about to let go of its
 * sampling source): an instance that is not pct's goes back in the queue.
 * Before a perf event's arm is freed its late signals must be taken here,
 * while rt_sig_mine still knows them by their descriptor.
 */
void rt_sig_take_back(void)
{
	int sig = rt_load(&sig_no);
	sigset_t one;
	if (sig == 0)
		return;
	sigemptyset(&one);
	sigaddset(&one, sig);
	struct timespec zero = { 0, 0 };
	siginfo_t si;
	while (syscall(SYS_rt_sigtimedwait, &one, &si, &zero, (size_t)_NSIG / 8) == sig) {
		if (!rt_sig_mine(&si)) {
			requeue(sig, &si);
			break;
		}
		/* a one-shot event's signal ends the thread's first period
		 * even when taken here (threads.c) */
		if (si.si_code == POLL_HUP)
			rt_arm_overflow_mine(si.si_fd);
	}
}

#ifndef RT_NO_INTERPOSE
static void altstack_known(const stack_t *ss);
#endif

/* async-signal-safe: sig_blocked() as the calling thread's mask says, and
 * a pause if its alternate stack is too small (a new thread, or pct
 * starting). */
void rt_sig_mask_changed(void)
{
	int sig = rt_load(&sig_no);
	sigset_t cur;
	if (sig != 0 && real_pthread_sigmask(SIG_BLOCK, NULL, &cur) == 0) {
		sig_blocked(sig, sigismember(&cur, sig));
#ifndef RT_NO_INTERPOSE
		/* blocked already (inherited across execve(2), or a thread
		 * born so): the program's blocking, kept in the kernel until
		 * it unblocks */
		if (sigismember(&cur, sig)) {
			vmask.blocked = 1;
			vmask.real = 1;
			settle(sig);
		}
#endif
	}
#ifndef RT_NO_INTERPOSE
	stack_t ss;
	if (sig != 0 && syscall(SYS_sigaltstack, NULL, &ss) == 0)
		altstack_known(&ss);
#endif
}

/* ---- the wrappers: exactly libc's for every other signal ---- */
#ifndef RT_NO_INTERPOSE
static atomic_flag virt_lock = ATOMIC_FLAG_INIT;

/*
 * The calling thread's blocking of pct's signal, as the program set it.
 * The kernel's mask does not block pct's signal for the program (only
 * pct's own critical sections do), so a thread that blocks every signal
 * is still sampled, and the program reads back the mask it set.  When an
 * instance of the signal that is not pct's arrives while the thread
 * blocks it (the program's kill, sigqueue or timer), the thread falls
 * back to the kernel's blocking (real): the instance is sent again, to the
 * thread or, if it was sent to the process, to the process, and the
 * thread's mask blocks it from the handler's return, its sampling paused,
 * until the program unblocks it.  Then sigsuspend(2), sigwait(3), a
 * signalfd or a later unblocking find it pending as without pct.
 */


int rt_sig_vblocked(void)
{
	return vmask.blocked;
}

/* async-signal-safe: resume the thread's sampling, unless something else
 * keeps it paused (the kernel blocks pct's signal, or a small stack) */
static void resume(void)
{
	if (!vmask.real && !small_altstack)
		rt_arm_pause_mine(0);
}

/* async-signal-safe: a thread fallen back to the kernel's blocking whose
 * program instance has been taken (sigwait) goes back to the virtual
 * blocking, and is sampled again. */
static void settle(int sig)
{
	sigset_t pend, one;
	if (!vmask.real || real_sigpending == NULL || real_sigpending(&pend) != 0 || sigismember(&pend, sig) == 1)
		return;
	vmask.real = 0;
	sigemptyset(&one);
	sigaddset(&one, sig);
	real_pthread_sigmask(SIG_UNBLOCK, &one, NULL);
	resume();
}

/* async-signal-safe (the handler, after the program's disposition): a
 * thread fallen back to the kernel's blocking took its program instance
 * through a mask it opened for a moment (sigsuspend(2), ppoll(2),
 * pselect(2), epoll_pwait(2) with the old mask).  Those calls restore, on
 * return, the mask in the signal's frame (uc_sigmask), which still blocks
 * pct's signal: unless another instance is pending, the thread goes back
 * to the virtual blocking, the frame's mask opens pct's signal, and
 * sampling resumes (without this, such a thread was never sampled again
 * until the program unblocked the signal).  Only the first frame of such a
 * call carries the restored mask, with pct's signal in it; a frame stacked
 * on another handler's, or in the program's handler for pct's signal,
 * carries the mask of that moment and is left alone. */
static void reopen(int sig, void *uc)
{
	sigset_t pend;
	if (!vmask.real || vmask.forward || sigismember(&((ucontext_t *)uc)->uc_sigmask, sig) != 1 ||
	    real_sigpending == NULL || real_sigpending(&pend) != 0 || sigismember(&pend, sig) == 1)
		return;
	vmask.real = 0;
	sigdelset(&((ucontext_t *)uc)->uc_sigmask, sig);
	resume();
}

void rt_sig_vinherit(int blocked)
{
	vmask.blocked = blocked;
	vmask.real = 0;
	vmask.forward = 0;
}

static void forward_depth(int d)
{
	vmask.forward += d;
}

/* Do the wrappers act?  Not before pct's signal is chosen, and not in a
 * vfork(2) child, which shares the parent's memory (and its vmask). */
static int acting(int sig)
{
	return sig != 0 && rt_g.led.pid == rt_getpid();
}

/* async-signal-safe (the handler): a program's instance of pct's signal
 * while the thread blocks it.  1 if it was sent again to be pending. */
static int vmask_fall_back(int sig, siginfo_t *si, void *uc)
{
	/* fallen back already: the kernel delivered it through a mask the
	 * program opened for a moment (sigsuspend, ppoll, pselect): the
	 * program's */
	if (!vmask.blocked || vmask.real)
		return 0;
	vmask.real = 1;
	sig_blocked(sig, 1);  /* paused, and a pct instance pending taken back */
	sigaddset(&((ucontext_t *)uc)->uc_sigmask, sig);
	if (si->si_code == SI_USER || si->si_code == SI_QUEUE)
		/* sent to the process: another thread that does not block
		 * it may take it, as the kernel would have chosen */
		syscall(SYS_rt_sigqueueinfo, getpid(), sig, si);
	else
		requeue(sig, si);
	return 1;
}

/*
 * pthread_sigmask(3) and sigprocmask(2) through real: pct's signal is
 * taken out of the set (kept while the thread has fallen back) and its
 * blocking kept in vmask; the old mask reports it blocked if the program
 * blocked it, or the kernel does in the program's handler for it.  A
 * kernel mask that blocks it for no reason of the program's (a handler
 * left with longjmp while pct's sa_mask held it) is opened.  Returns
 * real's result.
 */
static int mask_call(sigmask_fn *real, int how, const sigset_t *set, sigset_t *old)
{
	int sig = rt_load(&sig_no);
	if (!acting(sig) || (set && how != SIG_BLOCK && how != SIG_UNBLOCK && how != SIG_SETMASK))
		return real(how, set, old);
	sigset_t s, cur;
	int was = vmask.blocked, was_real = vmask.real, now = was;
	if (set) {
		s = *set;
		int named = sigismember(&s, sig) == 1;
		now = how == SIG_SETMASK ? named : how == SIG_BLOCK ? was || named : was && !named;
		sigdelset(&s, sig);
		if (now && was_real)
			sigaddset(&s, sig);
		/* before the call: an instance pending in the kernel is
		 * delivered as it returns, and must find the new state */
		vmask.blocked = now;
		if (!now)
			vmask.real = 0;
	}
	int rc = real(how, set ? &s : NULL, &cur);
	if (rc != 0) {
		vmask.blocked = was;
		vmask.real = was_real;
		return rc;
	}
	int kernel = sigismember(&cur, sig) == 1;
	if (old) {
		*old = cur;
		if (was || (kernel && vmask.forward))
			sigaddset(old, sig);
		else
			sigdelset(old, sig);
	}
	if (kernel && !vmask.real && !vmask.forward && !(set && how == SIG_SETMASK)) {
		sigset_t one;
		sigemptyset(&one);
		sigaddset(&one, sig);
		real_pthread_sigmask(SIG_UNBLOCK, &one, NULL);
	}
	if ((set && !now && was_real) || (kernel && !vmask.real && !vmask.forward))
		resume();
	settle(sig);
	return rc;
}

PUBLIC int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	rt_sig_resolve();
	if (real_pthread_sigmask == NULL)
		return ENOSYS;
	int e = errno, rc = mask_call(real_pthread_sigmask, how, set, old);
	errno = e;
	return rc;
}

PUBLIC int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	rt_sig_resolve();
	if (real_sigprocmask == NULL)
		return errno = ENOSYS, -1;
	/* errno is the C library's call's: what pct does around it (a
	 * resume opens events) leaves it alone */
	int e = errno, rc = mask_call(real_sigprocmask, how, set, old);
	if (rc == 0)
		errno = e;
	return rc;
}

/* pct's own instances, pending for a moment, are not the program's */
PUBLIC int sigpending(sigset_t *set)
{
	rt_sig_resolve();
	int sig = rt_load(&sig_no);
	int rc = real_sigpending(set);
	if (rc == 0 && acting(sig) && !vmask.real)
		sigdelset(set, sig);
	return rc;
}

/*
 * sigtimedwait(2) and what is built on it.  A set that does not name
 * pct's signal: the signal is blocked for the call, so that no sample ends
 * the wait with EINTR (a sample due meanwhile is taken when the call
 * returns, at its return address).  A set that names it (the program
 * waits for its own instance): the thread's sampling is paused for the
 * call and a pct instance already pending taken back, so that the wait
 * takes only the program's.
 */
PUBLIC int sigtimedwait(const sigset_t *set, siginfo_t *info, const struct timespec *ts)
{
	rt_sig_resolve();
	int sig = rt_load(&sig_no);
	if (real_sigtimedwait == NULL)
		return errno = ENOSYS, -1;
	const void *given = set;
	__asm__("" : "+r"(given));  /* glibc declares set nonnull; a null one is EFAULT */
	if (!acting(sig) || given == NULL)
		return real_sigtimedwait(set, info, ts);
	int rc, e;
	if (sigismember(set, sig) == 1) {
		sig_blocked(sig, 1);
		rc = real_sigtimedwait(set, info, ts);
		e = errno;
		settle(sig);
		resume();
	} else {
		sigset_t one, was;
		sigemptyset(&one);
		sigaddset(&one, sig);
		real_pthread_sigmask(SIG_BLOCK, &one, &was);
		rc = real_sigtimedwait(set, info, ts);
		e = errno;
		if (!sigismember(&was, sig))
			real_pthread_sigmask(SIG_UNBLOCK, &one, NULL);
	}
	errno = e;
	return rc;
}

PUBLIC int sigwaitinfo(const sigset_t *set, siginfo_t *info)
{
	return sigtimedwait(set, info, NULL);
}

PUBLIC int sigwait(const sigset_t *set, int *sig)
{
	int rc, e = errno;
	do
		rc = sigtimedwait(set, NULL, NULL);
	while (rc < 0 && errno == EINTR);
	if (rc < 0)
		return errno;
	errno = e;
	*sig = rc;
	return 0;
}

/* signalfd(2) never reads pct's signal: it is taken out of the mask */
PUBLIC int signalfd(int fd, const sigset_t *mask, int flags)
{
	rt_sig_resolve();
	int sig = rt_load(&sig_no);
	if (real_signalfd == NULL)
		return errno = ENOSYS, -1;
	const void *given = mask;
	__asm__("" : "+r"(given));
	if (!acting(sig) || given == NULL)
		return real_signalfd(fd, mask, flags);
	sigset_t s = *mask;
	sigdelset(&s, sig);
	return real_signalfd(fd, &s, flags);
}

/* The virtual slot of sig, or -1 if its kernel disposition is the
 * program's own. */
static int vslot(int sig)
{
	for (int i = 0; i < VS_N; i++)
		if (sig != 0 && sig == rt_load(&vs[i].signo))
			return i;
	return -1;
}

static int virt_swap(int sig, const struct sigaction *act, struct sigaction *old)
{
	sigset_t all, saved;
	struct vsig *v = &vs[vslot(sig)];
	/* no handler on this thread may run in between, nor a second writer */
	sigfillset(&all);
	real_pthread_sigmask(SIG_BLOCK, &all, &saved);
	rt_lock(&virt_lock);
	int cur = rt_load(&v->cur);
	if (old)
		*old = v->v[cur];
	if (act) {
		v->v[!cur] = *act;
		rt_store(&v->cur, !cur);
		if (v == &vs[VS_BUS])
			bus_install(act);  /* its SA_ONSTACK */
	}
	rt_unlock(&virt_lock);
	real_pthread_sigmask(SIG_SETMASK, &saved, NULL);
	return 0;
}

/*
 * The program's handlers that run on its alternate stack block pct's
 * signal while they run (pct adds it to their sa_mask), so that a sample
 * never nests below them on what may be a small stack; sigaction() gives
 * back the mask the program set.  Bit sig - 1: pct added its signal to
 * sig's mask.
 */
static _Atomic uint64_t pct_added;

PUBLIC int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	rt_sig_resolve();
	int mine = rt_load(&sig_no);
	if (vslot(sig) >= 0)
		return virt_swap(sig, act, old);
	if (real_sigaction == NULL)
		return errno = ENOSYS, -1;
	if (mine == 0 || sig < 1 || sig > 64)
		return real_sigaction(sig, act, old);
	uint64_t bit = 1ULL << (sig - 1);
	int had = (rt_load(&pct_added) & bit) != 0, rc;
	if (act && (act->sa_flags & SA_ONSTACK) && act->sa_handler != SIG_DFL && act->sa_handler != SIG_IGN &&
	    sigismember(&act->sa_mask, mine) != 1) {
		struct sigaction a = *act;
		sigaddset(&a.sa_mask, mine);
		rc = real_sigaction(sig, &a, old);
		if (rc == 0)
			rt_or(&pct_added, bit);
	} else {
		rc = real_sigaction(sig, act, old);
		if (rc == 0 && act)
			rt_and(&pct_added, ~bit);
	}
	if (rc == 0 && old && had)
		sigdelset(&old->sa_mask, mine);
	return rc;
}

/*
 * sigaltstack(2): while the calling thread's alternate stack is smaller
 * than the kernel's signal frame (AT_MINSIGSTKSZ) plus what pct's handler
 * may use (RT_HANDLER_STACK), its sampling is paused: pct's handler runs
 * on that stack (SA_ONSTACK, which Go wants), and a frame that does not
 * fit is a SIGSEGV.  A larger stack, or none, resumes it.
 */

PUBLIC int sigaltstack(const stack_t *ss, stack_t *old)
{
	rt_sig_resolve();
	if (real_sigaltstack == NULL)
		return errno = ENOSYS, -1;
	int rc = real_sigaltstack(ss, old), e = errno;
	if (rc == 0 && ss)
		altstack_known(ss);
	errno = e;
	return rc;
}

/* async-signal-safe: pause or resume for the alternate stack ss */
static void altstack_known(const stack_t *ss)
{
	unsigned long frame = getauxval(AT_MINSIGSTKSZ);
	int small = !(ss->ss_flags & SS_DISABLE) && ss->ss_size < (frame ? frame : MINSIGSTKSZ_LEGACY) + RT_HANDLER_STACK;
	int was = small_altstack;
	small_altstack = small;
	if (small)
		rt_arm_pause_mine(1);  /* again if small: a mask change may have resumed it */
	else if (was)
		resume();
}

/* signal() and its kin for pct's signal, over the virtual disposition:
 * flags as glibc gives them (bsd: SA_RESTART; sysv: SA_RESETHAND |
 * SA_NODEFER). */
static rt_sighandler virt_signal(int sig, rt_sighandler h, int flags)
{
	struct sigaction sa, old;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = h;
	sa.sa_flags = flags;
	sigemptyset(&sa.sa_mask);
	if (virt_swap(sig, &sa, &old) != 0)
		return SIG_ERR;
	return old.sa_handler;
}

static int is_pct(int sig)
{
	rt_sig_resolve();
	return vslot(sig) >= 0;
}

PUBLIC rt_sighandler signal(int sig, rt_sighandler h)
{
	if (is_pct(sig))
		return virt_signal(sig, h, SA_RESTART);
	return real_signal ? real_signal(sig, h) : SIG_ERR;
}

PUBLIC rt_sighandler bsd_signal(int sig, rt_sighandler h)
{
	if (is_pct(sig))
		return virt_signal(sig, h, SA_RESTART);
	return real_bsd_signal ? real_bsd_signal(sig, h) : SIG_ERR;
}

PUBLIC rt_sighandler sysv_signal(int sig, rt_sighandler h)
{
	if (is_pct(sig))
		return virt_signal(sig, h, SA_RESETHAND | SA_NODEFER);
	return real_sysv_signal ? real_sysv_signal(sig, h) : SIG_ERR;
}

PUBLIC rt_sighandler sigset(int sig, rt_sighandler h)
{
	if (!is_pct(sig))
		return real_sigset ? real_sigset(sig, h) : SIG_ERR;
	/* SIG_HOLD blocks the signal and keeps the disposition */
	sigset_t one, was;
	struct sigaction old;
	sigemptyset(&one);
	sigaddset(&one, sig);
	if (virt_swap(sig, NULL, &old) != 0)
		return SIG_ERR;
	if (h == SIG_HOLD) {
		pthread_sigmask(SIG_BLOCK, &one, &was);
		return sigismember(&was, sig) ? SIG_HOLD : old.sa_handler;
	}
	rt_sighandler prev = virt_signal(sig, h, 0);
	pthread_sigmask(SIG_UNBLOCK, &one, &was);
	return sigismember(&was, sig) ? SIG_HOLD : prev;
}

PUBLIC int siginterrupt(int sig, int flag)
{
	if (!is_pct(sig))
		return real_siginterrupt ? real_siginterrupt(sig, flag) : -1;
	struct sigaction sa;
	virt_swap(sig, NULL, &sa);
	if (flag)
		sa.sa_flags &= ~SA_RESTART;
	else
		sa.sa_flags |= SA_RESTART;
	return virt_swap(sig, &sa, NULL);
}

/* pthread_exit(3) of the main thread is noted for the wall sampler
 * (wall.c): the process then ends, with exit(0), when its last thread
 * does, and the sampler must not be that thread. */
PUBLIC __attribute__((noreturn)) void pthread_exit(void *ret)
{
	static void (*real)(void *);
	if (real == NULL)
		real = (void (*)(void *))dlsym(RTLD_NEXT, "pthread_exit");
	if (rt_gettid() == rt_getpid()) {
		rt_store(&rt_g.main_pthread_exit, 1);
		/* the wall sampler must never be the process's last thread,
		 * whose exit(0) runs the atexit handlers and flushes stdio
		 * with the program's descriptors (the sampler's are its own):
		 * it ends now, and off-CPU time is not sampled after this */
		rt_wall_main_exits();
	}
	if (real)
		real(ret);
	for (;;)
		syscall(SYS_exit, 0);
}
#endif
