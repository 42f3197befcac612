/*
 * asmkern-main.c - drive tests/progs/asmkern.S (e2e 143): for SECONDS of
 * CPU time, kern_a 1 part, kern_b 2 parts, hidden_kern (run_hidden) 1
 * part, sized_fn 1 part.  usage: asmkern SECONDS
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

long kern_a(long), kern_b(long), run_hidden(long), sized_fn(long);

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 0.5;
	long s = 0;
	while ((double)clock() / CLOCKS_PER_SEC < secs) {
		s += kern_a(100000);
		s += kern_b(200000);
		s += run_hidden(100000);
		s += sized_fn(100000);
	}
	printf("%ld\n", s);
	return 0;
}
