/*
 * dlplug.c - dlopen a plug-in, burn in it, dlclose it, then do the same
 * with a second plug-in, which the loader usually maps where the first
 * one was.  usage: dlplug DIR   (DIR holds libplug-a.so and libplug-b.so)
 * Prints the load address of each, so a test can see whether they shared
 * one range.
 */
#include <dlfcn.h>
#include <stdio.h>

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
	work(0.4);
	return dlclose(h) != 0;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : ".";
	return run(dir, "libplug-a.so", "plug_a_work") || run(dir, "libplug-b.so", "plug_b_work");
}
