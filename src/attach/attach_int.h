/*
 * attach_int.h - what the attach layer's files share: the session's
 * processes and threads (session.c), the readers of /proc (proc.c), and
 * the two mechanisms (mech_perf.c, mech_ptrace.c).
 */
#ifndef PCT_ATTACH_INT_H
#define PCT_ATTACH_INT_H

#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "attach.h"
#include "profile_build.h"

/* -g registers: DWARF order, as the runtime records them (lib/arch-*.h) */
#if defined(__x86_64__)
#define ATTACH_MACHINE 62              /* EM_X86_64 */
#define ATTACH_REGS 17                 /* rax rdx rcx rbx rsi rdi rbp rsp r8-r15, then the PC */
#define ATTACH_SP 7
#elif defined(__aarch64__)
#define ATTACH_MACHINE 183             /* EM_AARCH64 */
#define ATTACH_REGS 33                 /* x0-x30, sp, then the PC */
#define ATTACH_SP 31
#else
#error "pct attaches on x86_64 and aarch64 only"
#endif

/* ---- proc.c: what /proc says of a process or thread ---- */

uint64_t mono_now(void);
int64_t real_now(void);

/* The tids of pid (/proc/PID/task) in *out (malloc'd); their number, or
 * -1 with errno if the process is gone. */
long proc_tids(uint32_t pid, uint32_t **out);
/* The thread's name (comm) in name[16]; 0, or -1. */
int proc_comm(uint32_t pid, uint32_t tid, char name[16]);
/* The command line (argv bytes, malloc'd, *len), or NULL. */
char *proc_cmdline(uint32_t pid, size_t *len);
/* A field of /proc/PID/status ("PPid", "TracerPid", "Tgid") as a number;
 * -1 if absent. */
long proc_status_num(uint32_t pid, const char *field);
/* The real, effective, saved and fs uids (gids) of /proc/PID/status. */
int proc_ids(uint32_t pid, const char *field, unsigned ids[4]);
/* The thread's state letter (R, S, D, T, t, Z...), or 0 if gone. */
char proc_state(uint32_t pid, uint32_t tid);
/* The CPU the thread last ran on (/proc/PID/task/TID/stat, field 39),
 * or -1. */
int proc_last_cpu(uint32_t pid, uint32_t tid);
/* The thread's CPU time (schedstat's first field), ns, read through fd
 * (open at /proc/PID/task/TID/schedstat, proc_schedstat_open); -1 if
 * gone. */
int proc_schedstat_open(uint32_t pid, uint32_t tid);
int64_t proc_schedstat(int fd);
/* The same, and in *runs how many times the thread has been given a CPU
 * (schedstat's third field, pcount). */
int64_t proc_schedstat_runs(int fd, uint64_t *runs);
/* The user PC and SP of a thread blocked in a system call
 * (/proc/PID/task/TID/syscall); 1 if blocked, 0 if running, -1 if it
 * cannot be read (gone, or not permitted: errno). */
int proc_blocked_at(uint32_t pid, uint32_t tid, uint64_t *pc, uint64_t *sp);
/* The process's CPU time, user + system, ns (its CPU clock); 0 if gone. */
uint64_t proc_cpu_ns(uint32_t pid);

/* Read /proc/PID/maps: each executable mapping becomes a module of b
 * (not one it has at the same range and offset already); ones it had
 * that are no longer mapped are marked unmapped.  Build-ids are read
 * from the process's memory (the ELF headers its loader mapped), else
 * from the file through /proc/PID/map_files or /proc/PID/root.  Returns
 * the modules added, or -1 if the maps cannot be read. */
int proc_scan_modules(uint32_t pid, struct pbuild *b);
/* The build-id of the file mapped at [start, end) with offset off,
 * device dev and inode ino of path, in pid (memory first, then file):
 * its length, 0 if none found. */
size_t proc_build_id(uint32_t pid, uint64_t start, uint64_t end, uint64_t off, const char *path, uint8_t *out);

/* ---- session.c: the processes and threads being sampled ---- */

struct aproc;

enum thread_state {
	TH_RUNNING = 0,                /* not stopped by us */
	TH_INTERRUPTING,               /* ptrace: PTRACE_INTERRUPT sent, its stop not yet seen */
	TH_GROUP_STOP,                 /* ptrace: in a group-stop (SIGSTOP...), left so (PTRACE_LISTEN) */
	TH_NEW,                        /* ptrace: auto-attached, its first stop not yet seen */
	TH_GONE,
};

struct athread {
	uint32_t tid;
	struct aproc *proc;
	int state;                     /* enum thread_state */
	char name[16];
	uint32_t slot;                 /* thread slot + 1 in proc's profile (generation) */
	int gen;                       /* the generation slot belongs to */
	/* ptrace */
	int stat_fd;                   /* /proc/PID/task/TID/schedstat, or -1 */
	uint64_t due_ns;               /* CPU time at which the next sample is due */
	uint64_t weight;               /* samples the pending interrupt stands for */
	uint64_t stop_at;              /* CLOCK_MONOTONIC when the interrupt was sent */
	uint64_t runs;                 /* its schedstat pcount then */
	int on_our_cpu;                /* it last ran on the sampler's CPU then */
	/* perf */
	int *fds;                      /* the thread's events, one per CPU; NULL: inherited */
	int nfds;
	/* wall */
	int64_t wall_cpu;              /* CPU time when last looked at, -1: never */
	int wall_blocked;
	uint64_t wall_pc, wall_sp;
};

struct agen {                          /* one program of a process: a profile */
	struct pbuild *b;
	uint64_t start_mono;
	int ended;
	char *name;                    /* the file it is written to, once chosen */
	int start_exact, end_exact;    /* its CPU time at the start and at the end were read
					  then (a clock read late would blur its coverage) */
};

struct aproc {
	uint32_t pid, ppid;
	struct agen *gens;             /* in order; the last is current */
	size_t ngens, capgens;
	int alive;
	size_t nthreads_alive;
	int rescans;                   /* /proc/PID/maps reads for unknown PCs */
	int execd;                     /* the command's first exec was seen */
	int foreign;                   /* its root or mount namespace is not ours: its modules
					  are cached through /proc while it lives */
	size_t cached;                 /* modules of its current profile looked at for that */
	int order;                     /* when it was found: the files' order */
	/* ptrace: the CPU-time timer on the process's clock that wakes us */
	timer_t timer;
	int have_timer;
	int due;                       /* the timer fired: look at its threads */
};

struct session {
	struct attach_opts o;
	uint32_t self_tid;             /* the sampler thread */
	struct aproc **procs;
	size_t nprocs, capprocs;
	struct athread **threads;      /* every thread seen, gone ones too */
	size_t nthreads, capthreads;
	volatile sig_atomic_t stop;
	int wake_fd;                   /* an eventfd written to wake the sampler */
	pthread_t thread;
	int started;
	volatile int done;             /* the sampler has ended */
	uint64_t t0_mono;              /* when sampling started */
	uint64_t deadline;             /* CLOCK_MONOTONIC end of --duration, or 0 */
	uint64_t next_snapshot, next_wall;
	struct attach_result res;
	/* a command */
	pid_t cmd_pid;                 /* 0: none */
	char *cmd_argv;                /* its argv, NUL-terminated arguments */
	size_t cmd_argv_len;
	int cmd_done;
	void (*unfwd)(void);
	int gate_fd;                   /* the write end of the child's pipe, -1 once released */
	/* the mechanism's own */
	void *mech;
	char err[512];
	int failed;
};

/* The process pid, or NULL. */
struct aproc *sess_proc(struct session *s, uint32_t pid);
/* A new process, its first generation started now, its modules read
 * from /proc/PID/maps (PROC_SCAN; parent's if that fails), copied from
 * parent's (PROC_COPY: a fork, whose maps may be another program's by
 * the time they are read), or none yet (PROC_EMPTY: the command, before
 * its exec, named by argv). */
#define PROC_SCAN 0
#define PROC_COPY 1
#define PROC_EMPTY 2
#define PROC_FORKED 4                  /* or'd: a child forked while attached (its CPU clock
					  started at 0) */
/* The command record runs (s->cmd_pid), held at its gate until the
 * mechanism follows it, is let go: 0, or -1 with s->err set. */
int sess_release_command(struct session *s);
struct aproc *sess_proc_new(struct session *s, uint32_t pid, uint32_t ppid, struct aproc *parent, int how);
/* The thread tid, or NULL (the newest one of that tid). */
struct athread *sess_thread(struct session *s, uint32_t tid);
struct athread *sess_thread_new(struct session *s, struct aproc *p, uint32_t tid);
void sess_thread_gone(struct session *s, struct athread *t);
/* The process exec'd: its profile ends, a new one starts (at mono), its
 * modules read from /proc/PID/maps if scan (else they come as the
 * mechanism reports mappings).  The command's first exec continues the
 * profile started for it. */
void sess_exec(struct session *s, struct aproc *p, uint64_t mono, int scan);
/* The process ended; cpu_ns: its CPU time at the end if read then, else 0. */
void sess_proc_gone(struct session *s, struct aproc *p, uint64_t mono);
void sess_proc_cpu_final(struct session *s, struct aproc *p, uint64_t cpu_ns);
/* The generation of p that was current at mono (samples read late). */
struct agen *sess_gen_at(struct aproc *p, uint64_t mono);
/*
 * weight samples of thread t at pc, taken at mono, into the generation
 * current then; with regs (ATTACH_REGS, DWARF order) and a stack copy.
 * A pc in no known module has the maps read again (at most
 * ATTACH_RESCANS times a process) while the process lives.
 */
void sess_sample(struct session *s, struct athread *t, uint64_t pc, uint64_t weight, uint64_t mono,
		 const uint64_t *regs, uint64_t sp, const void *stack, uint32_t stack_len);
/* periods of thread t's CPU time that passed without a sample (counted
 * in the profile's dropped). */
void sess_dropped(struct session *s, struct athread *t, uint64_t periods, uint64_t mono);
/* One pass of the wall event's sampler of blocked threads, worth n
 * periods (every thread not on a CPU is charged where it waits). */
void sess_wall_pass(struct session *s, uint64_t n);
#define ATTACH_RESCANS 256

/* The mechanisms: set up (attach to o->pids, or to the command s->cmd_pid
 * before it execs), one wait for work (at most until deadline_mono), the
 * end (detach: nothing left stopped), and freeing. */
struct mech_ops {
	int (*start)(struct session *s);
	void (*step)(struct session *s, uint64_t until_mono);
	void (*stop)(struct session *s);
};
extern const struct mech_ops mech_perf, mech_ptrace;

/* perf: can an event be opened on tid? 0, or errno (*user_only set if
 * only user mode can be sampled). */
int perf_probe(uint32_t tid, const struct attach_opts *o, int *user_only);

#endif
