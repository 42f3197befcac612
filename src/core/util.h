/*
 * util.h - small helpers shared by the pct commands: fatal errors,
 * allocation that cannot return NULL, growing arrays and string buffers.
 */
#ifndef PCT_UTIL_H
#define PCT_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Every message pct prints on stderr goes through one function: "pct: ",
 * an optional prefix, then the message escaped (escape.h; it may quote a
 * path or a name from a hostile file), one line per '\n' in it.
 */

/* Print "pct: MESSAGE" on stderr and exit 1.  Only commands call it. */
__attribute__((noreturn, format(printf, 1, 2))) void die(const char *fmt, ...);
/* Print "pct: MESSAGE" on stderr and go on: news for the user (what a
 * command did, what it left out), not an error. */
__attribute__((format(printf, 1, 2))) void note(const char *fmt, ...);

/*
 * An error that library code returns instead of exiting: the exit status
 * it calls for (1: a corrupt or missing input, a failed system call; 2: a
 * usage error, such as a column to group by that the input lacks) and its
 * message, malloc'd, without the "pct: " a command prints before it.
 * msg NULL: the message has been printed already (a usage text).
 */
struct error {
	int status;
	char *msg;
};
/* Set *e to status and the formatted message; returns -1, for
 * `return error_set(e, 1, ...)`. */
__attribute__((format(printf, 3, 4))) int error_set(struct error *e, int status, const char *fmt, ...);
/* Print e as die() would (stdout flushed first, then "pct: MESSAGE" on
 * stderr), free its message, and return its status for the command to
 * return. */
int error_report(struct error *e);

/* Print "pct: warning: MESSAGE" on stderr. */
/* The plus-minus sign for text reports: "±" in a UTF-8 locale (LC_ALL,
 * LC_CTYPE or LANG, the first set, names UTF-8), else "+-". */
const char *plus_minus(void);

/* die() with exit status 2: a usage error (a bad option value, an -o that
 * cannot be used), as pct(1) promises */
__attribute__((noreturn, format(printf, 1, 2))) void die_usage(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void warnx_(const char *fmt, ...);

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* The first n bytes of s at most, NUL-terminated, in a new string. */
char *xstrndup(const char *s, size_t n);
__attribute__((format(printf, 1, 2))) char *xasprintf(const char *fmt, ...);

/* Grow *p (an array of *cap elements of size bytes) to hold at least need. */
void grow(void *p, size_t *cap, size_t need, size_t size);

/* qsort(3) that accepts an empty array given as NULL (qsort's pointer
 * must not be NULL even for 0 elements). */
void sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

/* Flush stdout; 0 if everything written to it reached its file, else the
 * errno of the first failure seen. */
int stdout_error(void);
/* Flush stdout and die if anything written to it was lost.  The
 * dispatcher (pct.c) calls it once a command has returned 0. */
void finish_stdout(void);

/*
 * A command's answer, from its getopt loop, to -h/--help (help = 1: the
 * whole usage on stdout, returns 0) or to a bad option (help = 0: getopt
 * has printed one line; this adds the hint "Try 'pct CMD --help' for the
 * options." on stderr, and returns 2, the usage-error status).  CMD comes
 * from usage's first line, "usage: pct CMD ...".
 */
int usage_exit(const char *usage, int help);
/* A missing or extra operand: usage's synopsis (up to its first blank
 * line) and the hint on stderr; returns 2. */
int usage_short(const char *usage);

/* Write s to out as one TSV field: escaped (escape.h), so a tab or a
 * newline is written \x09 or \x0a, as every other control byte and invalid
 * UTF-8; esc_undo() gives s back (a path read from TSV is opened so). */
void put_tsv_field(const char *s, FILE *out);

/* A macro's value as a string literal: STR(5) is "5". */
#define STR_(x) #x
#define STR(x) STR_(x)

/* FNV-1a (Fowler, Noll, Vo; 64-bit): h updated with the n bytes at p;
 * start from FNV1A_BASIS.  A hash for tables, not a checksum. */
#define FNV1A_BASIS UINT64_C(0xcbf29ce484222325)
#define FNV1A_PRIME UINT64_C(0x100000001b3)
uint64_t fnv1a(uint64_t h, const void *p, size_t n);

/*
 * h updated with v by a hash keyed with a secret of this process
 * (getrandom; splitmix64's finalizer over the mixed words), for tables
 * keyed by 64 bits that a profile chooses (its addresses): without the
 * key, no input can be made whose keys collide and whose every insertion
 * then probes the ones before it.  Start from hash_start().
 */
uint64_t hash_start(void);
uint64_t hash_mix(uint64_t h, uint64_t v);

/* A module's key: FNV-1a of its path, a NUL and its build-id. */
uint64_t module_hash(const char *path, const uint8_t *build_id, size_t build_id_len);

/* Base name of a path, without copying ("/a/b" -> "b"). */
const char *path_base(const char *path);

#endif
