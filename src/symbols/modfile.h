/*
 * modfile.h - where the file of a module named in a profile is found, and
 * the build-id cache that keeps those files after they change.
 *
 * A profile names each module by the path it was mapped from and its GNU
 * build-id (the NT_GNU_BUILD_ID note, pct_format.h).  The path may since
 * have been rebuilt, removed, or be on another machine, so a module's
 * file is looked for, in this order, and the first whose build-id is the
 * profile's is used (a file with another build-id is never used for
 * symbols; without a build-id, the first file found is).  strip(1) keeps
 * the build-id, so a stripped file is used only if no file with a symbol
 * table (.symtab) and the build-id is found:
 *
 *   1. with --symfs=DIR: DIR/build-id/XX/REST/elf, then DIR/PATH
 *      (an unpacked `pct archive`, or a copy of the other machine's root);
 *   2. the build-id cache: CACHE/build-id/XX/REST/elf;
 *   3. PATH itself;
 *   4. /usr/lib/debug/.build-id/XX/REST, libdwfl's build-id search path
 *      for a main file;
 *   5. debuginfod, by build-id, when $DEBUGINFOD_URLS is set
 *      (debuginfo.h bounds its wait).
 *
 * XX is the first byte of the build-id in lower-case hex and REST the
 * others, as in /usr/lib/debug/.build-id and perf's ~/.debug.  The
 * separate debug file is found the same way (DIR, then CACHE,
 * build-id/XX/REST/debug) before debuginfo.c's own search.
 *
 * The cache is $XDG_CACHE_HOME/pct (default ~/.cache/pct), a directory
 * private to the user (0700).  Each entry, build-id/XX/REST/, holds "elf"
 * (the module's file), "debug" (its separate debug file, when one was
 * found on this machine with the module's build-id: under
 * /usr/lib/debug/.build-id, or by the module's .gnu_debuglink beside it,
 * in its .debug directory or under /usr/lib/debug; debuginfo_find_local)
 * and "path" (the path it was
 * recorded at, for `pct cache list`).  A file is hard-linked into it when
 * the file system allows, and copied otherwise; a hard link shares the
 * original's inode, so a file rewritten in place (rather than replaced,
 * as compilers and linkers do) changes in the cache too, and its build-id
 * check then fails: names are lost, never wrong.  Files that are not
 * regular, or larger than MODFILE_CACHE_FILE_MAX bytes, are not cached.
 * $PCT_CACHE=0, or modfile_set_cache(0) (--no-cache), turns the cache
 * off, both for adding and for looking up.  So does a path through
 * another user's directory or link: the cache is made and opened only by
 * outfile_private_dir() (outfile.h), once per run, and its entries only
 * through the directory so verified; a refused path is warned about once
 * ("the build-id cache is off: WHY").  A copy is no more readable than
 * its source.
 */
#ifndef PCT_MODFILE_H
#define PCT_MODFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

#define MODFILE_CACHE_FILE_MAX (512ULL << 20)    /* bytes: larger files are not cached */
#define MODFILE_CACHE_MAX_DEFAULT (2ULL << 30)   /* bytes: the bound `pct cache prune` and
						    `pct record` keep the cache under */

/*
 * The options every command that names addresses takes, defined once: add
 * MODFILE_LONG_OPTIONS to its getopt_long table (<getopt.h>), hand what
 * getopt_long returns to modfile_option() before treating it as unknown,
 * and put MODFILE_USAGE in its --help (and the two options in its man
 * page).  modfile_option returns 1 if c was one of them.
 */
#define MODFILE_OPT_SYMFS 0x5301
#define MODFILE_OPT_NO_CACHE 0x5302
#define MODFILE_LONG_OPTIONS                                              \
	{ "symfs", required_argument, NULL, MODFILE_OPT_SYMFS },          \
	{ "no-cache", no_argument, NULL, MODFILE_OPT_NO_CACHE }
#define MODFILE_USAGE                                                                 \
	"  --symfs=DIR      look for the modules' files under DIR first (an unpacked\n" \
	"                   pct archive, or another machine's root): by build-id,\n" \
	"                   DIR/build-id/XX/REST/elf, then at DIR/PATH\n"              \
	"  --no-cache       do not look in the build-id cache (as $PCT_CACHE=0)\n"
int modfile_option(int c, const char *arg);

/* --symfs=DIR: look for modules' files under DIR first (NULL: do not). */
void modfile_set_symfs(const char *dir);
/* --no-cache: 0 turns the cache off (as $PCT_CACHE=0 does). */
void modfile_set_cache(int on);

/* The cache directory, malloc'd: $XDG_CACHE_HOME/pct if $XDG_CACHE_HOME
 * is an absolute path, else $HOME/.cache/pct; NULL if the cache is off,
 * there is no home, or its path is refused (through a directory or link
 * another user controls: warned about once).  It need not exist yet. */
char *modfile_cache_dir(void);

/* The build-id in lower-case hex, "XX/REST" form for a path: writes at
 * most 2 * len + 2 bytes and the NUL to out (2 * PCT_BUILD_ID_MAX + 2). */
void modfile_build_id_path(const uint8_t *id, size_t len, char *out);

/* Is the ELF file open at fd's build-id id (len > 0 bytes)?  1 or 0. */
int modfile_build_id_is(int fd, const uint8_t *id, size_t len);

/*
 * Open the file of the module recorded at path with build-id id (len
 * bytes; 0 if it has none), searching as described above.  Returns a
 * descriptor (regular file, read only), with *file set to the malloc'd
 * name of the file opened (for messages and for reopening); or -1 with a
 * malloc'd reason in *why: the recorded path's own problem ("cannot open
 * 'PATH': No such file or directory", or "'PATH' changed since the
 * profile was taken (build-id differs)").
 */
int modfile_open(const char *path, const uint8_t *id, size_t len, char **file, char **why);

/*
 * The separate debug files to try for build-id id before any other:
 * DIR/build-id/XX/REST/debug with --symfs, then the cache's.  Writes at
 * most max malloc'd paths to out and returns their number.
 */
size_t modfile_debug_paths(const uint8_t *id, size_t len, char **out, size_t max);

/*
 * Put the module recorded at path with build-id id (len > 0) in the cache,
 * with its separate debug file if this machine has one (above; added to
 * an entry that has none yet too), and mark the entry used now.  Returns 1 if added, 0 if it was
 * there, or -1 with a malloc'd reason in *why (cache off or not writable,
 * the file missing, not regular, over MODFILE_CACHE_FILE_MAX, or with
 * another build-id).
 */
int modfile_cache_add(const char *path, const uint8_t *id, size_t len, char **why);

/* One cache entry, as modfile_cache_scan() finds it. */
struct modfile_entry {
	char *build_id;                /* hex */
	char *path;                    /* recorded path ("" if unknown), raw bytes */
	uint64_t bytes;                /* apparent size of its files */
	int has_debug;                 /* a "debug" file is there */
	struct timespec used;          /* last added or recorded (the entry directory's mtime) */
};

/*
 * The entries of the cache in *out (malloc'd, *n of them), least recently
 * used first.  Returns 0, or -1 with a malloc'd reason in *why if the
 * cache is off or unreadable (an absent cache is empty, not an error).
 */
int modfile_cache_scan(struct modfile_entry **out, size_t *n, char **why);
void modfile_cache_entries_free(struct modfile_entry *e, size_t n);

/*
 * Remove least recently used entries until the cache holds at most
 * max_bytes.  Returns the number removed, with the bytes freed in *freed;
 * or -1 with a malloc'd reason in *why.
 */
long modfile_cache_prune(uint64_t max_bytes, uint64_t *freed, char **why);

#endif
