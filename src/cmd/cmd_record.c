/*
 * cmd_record.c - `pct record`: run a command with libpct preloaded.
 *
 * The child gets LD_PRELOAD=PRELOAD:libpct.so (after any preload it
 * already has), PCT=FILE and PCT_HZ (launch.h); the runtime's constructor
 * does the rest.  record waits, passing SIGTERM and SIGHUP on to the
 * command, folds the profiles of the command's process tree into FILE
 * (finish(): one tree file, tree.h), prints a summary on stderr, and
 * exits as the child did: with its status, or by the same signal.  Runs
 * of one FILE at the same time are kept apart by a lock on FILE.lock
 * (launch_lock) and by their session tokens; the one whose root did not
 * get FILE writes its profile under a numbered name (result_name).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <getopt.h>
#include <linux/perf_event.h>
#include <limits.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "attach.h"
#include "commands.h"
#include "escape.h"
#include "pack.h"
#include "pct.h"
#include "pset.h"
#include "symtab.h"
#include "infile.h"
#include "launch.h"
#include "modfile.h"
#include "perfmap.h"
#include "profile.h"
#include "tree.h"
#include "util.h"

static const char usage[] =
	"usage: pct record [-o FILE] [-e EVENT] [-F HZ] [-c PERIOD] [-g] [--no-cache] [--] COMMAND [ARG...]\n"
	"       pct record -p PID[,PID...] [--duration=SECONDS] [--mechanism=perf|ptrace]\n"
	"                  [-o FILE] [-e EVENT] [-F HZ] [-c PERIOD] [-g] [--no-cache]\n"
	"\n"
	"Run COMMAND with pct's sampling runtime preloaded and write its profile\n"
	"to FILE (default: COMMAND's base name + \".pct\").  An existing FILE is\n"
	"first renamed to FILE.old (only a regular file: record refuses a link,\n"
	"FIFO or device there).  Every process of the tree is profiled: a\n"
	"forked or exec'd process writes FILE's stem + \".PID.pct\" while it\n"
	"runs; when COMMAND ends, record folds its run's files into FILE, one\n"
	"tree file (compacted, in the tree's order; see pct-record(1)) that\n"
	"every command reads, and prints a summary: processes, samples, and the\n"
	"share of COMMAND's CPU time (wait4) they cover.  Then every module\n"
	"that holds samples (every one with -g), with its separate debug file\n"
	"when one is found, is put in the build-id cache ($XDG_CACHE_HOME/pct,\n"
	"default ~/.cache/pct; see pct-cache(1)), so that the profile keeps its\n"
	"names after a rebuild.  The exit status is COMMAND's.\n"
	"\n"
	"SIGTERM and SIGHUP sent to record are passed on to COMMAND's process;\n"
	"record still writes FILE, then exits as COMMAND did.  While another\n"
	"record of the same FILE runs (both hold FILE.lock), nothing is moved to\n"
	"FILE.old, and the run that finds FILE another run's writes its profile\n"
	"to FILE's stem + \"-2.pct\" (or -3...) and says so.  LD_PRELOAD keeps\n"
	"the user's preloads first, and ASAN_OPTIONS gets\n"
	"verify_asan_link_order=0 first, so that gcc -fsanitize=address programs\n"
	"run.\n"
	"\n"
	"With -p, record attaches to running processes instead (pct-record(1),\n"
	"ATTACHING): every thread of each, and the threads and processes they\n"
	"create, are sampled from outside until --duration ends, SIGINT or\n"
	"SIGTERM (^C), or the last process exits; then record detaches, and they\n"
	"run on as before.  FILE defaults to the first process's name + \".pct\".\n"
	"A COMMAND the runtime cannot enter (a static executable; a setuid,\n"
	"setgid or file-capability one, as root) is sampled from outside the same\n"
	"way, from its first instruction; record says so in one line.\n"
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
	"      --no-cache     do not put the modules in the build-id cache (as\n"
	"                     $PCT_CACHE=0)\n"
	"  -p, --pid=PID[,PID...]  attach to these running processes (not\n"
	"                     threads), until --duration, ^C or their end\n"
	"      --duration=SECONDS  with -p: detach after SECONDS (decimal)\n"
	"      --mechanism=perf|ptrace  how to sample from outside (-p, a COMMAND\n"
	"                     the runtime cannot enter; given, any COMMAND):\n"
	"                     perf events or ptrace stops (default: perf where\n"
	"                     the kernel allows it, else ptrace)\n"
	"  -h, --help         show this help\n"
	"\n"
	"See pct-record(1).\n";

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

/*
 * The CPU time of pid itself, user + system, ns, without that of the
 * children it waited for (which wait4's rusage adds): fields 14 and 15 of
 * /proc/PID/stat, in clock ticks.  Call it while pid is a zombie not yet
 * reaped.  UINT64_MAX if it cannot be read; the tick's length in ns is put
 * in *tick_ns.
 */
static uint64_t own_cpu_ns(pid_t pid, uint64_t *tick_ns)
{
	char path[40], buf[1024];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "re");
	if (f == NULL)
		return UINT64_MAX;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	char *p = strrchr(buf, ')');      /* the name may hold spaces and ')' */
	unsigned long long ut, st;
	long tick = sysconf(_SC_CLK_TCK);
	if (p == NULL || tick <= 0 ||
	    sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
		return UINT64_MAX;
	*tick_ns = (uint64_t)(1e9 / (double)tick);
	return (uint64_t)((ut + st) * (1e9 / (double)tick));
}

/* One run of record: the command's pid, when it started, and the token
 * put in $PCT_SESSION that each of its processes copies into its
 * profile's header. */
struct run {
	const char *file;              /* FILE, absolute */
	pid_t child;
	int64_t started;               /* CLOCK_REALTIME, ns */
	uint64_t session;
	uint64_t cpu_ns;               /* the command's CPU time, user + system (wait4), ns */
	uint64_t user_ns;              /* the user part of cpu_ns */
	uint64_t own_ns;               /* the command's own CPU time, without its children's
					  (/proc/PID/stat before it is reaped), or UINT64_MAX */
	uint64_t own_tick_ns;          /* the resolution of own_ns: one clock tick */
	uint64_t period_ns;            /* one sampling period of a CPU-time event, or 0 */
	uint64_t sampled_ns;           /* CPU time the listed files' samples stand for
					  (profile_sampled_ns), summed */
	int timers;                    /* the cpu event at PCT_TIMER_MAX_HZ or less: CPU-time
					  timers, whose expirations wait for the kernel's tick */
	int perf;                      /* a listed file was sampled with perf events, which see
					  user time only (exclude_kernel) */
	int attached;                  /* -p: processes attached to, not a command */
};

/* Keep the perf map of p's process (JIT code's names, perfmap.h) beside
 * the profile written (file), before /tmp is cleaned: the one place
 * record copies maps. */
static void keep_jit_map(const char *file, const struct profile *p)
{
	char *why = NULL;
	if (perfmap_keep(file, p->hdr.pid, p->hdr.start_time_ns, &why) < 0)
		warnx_("%s", why);
	free(why);
}

/* Add the CPU time p's samples stand for to run's, saturating. */
static void add_sampled(struct run *run, const struct profile *p)
{
	if (__builtin_add_overflow(run->sampled_ns, profile_sampled_ns(p), &run->sampled_ns))
		run->sampled_ns = UINT64_MAX;
	if (p->hdr.mechanism == PCT_MECH_PERF || (p->hdr.mechanism == PCT_MECH_PERF_ATTACH &&
						   p->hdr.event == PCT_EVENT_USER))
		run->perf = 1;
}

/*
 * Read path as a profile this run wrote: a regular file (never a FIFO,
 * which would block, nor through a symbolic link), owned by our effective
 * user, carrying the run's session token, that started sampling no
 * earlier than the run.  It is read compacted (profile_compact_fd: the
 * holes of the sparse table are skipped), into *raw (*rawlen bytes, the
 * pct file tree_write folds) and p (parsed from it).  Returns 0, or -1
 * with the reason in why.  The name is in a directory others may write
 * to, so it is opened once (infile.h) and read through that descriptor.
 */
static int read_own(const char *path, const struct run *run, struct profile *p, void **raw, size_t *rawlen,
		    int *other_run, char *why, size_t whylen)
{
	struct stat st;
	const char *reason;
	*raw = NULL;
	*other_run = 0;
	int fd = infile_open(path, 1, &st, &reason);
	if (fd < 0)
		return snprintf(why, whylen, "%s", reason), -1;
	int rc = -1;
	char magic[PCT_MAGIC_LEN];
	if (st.st_uid != geteuid())
		snprintf(why, whylen, "owned by uid %u, not by this run's user", (unsigned)st.st_uid);
	else if (pread(fd, magic, sizeof magic, 0) == (ssize_t)sizeof magic && tree_magic(magic, sizeof magic))
		snprintf(why, whylen, "a process tree, written by another run"), *other_run = 1;  /* ours is not yet */
	else if (profile_compact_fd(fd, (uint64_t)st.st_size, path, raw, rawlen, why, whylen) != 0 ||
		 profile_parse(path, *raw, *rawlen, p, why, whylen) != 0)
		;
	else if (p->hdr.session != run->session || p->hdr.start_time_ns < run->started)
		profile_free(p), snprintf(why, whylen, "written by another run"), *other_run = 1;
	else
		rc = 0;
	if (rc != 0)
		free(*raw), *raw = NULL;
	close(fd);
	return rc;
}

/* Why the command wrote no profile, the likeliest reason first: a short
 * run, whose own CPU time (own_cpu_ns: the dynamic loader's time before
 * pct starts included, its children's not) we know. */
static void no_profile(const char *cmd, const struct run *run)
{
	char *shown_cmd = esc_dup(cmd);  /* a name with control bytes */
	cmd = shown_cmd;
	if (run->attached)
		note("no sample was taken: the processes used no CPU time that a period of it could sample "
		     "while attached (with -e wall, blocked threads are sampled too)");
	else if (run->period_ns && run->own_ns != UINT64_MAX)
		note("'%s' wrote no profile: no sample in its %s %.0f ms of CPU time (one "
		     "per %.1f ms, from when pct started in it), or a static program not linked "
		     "with libpct, or a setuid one%s", cmd, run->own_ns ? "about" : "less than",
			(run->own_ns ? run->own_ns : run->own_tick_ns) / 1e6, run->period_ns / 1e6,
			/* CPU-time timers over at
			 * least 3 periods: the kernel's tick missed them (libpct(3)) */
			run->timers && !run->perf && run->own_ns >= 3 * run->period_ns
				? "; or the kernel checked no CPU-time timer: it does so only at a tick "
				  "that finds the thread running, which an oversubscribed machine can miss "
				  "for a whole short run (libpct(3)); -F 1000 samples with perf events, "
				  "which do not wait for the tick"
				: "");
	else if (run->period_ns)
		note("'%s' wrote no profile: no sample (one per %.1f ms of its CPU time, from "
				"when pct started in it), or a static program not linked with libpct, or a "
				"setuid one", cmd, run->period_ns / 1e6);
	else
		note("'%s' wrote no profile (no sample, or a static program not linked "
				"with libpct, or a setuid one)", cmd);
	free(shown_cmd);
}

/* The summary of FILE when the command's own profile is the only one: its
 * samples, rate and span. */
static void summarize(const struct profile *p, const char *shown)
{
	double rate = profile_rate(p);
	char *at = rate > 0 ? xasprintf(" at %.1f Hz", rate) : xstrdup("");
	if (strcmp(p->hdr.dimension, "seconds") != 0)
		note("%llu samples%s of %s, written to '%s'", (unsigned long long)(p->total + p->hdr.dropped), at,
		     p->hdr.dimension, shown);
	else
		note("%llu samples%s over %.3f s of %s time, written to '%s'",
		     (unsigned long long)(p->total + p->hdr.dropped), at, (double)p->cpu_ns / 1e9,
		     p->hdr.event == PCT_EVENT_WALL ? "wall-clock" : p->hdr.event == PCT_EVENT_USER ? "user CPU" : "CPU",
		     shown);
	free(at);
}

/* The call stacks' line: how many samples have one, and how many did not
 * fit, summed over the profiles. */
static void summarize_stacks(const struct profile *v, size_t n)
{
	uint64_t with = 0, dropped = 0;
	int any = 0;
	for (size_t k = 0; k < n; k++) {
		if (!v[k].hdr.stacks_offset)
			continue;
		any = 1;
		for (size_t i = 0; i < v[k].nstacks; i++)
			with += v[k].stacks[i].weight;
		dropped += v[k].hdr.stacks_dropped;
	}
	if (!any)
		return;
	if (dropped)
		note("%llu samples have call stacks; %llu did not fit in the stack region (raise "
		     "$PCT_STACK_AREA, MiB)", (unsigned long long)with, (unsigned long long)dropped);
	else
		note("%llu samples have call stacks", (unsigned long long)with);
}

/* Put the modules the profile at file needs in the build-id cache, so
 * that its names outlive a rebuild (pct-cache(1)); warnings only. */
static void keep_modules(char *file)
{
	struct pset s;
	struct pack_kept k;
	char err[512], *dir = modfile_cache_dir();
	free(dir);
	if (dir == NULL) /* off: --no-cache, $PCT_CACHE=0, or no home */
		return;
	if (pset_load(&s, &file, 1, err, sizeof err) != 0)
		return;
	pack_cache(&s, 0, &k);
	symtab_free_all();
	pset_free(&s);
}

/* The events that need perf_event_open: refuse them before running
 * anything if this machine cannot sample them. */
static void check_event(const char *event)
{
	static const struct pct_event_perf perf[PCT_EVENT_MAX + 1] = { PCT_EVENTS(PCT_EVENT_PERF) };
	const struct pct_event_def *d = pct_event_by_name(event);
	if (d == NULL)
		die_usage("record: unknown event '%s' (" PCT_EVENT_NAMES ")", event);
	/* cpu and wall fall back to CPU-time timers when perf is refused */
	if (d->event == PCT_EVENT_CPU || d->event == PCT_EVENT_WALL)
		return;
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = perf[d->event].type;
	a.config = perf[d->event].config;
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

/* A name as a shell word: bare if it is made of safe characters, else in
 * single quotes; control bytes escaped (escape.h). */
static void put_word(const char *s, FILE *out)
{
	if (s[0] == '-')               /* an operand, not an option */
		fputs("./", out);
	if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./+-:,@%=") == strlen(s)) {
		esc_fputs(s, out);
		return;
	}
	fputc('\'', out);
	for (const char *c = s; *c; c++) {
		if (*c == '\'')
			fputs("'\\''", out);
		else
			esc_write(c, 1, out);
	}
	fputc('\'', out);
}

/* One profile of the run: where it was, its pct file compacted, and
 * the profile read from that. */
struct run_file {
	char *path;
	void *raw;
	size_t rawlen;
	struct profile p;
};

/* The tree's order (pct_format.h, struct pct_tree_header): by the time
 * sampling started, then by pid. */
static int cmp_run_file(const void *pa, const void *pb)
{
	const struct run_file *a = pa, *b = pb;
	if (a->p.hdr.start_time_ns != b->p.hdr.start_time_ns)
		return a->p.hdr.start_time_ns < b->p.hdr.start_time_ns ? -1 : 1;
	return a->p.hdr.pid < b->p.hdr.pid ? -1 : a->p.hdr.pid > b->p.hdr.pid;
}

/*
 * The profiles of the run: FILE, the command's own (if it took a sample),
 * and those of the processes forked or exec'd under it, which the runtime
 * names FILE's stem + ".PID.pct" or ".PID.K.pct" when FILE is taken (the
 * command's own too, when another run's command took FILE first).
 * Others may put files under such names too (FILE's directory may be
 * /tmp), so a file counts only if read_own() accepts it: ours, and
 * carrying this run's session token.  *ignored counts the others.  A
 * FILE that is not this run's is left alone, with a note or a warning.
 */
static struct run_file *collect(const char *file, const char *shown, int with_main, const struct run *run,
				size_t *n, size_t *ignored)
{
	size_t cap = 0;
	struct run_file *v = NULL;
	char why[512];
	*n = 0;
	*ignored = 0;
	char **paths;
	size_t npaths = launch_tree_paths(file, &paths);
	for (size_t i = 0; i <= npaths; i++) {
		const char *path = i == 0 ? file : paths[i - 1];
		struct run_file f = { 0 };
		int other;
		if (i == 0 && !with_main)
			continue;
		if (read_own(path, run, &f.p, &f.raw, &f.rawlen, &other, why, sizeof why) != 0) {
			struct stat st;
			if (i == 0 && (other || lstat(file, &st) == 0)) {
				char *s = esc_dup(shown);
				if (other)
					note("'%s' is another run's profile (likely a pct record of the same name "
					     "running at the same time); it is left alone, and this run's goes under "
					     "another name", s);
				else
					warnx_("'%s' is not this run's profile (%s); it is left alone, and this "
					       "run's goes under another name", s, why);
				free(s);
			} else if (i > 0) {
				(*ignored)++;
			}
			continue;
		}
		f.path = xstrdup(path);
		grow(&v, &cap, *n + 1, sizeof *v);
		v[(*n)++] = f;
	}
	launch_paths_free(paths, npaths);
	return v;
}

/* The k-th name for the run's profile: FILE itself, then FILE's stem +
 * "-2.pct", "-3.pct"... (FILE without ".pct": FILE + "-2"...), malloc'd;
 * name is FILE absolute or as shown. */
static char *result_name(const char *name, unsigned k)
{
	if (k == 0)
		return xstrdup(name);
	size_t len = strlen(name);
	int ext = len > 4 && strcmp(name + len - 4, ".pct") == 0;
	return xasprintf("%.*s-%u%s", (int)(ext ? len - 4 : len), name, k + 1, ext ? ".pct" : "");
}

#define RESULT_NAMES 1000              /* FILE, then FILE's stem + -2 ... -1000 */

/*
 * Write the run's profile: the raw pct file (n == 1) or the tree of the
 * n members m.  Over FILE when FILE is the run's own profile (replace:
 * outfile.h), else under the first name of result_name's that nobody
 * has (link(2), which never replaces another run's profile).  Returns
 * the index of the name used, or -1 with err set.
 */
static int write_result(const char *file, int replace, const void *raw, size_t rawlen, const struct tree_member *m,
			size_t n, const struct run *run, char *err, size_t errlen)
{
	struct outfile o;
	if ((replace ? outfile_open(&o, file, err, errlen) : outfile_open_new(&o, file, err, errlen)) != 0)
		return -1;
	if (m) {
		if (tree_put(&o, m, n, (uint32_t)run->child, run->session, err, errlen) != 0)
			return -1;
	} else {
		mode_t mask = umask(0);
		umask(mask);
		if ((!replace && fchmod(fileno(o.fp), profile_file_mode(raw, rawlen) & ~mask) != 0) ||
		    fwrite(raw, 1, rawlen, o.fp) != rawlen) {
			snprintf(err, errlen, "cannot write '%s': %s", file, strerror(errno));
			outfile_abort(&o);
			return -1;
		}
	}
	if (replace)
		return outfile_commit(&o, err, errlen) == 0 ? 0 : -1;
	for (unsigned k = 0; k < RESULT_NAMES; k++) {
		char *name = result_name(file, k);
		int rc = outfile_commit_new(&o, name, err, errlen);
		free(name);
		if (rc == 0)
			return (int)k;
		if (errno != EEXIST)
			return -1;
	}
	char *last = result_name(file, RESULT_NAMES - 1);
	snprintf(err, errlen, "cannot write '%s': every name up to '%s' is taken", file, last);
	free(last);
	outfile_abort(&o);
	return -1;
}

/*
 * End of the run: gather its profiles, and if the tree wrote more than
 * the command's own, fold them into FILE (tree.h: compacted, in the
 * tree's order, written to a temporary and renamed over FILE), then
 * remove the per-process files; one profile alone is compacted.  When
 * FILE is not the run's own (another run of it at the same time took the
 * name first), the result goes under a new name (write_result).  Prints
 * a summary: one profile's samples and rate, or a tree's processes and
 * samples; never one line per process.  Returns 0 with the name written
 * in *written (malloc'd, absolute; NULL if none), or 1 if the profile
 * could not be written (its per-process files are then left where they
 * are).
 */
static int finish(const char *file, const char *shown, const char *cmd, int with_main, struct run *run,
		  char **written)
{
	size_t n, ignored;
	*written = NULL;
	struct run_file *v = collect(file, shown, with_main, run, &n, &ignored);
	int rc = 0, own = n && strcmp(v[0].path, file) == 0, root = 0;
	uint64_t taken_samples = 0;
	for (size_t i = 0; i < n; i++) {
		add_sampled(run, &v[i].p);
		taken_samples += v[i].p.total + v[i].p.hdr.dropped;
		root |= v[i].p.hdr.pid == (uint32_t)run->child;
	}
	/* Under record a process without a sample writes an empty profile
	 * (lib/exec.c), so that the tree lists it; a run where no process
	 * took one has nothing to report: its files are removed, and the
	 * command is said to have written none, with the likeliest reason. */
	if (n && taken_samples == 0) {
		for (size_t i = 0; i < n; i++) {
			if (unlink(v[i].path) != 0)
				warnx_("cannot remove '%s' (a profile without samples): %s", v[i].path, strerror(errno));
			profile_free(&v[i].p);
			free(v[i].raw);
			free(v[i].path);
		}
		n = 0;
		own = root = 0;
	}
	if (!own && !root && with_main)
		no_profile(cmd, run);
	char err[1024];
	int k = -1;
	/* one profile, the command's (under FILE, or under its own pid's
	 * name when another run took FILE): its compacted copy, the
	 * runtime's reserve (the table's empty slots, the unused tick log:
	 * 41 MB by default, sparse) gone */
	if (n == 1 && (own || v[0].p.hdr.pid == (uint32_t)run->child)) {
		if (v[0].p.hdr.pid != (uint32_t)run->child)
			warnx_("'%s' was written by pid %u, not by the command (pid %d)", shown, v[0].p.hdr.pid,
			       (int)run->child);
		k = write_result(file, own, v[0].raw, v[0].rawlen, NULL, 0, run, err, sizeof err);
		if (k < 0 && own) {
			warnx_("%s; the profile is left as the program wrote it", err);
			k = 0;
		} else if (k < 0) {
			warnx_("%s; the profile is left in '%s'", err, v[0].path);
			rc = 1;
		}
		if (k >= 0) {
			char *name = result_name(shown, (unsigned)k);
			summarize(&v[0].p, name);
			free(name);
			if (!own && rc == 0 && unlink(v[0].path) != 0)
				warnx_("cannot remove '%s' (copied to this run's profile): %s", v[0].path, strerror(errno));
		}
	} else if (n) {
		sort(v, n, sizeof *v, cmp_run_file);
		struct tree_member *m = xcalloc(n, sizeof *m);
		uint64_t samples = 0;
		for (size_t i = 0; i < n; i++) {
			m[i] = (struct tree_member){ .data = v[i].raw, .size = v[i].rawlen, .pid = v[i].p.hdr.pid };
			samples += v[i].p.total + v[i].p.hdr.dropped;
		}
		k = write_result(file, own, NULL, 0, m, n, run, err, sizeof err);
		if (k < 0) {
			warnx_("%s; the processes' profiles are left beside it", err);
			rc = 1;
		} else {
			char *path = result_name(file, (unsigned)k), *name = result_name(shown, (unsigned)k);
			for (size_t i = 0; i < n; i++)
				if (strcmp(v[i].path, path) != 0 && unlink(v[i].path) != 0)
					warnx_("cannot remove '%s' (folded into '%s'): %s", v[i].path, name,
					       strerror(errno));
			char *s = esc_dup(name);
			note("%zu process%s, %llu samples, written to '%s' as one process tree", n, n == 1 ? "" : "es",
			     (unsigned long long)samples, s);
			free(s);
			free(name);
			free(path);
		}
		free(m);
	}
	if (k >= 0)
		*written = result_name(file, (unsigned)k);
	/* per-process work at the end, beside the profile written */
	for (size_t i = 0; i < n; i++)
		keep_jit_map(*written ? *written : file, &v[i].p);
	if (n && rc == 0) {
		char *line = NULL, *name = result_name(shown, (unsigned)k);
		size_t line_len = 0;
		FILE *w = open_memstream(&line, &line_len);
		if (w) {
			fputs("report it with `pct report ", w);
			put_word(name, w);
			fputs(n > 1 ? "` (add --by=process for one row per process)" : "`", w);
			if (fclose(w) == 0)
				note("%s", line);
		}
		free(line);
		free(name);
	}
	if (ignored)
		note("ignored %zu file%s named like the processes' profiles that this run did not "
		     "write (another user's, another run's, or not a profile)", ignored,
			ignored == 1 ? "" : "s");
	struct profile *ps = xcalloc(n ? n : 1, sizeof *ps);
	struct profile_overruns over = { 0 };
	for (size_t i = 0; i < n; i++) {
		ps[i] = v[i].p;
		profile_overruns_add(&v[i].p, &over);
	}
	char over_note[400];
	if (profile_overruns_note(&over, over_note, sizeof over_note))
		note("%s", over_note);
	summarize_stacks(ps, n);
	free(ps);
	for (size_t i = 0; i < n; i++) {
		profile_free(&v[i].p);
		free(v[i].raw);
		free(v[i].path);
	}
	free(v);
	return rc;
}

/*
 * The share of the tree's CPU time that the samples of the files record
 * listed stand for.  The tree's CPU time is wait4's: the command's own and
 * that of every descendant waited for (by its parent, or by init if it was
 * orphaned, which then does not count here), user + system for event cpu
 * with CPU timers, user only for event user and for cpu sampled with perf
 * events (-F above 250).  Nothing is printed for other events.
 */
static void print_coverage(const struct run *run, const char *event)
{
	if (event && strcmp(event, "cpu") != 0 && strcmp(event, "user") != 0)
		return;
	int user = (event && strcmp(event, "user") == 0) || run->perf;
	uint64_t tree = user ? run->user_ns : run->cpu_ns;
	double share = tree ? 100.0 * (double)run->sampled_ns / (double)tree : 0;
	/* Above 100% of the user time (pct's own signals at -g or high rates
	 * are system time): the kernel's user/system split is itself sampled
	 * at its tick, so the whole CPU time is given beside it. */
	char more[160] = "";
	if (tree && share < 90)
		snprintf(more, sizeof more, "; see pct-record(1), UNSAMPLED TIME");
	else if (user && nearbyint(share) > 100 && run->cpu_ns > run->user_ns)  /* as %.0f prints it */
		snprintf(more, sizeof more, "; above 100%%: the kernel divides user from system time at its tick; "
			 "of all %.3f s of CPU time, %.0f%%", run->cpu_ns / 1e9,
			 100.0 * (double)run->sampled_ns / (double)run->cpu_ns);
	note("the samples cover %.0f%% (%.3f s) of the %.3f s of %s the command used, with the "
	     "descendants it waited for (wait4)%s", share, run->sampled_ns / 1e9, tree / 1e9,
		user ? "user CPU time" : "CPU time", more);
}

/*
 * Can an existing FILE be moved to FILE.old, as the runtime never
 * overwrites a file?  Only a regular file is moved, and only over nothing
 * or a regular file: a symbolic link, FIFO or device under either name
 * (perhaps planted in a shared directory) is left alone and the run
 * refused (checked before anything is created, again when moving).
 */
static void check_old(const char *file, const char *shown)
{
	struct stat st;
	if (lstat(file, &st) != 0) {
		if (errno != ENOENT)
			die("record: cannot create '%s': %s", shown, strerror(errno));
		return;
	}
	if (!S_ISREG(st.st_mode))
		die("record: cannot create '%s': it exists and is %s; record moves only a regular file to "
		    "'%s.old' (remove it or choose another -o)", shown, infile_kind(st.st_mode), shown);
	char *old = xasprintf("%s.old", file);
	if (lstat(old, &st) == 0 && !S_ISREG(st.st_mode))
		die("record: cannot move '%s' to '%s.old': that is %s, not a regular file", shown, shown,
		    infile_kind(st.st_mode));
	free(old);
}

/* Move an existing FILE to FILE.old (check_old's rules); rename(2)
 * itself follows no link. */
static void move_old(const char *file, const char *shown)
{
	check_old(file, shown);
	char *old = xasprintf("%s.old", file);
	if (rename(file, old) != 0 && errno != ENOENT)
		die("record: cannot move '%s' out of the way: %s", shown, strerror(errno));
	free(old);
}

/*
 * The profile's directory must exist and be writable before COMMAND runs:
 * otherwise the runtime could not create the file, and the run would be
 * lost.  Exits 2 (a usage error: the -o given cannot be used).
 */
static void check_output_dir(const char *file, const char *shown)
{
	char *dir = xstrdup(file);
	char *slash = strrchr(dir, '/');
	if (slash == dir)
		slash[1] = '\0';
	else if (slash)
		*slash = '\0';
	struct stat st;
	const char *why = NULL;
	if (stat(dir, &st) != 0)
		why = strerror(errno);
	else if (!S_ISDIR(st.st_mode))
		why = "its directory is not a directory";
	else if (access(dir, W_OK | X_OK) != 0)
		why = strerror(errno);
	if (why)
		die_usage("record: cannot create '%s': %s; the command was not run", shown, why);
	free(dir);
}

/* The lock on FILE.lock, let go of at exit too (die() while moving an
 * old FILE aside). */
static struct launch_lock g_lock = { .fd = -1 };

static void unlock_at_exit(void)
{
	launch_unlock(&g_lock);
}

/* What record needs to sample from outside: -p's processes, or a command
 * the runtime cannot enter (attach.h). */
struct outside {
	uint32_t *pids;
	size_t npids;
	uint64_t duration_ns;
	int mech;
	const char *out, *hz, *event, *period, *stack;
};

/* Before the command runs or pct attaches: FILE's directory and an old
 * FILE checked, FILE's lock taken (launch_lock: runs of one output kept
 * apart), FILE moved aside when no other run writes it.  UNDONE ends the
 * message of a failure: what was not done. */
static void claim_output(const char *file, const char *shown, const char *undone)
{
	char why[PATH_MAX + 256];
	check_output_dir(file, shown);
	check_old(file, shown);
	if (launch_lock(&g_lock, file, why, sizeof why) != 0)
		die("record: %s (the lock that keeps runs of one output apart); %s", why, undone);
	atexit(unlock_at_exit);
	if (g_lock.alone)
		move_old(file, shown);
	launch_lock_share(&g_lock);
}

/* attach_check's verdict on o: a usage error exits 2, a refusal 1, its
 * message ended by UNDONE if not NULL. */
static void check_attach(struct attach_opts *o, const char *undone)
{
	char why[2048];
	int rc = attach_check(o, why, sizeof why);
	if (rc == 2)
		die_usage("record: %s", why);
	if (rc)
		die("record: %s%s%s", why, undone ? "; " : "", undone ? undone : "");
}

static uint64_t parse_duration(const char *arg, const char *who)
{
	char *end;
	double d = strtod(arg, &end);
	if (end == arg || *end || !(d > 0 && d <= 1e7))
		die_usage("%s: --duration wants seconds (0 < SECONDS <= 10000000), not '%s'", who, arg);
	return (uint64_t)(d * 1e9 + 0.5);
}

/* The attach options for x: the event and its period as record's -e,
 * -F, -c and -g give them. */
static void outside_opts(const struct outside *x, struct attach_opts *o, const char *file, uint64_t session)
{
	const struct pct_event_def *d = pct_event_by_name(x->event ? x->event : "cpu");
	memset(o, 0, sizeof *o);
	o->pids = x->pids;
	o->npids = x->npids;
	o->mech = x->mech;
	o->event = d->event;
	o->period = d->default_period ? (x->period ? strtoull(x->period, NULL, 10) : d->default_period)
				      : 1000000000u / (x->hz ? strtoul(x->hz, NULL, 10) : 250);
	if (o->period == 0)
		o->period = 1;
	o->stack_bytes = x->stack ? (uint32_t)strtoul(x->stack, NULL, 10) : 0;
	o->session = session;
	o->file = file;
	o->duration_ns = x->duration_ns;
}

/* The attach session's signals: SIGINT, SIGTERM and SIGHUP end it (and
 * record writes the profile). */
static struct attach *volatile g_attach;
static volatile sig_atomic_t g_attach_stop;
static void on_attach_stop(int sig)
{
	(void)sig;
	g_attach_stop = 1;
	if (g_attach)
		attach_stop(g_attach);
}

/* A file name from a process's name: its bytes but '/', blanks and
 * control bytes, which become '_'; "pid-PID" if it has none. */
static char *name_of_process(uint32_t pid)
{
	char path[64], comm[64] = "";
	snprintf(path, sizeof path, "/proc/%u/comm", pid);
	FILE *f = fopen(path, "re");
	if (f) {
		if (fgets(comm, sizeof comm, f) == NULL)
			comm[0] = '\0';
		fclose(f);
	}
	comm[strcspn(comm, "\n")] = '\0';
	for (char *c = comm; *c; c++)
		if (*c == '/' || (unsigned char)*c <= ' ' || *c == 0x7f)
			*c = '_';
	if (comm[0] == '\0' || comm[0] == '.' || comm[0] == '-')
		snprintf(comm, sizeof comm, "pid-%u", pid);
	return xasprintf("%s.pct", comm);
}

/* The line that says what was attached, how, and for how long. */
static void summarize_attach(const struct attach_opts *o, const struct attach_result *r)
{
	note("sampled %zu process%s (%zu thread%s%s) for %.3f s with the %s mechanism (%s)%s", r->processes,
	     r->processes == 1 ? "" : "es", r->threads, r->threads == 1 ? "" : "s",
	     r->execs ? xasprintf(", %zu exec%s", r->execs, r->execs == 1 ? "" : "s") : "", r->wall_ns / 1e9,
	     attach_mech_name(o->chosen),
	     o->chosen == ATTACH_PTRACE ? "PTRACE_INTERRUPT when a thread's CPU time passes a period"
	     : o->user_only		? "perf_event_open, user mode only: kernel.perf_event_paranoid allows no more"
					: "perf_event_open, user and kernel mode",
	     o->user_only && o->event == PCT_EVENT_CPU ? "; the profile's event is user" : "");
	if (o->chosen == ATTACH_PTRACE) {
		uint64_t stops = r->samples - r->blocked_at_due + r->off_cpu;
		note("threads were stopped %.3f ms in all (%.1f us a stop, of which pct held them %.1f us; the rest "
		     "they took to stop, or waited for a CPU); %llu samples were due just as a thread blocked, and "
		     "taken where it waits; %llu stops found the thread waiting for a CPU at a system call's exit, and "
		     "%llu periods passed between the sampler's wakes, not sampled%s",
		     r->stop_ns / 1e6, stops ? r->stop_ns / 1e3 / (double)stops : 0.0,
		     stops ? r->held_ns / 1e3 / (double)stops : 0.0,
		     (unsigned long long)r->blocked_at_due, (unsigned long long)r->off_cpu,
		     (unsigned long long)(r->dropped - r->off_cpu),
		     r->eintr_restarted ? xasprintf("; %llu system calls that a stop ended with EINTR were restarted",
						    (unsigned long long)r->eintr_restarted) : "");
	}
	if (r->lost)
		note("%llu samples were lost (the ring buffers were full)", (unsigned long long)r->lost);
}

/*
 * record -p: attach, sample until the duration ends, a signal, or every
 * process is gone, detach, and write the profiles as a command's tree.
 */
static int record_attached(struct outside *x)
{
	char *file = absolute(x->out ? x->out : name_of_process(x->pids[0]));
	char *shown = x->out ? xstrdup(x->out) : xstrdup(path_base(file));
	struct timespec t0;
	clock_gettime(CLOCK_REALTIME, &t0);
	struct run run = { .file = file, .started = (int64_t)t0.tv_sec * 1000000000 + t0.tv_nsec, .attached = 1 };
	run.session = launch_session("record");
	run.child = (pid_t)x->pids[0];
	struct attach_opts o;
	outside_opts(x, &o, file, run.session);
	check_attach(&o, NULL);
	claim_output(file, shown, "nothing was attached");

	struct sigaction sa = { .sa_handler = on_attach_stop }, oldint, oldterm, oldhup;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &oldint);
	sigaction(SIGTERM, &sa, &oldterm);
	sigaction(SIGHUP, &sa, &oldhup);
	char why[2048];
	struct attach *a = attach_start(&o, why, sizeof why);
	if (a == NULL)
		die("record: %s", why);
	g_attach = a;
	if (g_attach_stop)
		attach_stop(a);
	note("sampling %zu process%s with the %s mechanism%s; ^C ends it", o.npids, o.npids == 1 ? "" : "es",
	     attach_mech_name(o.chosen), x->duration_ns ? xasprintf(" for %.3f s", x->duration_ns / 1e9) : "");
	struct attach_result r;
	int failed = attach_finish(a, &r);
	g_attach = NULL;
	summarize_attach(&o, &r);
	run.period_ns = o.period;
	char *written = NULL;
	failed |= finish(file, shown, "", 1, &run, &written);
	if (r.cpu_ns && o.event_written <= PCT_EVENT_USER)
		note("the samples cover %.0f%% (%.3f s) of the %.3f s of CPU time the processes used while sampled%s",
		     100.0 * (double)r.sampled_ns / (double)r.cpu_ns, r.sampled_ns / 1e9, r.cpu_ns / 1e9,
		     r.inexact ? xasprintf(" (leaving out %zu profile%s of processes that ended or exec'd between "
					   "reads of their CPU clocks)", r.inexact, r.inexact == 1 ? "" : "s") : "");
	launch_unlock(&g_lock);
	sigaction(SIGINT, &oldint, NULL);
	sigaction(SIGTERM, &oldterm, NULL);
	sigaction(SIGHUP, &oldhup, NULL);
	struct stat st;
	if (!failed && written && lstat(written, &st) == 0)
		keep_modules(written);
	free(written);
	free(shown);
	free(file);
	free(x->pids);
	return failed ? 1 : 0;
}

/* A command the runtime cannot enter, sampled from outside: its signals
 * as pct record -- COMMAND gives them (launch.h). */
static struct launch g_out_launch;
static void out_child(void)
{
	launch_child_signals(&g_out_launch);
}
static void out_fwd(pid_t pid)
{
	launch_forward(&g_out_launch, pid);
}
static void out_unfwd(void)
{
	launch_unforward();
}

static int record_outside(struct outside *x, char **cmd, int kind, const char *kwhy)
{
	char *file = absolute(x->out ? x->out : xasprintf("%s.pct", path_base(cmd[0])));
	char *shown = x->out ? xstrdup(x->out) : xstrdup(path_base(file));
	char *ecmd = esc_dup(cmd[0]);
	struct timespec t0;
	clock_gettime(CLOCK_REALTIME, &t0);
	struct run run = { .file = file, .started = (int64_t)t0.tv_sec * 1000000000 + t0.tv_nsec };
	run.session = launch_session("record");
	struct attach_opts o;
	outside_opts(x, &o, file, run.session);
	if (kind == ATTACH_CMD_SECURE) {
		/* the exec makes it another user's: perf events are dropped at
		 * it, and only a capable tracer keeps tracing it */
		if (geteuid() != 0)
			die("record: '%s' is %s: its loader ignores LD_PRELOAD, and only root (CAP_SYS_PTRACE) may "
			    "profile it from outside; the command was not run", ecmd, kwhy);
		if (o.mech == ATTACH_PERF)
			die_usage("record: '%s' is %s: the kernel drops perf events at the exec of a program that "
				  "changes ids; use --mechanism=ptrace (the default for it)", ecmd, kwhy);
		o.mech = ATTACH_PTRACE;
	}
	check_attach(&o, "the command was not run");
	claim_output(file, shown, "the command was not run");
	if (kind)
		note("'%s' is %s: the runtime cannot be preloaded into it; sampling it from outside with the %s "
		     "mechanism", ecmd, kwhy, attach_mech_name(o.chosen));
	g_out_launch = (struct launch){ .forward = 1 };
	launch_signals(&g_out_launch);
	char why[2048];
	struct attach *a = attach_spawn(&o, cmd, out_child, out_fwd, out_unfwd, why, sizeof why);
	if (a == NULL)
		die("record: %s", why);
	struct attach_result r;
	int failed = attach_finish(a, &r);
	int status = r.status;
	/* a command that could not be run: no line on what was sampled */
	int ran = !(WIFEXITED(status) && (WEXITSTATUS(status) == 127 || WEXITSTATUS(status) == 126) &&
		    r.samples == 0);
	if (ran)
		summarize_attach(&o, &r);
	run.child = g_out_launch.pid;
	run.own_ns = r.own_ns;
	run.cpu_ns = (uint64_t)(r.ru.ru_utime.tv_sec + r.ru.ru_stime.tv_sec) * 1000000000u +
		     (uint64_t)(r.ru.ru_utime.tv_usec + r.ru.ru_stime.tv_usec) * 1000u;
	run.user_ns = (uint64_t)r.ru.ru_utime.tv_sec * 1000000000u + (uint64_t)r.ru.ru_utime.tv_usec * 1000u;
	if (o.event <= PCT_EVENT_USER)
		run.period_ns = o.period;
	struct stat st;
	char *written = NULL;
	failed |= finish(file, shown, cmd[0], ran, &run, &written);
	if (ran)
		print_coverage(&run, x->event);
	launch_unlock(&g_lock);
	launch_end(&g_out_launch);
	if (!failed && written && lstat(written, &st) == 0)
		keep_modules(written);
	free(written);
	free(shown);
	free(file);
	free(ecmd);
	if (failed && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 1;
	return launch_exit_status(status);
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
		{ "no-cache", no_argument, NULL, 'N' },
		{ "pid", required_argument, NULL, 'p' },
		{ "duration", required_argument, NULL, 'D' },
		{ "mechanism", required_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *hz = NULL, *event = NULL, *period = NULL, *stack = NULL;
	int c;
	char *end;
	struct outside x = { .mech = ATTACH_AUTO };

	while ((c = getopt_long(argc, argv, "+o:F:e:c:gp:h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (attach_parse_pids(optarg, &x.pids, &x.npids) != 0)
				die_usage("record: -p wants process ids, separated by commas, not '%s'", optarg);
			break;
		case 'D':
			x.duration_ns = parse_duration(optarg, "record");
			break;
		case 'M':
			if ((x.mech = attach_parse_mechanism(optarg)) < 0)
				die_usage("record: --mechanism is perf or ptrace, not '%s'", optarg);
			break;
		case 'o':
			out = optarg;
			break;
		case 'F':
			if (strtoul(optarg, &end, 10) == 0 || *end || optarg[0] == '-')
				die_usage("record: -F wants a rate in Hz, not '%s'", optarg);
			hz = optarg;
			break;
		case 'c':
			if (strtoul(optarg, &end, 10) == 0 || *end || optarg[0] == '-')
				die_usage("record: -c wants a number of events, not '%s'", optarg);
			period = optarg;
			break;
		case 'g':
			if (stack == NULL)
				stack = "16384";
			break;
		case 'S':
			if (strtoul(optarg, &end, 10) == 0 || *end || optarg[0] == '-' || strtoul(optarg, NULL, 10) > 65536)
				die_usage("record: --stack-bytes wants 1 to 65536 bytes, not '%s'", optarg);
			stack = optarg;
			break;
		case 'e':
			event = optarg;
			check_event(event);
			break;
		case 'N':
			modfile_set_cache(0); /* neither filled nor read (modfile.h) */
			break;
		default:
			return usage_exit(usage, c == 'h');
		}
	}
	x.out = out, x.hz = hz, x.event = event, x.period = period, x.stack = stack;
	if (x.npids) {
		if (optind < argc)
			die_usage("record: -p attaches to running processes; it takes no command ('%s')", argv[optind]);
		return record_attached(&x);
	}
	if (x.duration_ns)
		die_usage("record: --duration goes with -p; a command is recorded until it ends");
	if (optind >= argc)
		return usage_short(usage);
	char **cmd = argv + optind;
	char kwhy[256];
	int kind = attach_cmd_kind(cmd[0], kwhy, sizeof kwhy);
	if (kind || x.mech != ATTACH_AUTO)
		return record_outside(&x, cmd, kind, kwhy);
	char *lib = launch_runtime("record");
	char *file = absolute(out ? out : xasprintf("%s.pct", path_base(cmd[0])));
	char *shown = out ? xstrdup(out) : xstrdup(path_base(file));

	struct timespec t0;
	clock_gettime(CLOCK_REALTIME, &t0);
	struct run run = { .file = file, .started = (int64_t)t0.tv_sec * 1000000000 + t0.tv_nsec };
	run.session = launch_session("record");
	claim_output(file, shown, "the command was not run");

	/* Like system(3): the terminal's ^C and ^\ go to the child; we wait
	 * for it and then report.  SIGTERM and SIGHUP sent to us go on to the
	 * child, and we still write its profile. */
	struct launch l = { .file = file, .runtime = lib, .session = run.session, .hz = hz, .event = event,
			    .period = period, .stack_bytes = stack, .forward = 1 };
	if (launch_start(&l, cmd) != 0)
		die("record: fork: %s", strerror(errno));
	pid_t pid = l.pid;
	run.child = pid;
	int status;
	struct rusage ru;
	siginfo_t si;
	run.own_ns = UINT64_MAX;
	while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) < 0 && errno == EINTR)
		;
	run.own_ns = own_cpu_ns(pid, &run.own_tick_ns);
	if (launch_reap(&l, &status, &ru) != 0)
		die("record: wait4: %s", strerror(errno));
	run.cpu_ns = (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000u +
		     (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000u;
	run.user_ns = (uint64_t)ru.ru_utime.tv_sec * 1000000000u + (uint64_t)ru.ru_utime.tv_usec * 1000u;
	if (event == NULL || strcmp(event, "cpu") == 0 || strcmp(event, "user") == 0)
		run.period_ns = 1000000000u / (hz ? strtoul(hz, NULL, 10) : 250);
	run.timers = (event == NULL || strcmp(event, "cpu") == 0) &&
		     (hz ? strtoul(hz, NULL, 10) : 250) <= PCT_TIMER_MAX_HZ;

	/* the signals stay caught (and not passed on: the command is gone)
	 * until the profile is written, so that a second SIGTERM or ^C does
	 * not lose it */
	struct stat st;
	int ran = !(WIFEXITED(status) && (WEXITSTATUS(status) == 127 || WEXITSTATUS(status) == 126) &&
		    lstat(file, &st) != 0);
	char *written;
	int failed = finish(file, shown, cmd[0], ran, &run, &written);
	if (ran)
		print_coverage(&run, event);
	launch_unlock(&g_lock);
	launch_end(&l);
	if (!failed && written && lstat(written, &st) == 0)
		keep_modules(written);
	free(written);
	free(shown);
	free(file);
	free(lib);
	if (failed && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 1;
	return launch_exit_status(status);
}
