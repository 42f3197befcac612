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
#include <glob.h>
#include <linux/perf_event.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "profile.h"
#include "util.h"

static const char usage[] =
	"usage: pct record [-o FILE] [-e EVENT] [-F HZ] [-c PERIOD] [-g] [--] COMMAND [ARG...]\n"
	"\n"
	"Run COMMAND with pct's sampling runtime preloaded and write its profile\n"
	"to FILE (default: COMMAND's base name + \".pct\").  An existing FILE is\n"
	"first renamed to FILE.old.  Every process of the tree is profiled: a\n"
	"forked or exec'd process writes FILE's stem + \".PID.pct\" beside FILE,\n"
	"and record lists them.  The exit status is COMMAND's.\n"
	"\n"
	"  -o, --output=FILE  write the profile to FILE\n"
	"  -e, --event=EVENT  cpu (default): user + system CPU time, CPU-time timers\n"
	"                     user: user CPU time (perf_event_open task-clock)\n"
	"                     wall: wall-clock time of every thread, blocked or not\n"
	"                     cycles, instructions, cache-misses, branch-misses:\n"
	"                     hardware events, where the CPU or VM exposes them\n"
	"  -F, --freq=HZ      rate in Hz (default 250, the kernel's tick here).\n"
	"                     cpu with -F above 250 samples with\n"
	"                     perf_event_open (user time only) where the kernel allows\n"
	"  -c, --count=PERIOD events per sample of a hardware event\n"
	"  -g, --call-graph   record each sample's call stack: registers and a copy\n"
	"                     of the stack, unwound by the reports with the modules'\n"
	"                     CFI, so code without frame pointers unwinds too\n"
	"      --stack-bytes=N  bytes of stack copied per sample with -g (default\n"
	"                     16384, at most 65536)\n"
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
	if (strcmp(p.hdr.dimension, "seconds") != 0)
		fprintf(stderr, " of %s, written to '%s'\n", p.hdr.dimension, shown);
	else
		fprintf(stderr, " over %.3f s of %s time, written to '%s'\n", (double)p.cpu_ns / 1e9,
			p.hdr.event == PCT_EVENT_WALL ? "wall-clock" : p.hdr.event == PCT_EVENT_USER ? "user CPU" : "CPU",
			shown);
	if (p.hdr.stacks_offset) {
		uint64_t with = 0;
		for (size_t i = 0; i < p.nstacks; i++)
			with += p.stacks[i].weight;
		fprintf(stderr, "pct: %llu samples have call stacks", (unsigned long long)with);
		if (p.hdr.stacks_dropped)
			fprintf(stderr, "; %llu did not fit in the stack region (raise $PCT_STACK_AREA, MiB)",
				(unsigned long long)p.hdr.stacks_dropped);
		fputc('\n', stderr);
	}
	profile_free(&p);
}

/* The events that need perf_event_open: refuse them before running
 * anything if this machine cannot sample them. */
static void check_event(const char *event)
{
	static const struct { const char *name; uint32_t type; uint64_t config; } perf_events[] = {
		{ "user", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
		{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
		{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
		{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
		{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	};
	if (strcmp(event, "cpu") == 0 || strcmp(event, "wall") == 0)
		return;
	for (size_t i = 0; i < sizeof perf_events / sizeof perf_events[0]; i++) {
		if (strcmp(event, perf_events[i].name) != 0)
			continue;
		struct perf_event_attr a;
		memset(&a, 0, sizeof a);
		a.size = sizeof a;
		a.type = perf_events[i].type;
		a.config = perf_events[i].config;
		a.sample_period = 1000003;
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
		a.disabled = 1;
		int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd >= 0) {
			close(fd);
			return;
		}
		int err = errno;
		if (a.type == PERF_TYPE_HARDWARE && (err == ENOENT || err == EOPNOTSUPP || err == ENODEV))
			die("record: this CPU or VM exposes no hardware event '%s' to perf_event_open (%s); "
			    "sample time instead with -e cpu or -e wall", event, strerror(err));
		die("record: the kernel refuses perf_event_open for '%s' (%s)%s", event, strerror(err),
		    err == EACCES || err == EPERM ? "; see /proc/sys/kernel/perf_event_paranoid" : "");
	}
	die("record: unknown event '%s' (cpu, user, wall, cycles, instructions, cache-misses, branch-misses)",
	    event);
}

/* The profiles of the processes forked or exec'd under the command: the
 * runtime names them FILE's stem + ".PID.pct" or ".PID.K.pct" when FILE
 * is taken.  Only files started during this run count. */
static void list_tree(const char *file, int64_t started)
{
	size_t len = strlen(file);
	if (len > 4 && strcmp(file + len - 4, ".pct") == 0)
		len -= 4;
	char *pattern = xasprintf("%.*s.*.pct", (int)len, file);
	glob_t g;
	size_t n = 0;
	if (glob(pattern, 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc; i++) {
			struct profile p;
			char err[512];
			const char *rest = g.gl_pathv[i] + len + 1;
			if (*rest < '0' || *rest > '9' || profile_read(g.gl_pathv[i], &p, err, sizeof err) != 0)
				continue;
			if (p.hdr.start_time_ns >= started) {
				if (n++ == 0)
					fprintf(stderr, "pct: the processes it started wrote:\n");
				fprintf(stderr, "pct:   '%s': pid %u (%s), %llu samples\n", g.gl_pathv[i], p.hdr.pid,
					p.command, (unsigned long long)(p.total + p.hdr.dropped));
			}
			profile_free(&p);
		}
		globfree(&g);
	}
	if (n)
		fprintf(stderr, "pct: report them together with `pct report [--by=process] %s %.*s.*.pct`\n", file,
			(int)len, file);
	free(pattern);
}

int cmd_record(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "freq", required_argument, NULL, 'F' },
		{ "event", required_argument, NULL, 'e' },
		{ "count", required_argument, NULL, 'c' },
		{ "call-graph", no_argument, NULL, 'g' },
		{ "stack-bytes", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *hz = NULL, *event = NULL, *period = NULL, *stack = NULL;
	int c;
	char *end;

	while ((c = getopt_long(argc, argv, "+o:F:e:c:gh", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'F':
			if (strtoul(optarg, &end, 10) == 0 || *end || optarg[0] == '-')
				die("record: -F wants a rate in Hz, not '%s'", optarg);
			hz = optarg;
			break;
		case 'c':
			if (strtoul(optarg, &end, 10) == 0 || *end || optarg[0] == '-')
				die("record: -c wants a number of events, not '%s'", optarg);
			period = optarg;
			break;
		case 'g':
			if (stack == NULL)
				stack = "16384";
			break;
		case 'S':
			if (strtoul(optarg, &end, 10) == 0 || *end || optarg[0] == '-' || strtoul(optarg, NULL, 10) > 65536)
				die("record: --stack-bytes wants 1 to 65536 bytes, not '%s'", optarg);
			stack = optarg;
			break;
		case 'e':
			event = optarg;
			check_event(event);
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
	struct timespec t0;
	clock_gettime(CLOCK_REALTIME, &t0);
	int64_t started = (int64_t)t0.tv_sec * 1000000000 + t0.tv_nsec;
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
		char root[24];
		snprintf(root, sizeof root, "%d", (int)getpid());
		if (setenv("PCT", file, 1) != 0 || setenv("LD_PRELOAD", preload, 1) != 0 ||
		    setenv("PCT_ROOT_PID", root, 1) != 0 ||
		    (hz && setenv("PCT_HZ", hz, 1) != 0) || (event && setenv("PCT_EVENT", event, 1) != 0) ||
		    (period && setenv("PCT_PERIOD", period, 1) != 0) ||
		    (stack && setenv("PCT_STACK_BYTES", stack, 1) != 0))
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
	list_tree(file, started);
	free(preload);
	free(shown);
	free(file);
	free(lib);
	return pass_status(status);
}
