/*
 * pset.h - a set of profiles read together, as every report reads them:
 * their samples are summed, and a module is the same module in two files
 * only if both its path and its build-id agree.  A process's JIT code
 * (its anonymous executable memory, PCT_MOD_ANON) is one module, named by
 * the path of its perf map (perfmap.h), or "[JIT] tid PID" when no map is
 * found; its offsets are absolute addresses.
 */
#ifndef PCT_PSET_H
#define PCT_PSET_H

#include <stddef.h>
#include <stdint.h>

#include "profile.h"

#define PSET_NO_MODULE UINT32_MAX

struct u64map;

struct pset_module {
	char *path;
	char *display;                 /* base name, for reports */
	int kind;
	uint8_t build_id[PCT_BUILD_ID_MAX];
	size_t build_id_len;
};

struct pset {
	struct profile *profiles;
	size_t nprofiles, capprofiles;
	struct pset_module *mods;
	size_t nmods, capmods;
	struct u64map *modindex;       /* hash of (path, build-id) -> mods index (pset.c) */
	struct u64map *ids;            /* profile_identity -> profiles index + 1 (pset_add) */
	uint32_t **modmap;             /* [profile][local module] -> mods index */
	size_t capmodmap;
	uint64_t total;                /* samples in all tables */
	uint64_t dropped;              /* samples lost to full tables */
	uint64_t cpu_ns;               /* what the samples cover, all files (profile.cpu_ns): ns of
					  CPU time for cpu and user, ns of wall-clock time for wall,
					  events for a hardware event */
	uint64_t runs;                 /* runs summed: files, counting merged ones as their runs */
	double expected;               /* samples expected at the requested period, all files
					  (profile_expected_samples), or -1 if not CPU time */
	int sliced;                    /* cut to the --time range slice (pset_select_option) */
	struct time_range slice;
};

/*
 * The sample selection of every command that reads samples: --time=
 * START..END and --comm=NAME[,NAME...], --tid=TID[,TID...],
 * --dso=MODULE[,MODULE...] (as perf report's).  Add
 * PSET_SELECT_LONG_OPTIONS to the getopt_long table (<getopt.h>), hand
 * what getopt_long returns to pset_select_option (1 if it was one of
 * them; a bad range exits 2), and put PSET_SELECT_USAGE in the --help
 * (and the options in the man page).  pset_load then keeps only the
 * samples of that range (profile_slice), seconds from the start of each
 * file (of a tree file: of its first process), and says once on stderr
 * how many samples in the range are known only to the second (pct(5),
 * "Time") and are left out; and of those the samples of the threads and
 * modules named (profile_select).
 */
#define PSET_OPT_TIME 0x5401
#define PSET_OPT_COMM 0x5402
#define PSET_OPT_TID 0x5403
#define PSET_OPT_DSO 0x5404
#define PSET_SELECT_LONG_OPTIONS                                  \
	{ "time", required_argument, NULL, PSET_OPT_TIME },       \
	{ "comm", required_argument, NULL, PSET_OPT_COMM },       \
	{ "tid", required_argument, NULL, PSET_OPT_TID },         \
	{ "dso", required_argument, NULL, PSET_OPT_DSO }
#define PSET_SELECT_USAGE                                                                 \
	"  --time=START..END  only samples taken START to END seconds after the start\n" \
	"                  (decimal; either may be left out: 2.5.., ..1)\n"                \
	"  --comm=NAME[,NAME...]  only samples of threads of these names (comm) or\n"     \
	"                  of these programs\n"                                           \
	"  --tid=TID[,TID...]  only samples of these thread ids\n"                        \
	"  --dso=MODULE[,MODULE...]  only samples in these modules (path or base name)\n"
int pset_select_option(int c, const char *arg);

/*
 * Read files (at least one); a process tree's file (tree.h) adds each of
 * its profiles, in the tree's order.  Returns 0, or -1 with err set when a file is
 * unreadable or malformed, or when the files measure different things
 * (dimension or mechanism).
 */
int pset_load(struct pset *s, char *const *files, size_t nfiles, char *err, size_t errlen);
/* Add a profile already read (pset_add takes it over, even on error, when
 * it measures something else than the set). */
int pset_add(struct pset *s, struct profile *p, char *err, size_t errlen);
void pset_free(struct pset *s);

/* A file of several runs (`pct merge`'s; tree_file_runs says nruns), read
 * once, as one set per run: sets[r] (nruns of them) holds the profiles
 * of run r, sliced as pset_load slices.  Standard input is refused.
 * Returns 0, or -1 with err set (nothing left to free) if the file is
 * unreadable, a run is out of range or has no profile. */
int pset_load_runs(struct pset *sets, uint32_t nruns, const char *file, char *err, size_t errlen);

/* The set's time origin: the earliest start of sampling among its
 * profiles (hdr.clock_start_ns, CLOCK_MONOTONIC ns), in *origin_ns.
 * Returns 0, or -1 with "FILE: no sample times (why)" in err
 * (profile_untimed_why) if a profile has none. */
int pset_time_origin(const struct pset *s, uint64_t *origin_ns, char *err, size_t errlen);

/* The global module of sample i of profile p, or PSET_NO_MODULE. */
/*
 * The CPU time, ns, that the processes of the files used before sampling
 * started in them (the headers' cpu_start_ns: the dynamic loader,
 * constructors), summed; saturates at UINT64_MAX.  A process that exec'd
 * wrote one file per program, and CLOCK_PROCESS_CPUTIME_ID runs on across
 * exec: the CPU time up to the end of an earlier file of the same process
 * (same pid and parent, started before, ending no later than this one's
 * start) is in that file's span, so it is not counted again.
 */
uint64_t pset_cpu_before_ns(const struct pset *s);

/* The set's module (index in mods) of sample smp of profile p, or
 * PSET_NO_MODULE. */
uint32_t pset_module_of(const struct pset *s, size_t p, const struct profile_sample *smp);

/* The symbol table of module m of a set: symtab_get() (symtab.h) of its
 * path and build-id, never NULL; its warnings and errors are symtab's. */
struct symtab;
struct symtab *pset_symtab(const struct pset_module *m);

/*
 * The modules a report of the set needs files for: those holding samples
 * and, in a profile with call stacks, every module of it (callers and the
 * CFI that unwinds them).  Writes 1 or 0 per module to need[0..nmods)
 * and returns how many need a file; "[vdso]" and JIT code are left out
 * (they have no file to keep).
 */
size_t pset_needed_modules(const struct pset *s, unsigned char *need);

struct pset_addr {
	uint32_t module;               /* index in mods, or PSET_NO_MODULE */
	uint64_t addr;                 /* link-time address; if unplaced, see there */
	uint64_t samples;
	int unplaced;                  /* the module's file cannot place it (unreadable, or
					  changed): addr is the file offset; or, with
					  PSET_NO_MODULE, the absolute address */
};

/*
 * Every sample of the set at its module's link-time address, summed per
 * (module, address), in *out (malloc'd, *n entries).  Returns the total
 * of all samples, including those no module's file places.
 */
uint64_t pset_addresses(const struct pset *s, struct pset_addr **out, size_t *n);

/*
 * As pset_addresses, with nothing left out, for the exports: a sample
 * whose module's file cannot place it is kept at its file offset, and one
 * outside every module at its absolute address under PSET_NO_MODULE, both
 * with unplaced set.  Returns the total of all samples.
 */
uint64_t pset_addresses_all(const struct pset *s, struct pset_addr **out, size_t *n);

/*
 * The set's module that maps the absolute address pc in profile prof, and
 * in *offset the file offset there; PSET_NO_MODULE if no module does.
 */
uint32_t pset_module_at(const struct pset *s, size_t prof, uint64_t pc, uint64_t *offset);

#endif
