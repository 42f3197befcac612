/*
 * cmd_record.c - `pct record`: run a command with libpct preloaded.
 *
 * The child gets LD_PRELOAD=libpct.so (ahead of any preload it already
 * has), PCT=FILE and PCT_HZ; the runtime's constructor does the rest.
 * record waits, prints one summary line on stderr, and exits as the child
 * did: with its status, or by the same signal.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "profile.h"
#include "util.h"

static const char usage[] =
	"usage: pct record [-o FILE] [-F HZ] [--] COMMAND [ARG...]\n"
	"\n"
	"Run COMMAND with pct's sampling runtime preloaded and write its profile\n"
	"to FILE (default: COMMAND's base name + \".pct\").  An existing FILE is\n"
	"first renamed to FILE.old.  The exit status is COMMAND's.\n"
	"\n"
	"  -o, --output=FILE  write the profile to FILE\n"
	"  -F, --freq=HZ      requested rate in Hz (default 1000; CPU-time\n"
	"                     sampling gets at most one sample per kernel tick)\n"
	"  -h, --help         show this help\n"
	"\n"
	"See pct-record(1).\n";

/* libpct.so beside this program: $PCT_LIB, else BINDIR/../lib/libpct.so. */
static char *find_runtime(void)
{
	const char *env = getenv("PCT_LIB");
	if (env && *env)
		return xstrdup(env);
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0)
		die("record: cannot find my own executable to locate libpct.so; set $PCT_LIB");
	self[n] = '\0';
	char *slash = strrchr(self, '/');
	*slash = '\0';
	slash = strrchr(self, '/');
	if (slash)
		*slash = '\0';
	char *lib = xasprintf("%s/lib/libpct.so", self);
	if (access(lib, R_OK) != 0)
		die("record: cannot find the runtime at '%s'; set $PCT_LIB", lib);
	return lib;
}

/* An absolute form of path, so that a child that changes directory still
 * writes where record reads. */
static char *absolute(const char *path)
{
	if (path[0] == '/')
		return xstrdup(path);
	char cwd[PATH_MAX];
	if (getcwd(cwd, sizeof cwd) == NULL)
		die("record: cannot get the working directory: %s", strerror(errno));
	return xasprintf("%s/%s", cwd, path);
}

/* Exit as the child did: same status, or the same signal (without a core
 * dump of our own). */
static int pass_status(int status)
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

static void summarize(const char *file, const char *shown, const char *cmd)
{
	struct profile p;
	char err[512];

	if (access(file, F_OK) != 0) {
		fprintf(stderr, "pct: '%s' wrote no profile (a static program not linked with libpct, "
				"a setuid one, or one that uses SIGPROF itself)\n", cmd);
		return;
	}
	if (profile_read(file, &p, err, sizeof err) != 0) {
		fprintf(stderr, "pct: %s\n", err);
		return;
	}
	double rate = profile_rate(&p);
	fprintf(stderr, "pct: %llu samples", (unsigned long long)(p.total + p.hdr.dropped));
	if (rate > 0)
		fprintf(stderr, " at %.1f Hz", rate);
	fprintf(stderr, " over %.3f s of CPU time, written to '%s'\n", (double)p.cpu_ns / 1e9, shown);
	profile_free(&p);
}

int cmd_record(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "freq", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *hz = NULL;
	int c;
	char *end;

	while ((c = getopt_long(argc, argv, "+o:F:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'F':
			if (strtoul(optarg, &end, 10) == 0 || *end || optarg[0] == '-')
				die("record: -F wants a rate in Hz, not '%s'", optarg);
			hz = optarg;
			break;
		default:
			return usage_exit(usage, c == 'h');
		}
	}
	if (optind >= argc)
		return usage_exit(usage, 0);
	char **cmd = argv + optind;
	char *lib = find_runtime();
	char *file = absolute(out ? out : xasprintf("%s.pct", path_base(cmd[0])));
	char *shown = out ? xstrdup(out) : xstrdup(path_base(file));

	struct stat st;
	if (lstat(file, &st) == 0) {
		char *old = xasprintf("%s.old", file);
		if (rename(file, old) != 0)
			die("record: cannot move '%s' out of the way: %s", file, strerror(errno));
		free(old);
	}
	const char *pre = getenv("LD_PRELOAD");
	char *preload = pre && *pre ? xasprintf("%s:%s", lib, pre) : xstrdup(lib);

	/* Like system(3): the terminal's ^C and ^\ go to the child; we wait
	 * for it and then report. */
	struct sigaction ign = { .sa_handler = SIG_IGN }, oldint, oldquit;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGINT, &ign, &oldint);
	sigaction(SIGQUIT, &ign, &oldquit);

	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		die("record: fork: %s", strerror(errno));
	if (pid == 0) {
		sigaction(SIGINT, &oldint, NULL);
		sigaction(SIGQUIT, &oldquit, NULL);
		if (setenv("PCT", file, 1) != 0 || setenv("LD_PRELOAD", preload, 1) != 0 ||
		    (hz && setenv("PCT_HZ", hz, 1) != 0))
			_exit(127);
		execvp(cmd[0], cmd);
		fprintf(stderr, "pct: cannot run '%s': %s\n", cmd[0], strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("record: waitpid: %s", strerror(errno));
	sigaction(SIGINT, &oldint, NULL);
	sigaction(SIGQUIT, &oldquit, NULL);

	if (!(WIFEXITED(status) && (WEXITSTATUS(status) == 127 || WEXITSTATUS(status) == 126) &&
	      access(file, F_OK) != 0))
		summarize(file, shown, cmd[0]);
	free(preload);
	free(shown);
	free(file);
	free(lib);
	return pass_status(status);
}
