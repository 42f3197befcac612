/*
 * test_escape.c - the escaping of names from profiles and ELF files
 * (escape.h): what is escaped, that the escaped form is a fixed point (a
 * stage may escape an earlier stage's TSV again without harm), that
 * esc_undo gives the bytes back, the TSV field writer, and the XML form
 * the flame graph uses.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "unit.h"
#include "util.h"

/* What f wrote to a memory stream, as a string (free it). */
#define CAPTURE(buf, stmt)                                       \
	do {                                                     \
		size_t len_;                                     \
		FILE *out = open_memstream(&(buf), &len_);      \
		stmt;                                            \
		fclose(out);                                     \
	} while (0)

static const char *const nasty[] = {
	"\033[2J\033]0;title\007",   /* clear screen, set title */
	"a\xc2\x9b" "b\x9b" "c",      /* C1 CSI as UTF-8 and as one byte */
	"\xff\xfe\xc0\xaf\xed\xa0\x80", /* never UTF-8, overlong, surrogate */
	"back\\slash \\x41 tab\there\nnl\x7f",
	"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\xa5", /* valid UTF-8 passes */
	"",
};

int main(void)
{
	char *s, *t;
	for (size_t i = 0; i < sizeof nasty / sizeof nasty[0]; i++) {
		s = esc_dup(nasty[i]);
		/* all printable: every character passes esc_printable */
		for (size_t at = 0, k = 1, n = strlen(s); at < n && k; at += k)
			CHECK((k = esc_printable((const unsigned char *)s + at, n - at)) != 0);
		CHECK(esc_len(nasty[i]) == strlen(s));
		t = esc_dup(s);
		CHECK(strcmp(s, t) == 0);             /* a fixed point: never escaped twice */
		free(t);
		t = esc_undo(s);
		CHECK(i == 3 || strcmp(t, nasty[i]) == 0);  /* 3 holds a literal \x41 */
		free(t);
		free(s);
	}
	s = esc_dup("\033[2J\xc2\x9b\xff\\");
	CHECK(strcmp(s, "\\x1b[2J\\xc2\\x9b\\xff\\") == 0);
	free(s);

	/* TSV: tab and newline escape as every control byte (a space could not
	 * be told from a tab), and esc_undo gives the name back */
	CAPTURE(s, put_tsv_field("a\tb\nc\033d\\e", out));
	CHECK(strcmp(s, "a\\x09b\\x0ac\\x1bd\\e") == 0);
	char *back = esc_undo(s);
	CHECK(strcmp(back, "a\tb\nc\033d\\e") == 0);
	free(back);
	free(s);
	CAPTURE(s, put_tsv_field("plain name", out));
	CHECK(strcmp(s, "plain name") == 0);
	free(s);

	/* source text keeps its tabs */
	CAPTURE(s, esc_fputs_tabs("\tx\033", out));
	CHECK(strcmp(s, "\tx\\x1b") == 0);
	free(s);

	/* XML: entities, controls and U+FFFF escaped, cut on a whole character */
	CAPTURE(s, esc_xml("<a&b>\"'\033\xef\xbf\xbf\xc3\xa9", SIZE_MAX, out));
	CHECK(strcmp(s, "&lt;a&amp;b&gt;&quot;&apos;\\x1b\\xef\\xbf\\xbf\xc3\xa9") == 0);
	free(s);
	CAPTURE(s, esc_xml("ab\033c", 4, out));      /* \x1b does not fit after "ab" */
	CHECK(strcmp(s, "ab") == 0);
	free(s);
	CAPTURE(s, esc_xml("a\xc3\xa9", 2, out));    /* nor half of the é */
	CHECK(strcmp(s, "a") == 0);
	free(s);
	return unit_done("test_escape");
}
