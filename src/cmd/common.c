/*
 * common.c - what the command files share (commands.h); not a command,
 * so that commands call it without calling one another (e2e 94), and the
 * unit tests, which link everything but the dispatcher (pct.c), have it.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "commands.h"
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
