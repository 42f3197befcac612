/*
 * pct.h - the public interface of libpct, pct's sampling runtime (libpct(3)).
 *
 * Profiling is controlled by the environment, never by the code: nothing
 * happens unless $PCT is set when pct_on() runs.  pct_on() runs by itself
 * from a constructor when libpct.so is preloaded or linked, and when
 * libpct.a is linked with -Wl,-u,pct_on (or when the program calls it), so
 * calling it from main() is optional, and harmless to leave in shipped code.
 *
 * $PCT              output file name; "%p" becomes the pid, "%e" the
 *                   executable's base name, "%%" a percent sign.  Empty or
 *                   "1": "<argv[0] base name>.<pid>.pct" in the working
 *                   directory.  An existing file is never overwritten: the
 *                   runtime then writes "NAME.PID.pct" (NAME without its
 *                   ".pct"), or "NAME.PID.K.pct" if that exists too.
 * $PCT_HZ           requested sampling rate in Hz (unset: 250, CPU-time
 *                   timers; above 250, perf_event_open task-clock, user
 *                   time only).
 * $PCT_EVENT        cpu (default), user, wall, cycles, instructions,
 *                   cache-misses or branch-misses (libpct(3)).
 * $PCT_PERIOD       events per sample of a hardware event.
 * $PCT_SIGNAL       the signal pct samples on: 16 (SIGSTKFLT, the default) or a
 *                   real-time signal SIGRTMIN..SIGRTMAX; others are refused.
 * $PCT_SLOTS        sample table size in entries, a power of two between
 *                   2^10 and 2^26 (default 2^18: 4 MiB, about 229000
 *                   distinct instructions).  Samples past it are counted
 *                   as dropped.
 * $PCT_QUIET        if set and not "0", the runtime's warnings are silenced.
 */
#ifndef PCT_H
#define PCT_H

/* The si_value.sival_ptr of the timer signals pct samples on: a signal of
 * pct's with si_code SI_TIMER and this value is taken as a sample; any
 * other goes to the program's own disposition (libpct(3), SIGNALS). */
#define PCT_SAMPLE_COOKIE 0x7063742d73616d70ull   /* "pct-samp" */

/* $PCT_HZ: the highest rate (Hz) of the cpu event sampled with CPU-time
 * timers, one period a kernel tick at CONFIG_HZ=250; above it,
 * perf_event_open task-clock (libpct(3), ENVIRONMENT). */
#define PCT_TIMER_MAX_HZ 250

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Start sampling this process if $PCT is set.  Returns 1 if the process is
 * being profiled (now or already), 0 if $PCT is unset, and -1 if profiling
 * was asked for but could not start (one warning on stderr says why; the
 * program is otherwise unaffected).  Safe to call any number of times.
 */
int pct_on(void);

/*
 * Stop sampling and finish the file: end time, CPU time covered and the
 * measured period.  It runs by itself at exit; call it to end a profile
 * early.  Sampling does not restart after it.  Safe to call any number of
 * times, and when pct_on() was never called.
 */
void pct_off(void);

/*
 * The name of the file this process writes, or NULL if there is none yet.
 * The file is created when the first sample is taken, so a process that
 * never uses a whole sampling period of CPU time writes no file.  The
 * string stays valid until the process exits.
 */
const char *pct_output_path(void);

#ifdef __cplusplus
}
#endif

#endif
