/*
 * pct_on.c - switching profiling on and off: the constructor, pct_on(),
 * pct_off() and the output name.
 *
 * How argv[0] is found.  glibc calls every ELF constructor, in the main
 * program, in preloaded and linked shared libraries, and in static
 * programs, as f(argc, argv, envp).  That is not part of any standard, so
 * the constructor checks that the arguments look like the kernel's initial
 * stack (argv[argc] == NULL and envp == &argv[argc + 1]) before trusting
 * them.  Otherwise (another libc, or a constructor called by hand), the
 * runtime reads /proc/self/cmdline.  Odd values:
 *   - argv[0] "/usr/bin/xz" or "./xz" gives the base name "xz";
 *   - a base name with characters outside [A-Za-z0-9._+-] has them
 *     replaced by '_', and a leading '-' or '.' (a login shell's "-bash")
 *     becomes '_', so that the file name is never an option or hidden;
 *   - an empty argv[0], argc == 0, or no readable source gives "pc", the
 *     seed's "pc.pct".
 * program_invocation_name is not used: it is glibc's copy of the same
 * argv[0].  AT_EXECFN and /proc/self/exe name the file that was executed,
 * not what the caller called it; "%e" uses /proc/self/exe.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/seccomp.h>
#include <stdarg.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pct.h"
#include "runtime.h"

struct rt rt_g = { .module_lock = ATOMIC_FLAG_INIT };


/* Copy a sanitised base name of path into out (cap >= 2); "pc" if none. */
static void base_name(char *out, size_t cap, const char *path)
{
	const char *b = path ? strrchr(path, '/') : NULL;
	size_t n = 0;

	b = b ? b + 1 : path;
	if (b && (strcmp(b, ".") == 0 || strcmp(b, "..") == 0))
		b = NULL;
	for (; b && *b && n + 1 < cap && n < 64; b++) {
		char c = *b;
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			 c == '.' || c == '_' || c == '+' || c == '-';
		if (!ok || (n == 0 && (c == '-' || c == '.')))
			c = '_';
		out[n++] = c;
	}
	if (n == 0)
		n = (size_t)snprintf(out, cap, "pc");
	out[n] = '\0';
}

/*
 * The command line, copied once with bounds, NUL separated: from the
 * constructor's argv when it is the kernel's (before the program can
 * rewrite it), else from /proc/self/cmdline when pct_on() runs.  Programs
 * such as git and perf shorten argv in place and end it with NULL, as
 * setproctitle does; the runtime never reads the program's argv after the
 * constructor, so a forked child of such a program finds the copy.
 */
static char cmdline[RT_CMDLINE_MAX];
static size_t cmdline_len;
static int cmdline_known;

static void cmdline_from_argv(int argc, char **argv)
{
	size_t n = 0;
	for (int i = 0; i < argc && argv[i]; i++) {
		size_t len = strnlen(argv[i], sizeof cmdline - n);
		if (n + len + 1 > sizeof cmdline)
			break;
		memcpy(cmdline + n, argv[i], len + 1);
		n += len + 1;
	}
	cmdline_len = n;
	cmdline_known = 1;
}

static void cmdline_from_proc(void)
{
	size_t n = 0;
	ssize_t r;
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	while (fd >= 0 && n < sizeof cmdline && ((r = read(fd, cmdline + n, sizeof cmdline - n)) > 0 ||
						 (r < 0 && errno == EINTR)))
		n += r > 0 ? (size_t)r : 0;
	if (fd >= 0)
		close(fd);
	while (n > 0 && cmdline[n - 1] != '\0')  /* cut a partial argument */
		n--;
	cmdline_len = n;
	cmdline_known = 1;
}

const char *rt_cmdline(size_t *len)
{
	if (!cmdline_known)
		cmdline_from_proc();
	*len = cmdline_len;
	return cmdline;
}

/* argv[0] from the copy, or NULL if the command line is empty. */
static const char *argv0(void)
{
	size_t len;
	const char *line = rt_cmdline(&len);
	return len ? line : NULL;
}

/*
 * Expand $PCT into a file name: "%p" pid, "%e" executable base name, "%%"
 * a percent sign; empty or "1" means "<argv[0] base>.%p.pct".
 */
static int expand_name(char *out, size_t cap, const char *pattern)
{
	char base[80], exe[PCT_PATH_MAX + 1];
	size_t n = 0;

	if (pattern[0] == '\0' || strcmp(pattern, "1") == 0) {
		base_name(base, sizeof base, argv0());
		int w = snprintf(out, cap, "%s.%d.pct", base, (int)getpid());
		return w < 0 || (size_t)w >= cap ? -1 : 0;
	}
	for (const char *p = pattern; *p; p++) {
		char num[24];
		const char *ins = NULL;
		if (p[0] == '%' && p[1] == 'p') {
			snprintf(num, sizeof num, "%d", (int)getpid());
			ins = num;
		} else if (p[0] == '%' && p[1] == 'e') {
			ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
			exe[len > 0 ? len : 0] = '\0';
			base_name(base, sizeof base, len > 0 ? exe : argv0());
			ins = base;
		} else if (p[0] == '%' && p[1] == '%') {
			ins = "%";
		}
		if (ins) {
			size_t l = strlen(ins);
			if (n + l >= cap)
				return -1;
			memcpy(out + n, ins, l);
			n += l;
			p++;
		} else {
			if (n + 1 >= cap)
				return -1;
			out[n++] = *p;
		}
	}
	out[n] = '\0';
	return 0;
}

/* async-signal-safe: the pid from the kernel.  A child of a raw clone(2)
 * shares our memory, so any pid the C library cached may be the parent's. */
uint32_t rt_getpid(void)
{
	return (uint32_t)syscall(SYS_getpid);
}

/*
 * async-signal-safe: the numbers of "FIELD:\tA" or "FIELD:\tA/B" in
 * /proc/self/status (B is 0 if absent).  0, or -1 if there is no such
 * field or no /proc.
 */
int rt_status_field(const char *field, uint64_t *a, uint64_t *b)
{
	char buf[4096];
	size_t n = 0, flen = strlen(field);
	ssize_t r;
	int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while (n < sizeof buf - 1 && ((r = read(fd, buf + n, sizeof buf - 1 - n)) > 0 || (r < 0 && errno == EINTR)))
		n += r > 0 ? (size_t)r : 0;
	close(fd);
	buf[n] = '\0';
	for (char *p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, field, flen) != 0 || p[flen] != ':')
			continue;
		p += flen + 1;
		while (*p == ' ' || *p == '\t')
			p++;
		*a = *b = 0;
		if (*p < '0' || *p > '9')
			return -1;
		for (; *p >= '0' && *p <= '9'; p++)
			*a = *a * 10 + (uint64_t)(*p - '0');
		if (*p == '/')
			for (p++; *p >= '0' && *p <= '9'; p++)
				*b = *b * 10 + (uint64_t)(*p - '0');
		return 0;
	}
	return -1;
}

/*
 * async-signal-safe: block every signal a program can catch but the
 * synchronous ones, so that neither pct's handler nor a program's handler
 * that siglongjmps can run while the calling thread holds one of pct's
 * locks (a handler that never returns would leave it held for good); and
 * unblock SIGBUS if the program blocked it, since a write to pct's mapping
 * of a truncated file raises it, which the kernel makes fatal while it is
 * blocked (sig.c, on_bus).
 */
void rt_block_signals(void *old)
{
	sigset_t all;
	sigfillset(&all);
	sigdelset(&all, SIGSEGV);
	sigdelset(&all, SIGBUS);
	sigdelset(&all, SIGILL);
	sigdelset(&all, SIGFPE);
	sigdelset(&all, SIGTRAP);
	sigdelset(&all, SIGSYS);
	/* the system call itself: pthread_sigmask would reach pct's own
	 * wrapper (sig.c), which would take this for the program blocking
	 * pct's signal and pause the thread's sampling */
	syscall(SYS_rt_sigprocmask, SIG_BLOCK, &all, old, (size_t)(_NSIG / 8));
	rt_bus_open(old);
}

void rt_restore_signals(const void *old)
{
	syscall(SYS_rt_sigprocmask, SIG_SETMASK, old, NULL, (size_t)(_NSIG / 8));
	rt_bus_close(old);
}

/*
 * A $PCT that names a directory ("out/", or "out" that is one) gets the
 * default file name inside it; one that names an existing file that is
 * not a regular file (/dev/full, a FIFO, a socket) is refused: pct would
 * otherwise write NAME.PID.pct beside it, in /dev.  0, or -1 after one
 * warning.
 */
static int name_in_dir(char *name, size_t cap)
{
	struct stat st;
	size_t len = strlen(name);
	int is_dir = len > 0 && name[len - 1] == '/';
	if (stat(name, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			is_dir = 1;
		else if (!S_ISREG(st.st_mode)) {
			rt_warn("$PCT names a special file, not a profile", name, 0);
			return -1;
		}
	}
	if (!is_dir)
		return 0;
	char base[80];
	base_name(base, sizeof base, argv0());
	int w = snprintf(name + len, cap - len, "%s%s.%d.pct", name[len - 1] == '/' ? "" : "/", base,
			 (int)getpid());
	if (w < 0 || (size_t)w >= cap - len) {
		rt_warn("output name too long from $PCT", name, 0);
		return -1;
	}
	return 0;
}

/* $PCT_SECCOMP_OK is "1": whoever installs a seccomp filter vouches that
 * it never kills, traps or fails a system call pct makes.  Read when a
 * filter is judged, at pct_on() and at the program's prctl(2), not with
 * the rest of the configuration: a program may set it just before it
 * installs its filter (tests/progs/noperf.c does). */
static int seccomp_vouched(void)
{
	const char *ok = getenv("PCT_SECCOMP_OK");
	return ok && strcmp(ok, "1") == 0;
}

/* Whether a seccomp filter allows sampling: sampling starts under none,
 * or under one whose installer vouches ($PCT_SECCOMP_OK=1) that it never
 * kills or traps a system call pct makes.  A filter that kills cannot be
 * told from one that does not from inside the process. */
static int seccomp_refuses(void)
{
	uint64_t mode = 0, unused;
	if (rt_status_field("Seccomp", &mode, &unused) != 0 || mode == 0)
		return 0;
	rt_g.seccomp_start = mode;
	if (mode == 2 && seccomp_vouched())
		return 0;
	rt_say("a seccomp filter is in force", NULL, 0,
	       "the program runs on without profiling (set PCT_SECCOMP_OK=1 if it never kills a system call)");
	return 1;
}

/*
 * A debugger or tracer (TracerPid in /proc/self/status) stops the program
 * at every signal it receives, pct's samples too, and `gdb -batch` then
 * kills it: under one, sampling does not start, with one warning naming
 * the tracer and how to let pct's signal pass, unless $PCT_TRACED_OK is
 * "1" (whoever sets it has told the tracer to pass the signal).  A tracer
 * that attaches later is not seen (libpct(3), DEBUGGERS).
 */
static int traced_refuses(void)
{
	uint64_t tracer = 0, unused;
	const char *ok = getenv("PCT_TRACED_OK");
	if (rt_status_field("TracerPid", &tracer, &unused) != 0 || tracer == 0 || (ok && strcmp(ok, "1") == 0))
		return 0;
	char path[40], comm[24] = "?", tail[200];
	snprintf(path, sizeof path, "/proc/%llu/comm", (unsigned long long)tracer);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, comm, sizeof comm - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n > 0)
		comm[comm[n - 1] == '\n' ? n - 1 : n] = '\0';
	for (char *c = comm; *c; c++)  /* a name is anyone's choice: no control bytes */
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	/* gdb has no name for SIGSTKFLT ("Unknown signal"), so cannot be
	 * told to pass it: under gdb, pct samples with a real-time signal */
	int sig = (int)rt_g.cfg.signo.value;
	if (sig == SIGSTKFLT)
		snprintf(tail, sizeof tail, "the program runs on without profiling (under gdb: set PCT_SIGNAL=40 "
			 "and PCT_TRACED_OK=1, and in gdb: handle SIG40 nostop noprint pass)");
	else
		snprintf(tail, sizeof tail, "the program runs on without profiling (in gdb: handle SIG%d nostop "
			 "noprint pass, and set PCT_TRACED_OK=1)", sig);
	rt_say("a debugger or tracer is attached, which would stop the program at each of pct's samples:", comm,
	       0, tail);
	return 1;
}

/* Stop sampling, with one warning, if the process is under a seccomp
 * filter that was not there when sampling started (a filter that kills a
 * system call of the handler would turn the next sample into SIGSYS). */
static void seccomp_stop(void)
{
	rt_wall_stop();  /* and its thread ends: a program whose last thread exits must end */
	rt_sampling_disarm();
	if (!rt_xchg(&rt_g.seccomp_warned, 1))
		rt_say("a seccomp filter was installed", NULL, 0, "profiling stops");
}

/* seccomp_stop() if a filter came since pct_on; 1 if so. */
int rt_seccomp_changed(void)
{
	uint64_t mode = 0, unused;
	if (rt_status_field("Seccomp", &mode, &unused) != 0 || mode == rt_g.seccomp_start)
		return 0;
	seccomp_stop();
	return 1;
}

typedef int prctl_fn(int, unsigned long, unsigned long, unsigned long, unsigned long);

/* prctl(2): sampling stops before a seccomp filter or strict mode is set
 * (the handler's system calls could kill the program under it), unless
 * $PCT_SECCOMP_OK=1 vouches for the filters; a change of the calling
 * thread's credentials restarts the wall sampler thread from it (wall.c);
 * otherwise exactly the C library's. */
PUBLIC int prctl(int option, ...)
{
	static prctl_fn *real;
	va_list ap;
	unsigned long a[4];
	va_start(ap, option);
	for (int i = 0; i < 4; i++)
		a[i] = va_arg(ap, unsigned long);
	va_end(ap);
	if (real == NULL)
		real = (prctl_fn *)dlsym(RTLD_NEXT, "prctl");
	if (option == PR_SET_SECCOMP && rt_load(&rt_g.state) == RT_ON && rt_g.led.pid == rt_getpid()) {
		if (a[0] != SECCOMP_MODE_FILTER || !seccomp_vouched())
			seccomp_stop();
	}
	/* in a static program (libpct.a) there is no dlsym: the system call */
	int rc = real ? real(option, a[0], a[1], a[2], a[3]) : (int)syscall(SYS_prctl, option, a[0], a[1], a[2], a[3]);
	int e = errno;
	if (rc >= 0 && (option == PR_SET_KEEPCAPS || option == PR_SET_SECUREBITS || option == PR_CAPBSET_DROP ||
			option == PR_SET_NO_NEW_PRIVS || (option == PR_CAP_AMBIENT && a[0] != PR_CAP_AMBIENT_IS_SET)))
		rt_wall_same_credentials();
	errno = e;
	return rc;
}

/* $name, whose value is s (getenv), as a decimal in [lo, hi], or dflt
 * (bad if s is set, not empty and not such a decimal). */
static struct rt_setting env_uint(const char *name, const char *s, unsigned dflt, unsigned lo, unsigned hi)
{
	struct rt_setting r = { name, dflt, 0 };
	char *end;
	if (s == NULL || *s == '\0')
		return r;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		r.bad = 1;
	else
		r.value = (unsigned)v;
	return r;
}

unsigned rt_config_value(const struct rt_setting *s)
{
	if (s->bad)
		rt_warn("ignoring a bad value of", s->name, 0);
	return s->value;
}

/* Read the whole configuration from the environment into rt_g.cfg (all
 * but $PCT, which pct_on() reads itself, and $PCT_SECCOMP_OK); no
 * warnings yet. */
static void config_read(void)
{
	struct rt_config *c = &rt_g.cfg;
	const char *quiet = getenv("PCT_QUIET");
	c->quiet = quiet && *quiet && strcmp(quiet, "0") != 0;
	const char *hz = getenv("PCT_HZ");
	c->hz = env_uint("PCT_HZ", hz, RT_DEFAULT_HZ, 1, 1000000);
	c->hz_explicit = hz && *hz;
	const char *event = getenv("PCT_EVENT");
	c->event = event && *event ? event : "cpu";
	c->period = env_uint("PCT_PERIOD", getenv("PCT_PERIOD"), 0, 1, UINT_MAX);
	c->signal_text = getenv("PCT_SIGNAL");
	c->signo = env_uint("PCT_SIGNAL", c->signal_text, SIGSTKFLT, 1, NSIG - 1);
	c->slots = env_uint("PCT_SLOTS", getenv("PCT_SLOTS"), 1u << RT_DEFAULT_SLOTS_LOG2, 1u << RT_MIN_SLOTS_LOG2,
			    1u << RT_MAX_SLOTS_LOG2);
	c->stack_bytes = env_uint("PCT_STACK_BYTES", getenv("PCT_STACK_BYTES"), 0, 0, RT_STACK_BYTES_MAX);
	c->stack_area = env_uint("PCT_STACK_AREA", getenv("PCT_STACK_AREA"), RT_STACK_AREA_MB, 1,
				 RT_STACK_AREA_MB_MAX);
	c->time_area = env_uint("PCT_TIME_AREA", getenv("PCT_TIME_AREA"), RT_TIME_AREA_KB, 0, RT_TIME_AREA_KB_MAX);
	/* `pct record` names its command's pid in $PCT_ROOT_PID: only that
	 * process writes the file named, and the processes under it write
	 * NAME.PID.pct beside it */
	const char *root = getenv("PCT_ROOT_PID");
	c->derived = root && *root && strtol(root, NULL, 10) != (long)rt_getpid();
	const char *session = getenv("PCT_SESSION");
	c->session = session && strlen(session) == 16 && strspn(session, "0123456789abcdef") == 16
			     ? strtoull(session, NULL, 16) : 0;
}

static unsigned slots_log2(unsigned slots)
{
	unsigned log2 = 0;
	while ((1u << (log2 + 1)) <= slots)
		log2++;
	return log2;
}

/*
 * In the child of fork(2) (pthread_atfork): the child gets a file of its
 * own, named from $PCT again (so "%p" is its pid), and its one thread is
 * armed.  vfork(2) and posix_spawn(3) children run no atfork handlers and
 * have no timers; they are profiled again if they exec with $PCT set.
 */
static void after_fork_child(void)
{
	char name[PCT_PATH_MAX + 1];
	if (rt_load(&rt_g.state) != RT_ON)
		return;
	rt_store(&rt_g.sampling, 0);
	rt_arms_forget_after_fork();
	rt_output_abandon();
	if (expand_name(name, sizeof name, rt_g.pattern) != 0 || name_in_dir(name, sizeof name) != 0 ||
	    rt_output_prepare(name, rt_g.slots_log2, strcmp(name, rt_g.name) == 0) != 0) {
		rt_store(&rt_g.state, RT_FAILED);
		return;
	}
	strcpy(rt_g.name, name);
	rt_modules_defer_scan();
	rt_sampling_after_fork();
}

PUBLIC int pct_on(void)
{
	int expect = RT_IDLE;
	char name[PCT_PATH_MAX + 1];

	if (!rt_cas(&rt_g.state, &expect, RT_STARTING)) {
		while (expect == RT_STARTING)  /* another thread is starting it */
			expect = rt_load(&rt_g.state);
		return expect == RT_ON ? 1 : expect == RT_FAILED ? -1 : 0;
	}
	/* Never profile setuid or setgid programs: $PCT would let any user
	 * make them write files. */
	const char *pattern = secure_getenv("PCT");
	if (pattern == NULL) {
		rt_store(&rt_g.state, RT_IDLE);
		return 0;
	}
	config_read();
	struct stat err_st;
	rt_g.err_known = fstat(STDERR_FILENO, &err_st) == 0;
	rt_g.err_dev = rt_g.err_known ? (uint64_t)err_st.st_dev : 0;
	rt_g.err_ino = rt_g.err_known ? (uint64_t)err_st.st_ino : 0;
	if (seccomp_refuses() || traced_refuses())
		goto fail;
	unsigned hz = rt_config_value(&rt_g.cfg.hz);
	if (strlen(pattern) >= sizeof rt_g.pattern || expand_name(name, sizeof name, pattern) != 0) {
		rt_warn("output name too long from $PCT", pattern, 0);
		goto fail;
	}
	if (name_in_dir(name, sizeof name) != 0)
		goto fail;
	strcpy(rt_g.pattern, pattern);
	strcpy(rt_g.name, name);
	rt_g.slots_log2 = slots_log2(rt_config_value(&rt_g.cfg.slots));
	rt_g.stack_bytes = rt_config_value(&rt_g.cfg.stack_bytes);
	rt_g.stack_area_mb = rt_config_value(&rt_g.cfg.stack_area);
	rt_g.time_area_kb = rt_config_value(&rt_g.cfg.time_area);
	if (rt_output_prepare(name, rt_g.slots_log2, rt_g.cfg.derived) != 0)
		goto fail;
	rt_modules_defer_scan();
	if (rt_sampling_start(hz, rt_g.cfg.hz_explicit, rt_g.cfg.event) != 0) {
		rt_output_finish();
		goto fail;
	}
	static int atfork_done;
	if (!atfork_done++)
		pthread_atfork(NULL, NULL, after_fork_child);
	rt_g.cfg.event = rt_g.cfg.signal_text = NULL;
	rt_store(&rt_g.state, RT_ON);
	return 1;
fail:
	rt_g.cfg.event = rt_g.cfg.signal_text = NULL;
	rt_store(&rt_g.state, RT_FAILED);
	return -1;
}

/* Under pct record ($PCT_SESSION), a process without a sample still
 * writes its profile, with no sample, when it ends or execs: the tree then
 * lists every program that ran in it (pct-record(1)).  The caller is the
 * process that owns the state. */
static void write_empty(void)
{
	if (rt_g.cfg.session && !rt_load_acquire(&rt_g.table_ready) && rt_output_create() == 0)
		rt_output_finish();   /* no sample: it is complete as it is */
}

void rt_before_exec(void)
{
	/* a vfork child shares the parent's memory: it changes nothing */
	if (rt_load(&rt_g.state) != RT_ON || rt_g.hdr == NULL || rt_g.led.pid != rt_getpid())
		return;
	sigset_t old;
	rt_block_signals(&old);
	write_empty();
	/* the CPU clock where this program's sampling ends: the next one's
	 * starts there (rt_note_cpu_now) */
	if (rt_load_acquire(&rt_g.table_ready) && rt_write_begin_any()) {
		rt_note_cpu_now();
		rt_write_end();
	}
	rt_restore_signals(&old);
}

PUBLIC void pct_off(void)
{
	/* A child made by a raw clone(2) or vfork(2) shares the parent's
	 * memory, and with it the parent's sampling state: it must change
	 * nothing (its exit() runs this destructor).  The pid comes from the
	 * kernel: such a child may see the parent's cached one. */
	if (rt_load(&rt_g.state) == RT_ON && rt_g.hdr != NULL && rt_g.led.pid != rt_getpid())
		return;
	int expect = RT_ON;
	if (!rt_cas(&rt_g.state, &expect, RT_OFF))
		return;
	if (rt_g.hdr == NULL) {
		rt_store(&rt_g.sampling, 0);
		return;
	}
	sigset_t old;
	rt_block_signals(&old);  /* SIGBUS open: the file may be truncated */
	/* a writer like the handler: not while another thread's mlockall
	 * holds the range (PROT_NONE for the call, memlock.c) */
	struct timespec t = { 0, 100000 };
	int writing = rt_write_begin_any();
	for (int i = 0; i < 20000 && !writing; i++) {
		nanosleep(&t, NULL);
		writing = rt_write_begin_any();
	}
	if (!writing) {
		/* held for 2 s: the range is not to be touched; the file stays
		 * unfinished, as a killed process's */
		rt_wall_stop();
		rt_sampling_disarm();
		rt_restore_signals(&old);
		return;
	}
	rt_sampling_stop();
	rt_say_pending();
	write_empty();
	if (rt_load_acquire(&rt_g.table_ready))
		rt_modules_scan_pending();
	rt_output_finish();
	rt_write_end();
	rt_restore_signals(&old);
}

PUBLIC const char *pct_output_path(void)
{
	return rt_load_acquire(&rt_g.table_ready) ? rt_g.path : NULL;
}

__attribute__((constructor)) static void rt_init(int argc, char **argv, char **envp)
{
	rt_sig_resolve();
	rt_modules_resolve();
	rt_memlock_resolve();
	if (rt_limits_resolve)
		rt_limits_resolve();
	if (rt_exec_resolve)
		rt_exec_resolve();
	/* only a gate: pct_on() reads $PCT itself, with secure_getenv */
	if (!getenv("PCT"))
		return;
	if (argv && argc >= 0 && argv[argc] == NULL && envp == argv + argc + 1)
		cmdline_from_argv(argc, argv);
	pct_on();
}

__attribute__((destructor)) static void rt_fini(void)
{
	pct_off();
}
