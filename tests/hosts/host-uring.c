/*
 * host-uring - argv[1] (1500) waits for a completion that never comes:
 * io_uring_enter(2) with IORING_ENTER_GETEVENTS and a 100 us timeout
 * (IORING_ENTER_EXT_ARG), each after about 0.3 ms of CPU, so that a
 * CPU-time timer often expires in or just before the call.  The kernel
 * never restarts such a wait: a signal handled during it makes it fail with
 * EINTR.  The program retries, as it must, and counts: "waits N" on
 * stdout (the same with and without pct), "eintr K" on stderr.  Raw
 * system calls, as liburing makes them; exits 77 if the kernel refuses
 * io_uring (disabled, or a seccomp profile).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/io_uring.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "../progs/burn.h"

DEFINE_BURN(static, work)

int main(int argc, char **argv)
{
	long want = argc > 1 ? atol(argv[1]) : 1500, eintr = 0, waits = 0;
	struct io_uring_params p;
	memset(&p, 0, sizeof p);
	int fd = (int)syscall(SYS_io_uring_setup, 4, &p);
	if (fd < 0) {
		fprintf(stderr, "io_uring_setup: %s\n", strerror(errno));
		return 77;
	}
	struct __kernel_timespec ts = { 0, 100000 };
	struct io_uring_getevents_arg arg;
	memset(&arg, 0, sizeof arg);
	arg.ts = (unsigned long long)(uintptr_t)&ts;
	while (waits < want) {
		work(0.0003);
		long rc = syscall(SYS_io_uring_enter, fd, 0, 1, IORING_ENTER_GETEVENTS | IORING_ENTER_EXT_ARG, &arg,
				  sizeof arg);
		if (rc < 0 && errno == EINTR) {
			eintr++;
			continue;
		}
		if (rc < 0 && errno != ETIME) {
			fprintf(stderr, "io_uring_enter: %s\n", strerror(errno));
			return 1;
		}
		waits++;
	}
	printf("waits %ld\n", waits);
	fprintf(stderr, "eintr %ld\n", eintr);
	return 0;
}
