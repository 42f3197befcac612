/*
 * perm.c - may pct profile a process from outside, and how: the checks
 * made before anything is attached (attach_check), and what makes a
 * program one the runtime cannot enter (attach_cmd_kind).
 *
 * The kernel's rules, which pct-record(1) ATTACHING tabulates:
 *
 *  - perf_event_open(2) on another task needs CAP_PERFMON (or
 *    CAP_SYS_ADMIN), or ptrace access in PTRACE_MODE_READ_REALCREDS: the
 *    target's real, effective and saved ids all ours, and the target
 *    dumpable; Yama does not apply to read mode.  Without CAP_PERFMON,
 *    kernel.perf_event_paranoid 2 allows user mode only, 1 and below the
 *    kernel too; Debian's and Ubuntu's kernels refuse everything above 2.
 *  - PTRACE_SEIZE needs the same ids in PTRACE_MODE_ATTACH_REALCREDS, or
 *    CAP_SYS_PTRACE, and Yama's kernel.yama.ptrace_scope: 0 as above, 1
 *    only an ancestor of the target (or one it named with
 *    PR_SET_PTRACER), 2 only CAP_SYS_PTRACE, 3 nobody.  A thread has one
 *    tracer at most (gdb, strace).
 *  - /proc/PID/syscall, which -e wall reads for blocked threads, needs
 *    ptrace access in attach mode, Yama included.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "attach_int.h"
#include "escape.h"
#include "util.h"

/* Is capability cap in our effective set (/proc/self/status CapEff)? */
static int have_cap(int cap)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	unsigned long long eff = 0;
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			break;
	if (f)
		fclose(f);
	return (eff >> cap) & 1;
}
#define CAP_SYS_PTRACE_ 19
#define CAP_SYS_ADMIN_ 21
#define CAP_PERFMON_ 38

static int read_sysctl(const char *path)
{
	FILE *f = fopen(path, "re");
	int v = -100;
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -100;
		fclose(f);
	}
	return v;
}

/* A user name for uid, or its number. */
static void user_name(unsigned uid, char *out, size_t len)
{
	struct passwd *pw = getpwuid(uid);
	if (pw)
		snprintf(out, len, "%s, uid %u", pw->pw_name, uid);
	else
		snprintf(out, len, "uid %u", uid);
}

/* Is pid one of our ancestors' descendants: is it our descendant? */
static int is_descendant(uint32_t pid)
{
	uint32_t me = (uint32_t)getpid();
	for (int depth = 0; pid > 1 && depth < 4096; depth++) {
		long pp = proc_status_num(pid, "PPid");
		if (pp < 0)
			return 0;
		if ((uint32_t)pp == me)
			return 1;
		pid = (uint32_t)pp;
	}
	return 0;
}

/* Why ptrace may not attach to pid (a phrase), or NULL if it may. */
static const char *ptrace_refusal(uint32_t pid, int cap_ptrace, char *buf, size_t len)
{
	int scope = read_sysctl("/proc/sys/kernel/yama/ptrace_scope");
	if (scope >= 3)
		return "kernel.yama.ptrace_scope is 3: ptrace(2) attach is disabled for everyone, root included, "
		       "until the next boot";
	if (scope == 2 && !cap_ptrace)
		return "kernel.yama.ptrace_scope is 2: only CAP_SYS_PTRACE (root) may attach with ptrace(2); run "
		       "pct as root, or set kernel.yama.ptrace_scope=1 or 0";
	if (scope == 1 && !cap_ptrace && pid && !is_descendant(pid))
		return "kernel.yama.ptrace_scope is 1: only a process's ancestors may attach to it with ptrace(2); "
		       "run pct as root (CAP_SYS_PTRACE), start the program under pct record, or set "
		       "kernel.yama.ptrace_scope=0";
	if (pid == 0)
		return NULL;
	uint32_t *tids;
	long n = proc_tids(pid, &tids);
	for (long i = 0; i < n; i++) {
		char st[4096], sp[80];
		snprintf(sp, sizeof sp, "/proc/%u/task/%u/status", pid, tids[i]);
		FILE *f = fopen(sp, "re");
		long tracer = 0;
		while (f && fgets(st, sizeof st, f))
			if (sscanf(st, "TracerPid: %ld", &tracer) == 1)
				break;
		if (f)
			fclose(f);
		if (tracer > 0) {
			char name[16] = "?";
			proc_comm((uint32_t)tracer, (uint32_t)tracer, name);
			char *e = esc_dup(name);
			snprintf(buf, len, "thread %u is traced already, by process %ld (%s): a thread has one "
				 "tracer at most; detach that one (or use --mechanism=perf)", tids[i], tracer, e);
			free(e);
			free(tids);
			return buf;
		}
	}
	free(tids);
	return NULL;
}

/* Why perf may not sample pid's threads (a phrase), or NULL; *user_only
 * set if only user mode can be. */
static const char *perf_refusal(uint32_t pid, const struct attach_opts *o, int *user_only, char *buf, size_t len)
{
	int paranoid = read_sysctl("/proc/sys/kernel/perf_event_paranoid");
	int e = perf_probe(pid ? pid : (uint32_t)getpid(), o, user_only);
	if (e == 0)
		return NULL;
	if (e == EACCES || e == EPERM) {
		snprintf(buf, len, "the kernel refuses perf_event_open(2) (%s) at kernel.perf_event_paranoid %d%s",
			 strerror(e), paranoid,
			 paranoid > 2 ? ": above 2 it allows no user without CAP_PERFMON; set "
					"kernel.perf_event_paranoid=2 (user mode) or 1, or run pct as root"
				      : "; run pct as root (CAP_PERFMON)");
		return buf;
	}
	if (e == ENOENT || e == EOPNOTSUPP || e == ENODEV) {
		snprintf(buf, len, "this CPU or VM exposes no such perf event (%s)", strerror(e));
		return buf;
	}
	if (e == ENOSYS) {
		snprintf(buf, len, "this kernel has no perf_event_open(2)");
		return buf;
	}
	snprintf(buf, len, "perf_event_open(2) fails: %s", strerror(e));
	return buf;
}

int attach_check(struct attach_opts *o, char *why, size_t whylen)
{
	int cap_ptrace = have_cap(CAP_SYS_PTRACE_);
	int cap_perfmon = have_cap(CAP_PERFMON_) || have_cap(CAP_SYS_ADMIN_);
	o->root = cap_ptrace && cap_perfmon;
	o->user_only = 0;
	o->event_written = o->event;
	int hw = o->event >= PCT_EVENT_CYCLES;
	if (o->mech == ATTACH_PTRACE && (o->event == PCT_EVENT_USER || hw))
		return snprintf(why, whylen, "-e %s needs the perf mechanism: the ptrace mechanism paces samples "
				"by each thread's CPU time, user + system (-e cpu or -e wall)",
				pct_event_by_id(o->event)->name), 2;
	uint32_t me = (uint32_t)getpid();
	for (size_t i = 0; i < o->npids; i++) {
		uint32_t pid = o->pids[i];
		char path[64];
		struct stat st;
		snprintf(path, sizeof path, "/proc/%u", pid);
		if (pid == me)
			return snprintf(why, whylen, "process %u is pct itself", pid), 2;
		if (stat(path, &st) != 0)
			return snprintf(why, whylen, "no process %u (%s: %s)", pid, path, strerror(errno)), 1;
		long tgid = proc_status_num(pid, "Tgid");
		if (tgid > 0 && (uint32_t)tgid != pid)
			return snprintf(why, whylen, "%u is a thread of process %ld: give the process, whose threads "
					"are all sampled", pid, tgid), 2;
		char state = proc_state(pid, pid);
		if (state == 'Z' || state == 'X')
			return snprintf(why, whylen, "process %u has ended (a zombie, waiting for its parent)", pid), 1;
		for (size_t j = 0; j < i; j++)
			if (o->pids[j] == pid)
				return snprintf(why, whylen, "process %u is given twice", pid), 2;
		unsigned uid[4], gid[4];
		if (proc_ids(pid, "Uid", uid) != 0 || proc_ids(pid, "Gid", gid) != 0)
			return snprintf(why, whylen, "cannot read the owner of process %u (%s/status)", pid, path), 1;
		char name[16] = "?";
		proc_comm(pid, pid, name);
		char *en = esc_dup(name);
		unsigned my = getuid(), myg = getgid();
		int ours = uid[0] == my && uid[1] == my && uid[2] == my && gid[0] == myg && gid[1] == myg && gid[2] == myg;
		if (!ours && !cap_ptrace && !cap_perfmon) {
			char who[128];
			user_name(uid[1], who, sizeof who);
			snprintf(why, whylen, "process %u (%s) runs as %s%s, not as you: profiling another "
				 "user's process needs root (CAP_PERFMON for the perf mechanism, CAP_SYS_PTRACE for "
				 "ptrace)", pid, en, who, uid[0] != uid[1] || gid[0] != gid[1] ? " (setuid or setgid)" : "");
			free(en);
			return 1;
		}
		/* the files of /proc/PID are root's while the process is not
		 * dumpable (a setuid program, or prctl(PR_SET_DUMPABLE, 0)) */
		char sp[64];
		struct stat sst;
		snprintf(sp, sizeof sp, "/proc/%u/status", pid);
		if (ours && stat(sp, &sst) == 0 && sst.st_uid != uid[1] && !cap_ptrace && !cap_perfmon) {
			snprintf(why, whylen, "process %u (%s) is not dumpable (it runs a setuid or setgid program, "
				 "or called prctl(PR_SET_DUMPABLE, 0)): only root (CAP_SYS_PTRACE, CAP_PERFMON) may "
				 "profile it", pid, en);
			free(en);
			return 1;
		}
		free(en);
	}
	/* the mechanism: the one asked, or perf, else ptrace; each checked on
	 * every process (or on ourselves, for a command) */
	char pbuf[512], tbuf[512];
	const char *no_perf = NULL, *no_ptrace = NULL;
	int user_only = 0;
	size_t n = o->npids ? o->npids : 1;
	for (size_t i = 0; i < n && !no_perf && o->mech != ATTACH_PTRACE; i++)
		no_perf = perf_refusal(o->npids ? o->pids[i] : 0, o, &user_only, pbuf, sizeof pbuf);
	for (size_t i = 0; i < n && !no_ptrace && o->mech != ATTACH_PERF && !hw && o->event != PCT_EVENT_USER; i++)
		no_ptrace = ptrace_refusal(o->npids ? o->pids[i] : 0, cap_ptrace, tbuf, sizeof tbuf);
	if (hw || o->event == PCT_EVENT_USER) {
		if (no_ptrace == NULL && o->mech != ATTACH_PERF)
			no_ptrace = "it samples CPU time only";
	}
	int chosen = o->mech == ATTACH_PTRACE ? (no_ptrace ? 0 : ATTACH_PTRACE)
		   : o->mech == ATTACH_PERF   ? (no_perf ? 0 : ATTACH_PERF)
		   : !no_perf		      ? ATTACH_PERF
		   : !no_ptrace		      ? ATTACH_PTRACE
					      : 0;
	if (chosen == 0) {
		if (o->mech == ATTACH_PERF)
			return snprintf(why, whylen, "the perf mechanism cannot be used: %s", no_perf), 1;
		if (o->mech == ATTACH_PTRACE)
			return snprintf(why, whylen, "the ptrace mechanism cannot be used: %s", no_ptrace), 1;
		return snprintf(why, whylen, "neither mechanism can be used: perf: %s; ptrace: %s", no_perf,
				no_ptrace ? no_ptrace : "-e asks for perf"), 1;
	}
	o->chosen = chosen;
	if (chosen == ATTACH_PERF) {
		o->user_only = user_only;
		if (user_only && o->event == PCT_EVENT_CPU)
			o->event_written = PCT_EVENT_USER;
	}
	/* -e wall reads where blocked threads wait: /proc/PID/syscall */
	for (size_t i = 0; i < o->npids && o->event == PCT_EVENT_WALL; i++) {
		uint64_t pc, sp;
		if (proc_blocked_at(o->pids[i], o->pids[i], &pc, &sp) < 0 && (errno == EACCES || errno == EPERM))
			return snprintf(why, whylen, "-e wall reads /proc/%u/syscall for blocked threads, which needs "
					"ptrace access to the process (%s): run pct as root, or see "
					"kernel.yama.ptrace_scope", o->pids[i], strerror(errno)), 1;
	}
	return 0;
}

/* The path execvp(3) would run for cmd, in out; 0 or -1. */
static int find_command(const char *cmd, char *out, size_t len)
{
	if (strchr(cmd, '/'))
		return snprintf(out, len, "%s", cmd) < (int)len ? 0 : -1;
	const char *path = getenv("PATH");
	if (path == NULL)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (const char *p = path; *p;) {
		const char *c = strchr(p, ':');
		size_t n = c ? (size_t)(c - p) : strlen(p);
		snprintf(out, len, "%.*s%s%s", (int)n, n ? p : ".", "/", cmd);
		struct stat st;
		if (stat(out, &st) == 0 && S_ISREG(st.st_mode) && access(out, X_OK) == 0)
			return 0;
		p += n + (c != NULL);
		if (!c)
			break;
	}
	return -1;
}

int attach_cmd_kind(const char *cmd, char *why, size_t whylen)
{
	char path[PATH_MAX];
	if (find_command(cmd, path, sizeof path) != 0)
		return 0;                  /* execvp will say what is wrong */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	int kind = 0;
	/* the loader runs a program securely (AT_SECURE: LD_PRELOAD ignored)
	 * when exec changes its ids or raises its capabilities */
	if ((st.st_mode & S_ISUID) && st.st_uid != geteuid()) {
		char who[128];
		user_name(st.st_uid, who, sizeof who);
		snprintf(why, whylen, "setuid (%s)", who);
		kind = ATTACH_CMD_SECURE;
	} else if ((st.st_mode & S_ISGID) && (st.st_mode & S_IXGRP) && st.st_gid != getegid()) {
		snprintf(why, whylen, "setgid (gid %u)", (unsigned)st.st_gid);
		kind = ATTACH_CMD_SECURE;
	} else if (geteuid() != 0 && fgetxattr(fd, "security.capability", NULL, 0) > 0) {
		snprintf(why, whylen, "given file capabilities (security.capability)");
		kind = ATTACH_CMD_SECURE;
	}
	Elf64_Ehdr eh;
	if (kind == 0 && pread(fd, &eh, sizeof eh, 0) == (ssize_t)sizeof eh && memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
	    eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_phentsize == sizeof(Elf64_Phdr) && eh.e_phnum <= 256) {
		Elf64_Phdr ph[256];
		size_t len = eh.e_phnum * sizeof *ph;
		if (pread(fd, ph, len, (off_t)eh.e_phoff) == (ssize_t)len) {
			int interp = 0;
			for (int i = 0; i < eh.e_phnum; i++)
				interp |= ph[i].p_type == PT_INTERP;
			if (!interp) {
				snprintf(why, whylen, "a static executable (no PT_INTERP: no dynamic loader to "
					 "preload the runtime)");
				kind = ATTACH_CMD_STATIC;
			}
		}
	}
	close(fd);
	return kind;
}
