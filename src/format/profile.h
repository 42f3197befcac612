/*
 * profile.h - reading pct profile files (pct(5)) into memory.
 *
 * profile_read() checks every field of the header, the module table and
 * the sample table against the file's size before it trusts it, and on any
 * error returns -1 with a message that names the field and what is wrong.
 * It never reads outside the file.
 */
#ifndef PCT_PROFILE_H
#define PCT_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "pct_format.h"

struct stat;

#define PROFILE_NO_MODULE UINT32_MAX   /* sample.module for a PC in no known module */

struct profile_module {
	char *path;
	int kind;                      /* enum pct_module_kind */
	uint8_t build_id[PCT_BUILD_ID_MAX];
	size_t build_id_len;
	uint64_t start, end;           /* absolute addresses in the profiled process */
	uint64_t file_offset;          /* file offset mapped at start */
};

struct profile_thread {
	uint32_t tid;                  /* 0: an empty slot */
	char name[17];                 /* printable, NUL-terminated */
	uint64_t samples;
};

struct profile_sample {
	uint32_t module;               /* index in modules, or PROFILE_NO_MODULE */
	uint32_t thread;               /* thread slot + 1 (index in threads + 1); 0: unknown */
	uint64_t offset;               /* offset in the module's file, or the absolute PC */
	uint64_t count;                /* samples */
};

#define PROFILE_COMMAND_WIDTH 60    /* bytes of a process's label (profile.command) */
#define PROFILE_STACK_REGS_MAX 64      /* registers a stack record may carry */
#define PROFILE_STACK_BYTES_MAX (1u << 20) /* bytes of stack a record may carry */
#define PROFILE_CMDLINE_MAX (1u << 20) /* bytes of command line a header may claim (the
					  runtime keeps 32 KiB) */

/* A sample's raw call stack (pct record -g): registers in DWARF order and
 * the stack bytes copied from sp up; callstack.h turns it into frames. */
struct profile_stack {
	uint32_t thread;               /* thread slot + 1; 0: unknown */
	uint64_t weight;               /* samples it stands for */
	uint64_t sp;                   /* address of stack[0] */
	const uint64_t *regs;          /* hdr.stack_regs registers */
	const uint8_t *stack;          /* stack_len bytes */
	uint32_t stack_len;
	uint32_t tick;                 /* the file's tick record, index + 1; 0: none (readers
					  use ticks[].stack instead) */
};

/* A sample's time (version 3 files): one record of the tick log. */
struct profile_tick {
	uint64_t time_ns;              /* ns since the profile's start (hdr.clock_start_ns,
					  CLOCK_MONOTONIC) */
	uint32_t sample;               /* index in samples: the PC (module, offset) and thread */
	uint32_t stack;                /* index in stacks + 1 of its call stack (-g); 0: none */
	uint64_t weight;               /* samples it stands for */
};

/* Samples known only to the bucket (after the tick log filled). */
struct profile_bucket {
	uint64_t start_ns;             /* since the profile's start; the bucket lasts bucket_ns */
	uint32_t thread;               /* thread slot + 1; 0: unknown */
	uint64_t count;                /* samples */
};

struct profile {
	char *file;                    /* the name it was read from */
	uint32_t run;                  /* a tree member's run (pct_tree_member.run); 0 else */
	struct pct_header hdr;         /* a copy, validated */
	struct profile_module *modules;
	size_t nmodules;
	struct profile_sample *samples;
	size_t nsamples;
	struct profile_thread *threads; /* the file's thread table, by slot */
	size_t nthreads;
	struct profile_stack *stacks;  /* call stacks, if recorded with -g */
	size_t nstacks;
	char *stackdata;               /* what stacks[] point into: in stackmap */
	void *stackmap;                /* an anonymous mapping of stackmap_len bytes, or NULL */
	size_t stackmap_len;
	char *cmdline;                 /* argv joined by spaces */
	char *command;                 /* the process: base name of argv[0] and the other
					  arguments, at most PROFILE_COMMAND_WIDTH bytes (then
					  "..."), control bytes as '?'; "?" if none */
	struct profile_tick *ticks;    /* in time order (a stable sort); NULL for version 2 */
	size_t nticks;
	uint64_t ticks_total;          /* sum of ticks[].weight: the samples whose time is known
					  to the ns; total - ticks_total are in buckets or untimed */
	struct profile_bucket *buckets; /* by start_ns, then thread */
	size_t nbuckets;
	uint64_t bucket_ns;            /* length of a bucket, ns (hdr.bucket_ms x 10^6) */
	int timed;                     /* 1 if the file has a time log (version 3) */
	uint64_t duration_ns;          /* ns from the start to the end of sampling (CLOCK_MONOTONIC);
					  while the file is running, to its last tick or bucket */
	uint64_t total;                /* sum of samples[].count */
	uint64_t cpu_ns;               /* what the samples cover: CPU time of the process, ns
					  (cpu_last_ns - cpu_start_ns), for cpu and user; (samples +
					  dropped) x period_requested_ns for the others: ns of
					  wall-clock time for wall, events for a hardware event */
	int owned;                     /* owner_uid and owner_gid are known: read from a file */
	uid_t owner_uid;               /* the owner of the file it was read from (fstat), its */
	gid_t owner_gid;               /* writer; standard input's copy is the reader's own */
};

/* Record st's owner as p's (profile.owned). */
void profile_set_owner(struct profile *p, const struct stat *st);

/*
 * Read and validate FILE; "-" is standard input, read once in a process
 * (it is copied to an anonymous file first, and named "standard input").
 * Returns 0, or -1 with a message in err ("FILE: what is wrong").  A file that is still being written is read as
 * a consistent snapshot: samples may be a few behind the header counters.
 */
int profile_read(const char *file, struct profile *p, char *err, size_t errlen);
/* Open FILE for reading as profile_read does ("-": standard input, copied
 * once); returns the descriptor with the name to show in *shown and the
 * size in *size, or -1 with "'FILE': cannot open: why" in err. */
int profile_open(const char *file, const char **shown, uint64_t *size, char *err, size_t errlen);
/* profile_read of a file already open at fd (size bytes, from fstat), named
 * file in messages; fd is left open. */
int profile_read_fd(int fd, uint64_t size, const char *file, struct profile *p, char *err, size_t errlen);
/* The same checks on a profile already in memory (size bytes at data,
 * 8-byte aligned), named name in messages. */
int profile_parse(const char *name, const void *data, size_t size, struct profile *p, char *err, size_t errlen);
/* A header for a profile pct's tools write (merge, attach): zeroed, then
 * the magic, version, byte order, header size and state (complete, else
 * running) of pct_format.h. */
void profile_header_init(struct pct_header *h, int complete);
void profile_free(struct profile *p);

/*
 * The profile of the file at fd (size bytes, named file in messages),
 * compacted into a new pct file in memory (*out, malloc'd, *outlen bytes):
 * the same header, modules, string pool and stack records, with only the
 * sample table's used entries (the smallest power of two of slots that
 * holds them, used entries first), the thread table's used slots (packed,
 * renumbered in the entries' and stack records' ctx) and no unused
 * reserve in the module table, pool or stack region.  Holes of a sparse file are skipped,
 * not read.  Returns 0, or -1 with "'FILE': what is wrong" in err.  The
 * result is not checked beyond the header: parse it (profile_parse).
 */
int profile_compact_fd(int fd, uint64_t size, const char *file, void **out, size_t *outlen, char *err,
		       size_t errlen);

/* A byte range of a profile file. */
struct profile_span {
	uint64_t off, len;
};
#define PROFILE_SPANS_MAX 8

/*
 * The byte ranges of a profile of size bytes that profile_read_fd and
 * profile_compact_fd read, from its first len bytes (at least
 * min(size, sizeof(struct pct_header))): the header and, if it passes the
 * checks of profile_read_fd, each region it bounds as far as it is used
 * (the module records counted, the pool's used bytes, the thread table,
 * the sample table, the stack records used, the ticks used, the bucket
 * table).  Nothing else of the file is read, so a copy that holds only
 * these ranges (zeros elsewhere) reads the same.  Returns how many, at
 * most PROFILE_SPANS_MAX, in out.
 */
size_t profile_spans(const void *head, size_t len, uint64_t size, struct profile_span *out);

/* The mode the runtime gives a profile file, whatever the umask: 0600 if
 * the profile at data (size bytes) holds call stacks (copies of raw stack
 * memory), else 0644. */
unsigned profile_file_mode(const void *data, size_t size);

/* Does the file at path start with the pct magic, of a profile or of a
 * process tree (tree.h)?  (Commands use it to tell a profile operand from
 * another kind.) */
int is_profile(const char *path);

/* The name of an event (pct_format.h), e.g. "cpu", or "?" */
const char *event_name(uint32_t event);

/* Samples per second of the dimension (Hz), or 0 if unknown: samples
 * (with the dropped ones) over cpu_ns (stats_rate_hz). */
double profile_rate(const struct profile *p);

/* The profile's identity: FNV-1a over its pid, its two start times
 * (clock_start_ns, start_time_ns) and its sample total, and a sum of a
 * hash of each sample's (module_hash, offset, count), which a merged
 * file's copy keeps whatever its table's order.  The same process's profile read twice (a
 * file named twice, a copy, a member of a merge) has the same identity;
 * two processes share one only by a 64-bit collision. */
uint64_t profile_identity(const struct profile *p);

/* The error for a profile given twice: "'A' and 'B' hold the same
 * profile (process PID ...)" in err, the names escaped.  Every reader
 * refuses it (pset_add, tree_merge): its samples would count twice, and
 * as two runs they would agree by construction. */
void profile_twice_error(char *err, size_t errlen, const char *a, const char *b, uint32_t pid);

/* 1 if the profile's samples measure CPU time (event cpu or user), whose
 * span the header records (cpu_start_ns, cpu_last_ns), else 0. */
int profile_measures_cpu(const struct profile *p);

/* The CPU time the samples stand for, ns: (total + dropped) samples x
 * period_requested_ns (saturating); 0 if the profile does not measure
 * CPU time. */
uint64_t profile_sampled_ns(const struct profile *p);

/*
 * The samples the profile should hold if every period of its CPU time had
 * been sampled: the process's CPU time from the start of sampling to its
 * end (cpu_last_ns - cpu_start_ns, CLOCK_PROCESS_CPUTIME_ID, user +
 * system) over the period asked of the kernel (period_requested_ns).
 * Compare with total + hdr.dropped (stats_shortfall).  -1 if the profile
 * does not measure CPU time or has no requested period.  With event user,
 * or with perf's user-only sampling of event cpu, the span still counts
 * system time, which such samples never see.
 */
double profile_expected_samples(const struct profile *p);

/*
 * A time range, parsed from "START..END" (seconds since the start,
 * decimal, either end may be left out: "2..", "..1.5", ".."):
 * from_ns <= t < to_ns.  Returns 0, or -1 with "--time=ARG: bad time range:
 * why" in err (ARG as given, escaped, cut to 80 bytes).
 */
struct time_range {
	uint64_t from_ns, to_ns;       /* to_ns UINT64_MAX: open */
};
int time_range_parse(const char *arg, struct time_range *r, char *err, size_t errlen);

/*
 * Keep only the samples taken in r, seconds counted from origin_ns
 * (CLOCK_MONOTONIC; the profile's own hdr.clock_start_ns for one profile,
 * the first member's for a process tree): every sample's count, the
 * threads' samples and total become the sums of the ticks in range; call
 * stacks whose tick is outside (or which have none) are dropped, and so
 * are the ticks themselves.  Samples known only to their bucket are
 * counted in *coarse (a bucket that overlaps the range but is not inside
 * it) and are not kept.  Returns 0, or -1 with "FILE: has no sample
 * times (format version 2)" in err.
 */
/* Why p has no sample times ("format version 2; record it again", "pct
 * merge keeps none; ...", "recorded with PCT_TIME_AREA=0; ..."), or NULL
 * if it has them (p->timed). */
const char *profile_untimed_why(const struct profile *p);

int profile_slice(struct profile *p, const struct time_range *r, uint64_t origin_ns, uint64_t *coarse, char *err,
		  size_t errlen);

/*
 * The samples of some threads and modules, as perf report's --comm,
 * --tid and --dso select them: each field a comma-separated list, NULL
 * for no filter.  comm: a thread's name (its comm, 15 bytes at most) or
 * the program's name (the first word of profile.command); tid: thread
 * ids, decimal; dso: a module's path or its base name.
 */
struct profile_filter {
	const char *comm, *tid, *dso;
};
/* 1 if f selects everything (no field set). */
int profile_filter_empty(const struct profile_filter *f);
/*
 * Keep only the samples f selects (select.c): a sample by its thread and
 * module; a call stack by its thread and the module of its sampled PC
 * (the last register); a tick with its sample, a bucket by its thread
 * (none with dso: a bucket has no module).  Totals and the threads'
 * samples become the sums of what is kept, and cpu_ns shrinks in
 * proportion, as profile_slice does.  No errors.
 */
void profile_select(struct profile *p, const struct profile_filter *f);
/* After a slice or a selection kept p->total of before samples (with the
 * dropped ones): what the kept samples cover, at the profile's own rate,
 * so that rates and the shortfall check read as for a whole profile
 * (cpu_ns and cpu_last_ns in proportion); the dropped, untimed and
 * stacks_dropped counts become 0 (ticks.c). */
void profile_cover_kept(struct profile *p, uint64_t before);

/*
 * Timer overruns: a sample signal that stands for more than one period
 * (its weight, 1 + the timer's overrun: the signal waited while its
 * thread was in a long system call, 32 periods in one read(2) of 256 MiB
 * from /dev/zero, or the kernel checked the timer late, as a loaded
 * machine's does, up to 40 periods beside three busy loops here).  A count of such signals varies more than
 * Poisson: its variance is the sum of the squared weights, not of the
 * weights, so sqrt(samples) understates its error by about
 * stats_overrun_factor().  Summed over the tick logs (the samples whose
 * signal is known; a slice's only).
 */
struct profile_overruns {
	uint64_t signals;              /* sample signals (ticks) */
	uint64_t samples;              /* the samples they stand for: sum of weights */
	uint64_t squares;              /* sum of the squared weights */
	uint64_t max;                  /* the largest weight */
};
/* Add the ticks of p to o (saturating). */
void profile_overruns_add(const struct profile *p, struct profile_overruns *o);
/* The one sentence that says so, as `pct record` and `pct report` print
 * it, in buf (cap bytes): "timer overruns: ..."; 0 if there is nothing to
 * say (the factor below STATS_OVERRUN_NOTE), else 1. */
int profile_overruns_note(const struct profile_overruns *o, char *buf, size_t cap);

/* A hex build-id ("" if none) in buf of at least 2*PCT_BUILD_ID_MAX+1. */
const char *build_id_hex(const uint8_t *id, size_t len, char *buf);

#endif
