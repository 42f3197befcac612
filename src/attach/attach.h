/*
 * attach.h - profiling processes from outside: `pct record -p PID`,
 * `pct top -p PID`, and `pct record CMD` for a program the runtime cannot
 * enter (a static executable, or a setuid, setgid or file-capability one
 * that the loader runs securely, ignoring LD_PRELOAD).
 *
 * pct samples every thread of each process, and the threads and
 * processes they create while it is attached, with one of two
 * mechanisms (pct-record(1), ATTACHING):
 *
 *   perf     one task-clock perf_event_open(2) event per thread, opened
 *            by pct and inherited by the threads and processes that
 *            thread creates; pct reads the samples (IP, TID, time; user
 *            registers and a stack copy with -g) from each event's ring
 *            buffer.  Exact: the kernel takes each sample when the
 *            thread's CPU time passes the period.
 *   ptrace   pct seizes each thread (PTRACE_SEIZE: no stop, no signal),
 *            and when a thread's CPU time (schedstat) passes the period
 *            it stops it (PTRACE_INTERRUPT), reads its registers (and
 *            its stack with -g), and lets it go on; a CPU-time timer on
 *            the process's clock wakes pct (at most once per tick).
 *
 * A sampler thread of pct's does all the work, and is the ptrace tracer:
 * detaching is that thread ending, exactly what the kernel does when pct
 * is killed, so that no thread of the target is left stopped or traced
 * either way.  The profiles are built in memory (profile_build.h) and
 * written at the end (or as snapshots, for top) under the names the
 * runtime gives a process tree's files: FILE for the first process,
 * FILE's stem + ".PID.pct" (".PID.K.pct" after an exec) for the others,
 * each carrying the run's session token, so that record folds them as it
 * folds a command's.
 */
#ifndef PCT_ATTACH_H
#define PCT_ATTACH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

enum attach_mech {
	ATTACH_AUTO = 0,               /* perf where the kernel allows it, else ptrace */
	ATTACH_PERF = 1,
	ATTACH_PTRACE = 2,
};

struct attach_opts {
	/* set by the caller */
	uint32_t *pids;                /* -p PID,...: the processes; NULL with a command */
	size_t npids;
	int mech;                      /* enum attach_mech asked (--mechanism) */
	uint32_t event;                /* enum pct_event asked (-e; cpu by default) */
	uint64_t period;               /* the dimension's unit: ns of CPU (wall) time, or events */
	uint32_t stack_bytes;          /* -g: bytes of stack per sample; 0 without */
	uint64_t session;              /* $PCT_SESSION of the run */
	const char *file;              /* FILE, absolute: the profiles' names derive from it */
	uint64_t duration_ns;          /* --duration; 0: until stopped or every process is gone */
	uint64_t snapshot_ns;          /* top: write every profile again this often (replacing
					  them); 0: once, at the end, under new names */
	/* set by attach_check */
	int chosen;                    /* ATTACH_PERF or ATTACH_PTRACE */
	int user_only;                 /* perf sees user mode only: the profile's event is user */
	uint32_t event_written;        /* the event the profiles say (cpu may become user) */
	int root;                      /* we may trace and profile anyone (CAP_SYS_PTRACE, CAP_PERFMON) */
};

/* Why a program cannot be entered by the runtime (its loader would not
 * preload it): ATTACH_CMD_* in *kind and a phrase in *why ("a static
 * executable (no PT_INTERP)", "setuid root"...), or 0 if the runtime can
 * run in it.  cmd is found on $PATH as execvp(3) finds it. */
#define ATTACH_CMD_STATIC 1
#define ATTACH_CMD_SECURE 2
int attach_cmd_kind(const char *cmd, char *why, size_t whylen);

/*
 * Can the processes o->pids be profiled, and with what?  Checks that each
 * exists and is not pct itself, whose it is, whether it is dumpable, and
 * for each mechanism what the kernel allows (kernel.perf_event_paranoid,
 * kernel.yama.ptrace_scope, a tracer already attached, an event opened
 * on its thread for real); chooses o->chosen (the one asked, or perf
 * before ptrace).  Nothing is attached.  Returns 0, or the exit status
 * (1: refused; 2: a usage error) with the message in why, naming the
 * reason and the sysctl or privilege that would allow it.  With no pids
 * (a command, about to be started as our child), only the mechanism is
 * chosen.
 */
int attach_check(struct attach_opts *o, char *why, size_t whylen);

struct attach;

/* Attach to o->pids (attach_check first) and start sampling in a thread
 * of ours.  Returns the session, or NULL with the reason in why (nothing
 * is left attached then). */
struct attach *attach_start(struct attach_opts *o, char *why, size_t whylen);

/*
 * Run cmd (argv, NULL-ended, found on $PATH) without the runtime and
 * sample it from outside from its first instruction: the child waits on
 * a pipe until pct has opened its events (perf, enabled on exec) or
 * seized it (ptrace), then execs.  Its output, exit status and signals
 * are the command's.  child is called in the child first (it gives
 * back the signals as the caller found them), fwd in the caller with the
 * child's pid (the caller passes SIGTERM and SIGHUP on), and unfwd once
 * the command has ended, before it is reaped.  NULL with why if it
 * cannot be started (fork failed, the mechanism refused); a command that
 * cannot be exec'd exits 127 or 126.  The calling thread keeps SIGCHLD
 * blocked from then on (the sampler reads it), as attach_start's does.
 */
struct attach *attach_spawn(struct attach_opts *o, char *const *cmd, void (*child)(void), void (*fwd)(pid_t),
			    void (*unfwd)(void), char *why, size_t whylen);

/* Is the session still sampling (not every process gone, the command not
 * ended, the duration not over)? */
int attach_running(const struct attach *a);

/* Ask the session to stop (async-signal-safe): it detaches, at once. */
void attach_stop(struct attach *a);

/* What the session did. */
struct attach_result {
	size_t processes;              /* profiled, the forked ones included */
	size_t threads;                /* seen */
	size_t execs;                  /* programs exec'd while attached */
	uint64_t samples;              /* taken, all profiles */
	uint64_t blocked_at_due;       /* ptrace: samples due while the thread had just
					  blocked, taken where it waits (not interrupted) */
	uint64_t eintr_restarted;      /* ptrace: system calls our stop made return EINTR,
					  restarted before the thread saw it */
	uint64_t off_cpu;              /* ptrace: interrupts that found the thread waiting for
					  a CPU at a system call's exit, let go unsampled (the
					  period counted as dropped) */
	uint64_t lost;                 /* perf: samples the ring buffers lost */
	uint64_t dropped;              /* ptrace: periods that passed without a sample (the
					  sampler woke later than one period after the last:
					  the tick, a busy machine) */
	uint64_t stop_ns;              /* ptrace: total time from pct's interrupts to the threads'
					  release, ns (a thread waiting for a CPU meanwhile
					  included) */
	uint64_t held_ns;              /* ptrace: of which from the stops' sight to the release:
					  the time pct held them, ns */
	uint64_t wall_ns;              /* how long pct was attached, ns */
	uint64_t cpu_ns;               /* CPU time the processes used while attached, ns, of
					  the profiles whose clocks were read at their start
					  and end */
	uint64_t sampled_ns;           /* what those profiles' samples and dropped periods
					  stand for, ns */
	size_t inexact;                /* profiles left out of those two: a process that ended,
					  or exec'd, between the perf mechanism's reads */
	int gone;                      /* every process ended */
	/* with a command */
	int status;                    /* its wait status */
	struct rusage ru;              /* its wait4 rusage */
	uint64_t own_ns;               /* its own CPU time (not its children's), or UINT64_MAX */
};

/*
 * Wait for the session to end (o->duration_ns, attach_stop, every
 * process gone, or the command ended), detach from everything, and
 * write the profiles (unless already written as snapshots: then once
 * more, complete).  Returns 0, or 1 if a profile could not be written
 * (warned); *r says what was done.  Frees a.
 */
int attach_finish(struct attach *a, struct attach_result *r);

/* The name of a mechanism: "perf" or "ptrace". */
const char *attach_mech_name(int mech);

/* -p's PID[,PID...]: appended to *pids (malloc'd, *n of them); 0, or -1
 * if arg is not process ids (decimal, 1 to 2^31 - 1) separated by
 * commas. */
int attach_parse_pids(const char *arg, uint32_t **pids, size_t *n);
/* --mechanism's perf or ptrace: ATTACH_PERF or ATTACH_PTRACE, or -1. */
int attach_parse_mechanism(const char *arg);

#endif
