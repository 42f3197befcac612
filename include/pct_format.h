/*
 * pct_format.h - the one definition of the pct profile file (pct(5)).
 *
 * Both the runtime (lib/, which writes the file through a MAP_SHARED
 * mapping while the program runs) and the tools (src/, which read it)
 * include this header; nothing else defines the layout.
 *
 * Design, after GNU gmon.out's "new" format (gmon_out.h, glibc/binutils):
 * the file opens with a magic cookie, a version and a byte-order mark, and
 * every histogram states its physical dimension ("seconds"/"s").  Unlike
 * gmon.out, counts are 64-bit, granularity is one byte (one instruction),
 * and samples are keyed by (module, offset in the module's file), so that
 * ASLR and PIE do not matter and runs of one binary compare directly.
 *
 * Layout (all offsets from the start of the file, native byte order):
 *
 *   0                 struct pct_header          (header_size bytes)
 *   modules_offset    struct pct_module[modules_max]
 *   strings_offset    char[strings_size]         string pool (paths, argv)
 *   threads_offset    struct pct_thread[threads_max]  open-addressing table by tid
 *   table_offset      struct pct_entry[table_slots]   open-addressing table
 *   ticks_offset      struct pct_tick[ticks_max]       the time log (version 3)
 *   buckets_offset    struct pct_bucket[buckets_slots] coarse time after the log fills
 *   stacks_offset     struct pct_stack records   (stacks_size bytes; -g only)
 *   file_size
 *
 * pct_layout() below places the regions.
 *
 * The runtime creates the file under a temporary name, writes a complete
 * header, and only then links it to its final name, so a file that exists
 * under its final name always has a valid header.  Counters and the module
 * count then change while the program runs; a reader must treat every field
 * below "live" as a snapshot (see pct(5), "Reading a live file").
 */
#ifndef PCT_FORMAT_H
#define PCT_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define PCT_MAGIC "PCTPROF"            /* 8 bytes with the trailing NUL */
#define PCT_MAGIC_LEN 8
#define PCT_VERSION 3                  /* 3 adds the time log (ticks, buckets); readers
					  also read version 2, which has none */
#define PCT_VERSION_MIN 2              /* the oldest version readers accept */
#define PCT_BYTE_ORDER 0x01020304u     /* reads 0x04030201 if swapped */

/* How samples were taken (header.mechanism). */
enum pct_mechanism {
	PCT_MECH_CPU_TIMER = 1,        /* one timer_create(2) timer per thread on the thread's
					  CPU clock (CLOCK_THREAD_CPUTIME_ID), SIGEV_THREAD_ID;
					  at most one expiry per kernel tick */
	PCT_MECH_PERF = 3,             /* one perf_event_open(2) event per thread, overflow
					  delivered as a signal to that thread (F_SETOWN_EX) */
	PCT_MECH_PERF_ATTACH = 4,      /* from outside the process (pct record -p, or a
					  program the runtime cannot enter): one perf task-clock
					  event per thread opened by pct, its samples read from a
					  ring buffer; user time only if the event is user */
	PCT_MECH_PTRACE = 5,           /* from outside: pct stops a thread with ptrace(2)
					  (PTRACE_INTERRUPT) each time its CPU time passes a
					  period, reads its registers and lets it go on */
};

/* What a sample measures (header.event); the file's dimension names its unit. */
enum pct_event {
	PCT_EVENT_CPU = 1,             /* user + system CPU time ("seconds"); with PCT_MECH_PERF
					  only user time is seen (exclude_kernel) */
	PCT_EVENT_USER = 2,            /* user CPU time ("seconds"), perf task-clock, exclude_kernel */
	PCT_EVENT_WALL = 3,            /* wall-clock time of every thread ("seconds", ns of
					  wall-clock time per sample): CPU samples (user time with
					  PCT_MECH_PERF) plus samples of blocked threads taken
					  from /proc/self/task/TID/syscall, all of one period */
	PCT_EVENT_CYCLES = 4,          /* PERF_COUNT_HW_CPU_CYCLES ("cycles"); this and the
					  other hardware events count events, not ns: their
					  periods are events per sample */
	PCT_EVENT_INSTRUCTIONS = 5,    /* PERF_COUNT_HW_INSTRUCTIONS ("instructions") */
	PCT_EVENT_CACHE_MISSES = 6,    /* PERF_COUNT_HW_CACHE_MISSES ("cache-misses") */
	PCT_EVENT_BRANCH_MISSES = 7,   /* PERF_COUNT_HW_BRANCH_MISSES ("branch-misses") */
};
#define PCT_EVENT_MAX 7

/*
 * The events, defined once for the runtime (lib/method.c, lib/threads.c)
 * and the tools (src/format/profile.c, src/cmd/cmd_record.c): PCT_EVENTS(X)
 * calls X(event, name, dimension, abbrev, period, perf_type, perf_config)
 * for each, in the order of enum pct_event:
 *
 *   event        enum pct_event, the file's header.event
 *   name         its name for $PCT_EVENT and `pct record -e`
 *   dimension    header.dimension, the unit of a period ("seconds", or the
 *                event counted); abbrev: header.dimension_abbrev
 *   period       default period in events per sample ($PCT_PERIOD overrides
 *                it); 0 for the time events, whose period is 10^9 / Hz ns.
 *                The hardware periods are primes, so that a loop of a round
 *                number of events cannot alias with the sampling.
 *   perf_type,   the perf_event_open(2) attr.type and attr.config that count
 *   perf_config  the event (the task clock for the time events); only a
 *                consumer that expands them needs <linux/perf_event.h>
 *
 * PCT_EVENT_NAMES lists the names in the same order, for messages (the
 * unit test test_format_defs checks it against the table).
 */
#define PCT_EVENTS(X)                                                                                     \
	X(PCT_EVENT_CPU, "cpu", "seconds", 's', 0, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK)          \
	X(PCT_EVENT_USER, "user", "seconds", 's', 0, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK)        \
	X(PCT_EVENT_WALL, "wall", "seconds", 's', 0, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK)        \
	X(PCT_EVENT_CYCLES, "cycles", "cycles", '1', 2000003, PERF_TYPE_HARDWARE,                         \
	  PERF_COUNT_HW_CPU_CYCLES)                                                                       \
	X(PCT_EVENT_INSTRUCTIONS, "instructions", "instructions", '1', 2000003, PERF_TYPE_HARDWARE,       \
	  PERF_COUNT_HW_INSTRUCTIONS)                                                                     \
	X(PCT_EVENT_CACHE_MISSES, "cache-misses", "cache-misses", '1', 20011, PERF_TYPE_HARDWARE,         \
	  PERF_COUNT_HW_CACHE_MISSES)                                                                     \
	X(PCT_EVENT_BRANCH_MISSES, "branch-misses", "branch-misses", '1', 20011, PERF_TYPE_HARDWARE,      \
	  PERF_COUNT_HW_BRANCH_MISSES)
#define PCT_EVENT_NAMES "cpu, user, wall, cycles, instructions, cache-misses, branch-misses"

/* An event's row of PCT_EVENTS, without the perf fields. */
struct pct_event_def {
	uint32_t event;                /* enum pct_event */
	const char *name;              /* $PCT_EVENT, pct record -e */
	const char *dimension;         /* header.dimension, at most 15 bytes */
	char dimension_abbrev;         /* header.dimension_abbrev */
	uint64_t default_period;       /* events per sample; 0 for the time events */
};

/* The perf_event_open(2) type and config of each event, indexed by enum
 * pct_event: static const struct pct_event_perf t[PCT_EVENT_MAX + 1] =
 * { PCT_EVENTS(PCT_EVENT_PERF) }, where <linux/perf_event.h> is included. */
struct pct_event_perf {
	uint32_t type;                 /* attr.type, PERF_TYPE_* */
	uint64_t config;               /* attr.config, PERF_COUNT_* */
};
#define PCT_EVENT_PERF(event, name, dimension, abbrev, period, type, config) [event] = { (type), (config) },
#define PCT_EVENT_DEF_(event, name, dimension, abbrev, period, type, config) \
	{ (event), (name), (dimension), (abbrev), (period) },

/* The rows of PCT_EVENTS in enum order; *count gets their number. */
static inline const struct pct_event_def *pct_event_table(unsigned *count)
{
	static const struct pct_event_def defs[] = { PCT_EVENTS(PCT_EVENT_DEF_) };
	*count = sizeof defs / sizeof defs[0];
	return defs;
}

/* The event numbered event (enum pct_event), or NULL if there is none.
 * async-signal-safe. */
static inline const struct pct_event_def *pct_event_by_id(uint32_t event)
{
	unsigned n;
	const struct pct_event_def *defs = pct_event_table(&n);
	for (unsigned i = 0; i < n; i++)
		if (defs[i].event == event)
			return &defs[i];
	return NULL;
}

/* The event named name (NUL-terminated, any bytes), or NULL if there is
 * none.  async-signal-safe. */
static inline const struct pct_event_def *pct_event_by_name(const char *name)
{
	unsigned n;
	const struct pct_event_def *defs = pct_event_table(&n);
	for (unsigned i = 0; i < n; i++)
		if (strcmp(defs[i].name, name) == 0)
			return &defs[i];
	return NULL;
}

/* Life cycle of the file (header.state). */
enum pct_state {
	PCT_STATE_RUNNING = 1,         /* the program may still be sampling */
	PCT_STATE_COMPLETE = 2,        /* sampling stopped and end fields written */
};

/* What a module record describes (pct_module.kind). */
enum pct_module_kind {
	PCT_MOD_FILE = 1,              /* a mapped ELF file: the path is a file name */
	PCT_MOD_MAIN = 2,              /* like FILE, and it is the main executable */
	PCT_MOD_VDSO = 3,              /* the kernel's vDSO; path is "[vdso]" */
	PCT_MOD_ANON = 4,              /* executable memory with no file (JIT code) */
};

#define PCT_BUILD_ID_MAX 40            /* bytes; GNU build-ids are 20 (sha1) or 16 */
#define PCT_PATH_MAX 4096              /* bytes of a module path, without the NUL */

/*
 * A table key packs the module number and an offset:
 *
 *   63        48 47                                    0
 *   +-----------+---------------------------------------+
 *   | module+1  | offset in the module's file           |
 *   +-----------+---------------------------------------+
 *
 * Module 0xffff means "no known module": the low 48 bits are then the
 * absolute PC.  A key of 0 marks an empty slot.
 */
#define PCT_KEY_MODULE_SHIFT 48
#define PCT_KEY_OFFSET_MASK ((UINT64_C(1) << PCT_KEY_MODULE_SHIFT) - 1)
#define PCT_KEY_UNKNOWN_MODULE 0xffffu
#define PCT_MODULES_LIMIT 0xfffeu      /* module numbers 0 .. 0xfffd */
#define PCT_KEY_BUSY UINT64_MAX        /* a slot being claimed; its ctx is not yet written */

/*
 * An entry's ctx says in which context the sample was taken:
 *
 *   63                                 16 15             0
 *   +------------------------------------+----------------+
 *   | reserved, 0                        | thread slot+1  |
 *   +------------------------------------+----------------+
 *
 * Thread slot + 1 indexes the thread table; 0 means "thread unknown" (the
 * thread table was full).
 */
#define PCT_CTX_THREAD_MASK 0xffffu
#define PCT_THREADS_LIMIT 0xfffeu      /* thread slots 0 .. 0xfffd */

static inline uint64_t pct_key(uint32_t module_plus_one, uint64_t offset)
{
	return ((uint64_t)module_plus_one << PCT_KEY_MODULE_SHIFT) | (offset & PCT_KEY_OFFSET_MASK);
}

struct pct_header {
	char magic[PCT_MAGIC_LEN];     /*   0 PCT_MAGIC */
	uint32_t version;              /*   8 PCT_VERSION */
	uint32_t byte_order;           /*  12 PCT_BYTE_ORDER, written natively */
	uint32_t header_size;          /*  16 bytes: sizeof(struct pct_header) */
	uint32_t state;                /*  20 enum pct_state (live) */
	uint64_t file_size;            /*  24 bytes: size the file was created with */

	uint32_t mechanism;            /*  32 enum pct_mechanism */
	uint32_t pid;                  /*  36 process id of the profiled program */
	char dimension[16];            /*  40 unit of period, NUL padded, e.g. "seconds" (gmon_out.h) */
	char dimension_abbrev;         /*  56 one character, e.g. 's' (gmon_out.h) */
	uint8_t pad0[3];               /*  57 zero */
	uint32_t ppid;                 /*  60 parent's process id at start */
	uint64_t period_requested_ns;  /*  64 period asked of the kernel, in the dimension's unit
					  despite the name: ns of CPU time (cpu, user), ns of
					  wall-clock time (wall), events per sample (hardware events) */
	uint64_t period_ns;            /*  72 effective period, same unit: for cpu and user with
					  PCT_MECH_CPU_TIMER, the CPU time measured / (samples +
					  dropped), written at the end (0 until then, and if no
					  sample was taken); otherwise the requested period, written
					  at the start with PCT_MECH_PERF, at the end for wall with
					  PCT_MECH_CPU_TIMER (live) */
	int64_t start_time_ns;         /*  80 CLOCK_REALTIME when sampling started, ns since the epoch */
	int64_t end_time_ns;           /*  88 CLOCK_REALTIME when it stopped; 0 while running (live) */
	uint64_t cpu_start_ns;         /*  96 CLOCK_PROCESS_CPUTIME_ID when sampling started, ns,
					  whatever the event (the process's CPU time, never wall
					  time or events) */
	uint64_t cpu_last_ns;          /* 104 CLOCK_PROCESS_CPUTIME_ID at the last sample or at the
					  end, ns (live); for cpu and user the samples cover
					  cpu_last_ns - cpu_start_ns, for the other events (samples
					  + dropped) x period_requested_ns */

	uint64_t strings_offset;       /* 112 bytes from file start */
	uint64_t strings_size;         /* 120 bytes reserved for the pool */
	uint64_t strings_used;         /* 128 bytes of the pool in use (live) */
	uint64_t modules_offset;       /* 136 bytes from file start */
	uint32_t module_size;          /* 144 bytes: sizeof(struct pct_module) */
	uint32_t modules_max;          /* 148 records reserved */
	uint32_t modules_count;        /* 152 records published (live); a record is complete before it counts */
	uint32_t cmdline_len;          /* 156 bytes of argv, each argument NUL terminated */
	uint64_t cmdline_offset;       /* 160 offset of argv in the string pool */
	uint64_t table_offset;         /* 168 bytes from file start; page aligned */
	uint64_t table_slots;          /* 176 entries in the table, a power of two */
	uint32_t entry_size;           /* 184 bytes: sizeof(struct pct_entry) */
	uint32_t exe_module;           /* 188 module number of the main executable, or 0xffffffff */

	uint64_t samples;              /* 192 samples stored in the table (live) */
	uint64_t dropped;              /* 200 samples lost because the table was full (live);
					  from outside (PCT_MECH_PERF_ATTACH, PCT_MECH_PTRACE),
					  periods that passed without a sample and samples
					  perf's ring lost */
	uint64_t slots_used;           /* 208 table entries in use (live) */
	uint64_t rescans;              /* 216 times the handler looked for a newly mapped module (live) */
	uint32_t runs;                 /* 224 runs summed into this file by `pct merge`; 0 means 1 */
	uint32_t event;                /* 228 enum pct_event */
	uint64_t threads_offset;       /* 232 bytes from file start */
	uint32_t threads_max;          /* 240 slots in the thread table, a power of two */
	uint32_t thread_size;          /* 244 bytes: sizeof(struct pct_thread) */
	uint32_t threads_count;        /* 248 slots in use (live) */
	uint32_t pad1;                 /* 252 zero */
	/* Call stacks (pct record -g; 256 is a valid header_size for a file
	 * without them): a region of struct pct_stack records, claimed by
	 * adding to stacks_used. */
	uint64_t stacks_offset;        /* 256 bytes from file start, 8-aligned; 0: no stacks */
	uint64_t stacks_size;          /* 264 bytes reserved for stack records */
	uint64_t stacks_used;          /* 272 bytes claimed (live); a claim that would pass
					  stacks_size is not written, so this may exceed it */
	uint64_t stacks_dropped;       /* 280 samples whose stack did not fit (live) */
	uint32_t stack_machine;        /* 288 ELF e_machine the registers belong to (elf.h:
					  EM_X86_64 62, EM_AARCH64 183) */
	uint32_t stack_regs;           /* 292 registers in each record, DWARF numbers 0..stack_regs-1 */
	uint32_t stack_bytes_max;      /* 296 most bytes of stack copied per sample */
	uint32_t pad2;                 /* 300 zero */
	uint64_t session;              /* 304 $PCT_SESSION: the token `pct record` gives one run's
					  process tree (16 hex digits), so that it lists only the
					  files its own run wrote; 0 if none */
	/* Time (version 3; 320 is a valid header_size for a file without
	 * it, and every field below reads 0 there).  Each sample is logged
	 * with its time in the tick log until it fills, then counted per
	 * second and thread in the bucket table until that fills (pct(5),
	 * "Time"). */
	uint64_t clock_start_ns;       /* 312 CLOCK_MONOTONIC when sampling started, ns: the
					  origin of every tick's time_ns, and what lines up the
					  processes of a tree */
	uint64_t ticks_offset;         /* 320 bytes from file start, 8-aligned; 0: no time log */
	uint64_t ticks_max;            /* 328 records reserved, below 2^32 */
	uint64_t ticks_used;           /* 336 records claimed (live); a claim past ticks_max is
					  not written, so this may exceed it */
	uint64_t buckets_offset;       /* 344 bytes from file start, 8-aligned; 0: none */
	uint32_t buckets_slots;        /* 352 slots of the bucket table, a power of two */
	uint32_t bucket_ms;            /* 356 length of a bucket, ms (1000) */
	uint64_t untimed;              /* 360 samples counted in the table but in neither the
					  log nor the buckets (both full) (live) */
	uint64_t clock_end_ns;         /* 368 CLOCK_MONOTONIC when sampling stopped, ns; 0 while
					  running */
	uint64_t reserved;             /* 376 zero */
};                                     /* 384 */

#define PCT_HEADER_MIN 256             /* header_size of a file without the stack fields */
#define PCT_HEADER_V2 320              /* header_size of a version 2 file: no time fields */

/*
 * A sample's call stack, as taken in the signal handler: the registers and
 * a copy of the thread's stack from the stack pointer up, unwound later by
 * the tools with the modules' CFI (.eh_frame, .debug_frame), as perf's
 * --call-graph=dwarf does.  A writer claims size bytes at stacks_used,
 * writes size first, then everything else, then sets PCT_STACK_DONE in
 * ctx.  A reader stops at a record whose size is 0 (a claim not yet
 * written) and skips one without PCT_STACK_DONE (being written, or its
 * writer died).  Laid out as: this head, stack_regs 64-bit registers in
 * DWARF order, then stack_len bytes copied from address sp, padded to 8.
 */
struct pct_stack {
	uint32_t size;                 /*  0 bytes of the record, a multiple of 8 */
	uint32_t ctx;                  /*  4 thread slot + 1 (low 16 bits), | PCT_STACK_DONE */
	uint64_t weight;               /*  8 samples the record stands for (each of one period) */
	uint64_t sp;                   /* 16 address of the first stack byte copied */
	uint32_t stack_len;            /* 24 bytes of stack copied */
	uint32_t tick;                 /* 28 index + 1 of the sample's record in the tick log;
					  0: none (version 2, or the log was full) */
};                                     /* 32, then the registers and the stack */

#define PCT_STACK_DONE 0x80000000u

/*
 * The tick log (version 3): one record per sample signal, in the order the
 * handlers claimed them (ticks_used), so nearly in time order; readers
 * sort by time_ns.  A writer claims an index, writes time_ns and weight,
 * then publishes entry; a reader skips a record whose entry is 0 (being
 * written, or its writer died).  The sample's thread and PC are its
 * entry's (key, ctx).
 */
struct pct_tick {
	uint64_t time_ns;              /*  0 ns since clock_start_ns (CLOCK_MONOTONIC) */
	uint32_t entry;                /*  8 sample table slot + 1 that counted it; 0: unwritten */
	uint32_t weight;               /* 12 samples it stands for (1 + timer overrun) */
};                                     /* 16 */

/*
 * The bucket table (version 3): where samples go once the tick log is
 * full, counted per bucket of bucket_ms and thread.  Open addressing with
 * linear probing by key; a writer claims an empty slot by changing key
 * from 0, then adds to count.  A sample that finds no slot is counted in
 * header.untimed.
 *
 *   63                          16 15             0
 *   +------------------------------+----------------+
 *   | bucket number + 1            | thread slot+1  |
 *   +------------------------------+----------------+
 *
 * Bucket number b covers [b, b + 1) x bucket_ms after clock_start_ns.
 */
struct pct_bucket {
	uint64_t key;                  /*  0 as above; 0: an empty slot */
	uint64_t count;                /*  8 samples */
};                                     /* 16 */
#define PCT_BUCKET_THREAD_MASK 0xffffu
#define PCT_BUCKET_SHIFT 16

/* pct_module.flags */
#define PCT_MODF_UNMAPPED 1            /* unmapped (dlclose) while the program ran; its
					  samples still resolve through the record */

struct pct_module {
	uint64_t start;                /*  0 absolute address of the first byte of the executable mapping */
	uint64_t end;                  /*  8 absolute address one past its last byte */
	uint64_t file_offset;          /* 16 offset in the file that is mapped at start */
	uint64_t path_offset;          /* 24 offset of the path in the string pool */
	uint32_t path_len;             /* 32 bytes, without the NUL that follows in the pool */
	uint8_t kind;                  /* 36 enum pct_module_kind */
	uint8_t build_id_len;          /* 37 bytes of build_id in use; 0 if the module has none */
	uint8_t flags;                 /* 38 PCT_MODF_* (live) */
	uint8_t pad0;                  /* 39 zero */
	uint8_t build_id[PCT_BUILD_ID_MAX]; /* 40 NT_GNU_BUILD_ID note contents */
	uint64_t reserved;             /* 80 zero */
};                                     /* 88 */

/*
 * A thread, in a table hashed by tid (open addressing, linear probing).  A
 * tid the kernel reuses for a later thread shares its slot; the name is
 * the thread's latest as the runtime saw it (PR_GET_NAME).
 */
struct pct_thread {
	uint32_t tid;                  /*  0 kernel thread id; 0 if the slot is empty */
	uint32_t reserved0;            /*  4 zero */
	char name[16];                 /*  8 comm, NUL padded (prctl(2) PR_GET_NAME) */
	uint64_t samples;              /* 24 samples taken in this thread (live); samples, not ns */
};                                     /* 32 */

/*
 * A slot of the sample table.  A writer claims an empty slot by changing
 * key from 0 to PCT_KEY_BUSY, writes ctx, then publishes key; so two slots
 * may hold the same (key, ctx) when two threads claim at once, and a reader
 * adds them up.  A slot still PCT_KEY_BUSY holds no samples.
 */
struct pct_entry {
	uint64_t key;                  /* pct_key(); 0 if the slot is empty */
	uint64_t ctx;                  /* PCT_CTX_* fields */
	uint64_t count;                /* samples at (key, ctx) */
};

/*
 * Where each region of a file goes: the one computation of the layout, for
 * the runtime's writer (lib/output.c, at start and when it shrinks a file
 * to fit the program's limits) and `pct merge` (src/format/profile_write.c).
 * The regions follow one another in the order of the layout above:
 *
 *   modules_offset  PCT_PAGE, the first page after the header
 *   strings_offset  right after modules_max module records
 *   threads_offset  after the strings_size bytes of the pool, rounded up to 8
 *   table_offset    after threads_max thread slots, rounded up to PCT_PAGE
 *   ticks_offset    after table_slots entries, rounded up to PCT_PAGE; 0 if
 *                   ticks_max is 0
 *   buckets_offset  after the previous region, rounded up to PCT_PAGE; 0 if
 *                   buckets_slots is 0
 *   stacks_offset   after the previous region, rounded up to PCT_PAGE; 0 (no
 *                   region) if stacks_size is 0.  Last, so that the runtime
 *                   can give back its unused end (ftruncate)
 *   file_size       the end of the last region
 *
 * Inputs are counts of records or slots (modules_max, threads_max,
 * table_slots, ticks_max, buckets_slots) and bytes (strings_size,
 * stacks_size); every output is in
 * bytes from the start of the file.  Returns 0, or -1 (and *l all zeros) if
 * the file would pass 2^64 bytes.  async-signal-safe.
 */
#define PCT_PAGE 4096                  /* bytes; the alignment of the table and the stacks */

struct pct_layout {
	uint64_t modules_offset, strings_offset, threads_offset, table_offset, stacks_offset, ticks_offset,
		buckets_offset, file_size;
};

/* x rounded up to a multiple of align (a power of two) in *out; -1 on overflow. */
static inline int pct_align_up(uint64_t x, uint64_t align, uint64_t *out)
{
	if (__builtin_add_overflow(x, align - 1, out))
		return -1;
	*out &= ~(align - 1);
	return 0;
}

static inline int pct_layout(struct pct_layout *l, uint64_t modules_max, uint64_t strings_size,
			     uint64_t threads_max, uint64_t table_slots, uint64_t stacks_size, uint64_t ticks_max,
			     uint64_t buckets_slots)
{
	struct pct_layout r = { .modules_offset = PCT_PAGE };
	uint64_t n;
	if (__builtin_mul_overflow(modules_max, sizeof(struct pct_module), &n) ||
	    __builtin_add_overflow(r.modules_offset, n, &r.strings_offset) ||
	    __builtin_add_overflow(r.strings_offset, strings_size, &n) || pct_align_up(n, 8, &r.threads_offset) ||
	    __builtin_mul_overflow(threads_max, sizeof(struct pct_thread), &n) ||
	    __builtin_add_overflow(r.threads_offset, n, &n) || pct_align_up(n, PCT_PAGE, &r.table_offset) ||
	    __builtin_mul_overflow(table_slots, sizeof(struct pct_entry), &n) ||
	    __builtin_add_overflow(r.table_offset, n, &r.file_size) ||
	    (ticks_max && (pct_align_up(r.file_size, PCT_PAGE, &r.ticks_offset) ||
			   __builtin_mul_overflow(ticks_max, sizeof(struct pct_tick), &n) ||
			   __builtin_add_overflow(r.ticks_offset, n, &r.file_size))) ||
	    (buckets_slots && (pct_align_up(r.file_size, PCT_PAGE, &r.buckets_offset) ||
			       __builtin_mul_overflow(buckets_slots, sizeof(struct pct_bucket), &n) ||
			       __builtin_add_overflow(r.buckets_offset, n, &r.file_size))) ||
	    (stacks_size && (pct_align_up(r.file_size, PCT_PAGE, &r.stacks_offset) ||
			     __builtin_add_overflow(r.stacks_offset, stacks_size, &r.file_size)))) {
		*l = (struct pct_layout){ 0 };
		return -1;
	}
	*l = r;
	return 0;
}

/*
 * A process tree's profiles in one file: what `pct record` leaves under
 * its FILE when the command's tree wrote more than one profile (pct(5),
 * "Tree files"), and what `pct merge` writes: the profiles of several runs,
 * each member tagged with its run.  Each process writes its own profile while it runs (the
 * layout above, crash-safe); when the command ends, record folds them,
 * compacted (profile_compact_fd: only the used entries) and each
 * compressed with zlib (RFC 1950), into:
 *
 *   0                 struct pct_tree_header     (header_size bytes)
 *   index_offset      struct pct_tree_member[members]
 *   member.offset     member.size bytes: a zlib stream that inflates to
 *                     exactly member.raw_size bytes, a complete pct
 *                     profile of the layout above
 *   file_size
 *
 * Members are in the tree's order: by the time sampling started in them
 * (header.start_time_ns), so a parent comes before the children it
 * started, and a program before the one its process exec'd.  Readers
 * check every offset and size against the file and the limits below
 * before they use it.  No two members' streams share a byte, nor a
 * stream the header's or the index's: a reader inflates each byte of the
 * file once at most, so a file costs in proportion to its size.
 */
#define PCT_TREE_MAGIC "PCTTREE"       /* 8 bytes with the trailing NUL */
#define PCT_TREE_VERSION 2              /* 2 adds pct_tree_member.run; 1 (32-byte members) is read */
#define PCT_TREE_MEMBER_V1_SIZE 32      /* a version 1 member: offset to encoding */
#define PCT_TREE_ZLIB 1                /* pct_tree_member.encoding: zlib (RFC 1950) */
#define PCT_TREE_MEMBERS_MAX (1u << 20) /* members a reader accepts */
#define PCT_TREE_RAW_MAX (UINT64_C(1) << 40) /* bytes a member may inflate to */
#define PCT_TREE_ZLIB_RATIO 1032        /* raw_size / size at most: deflate's largest ratio
					  (258 bytes for two bits), so no member claims more
					  than its stream can hold */

struct pct_tree_header {
	char magic[PCT_MAGIC_LEN];     /*  0 PCT_TREE_MAGIC */
	uint32_t version;              /*  8 PCT_TREE_VERSION */
	uint32_t byte_order;           /* 12 PCT_BYTE_ORDER, written natively */
	uint32_t header_size;          /* 16 bytes: sizeof(struct pct_tree_header) */
	uint32_t members;              /* 20 profiles in the file, at least 1 */
	uint64_t index_offset;         /* 24 bytes from file start, 8-aligned */
	uint64_t file_size;            /* 32 bytes */
	uint32_t member_size;          /* 40 bytes: sizeof(struct pct_tree_member) */
	uint32_t root_pid;             /* 44 the command's pid (it may have written no member) */
	uint64_t session;              /* 48 the run's $PCT_SESSION token */
	uint64_t reserved;             /* 56 zero */
};                                     /* 64 */

struct pct_tree_member {
	uint64_t offset;               /*  0 bytes from file start */
	uint64_t size;                 /*  8 bytes stored at offset */
	uint64_t raw_size;             /* 16 bytes of the profile once inflated */
	uint32_t pid;                  /* 24 the profile's header.pid, for listings */
	uint32_t encoding;             /* 28 PCT_TREE_ZLIB */
	uint32_t run;                  /* 32 which run of the program the member belongs to,
					  from 0: `pct merge` keeps runs apart; one process
					  tree is one run (version 2; 0 in version 1) */
	uint32_t reserved;             /* 36 zero */
};                                     /* 40 */

/* The infix of the names of temporary files: the runtime's DIR/.pct-tmp.PID
 * (where O_TMPFILE is missing) and the tools' OUT.pct-tmp.XXXXXX. */
#define PCT_TMP_INFIX ".pct-tmp."

#endif
