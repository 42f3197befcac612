/*
 * common.c - what the command files share (commands.h); not a command,
 * so that commands call it without calling one another (e2e 94), and the
 * unit tests, which link everything but the dispatcher (pct.c), have it.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "commands.h"
#include "names.h"
#include "pset.h"
#include "util.h"

void cmd_load(struct pset *s, char *const *files, size_t n, const char *what)
{
	char err[512];
	if (pset_load(s, files, n, err, sizeof err) != 0)
		die("%s%s", what, err);
}

int cmd_dashdash(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0)
			return i;
	return -1;
}

double cmd_alpha(const char *cmd, const char *arg)
{
	char *end;
	double a = strtod(arg, &end);
	if (*end || !(a > 0 && a < 1))
		die_usage("%s: --alpha wants a level between 0 and 1, not '%s'", cmd, arg);
	return a;
}

double cmd_min_effect(const char *cmd, const char *arg)
{
	char *end;
	double m = strtod(arg, &end);
	if (*end || !(m > 0 && m <= 100))
		die_usage("%s: --min-effect wants percentage points above 0, up to 100, not '%s'", cmd, arg);
	return m;
}

void cmd_output_tty(const char *cmd, const char *out, const char *what)
{
	if ((out == NULL || strcmp(out, "-") == 0) && isatty(STDOUT_FILENO))
		die_usage("%s: the output is %s and standard output is a terminal; give -o FILE or redirect it", cmd,
			  what);
}

/* cmd_wrap_headers: stdout becomes a stream whose comment lines go
 * through text_wrap_comments() on their way to the terminal; other lines
 * pass at once.  wrap_line holds a comment line until its '\n'. */
static FILE *wrap_real;
static int wrap_cols;
static char *wrap_line;
static size_t wrap_len, wrap_cap;
static int wrap_in_comment, wrap_at_start = 1;

static void wrap_emit(void)
{
	wrap_line[wrap_len] = '\0';
	text_wrap_comments(wrap_real, wrap_line, wrap_cols);
	wrap_len = 0;
}

static ssize_t wrap_write(void *cookie, const char *buf, size_t n)
{
	(void)cookie;
	size_t i = 0;
	while (i < n) {
		if (wrap_at_start) {
			wrap_in_comment = buf[i] == '#';
			wrap_at_start = 0;
		}
		const char *nl = memchr(buf + i, '\n', n - i);
		size_t k = nl ? (size_t)(nl - (buf + i)) + 1 : n - i;
		if (!wrap_in_comment) {
			fwrite(buf + i, 1, k, wrap_real);
		} else {
			if (wrap_len + k + 1 > wrap_cap) {
				wrap_cap = (wrap_len + k + 1) * 2;
				wrap_line = xrealloc(wrap_line, wrap_cap);
			}
			memcpy(wrap_line + wrap_len, buf + i, k);
			wrap_len += k;
			if (nl)
				wrap_emit();
		}
		if (nl)
			wrap_at_start = 1;
		i += k;
	}
	if (fflush(wrap_real) != 0 || ferror(wrap_real))
		return -1;
	return (ssize_t)n;
}

static void wrap_finish(void)
{
	if (!wrap_real)
		return;
	fflush(stdout);
	if (wrap_len > 0) {  /* a last comment line without its '\n' */
		fwrite(wrap_line, 1, wrap_len, wrap_real);
		wrap_len = 0;
	}
	fflush(wrap_real);
}

void cmd_wrap_headers(void)
{
	int cols = term_columns(STDOUT_FILENO);
	if (cols <= 0 || wrap_real)
		return;
	cookie_io_functions_t io = { .write = wrap_write };
	FILE *f = fopencookie(NULL, "w", io);
	if (!f)
		return;  /* unwrapped headers, as on a wide terminal */
	wrap_real = stdout;
	wrap_cols = cols;
	stdout = f;
	atexit(wrap_finish);
}
