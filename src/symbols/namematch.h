/*
 * namematch.h - which function a user means by the name they typed.
 *
 * People type `hash_loop` for `hash_loop(unsigned long)`, or the start of
 * a long C++ name, or a regular expression as pprof takes (--focus).  The
 * typed text is tried against the candidate names in this order, and the
 * first way that matches any name decides:
 *
 *   1. the exact name;
 *   2. the name without its parameter list (the last balanced "(...)" and
 *      what follows it, such as " const"): `ns::f` for `ns::f(int) const`;
 *   3. a prefix of the name;
 *   4. a POSIX extended regular expression (regcomp REG_EXTENDED) matching
 *      anywhere in the name; text that is not a valid one matches nothing.
 *
 * Several names matching the deciding way (overloads, a common prefix) are
 * an ambiguity that the caller reports, listing them.
 */
#ifndef PCT_NAMEMATCH_H
#define PCT_NAMEMATCH_H

#include <stddef.h>
#include <stdio.h>

/*
 * The names among names[0..n) (distinct strings) that typed means: their
 * indices in *picked (malloc'd, free it; ascending) and their number as
 * the result, 0 if none matches, more than 1 if typed is ambiguous.
 */
size_t name_match(const char *typed, const char *const *names, size_t n, size_t **picked);

/* The length of name without its parameter list (rule 2 above). */
size_t name_without_params(const char *name);

/*
 * The usual handling of a result for a command named cmd: with exactly one
 * name returns it; with none returns NULL; with several prints
 * "cmd: 'typed' is ambiguous: N functions match" and the names, escaped,
 * one per line, to standard error, and exits 1.
 */
const char *name_match_one(const char *cmd, const char *typed, const char *const *names, size_t n);

#endif
