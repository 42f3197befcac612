/*
 * host-as.c - a program that needs 8 MiB of its address-space limit
 * (ulimit -v): it burns CPU, then allocates and fills 8 MiB.
 * "host-as probe" prints its VmSize (kB) at that point instead, for the
 * test to set the limit 10 MiB above it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../progs/burn.h"

DEFINE_BURN(static, burn)

static long vm_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "VmSize: %ld", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

int main(int argc, char **argv)
{
	burn(0.2);
	if (argc > 1 && strcmp(argv[1], "probe") == 0) {
		printf("%ld\n", vm_kb());
		return 0;
	}
	char *p = malloc(8 << 20);
	if (p == NULL) {
		printf("malloc of 8 MiB failed\n");
		return 1;
	}
	memset(p, 1, 8 << 20);
	printf("malloc of 8 MiB ok\n");
	free(p);
	return 0;
}
