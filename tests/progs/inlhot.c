/* inlhot.c - burn SECONDS of CPU in mix(), inlined from inlhot.h
 * into work(), called from main.  usage: inlhot SECONDS */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "inlhot.h"

__attribute__((noinline)) unsigned long work(unsigned long x, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		x = mix(x, i);
	return x;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1;
	unsigned long x = 1;
	while ((double)clock() / CLOCKS_PER_SEC < secs)
		x = work(x, 1000000);
	printf("%lu\n", x);
	return 0;
}
