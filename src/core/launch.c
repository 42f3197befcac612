/* launch.c - see launch.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "escape.h"
#include "launch.h"
#include "util.h"

/* the Makefile defines both; these are its defaults */
#ifndef PCT_RUNTIME
#define PCT_RUNTIME "libpct.so.1"
#endif
#ifndef PCT_LIBDIR
#define PCT_LIBDIR "/usr/local/lib"
#endif

char *launch_runtime(const char *who)
{
	const char *env = getenv("PCT_LIB");
	if (env && *env)
		return xstrdup(env);
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0)
		die("%s: cannot find my own executable to locate %s; set $PCT_LIB", who, PCT_RUNTIME);
	self[n] = '\0';
	char *slash = strrchr(self, '/');
	*slash = '\0';
	slash = strrchr(self, '/');
	if (slash)
		*slash = '\0';
	char *lib = xasprintf("%s/lib/" PCT_RUNTIME, self);
	if (access(lib, R_OK) == 0)
		return lib;
	char *inst = xasprintf("%s/" PCT_RUNTIME, PCT_LIBDIR);
	if (access(inst, R_OK) == 0) {
		free(lib);
		return inst;
	}
	char *elib = esc_dup(lib), *einst = esc_dup(inst);
	die("%s: cannot find the runtime at '%s' or '%s'; set $PCT_LIB", who, elib, einst);
}

uint64_t launch_session(const char *who)
{
	uint64_t session = 0;
	if (getrandom(&session, sizeof session, 0) != (ssize_t)sizeof session || session == 0)
		die("%s: cannot draw a session token: %s", who, strerror(errno));
	return session;
}

/* The command's pid while SIGTERM and SIGHUP are passed on to it, else 0. */
static volatile sig_atomic_t forward_pid;

/* async-signal-safe: pass a signal sent to us on to the command.  One
 * the kernel sent (SI_KERNEL: the terminal's hangup, to the whole
 * foreground process group) has reached the command already. */
static void pass_on(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	int err = errno;
	pid_t pid = (pid_t)forward_pid;
	if (pid > 0 && si->si_code != SI_KERNEL)
		kill(pid, sig);
	errno = err;
}

/* Catch sig with pass_on unless it is ignored now (nohup), saving the
 * old action in *old. */
static void catch_forward(int sig, struct sigaction *old)
{
	struct sigaction sa = { .sa_sigaction = pass_on, .sa_flags = SA_SIGINFO | SA_RESTART };
	sigfillset(&sa.sa_mask);
	sigaction(sig, NULL, old);
	if (old->sa_handler != SIG_IGN)
		sigaction(sig, &sa, NULL);
}

int launch_start(struct launch *l, char *const *cmd)
{
	char session[17];
	snprintf(session, sizeof session, "%016llx", (unsigned long long)l->session);
	/* the user's preloads first: a sanitizer's runtime must come first */
	const char *pre = getenv("LD_PRELOAD");
	char *preload = pre && *pre ? xasprintf("%s:%s", pre, l->runtime) : xstrdup(l->runtime);
	/* libasan, linked by the program, checks that it comes before every
	 * preload; with pct's it does not (unless the user preloads it too),
	 * so the check is turned off, ahead of the user's options so that an
	 * explicit setting of theirs still wins */
	const char *opts = getenv("ASAN_OPTIONS");
	char *asan = opts && *opts ? xasprintf("verify_asan_link_order=0:%s", opts)
				   : xstrdup("verify_asan_link_order=0");

	launch_signals(l);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		int err = errno;
		launch_end(l);
		sigprocmask(SIG_SETMASK, &l->oldmask, NULL);
		free(preload);
		free(asan);
		errno = err;
		return -1;
	}
	if (pid == 0) {
		launch_child_signals(l);
		char root[24];
		snprintf(root, sizeof root, "%d", (int)getpid());
		if (setenv("PCT", l->file, 1) != 0 || setenv("LD_PRELOAD", preload, 1) != 0 ||
		    setenv("ASAN_OPTIONS", asan, 1) != 0 ||
		    setenv("PCT_ROOT_PID", root, 1) != 0 || setenv("PCT_SESSION", session, 1) != 0 ||
		    (l->hz && setenv("PCT_HZ", l->hz, 1) != 0) || (l->event && setenv("PCT_EVENT", l->event, 1) != 0) ||
		    (l->period && setenv("PCT_PERIOD", l->period, 1) != 0) ||
		    (l->stack_bytes && setenv("PCT_STACK_BYTES", l->stack_bytes, 1) != 0))
			_exit(127);
		if (l->stdin_null) {
			int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
			if (fd < 0 || dup2(fd, 0) < 0)
				_exit(127);
		}
		execvp(cmd[0], cmd);
		int err = errno;
		note("cannot run '%s': %s", cmd[0], strerror(err));
		_exit(err == ENOENT ? 127 : 126);
	}
	free(preload);
	free(asan);
	launch_forward(l, pid);
	return 0;
}

void launch_signals(struct launch *l)
{
	struct sigaction ign = { .sa_handler = SIG_IGN };
	sigemptyset(&ign.sa_mask);
	sigaction(SIGINT, &ign, &l->oldint);
	sigaction(SIGQUIT, &ign, &l->oldquit);
	/* held until the child's pid is known, so that none is lost */
	sigset_t hold;
	sigemptyset(&hold);
	sigaddset(&hold, SIGTERM);
	sigaddset(&hold, SIGHUP);
	sigprocmask(SIG_BLOCK, &hold, &l->oldmask);
	if (l->forward) {
		catch_forward(SIGTERM, &l->oldterm);
		catch_forward(SIGHUP, &l->oldhup);
	}
}

void launch_forward(struct launch *l, pid_t pid)
{
	l->pid = pid;
	if (l->forward)
		forward_pid = pid;
	sigprocmask(SIG_SETMASK, &l->oldmask, NULL);
}

void launch_unforward(void)
{
	forward_pid = 0;
}

void launch_child_signals(struct launch *l)
{
	sigaction(SIGINT, &l->oldint, NULL);
	sigaction(SIGQUIT, &l->oldquit, NULL);
	if (l->forward) {
		sigaction(SIGTERM, &l->oldterm, NULL);
		sigaction(SIGHUP, &l->oldhup, NULL);
	}
	sigprocmask(SIG_SETMASK, &l->oldmask, NULL);
}

int launch_reap(struct launch *l, int *status, struct rusage *ru)
{
	sigset_t hold, oldmask;
	sigemptyset(&hold);
	sigaddset(&hold, SIGTERM);
	sigaddset(&hold, SIGHUP);
	sigprocmask(SIG_BLOCK, &hold, &oldmask);
	pid_t got;
	while ((got = wait4(l->pid, status, 0, ru)) < 0 && errno == EINTR)
		;
	int err = errno;
	if (got == l->pid)
		forward_pid = 0;
	sigprocmask(SIG_SETMASK, &oldmask, NULL);
	errno = err;
	return got == l->pid ? 0 : -1;
}

void launch_end(struct launch *l)
{
	sigaction(SIGINT, &l->oldint, NULL);
	sigaction(SIGQUIT, &l->oldquit, NULL);
	if (l->forward) {
		forward_pid = 0;
		sigaction(SIGTERM, &l->oldterm, NULL);
		sigaction(SIGHUP, &l->oldhup, NULL);
	}
}

int launch_exit_status(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);
		struct rlimit nocore = { 0, 0 };
		setrlimit(RLIMIT_CORE, &nocore);
		signal(sig, SIG_DFL);
		sigset_t set;
		sigemptyset(&set);
		sigaddset(&set, sig);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		raise(sig);
		return 128 + sig;
	}
	return 1;
}

/* Try to take the whole of fd's file: F_WRLCK or F_RDLCK, without
 * waiting, or F_UNLCK.  0, or -1 with errno (EAGAIN: held by another). */
static int ofd_lock(int fd, short type)
{
	struct flock f = { .l_type = type, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0 };
	return fcntl(fd, F_OFD_SETLK, &f);
}

/* Does path still name the file open at fd?  (A run that removed the
 * lock file may have let go of it since we opened it.) */
static int same_file(int fd, const char *path)
{
	struct stat a, b;
	return fstat(fd, &a) == 0 && lstat(path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

int launch_lock(struct launch_lock *k, const char *file, char *why, size_t whylen)
{
	k->fd = -1;
	k->alone = 0;
	k->path = xasprintf("%s.lock", file);
	char *shown = esc_dup(k->path);
	const char *reason = NULL;
	struct timespec nap = { 0, 10 * 1000 * 1000 };
	/* the exclusive lock is held for a rename or an unlink: waited for
	 * 100 times 10 ms at most */
	for (int tries = 0; tries < 100 && reason == NULL; tries++) {
		int fd = open(k->path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0600);
		struct stat st;
		if (fd < 0) {
			reason = strerror(errno);
			break;
		}
		reason = fstat(fd, &st) != 0 ? strerror(errno) : !S_ISREG(st.st_mode) ? "it is not a regular file"
			 : st.st_uid != geteuid() ? "it is not yours" : NULL;
		if (reason) {
			close(fd);
			break;
		}
		int alone = ofd_lock(fd, F_WRLCK) == 0;
		if (!alone && errno != EAGAIN && errno != EACCES) {
			reason = strerror(errno);
			close(fd);
			break;
		}
		if ((alone || ofd_lock(fd, F_RDLCK) == 0) && same_file(fd, k->path)) {
			k->fd = fd;
			k->alone = alone;
			free(shown);
			return 0;
		}
		close(fd);
		nanosleep(&nap, NULL);
	}
	snprintf(why, whylen, "cannot lock '%s': %s", shown, reason ? reason : "another process keeps it locked");
	free(shown);
	free(k->path);
	k->path = NULL;
	return -1;
}

void launch_lock_share(struct launch_lock *k)
{
	if (k->fd >= 0 && k->alone)
		ofd_lock(k->fd, F_RDLCK);
}

void launch_unlock(struct launch_lock *k)
{
	if (k->fd < 0)
		return;
	struct stat st;
	ofd_lock(k->fd, F_UNLCK);
	if (ofd_lock(k->fd, F_WRLCK) == 0 && same_file(k->fd, k->path) && fstat(k->fd, &st) == 0 && st.st_size == 0)
		unlink(k->path);
	close(k->fd);
	k->fd = -1;
	free(k->path);
	k->path = NULL;
}

int launch_profile_suffix(const char *s)
{
	size_t d = strspn(s, "0123456789");
	if (d == 0)
		return 0;
	if (s[d] == '.' && strspn(s + d + 1, "0123456789") > 0)
		s += d + 1, d = strspn(s, "0123456789");
	return strcmp(s + d, ".pct") == 0;
}

size_t launch_tree_paths(const char *file, char ***paths)
{
	size_t n = 0, cap = 0;
	*paths = NULL;
	const char *slash = strrchr(file, '/');
	const char *base = slash ? slash + 1 : file;
	char *dir = slash == file ? xstrdup("/") : slash ? xasprintf("%.*s", (int)(slash - file), file) : xstrdup(".");
	/* the runtime's rule (lib/output.c, nth_name): FILE loses a ".pct"
	 * suffix, if it is longer than that */
	size_t len = strlen(file), stem = strlen(base);
	if (len > 4 && strcmp(file + len - 4, ".pct") == 0)
		stem -= 4;
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, base, stem) != 0 || e->d_name[stem] != '.' ||
		    !launch_profile_suffix(e->d_name + stem + 1))
			continue;
		grow(paths, &cap, n + 1, sizeof **paths);
		(*paths)[n++] = xasprintf("%.*s%s", (int)(base - file), file, e->d_name);
	}
	if (d)
		closedir(d);
	free(dir);
	return n;
}

void launch_paths_free(char **paths, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}
