/*
 * perf-eat.c - spends the calling user's locked-memory budget for perf
 * mappings (perf_event_mlock_kb, then RLIMIT_MEMLOCK: perf_event_open(2)),
 * as another program of the same user that holds perf rings does: it maps
 * one software event's header page and 16 data pages after another, then
 * single pages, until the kernel refuses, prints "mapped N" and waits
 * (at most argv[1] seconds, 120) with the mappings held.
 */
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static int map_one(long pages)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.exclude_kernel = 1;
	a.disabled = 1;
	int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0)
		return 0;
	void *p = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE) * (size_t)pages, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);  /* the mapping holds the event */
	return p != MAP_FAILED;
}

int main(int argc, char **argv)
{
	int n = 0, wait = argc > 1 ? atoi(argv[1]) : 120;
	while (n < 100000 && map_one(17))
		n++;
	while (n < 100000 && map_one(1))
		n++;
	printf("mapped %d\n", n);
	fflush(stdout);
	sleep((unsigned)wait);
	return 0;
}
