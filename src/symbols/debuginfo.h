/*
 * debuginfo.h - find the separate debug file of a module, for libdwfl,
 * without trusting what the module says.
 *
 * The modules come from a profile made elsewhere, so their .gnu_debuglink
 * and .gnu_debugaltlink sections are data from someone else.  elfutils'
 * standard finder opens what they name with a blocking open(2), follows
 * "../", and asks debuginfod (DEBUGINFOD_URLS) several times per module
 * with a 90 s timeout each.  This finder instead:
 *   - looks up, by the module's build-id, --symfs's and the build-id
 *     cache's debug file (modfile_debug_paths, modfile.h), then
 *     /usr/lib/debug/.build-id/xx/yyyy.debug, then the debug link's name
 *     in the directory of the file opened, its .debug subdirectory and
 *     /usr/lib/debug + that directory, then the same beside the path the
 *     module was recorded at (debuginfo_set_recorded_path: the file opened
 *     may be the cache's or --symfs's copy); a link name containing '/' or
 *     ".." is refused;
 *   - opens only regular files (infile_open) and keeps one only if its
 *     build-id matches the module's, or, without a build-id, if its CRC
 *     matches the debug link's;
 *   - finds a dwz file (.gnu_debugaltlink) by its build-id only, and
 *     hands it to libdw itself (debuginfo_alt_attach), since libdw would
 *     otherwise open the path the link names with a blocking open(2);
 *   - refuses a file whose compressed sections claim to inflate to more
 *     than DEBUGINFO_INFLATE_MAX bytes each, or DEBUGINFO_INFLATE_RATIO
 *     times the file's size in all (libdw inflates every compressed DWARF
 *     section when it opens a file, into memory of the size claimed): a
 *     module's own file is then read as if it had no DWARF and no
 *     compressed sections, a debug or dwz file is not used, with one
 *     warning a run naming the file and the section;
 *   - asks debuginfod at most once per build-id and kind of file in a run,
 *     and waits for it at most $PCT_DEBUGINFOD_TIMEOUT seconds (default
 *     15; 0: never asks) in all, over the whole run;
 *   - takes from debuginfod at most $DEBUGINFOD_MAXSIZE bytes a file
 *     (DEBUGINFO_MAXSIZE_DEFAULT unless set; 0: no bound): libdebuginfod
 *     refuses a larger announced size itself, an answer that announces
 *     none is abandoned once it passes the bound, and a file in
 *     debuginfod's cache that is larger or of another build-id is
 *     removed from the cache, with a warning.
 * The same rules give a module's executable by build-id when no file of
 * its build-id is found otherwise (debuginfo_find_executable, the last
 * step of modfile_open).
 */
#ifndef PCT_DEBUGINFO_H
#define PCT_DEBUGINFO_H

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stddef.h>
#include <stdint.h>

#define DEBUGINFO_TIMEOUT_DEFAULT 15   /* seconds of debuginfod waiting per run */
#define DEBUGINFO_MAXSIZE_DEFAULT 536870912 /* bytes: 512 MiB, a file from debuginfod at most */
/* What the compressed sections of one file may claim to inflate to: debug
 * information compresses 2.5 to 13 times in Debian's libc6-dbg (83 times
 * for one section), zlib at most 1032 times. */
#define DEBUGINFO_INFLATE_RATIO 64     /* times the file's size, all its sections together */
#define DEBUGINFO_INFLATE_MAX (UINT64_C(1) << 32) /* bytes, one section: 4 GiB */

/* Callbacks for dwfl_begin(): the module's ELF is always reported with a
 * descriptor (find_elf finds nothing), and find_debuginfo is the finder
 * above.  */
extern const Dwfl_Callbacks debuginfo_callbacks;

/*
 * The executable whose build-id is build_id (len bytes, 1 to 64) from
 * debuginfod, when DEBUGINFOD_URLS is set: asked at most once per
 * build-id in a run, the wait counted in the run's budget above (a query
 * is abandoned, within about a second, when the budget is spent).  The
 * file, in libdebuginfod's cache ($DEBUGINFOD_CACHE_PATH), is opened as a
 * regular file only (infile_open) and only if its build-id is build_id.
 * Returns a read-only descriptor, *path set to the file's name (owned
 * here, valid for the run), or -1: no URLs, budget spent, the server has
 * no such file, failed or timed out, or the file is not that build.
 */
int debuginfo_find_executable(const uint8_t *build_id, size_t len, const char **path);

/*
 * Tell the finder about mod, just reported with these callbacks (before
 * anything reads it): path is where it was recorded, searched after the
 * directory of the file opened for it (not copied: it must live as long
 * as mod); and the compressed sections of the file opened are checked
 * against the bounds above, the file read as if it had no DWARF if they
 * claim more.
 */
void debuginfo_reported(Dwfl_Module *mod, const char *path);

/*
 * A dwz file handed to libdw for a module's Dwarf: it lives as long as
 * the Dwarf (libdw does not own it).
 */
struct debuginfo_alt {
	Dwarf *dwarf;                  /* NULL: none */
	Elf *elf;
	int fd;
};

/*
 * Give dw (a module's Dwarf, from dwfl_module_getdwarf, before any of its
 * DIEs is read) the dwz file its .gnu_debugaltlink names, found by
 * build-id as debug files are (/usr/lib/debug/.build-id, debuginfod),
 * with dwarf_setalt(), or a stand-in with no units if none is found, so
 * that libdw never looks for it itself.  *alt receives what to release
 * (debuginfo_alt_release) once dw has ended.  Returns 0, or -1 if dw has
 * a link and nothing could be handed (out of memory): dw must not be read.
 */
int debuginfo_alt_attach(Dwarf *dw, struct debuginfo_alt *alt);
void debuginfo_alt_release(struct debuginfo_alt *alt);

/*
 * The separate debug file of the module file at path, with build-id id
 * (len bytes, 1 to 64), on this machine only (no --symfs, no cache, no
 * debuginfod): /usr/lib/debug/.build-id/XX/REST.debug, then the name in
 * path's .gnu_debuglink beside path, in its .debug subdirectory and under
 * /usr/lib/debug + its directory, kept only if its build-id is id (the
 * rules above).  For the build-id cache (modfile_cache_add).  Returns a
 * read-only descriptor with *name malloc'd, or -1.
 */
int debuginfo_find_local(const char *path, const uint8_t *id, size_t len, char **name);


#endif
