/*
 * infile.c - see infile.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "infile.h"
#include "util.h"

const char *infile_kind(mode_t m)
{
	switch (m & S_IFMT) {
	case S_IFREG: return "a regular file";
	case S_IFDIR: return "a directory";
	case S_IFIFO: return "a FIFO";
	case S_IFCHR: return "a character device";
	case S_IFBLK: return "a block device";
	case S_IFSOCK: return "a socket";
	case S_IFLNK: return "a symbolic link";
	default: return "of an unknown file type";
	}
}

FILE *infile_stream(const char *path, const char **why)
{
	if (strcmp(path, "-") == 0)
		return stdin;
	struct stat sb;
	int fd = -1;
	if (stat(path, &sb) == 0 && S_ISFIFO(sb.st_mode)) {
		/* O_NONBLOCK: the open returns at once even with no writer;
		 * wait a bounded time for a writer's first bytes (or its
		 * close), then read as from a pipe */
		fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		struct stat again;
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int ready = 0;
		if (fd >= 0 && fstat(fd, &again) == 0 && S_ISFIFO(again.st_mode)) {
			for (int waited = 0; waited < INFILE_FIFO_WAIT * 1000 && ready == 0; waited += 100)
				if ((ready = poll(&pfd, 1, 100)) < 0 && errno == EINTR)
					ready = 0;
		}
		*why = strerror(errno);
		if (ready > 0 && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == 0) {
			/* fd is ready */
		} else if (fd >= 0) {
			if (ready == 0)
				*why = "a FIFO with no writer (waited " STR(INFILE_FIFO_WAIT) " s)";
			close(fd);
			fd = -1;
		}
	} else {
		fd = infile_open(path, 0, NULL, why);
	}
	if (fd < 0)
		return NULL;
	FILE *f = fdopen(fd, "r");
	if (f == NULL) {
		*why = strerror(errno);
		close(fd);
	}
	return f;
}

int infile_open(const char *path, int nofollow, struct stat *st, const char **why)
{
	static char kind[80];
	struct stat sb, again;
	int pfd = open(path, O_PATH | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0));
	if (pfd < 0) {
		int e = errno;
		*why = strerror(e);
		errno = e;
		return -1;
	}
	if (fstat(pfd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		snprintf(kind, sizeof kind, "%s, not a regular file", infile_kind(sb.st_mode));
		close(pfd);
		*why = kind;
		errno = EINVAL;
		return -1;
	}
	char self[64];
	snprintf(self, sizeof self, "/proc/self/fd/%d", pfd);
	int fd = open(self, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) {
		/* no /proc: open the path itself, refusing a final symlink that
		 * could have been swapped in, and check it is the same file */
		fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0));
		if (fd >= 0 && (fstat(fd, &again) != 0 || again.st_dev != sb.st_dev || again.st_ino != sb.st_ino)) {
			close(fd);
			fd = -1;
			errno = ESTALE;
		}
	}
	int e = errno;
	close(pfd);
	if (fd < 0) {
		*why = strerror(e);
		errno = e;
		return -1;
	}
	if (st)
		*st = sb;
	return fd;
}
