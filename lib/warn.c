/*
 * warn.c - the runtime's only voice: one line on stderr, written with
 * write(2) so that it neither uses nor disturbs the host program's stdio
 * buffers.  $PCT_QUIET silences it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime.h"

/* async-signal-safe: format v in decimal, ending just before buf_end. */
char *rt_utoa(uint64_t v, char *buf_end)
{
	char *p = buf_end;
	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	return p;
}

static size_t append(char *buf, size_t len, size_t cap, const char *s)
{
	while (*s && len < cap)
		buf[len++] = *s++;
	return len;
}

/*
 * Write "pct: WHAT 'DETAIL': strerror(ERR)" to stderr; DETAIL and ERR are
 * optional (NULL, 0).  Not async-signal-safe when ERR is set (strerror).
 */
void rt_warn(const char *what, const char *detail, int err)
{
	const char *quiet = getenv("PCT_QUIET");
	char line[PCT_PATH_MAX + 256];
	size_t n = 0, cap = sizeof line - 1;
	int saved = errno;

	if (quiet && *quiet && strcmp(quiet, "0") != 0)
		return;
	n = append(line, n, cap, "pct: ");
	n = append(line, n, cap, what);
	if (detail) {
		n = append(line, n, cap, " '");
		n = append(line, n, cap, detail);
		n = append(line, n, cap, "'");
	}
	if (err) {
		n = append(line, n, cap, ": ");
		n = append(line, n, cap, strerror(err));
	}
	n = append(line, n, cap, "; the program runs on without profiling");
	line[n++] = '\n';
	for (size_t off = 0; off < n;) {
		ssize_t w = write(STDERR_FILENO, line + off, n - off);
		if (w <= 0 && errno != EINTR)
			break;
		if (w > 0)
			off += (size_t)w;
	}
	errno = saved;
}
