/*
 * names.h - function names as people read them in a text report: C++ and
 * Rust names shortened as pprof shows them, and names cut to a terminal's
 * width.  TSV and every aggregation keep the full name; these are for
 * display only.
 */
#ifndef PCT_NAMES_H
#define PCT_NAMES_H

#include <stdio.h>
#include <stddef.h>

/*
 * The short form of a demangled function name, as pprof prints it by
 * default: no parameter list, no template arguments, no return type, no
 * trailing qualifiers (const, [clone .cold]).
 *
 *   std::vector<int, std::allocator<int> >::push_back(int const&)
 *       -> std::vector::push_back
 *   bool operator< <int>(S<int> const&, S<int> const&)  -> operator<
 *   main::{lambda(int)#1}::operator()(int) const        -> main::{lambda#1}::operator()
 *   (anonymous namespace)::f(int)                       -> (anonymous namespace)::f
 *   <alloc::vec::Vec<T> as core::ops::drop::Drop>::drop -> <alloc::vec::Vec as core::ops::drop::Drop>::drop
 *   std::rt::lang_start::<()>::{closure#0}              -> std::rt::lang_start::{closure#0}
 *   std::vector<int>::push_back(int const&)@plt         -> std::vector::push_back@plt
 *
 * A name with none of ( < { is returned as it is (a C name, "[unknown]",
 * "MODULE+0x1f"); so is a name whose short form would be empty.  Returns
 * a freshly allocated string (free it).
 */
char *name_short(const char *name);

/* The terminal columns s takes: one per UTF-8 character (s is escaped
 * text, escape.h, so every byte is printable ASCII or part of a
 * character). */
size_t text_columns(const char *s);

/*
 * s cut to at most cols columns, keeping its start: if it is wider, its
 * first characters, then mark (one column wide, e.g. "…").  A freshly
 * allocated string (free it).
 */
char *text_cut(const char *s, size_t cols, const char *mark);

/*
 * The width to cut text reports to when they go to fd: 0 if fd is not a
 * terminal (a pipe or a file is never cut); else the terminal's columns
 * (TIOCGWINSZ), else $COLUMNS if it is a number, else 80.
 */
int term_columns(int fd);

/*
 * Write text (lines, each ending in '\n') to out with every comment line
 * ("# ...") longer than cols columns wrapped at spaces, its continuation
 * lines begun with "#   "; a word too long for a line is broken.  Columns
 * are UTF-8 characters (a "±" is one).  Other lines are written as they
 * are; cols 0 writes everything as it is.  For the headers of the text
 * reports on a terminal (term_columns()).
 */
void text_wrap_comments(FILE *out, const char *text, int cols);

/* The mark text_cut should append here: "…" in a UTF-8 locale, else "~". */
const char *cut_mark(void);

#endif
