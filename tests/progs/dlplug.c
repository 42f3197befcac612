/*
 * dlplug.c - dlopen a plug-in, burn in it, dlclose it, then do the same
 * with a second plug-in, which the loader usually maps where the first
 * one was.  usage: dlplug DIR [SECONDS]   (DIR holds libplug-a.so and
 * libplug-b.so; SECONDS of CPU time in each, default 0.4: a test that
 * needs a number of samples in each runs it longer until it has them)
 * Prints the load address of each, so a test can see whether they shared
 * one range.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

static double seconds = 0.4;

static int run(const char *dir, const char *lib, const char *fn)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, lib);
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) {
		fprintf(stderr, "dlplug: %s\n", dlerror());
		return 1;
	}
	void (*work)(double) = (void (*)(double))dlsym(h, fn);
	if (work == NULL)
		return 1;
	printf("%s\t%p\n", fn, (void *)work);
	work(seconds);
	return dlclose(h) != 0;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : ".";
	if (argc > 2 && !((seconds = strtod(argv[2], NULL)) > 0)) {
		fprintf(stderr, "dlplug: SECONDS must be a positive number, not '%s'\n", argv[2]);
		return 2;
	}
	return run(dir, "libplug-a.so", "plug_a_work") || run(dir, "libplug-b.so", "plug_b_work");
}
