/*
 * host-mlock.c - a program that locks all its memory, as real-time and
 * security programs do (tests/e2e/134-host-mlock.sh): mlockall(MCL_CURRENT
 * | MCL_FUTURE) first, then it burns SECONDS of CPU, maps and touches 4 MiB
 * (locked by MCL_FUTURE), and prints whether mlockall succeeded.  On
 * stderr it prints "VmLck KB" from /proc/self/status, for the test to
 * compare: pct's mappings counted against RLIMIT_MEMLOCK (ENOMEM for an
 * unprivileged user) and as root were pinned (45-110 MB).
 *
 *   host-mlock [SECONDS]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "../progs/burn.h"

DEFINE_BURN(static, burn)

int main(int argc, char **argv)
{
	double s = argc > 1 ? atof(argv[1]) : 0.3;
	int rc = mlockall(MCL_CURRENT | MCL_FUTURE), err = errno;
	printf("mlockall: %s\n", rc == 0 ? "ok" : strerror(err));
	fflush(stdout);
	burn(s);
	char *p = mmap(NULL, 4 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		printf("mmap after mlockall: %s\n", strerror(errno));
	else
		memset(p, 1, 4 << 20);
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	while (f && fgets(line, sizeof line, f))
		if (strncmp(line, "VmLck:", 6) == 0)
			fprintf(stderr, "VmLck %ld\n", strtol(line + 6, NULL, 10));
	if (f)
		fclose(f);
	return 0;
}
