/*
 * launch.h - running a command with pct's sampling runtime preloaded, as
 * `pct record` and `pct top -- COMMAND` do, and finding the profiles its
 * process tree writes.
 *
 * The child gets LD_PRELOAD=libpct.so (ahead of any preload it already
 * has), PCT=FILE, PCT_ROOT_PID, PCT_SESSION (the run's token, which every
 * process copies into its profile's header) and the sampling options;
 * the runtime's constructor does the rest.  A forked or exec'd process
 * writes FILE's stem + ".PID.pct" (or ".PID.K.pct") while it runs.
 */
#ifndef PCT_LAUNCH_H
#define PCT_LAUNCH_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
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
	/* set by launch_start */
	pid_t pid;                     /* the command's process */
	struct sigaction oldint, oldquit;
};

/*
 * Start cmd (argv, NULL-ended; found on $PATH as execvp does) under the
 * runtime, as system(3) does: until launch_end, SIGINT and SIGQUIT are
 * ignored here, so the terminal's ^C and ^\ reach the command and we go
 * on to report.  A command that cannot be run exits 127 (not found) or
 * 126, with a message.  Returns 0 with l->pid set, or -1 (fork failed;
 * errno set, the signals restored).
 */
int launch_start(struct launch *l, char *const *cmd);
/* Restore SIGINT and SIGQUIT as they were before launch_start. */
void launch_end(struct launch *l);

/* The exit status to exit with for a child's wait status: the same
 * status, or, killed by a signal, the same signal raised here (without a
 * core dump of our own; 128 + the signal if that returns). */
int launch_exit_status(int status);

/* Is s "PID.pct" or "PID.K.pct", the runtime's suffixes for the
 * profiles of a tree's other processes (lib/output.c)? */
int launch_profile_suffix(const char *s);

/*
 * The names of the other processes' profiles of a run writing file:
 * those that exist now named file's stem (without ".pct") + "." + a
 * runtime suffix (launch_profile_suffix), in no order, in *paths
 * (malloc'd, each malloc'd; free with launch_paths_free).  Returns
 * their number.  The names only: whoever reads them checks whose they
 * are (a shared directory may hold anyone's).
 */
size_t launch_tree_paths(const char *file, char ***paths);
void launch_paths_free(char **paths, size_t n);

#endif
