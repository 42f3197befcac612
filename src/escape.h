/*
 * escape.h - make text from a profile or an ELF file safe to print.
 *
 * Every string pct prints that it did not write itself (command lines,
 * module paths, symbol, file and thread names, and messages quoting them)
 * may hold terminal control sequences.  These helpers pass printable ASCII
 * and well-formed UTF-8 through and write every other byte as \xNN: C0
 * controls (ESC, BEL, ...), DEL, the C1 controls U+0080-U+009F, and bytes
 * that are not valid UTF-8.
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

#endif
