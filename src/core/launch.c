/* launch.c - see launch.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
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

int launch_start(struct launch *l, char *const *cmd)
{
	char session[17];
	snprintf(session, sizeof session, "%016llx", (unsigned long long)l->session);
	const char *pre = getenv("LD_PRELOAD");
	char *preload = pre && *pre ? xasprintf("%s:%s", l->runtime, pre) : xstrdup(l->runtime);

	struct sigaction ign = { .sa_handler = SIG_IGN };
	sigemptyset(&ign.sa_mask);
	sigaction(SIGINT, &ign, &l->oldint);
	sigaction(SIGQUIT, &ign, &l->oldquit);

	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		int err = errno;
		launch_end(l);
		free(preload);
		errno = err;
		return -1;
	}
	if (pid == 0) {
		sigaction(SIGINT, &l->oldint, NULL);
		sigaction(SIGQUIT, &l->oldquit, NULL);
		char root[24];
		snprintf(root, sizeof root, "%d", (int)getpid());
		if (setenv("PCT", l->file, 1) != 0 || setenv("LD_PRELOAD", preload, 1) != 0 ||
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
	l->pid = pid;
	return 0;
}

void launch_end(struct launch *l)
{
	sigaction(SIGINT, &l->oldint, NULL);
	sigaction(SIGQUIT, &l->oldquit, NULL);
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
	size_t len = strlen(file), n = 0, cap = 0;
	*paths = NULL;
	if (len > 4 && strcmp(file + len - 4, ".pct") == 0)
		len -= 4;
	char *pattern = xasprintf("%.*s.*.pct", (int)len, file);
	glob_t g;
	int have = glob(pattern, GLOB_NOESCAPE | GLOB_NOSORT, NULL, &g) == 0;
	free(pattern);
	for (size_t i = 0; have && i < g.gl_pathc; i++) {
		if (!launch_profile_suffix(g.gl_pathv[i] + len + 1))
			continue;
		grow(paths, &cap, n + 1, sizeof **paths);
		(*paths)[n++] = xstrdup(g.gl_pathv[i]);
	}
	if (have)
		globfree(&g);
	return n;
}

void launch_paths_free(char **paths, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}
