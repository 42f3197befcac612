/*
 * warn.c - the runtime's only voice: one line on stderr, written with
 * write(2) so that it neither uses nor disturbs the host program's stdio
 * buffers.  $PCT_QUIET silences it.  It speaks only to the file that was
 * stderr when pct started: a program that closed fd 2 may have opened
 * its own data file there, and a line of pct's would corrupt it.  A thread
 * of pct's own that has no standard error (the wall sampler, whose
 * descriptor table is its own) leaves its line for the next thread of the
 * program that speaks or ends profiling (rt_say_pending).
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
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

/* async-signal-safe: strerror(3) is not, so the errors the runtime can
 * meet are named here. */
static const char *error_text(int err, char *buf, size_t cap)
{
	switch (err) {
	case ENOENT: return "No such file or directory";
	case EACCES: return "Permission denied";
	case EPERM: return "Operation not permitted";
	case EEXIST: return "File exists";
	case ENOSPC: return "No space left on device";
	case EDQUOT: return "Disk quota exceeded";
	case EROFS: return "Read-only file system";
	case ENAMETOOLONG: return "File name too long";
	case ENOTDIR: return "Not a directory";
	case ELOOP: return "Too many levels of symbolic links";
	case EMFILE: return "Too many open files";
	case ENFILE: return "Too many open files in system";
	case ENOMEM: return "Cannot allocate memory";
	case EFBIG: return "File too large";
	case EINVAL: return "Invalid argument";
	case EAGAIN: return "Resource temporarily unavailable";
	case EXDEV: return "Invalid cross-device link";
	case ENOSYS: return "Function not implemented";
	case EOPNOTSUPP: return "Operation not supported";
	case ENODEV: return "No such device";
	case E2BIG: return "Argument list too long";
	}
	char *p = rt_utoa((uint64_t)err, buf + cap - 1);
	buf[cap - 1] = '\0';
	p -= 6;
	memcpy(p, "errno ", 6);
	return p;
}

/* The calling thread has no standard error (rt_warn_deferred). */
static __thread int deferred __attribute__((tls_model("initial-exec")));
/* One line left by such a thread, complete once pending_len is set. */
static char pending[PCT_PATH_MAX + 256];
static _Atomic size_t pending_len;
static atomic_flag pending_lock = ATOMIC_FLAG_INIT;

void rt_warn_deferred(void)
{
	deferred = 1;
}

/* async-signal-safe: write line to stderr if it is still the file it was
 * at the start. */
static void put_line(const char *line, size_t n)
{
	struct stat st;
	if (!rt_g.err_known || fstat(STDERR_FILENO, &st) != 0 || (uint64_t)st.st_dev != rt_g.err_dev ||
	    (uint64_t)st.st_ino != rt_g.err_ino)
		return;
	for (size_t off = 0; off < n;) {
		ssize_t w = write(STDERR_FILENO, line + off, n - off);
		if (w <= 0 && errno != EINTR)
			break;
		if (w > 0)
			off += (size_t)w;
	}
}

/* async-signal-safe: print the line a thread without standard error left,
 * if any (from a thread of the program). */
void rt_say_pending(void)
{
	int saved = errno;
	size_t n = rt_load_acquire(&pending_len);
	if (n && !deferred && rt_trylock(&pending_lock)) {
		n = rt_load(&pending_len);
		if (n) {
			put_line(pending, n);
			rt_store(&pending_len, 0);
		}
		rt_unlock(&pending_lock);
	}
	errno = saved;
}

/*
 * async-signal-safe: write "pct: WHAT 'DETAIL': ERROR; TAIL" to stderr;
 * DETAIL, ERR and TAIL are optional (NULL, 0, NULL).
 */
void rt_say(const char *what, const char *detail, int err, const char *tail)
{
	char line[PCT_PATH_MAX + 256], ebuf[32];
	size_t n = 0, cap = sizeof line - 1;
	int saved = errno;

	if (rt_g.cfg.quiet) {
		errno = saved;
		return;
	}
	n = append(line, n, cap, "pct: ");
	n = append(line, n, cap, what);
	if (detail) {
		n = append(line, n, cap, " '");
		n = append(line, n, cap, detail);
		n = append(line, n, cap, "'");
	}
	if (err) {
		n = append(line, n, cap, ": ");
		n = append(line, n, cap, error_text(err, ebuf, sizeof ebuf));
	}
	if (tail) {
		n = append(line, n, cap, "; ");
		n = append(line, n, cap, tail);
	}
	line[n++] = '\n';
	if (deferred) {
		/* one line waits at a time; a later one is lost */
		if (rt_load(&pending_len) == 0 && rt_trylock(&pending_lock)) {
			if (rt_load(&pending_len) == 0) {
				memcpy(pending, line, n);
				rt_store_release(&pending_len, n);
			}
			rt_unlock(&pending_lock);
		}
	} else {
		rt_say_pending();
		put_line(line, n);
	}
	errno = saved;
}

/* async-signal-safe: rt_say() for a failure: the program runs on. */
void rt_warn(const char *what, const char *detail, int err)
{
	rt_say(what, detail, err, "the program runs on without profiling");
}
