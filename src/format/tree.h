/*
 * tree.h - a process tree's profiles in one file (pct_format.h,
 * struct pct_tree_header; pct(5), "Tree files"): written by `pct record`
 * when the command ends, expanded by every reader through pset_load().
 */
#ifndef PCT_TREE_H
#define PCT_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "outfile.h"
#include "profile.h"

/* One profile to fold: a complete pct file in memory (profile_compact_fd),
 * its process id, and the run it belongs to (0 for one process tree;
 * `pct merge` numbers the runs of its inputs). */
struct tree_member {
	const void *data;
	size_t size;
	uint32_t pid;
	uint32_t run;
};

/* Free n members whose data is malloc'd (tree_members_read's), and m. */
void tree_members_free(struct tree_member *m, size_t n);

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
/* The same tree written into o, open (outfile.h) and not yet committed:
 * 0 (the caller commits), or -1 with "cannot write 'PATH': why" in err
 * and o aborted. */
int tree_put(struct outfile *o, const struct tree_member *members, size_t n, uint32_t root_pid, uint64_t session,
	     char *err, size_t errlen);

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

/* profiles_read, and in *raws each profile's bytes to fold again
 * (malloc'd; tree_members_free): a tree's inflated members with their pid
 * and run, or a profile file compacted (profile_compact_fd), run 0. */
int tree_members_read(const char *file, struct profile **out, struct tree_member **raws, size_t *n, char *err,
		      size_t errlen);

/*
 * `pct merge`: write the profiles of files (nfiles >= 1) as one tree file
 * at path (tree_write), the runs kept apart: each file's runs are
 * renumbered after the runs of the files before it.  *runs and *members
 * say how many runs and profiles it holds.  A process's profile found
 * twice (a file named twice, a copy, or twice in one file:
 * profile_identity) is refused, as it would stand for two runs that
 * agree by construction; the files are not otherwise checked against
 * each other (pset_load does that).  Returns 0, or -1 with err set.
 */
int tree_merge(const char *path, char *const *files, size_t nfiles, uint32_t *runs, size_t *members, char *err,
	       size_t errlen);

/* How many runs the file holds, from a tree's index alone (its members
 * are read and checked later): 1 for a profile file, a version 1 tree or
 * one process tree.  Returns 0, or -1 with "'FILE': what is wrong" in err. */
int tree_file_runs(const char *file, uint32_t *runs, char *err, size_t errlen);

/* How many runs the n profiles of one file hold: their largest run + 1
 * (struct profile's run; 1 for a profile file or one process tree). */
uint32_t profiles_runs(const struct profile *v, size_t n);

#endif
