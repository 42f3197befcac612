/*
 * escape.h - make text from a profile or an ELF file safe to print.
 *
 * Every string pct prints that it did not write itself (command lines,
 * module paths, symbol, file and thread names, and messages quoting them)
 * may hold terminal control sequences.  These helpers pass printable ASCII
 * and well-formed UTF-8 through and write every other byte as \xNN: C0
 * controls (ESC, BEL, ...), DEL, the C1 controls U+0080-U+009F, and bytes
 * that are not valid UTF-8.
 *
 * The escaped form is itself printable, so escaping it again changes
 * nothing: a printer may escape text that an earlier stage (a `pct dump`
 * TSV field) already escaped, and nothing is ever escaped twice.  A
 * backslash passes through as it is.
 */
#ifndef PCT_ESCAPE_H
#define PCT_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/* Write the first n bytes of s to out, escaped as above. */
void esc_write(const char *s, size_t n, FILE *out);

/* esc_write of a NUL-terminated string. */
void esc_fputs(const char *s, FILE *out);

/* A freshly allocated, escaped copy of s (free it). */
char *esc_dup(const char *s);

/* Length of the valid UTF-8 character at s (at most n bytes available)
 * that is printable: 1 for printable ASCII, 2-4 for a multi-byte
 * character other than a C1 control, 0 if the byte must be escaped. */
size_t esc_printable(const unsigned char *s, size_t n);

/* The bytes esc_fputs would write for s. */
size_t esc_len(const char *s);

/* esc_fputs, but a tab passes through: for lines of a source file. */
void esc_fputs_tabs(const char *s, FILE *out);

/*
 * Write s as XML 1.0 character data or attribute text: escaped as
 * esc_fputs (so no control byte or invalid UTF-8 is left, which XML
 * forbids), with & < > " ' as entities and the noncharacters U+FFFE and
 * U+FFFF (not XML characters either) as \xNN too.  At most max bytes of
 * the escaped form are written (an entity counts as its one character),
 * never part of a character.
 */
void esc_xml(const char *s, size_t max, FILE *out);

/*
 * The bytes that s, escaped by esc_fputs, stood for: each \xNN becomes
 * byte NN (a freshly allocated string; free it).  A path read back from
 * pct's TSV is unescaped so before it is opened; a path that holds a
 * literal "\x" and two hex digits cannot be told from an escaped one.
 */
char *esc_undo(const char *s);

/*
 * Write s as a JSON string literal: escaped as esc_fputs writes it, then
 * '"' and '\\' escaped with a backslash, and '<', '>' and '&' as \u003c,
 * \u003e, \u0026, so that the string may sit inside an HTML <script>
 * element (nothing in it can end the element).  With tabs 1 a tab is
 * written \t (a line of a source file) rather than \x09.
 */
void esc_json(const char *s, int tabs, FILE *out);

#endif
