/*
 * host-fds.c - a program that closes every descriptor but 0-2 and opens
 * its own files, as daemons do (closefrom, close_range), then writes 200
 * lines to each of 7 files (descriptors 3-9) over about half a second,
 * sleeping between rounds, and counts the lines back
 * (tests/e2e/131-host-fds.sh).  A descriptor pct held under those numbers
 * would be closed by the program, and pct's use of the number would then
 * reach the program's file (the wall sampler rewound it every pass).
 * Prints "7 files of 200 lines", or which file differs.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
	char dir[] = "/tmp/host-fds.XXXXXX", name[64];
	if (mkdtemp(dir) == NULL)
		return 2;
	for (int fd = 3; fd < 1024; fd++)  /* closefrom(3), the portable way */
		close(fd);
	int fds[7];
	for (int i = 0; i < 7; i++) {
		snprintf(name, sizeof name, "%s/f%d", dir, i);
		fds[i] = open(name, O_WRONLY | O_CREAT | O_EXCL, 0600);
		if (fds[i] < 0)
			return 3;
	}
	struct timespec pause = { 0, 2500000 };
	for (int line = 0; line < 200; line++) {
		for (int i = 0; i < 7; i++) {
			char text[64];
			int n = snprintf(text, sizeof text, "file %d line %d\n", i, line);
			if (write(fds[i], text, (size_t)n) != n)
				return 4;
		}
		nanosleep(&pause, NULL);
	}
	int bad = 0;
	for (int i = 0; i < 7; i++) {
		close(fds[i]);
		snprintf(name, sizeof name, "%s/f%d", dir, i);
		FILE *f = fopen(name, "r");
		int lines = 0, c;
		while (f && (c = getc(f)) != EOF)
			lines += c == '\n';
		if (f)
			fclose(f);
		unlink(name);
		if (lines != 200) {
			printf("file %d (fd %d): %d lines\n", i, fds[i], lines);
			bad = 1;
		}
	}
	rmdir(dir);
	if (!bad)
		printf("7 files of 200 lines\n");
	return 0;
}
