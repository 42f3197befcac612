/*
 * source.h - source files for annotated listings, read once and kept.
 *
 * A DWARF file name is tried as it is, then under each directory given
 * with --source-dir (by its trailing path components, longest first, so
 * that a tree moved elsewhere is still found), then in the working
 * directory the same way.
 *
 * DWARF may name any file, /etc/shadow as well as a source file, and a
 * listing prints what it reads.  With --source-root, only files under
 * those directories are read: the file opened is resolved (symlinks,
 * "..") and must lie under one of them.
 */
#ifndef PCT_SOURCE_H
#define PCT_SOURCE_H

#include <stddef.h>

struct srcfile {
	char *path;                    /* as asked */
	char *found;                   /* where it was read, or NULL */
	char *looked;                  /* the places tried, for messages */
	int outside;                   /* found only outside every --source-root */
	char *text;
	char **lines;                  /* lines[0] is line 1, without '\n' */
	size_t nlines;
};

/* Add a directory to search. */
void source_add_dir(const char *dir);
/* Read source files only under dir (and other roots added).  Returns 0,
 * or -1 with errno set if dir cannot be resolved. */
int source_add_root(const char *dir);
/* The file, read on first use; never NULL (found is NULL if unreadable). */
const struct srcfile *source_get(const char *path);
/* Line n (1-based) of f, or NULL. */
const char *source_line(const struct srcfile *f, int n);
void source_free_all(void);

#endif
