/*
 * common.c - what the command files share (commands.h); not a command,
 * so that commands call it without calling one another (e2e 94), and the
 * unit tests, which link everything but the dispatcher (pct.c), have it.
 */
#include "commands.h"
#include "pset.h"
#include "util.h"

void cmd_load(struct pset *s, char *const *files, size_t n, const char *what)
{
	char err[512];
	if (pset_load(s, files, n, err, sizeof err) != 0)
		die("%s%s", what, err);
}
