/*
 * infile.h - open an input named by someone else (a profile, a module path
 * recorded in a profile, a debug link, a source file named by DWARF)
 * without ever opening what is not a regular file.
 *
 * A plain open(2) of a FIFO blocks, and an open of a device node can have
 * effects of its own (a watchdog arms on open).  So the path is first
 * opened with O_PATH, which opens no device, FIFO or socket; its type is
 * checked with fstat(2); only then is that same inode opened for reading,
 * through /proc/self/fd.  The result is O_RDONLY | O_NONBLOCK | O_NOCTTY |
 * O_CLOEXEC.
 */
#ifndef PCT_INFILE_H
#define PCT_INFILE_H

#include <stdio.h>
#include <sys/stat.h>

/*
 * Open PATH for reading if it is a regular file.  A final symlink is
 * followed (as cat(1) would) unless nofollow is set.  On success returns
 * the descriptor and, if st is not NULL, fills *st.  On failure returns -1
 * and sets *why to a static phrase ("a FIFO, not a regular file", or
 * strerror(errno)) for "cannot open 'PATH': WHY" messages; errno is set.
 */
int infile_open(const char *path, int nofollow, struct stat *st, const char **why);

/*
 * Open PATH as a text stream a filter reads: "-" is standard input; a
 * regular file is opened as by infile_open; a FIFO (a shell's <(...)) is
 * opened too, and waited on for at most INFILE_FIFO_WAIT seconds until a
 * writer sends data or closes it.  Anything else (a device, a
 * directory, a socket) is refused without being opened.  Returns the
 * stream, or NULL with *why set as by infile_open.
 */
FILE *infile_stream(const char *path, const char **why);
#define INFILE_FIFO_WAIT 5             /* seconds infile_stream waits for a FIFO's writer */


/* "a regular file", "a directory", "a FIFO", "a character device", ...:
 * what a file of mode m is, for messages. */
const char *infile_kind(mode_t m);

#endif
