/*
 * tree.h - a process tree's profiles in one file (pct_format.h,
 * struct pct_tree_header; pct(5), "Tree files"): written by `pct record`
 * when the command ends, expanded by every reader through pset_load().
 */
#ifndef PCT_TREE_H
#define PCT_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "profile.h"

/* One profile to fold: a complete pct file in memory (profile_compact_fd),
 * and its process id. */
struct tree_member {
	const void *data;
	size_t size;
	uint32_t pid;
};

/*
 * Write members (n >= 1, in the tree's order) as one tree file at path:
 * each compressed with zlib, then written to a temporary beside path
 * (outfile.h: O_CREAT | O_EXCL | O_NOFOLLOW) and renamed over it, with
 * the runtime's mode whatever the umask: 0644, or 0600 if a member holds
 * call stacks.
 * root_pid and session go in the header.  Returns 0, or -1 with "cannot
 * create/write 'PATH': why" in err.
 */
int tree_write(const char *path, const struct tree_member *members, size_t n, uint32_t root_pid,
	       uint64_t session, char *err, size_t errlen);

/* Does buf (len bytes, the start of a file) open with PCT_TREE_MAGIC? */
int tree_magic(const void *buf, size_t len);

/*
 * The profiles of the tree file at fd (size bytes), named file in
 * messages, in *out (malloc'd, *n of them, in the tree's order).  A
 * profile is named "FILE" if the tree holds one, else "FILE:PID".
 * Every offset and size is checked against the file and the limits of
 * pct_format.h; each member is inflated and checked as profile_parse()
 * checks a profile.  Returns 0, or -1 with "'FILE': what is wrong" in err
 * (nothing left to free).
 */
int tree_read_fd(int fd, uint64_t size, const char *file, struct profile **out, size_t *n, char *err,
		 size_t errlen);

/* The same from memory (data: size bytes, any alignment), for the fuzz
 * target and the unit tests. */
int tree_parse(const char *file, const void *data, size_t size, struct profile **out, size_t *n, char *err,
	       size_t errlen);

/*
 * Every profile in the file named file: a tree's members, or the one
 * profile of a pct file ("-": standard input, read once).  Returns 0, or
 * -1 with err set.
 */
int profiles_read(const char *file, struct profile **out, size_t *n, char *err, size_t errlen);

#endif
