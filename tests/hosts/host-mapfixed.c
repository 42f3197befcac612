/*
 * host-mapfixed.c - a program that plans its address space as JITs, GCs
 * and emulators do (tests/e2e/132-host-mapfixed.sh): it finds a free hole
 * of 256 MiB with a probing mmap, gives it back, runs for SECONDS of CPU
 * (pct's first samples fall here), then maps the hole itself with
 * MAP_FIXED, fills it with a pattern, runs SECONDS more and checks the
 * pattern.  It prints "intact", or how many bytes changed under it.
 *
 *   host-mapfixed [SECONDS]
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "../progs/burn.h"

DEFINE_BURN(static, burn)

#define HOLE (256UL << 20)

int main(int argc, char **argv)
{
	double s = argc > 1 ? atof(argv[1]) : 0.3;
	unsigned char *hole = mmap(NULL, HOLE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (hole == MAP_FAILED)
		return 2;
	munmap(hole, HOLE);
	burn(s);
	unsigned char *p = mmap(hole, HOLE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	if (p != hole)
		return 3;
	memset(p, 0xa5, HOLE);
	burn(s);
	unsigned long changed = 0;
	for (unsigned long i = 0; i < HOLE; i++)
		changed += p[i] != 0xa5;
	if (changed)
		printf("%lu bytes changed under the program\n", changed);
	else
		printf("intact\n");
	return 0;
}
