/*
 * crash - burns CPU, then dies of a fault (SIGSEGV): with a handler that
 * returns on SIGSEGV, the faulting load would run again for ever.
 */
#include <stdio.h>
#include <stdlib.h>
#include "../progs/burn.h"

DEFINE_BURN(static, spin)

int main(int argc, char **argv)
{
	spin(argc > 1 ? atof(argv[1]) : 0.5);
	printf("crashing\n");
	fflush(stdout);
	volatile int *p = (volatile int *)(argc > 5 ? (int *)argv : NULL);
	return *p;
}
