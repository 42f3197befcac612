/*
 * host-altstack - a program with a small alternate signal stack: argv[1]
 * bytes ("min": sysconf(_SC_MINSIGSTKSZ); "legacy": 2048, the old
 * MINSIGSTKSZ), mapped with an inaccessible page below it and painted, for
 * argv[2] seconds of CPU.  With argv[3] "own", its own SIGUSR1 handler
 * (SA_ONSTACK) runs on that stack for 1 ms of CPU every 5 ms, so that
 * other signals may arrive while it runs there.  Prints "done" (and how
 * many of its signals it handled); on stderr, "used N of SIZE": the depth
 * of the stack that was written, for the test to measure.  A handler
 * that overflows the stack hits the inaccessible page: SIGSEGV.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "../progs/burn.h"

DEFINE_BURN(static, main_work)
DEFINE_BURN(static, handler_work)

static volatile sig_atomic_t handled;

static void on_usr1(int sig)
{
	(void)sig;
	handler_work(0.001);
	handled++;
}

int main(int argc, char **argv)
{
	size_t size = 65536, page = (size_t)sysconf(_SC_PAGESIZE);
	if (argc > 1 && strcmp(argv[1], "min") == 0)
		size = (size_t)sysconf(_SC_MINSIGSTKSZ);
	else if (argc > 1 && strcmp(argv[1], "legacy") == 0)
		size = 2048;
	else if (argc > 1)
		size = (size_t)atol(argv[1]);
	double secs = argc > 2 ? atof(argv[2]) : 0.5;
	int own = argc > 3 && strcmp(argv[3], "own") == 0;
	size_t span = (size + page - 1) / page * page;
	char *m = mmap(NULL, span + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED || mprotect(m, page, PROT_NONE) != 0)
		return perror("mmap"), 1;
	char *base = m + page + span - size;  /* the stack ends at the top of the mapping */
	memset(base, 0xa5, size);
	stack_t ss = { .ss_sp = base, .ss_size = size, .ss_flags = 0 };
	if (sigaltstack(&ss, NULL) != 0)
		return perror("sigaltstack"), 1;
	if (own) {
		struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = SA_ONSTACK | SA_RESTART };
		sigemptyset(&sa.sa_mask);
		sigaction(SIGUSR1, &sa, NULL);
	}
	int sent = 0;
	for (double done = 0; done < secs; done += 0.005) {
		main_work(0.005);
		if (own) {
			raise(SIGUSR1);
			sent++;
		}
	}
	size_t low = 0;
	while (low < size && (unsigned char)base[low] == 0xa5)
		low++;
	printf("done, %d of %d signals handled\n", (int)handled, sent);
	fprintf(stderr, "used %zu of %zu\n", size - low, size);
	return 0;
}
