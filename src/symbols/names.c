/*
 * names.c - see names.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "names.h"
#include "symtab.h"
#include "util.h"

/* The operator token that starts at s (after "operator" and its spaces):
 * its length in bytes. */
static size_t operator_token(const char *s)
{
	static const char *const words[] = { "new[]", "delete[]", "new", "delete", "co_await" };
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		size_t n = strlen(words[i]);
		if (strncmp(s, words[i], n) == 0 && !(s[n] == '_' || (s[n] >= 'a' && s[n] <= 'z')))
			return n;
	}
	if (strncmp(s, "()", 2) == 0 || strncmp(s, "[]", 2) == 0)
		return 2;
	if (strncmp(s, "\"\"", 2) == 0) {
		/* a literal operator: operator""_km */
		size_t n = 2;
		while (s[n] == '_' || (s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z') ||
		       (s[n] >= '0' && s[n] <= '9'))
			n++;
		return n;
	}
	static const char *const ops[] = { "<=>", "<<=", ">>=", "->*", "<<", ">>", "<=", ">=", "==", "!=", "&&",
					   "||", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
					   "->", "<", ">", "=", "!", "+", "-", "*", "/", "%", "&", "|", "^",
					   "~", "," };
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
		size_t n = strlen(ops[i]);
		if (strncmp(s, ops[i], n) == 0)
			return n;
	}
	return 0;                      /* a conversion: operator int */
}

static int ident_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static char *shorten(const char *name);

char *name_short(const char *name)
{
	if (strpbrk(name, "(<{") == NULL)
		return xstrdup(name);
	size_t n = strlen(name);
	if (symbol_is_plt(name)) {
		/* a PLT stub (symtab.h): the function's short name, then @plt */
		char *base = xasprintf("%.*s", (int)(n - 4), name), *b = shorten(base);
		char *r = xasprintf("%s@plt", b);
		free(base);
		free(b);
		return r;
	}
	return shorten(name);
}

/* name_short's work: one pass, keeping what is outside argument lists. */
static char *shorten(const char *name)
{
	size_t n = strlen(name), o = 0;
	char *out = xmalloc(n + 1);
	int hidden = 0;                /* depth of < ( groups being dropped */
	int braces = 0;                /* depth of { } (lambda, unnamed type) kept */
	int shown = 0;                 /* depth of < > groups kept: Rust's <T as Trait> */
	for (size_t i = 0; i < n; i++) {
		char c = name[i];
		if (hidden == 0 && c == 'o' && strncmp(name + i, "operator", 8) == 0 &&
		    (i == 0 || !ident_char(name[i - 1])) && !ident_char(name[i + 8])) {
			/* operator<, operator(), operator new[]: the token is the name */
			size_t j = i + 8;
			while (name[j] == ' ')
				j++;
			size_t t = operator_token(name + j);
			memcpy(out + o, "operator", 8);
			o += 8;
			if (t && (name[j] < 'a' || name[j] > 'z')) {
				memcpy(out + o, name + j, t);
				o += t;
			} else if (t) {
				out[o++] = ' ';
				memcpy(out + o, name + j, t);
				o += t;
			} else if (j > i + 8) {
				out[o++] = ' ';   /* a conversion: "operator int" */
			}
			i = j + t - 1;
			/* "operator< <int>": the space only parts the tokens */
			if (t && name[j + t] == ' ' && name[j + t + 1] == '<')
				i++;
			continue;
		}
		if (c == '(' && hidden == 0 && strncmp(name + i, "(anonymous namespace)", 21) == 0) {
			memcpy(out + o, name + i, 21);
			o += 21;
			i += 20;
			continue;
		}
		if (c == '<') {
			if (hidden) {
				hidden++;
				continue;
			}
			/* at the start of a name, it is a qualified path, Rust's
			 * <T as Trait>::f: keep it; elsewhere it holds arguments,
			 * and Rust's "f::<T>" loses its "::" too */
			if (o == 0 || (shown && out[o - 1] == '<')) {
				shown++;
				out[o++] = c;
			} else {
				if (o >= 2 && out[o - 1] == ':' && out[o - 2] == ':')
					o -= 2;
				hidden++;
			}
			continue;
		}
		if (c == '>') {
			if (hidden) {
				hidden--;
			} else if (shown) {
				shown--;
				out[o++] = c;
			}
			continue;
		}
		if (c == '(') {
			if (hidden == 0 && braces == 0 && shown == 0) {
				/* the parameter list: the name ends here unless a
				 * scope follows it (f()::{lambda()#1}, f()::x) */
				int depth = 0;
				size_t j = i;
				for (; j < n; j++) {
					if (name[j] == '(')
						depth++;
					else if (name[j] == ')' && --depth == 0)
						break;
				}
				if (j < n && strncmp(name + j + 1, "::", 2) == 0) {
					i = j;
					continue;
				}
				break;
			}
			hidden++;
			continue;
		}
		if (c == ')') {
			if (hidden)
				hidden--;
			continue;
		}
		if (hidden)
			continue;
		if (c == '{')
			braces++;
		else if (c == '}' && braces)
			braces--;
		if (c == ' ' && braces == 0 && shown == 0) {
			/* a return type ("int f<int>(int)") ends at the name's
			 * space; a qualifier after the name ("[clone .cold]")
			 * ends the name */
			if (name[i + 1] == '[')
				break;
			o = 0;
			continue;
		}
		out[o++] = c;
	}
	out[o] = '\0';
	if (o == 0) {
		free(out);
		return xstrdup(name);
	}
	return out;
}

size_t text_columns(const char *s)
{
	size_t cols = 0;
	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			cols++;
	return cols;
}

char *text_cut(const char *s, size_t cols, const char *mark)
{
	if (text_columns(s) <= cols || cols == 0)
		return xstrdup(s);
	/* the bytes of the first cols - 1 characters */
	size_t keep = 0, seen = 0;
	for (; s[keep]; keep++) {
		if (((unsigned char)s[keep] & 0xc0) != 0x80) {
			if (seen == cols - 1)
				break;
			seen++;
		}
	}
	return xasprintf("%.*s%s", (int)keep, s, mark);
}

/* The columns of s[0..n): UTF-8 lead bytes and ASCII. */
static size_t text_cols(const char *s, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* The bytes of s that fill at most cols columns, whole characters. */
static size_t text_fit(const char *s, size_t n, size_t cols)
{
	size_t i = 0, c = 0;
	while (i < n && (c < cols || ((unsigned char)s[i] & 0xc0) == 0x80)) {
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
		i++;
	}
	while (i < n && ((unsigned char)s[i] & 0xc0) == 0x80)
		i++;
	return i;
}

void text_wrap_comments(FILE *out, const char *text, int cols)
{
	static const char cont[] = "#   ";
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t n = nl ? (size_t)(nl - text) : strlen(text);
		if (cols <= 8 || text[0] != '#' || text_cols(text, n) <= (size_t)cols) {
			fwrite(text, 1, n, out);
		} else {
			const char *p = text;
			size_t left = n, room = (size_t)cols;
			int first = 1;
			while (left > 0) {
				if (!first) {
					fputs(cont, out);
					room = (size_t)cols - (sizeof cont - 1);
				}
				size_t take = left;
				if (text_cols(p, left) > room) {
					size_t fit = text_fit(p, left, room), cut = fit;
					while (cut > 0 && p[cut] != ' ')
						cut--;
					take = cut > 0 ? cut : fit;  /* a word too long: broken */
				}
				fwrite(p, 1, take, out);
				p += take;
				left -= take;
				while (left > 0 && *p == ' ') {
					p++;
					left--;
				}
				if (left > 0)
					fputc('\n', out);
				first = 0;
			}
		}
		fputc('\n', out);
		text = nl ? nl + 1 : text + n;
	}
}

int term_columns(int fd)
{
	if (!isatty(fd))
		return 0;
	struct winsize ws;
	if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	const char *c = getenv("COLUMNS");
	char *end;
	long v = c ? strtol(c, &end, 10) : 0;
	if (c && *c && *end == '\0' && v > 0 && v < 100000)
		return (int)v;
	return 80;
}

const char *cut_mark(void)
{
	return strcmp(plus_minus(), "+-") == 0 ? "~" : "\xe2\x80\xa6";
}
