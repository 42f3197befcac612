/*
 * noperf.c - run a command where perf_event_open(2) is refused, as it is
 * on a kernel with perf_event_paranoid 3 or in a container whose seccomp
 * profile forbids it, without changing anything on the host.
 *
 * A seccomp filter (seccomp(2), SECCOMP_RET_ERRNO) makes every
 * perf_event_open of this process and its descendants fail with EACCES;
 * every other system call is allowed.  no_new_privs, which an
 * unprivileged filter needs, is inherited too.  The filter kills nothing
 * pct calls, so it says so in $PCT_SECCOMP_OK (libpct(3), RESOURCES):
 * otherwise pct does not sample under a seccomp filter.
 * usage: noperf COMMAND [ARG...]
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#endif

int main(int argc, char **argv)
{
	struct sock_filter code[] = {
		/* another architecture's system call numbers: refuse the call */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_perf_event_open, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EACCES & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof code / sizeof code[0], code };

	if (argc < 2) {
		fprintf(stderr, "usage: noperf COMMAND [ARG...]\n");
		return 2;
	}
	setenv("PCT_SECCOMP_OK", "1", 1);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
		perror("noperf: seccomp");
		return 2;
	}
	execvp(argv[1], argv + 1);
	perror("noperf: exec");
	return 127;
}
