/*
 * outfile.h - create or replace the file named by a command's -o, safely
 * in a directory that others can write.
 *
 * Every command that writes a file (export, flame, merge) goes through
 * here, so the rules are written once:
 *
 *  - OUT absent or a regular file: the data goes to a temporary beside it,
 *    "OUT.pct-tmp.XXXXXX" with six random characters, created with
 *    O_CREAT | O_EXCL | O_NOFOLLOW (a name planted in advance, symlink or
 *    not, is never opened), then renamed over OUT.  A failure or a fatal
 *    error removes the temporary; OUT is never half written.  A replaced
 *    file keeps its permission bits (not its owner); a new one gets
 *    0666 & ~umask.
 *  - OUT a character device or a FIFO (/dev/null, a named pipe) owned by
 *    the caller or root: written in place, as `cmd > OUT` would, never
 *    replaced.  A FIFO with no reader is waited for OUTFILE_FIFO_WAIT
 *    seconds, then refused.  Another user's FIFO is refused: its reader
 *    would be that user.
 *  - OUT a symbolic link: followed only if every link on the way is owned
 *    by the caller (effective uid) or by root; a link anyone else planted
 *    is refused, in any directory.  The file it leads to is then handled
 *    as above (a regular file is replaced under its own name, a device or
 *    FIFO written in place), except that a link into /proc (/dev/stdout ->
 *    /proc/self/fd/1) is always written in place, truncated, as cp(1)
 *    writes /dev/stdout.
 *  - anything else (a directory, a block device, a socket, a dangling
 *    link): refused.
 *
 * Usage:
 *	struct outfile o;
 *	if (outfile_open(&o, path, err, sizeof err) != 0)
 *		die("export: %s", err);          // "cannot create 'PATH': why"
 *	fprintf(o.fp, ...);
 *	if (outfile_commit(&o, err, sizeof err) != 0)
 *		die("export: %s", err);          // temporary already removed
 * or outfile_abort(&o) to give up.  Until commit or abort, exit() and
 * SIGINT/SIGTERM/SIGHUP also remove the temporary.
 */
#ifndef PCT_OUTFILE_H
#define PCT_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

#define OUTFILE_FIFO_WAIT 5            /* seconds to wait for a FIFO's reader */

struct outfile {
	FILE *fp;                      /* write here */
	char *path;                    /* OUT as named, for messages */
	char *target;                  /* the name renamed over (OUT, or where its links lead) */
	char *tmp;                     /* the temporary; NULL when written in place */
	int slot;                      /* in the table of temporaries removed at exit */
	int flushed;                   /* outfile_commit_new: written out, fp closed */
};

/* Open OUT for writing as described above.  Returns 0, or -1 with
 * "cannot create 'PATH': why" in err. */
int outfile_open(struct outfile *o, const char *path, char *err, size_t errlen);

/* Flush, and rename the temporary over the target.  Returns 0, or -1 with
 * "cannot write 'PATH': why" in err, the temporary removed. */
int outfile_commit(struct outfile *o, char *err, size_t errlen);

/*
 * For a file that must get a name nobody uses yet (pct record's profile
 * when another run has its name): the temporary is made beside path as
 * above, whatever path is now, and outfile_commit_new links it to a name
 * with link(2), which never replaces anything.  Returns 0, or -1 with
 * "cannot create 'PATH': why" in err.
 */
int outfile_open_new(struct outfile *o, const char *path, char *err, size_t errlen);

/* Flush (the first time), then link the temporary to name, a name in
 * path's directory.  Returns 0 (o released), or -1: with errno EEXIST
 * when name is taken (o kept, for another name or outfile_abort), else
 * with "cannot write 'NAME': why" in err (o aborted). */
int outfile_commit_new(struct outfile *o, const char *name, char *err, size_t errlen);

/* Give up: close, and remove the temporary. */
void outfile_abort(struct outfile *o);

#endif
