/*
 * output.c - the profile file: prepared at start, created at the first
 * sample, finished at exit.
 *
 * At start (rt_output_prepare) the header, module table and string pool
 * are built in anonymous memory, and the final and temporary names are
 * computed.  The file itself is created by the signal handler when the
 * first sample arrives (rt_output_create), with open, ftruncate, mmap,
 * link and unlink only: creating a file costs most of a millisecond on
 * some file systems, and a process that never uses a full sampling period
 * of CPU (a shell helper, /bin/true) then pays nothing and leaves no empty
 * file behind.
 *
 * No run's data is ever lost to another process: the runtime never
 * overwrites or appends to an existing file.  The complete header is
 * written to an unnamed file (O_TMPFILE) in the target directory first, so
 * that a process killed meanwhile leaves nothing, or to a named temporary
 * where the file system lacks O_TMPFILE; it is then hard-linked to the
 * final name (linkat through /proc/self/fd); link(2) fails with EEXIST rather
 * than replace anything, so the file under its final name always has a
 * valid header.  If the name is taken, the runtime uses "NAME.PID.pct"
 * (or "NAME.PID.K.pct" if even that exists), which no live process shares.
 * A symbolic link planted under either name is never followed: link(2)
 * does not follow it, and the temporary file is opened with O_EXCL |
 * O_NOFOLLOW.
 *
 * A full disk or an exhausted quota must be a warning, never a SIGBUS in
 * the profiled program, which is what a first write to a page of a shared
 * file mapping raises when the file system has no block for it.  So every
 * page is reserved before the runtime first touches it (rt_reserve in
 * runtime.h), with madvise(MADV_POPULATE_WRITE) (Linux 5.14), which
 * returns an error where that write would raise SIGBUS; a page that
 * cannot be reserved costs the sample (counted as dropped) instead.
 * Reserving only the pages in use matters on tmpfs, where reserving the
 * whole file (fallocate) allocates and clears every page: 2 ms for the
 * default 6.5 MB table, against a few pages for a short process.  On a
 * kernel without MADV_POPULATE_WRITE the whole file is reserved when it is
 * created (reserve()).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "arch.h"
#include "runtime.h"

/* Linux 5.14's value (linux/mman.h); libcs older than the kernel (musl 1.2.3)
 * lack the name, and such a kernel answers EINVAL, handled below */
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

static struct {
	/* The address range the file will be mapped at, reserved when the
	 * profile is prepared (PROT_NONE, MAP_NORESERVE), with the staging
	 * copy of everything before the table at its start: the file is
	 * then mapped over it with MAP_FIXED, so that it never lands in a
	 * hole the program found free since and means to map itself (JITs,
	 * GCs and emulators reserve address space so). */
	char *base;
	uint64_t base_size;            /* bytes reserved at base */
	uint64_t staging_size;         /* bytes of staging at base, read-write */
	atomic_flag lock;              /* held while creating */
	_Atomic int failed;
	_Atomic int lost;              /* the file was truncated under the mapping (rt_output_fault) */
	int shrunk;                    /* fit_limits made the file smaller */
	unsigned first_k;              /* 1: never take the name itself (nth_name) */
	struct stat st;                /* the file as created: trim_stacks reopens it by name */
	void *bits;                    /* the page bitmap for rt_g.reserved, made with the range */
	uint64_t reserved_size;        /* bytes of the bitmap mapping */
	_Atomic int full_warned;
	char pid[24];                  /* decimal, for fallback names */
	char final[PCT_PATH_MAX + 1];  /* the expanded $PCT */
	char dir[PCT_PATH_MAX + 1];    /* DIR, or "." */
	char tmp[PCT_PATH_MAX + 64];   /* DIR/.pct-tmp.PID, where O_TMPFILE is not supported */
} out = { .lock = ATOMIC_FLAG_INIT };

static int64_t realtime_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void header_init(struct pct_header *h, unsigned slots_log2)
{
	const struct pct_event_def *cpu = pct_event_by_id(PCT_EVENT_CPU);
	struct pct_layout lay;
	uint64_t stacks_size = rt_g.stack_bytes ? (uint64_t)rt_g.stack_area_mb << 20 : 0;
	uint64_t ticks_max = ((uint64_t)rt_g.time_area_kb << 10) / sizeof(struct pct_tick);
	uint32_t buckets = ticks_max ? UINT32_C(1) << RT_BUCKETS_LOG2 : 0;

	/* the runtime's sizes are constants of runtime.h and $PCT_SLOTS,
	 * $PCT_STACK_AREA and $PCT_TIME_AREA are bounded (pct_on.c): no
	 * overflow */
	pct_layout(&lay, RT_MODULES_MAX, RT_STRINGS_SIZE, UINT64_C(1) << RT_THREADS_LOG2, UINT64_C(1) << slots_log2,
		   stacks_size, ticks_max, buckets);
	memcpy(h->magic, PCT_MAGIC, PCT_MAGIC_LEN);
	h->version = PCT_VERSION;
	h->byte_order = PCT_BYTE_ORDER;
	h->header_size = sizeof *h;
	h->state = PCT_STATE_RUNNING;
	h->mechanism = PCT_MECH_CPU_TIMER;  /* until the method is chosen (method.c) */
	h->event = cpu->event;
	h->pid = (uint32_t)getpid();
	h->ppid = (uint32_t)getppid();
	h->session = rt_g.cfg.session;
	memcpy(h->dimension, cpu->dimension, strlen(cpu->dimension) + 1);
	h->dimension_abbrev = cpu->dimension_abbrev;
	h->start_time_ns = realtime_ns();
	h->strings_offset = lay.strings_offset;
	h->strings_size = RT_STRINGS_SIZE;
	h->modules_offset = lay.modules_offset;
	h->module_size = sizeof(struct pct_module);
	h->modules_max = RT_MODULES_MAX;
	h->threads_offset = lay.threads_offset;
	h->threads_max = UINT32_C(1) << RT_THREADS_LOG2;
	h->thread_size = sizeof(struct pct_thread);
	h->table_offset = lay.table_offset;
	h->table_slots = UINT64_C(1) << slots_log2;
	h->entry_size = sizeof(struct pct_entry);
	h->exe_module = UINT32_MAX;
	h->file_size = lay.file_size;
	if (ticks_max) {
		h->ticks_offset = lay.ticks_offset;
		h->ticks_max = ticks_max;
		h->buckets_offset = lay.buckets_offset;
		h->buckets_slots = buckets;
		h->bucket_ms = RT_BUCKET_MS;
	}
	if (stacks_size) {
		h->stacks_offset = lay.stacks_offset;
		h->stacks_size = stacks_size;
		h->stack_machine = ARCH_STACK_MACHINE;
		h->stack_regs = ARCH_STACK_REGS;
		h->stack_bytes_max = rt_g.stack_bytes;
	}
}

/* The private copy of what the runtime relies on (runtime.h), from the
 * header it is about to write. */
static void ledger_init(const struct pct_header *h)
{
	struct rt_ledger *l = &rt_g.led;
	memset(l, 0, sizeof *l);
	l->pid = h->pid;
	l->file_size = h->file_size;
	l->modules_offset = h->modules_offset;
	l->strings_offset = h->strings_offset;
	l->threads_offset = h->threads_offset;
	l->table_offset = h->table_offset;
	l->stacks_offset = h->stacks_offset;
	l->ticks_offset = h->ticks_offset;
	l->ticks_max = h->ticks_max;
	l->buckets_offset = h->buckets_offset;
	l->buckets_slots = h->buckets_slots;
	l->modules_max = h->modules_max;
	l->exe_module = h->exe_module;
	l->strings_size = h->strings_size;
	l->threads_max = h->threads_max;
	l->stacks_size = h->stacks_size;
}

/*
 * async-signal-safe, with module_lock held (the pool's other writer): the
 * command line the process shows now (/proc/self/cmdline, which a program
 * may rewrite: postgres's backends set their title after fork), read into
 * the string pool after what is used (the file's pages reserved first when
 * in_file); if it differs from the header's, the header names it.
 */
static void cmdline_refresh(int in_file)
{
	struct pct_header *h = rt_g.hdr;
	struct rt_ledger *l = &rt_g.led;
	uint64_t room = l->strings_size - l->strings_used;
	size_t cap = room < RT_CMDLINE_MAX ? (size_t)room : RT_CMDLINE_MAX, n = 0;
	char *dst = rt_g.strings + l->strings_used;
	if (cap == 0 || (in_file && rt_reserve(dst, cap) != 0))
		return;
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	ssize_t r;
	while (fd >= 0 && n < cap && ((r = read(fd, dst + n, cap - n)) > 0 || (r < 0 && errno == EINTR)))
		n += r > 0 ? (size_t)r : 0;
	if (fd >= 0)
		close(fd);
	while (n > 0 && dst[n - 1] != '\0')  /* cut a partial argument */
		n--;
	/* compared with the pool's copy where the ledger says it is: the
	 * header's fields are the file's, which anyone who can write it may
	 * have changed (and the pool's bytes too: a mismatch costs a copy) */
	if (n == 0 || (n == l->cmdline_len && memcmp(dst, rt_g.strings + l->cmdline_offset, n) == 0))
		return;
	l->strings_used += n;
	rt_store_relaxed(rt_shared(&h->strings_used), l->strings_used);
	l->cmdline_offset = l->strings_used - n;
	l->cmdline_len = (uint32_t)n;
	h->cmdline_offset = l->cmdline_offset;
	h->cmdline_len = l->cmdline_len;
}

/* Store the command line (rt_cmdline) in the string pool, NUL separated. */
static void store_cmdline(void)
{
	struct pct_header *h = rt_g.hdr;
	size_t n;
	const char *line = rt_cmdline(&n);
	memcpy(rt_g.strings + rt_g.led.strings_used, line, n);
	rt_g.led.cmdline_offset = h->cmdline_offset = rt_g.led.strings_used;
	rt_g.led.cmdline_len = h->cmdline_len = (uint32_t)n;
	rt_g.led.strings_used += n;
	h->strings_used = rt_g.led.strings_used;
}

static void point_into(void *base)
{
	rt_g.hdr = base;
	rt_g.modules = (struct pct_module *)((char *)base + rt_g.led.modules_offset);
	rt_g.strings = (char *)base + rt_g.led.strings_offset;
	rt_g.threads = (struct pct_thread *)((char *)base + rt_g.led.threads_offset);
}

/*
 * async-signal-safe: the most bytes the file may have without harming the
 * program: below RLIMIT_FSIZE (past it ftruncate would raise SIGXFSZ, which
 * kills), and leaving the program max(64 MiB, a quarter of RLIMIT_AS) of
 * its address space, of which pct's own range (out.base_size, in VmSize)
 * is not the program's.  UINT64_MAX without limits.
 */
static uint64_t room_for_file(void)
{
	struct rlimit rl;
	uint64_t room = UINT64_MAX, vm_kb, unused;
	if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		room = rl.rlim_cur;
	if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
		uint64_t keep = rl.rlim_cur / 4 > RT_AS_HEADROOM ? rl.rlim_cur / 4 : RT_AS_HEADROOM;
		if (rt_status_field("VmSize", &vm_kb, &unused) != 0)
			return 0;
		uint64_t mine = out.base ? out.base_size + out.reserved_size : 0;
		uint64_t used = (vm_kb * 1024 > mine ? vm_kb * 1024 - mine : 0) + keep;
		uint64_t as_room = used < rl.rlim_cur ? rl.rlim_cur - used : 0;
		room = as_room < room ? as_room : room;
	}
	return room;
}

/* async-signal-safe: the file's size with the ledger's modules, pool,
 * threads and buckets, 2^slots_log2 table slots, a tick log of ticks
 * records and a stack region of stacks bytes (0: none), and where the
 * regions start (pct_layout); UINT64_MAX if it would pass 2^64 bytes. */
static uint64_t layout_size(unsigned slots_log2, uint64_t ticks, uint32_t buckets, uint64_t stacks,
			    struct pct_layout *lay)
{
	const struct rt_ledger *l = &rt_g.led;
	int bad = pct_layout(lay, l->modules_max, l->strings_size, l->threads_max, UINT64_C(1) << slots_log2, stacks,
			     ticks, ticks ? buckets : 0);
	return bad ? UINT64_MAX : lay->file_size;
}

static int fit_limits(struct pct_header *h);

/* Let go of the reserved range and the page bitmap. */
static void range_free(void)
{
	if (out.base)
		munmap(out.base, out.base_size);
	if (out.bits)
		munmap(out.bits, out.reserved_size);
	out.base = NULL;
	out.bits = NULL;
	out.base_size = out.reserved_size = 0;
}

/*
 * Reserve the file's address range (size bytes), with its first staging
 * bytes read-write, and the page bitmap (rt_g.reserved) for it.  0, or -1.
 */
static int range_reserve(uint64_t size, uint64_t staging)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned shift = 12;
	while ((1L << shift) < page)
		shift++;
	void *p = mmap(NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	out.base = p;
	out.base_size = size;
	uint64_t pages = (size + (UINT64_C(1) << shift) - 1) >> shift;
	out.reserved_size = ((pages + 63) / 64) * 8;
	void *bits = mmap(NULL, out.reserved_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
			  -1, 0);
	out.bits = bits == MAP_FAILED ? NULL : bits;
	if (out.bits == NULL)
		out.reserved_size = 0;
	rt_g.reserve_shift = shift;
	if (mprotect(p, staging, PROT_READ | PROT_WRITE) != 0) {
		range_free();
		return -1;
	}
	rt_mapped(p, size);
	if (out.bits)
		rt_mapped(out.bits, out.reserved_size);
	return 0;
}

/*
 * Build the header, module table and string pool in memory for a file to
 * be named name, in the address range the file will have (fitted to the
 * program's limits now; again when it is created).  Returns 0, or -1
 * after one warning.
 */
int rt_output_prepare(const char *name, unsigned slots_log2, int derived)
{
	struct pct_header h;
	const char *slash = strrchr(name, '/');
	int dirlen = slash ? (int)(slash - name + 1) : 0;

	memset(&h, 0, sizeof h);
	header_init(&h, slots_log2);
	if (strlen(name) > PCT_PATH_MAX - 32 ||
	    snprintf(out.tmp, sizeof out.tmp, "%.*s" PCT_TMP_INFIX "%d", dirlen, name, (int)getpid()) >=
		    (int)sizeof out.tmp) {
		rt_warn("output name too long", name, 0);
		return -1;
	}
	strcpy(out.final, name);
	snprintf(out.dir, sizeof out.dir, "%.*s", dirlen ? dirlen : 1, dirlen ? name : ".");
	out.first_k = derived ? 1 : 0;
	snprintf(out.pid, sizeof out.pid, "%d", (int)getpid());
	ledger_init(&h);
	rt_g.slots_mask = h.table_slots - 1;
	rt_g.slots_limit = h.table_slots - h.table_slots / 8;
	rt_g.slots_shift = 64 - slots_log2;
	rt_store(&rt_g.table_ready, 0);
	rt_store(&out.failed, 0);
	rt_store(&out.lost, 0);
	out.shrunk = 0;
	rt_g.table = NULL;
	rt_g.stacks = NULL;
	rt_g.ticks = NULL;
	rt_g.buckets = NULL;
	rt_g.hdr = NULL;
	if (fit_limits(&h) != 0) {
		rt_warn("the file size or address space limit leaves no room for the profile", name, 0);
		return -1;
	}
	out.staging_size = h.table_offset;
	if (range_reserve(h.file_size, out.staging_size) != 0) {
		rt_warn("cannot reserve address space for the profile", name, errno);
		return -1;
	}
	memcpy(out.base, &h, sizeof h);
	point_into(out.base);
	store_cmdline();
	return 0;
}

/*
 * async-signal-safe: make the prepared file (header h, and the ledger) fit
 * the program's limits (room_for_file) before it exists: a smaller tick
 * log first, then a smaller bucket table, a smaller stack region, and
 * fewer table slots, down to RT_MIN_TIME_AREA, RT_MIN_BUCKETS_LOG2,
 * RT_MIN_STACK_AREA and RT_MIN_SLOTS_LOG2.  The table is not in use yet,
 * so its size may still change, and it only shrinks: the file always fits
 * the range reserved for it.  0 (with one note if it shrank), or -1 if
 * even the smallest file does not fit.
 */
static int fit_limits(struct pct_header *h)
{
	struct rt_ledger *l = &rt_g.led;
	uint64_t room = room_for_file();
	if (l->file_size <= room)
		return 0;
	unsigned log2 = 64 - rt_g.slots_shift;
	const uint64_t min_ticks = RT_MIN_TIME_AREA / sizeof(struct pct_tick);
	uint64_t stacks = l->stacks_size, ticks = l->ticks_max, size;
	uint32_t buckets = l->buckets_slots;
	struct pct_layout lay;
	while ((size = layout_size(log2, ticks, buckets, stacks, &lay)) > room) {
		if (buckets > UINT32_C(1) << RT_MIN_BUCKETS_LOG2 && ticks <= min_ticks) {
			buckets /= 4;
		} else if (ticks > min_ticks) {
			uint64_t over = size - room, bytes = ticks * sizeof(struct pct_tick);
			ticks = bytes > over + RT_MIN_TIME_AREA ? (bytes - over) / sizeof(struct pct_tick) : min_ticks;
			ticks &= ~(uint64_t)(PCT_PAGE / sizeof(struct pct_tick) - 1);
			if (ticks < min_ticks)
				ticks = min_ticks;
		} else if (stacks > RT_MIN_STACK_AREA) {
			stacks = lay.stacks_offset < room && room - lay.stacks_offset > RT_MIN_STACK_AREA ?
					 (room - lay.stacks_offset) & ~(uint64_t)(PCT_PAGE - 1) : RT_MIN_STACK_AREA;
			if (stacks > l->stacks_size)
				stacks = l->stacks_size;
		} else if (log2 > RT_MIN_SLOTS_LOG2) {
			log2--;
		} else {
			return -1;
		}
	}
	if (stacks && room - size >= PCT_PAGE) {  /* give the stacks what fewer slots freed */
		uint64_t more = (room - size) & ~(uint64_t)(PCT_PAGE - 1);
		stacks = stacks + more < l->stacks_size ? stacks + more : l->stacks_size;
		size = layout_size(log2, ticks, buckets, stacks, &lay);
	}
	h->table_slots = UINT64_C(1) << log2;
	h->ticks_offset = lay.ticks_offset;
	h->ticks_max = ticks;
	h->buckets_offset = lay.buckets_offset;
	h->buckets_slots = buckets;
	h->stacks_offset = lay.stacks_offset;
	h->stacks_size = stacks;
	h->file_size = size;
	l->ticks_offset = lay.ticks_offset;
	l->ticks_max = ticks;
	l->buckets_offset = lay.buckets_offset;
	l->buckets_slots = buckets;
	l->stacks_offset = lay.stacks_offset;
	l->stacks_size = stacks;
	l->file_size = size;
	rt_g.slots_mask = h->table_slots - 1;
	rt_g.slots_limit = h->table_slots - h->table_slots / 8;
	rt_g.slots_shift = 64 - log2;
	out.shrunk = 1;  /* said when the file is created: a process that never samples says nothing */
	return 0;
}

/*
 * async-signal-safe: remove the named temporaries (DIR/.pct-tmp.PID, made
 * where the file system lacks O_TMPFILE) that processes killed while
 * creating their file left in the directory: only regular files of ours
 * whose process is gone.
 */
static void remove_stale_temporaries(void)
{
	char dents[2048];
	long got;
	int dirfd = open(out.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return;
	uint32_t me = rt_getpid();
	while ((got = syscall(SYS_getdents64, dirfd, dents, sizeof dents)) > 0)
		for (long off = 0; off < got;) {
			struct { uint64_t ino; int64_t off; unsigned short reclen; unsigned char type; char name[]; }
				*d = (void *)(dents + off);
			off += d->reclen;
			size_t infix = sizeof PCT_TMP_INFIX - 1;
			if (strncmp(d->name, PCT_TMP_INFIX, infix) != 0 || d->name[infix] == '\0')
				continue;
			uint64_t pid = 0;
			const char *c = d->name + infix;
			for (; *c >= '0' && *c <= '9' && pid < UINT32_MAX; c++)
				pid = pid * 10 + (uint64_t)(*c - '0');
			struct stat st;
			if (*c || pid == 0 || pid >= UINT32_MAX || pid == me ||
			    fstatat(dirfd, d->name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) ||
			    st.st_uid != geteuid())
				continue;
			if (kill((pid_t)pid, 0) != 0 && errno == ESRCH)
				unlinkat(dirfd, d->name, 0);
		}
	close(dirfd);
}

/*
 * async-signal-safe: give the file all its blocks now.  A shared mapping
 * of a sparse file raises SIGBUS in the program when a page is first
 * written and the disk is full; reserving the space up front turns that
 * into an error here, before anything is mapped.
 */
static int reserve(int fd, uint64_t size)
{
	static const char zeros[4096];

	if (fallocate(fd, 0, 0, (off_t)size) == 0)
		return 0;
	if (errno != EOPNOTSUPP && errno != ENOSYS)
		return -1;
	/* a file system without fallocate: write the zeros ourselves */
	for (uint64_t off = 0; off < size;) {
		size_t n = size - off < sizeof zeros ? (size_t)(size - off) : sizeof zeros;
		ssize_t w = pwrite(fd, zeros, n, (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		off += (uint64_t)w;
	}
	return 0;
}

/* The error of a failed MADV_POPULATE_WRITE as the write would have met
 * it: EFAULT means the page fault would raise SIGBUS, which on a shared
 * file mapping is a file system without room.  Others (EPERM from a
 * seccomp filter, say) are themselves. */
static int populate_errno(int err)
{
	return err == EFAULT ? ENOSPC : err;
}

static void range_scrub(void);
static void range_keep(void);

/* async-signal-safe: the file was truncated under the mapping: the range
 * becomes pct's own zero memory and sampling stops, with one warning (a
 * thread that faults meanwhile runs its write again until this one is
 * done: the range is always mapped). */
static void lose_file(void)
{
	if (rt_xchg(&out.lost, 1))
		return;
	range_scrub();
	rt_sampling_disarm();
	rt_warn("another program truncated the profile; what it held is lost:", rt_g.path, 0);
}

/* async-signal-safe: is the file under its name shorter than the runtime
 * made it (truncated by another program)? */
static int file_truncated(void)
{
	struct stat st;
	return rt_g.path[0] && stat(rt_g.path, &st) == 0 && st.st_ino == out.st.st_ino && st.st_dev == out.st.st_dev &&
	       (uint64_t)st.st_size < rt_g.led.file_size;
}

/*
 * async-signal-safe: the slow path of rt_reserve (runtime.h), which has
 * checked that pages are reserved one by one and len > 0: reserve the
 * pages of the file mapping that hold [p, p + len) and are not reserved
 * yet.  Returns 0, or -1 (with one warning per process) if the file
 * system has no room for them.
 */
int rt_output_reserve(const void *p, size_t len)
{
	unsigned shift = rt_g.reserve_shift;
	uint64_t first = (uint64_t)((const char *)p - rt_g.reserve_base) >> shift;
	uint64_t last = (uint64_t)((const char *)p + len - 1 - rt_g.reserve_base) >> shift;

	for (uint64_t i = first; i <= last; i++) {
		if (rt_reserved_page(i))
			continue;
		uint64_t j = i;
		while (j < last && !rt_reserved_page(j + 1))
			j++;
		if (madvise(rt_g.reserve_base + (i << shift), (size_t)(j - i + 1) << shift,
			    MADV_POPULATE_WRITE) != 0) {
			if (errno == EFAULT && file_truncated()) {
				lose_file();
				return -1;
			}
			int err = populate_errno(errno);
			if (!rt_xchg(&out.full_warned, 1))
				rt_warn("no room to extend the profile; later samples that need more of it are "
					"dropped:", rt_g.path, err);
			return -1;
		}
		for (uint64_t k = i; k <= j; k++)
			rt_or_relaxed(&rt_g.reserved[k / 64], UINT64_C(1) << (k % 64));
		i = j;
	}
	return 0;
}

/*
 * async-signal-safe: get ready to reserve the file mapped at map (size
 * bytes) page by page: the bitmap made with the range, and the check that
 * this kernel has MADV_POPULATE_WRITE, on the header's page.  Returns 1 if
 * pages will be reserved as they are used, 0 if the whole file must be
 * reserved now (an older kernel, or no bitmap), -1 if there is no room
 * even for the header.
 */
static int reserve_lazily(char *map)
{
	unsigned shift = rt_g.reserve_shift;
	if (out.bits == NULL)
		return 0;
	if (madvise(map, (size_t)1 << shift, MADV_POPULATE_WRITE) != 0) {
		int err = populate_errno(errno);
		errno = err;
		return err == EINVAL ? 0 : -1;
	}
	rt_g.reserved = out.bits;
	rt_g.reserved[0] = 1;
	rt_g.reserve_base = map;
	return 1;
}

/* Forget the page bitmap of a file no longer ours (a forked child). */
static void reserve_forget(void)
{
	rt_g.reserved = NULL;
	rt_g.reserve_base = NULL;
	rt_g.reserve_all = 0;
	rt_store(&out.full_warned, 0);
}

/* async-signal-safe: append s to buf at *n, if it fits. */
static int put(char *buf, size_t cap, size_t *n, const char *s, size_t len)
{
	if (*n + len >= cap)
		return -1;
	memcpy(buf + *n, s, len);
	*n += len;
	buf[*n] = '\0';
	return 0;
}

/* async-signal-safe: the k-th name to try.  k = 0: NAME; k = 1: NAME.PID.pct;
 * k > 1: NAME.PID.(k-1).pct, where NAME loses a ".pct" suffix first. */
static int nth_name(char *buf, size_t cap, unsigned k)
{
	size_t len = strlen(out.final), n = 0;
	if (k == 0)
		return put(buf, cap, &n, out.final, len);
	if (len > 4 && memcmp(out.final + len - 4, ".pct", 4) == 0)
		len -= 4;
	char num[24], *s = rt_utoa(k - 1, num + sizeof num);
	if (put(buf, cap, &n, out.final, len) || put(buf, cap, &n, ".", 1) ||
	    put(buf, cap, &n, out.pid, strlen(out.pid)))
		return -1;
	if (k > 1 && (put(buf, cap, &n, ".", 1) || put(buf, cap, &n, s, (size_t)(num + sizeof num - s))))
		return -1;
	return put(buf, cap, &n, ".pct", 4);
}

/* async-signal-safe: give the O_TMPFILE file open at fd the name path,
 * through /proc/thread-self/fd/FD (linkat with AT_EMPTY_PATH needs
 * privilege; /proc/self/fd is gone once the main thread has exited). */
static int link_unnamed(int fd, const char *path)
{
	char proc[40] = "/proc/thread-self/fd/", digits[12];
	int n = 0, len = 21;
	do
		digits[n++] = (char)('0' + fd % 10);
	while ((fd /= 10) > 0);
	while (n > 0)
		proc[len++] = digits[--n];
	proc[len] = '\0';
	return linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW);
}

/* async-signal-safe: write len bytes of buf at off of fd; 0, or -1 with
 * errno. */
static int write_at(int fd, const void *buf, size_t len, uint64_t off)
{
	for (size_t done = 0; done < len;) {
		ssize_t w = pwrite(fd, (const char *)buf + done, len - done, (off_t)(off + done));
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = ENOSPC;
			return -1;
		}
		done += (size_t)w;
	}
	return 0;
}

/* async-signal-safe: make the whole reserved range plain zero memory of
 * pct's own (after a failed or lost file), so that any pointer into it
 * stays safe to use; the file, if mapped, is let go. */
static void range_scrub(void)
{
	/* read-write at once (other threads may be writing: PROT_NONE first
	 * would fault them), then unlocked and emptied, in case the program's
	 * mlockall(MCL_FUTURE) locked and filled it */
	if (out.base && mmap(out.base, out.base_size, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0) == out.base) {
		rt_mapped(out.base, out.base_size);
		madvise(out.base, out.base_size, MADV_DONTNEED);
	}
}

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000   /* Linux 4.17, asm-generic/mman-common.h */
#endif

/* async-signal-safe: the file's MAP_FIXED mapping over the range failed.
 * That may leave the range unmapped (span_map, threads.c): it is taken again,
 * without replacing anything; if another mapping took it meanwhile, the
 * range is the program's now and pct forgets it (never to touch it). */
static void range_keep(void)
{
	if (out.base == NULL)
		return;
	void *p = mmap(out.base, out.base_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
		       MAP_FIXED_NOREPLACE, -1, 0);
	if (p == out.base)
		return;
	if (p != MAP_FAILED)
		munmap(p, out.base_size);  /* a kernel before 4.17 took it as a hint */
	out.base = NULL;
	rt_g.hdr = NULL;
}

/*
 * async-signal-safe: create the file, copy the prepared part into it and
 * make the handler count into its table from now on.  A thread that finds
 * another one creating it waits for it (once per process, for about a
 * millisecond).  Returns 0 when the table is ready, or -1 if creation
 * failed (then with one warning, and sampling stops for good).
 */
int rt_output_create(void)
{
	uint64_t size = rt_g.led.file_size;
	void *map = MAP_FAILED;
	int fd = -1, err = 0;
	const char *step = "cannot create the profile";
	sigset_t old;

	/* No handler may run while this thread holds the locks: pct's would
	 * spin on them, and a program's that siglongjmps would leave them
	 * held for good. */
	rt_block_signals(&old);
	rt_lock(&out.lock);
	/* after a seccomp filter came (pct_on.c), no file is created: a
	 * last ring drain at exit would otherwise make the system calls the
	 * filter may kill */
	if (rt_load_acquire(&rt_g.table_ready) || rt_load(&out.failed) || rt_load(&rt_g.seccomp_warned)) {
		rt_unlock(&out.lock);
		rt_restore_signals(&old);
		return rt_load(&out.failed) || !rt_load_acquire(&rt_g.table_ready) ? -1 : 0;
	}
	/* The module table is appended to under module_lock; hold it too so
	 * that the copy below is complete. */
	rt_lock(&rt_g.module_lock);
	/* An unnamed file (O_TMPFILE) until it is complete, so that even a
	 * SIGKILL while creating it leaves nothing behind; a named temporary
	 * where the file system lacks O_TMPFILE.  Nobody else may write it
	 * whatever the umask, and with call stacks (copies of raw stack
	 * memory, which may hold secrets) nobody else may read it. */
	int named = 0;
	mode_t mode = rt_g.stack_bytes ? 0600 : 0644;
	if (fit_limits(rt_g.hdr) != 0) {
		err = EFBIG;
		step = "the file size or address space limit leaves no room for the profile";
		goto fail;
	}
	size = rt_g.led.file_size;
	if (out.shrunk)
		rt_say("the profile is made smaller to fit the file size or address space limit", out.final, 0,
		       "fewer distinct samples, sample times or call stacks fit in it");
	out.shrunk = 0;
	fd = open(out.dir, O_TMPFILE | O_RDWR | O_CLOEXEC, mode);
	if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
		named = 1;
		remove_stale_temporaries();
		fd = open(out.tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	}
	if (fd < 0 && named && errno == EEXIST) {
		/* left by a process of ours that died mid-create; ours by pid */
		unlink(out.tmp);
		fd = open(out.tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	}
	if (fd < 0) {
		err = errno;
		goto fail;
	}
	if (ftruncate(fd, (off_t)size) != 0) {
		err = errno;
		step = "cannot size the profile";
		goto fail;
	}
	/* the title the process shows now: a forked child's own (postgres) */
	cmdline_refresh(0);
	/* Copy only what is in use, and before the mapping replaces the
	 * staging copy: the rest of a new file reads as zeros, and every page
	 * written costs a block.  A full disk fails here, not with SIGBUS. */
	const struct rt_ledger *l = &rt_g.led;
	size_t modules_len = (size_t)rt_load(&rt_g.led.modules_count) * sizeof(struct pct_module);
	if (write_at(fd, out.base, sizeof(struct pct_header), 0) != 0 ||
	    write_at(fd, out.base + l->modules_offset, modules_len, l->modules_offset) != 0 ||
	    write_at(fd, out.base + l->strings_offset, l->strings_used, l->strings_offset) != 0) {
		err = errno;
		step = err == ENOSPC || err == EDQUOT ? "no room for the profile" : "cannot write the profile";
		goto fail;
	}
	/* Over the range reserved for it, and nowhere else; its tail, if
	 * the file shrank since, is given back. */
	/* Under the program's mlockall(MCL_FUTURE) (before pct_on or after)
	 * a new mapping is locked and filled at once: mapped PROT_NONE first,
	 * which the kernel does not fill, unlocked, then opened */
	map = mmap(out.base, size, PROT_NONE, MAP_SHARED | MAP_FIXED, fd, 0);
	if (map == MAP_FAILED) {
		err = errno;
		step = "cannot map the profile";
		range_keep();
		goto fail;
	}
	rt_mapped(map, size);
	if (mprotect(map, size, PROT_READ | PROT_WRITE) != 0) {
		err = errno;
		step = "cannot map the profile";
		goto fail;
	}
	if (out.base_size > size) {
		munmap(out.base + size, out.base_size - size);
		out.base_size = size;
	}
	/* The table is touched at random: without this, each first touch of a
	 * page reads ahead (zero-fills) a window of its neighbours. */
	madvise(map, size, MADV_RANDOM);
	int lazily = reserve_lazily(map);
	if (lazily < 0) {
		err = errno;
		step = err == ENOSPC || err == EDQUOT ? "no room for the profile" : "cannot reserve the profile's pages";
		goto fail;
	}
	if (lazily == 0) {
		if (reserve(fd, size) != 0) {
			err = errno;
			step = "cannot reserve disk space for the profile";
			goto fail;
		}
		rt_g.reserve_all = 1;
	}
	/* the pages written above hold blocks: noted as reserved */
	if (rt_reserve((char *)map + l->modules_offset, modules_len) != 0 ||
	    rt_reserve((char *)map + l->strings_offset, l->strings_used) != 0) {
		err = ENOSPC;
		step = "no room for the profile";
		goto fail;
	}

	err = EEXIST;
	for (unsigned k = out.first_k; k < 1000 && err == EEXIST; k++) {
		if (nth_name(rt_g.path, sizeof rt_g.path, k) != 0) {
			err = ENAMETOOLONG;
			break;
		}
		err = (named ? link(out.tmp, rt_g.path) : link_unnamed(fd, rt_g.path)) == 0 ? 0 : errno;
	}
	if (err)
		goto fail;
	if (named)
		unlink(out.tmp);
	if (fstat(fd, &out.st) != 0)
		memset(&out.st, 0, sizeof out.st);
	close(fd);  /* held by nothing but the mapping: the program's descriptors are its own */
	fd = -1;
	point_into(map);
	rt_g.table = (struct pct_entry *)((char *)map + l->table_offset);
	rt_g.stacks = l->stacks_offset ? (char *)map + l->stacks_offset : NULL;
	rt_g.ticks = l->ticks_offset ? (struct pct_tick *)((char *)map + l->ticks_offset) : NULL;
	rt_g.buckets = l->buckets_offset ? (struct pct_bucket *)((char *)map + l->buckets_offset) : NULL;
	rt_store_release(&rt_g.table_ready, 1);
	rt_unlock(&rt_g.module_lock);
	rt_unlock(&out.lock);
	rt_restore_signals(&old);
	return 0;
fail:
	rt_store(&out.failed, 1);
	rt_sampling_disarm();
	rt_warn(step, out.final, err);
	reserve_forget();
	range_scrub();
	if (fd >= 0)
		close(fd);
	if (named)
		unlink(out.tmp);
	rt_g.path[0] = '\0';
	rt_unlock(&rt_g.module_lock);
	rt_unlock(&out.lock);
	rt_restore_signals(&old);
	return -1;
}

/*
 * In a forked child: let go of the parent's file (shared with the parent,
 * which goes on writing it) without touching it, so that the child can
 * prepare a file of its own.
 */
void rt_output_abandon(void)
{
	reserve_forget();
	range_free();  /* the parent's file mapping, or its staging copy */
	rt_g.hdr = NULL;
	rt_g.table = NULL;
	rt_g.stacks = NULL;
	rt_g.ticks = NULL;
	rt_g.buckets = NULL;
	rt_store(&rt_g.table_ready, 0);
	rt_store(&out.failed, 0);
	rt_store(&out.lost, 0);
	rt_unlock(&out.lock);
	rt_unlock(&rt_g.module_lock);
}

/*
 * async-signal-safe (the SIGBUS handler, sig.c): is addr in pct's file
 * mapping?  Then another program has truncated the live file (`: > FILE`,
 * cp /dev/null, rsync --inplace, logrotate's copytruncate), and the write
 * that faulted would fault for ever: the mapping becomes zero memory of
 * pct's own (range_scrub), the faulting write runs again there, and
 * sampling stops, with one warning.  1 if the fault was pct's.
 */
int rt_output_fault(const void *addr)
{
	const char *a = addr;
	if (!rt_load_acquire(&rt_g.table_ready) || out.base == NULL || a < out.base || a >= out.base + out.base_size)
		return 0;
	lose_file();
	return 1;
}

/*
 * Give back the unused part of the stack region (64 MiB reserved by
 * default).  One addition closes the region to new records, so a handler
 * still running elsewhere writes only below what is kept; then the header
 * and the file shrink together.  The file is opened again by its name for
 * this, and only if it is still the file created (the runtime holds no
 * descriptor while the program runs): O_PATH and O_NOFOLLOW, fstat, then
 * read-write through /proc/thread-self/fd (the calling thread's table: the
 * wall sampler's is its own), so that a device or FIFO put under the
 * name is never opened.
 */
static void trim_stacks(struct pct_header *h)
{
	struct stat st;
	struct rt_ledger *l = &rt_g.led;
	if (l->stacks_offset == 0 || rt_load(&rt_g.seccomp_warned) || rt_load(&out.lost) || rt_g.path[0] == '\0')
		return;  /* (under a seccomp filter that came late, no ftruncate) */
	int pfd = open(rt_g.path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0)
		return;
	if (fstat(pfd, &st) == 0 && S_ISREG(st.st_mode) && st.st_ino == out.st.st_ino && st.st_dev == out.st.st_dev) {
		char proc[48] = "/proc/thread-self/fd/", num[12], *d = rt_utoa((uint64_t)pfd, num + sizeof num - 1);
		num[sizeof num - 1] = '\0';
		strcat(proc, d);
		int fd = open(proc, O_RDWR | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
		if (fd >= 0 && fstat(fd, &st) == 0 && st.st_ino == out.st.st_ino && st.st_dev == out.st.st_dev) {
			uint64_t used = rt_add(&l->stacks_used, l->stacks_size + 1);
			if (used > l->stacks_size)
				used = l->stacks_size;
			h->stacks_used = used;
			uint64_t keep = (used + PCT_PAGE - 1) & ~(uint64_t)(PCT_PAGE - 1);  /* as pct_layout */
			if (keep < l->stacks_size && ftruncate(fd, (off_t)(l->stacks_offset + keep)) == 0) {
				h->stacks_size = keep;
				h->file_size = l->stacks_offset + keep;
			}
		}
		if (fd >= 0)
			close(fd);
	}
	close(pfd);
}

/* Write the end of the profile, if one was created.  Only the process that
 * created it does: a forked child shares the mapping but not the pid. */
void rt_output_finish(void)
{
	struct pct_header *h = rt_g.hdr;

	if (!rt_load_acquire(&rt_g.table_ready) || rt_g.led.pid != rt_getpid())
		return;
	/* the title the process shows as it ends (libpct(3), FILES) */
	if (!rt_load(&out.lost)) {
		sigset_t old;
		rt_block_signals(&old);
		rt_lock(&rt_g.module_lock);
		cmdline_refresh(1);
		rt_unlock(&rt_g.module_lock);
		rt_restore_signals(&old);
	}
	h->end_time_ns = realtime_ns();
	h->clock_end_ns = rt_monotonic_ns();
	if (rt_g.led.ticks_offset) {
		uint64_t used = rt_load(&rt_g.led.ticks_used);
		rt_store_relaxed(rt_shared(&h->ticks_used), used < rt_g.led.ticks_max ? used : rt_g.led.ticks_max);
		rt_store_relaxed(rt_shared(&h->untimed), rt_load(&rt_g.led.untimed));
	}
	if (rt_g.led.stacks_offset) {
		uint64_t used = rt_load(&rt_g.led.stacks_used);
		h->stacks_used = used < rt_g.led.stacks_size ? used : rt_g.led.stacks_size;
	}
	trim_stacks(h);
	rt_store_release(rt_shared(&h->state), PCT_STATE_COMPLETE);
}

/*
 * The program calls mlockall(2) (memlock.c), every writer held: the range
 * is made PROT_NONE, which mlockall does not fill (it would fault in the
 * whole 41 MB mapping, 108 MB with -g: pinned as root, and on tmpfs a file
 * of that size in memory), or given back its protections.
 */
void rt_output_protect(int none)
{
	if (out.base == NULL || rt_load(&out.lost))
		return;
	if (none)
		mprotect(out.base, out.base_size, PROT_NONE);
	else if (rt_load_acquire(&rt_g.table_ready))
		mprotect(out.base, out.base_size, PROT_READ | PROT_WRITE);
	else
		mprotect(out.base, out.staging_size, PROT_READ | PROT_WRITE);
}

/* Unlock the range and the page bitmap (after the program's mlockall). */
void rt_output_munlock(void)
{
	if (out.base)
		munlock(out.base, out.base_size);
	if (out.bits)
		munlock(out.bits, out.reserved_size);
}

/*
 * pct steps aside (memlock.c): every writer held, sampling stopped and
 * the file finished; the range and the page bitmap are let go, and the
 * file is pct's no more.
 */
void rt_output_release(void)
{
	rt_store(&rt_g.table_ready, 0);
	reserve_forget();
	range_free();
	rt_g.hdr = NULL;
	rt_g.table = NULL;
	rt_g.stacks = NULL;
	rt_g.ticks = NULL;
	rt_g.buckets = NULL;
}
