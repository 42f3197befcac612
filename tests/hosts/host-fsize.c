/*
 * host-fsize.c - a program that runs within a small file size limit
 * (ulimit -f): it burns CPU for argv[1] seconds (0.3) and prints a sum.
 * pct must not raise SIGXFSZ in it by growing its profile past the limit.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../progs/burn.h"

DEFINE_BURN(static, burn)

int main(int argc, char **argv)
{
	burn(argc > 1 ? atof(argv[1]) : 0.3);
	printf("done\n");
	return 0;
}
