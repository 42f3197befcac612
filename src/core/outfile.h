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
 *    0666 & ~umask.  The temporary is 0600 until the commit gives it
 *    that mode, less what outfile_limit_to() took away.
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
 *  - OUT "-": standard output, written in place and not closed (the
 *    dispatcher's finish_stdout() reports a late error); in messages it is
 *    "standard output".  Whether a terminal may take the data is the
 *    command's to decide (cmd_output_tty(), commands.h).
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
#include <sys/stat.h>
#include <sys/types.h>

#define OUTFILE_FIFO_WAIT 5            /* seconds to wait for a FIFO's reader */

struct outfile {
	FILE *fp;                      /* write here */
	char *path;                    /* OUT as named, for messages */
	char *target;                  /* the name renamed over (OUT, or where its links lead) */
	char *tmp;                     /* the temporary; NULL when written in place */
	int slot;                      /* in the table of temporaries removed at exit */
	mode_t mode;                   /* the temporary's mode at commit, before drop */
	mode_t drop;                   /* read bits outfile_limit_to() took away */
	gid_t gid;                     /* the group of the file written */
	int in_place_file;             /* a regular file written in place (/dev/stdout's) */
	int flushed;                   /* outfile_commit_new: written out, fp closed */
	int is_stdout;                 /* OUT "-": fp is stdout, never closed here */
};

/* The kernel's protected_symlinks rule as pct applies it, in every
 * directory: a symbolic link is followed only if the caller (effective
 * uid) or root owns it; and so is a directory trusted on the way to a
 * private one (outfile_private_dir).  1 if owner is one of the two. */
int outfile_owner_trusted(uid_t owner);

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

/*
 * OUT will hold the bytes of the file st describes (pct archive's
 * members): make it no more readable than that file.  Read by others is
 * taken away unless the file has it; read by the group unless the file
 * has it and is of OUT's group, or anyone may read it.  A temporary gets
 * its mode at the commit; a regular file written in place (behind
 * /dev/stdout) is changed now.  Call it before writing the file's bytes.
 * Returns 0, or -1 with "cannot write 'PATH': why" in err.
 */
int outfile_limit_to(struct outfile *o, const struct stat *st, char *err, size_t errlen);

/*
 * Open the directory path (absolute), a private directory of the caller's
 * such as the build-id cache, through no directory or link another user
 * controls: walked from / one component at a time, each opened with
 * O_PATH | O_NOFOLLOW and checked with fstat(2).  Every directory on the
 * way must be owned by the caller (effective uid) or root, and writable
 * by no other user unless it is sticky (/tmp); a symbolic link is followed
 * only by the rule of outfile_owner_trusted(), and its target walked the
 * same way; the last directory must be the caller's own.  With create,
 * each missing component is made, 0700, by mkdirat(2) in its verified
 * parent.  Returns a descriptor (O_RDONLY | O_DIRECTORY), or -1 with
 * errno and the reason in why, naming the component: ENOENT if one is
 * missing (without create), EPERM if one is refused ("'/home/x' is
 * owned by uid 1000, neither yours nor root's", "'/home/x/.cache' is a
 * symbolic link owned by uid 1000, neither yours nor root's").
 */
int outfile_private_dir(const char *path, int create, char *why, size_t whylen);

#endif
