/*
 * runtime.h - shared state and internal functions of libpct.
 *
 * Everything here is hidden (the library is built with
 * -fvisibility=hidden); only the functions in include/pct.h are exported,
 * so nothing of the runtime leaks into the host program's namespace.
 *
 * Dialect: functions marked async-signal-safe may run inside the SIGPROF
 * handler.  They take no locks that the interrupted code could hold, call
 * no malloc and no stdio, and use only the system calls POSIX lists as
 * async-signal-safe (open, read, close, clock_gettime, write) plus atomics.
 */
#ifndef PCT_RUNTIME_H
#define PCT_RUNTIME_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "pct_format.h"

/* Defaults, documented in pct.h and libpct(3). */
#define RT_DEFAULT_HZ 1000
#define RT_DEFAULT_SLOTS_LOG2 18
#define RT_MIN_SLOTS_LOG2 10
#define RT_MAX_SLOTS_LOG2 26
#define RT_MODULES_MAX 1024
#define RT_STRINGS_SIZE (256 * 1024)
#define RT_CMDLINE_MAX (32 * 1024)     /* bytes of argv kept in the header */
#define RT_MAX_PROBES 64               /* table probes before a sample is dropped */
#define RT_MAX_RESCANS 256             /* /proc/self/maps reads per process */

enum rt_state { RT_IDLE, RT_STARTING, RT_ON, RT_OFF, RT_FAILED };

struct rt {
	_Atomic int state;             /* enum rt_state */
	_Atomic int sampling;          /* the handler records only while set */
	_Atomic int table_ready;       /* the file exists and table points into it */
	int quiet;                     /* $PCT_QUIET: no warnings */
	atomic_flag module_lock;       /* held while appending a module record */
	int argc;                      /* from the constructor, if trustworthy */
	char **argv;

	struct pct_header *hdr;        /* the file's MAP_SHARED mapping, or the
					  anonymous staging copy before the first sample */
	struct pct_module *modules;
	char *strings;
	struct pct_entry *table;       /* in the file; NULL until table_ready */
	uint64_t slots_mask;
	uint64_t slots_limit;          /* stop claiming new slots past this */
	unsigned slots_shift;          /* 64 - log2(slots), for the hash */
	char path[PCT_PATH_MAX + 1];   /* the file's final name */
};

extern struct rt rt_g;

/* modules.c */
int rt_modules_scan_loaded(void);
int rt_modules_add_mapping_of(uintptr_t pc);        /* async-signal-safe */
int rt_module_find(uintptr_t pc);                   /* async-signal-safe */

/* sample.c */
void rt_sample(uintptr_t pc);                       /* async-signal-safe */
int rt_sampling_start(unsigned hz);
void rt_sampling_disarm(void);                      /* async-signal-safe */
void rt_sampling_stop(void);

/* output.c */
int rt_output_prepare(const char *name, unsigned slots_log2);
int rt_output_create(void);                         /* async-signal-safe */
void rt_output_finish(void);

/* warn.c */
void rt_warn(const char *what, const char *detail, int err);  /* async-signal-safe */
char *rt_utoa(uint64_t v, char *buf_end);                     /* async-signal-safe */

#endif
