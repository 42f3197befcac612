/*
 * host-fd2.c - a program that closes stderr and writes a data file that
 * gets fd 2, then removes the directory named by argv[1] (where $PCT
 * points, so pct's first sample cannot create its file and warns) and
 * burns CPU.  It prints its data file: pct's warning must not be in it.
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "../progs/burn.h"

DEFINE_BURN(static, burn)

int main(int argc, char **argv)
{
	char buf[4096];
	close(2);
	int fd = open("data.txt", O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd != 2)
		return 2;
	if (write(fd, "data line 1\n", 12) != 12)
		return 2;
	if (argc > 1)
		rmdir(argv[1]);
	burn(0.2);
	if (write(fd, "data line 2\n", 12) != 12)
		return 2;
	ssize_t n = pread(fd, buf, sizeof buf, 0);
	fwrite(buf, 1, n > 0 ? (size_t)n : 0, stdout);
	return 0;
}
