/*
 * mech_perf.c - the perf mechanism: task-clock perf_event_open(2) events
 * on every thread of the targets, one per thread and CPU, opened by pct
 * and inherited by every thread and process that thread creates, with
 * fork, exit, exec (comm), thread names (comm) and executable mappings
 * (mmap2, with the build-id) recorded beside the samples.  The kernel
 * maps no ring buffer for an inherited per-thread event, so as perf
 * record does, each event of a CPU writes to that CPU's one ring
 * (PERF_EVENT_IOC_SET_OUTPUT), PERF_SAMPLE_TID telling threads apart.
 * An event is kept open until the end, even once its thread is gone: its
 * inherited copies, in the threads it made, end with it.
 *
 * The kernel takes each sample when the thread's task clock passes a
 * period, with no stop and no signal: the target is not disturbed beyond
 * the sampling interrupt itself.  pct drains the rings (half full, or at
 * every step), sorts a drain's records by time (a process's threads write
 * to different rings), and files each sample in the profile of the
 * program its process ran then.
 *
 * Without CAP_PERFMON at kernel.perf_event_paranoid 2 only user mode is
 * sampled (exclude_kernel): the profile's event is user.  Otherwise a
 * sample taken in the kernel is placed at the user address the thread
 * returns to (its user registers, PERF_SAMPLE_REGS_USER), as the
 * runtime's CPU timers place theirs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "attach_int.h"
#include "util.h"

#if defined(__x86_64__)
#include <asm/perf_regs.h>
/* the registers asked for with -g, in the sample's (ascending bit) order,
 * and where each goes in DWARF order */
#define REGS_MASK_G ((UINT64_C(1) << PERF_REG_X86_AX) | (UINT64_C(1) << PERF_REG_X86_BX) | \
		     (UINT64_C(1) << PERF_REG_X86_CX) | (UINT64_C(1) << PERF_REG_X86_DX) | \
		     (UINT64_C(1) << PERF_REG_X86_SI) | (UINT64_C(1) << PERF_REG_X86_DI) | \
		     (UINT64_C(1) << PERF_REG_X86_BP) | (UINT64_C(1) << PERF_REG_X86_SP) | \
		     (UINT64_C(1) << PERF_REG_X86_IP) | (UINT64_C(0xff) << PERF_REG_X86_R8))
/* bit order AX BX CX DX SI DI BP SP IP R8..R15 -> DWARF rax rdx rcx rbx rsi rdi rbp rsp r8..r15 ip */
static const int dwarf_of[17] = { 0, 3, 2, 1, 4, 5, 6, 7, 16, 8, 9, 10, 11, 12, 13, 14, 15 };
#define REGS_MASK_PC ((UINT64_C(1) << PERF_REG_X86_SP) | (UINT64_C(1) << PERF_REG_X86_IP))
#define PC_IN_PC_MASK 1                /* SP, then IP */
#define SP_IN_PC_MASK 0
#elif defined(__aarch64__)
#include <asm/perf_regs.h>
#define REGS_MASK_G ((UINT64_C(1) << 33) - 1)   /* x0-x30, sp, pc */
static const int dwarf_of[33] = { 0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16,
				  17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32 };
#define REGS_MASK_PC ((UINT64_C(1) << PERF_REG_ARM64_SP) | (UINT64_C(1) << PERF_REG_ARM64_PC))
#define PC_IN_PC_MASK 1
#define SP_IN_PC_MASK 0
#endif

struct ring {
	int cpu;
	int fd;                        /* the CPU's first event, which owns the ring */
	void *map;
	size_t len;
};

struct perf_st {
	struct perf_event_attr attr;
	size_t data_pages;             /* of each ring (a power of two) */
	struct ring *rings;            /* one per CPU */
	size_t nrings, caprings;
	int ncpus;
	char *cpu_ok;
	int sigfd;                     /* SIGCHLD, with a command */
	struct pollfd *pfd;
	size_t npfd, cappfd;
	int pfd_stale;
	char *buf;                     /* a drain's records, copied out of the rings */
	size_t buflen, bufcap;
	struct rec { uint64_t time; size_t off; } *recs;
	size_t nrecs, caprecs;
	int regs_n;                    /* registers in a sample */
};

static int sys_perf_event_open(struct perf_event_attr *a, pid_t pid, int cpu, int group, unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, a, pid, cpu, group, flags);
}

static void make_attr(struct perf_event_attr *a, const struct attach_opts *o, int user_only, size_t ring_bytes)
{
	static const struct pct_event_perf perf[PCT_EVENT_MAX + 1] = { PCT_EVENTS(PCT_EVENT_PERF) };
	memset(a, 0, sizeof *a);
	a->size = sizeof *a;
	a->type = perf[o->event].type;
	a->config = perf[o->event].config;
	a->sample_period = o->period;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	if (o->stack_bytes) {
		a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		a->sample_regs_user = REGS_MASK_G;
		a->sample_stack_user = (o->stack_bytes + 7u) & ~7u;
	} else if (!user_only) {
		a->sample_type |= PERF_SAMPLE_REGS_USER;
		a->sample_regs_user = REGS_MASK_PC;
	}
	a->exclude_kernel = (unsigned)user_only;
	a->exclude_hv = 1;
	a->inherit = 1;
	a->task = 1;
	a->comm = 1;
	a->comm_exec = 1;
	a->mmap = 1;
	a->mmap2 = 1;
	a->build_id = 1;
	a->sample_id_all = 1;
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
	a->watermark = 1;
	a->wakeup_watermark = (uint32_t)(ring_bytes / 2);
}

int perf_probe(uint32_t tid, const struct attach_opts *o, int *user_only)
{
	struct perf_event_attr a;
	*user_only = o->event == PCT_EVENT_USER;
	for (;;) {
		make_attr(&a, o, *user_only, 65536);
		a.disabled = 1;
		int fd = sys_perf_event_open(&a, (pid_t)tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd >= 0) {
			close(fd);
			return 0;
		}
		int e = errno;
		if (e == EINVAL) {         /* an older kernel: no build-ids in mmap2 */
			a.build_id = 0;
			fd = sys_perf_event_open(&a, (pid_t)tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
			if (fd >= 0) {
				close(fd);
				return 0;
			}
			e = errno;
		}
		if ((e == EACCES || e == EPERM) && !*user_only) {
			*user_only = 1;    /* perf_event_paranoid 2: user mode only */
			continue;
		}
		return e;
	}
}

/* Map a ring for the event fd (on CPU cpu): 0, or -1 with errno.  As
 * large as asked, halved while the locked-memory limit
 * (perf_event_mlock_kb, RLIMIT_MEMLOCK) refuses it. */
static int map_ring(struct perf_st *ps, int fd, int cpu)
{
	long page = sysconf(_SC_PAGESIZE);
	for (size_t pages = ps->data_pages; pages >= 1; pages /= 2) {
		size_t len = (pages + 1) * (size_t)page;
		void *r = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (r != MAP_FAILED) {
			grow(&ps->rings, &ps->caprings, ps->nrings + 1, sizeof *ps->rings);
			ps->rings[ps->nrings++] = (struct ring){ cpu, fd, r, len };
			ps->pfd_stale = 1;
			return 0;
		}
		if (errno != EPERM && errno != ENOMEM)
			return -1;
	}
	return -1;
}

/* The ring of CPU cpu, or NULL. */
static struct ring *ring_of(struct perf_st *ps, int cpu)
{
	for (size_t i = 0; i < ps->nrings; i++)
		if (ps->rings[i].cpu == cpu)
			return &ps->rings[i];
	return NULL;
}

/* Open t's events, one on each CPU, each writing to its CPU's ring: 0
 * if any was, or -1 with errno. */
static int open_thread(struct session *s, struct athread *t, int enable_on_exec)
{
	struct perf_st *ps = s->mech;
	struct perf_event_attr a = ps->attr;
	if (enable_on_exec) {
		a.disabled = 1;
		a.enable_on_exec = 1;
	}
	int err = 0;
	t->fds = xmalloc((size_t)ps->ncpus * sizeof *t->fds);
	t->nfds = 0;
	for (int cpu = 0; cpu < ps->ncpus; cpu++) {
		if (!ps->cpu_ok[cpu])
			continue;
		int fd = sys_perf_event_open(&a, (pid_t)t->tid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0 && errno == EINVAL && a.build_id) {
			ps->attr.build_id = a.build_id = 0;
			fd = sys_perf_event_open(&a, (pid_t)t->tid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
		}
		if (fd < 0) {
			err = errno;
			if (err == ENODEV || err == EINVAL)   /* an offline CPU */
				continue;
			break;
		}
		struct ring *r = ring_of(ps, cpu);
		if (r ? ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, r->fd) != 0 : map_ring(ps, fd, cpu) != 0) {
			err = errno;
			close(fd);
			break;
		}
		t->fds[t->nfds++] = fd;
	}
	if (t->nfds)
		return 0;
	free(t->fds);
	t->fds = NULL;
	errno = err ? err : ENODEV;
	return -1;
}

static void close_thread(struct athread *t)
{
	for (int i = 0; i < t->nfds; i++)
		close(t->fds[i]);
	free(t->fds);
	t->fds = NULL;
	t->nfds = 0;
}

/* Copy out every record of ring r, and let the kernel reuse the room. */
static void drain_ring(struct perf_st *ps, struct ring *rg)
{
	struct perf_event_mmap_page *mp = rg->map;
	uint64_t head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE), tail = mp->data_tail;
	const char *data = (const char *)rg->map + mp->data_offset;
	uint64_t size = mp->data_size;
	while (tail + sizeof(struct perf_event_header) <= head) {
		struct perf_event_header h;
		for (size_t i = 0; i < sizeof h; i++)
			((char *)&h)[i] = data[(tail + i) % size];
		if (h.size < sizeof h || tail + h.size > head)
			break;
		grow(&ps->buf, &ps->bufcap, ps->buflen + h.size, 1);
		uint64_t at = tail % size, first = size - at < h.size ? size - at : h.size;
		memcpy(ps->buf + ps->buflen, data + at, first);
		memcpy(ps->buf + ps->buflen + first, data, h.size - first);
		/* sample_id_all: every record but a sample ends with pid, tid,
		 * time; a sample's time follows its IP and TID */
		uint64_t time = 0;
		if (h.type == PERF_RECORD_SAMPLE && h.size >= sizeof h + 24)
			memcpy(&time, ps->buf + ps->buflen + sizeof h + 16, 8);
		else if (h.size >= sizeof h + 8)
			memcpy(&time, ps->buf + ps->buflen + h.size - 8, 8);
		grow(&ps->recs, &ps->caprecs, ps->nrecs + 1, sizeof *ps->recs);
		ps->recs[ps->nrecs++] = (struct rec){ time, ps->buflen };
		ps->buflen += h.size;
		tail += h.size;
	}
	__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
}

static int cmp_rec(const void *pa, const void *pb)
{
	const struct rec *a = pa, *b = pb;
	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->off < b->off ? -1 : a->off > b->off;
}

/* The thread tid of process pid, made if we had not seen it (a record
 * of it before its fork's, or a fork lost), with its process. */
static struct athread *thread_of(struct session *s, uint32_t pid, uint32_t tid)
{
	struct athread *t = sess_thread(s, tid);
	if (t && t->proc->pid == pid)
		return t;
	if (t)
		sess_thread_gone(s, t);
	struct aproc *p = sess_proc(s, pid);
	if (p == NULL) {
		long pp = proc_status_num(pid, "PPid");
		struct aproc *parent = pp > 0 ? sess_proc(s, (uint32_t)pp) : NULL;
		p = sess_proc_new(s, pid, pp > 0 ? (uint32_t)pp : 0, parent, parent ? PROC_COPY | PROC_FORKED : PROC_SCAN);
	}
	return sess_thread_new(s, p, tid);
}

static void on_sample(struct session *s, const char *r, const struct perf_event_header *h)
{
	struct perf_st *ps = s->mech;
	const char *end = r + h->size, *c = r + sizeof *h;
	uint64_t ip, time;
	uint32_t pid, tid;
	if (c + 24 > end)
		return;
	memcpy(&ip, c, 8);
	memcpy(&pid, c + 8, 4);
	memcpy(&tid, c + 12, 4);
	memcpy(&time, c + 16, 8);
	c += 24;
	uint64_t regs[ATTACH_REGS] = { 0 }, sp = 0;
	int have_regs = 0;
	const char *stack = NULL;
	uint64_t stack_len = 0;
	if (ps->attr.sample_type & PERF_SAMPLE_REGS_USER) {
		uint64_t abi;
		if (c + 8 > end)
			return;
		memcpy(&abi, c, 8);
		c += 8;
		if (abi != PERF_SAMPLE_REGS_ABI_NONE) {
			if (c + 8 * (size_t)ps->regs_n > end)
				return;
			uint64_t v[64];
			memcpy(v, c, 8 * (size_t)ps->regs_n);
			c += 8 * (size_t)ps->regs_n;
			if (s->o.stack_bytes) {
				for (int i = 0; i < ps->regs_n && i < ATTACH_REGS; i++)
					regs[dwarf_of[i]] = v[i];
				sp = regs[ATTACH_SP];
			} else {
				regs[ATTACH_REGS - 1] = v[PC_IN_PC_MASK];
				sp = v[SP_IN_PC_MASK];
			}
			have_regs = 1;
		}
	}
	if (ps->attr.sample_type & PERF_SAMPLE_STACK_USER) {
		uint64_t size;
		if (c + 8 > end)
			return;
		memcpy(&size, c, 8);
		c += 8;
		if (size) {
			if (size > (uint64_t)(end - c) || (uint64_t)(end - c) - size < 8)
				return;
			stack = c;
			memcpy(&stack_len, c + size, 8);
			if (stack_len > size)
				stack_len = size;
		}
	}
	/* a sample in the kernel: charged where the thread returns to user
	 * mode (its user registers' PC) */
	if ((h->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL) {
		if (!have_regs || regs[ATTACH_REGS - 1] == 0)
			return;
		ip = regs[ATTACH_REGS - 1];
	}
	struct athread *t = thread_of(s, pid, tid);
	sess_sample(s, t, ip, 1, time, s->o.stack_bytes && have_regs ? regs : NULL, sp, stack,
		    (uint32_t)(s->o.stack_bytes ? stack_len : 0));
}

/* A record of the task events (fork, exit, comm) and mappings. */
static void on_record(struct session *s, const struct rec *rc)
{
	struct perf_st *ps = s->mech;
	const char *r = ps->buf + rc->off;
	struct perf_event_header h;
	memcpy(&h, r, sizeof h);
	const char *c = r + sizeof h, *end = r + h.size;
	uint32_t u[4];
	switch (h.type) {
	case PERF_RECORD_SAMPLE:
		on_sample(s, r, &h);
		break;
	case PERF_RECORD_LOST: {
		uint64_t lost[2];
		if (c + 16 + 16 > end)
			break;
		memcpy(lost, c, 16);
		memcpy(u, end - 16, 8);    /* sample_id: pid, tid, time */
		s->res.lost += lost[1];
		struct aproc *p = sess_proc(s, u[0]);
		if (p)
			pbuild_dropped(sess_gen_at(p, rc->time)->b, lost[1]);
		break;
	}
	case PERF_RECORD_FORK:
		if (c + 16 > end)
			break;
		memcpy(u, c, 16);          /* pid, ppid, tid, ptid */
		if (sess_thread(s, u[2]))
			break;
		if (u[0] == u[1]) {
			struct aproc *p = sess_proc(s, u[0]);
			if (p) {
				struct athread *t = sess_thread_new(s, p, u[2]);
				struct athread *parent = sess_thread(s, u[3]);
				if (parent && t->name[0] == '?')
					memcpy(t->name, parent->name, sizeof t->name);
			}
		} else {
			struct aproc *parent = sess_proc(s, u[1]);
			struct aproc *p = sess_proc_new(s, u[0], u[1], parent, (parent ? PROC_COPY : PROC_SCAN) | PROC_FORKED);
			sess_thread_new(s, p, u[2]);
		}
		break;
	case PERF_RECORD_EXIT: {
		if (c + 16 > end)
			break;
		memcpy(u, c, 16);
		struct athread *t = sess_thread(s, u[2]);
		if (t) {
			struct aproc *p = t->proc;
			sess_thread_gone(s, t);
			if (p->nthreads_alive == 0)
				sess_proc_gone(s, p, rc->time);
		}
		break;
	}
	case PERF_RECORD_COMM: {
		if (c + 8 > end)
			break;
		memcpy(u, c, 8);
		struct athread *t = thread_of(s, u[0], u[1]);
		size_t n = strnlen(c + 8, (size_t)(end - c - 8));
		memset(t->name, 0, sizeof t->name);
		memcpy(t->name, c + 8, n < 15 ? n : 15);
		if (h.misc & PERF_RECORD_MISC_COMM_EXEC) {
			struct aproc *p = t->proc;
			/* the other threads are gone with the old program */
			for (size_t i = 0; i < s->nthreads; i++)
				if (s->threads[i]->proc == p && s->threads[i] != t)
					sess_thread_gone(s, s->threads[i]);
			sess_exec(s, p, rc->time, 0);
		}
		break;
	}
	case PERF_RECORD_MMAP2: {
		uint64_t v[3];
		if (c + 8 + 24 + 24 + 8 > end)
			break;
		memcpy(u, c, 8);
		memcpy(v, c + 8, 24);      /* addr, len, pgoff */
		const char *id = c + 32;
		uint32_t prot;
		memcpy(&prot, c + 56, 4);
		const char *name = c + 64;
		size_t nlen = strnlen(name, (size_t)(end - name));
		if (nlen == (size_t)(end - name) || !(prot & 4 /* PROT_EXEC */))
			break;
		struct aproc *p = sess_proc(s, u[0]);
		if (p == NULL)
			break;
		struct agen *g = sess_gen_at(p, rc->time);
		uint8_t bid[PCT_BUILD_ID_MAX];
		size_t bl = 0;
		if (h.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			bl = (uint8_t)id[0];
			if (bl > 20)
				bl = 0;
			memcpy(bid, id + 4, bl);
		}
		uint64_t start = v[0], stop = v[0] + v[1];
		if (pbuild_module_find(g->b, start) != PBUILD_NO_MODULE) {
			const struct pct_module *m = pbuild_module_rec(g->b, pbuild_module_find(g->b, start), NULL);
			if (m->start == start && m->end == stop && m->file_offset == v[2])
				break;
		}
		/* an older module under this range is gone */
		for (uint32_t m; (m = pbuild_module_find(g->b, start)) != PBUILD_NO_MODULE;)
			pbuild_unmap(g->b, m);
		int kind = strcmp(name, "[vdso]") == 0 ? PCT_MOD_VDSO : name[0] == '/' ? PCT_MOD_FILE : PCT_MOD_ANON;
		if (kind == PCT_MOD_FILE && pbuild_modules(g->b) == 0)
			kind = PCT_MOD_MAIN;   /* an exec's first mapping is its program */
		pbuild_module(g->b, start, stop, v[2], name, kind, bid, bl);
		break;
	}
	default:
		break;
	}
}

/* Drain every ring and handle what they held, in time order. */
static void drain(struct session *s)
{
	struct perf_st *ps = s->mech;
	ps->buflen = 0;
	ps->nrecs = 0;
	for (size_t i = 0; i < ps->nrings; i++)
		drain_ring(ps, &ps->rings[i]);
	sort(ps->recs, ps->nrecs, sizeof *ps->recs, cmp_rec);
	for (size_t i = 0; i < ps->nrecs; i++)
		on_record(s, &ps->recs[i]);
}

/* The threads of pid not known yet, opened (those created before their
 * creator's event was: inherited ones show up as fork records). */
static void open_new_threads(struct session *s, struct aproc *p)
{
	for (int round = 0; round < 20; round++) {
		uint32_t *tids;
		long n = proc_tids(p->pid, &tids);
		int fresh = 0;
		for (long i = 0; i < n; i++)
			fresh |= sess_thread(s, tids[i]) == NULL;
		if (fresh) {
			/* a thread made by one we opened already has its event
			 * (inherited); its fork record may trail its /proc entry */
			struct timespec ts = { 0, 2000000 };
			nanosleep(&ts, NULL);
			drain(s);
		}
		int opened = 0;
		for (long i = 0; i < n; i++) {
			if (sess_thread(s, tids[i]))
				continue;
			struct athread *t = sess_thread_new(s, p, tids[i]);
			if (open_thread(s, t, 0) != 0)
				sess_thread_gone(s, t);
			else
				opened = 1;
		}
		free(tids);
		if (!opened)
			return;
	}
}

static int perf_start(struct session *s)
{
	struct perf_st *ps = xcalloc(1, sizeof *ps);
	s->mech = ps;
	ps->sigfd = -1;
	/* the CPUs events can be opened on: those the kernel says are
	 * possible (an offline one refuses its event) */
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	ps->ncpus = ncpu > 0 && ncpu < 65536 ? (int)ncpu : 1;
	ps->cpu_ok = xcalloc((size_t)ps->ncpus, 1);
	for (int c = 0; c < ps->ncpus; c++)
		ps->cpu_ok[c] = 1;
	/* an event per thread and CPU: as many descriptors as the hard limit
	 * allows (pct's own, never the target's) */
	struct rlimit nofile;
	if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur < nofile.rlim_max) {
		nofile.rlim_cur = nofile.rlim_max;
		setrlimit(RLIMIT_NOFILE, &nofile);
	}
	ps->data_pages = s->o.stack_bytes ? 128 : 16;
	make_attr(&ps->attr, &s->o, s->o.user_only, ps->data_pages * (size_t)sysconf(_SC_PAGESIZE));
	ps->regs_n = __builtin_popcountll(ps->attr.sample_regs_user);
	sigset_t chld;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	ps->sigfd = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
	if (s->cmd_pid) {
		struct aproc *p = sess_proc_new(s, (uint32_t)s->cmd_pid, (uint32_t)getpid(), NULL, PROC_EMPTY);
		struct athread *t = sess_thread_new(s, p, (uint32_t)s->cmd_pid);
		if (open_thread(s, t, 1) != 0) {
			snprintf(s->err, sizeof s->err, "cannot open a perf event on the command: %s", strerror(errno));
			return -1;
		}
		return sess_release_command(s);
	}
	for (size_t i = 0; i < s->o.npids; i++) {
		uint32_t pid = s->o.pids[i];
		long pp = proc_status_num(pid, "PPid");
		struct aproc *p = sess_proc_new(s, pid, pp > 0 ? (uint32_t)pp : 0, NULL, PROC_SCAN);
		uint32_t *tids;
		long n = proc_tids(pid, &tids);
		if (n <= 0) {
			snprintf(s->err, sizeof s->err, "process %u has ended", pid);
			free(tids);
			return -1;
		}
		int any = 0, err = 0;
		for (long k = 0; k < n; k++) {
			struct athread *t = sess_thread_new(s, p, tids[k]);
			if (open_thread(s, t, 0) != 0) {
				err = errno;
				sess_thread_gone(s, t);
			} else {
				any = 1;
			}
		}
		free(tids);
		if (!any) {
			snprintf(s->err, sizeof s->err, "cannot open a perf event on process %u: %s", pid,
				 strerror(err));
			return -1;
		}
		open_new_threads(s, p);
	}
	return 0;
}

/* With a command: has it ended?  Then reap it (its rusage). */
static void check_command(struct session *s)
{
	if (!s->cmd_pid || s->cmd_done)
		return;
	siginfo_t si;
	memset(&si, 0, sizeof si);
	if (waitid(P_PID, (id_t)s->cmd_pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0 || si.si_pid != s->cmd_pid)
		return;
	drain(s);
	if (s->unfwd)
		s->unfwd();
	while (wait4(s->cmd_pid, &s->res.status, 0, &s->res.ru) < 0 && errno == EINTR)
		;
	s->cmd_done = 1;
	struct aproc *p = sess_proc(s, (uint32_t)s->cmd_pid);
	if (p)
		sess_proc_gone(s, p, mono_now());
}

static void perf_step(struct session *s, uint64_t until)
{
	struct perf_st *ps = s->mech;
	if (ps->pfd_stale) {
		ps->npfd = 0;
		for (size_t i = 0; i < ps->nrings; i++) {
			grow(&ps->pfd, &ps->cappfd, ps->npfd + 1, sizeof *ps->pfd);
			ps->pfd[ps->npfd++] = (struct pollfd){ .fd = ps->rings[i].fd, .events = POLLIN };
		}
		ps->pfd_stale = 0;
	}
	grow(&ps->pfd, &ps->cappfd, ps->npfd + 2, sizeof *ps->pfd);
	ps->pfd[ps->npfd] = (struct pollfd){ .fd = s->wake_fd, .events = POLLIN };
	ps->pfd[ps->npfd + 1] = (struct pollfd){ .fd = ps->sigfd, .events = POLLIN };
	uint64_t now = mono_now();
	int ms = until > now ? (int)((until - now + 999999) / 1000000) : 0;
	poll(ps->pfd, ps->npfd + 2, ms);
	if (ps->pfd[ps->npfd + 1].revents) {
		struct signalfd_siginfo si;
		while (read(ps->sigfd, &si, sizeof si) == (ssize_t)sizeof si)
			;
	}
	drain(s);
	check_command(s);
}

static void perf_stop(struct session *s)
{
	struct perf_st *ps = s->mech;
	for (size_t i = 0; i < s->nthreads; i++)
		for (int k = 0; k < s->threads[i]->nfds; k++)
			ioctl(s->threads[i]->fds[k], PERF_EVENT_IOC_DISABLE, 0);
	drain(s);
	for (size_t i = 0; i < s->nthreads; i++)
		close_thread(s->threads[i]);
	for (size_t i = 0; i < ps->nrings; i++) {
		munmap(ps->rings[i].map, ps->rings[i].len);
		/* its fd was a thread's, closed above */
	}
	if (ps->sigfd >= 0)
		close(ps->sigfd);
	free(ps->rings);
	free(ps->cpu_ok);
	free(ps->pfd);
	free(ps->buf);
	free(ps->recs);
	free(ps);
	s->mech = NULL;
}

const struct mech_ops mech_perf = { perf_start, perf_step, perf_stop };
