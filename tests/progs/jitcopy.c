/*
 * jitcopy [SECONDS] - JIT code by hand, for test 101: hot() is copied
 * into anonymous executable memory and named in /tmp/perf-PID.map as a
 * JIT compiler names its code (Linux tools/perf/Documentation/
 * jit-interface.txt), first a stub over the whole page, then, on a later
 * line that overrides it, hot_jit_loop over the copy.  The copy then runs
 * for SECONDS (default 1) of CPU time.  Writes its pid to jitcopy.pid in
 * the working directory; the caller removes /tmp/perf-PID.map.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

__attribute__((noinline)) uint64_t hot(uint64_t n, uint64_t x)
{
	for (uint64_t i = 0; i < n; i++)
		x = x * 6364136223846793005u + i;
	return x;
}

static double cpu_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *code = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (code == MAP_FAILED)
		return 1;
	memcpy(code + 64, (void *)hot, 256);   /* PC-relative nothing: a loop of arithmetic */
	if (mprotect(code, page, PROT_READ | PROT_EXEC) != 0)
		return 1;
	__builtin___clear_cache((char *)code, (char *)code + page);
	char name[64];
	snprintf(name, sizeof name, "/tmp/perf-%d.map", (int)getpid());
	FILE *f = fopen(name, "w");
	if (f == NULL)
		return 1;
	/* an older entry over the whole page, then the loop's own, which wins */
	fprintf(f, "%lx %zx jitPageStub\n", (unsigned long)code, page);
	fprintf(f, "%lx 100 hot_jit_loop\n", (unsigned long)(code + 64));
	fclose(f);
	f = fopen("jitcopy.pid", "w");
	fprintf(f, "%d\n", (int)getpid());
	fclose(f);
	uint64_t (*fn)(uint64_t, uint64_t) = (uint64_t (*)(uint64_t, uint64_t))(void *)(code + 64);
	uint64_t x = 1;
	while (cpu_s() < secs)
		x = fn(1000000, x);
	printf("%llu\n", (unsigned long long)(x & 1));
	return 0;
}
