/*
 * zplug.c - a plug-in that compresses with zlib (e2e 146): its own code
 * takes almost no samples, zlib's deflate all of them, and every stack
 * in zlib passes through it.  zplug_work(SECONDS) compresses for that
 * much CPU time, at levels 1 and 6 in turns (1 part, 2 parts).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

static double cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

__attribute__((noinline)) static unsigned long squeeze(const unsigned char *in, size_t n, int level)
{
	static unsigned char out[1 << 20];
	uLongf len = sizeof out;
	return compress2(out, &len, in, n, level) == Z_OK ? len : 0;
}

unsigned long zplug_work(double secs)
{
	/* filled by memcpy, in libc: a sample in a loop of the plug-in's
	 * own (a quarter of the runs filled 256 KiB here) records it */
	static const char pattern[64] = "abcdefghbadcfehgcdabghefdcbahgfeefghabcdfehgbadcghefcdabhgfedcbx";
	size_t n = 256 << 10;
	unsigned char *in = malloc(n);
	unsigned long sum = 0;
	for (size_t i = 0; i < n; i += sizeof pattern)
		memcpy(in + i, pattern, sizeof pattern);
	double t0 = cpu();
	while (cpu() - t0 < secs) {
		double t1 = cpu();
		while (cpu() - t1 < 0.01)
			sum += squeeze(in, n, 1);
		t1 = cpu();
		while (cpu() - t1 < 0.02)
			sum += squeeze(in, n, 6);
	}
	free(in);
	return sum;
}
