/*
 * session.c - one attach session: the processes and threads sampled, a
 * profile per program each process runs (a generation: an exec starts
 * the next), the sampler thread that drives a mechanism, the wall event's
 * pass over blocked threads, and the profiles written at the end.
 *
 * The sampler thread does everything that touches the targets.  With
 * ptrace it is their tracer, and its end is the detach: the kernel
 * detaches every tracee of a thread that exits (exit_ptrace), waking
 * those stopped by the tracer and leaving a group-stop in force, the very
 * path taken when pct is killed.  The main thread only waits for it and
 * writes the profiles.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "attach_int.h"
#include "modfile.h"
#include "escape.h"
#include "util.h"

const char *attach_mech_name(int mech)
{
	return mech == ATTACH_PTRACE ? "ptrace" : "perf";
}

int attach_parse_pids(const char *arg, uint32_t **pids, size_t *n)
{
	const char *c = arg;
	if (*arg == '\0' || arg[strlen(arg) - 1] == ',')
		return -1;
	do {
		char *end;
		errno = 0;
		unsigned long v = strtoul(c, &end, 10);
		if (end == c || (*end && *end != ',') || *c < '0' || *c > '9' || errno || v == 0 || v > INT32_MAX)
			return -1;
		*pids = xrealloc(*pids, (*n + 1) * sizeof **pids);
		(*pids)[(*n)++] = (uint32_t)v;
		c = *end ? end + 1 : end;
	} while (*c);
	return 0;
}

int attach_parse_mechanism(const char *arg)
{
	return strcmp(arg, "perf") == 0 ? ATTACH_PERF : strcmp(arg, "ptrace") == 0 ? ATTACH_PTRACE : -1;
}

static const struct mech_ops *ops_of(const struct session *s)
{
	return s->o.chosen == ATTACH_PTRACE ? &mech_ptrace : &mech_perf;
}

struct aproc *sess_proc(struct session *s, uint32_t pid)
{
	for (size_t i = s->nprocs; i-- > 0;)
		if (s->procs[i]->pid == pid && s->procs[i]->alive)
			return s->procs[i];
	return NULL;
}

struct athread *sess_thread(struct session *s, uint32_t tid)
{
	for (size_t i = s->nthreads; i-- > 0;)
		if (s->threads[i]->tid == tid && s->threads[i]->state != TH_GONE)
			return s->threads[i];
	return NULL;
}

/* A new profile for p, started at mono, its modules as sess_proc_new
 * says (from: the parent's profile, for PROC_COPY and a failed scan). */
static void start_gen(struct session *s, struct aproc *p, const struct pbuild *from, int how, uint64_t mono)
{
	int forked = how & PROC_FORKED;
	how &= ~PROC_FORKED;
	size_t alen = 0;
	int before_exec = how == PROC_EMPTY && p->ngens == 0 && s->cmd_argv;   /* the command, not yet exec'd */
	char *argv = before_exec ? NULL : proc_cmdline(p->pid, &alen);
	char comm[16] = "";
	if (before_exec) {
		argv = xmalloc(s->cmd_argv_len);
		memcpy(argv, s->cmd_argv, s->cmd_argv_len);
		alen = s->cmd_argv_len;
	}
	if (argv == NULL && from) {
		const struct pbuild_info *fi = pbuild_info(from);
		argv = xmalloc(fi->argv_len + 1);
		memcpy(argv, fi->argv, fi->argv_len);
		alen = fi->argv_len;
	}
	if (argv == NULL && proc_comm(p->pid, p->pid, comm) == 0) {
		argv = xstrdup(comm);
		alen = strlen(comm) + 1;
	}
	/* a program that exec'd and ended before it was looked at (perf's
	 * exec record read after its end: 40 ms programs on a loaded
	 * machine): the name its exec gave its threads (the comm record) */
	for (size_t i = s->nthreads; argv == NULL && i-- > 0;)
		if (s->threads[i]->proc == p && s->threads[i]->name[0]) {
			argv = xstrdup(s->threads[i]->name);
			alen = strlen(argv) + 1;
		}
	struct pbuild_info in = {
		.pid = p->pid,
		.ppid = p->ppid,
		.mechanism = s->o.chosen == ATTACH_PTRACE ? PCT_MECH_PTRACE : PCT_MECH_PERF_ATTACH,
		.event = s->o.event_written,
		.period_ns = s->o.period,
		.session = s->o.session,
		.stack_bytes = s->o.stack_bytes,
		.stack_machine = s->o.stack_bytes ? ATTACH_MACHINE : 0,
		.stack_regs = s->o.stack_bytes ? ATTACH_REGS : 0,
		.argv = argv ? argv : "?",
		.argv_len = argv ? alen : 2,
		.start_time_ns = real_now() - (int64_t)(mono_now() - mono),
		.clock_start_ns = mono,
		.cpu_start_ns = how == PROC_EMPTY || forked ? 0 : proc_cpu_ns(p->pid),
	};
	struct pbuild *b = pbuild_new(&in);
	free(argv);
	if (how == PROC_COPY || (how == PROC_SCAN && proc_scan_modules(p->pid, b) < 0)) {
		for (size_t m = 0; from && m < pbuild_modules(from); m++) {
			const char *path;
			const struct pct_module *r = pbuild_module_rec(from, (uint32_t)m, &path);
			if (!(r->flags & PCT_MODF_UNMAPPED))
				pbuild_module(b, r->start, r->end, r->file_offset, path, r->kind, r->build_id,
					      r->build_id_len);
		}
	}
	/* a clock read now is exact for a process found now, for a fork (its
	 * clock started at 0), and with ptrace (the process is stopped at its
	 * exec), not for a late perf record */
	int ptraced = s->o.chosen == ATTACH_PTRACE, exact = forked || !p->ngens || ptraced;
	if (p->ngens) {
		struct agen *g = &p->gens[p->ngens - 1];
		if (!g->ended) {
			pbuild_cpu(g->b, in.cpu_start_ns);
			pbuild_end(g->b, in.start_time_ns, mono);
			g->ended = 1;
			g->end_exact = ptraced;
		}
	}
	grow(&p->gens, &p->capgens, p->ngens + 1, sizeof *p->gens);
	p->gens[p->ngens++] = (struct agen){ .b = b, .start_mono = mono, .start_exact = exact };
	p->cached = 0;
}

/* Does pid see another file system than ours: another root, or another
 * mount namespace?  Then the paths of its modules name other files here. */
static int foreign_root(uint32_t pid)
{
	char p[64], a[64] = "", b[64] = "";
	struct stat mine, its;
	snprintf(p, sizeof p, "/proc/%u/root", pid);
	if (stat("/", &mine) == 0 && stat(p, &its) == 0 && (mine.st_dev != its.st_dev || mine.st_ino != its.st_ino))
		return 1;
	snprintf(p, sizeof p, "/proc/%u/ns/mnt", pid);
	ssize_t n = readlink(p, a, sizeof a - 1), m = readlink("/proc/self/ns/mnt", b, sizeof b - 1);
	return n > 0 && m > 0 && (n != m || memcmp(a, b, (size_t)n) != 0);
}

/*
 * The modules of a process in another mount namespace (a container) go
 * into the build-id cache while it lives, read through
 * /proc/PID/map_files (the very file mapped; root only) or /proc/PID/root
 * (its path in its own root), so that its profile keeps its names after
 * it is gone: the paths it recorded name other files, or none, here.
 * modfile_cache_add checks each by its build-id.  Nothing if the cache is
 * off.
 */
static void cache_foreign(struct session *s, struct aproc *p)
{
	(void)s;
	if (!p->foreign || !p->alive)
		return;
	struct pbuild *b = p->gens[p->ngens - 1].b;
	size_t n = pbuild_modules(b);
	if (p->cached >= n)
		return;
	char *dir = modfile_cache_dir();
	if (dir == NULL) {
		p->cached = n;
		return;
	}
	free(dir);
	for (; p->cached < n; p->cached++) {
		const char *path;
		const struct pct_module *r = pbuild_module_rec(b, (uint32_t)p->cached, &path);
		if (r->build_id_len == 0 || (r->kind != PCT_MOD_FILE && r->kind != PCT_MOD_MAIN) || path[0] != '/')
			continue;
		char *src = xasprintf("/proc/%u/map_files/%llx-%llx", p->pid, (unsigned long long)r->start,
				      (unsigned long long)r->end), *why = NULL;
		if (access(src, R_OK) != 0) {
			free(src);
			src = xasprintf("/proc/%u/root%s", p->pid, path);
		}
		modfile_cache_add(src, r->build_id, r->build_id_len, &why);
		free(why);
		free(src);
	}
}

int sess_release_command(struct session *s)
{
	char go = 1;
	if (write(s->gate_fd, &go, 1) != 1) {
		snprintf(s->err, sizeof s->err, "cannot start the command: %s", strerror(errno));
		return -1;
	}
	close(s->gate_fd);
	s->gate_fd = -1;
	return 0;
}

struct aproc *sess_proc_new(struct session *s, uint32_t pid, uint32_t ppid, struct aproc *parent, int how)
{
	struct aproc *p = xcalloc(1, sizeof *p);
	p->pid = pid;
	p->ppid = ppid;
	p->alive = 1;
	p->order = (int)s->nprocs;
	p->foreign = foreign_root(pid);
	start_gen(s, p, parent && parent->ngens ? parent->gens[parent->ngens - 1].b : NULL, how, mono_now());
	cache_foreign(s, p);
	grow(&s->procs, &s->capprocs, s->nprocs + 1, sizeof *s->procs);
	s->procs[s->nprocs++] = p;
	s->res.processes++;
	return p;
}

struct athread *sess_thread_new(struct session *s, struct aproc *p, uint32_t tid)
{
	struct athread *t = xcalloc(1, sizeof *t);
	t->tid = tid;
	t->proc = p;
	t->stat_fd = -1;
	t->wall_cpu = -1;
	if (proc_comm(p->pid, tid, t->name) != 0)
		snprintf(t->name, sizeof t->name, "?");
	grow(&s->threads, &s->capthreads, s->nthreads + 1, sizeof *s->threads);
	s->threads[s->nthreads++] = t;
	p->nthreads_alive++;
	s->res.threads++;
	return t;
}

void sess_thread_gone(struct session *s, struct athread *t)
{
	(void)s;
	if (t->state == TH_GONE)
		return;
	t->state = TH_GONE;
	if (t->stat_fd >= 0)
		close(t->stat_fd);
	t->stat_fd = -1;
	if (t->proc->nthreads_alive)
		t->proc->nthreads_alive--;
}

void sess_exec(struct session *s, struct aproc *p, uint64_t mono, int scan)
{
	s->res.execs++;
	if (s->cmd_pid && p->pid == (uint32_t)s->cmd_pid && !p->execd) {
		/* the command's exec: its profile began at our fork */
		p->execd = 1;
		struct pbuild *b = p->gens[p->ngens - 1].b;
		size_t alen;
		char *argv = proc_cmdline(p->pid, &alen);
		if (argv)
			pbuild_argv(b, argv, alen);
		free(argv);
		if (scan)
			proc_scan_modules(p->pid, b);
		cache_foreign(s, p);
		return;
	}
	start_gen(s, p, NULL, scan ? PROC_SCAN : PROC_EMPTY, mono);
	cache_foreign(s, p);
}

void sess_proc_cpu_final(struct session *s, struct aproc *p, uint64_t cpu_ns)
{
	(void)s;
	struct agen *g = &p->gens[p->ngens - 1];
	if (cpu_ns && !g->ended) {
		pbuild_cpu(g->b, cpu_ns);
		g->end_exact = 1;
	}
}

void sess_proc_gone(struct session *s, struct aproc *p, uint64_t mono)
{
	(void)s;
	if (!p->alive)
		return;
	p->alive = 0;
	struct agen *g = &p->gens[p->ngens - 1];
	if (!g->ended) {
		pbuild_end(g->b, real_now() - (int64_t)(mono_now() - mono), mono);
		g->ended = 1;
	}
}

struct agen *sess_gen_at(struct aproc *p, uint64_t mono)
{
	for (size_t i = p->ngens; i-- > 1;)
		if (p->gens[i].start_mono <= mono)
			return &p->gens[i];
	return &p->gens[0];
}

void sess_sample(struct session *s, struct athread *t, uint64_t pc, uint64_t weight, uint64_t mono,
		 const uint64_t *regs, uint64_t sp, const void *stack, uint32_t stack_len)
{
	struct aproc *p = t->proc;
	struct agen *g = sess_gen_at(p, mono);
	if (pbuild_module_find(g->b, pc) == PBUILD_NO_MODULE && p->alive && g == &p->gens[p->ngens - 1] &&
	    p->rescans < ATTACH_RESCANS) {
		p->rescans++;
		proc_scan_modules(p->pid, g->b);
	}
	uint32_t slot = pbuild_thread(g->b, t->tid, t->name);
	pbuild_sample(g->b, pc, slot, weight, mono, regs, sp, stack, stack_len);
	s->res.samples += weight;
}

void sess_dropped(struct session *s, struct athread *t, uint64_t periods, uint64_t mono)
{
	pbuild_dropped(sess_gen_at(t->proc, mono)->b, periods);
	s->res.dropped += periods;
}

void sess_wall_pass(struct session *s, uint64_t n)
{
	uint64_t mono = mono_now();
	for (size_t i = 0; i < s->nthreads; i++) {
		struct athread *t = s->threads[i];
		if (t->state == TH_GONE || t->state == TH_NEW || t->state == TH_INTERRUPTING)
			continue;
		if (t->stat_fd < 0)
			t->stat_fd = proc_schedstat_open(t->proc->pid, t->tid);
		int64_t cpu = t->stat_fd >= 0 ? proc_schedstat(t->stat_fd) : -1;
		if (cpu < 0)
			continue;
		if (!(t->wall_blocked && cpu == t->wall_cpu)) {
			uint64_t pc, sp;
			t->wall_blocked = proc_blocked_at(t->proc->pid, t->tid, &pc, &sp) == 1;
			if (t->wall_blocked)
				t->wall_pc = pc, t->wall_sp = sp;
		}
		t->wall_cpu = cpu;
		if (!t->wall_blocked)
			continue;
		/* a blocked thread's other registers are not known: CFI that
		 * needs them ends its stack early (as the runtime's) */
		uint64_t regs[ATTACH_REGS] = { 0 };
		regs[ATTACH_SP] = t->wall_sp;
		regs[ATTACH_REGS - 1] = t->wall_pc;
		sess_sample(s, t, t->wall_pc, n, mono, s->o.stack_bytes ? regs : NULL, t->wall_sp, NULL, 0);
	}
}

/* ---- names and writing ---- */

/* FILE's stem: FILE without a ".pct" suffix (the runtime's rule). */
static char *stem_of(const char *file)
{
	size_t len = strlen(file);
	return len > 4 && strcmp(file + len - 4, ".pct") == 0 ? xstrndup(file, len - 4) : xstrdup(file);
}

/* The k-th name for generation g of process p (k from 0): FILE for the
 * first process's first program, then STEM.PID.pct, STEM.PID.1.pct...;
 * a later program of the process starts at STEM.PID.G.pct. */
static char *gen_name(const struct session *s, const struct aproc *p, size_t g, unsigned k)
{
	if (p->order == 0 && g == 0 && k-- == 0)
		return xstrdup(s->o.file);
	k += (unsigned)g;
	char *stem = stem_of(s->o.file);
	char *n = k ? xasprintf("%s.%u.%u.pct", stem, p->pid, k) : xasprintf("%s.%u.pct", stem, p->pid);
	free(stem);
	return n;
}

/* Write every profile: snapshots over the names they were first written
 * under (replace), or each under the first of its names nobody has (a
 * file created exclusively).  0, or 1 if one could not be written. */
static int write_all(struct session *s, int replace)
{
	int rc = 0;
	char err[1024];
	for (size_t i = 0; i < s->nprocs; i++) {
		struct aproc *p = s->procs[i];
		for (size_t g = 0; g < p->ngens; g++) {
			struct agen *a = &p->gens[g];
			int done = 0;
			if (replace && a->name) {
				done = pbuild_write(a->b, a->name, 1, err, sizeof err) == 0;
			} else {
				for (unsigned k = 0; !done && k < 1000; k++) {
					char *name = gen_name(s, p, g, k);
					if (pbuild_write(a->b, name, 0, err, sizeof err) == 0) {
						done = 1;
						free(a->name);
						a->name = name;
						break;
					}
					free(name);
					if (errno != EEXIST)
						break;
				}
			}
			if (!done) {
				char *e = esc_dup(err);
				warnx_("%s", e);
				free(e);
				rc = 1;
			}
		}
	}
	return rc;
}

/* ---- the sampler thread ---- */

static void end_all(struct session *s)
{
	uint64_t mono = mono_now();
	int64_t real = real_now();
	for (size_t i = 0; i < s->nprocs; i++) {
		struct aproc *p = s->procs[i];
		cache_foreign(s, p);   /* the modules it mapped since */
		struct agen *g = &p->gens[p->ngens - 1];
		uint64_t cpu = p->alive ? proc_cpu_ns(p->pid) : 0;
		if (cpu && !g->ended) {
			pbuild_cpu(g->b, cpu);
			g->end_exact = 1;
		}
		if (!g->ended) {
			pbuild_end(g->b, real, mono);
			g->ended = 1;
		}
	}
}

/* Is the session over: the command ended (its descendants are let go),
 * or every process attached to is gone? */
static int all_gone(const struct session *s)
{
	if (s->cmd_pid)
		return s->cmd_done;
	for (size_t i = 0; i < s->nprocs; i++)
		if (s->procs[i]->alive)
			return 0;
	return s->nprocs > 0;
}

static pthread_mutex_t ready_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready_cond = PTHREAD_COND_INITIALIZER;

static void *sampler(void *arg)
{
	struct session *s = arg;
	const struct mech_ops *ops = ops_of(s);
	s->self_tid = (uint32_t)syscall(SYS_gettid);
	/* the wall event's periods run from here, before the first profile's
	 * clock_start_ns: the passes that attaching delays sample its
	 * periods late (ptrace seizes every thread before the first pass,
	 * 75 ms for a few threads on a loaded machine) */
	uint64_t t_begin = mono_now();
	int rc = ops->start(s);
	pthread_mutex_lock(&ready_lock);
	s->started = rc == 0 ? 1 : -1;
	pthread_cond_broadcast(&ready_cond);
	pthread_mutex_unlock(&ready_lock);
	if (rc != 0)
		return NULL;          /* and anything seized is let go as we end */
	s->t0_mono = mono_now();
	if (s->o.duration_ns)
		s->deadline = s->t0_mono + s->o.duration_ns;
	s->next_wall = t_begin + s->o.period;
	s->next_snapshot = s->o.snapshot_ns ? s->t0_mono : 0;
	uint64_t next_cpu = s->t0_mono;
	while (!s->stop && !all_gone(s)) {
		uint64_t now = mono_now(), until = now + 100000000;
		if (s->deadline && s->deadline <= now)
			break;
		if (s->deadline && s->deadline < until)
			until = s->deadline;
		if (s->o.event == PCT_EVENT_WALL && s->next_wall < until)
			until = s->next_wall;
		if (s->next_snapshot && s->next_snapshot < until)
			until = s->next_snapshot;
		ops->step(s, until);
		now = mono_now();
		if (s->o.event == PCT_EVENT_WALL && now >= s->next_wall) {
			uint64_t n = 1 + (now - s->next_wall) / s->o.period;
			sess_wall_pass(s, n);
			s->next_wall += n * s->o.period;
		}
		if (now >= next_cpu) {
			for (size_t i = 0; i < s->nprocs; i++)
				if (s->procs[i]->alive)
					pbuild_cpu(s->procs[i]->gens[s->procs[i]->ngens - 1].b, proc_cpu_ns(s->procs[i]->pid));
			next_cpu = now + 100000000;
		}
		if (s->next_snapshot && now >= s->next_snapshot) {
			write_all(s, 1);
			s->next_snapshot += s->o.snapshot_ns;
			if (s->next_snapshot < now)
				s->next_snapshot = now + s->o.snapshot_ns;
		}
	}
	s->res.wall_ns = mono_now() - s->t0_mono;
	ops->stop(s);
	s->res.gone = all_gone(s);
	end_all(s);
	s->done = 1;
	return NULL;              /* the tracer ends: the kernel detaches every tracee */
}

static struct session *session_new(struct attach_opts *o)
{
	struct session *s = xcalloc(1, sizeof *s);
	s->o = *o;
	s->gate_fd = -1;
	s->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	s->res.own_ns = UINT64_MAX;
	return s;
}

static void session_free(struct session *s)
{
	for (size_t i = 0; i < s->nprocs; i++) {
		for (size_t g = 0; g < s->procs[i]->ngens; g++) {
			pbuild_free(s->procs[i]->gens[g].b);
			free(s->procs[i]->gens[g].name);
		}
		free(s->procs[i]->gens);
		free(s->procs[i]);
	}
	free(s->procs);
	for (size_t i = 0; i < s->nthreads; i++) {
		if (s->threads[i]->stat_fd >= 0)
			close(s->threads[i]->stat_fd);
		free(s->threads[i]);
	}
	free(s->threads);
	if (s->wake_fd >= 0)
		close(s->wake_fd);
	if (s->gate_fd >= 0)
		close(s->gate_fd);
	free(s->cmd_argv);
	free(s);
}

/* Start the sampler thread, with every signal blocked in it (SIGCHLD is
 * read from a signalfd, the others are the main thread's), and wait until
 * it has attached.  0, or -1 with why. */
static int run_sampler(struct session *s, char *why, size_t whylen)
{
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	/* SIGCHLD stays blocked here too: the sampler reads it */
	sigset_t chld;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	int e = pthread_create(&s->thread, NULL, sampler, s);
	sigset_t keep = old;
	sigaddset(&keep, SIGCHLD);
	pthread_sigmask(SIG_SETMASK, &keep, NULL);
	if (e != 0) {
		snprintf(why, whylen, "cannot start the sampler thread: %s", strerror(e));
		return -1;
	}
	pthread_mutex_lock(&ready_lock);
	while (s->started == 0)
		pthread_cond_wait(&ready_cond, &ready_lock);
	pthread_mutex_unlock(&ready_lock);
	if (s->started < 0) {
		pthread_join(s->thread, NULL);
		snprintf(why, whylen, "%s", s->err[0] ? s->err : "cannot attach");
		return -1;
	}
	return 0;
}

struct attach *attach_start(struct attach_opts *o, char *why, size_t whylen)
{
	struct session *s = session_new(o);
	if (run_sampler(s, why, whylen) != 0) {
		session_free(s);
		return NULL;
	}
	return (struct attach *)s;
}

struct attach *attach_spawn(struct attach_opts *o, char *const *cmd, void (*child)(void), void (*fwd)(pid_t),
			    void (*unfwd)(void), char *why, size_t whylen)
{
	struct session *s = session_new(o);
	int gate[2];
	if (pipe2(gate, O_CLOEXEC) != 0) {
		snprintf(why, whylen, "pipe: %s", strerror(errno));
		session_free(s);
		return NULL;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(why, whylen, "fork: %s", strerror(errno));
		close(gate[0]);
		close(gate[1]);
		session_free(s);
		return NULL;
	}
	if (pid == 0) {
		/* the child: signals as pct found them (SIGCHLD unblocked), then
		 * wait for pct to attach, and run the command; pct closing the
		 * pipe without a byte means it could not */
		close(gate[1]);
		if (child) {
			child();
		} else {
			sigset_t none;
			sigemptyset(&none);
			sigprocmask(SIG_SETMASK, &none, NULL);
		}
		char c;
		ssize_t r;
		while ((r = read(gate[0], &c, 1)) < 0 && errno == EINTR)
			;
		if (r != 1)
			_exit(127);
		close(gate[0]);
		execvp(cmd[0], cmd);
		int err = errno;
		note("cannot run '%s': %s", cmd[0], strerror(err));
		_exit(err == ENOENT ? 127 : 126);
	}
	close(gate[0]);
	s->cmd_pid = pid;
	size_t alen = 0;
	for (char *const *a = cmd; *a; a++)
		alen += strlen(*a) + 1;
	s->cmd_argv = xmalloc(alen ? alen : 1);
	s->cmd_argv_len = 0;
	for (char *const *a = cmd; *a; a++) {
		memcpy(s->cmd_argv + s->cmd_argv_len, *a, strlen(*a) + 1);
		s->cmd_argv_len += strlen(*a) + 1;
	}
	s->gate_fd = gate[1];
	s->unfwd = unfwd;
	if (fwd)
		fwd(pid);
	if (run_sampler(s, why, whylen) != 0) {
		/* the child gets EOF and exits 127, unsampled: reap it */
		close(s->gate_fd);
		s->gate_fd = -1;
		if (unfwd)
			unfwd();
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		session_free(s);
		return NULL;
	}
	return (struct attach *)s;
}

int attach_running(const struct attach *a)
{
	const struct session *s = (const struct session *)a;
	return !s->done;
}

void attach_stop(struct attach *a)
{
	struct session *s = (struct session *)a;
	s->stop = 1;
	uint64_t one = 1;
	ssize_t w = write(s->wake_fd, &one, sizeof one);
	(void)w;
}

int attach_finish(struct attach *a, struct attach_result *r)
{
	struct session *s = (struct session *)a;
	pthread_join(s->thread, NULL);
	int rc = write_all(s, s->o.snapshot_ns != 0);
	*r = s->res;
	r->cpu_ns = r->sampled_ns = 0;
	r->inexact = 0;
	for (size_t i = 0; i < s->nprocs; i++)
		for (size_t g = 0; g < s->procs[i]->ngens; g++) {
			const struct agen *ag = &s->procs[i]->gens[g];
			if (!(ag->start_exact && ag->end_exact)) {
				r->inexact++;
				continue;
			}
			uint64_t c0, c1, n;
			pbuild_span(ag->b, &c0, &c1, &n);
			r->cpu_ns += c1 - c0;
			r->sampled_ns += n * s->o.period;
		}
	session_free(s);
	return rc;
}
