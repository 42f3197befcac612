/*
 * profile_build.h - a pct profile (pct(5)) built in memory from samples
 * taken outside the profiled process, as `pct record -p` takes them: the
 * runtime writes its file in place while the program runs (lib/output.c);
 * this is the tools' writer of the same layout, from a sampler that
 * stops threads from outside or reads perf ring buffers.
 *
 * The profile holds what the runtime's does: modules (by address range,
 * file offset, path and build-id), threads (tid, name, samples), the
 * samples keyed by (module, offset in its file, thread), each sample's
 * time (the tick log, then one-second buckets once PBUILD_TICKS_MAX
 * ticks are taken), and with call stacks the registers and a copy of
 * the stack of each sample (struct pct_stack), up to a byte budget.
 * pbuild_bytes() lays it out as a complete, compact pct file, which
 * profile_parse() reads; pbuild_write() puts it under a name.
 */
#ifndef PCT_PROFILE_BUILD_H
#define PCT_PROFILE_BUILD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "pct_format.h"

#define PBUILD_TICKS_MAX (UINT32_C(1) << 21)   /* ticks logged, as the runtime's default 32 MiB */
#define PBUILD_BUCKETS_MAX (UINT32_C(1) << 15) /* (second, thread) buckets after the log fills */
#define PBUILD_STACK_AREA (UINT64_C(64) << 20) /* bytes of stack records, as the runtime's default */
#define PBUILD_NO_MODULE UINT32_MAX

/* What the header says of the whole profile, set at pbuild_new. */
struct pbuild_info {
	uint32_t pid, ppid;
	uint32_t mechanism;            /* enum pct_mechanism */
	uint32_t event;                /* enum pct_event */
	uint64_t period_ns;            /* requested = effective period, the dimension's unit */
	uint64_t session;              /* $PCT_SESSION of the run, or 0 */
	uint32_t stack_bytes;          /* most bytes of stack per sample; 0: no stacks */
	uint32_t stack_machine;        /* ELF e_machine of the registers */
	uint32_t stack_regs;           /* registers per stack record */
	const char *argv;              /* the command line: argc NUL-terminated arguments */
	size_t argv_len;               /* bytes of argv */
	int64_t start_time_ns;         /* CLOCK_REALTIME when sampling started */
	uint64_t clock_start_ns;       /* CLOCK_MONOTONIC then: the origin of sample times */
	uint64_t cpu_start_ns;         /* the process's CPU time then (its CPU clock), ns */
};

struct pbuild;

struct pbuild *pbuild_new(const struct pbuild_info *info);
void pbuild_free(struct pbuild *b);

/*
 * A module: an executable mapping [start, end) of path at file_offset,
 * of kind (enum pct_module_kind), with a build-id of id_len bytes (0:
 * none).  Returns its number, or PBUILD_NO_MODULE if the profile holds
 * PCT_MODULES_LIMIT already.  pbuild_module_find gives the newest module
 * still mapped that holds pc; pbuild_unmap marks one unmapped (its
 * samples still resolve through it).
 */
uint32_t pbuild_module(struct pbuild *b, uint64_t start, uint64_t end, uint64_t file_offset, const char *path,
		       int kind, const uint8_t *id, size_t id_len);
uint32_t pbuild_module_find(const struct pbuild *b, uint64_t pc);
size_t pbuild_modules(const struct pbuild *b);
/* The module's record, for its range, path and build-id. */
const struct pct_module *pbuild_module_rec(const struct pbuild *b, uint32_t m, const char **path);
void pbuild_unmap(struct pbuild *b, uint32_t m);

/* The thread slot + 1 of tid, made if new (name: its comm, NUL-terminated,
 * at most 15 bytes kept), or 0 if the thread table is full.  A name given
 * again replaces the slot's. */
uint32_t pbuild_thread(struct pbuild *b, uint32_t tid, const char *name);

/*
 * weight samples at pc in thread (slot + 1, 0: unknown), taken at
 * mono_ns (CLOCK_MONOTONIC).  pc is placed in the newest mapped module
 * that holds it, or kept as an address of no known module.  With regs
 * (stack_regs registers in DWARF order) and stack (stack_len bytes
 * copied from sp), a call-stack record is added too, if it fits the
 * budget (else counted in stacks_dropped).
 */
void pbuild_sample(struct pbuild *b, uint64_t pc, uint32_t thread, uint64_t weight, uint64_t mono_ns,
		   const uint64_t *regs, uint64_t sp, const void *stack, uint32_t stack_len);
/* weight samples lost (a ring buffer overrun): counted as dropped. */
void pbuild_dropped(struct pbuild *b, uint64_t weight);
uint64_t pbuild_samples(const struct pbuild *b);

/* The process's CPU time at the last sample or at the end, ns (its CPU
 * clock), kept if it is not below the start's. */
void pbuild_cpu(struct pbuild *b, uint64_t cpu_ns);
/* The process's CPU time at the start and at the last sample or end,
 * and the samples taken with those dropped. */
void pbuild_span(const struct pbuild *b, uint64_t *cpu_start, uint64_t *cpu_last, uint64_t *taken);
/* Sampling stopped: at real_ns (CLOCK_REALTIME) and mono_ns. */
void pbuild_end(struct pbuild *b, int64_t real_ns, uint64_t mono_ns);
/* The command line again (a forked child that exec'd, or one read late). */
void pbuild_argv(struct pbuild *b, const char *argv, size_t len);
const struct pbuild_info *pbuild_info(const struct pbuild *b);

/* The profile as a pct file: *out (malloc'd, *len bytes).  Complete if
 * pbuild_end was called, else RUNNING (a snapshot). */
void pbuild_bytes(const struct pbuild *b, void **out, size_t *len);

/*
 * Write the profile to path: a new name only (replace 0: written whole
 * to a temporary beside it, created exclusively, then linked to path:
 * -1 with errno EEXIST if path exists; never seen part-written),
 * or over path (replace 1: a temporary beside it renamed over it,
 * outfile.h).  Mode 0644, 0600 with call stacks (profile_file_mode),
 * whatever the umask.  Returns 0, or -1 with "cannot write 'PATH': why"
 * in err.
 */
int pbuild_write(const struct pbuild *b, const char *path, int replace, char *err, size_t errlen);

#endif
