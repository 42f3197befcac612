/*
 * escape.c - see escape.h.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "util.h"

size_t esc_printable(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	if (c >= 0x20 && c < 0x7f)
		return 1;
	size_t len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
	if (len == 0 || len > n)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	uint32_t cp = len == 2 ? (c & 0x1fu) << 6 | (s[1] & 0x3fu)
		    : len == 3 ? (c & 0x0fu) << 12 | (s[1] & 0x3fu) << 6 | (s[2] & 0x3fu)
			       : (c & 0x07u) << 18 | (s[1] & 0x3fu) << 12 | (s[2] & 0x3fu) << 6 | (s[3] & 0x3fu);
	/* overlong forms, surrogates, beyond U+10FFFF, and the C1 controls */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp < 0xa0)
		return 0;
	return len;
}

/* esc_write; with tabs set, a tab passes through too. */
static void write_escaped(const char *s, size_t n, int tabs, FILE *out)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	while (i < n) {
		size_t start = i, k;
		while (i < n && (k = tabs && p[i] == '\t' ? 1 : esc_printable(p + i, n - i)) != 0)
			i += k;
		if (i > start)
			fwrite(p + start, 1, i - start, out);
		if (i < n)
			fprintf(out, "\\x%02x", p[i++]);
	}
}

void esc_write(const char *s, size_t n, FILE *out)
{
	write_escaped(s, n, 0, out);
}

void esc_fputs_tabs(const char *s, FILE *out)
{
	write_escaped(s, strlen(s), 1, out);
}

size_t esc_len(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), len = 0;
	for (size_t i = 0, k; i < n; i += k ? k : 1)
		len += (k = esc_printable(p + i, n - i)) ? k : 4;
	return len;
}

void esc_xml(const char *s, size_t max, FILE *out)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), done = 0;
	for (size_t i = 0, k; i < n; i += k ? k : 1) {
		k = esc_printable(p + i, n - i);
		/* U+FFFE and U+FFFF: UTF-8 ef bf be, ef bf bf */
		if (k == 3 && p[i] == 0xef && p[i + 1] == 0xbf && p[i + 2] >= 0xbe)
			k = 0;
		if (done + (k ? k : 4) > max)
			break;
		done += k ? k : 4;
		if (k == 0)
			fprintf(out, "\\x%02x", p[i]);
		else if (k > 1)
			fwrite(p + i, 1, k, out);
		else if (p[i] == '&')
			fputs("&amp;", out);
		else if (p[i] == '<')
			fputs("&lt;", out);
		else if (p[i] == '>')
			fputs("&gt;", out);
		else if (p[i] == '"')
			fputs("&quot;", out);
		else if (p[i] == '\'')
			fputs("&apos;", out);
		else
			fputc(p[i], out);
	}
}

static int hex_digit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

char *esc_undo(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *o = out;
	while (*s) {
		int hi, lo;
		if (s[0] == '\\' && s[1] == 'x' && (hi = hex_digit(s[2])) >= 0 && (lo = hex_digit(s[3])) >= 0) {
			*o++ = (char)(hi << 4 | lo);
			s += 4;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
	return out;
}

void esc_fputs(const char *s, FILE *out)
{
	esc_write(s, strlen(s), out);
}

char *esc_dup(const char *s)
{
	if (esc_len(s) == strlen(s))   /* nothing to escape: the common case */
		return xstrdup(s);
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (m == NULL)
		die("out of memory");
	esc_fputs(s, m);
	if (fclose(m) != 0)
		die("out of memory");
	return buf;
}

void esc_json(const char *s, int tabs, FILE *out)
{
	const char *at = s ? s : "";
	fputc('"', out);
	for (;;) {
		/* a source line's tabs pass through as \t; the rest is escaped */
		size_t len = tabs ? strcspn(at, "\t") : strlen(at);
		char *piece = xstrndup(at, len), *e = esc_dup(piece);
		for (const char *c = e; *c; c++) {
			if (*c == '"' || *c == '\\')
				fprintf(out, "\\%c", *c);
			else if (*c == '<' || *c == '>' || *c == '&')
				fprintf(out, "\\u%04x", (unsigned char)*c);
			else
				fputc(*c, out);
		}
		free(piece);
		free(e);
		at += len;
		if (*at != '\t')
			break;
		fputs("\\t", out);
		at++;
	}
	fputc('"', out);
}
