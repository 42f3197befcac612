/*
 * zhost.c - a plug-in host (e2e 146): dlopen PLUGIN once it has run 50 ms
 * of CPU time (past pct's first sample, at 4 ms), and call its
 * zplug_work(SECONDS).  usage: zhost PLUGIN SECONDS
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	while ((double)clock() / CLOCKS_PER_SEC < 0.05)
		sink = sink * 6364136223846793005u + 1;
	void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) {
		fprintf(stderr, "zhost: %s\n", dlerror());
		return 1;
	}
	unsigned long (*work)(double) = (unsigned long (*)(double))dlsym(h, "zplug_work");
	if (work == NULL)
		return 1;
	printf("%lu\n", work(atof(argv[2])));
	return dlclose(h) != 0;
}
