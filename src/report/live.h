/*
 * live.h - is a profile still being written?
 *
 * A file's state says RUNNING from its creation until its process ends
 * sampling (pct_format.h); a process that exec'd, called _exit or was
 * killed leaves it RUNNING for good.  The process that writes a file
 * keeps it mapped (MAP_SHARED) as long as it samples, and a process
 * loses its mappings when it exec's or ends: so a RUNNING file is live
 * exactly while the process of its header's pid maps it.
 */
#ifndef PCT_LIVE_H
#define PCT_LIVE_H

#include "profile.h"

/*
 * 1 if p's file is still being written: its state is RUNNING and the
 * process hdr.pid maps the file p->file names (the same device and inode,
 * from /proc/PID/maps).  0 if not: complete, its process gone or not
 * mapping it (it exec'd or ended), or p was not read from a file of its
 * own (standard input, a member of a process tree's file, which is a
 * copy).  A process of another user whose maps cannot be read counts as
 * not live.
 */
int profile_live(const struct profile *p);

#endif
