/*
 * debuginfo.h - find the separate debug file of a module, for libdwfl,
 * without trusting what the module says.
 *
 * The modules come from a profile made elsewhere, so their .gnu_debuglink
 * and .gnu_debugaltlink sections are data from someone else.  elfutils'
 * standard finder opens what they name with a blocking open(2), follows
 * "../", and asks debuginfod (DEBUGINFOD_URLS) several times per module
 * with a 90 s timeout each.  This finder instead:
 *   - looks up /usr/lib/debug/.build-id/xx/yyyy.debug by the module's
 *     build-id, then the debug link's name in the module's directory, its
 *     .debug subdirectory and /usr/lib/debug + that directory; a link name
 *     containing '/' or ".." is refused;
 *   - opens only regular files (infile_open) and keeps one only if its
 *     build-id matches the module's, or, without a build-id, if its CRC
 *     matches the debug link's;
 *   - finds a dwz file (.gnu_debugaltlink) by its build-id only;
 *   - asks debuginfod at most once per build-id in a run, and waits for it
 *     at most $PCT_DEBUGINFOD_TIMEOUT seconds (default 15; 0: never asks)
 *     in all, over the whole run.
 */
#ifndef PCT_DEBUGINFO_H
#define PCT_DEBUGINFO_H

#include <elfutils/libdwfl.h>

#define DEBUGINFO_TIMEOUT_DEFAULT 15   /* seconds of debuginfod waiting per run */

/* Callbacks for dwfl_begin(): the module's ELF is always reported with a
 * descriptor (find_elf finds nothing), and find_debuginfo is the finder
 * above.  */
extern const Dwfl_Callbacks debuginfo_callbacks;

#endif
