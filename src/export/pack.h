/*
 * pack.h - keep what a set of profiles needs to be read later or
 * elsewhere: its modules' files in the build-id cache (modfile.h), or the
 * profiles together with those files in one .tar.gz (pct-archive(1)).
 *
 * "Needed" is pset_needed_modules(): the modules holding samples, and
 * every module of a profile with call stacks.
 */
#ifndef PCT_PACK_H
#define PCT_PACK_H

#include <stddef.h>

#include "pset.h"

/* What pack_cache() did, in modules. */
struct pack_kept {
	size_t added;                  /* newly put in the cache */
	size_t present;                /* there already */
	size_t failed;                 /* not cached: missing, changed, over the size limit... */
	size_t no_build_id;            /* without a build-id: never cached */
	long pruned;                   /* entries removed afterwards to keep the cache under
					  MODFILE_CACHE_MAX_DEFAULT bytes */
};

/*
 * Put every needed module of s (and its separate debug file) in the
 * build-id cache, then, if any was added, prune the cache to
 * MODFILE_CACHE_MAX_DEFAULT bytes.  Only files whose build-id is the
 * profile's are cached (modfile_cache_add), so the cache holds nothing a
 * profile merely names; a module without a build-id is never cached.
 * Each module that cannot be cached is warned about once, unless quiet.
 * Returns 0, or -1 if the cache is off or its path refused (nothing done,
 * *k zero).
 */
int pack_cache(const struct pset *s, int quiet, struct pack_kept *k);

/*
 * Write the files files[0..nfiles) of the set s (as loaded from them) to
 * the gzip-compressed tar archive out (outfile.h rules), with, for every
 * needed module with a build-id, build-id/XX/REST/elf (and .../debug, its
 * separate debug file, when one is found) as modfile_open() finds them,
 * and for one without, its file at its own path without the leading '/';
 * and the perf map naming each profile's JIT code (perfmap_path), as
 * STEM.perf-PID.map beside it.
 * Unpacked into DIR, `pct report --symfs=DIR DIR/FILE` reads them.  The
 * profiles are stored by base name.
 *
 * A file the profiles merely name discloses nothing: a module's file
 * (and its debug file) whose build-id is the profile's is stored; any
 * other (a module without a build-id, a debug file matched by its CRC
 * alone, a perf map) only if every writer of a profile naming it (the
 * owner of the profile's file, profile.owned) could read it: the caller,
 * root, or by the permission bits of the file and of the directories
 * above it, conservatively (pack.c).  And the archive is no more readable
 * than the most private file in it, profiles included
 * (outfile_limit_to).
 *
 * Returns the number of module and map files stored, or -1 with err set
 * ("FILE: what is wrong").  A file not stored, missing or refused, is
 * warned about once ("archive: left out: WHY"), and counted in *left.
 */
long pack_archive(const struct pset *s, char *const *files, size_t nfiles, const char *out, long *left, char *err,
		  size_t errlen);

#endif
