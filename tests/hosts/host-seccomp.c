/*
 * host-seccomp.c - programs under seccomp.
 *   host-seccomp late:    installs (prctl) a filter that kills on
 *                         ftruncate(2), which the program never calls,
 *                         then burns CPU and says "ok"
 *   host-seccomp strict:  enters strict mode, burns CPU, writes "ok" and
 *                         exits with the exit system call
 *   host-seccomp launch CMD...:   a launcher: a filter that kills on
 *                         timer_create(2) and perf_event_open(2), then
 *                         exec CMD
 *   host-seccomp notmpfile CMD...: a filter that fails open(O_TMPFILE)
 *                         with EOPNOTSUPP, as a file system without it
 *                         does, sets PCT_SECCOMP_OK=1, and execs CMD
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../progs/burn.h"

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#endif

DEFINE_BURN(static, burn)

#define LOAD(field) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, field))
#define RET(v) BPF_STMT(BPF_RET | BPF_K, (v))

static int install(struct sock_filter *code, unsigned short n)
{
	struct sock_fprog prog = { n, code };
	return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == 0
		       ? 0 : -1;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	if (strcmp(mode, "late") == 0) {
		struct sock_filter code[] = {
			LOAD(arch), BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0), RET(SECCOMP_RET_KILL_PROCESS),
			LOAD(nr), BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_ftruncate, 0, 1),
			RET(SECCOMP_RET_KILL_PROCESS), RET(SECCOMP_RET_ALLOW),
		};
		if (install(code, sizeof code / sizeof code[0]) != 0)
			return 2;
		burn(0.3);
		printf("ok\n");
		return 0;
	}
	if (strcmp(mode, "strict") == 0) {
		fflush(stdout);
		if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT, 0, 0, 0) != 0)
			return 2;
		/* a thread's CPU clock is a system call: spin by count */
		uint64_t x = 1;
		for (long i = 0; i < 300000000L; i++)
			x = x * 6364136223846793005u + 1442695040888963407u;
		burn_sink = x;
		if (write(1, "ok\n", 3) != 3)
			syscall(SYS_exit, 3);
		syscall(SYS_exit, 0);
	}
	if (strcmp(mode, "launch") == 0 && argc > 2) {
		struct sock_filter code[] = {
			LOAD(arch), BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0), RET(SECCOMP_RET_KILL_PROCESS),
			LOAD(nr), BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_timer_create, 1, 0),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_perf_event_open, 0, 1),
			RET(SECCOMP_RET_KILL_PROCESS), RET(SECCOMP_RET_ALLOW),
		};
		if (install(code, sizeof code / sizeof code[0]) != 0)
			return 2;
		execvp(argv[2], argv + 2);
		return 127;
	}
	if (strcmp(mode, "notmpfile") == 0 && argc > 2) {
		/* O_TMPFILE includes O_DIRECTORY: test its own bit (__O_TMPFILE) */
		struct sock_filter code[] = {
			LOAD(arch), BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0), RET(SECCOMP_RET_KILL_PROCESS),
			LOAD(nr), BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat, 0, 3),
			LOAD(args[2]), BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, O_TMPFILE & ~O_DIRECTORY, 0, 1),
			RET(SECCOMP_RET_ERRNO | (EOPNOTSUPP & SECCOMP_RET_DATA)), RET(SECCOMP_RET_ALLOW),
		};
		if (install(code, sizeof code / sizeof code[0]) != 0)
			return 2;
		setenv("PCT_SECCOMP_OK", "1", 1);
		execvp(argv[2], argv + 2);
		return 127;
	}
	fprintf(stderr, "usage: host-seccomp late|strict|launch CMD...|notmpfile CMD...\n");
	return 2;
}
