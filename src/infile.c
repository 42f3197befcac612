/*
 * infile.c - see infile.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "infile.h"

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
