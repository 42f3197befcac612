/*
 * launch.h - running a command with pct's sampling runtime preloaded, as
 * `pct record` and `pct top -- COMMAND` do, and finding the profiles its
 * process tree writes.
 *
 * The child gets LD_PRELOAD=PRELOAD:libpct.so (after the preloads it
 * already has, so that a sanitizer's runtime the user preloads stays
 * first, as it demands), ASAN_OPTIONS=verify_asan_link_order=0 ahead of
 * any it has (a program built with gcc -fsanitize=address links libasan,
 * which refuses to run when a preload comes before it; the user's own
 * setting, later in the list, still wins), PCT=FILE, PCT_ROOT_PID,
 * PCT_SESSION (the run's token, which every process copies into its
 * profile's header) and the sampling options; the runtime's constructor
 * does the rest.  A forked or exec'd process writes FILE's stem +
 * ".PID.pct" (or ".PID.K.pct") while it runs.
 */
#ifndef PCT_LAUNCH_H
#define PCT_LAUNCH_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

/* The runtime to preload (malloc'd): $PCT_LIB, else libpct.so.1 beside
 * this program (BINDIR/../lib/libpct.so.1: the build tree, or an install
 * whose LIBDIR is PREFIX/lib), else in the LIBDIR the tool was built for
 * (PCT_LIBDIR, from the Makefile).  Dies (exit 1, the message prefixed
 * with who, e.g. "record") when none is readable. */
char *launch_runtime(const char *who);

/* A new session token for $PCT_SESSION: 64 random bits, never 0.  Dies
 * (prefixed with who) if the kernel gives no random bytes. */
uint64_t launch_session(const char *who);

struct launch {
	/* set by the caller */
	const char *file;              /* $PCT: the profile's name, absolute */
	const char *runtime;           /* libpct.so's path (launch_runtime) */
	uint64_t session;              /* $PCT_SESSION (launch_session) */
	const char *hz, *event, *period, *stack_bytes; /* $PCT_HZ, $PCT_EVENT, $PCT_PERIOD,
					  $PCT_STACK_BYTES, or NULL to leave unset */
	int stdin_null;                /* 1: the command reads /dev/null, not our standard input */
	int forward;                   /* 1: pass SIGTERM and SIGHUP on to the command */
	/* set by launch_start */
	pid_t pid;                     /* the command's process */
	struct sigaction oldint, oldquit, oldterm, oldhup;
	sigset_t oldmask;              /* the signal mask before launch_signals */
};

/*
 * Start cmd (argv, NULL-ended; found on $PATH as execvp does) under the
 * runtime, as system(3) does: until launch_end, SIGINT and SIGQUIT are
 * ignored here, so the terminal's ^C and ^\ reach the command and we go
 * on to report.  With l->forward, SIGTERM and SIGHUP sent to us are
 * passed on to the command's process (not to its process group, which is
 * ours and may hold our parent) until launch_reap, and otherwise
 * ignored until launch_end, so that the caller still gets to write the
 * command's profile; one the kernel sent (si_code SI_KERNEL: a hangup
 * of the terminal) went to the whole foreground process group, the
 * command included, and is not sent again.  A SIGTERM or SIGHUP ignored
 * when launch_start is called stays ignored, here and in the command.
 * A command that cannot be run exits 127 (not found) or 126, with a
 * message.  Returns 0 with l->pid set, or -1 (fork failed; errno set,
 * the signals restored).
 */
int launch_start(struct launch *l, char *const *cmd);
/*
 * launch_start's signals for a command started by someone else (attach.h
 * runs a program the runtime cannot enter): launch_signals ignores
 * SIGINT and SIGQUIT and, with l->forward, catches SIGTERM and SIGHUP
 * (held until launch_forward names the command's pid, then passed on to
 * it); launch_unforward stops passing them on (call it once the command
 * has ended, before it is reaped); launch_child_signals, in the child
 * before it execs, gives back the dispositions and mask as they were;
 * launch_end restores ours.
 */
void launch_signals(struct launch *l);
void launch_forward(struct launch *l, pid_t pid);
void launch_unforward(void);
void launch_child_signals(struct launch *l);

/* Reap the command (wait4 for l->pid, retried on EINTR) and stop passing
 * signals on to it, atomically with respect to them (a signal never goes
 * to a pid that may have been reused).  Returns 0, or -1 with errno. */
int launch_reap(struct launch *l, int *status, struct rusage *ru);
/* Restore SIGINT and SIGQUIT (and with l->forward, SIGTERM and SIGHUP)
 * as they were before launch_start. */
void launch_end(struct launch *l);

/* The exit status to exit with for a child's wait status: the same
 * status, or, killed by a signal, the same signal raised here (without a
 * core dump of our own; 128 + the signal if that returns). */
int launch_exit_status(int status);

/*
 * Keeping concurrent runs that write one FILE apart.  Each run holds a
 * lock on FILE + ".lock" (an open file description lock, fcntl(2)
 * F_OFD_SETLK, on a regular file of ours, mode 0600, created without
 * following a link) from before it starts the command until its profile
 * is written.  launch_lock takes it exclusively when no other run holds
 * it (k->alone = 1: the caller may move an old FILE aside, as no run is
 * writing it), else shared (k->alone = 0: another run is writing FILE
 * now, and the runs' root processes take FILE and FILE's derived names
 * as they come).  It never waits longer than a second (the exclusive
 * lock is held only while a run moves FILE aside or removes the lock
 * file).  Returns 0, or -1 with "cannot lock 'FILE.lock': why" in why.
 */
struct launch_lock {
	int fd;                        /* -1: none held */
	char *path;                    /* FILE.lock */
	int alone;
};
int launch_lock(struct launch_lock *k, const char *file, char *why, size_t whylen);
/* Turn an exclusive lock into a shared one, atomically (no other run can
 * come in between and find itself alone). */
void launch_lock_share(struct launch_lock *k);
/* Let go of the lock; the last run to let go removes FILE.lock (if it is
 * still the file locked, and empty).  Safe to call twice. */
void launch_unlock(struct launch_lock *k);

/* Is s "PID.pct" or "PID.K.pct", the runtime's suffixes for the
 * profiles of a tree's other processes (lib/output.c)? */
int launch_profile_suffix(const char *s);

/*
 * The names of the other processes' profiles of a run writing file:
 * those that exist now in file's directory named file's stem (without
 * ".pct") + "." + a runtime suffix (launch_profile_suffix), in no order,
 * in *paths (malloc'd, each malloc'd; free with launch_paths_free).
 * Returns their number.  The directory is listed and each name compared
 * byte for byte, so that no character of file's name is special (no
 * glob(3) pattern).  The names only: whoever reads them checks whose
 * they are (a shared directory may hold anyone's).
 */
size_t launch_tree_paths(const char *file, char ***paths);
void launch_paths_free(char **paths, size_t n);

#endif
