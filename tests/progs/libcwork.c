/*
 * libcwork.c - spend most of the time inside libc: qsort(3) (glibc's
 * msort.c) over an array of ints, again and again.
 *
 * usage: libcwork [ROUNDS]       (default 150)
 */
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 150;
	enum { N = 100000 };
	static int v[N];
	unsigned s = 1;
	long check = 0;
	for (int r = 0; r < rounds; r++) {
		for (int i = 0; i < N; i++)
			v[i] = (int)((s = s * 1103515245u + 12345u) >> 8);
		qsort(v, N, sizeof v[0], cmp);
		check += v[N / 2];
	}
	printf("%ld\n", check);
	return 0;
}
