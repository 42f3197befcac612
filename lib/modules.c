/*
 * modules.c - the module table: which file each executable mapping of the
 * process comes from, so that a PC becomes (module, offset in its file).
 *
 * The source is /proc/self/maps, read with open/read/close, which are
 * async-signal-safe.  The first sample records every executable mapping
 * (pct_on() only marks the table pending: reading /proc/self/maps costs
 * tens of microseconds of kernel time, and a process that never takes a
 * sample, such as a shell helper, should not pay it); code mapped later
 * (dlopen, JIT) is found when the handler sees a PC outside every known
 * module, and the mapping holding it is appended.  dl_iterate_phdr(3)
 * cannot be used in the handler, since the interrupted code may hold the
 * loader's lock, and one reader for both cases records the same canonical
 * path (the kernel's name for the file, "liblzma.so.5.4.1" rather than
 * the "liblzma.so.5" link the loader opened).  The build-id comes from the ELF header in memory: the
 * file's offset-0 mapping, which precedes its executable one.
 *
 * Records are appended under module_lock and published by a release store
 * of modules_count, so the handler (and a reader of the live file) sees
 * either the old count or a complete new record.  The handler looks up
 * its private copy of each range (rt_g.led.mods), never the file, which
 * others may rewrite (runtime.h).  Lookups scan newest first: a mapping
 * that replaced an unloaded one wins.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "runtime.h"

/* async-signal-safe: copy the NT_GNU_BUILD_ID payload of a note segment. */
static size_t build_id_from_notes(const unsigned char *p, size_t size, uint8_t *out)
{
	const unsigned char *end = p + size;

	while ((size_t)(end - p) >= sizeof(ElfW(Nhdr))) {
		ElfW(Nhdr) nh;
		memcpy(&nh, p, sizeof nh);
		size_t namesz = (nh.n_namesz + 3u) & ~3u;
		size_t descsz = (nh.n_descsz + 3u) & ~3u;
		const unsigned char *name = p + sizeof nh;
		const unsigned char *desc = name + namesz;
		if (namesz > (size_t)(end - name) || descsz > (size_t)(end - desc))
			break;
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && memcmp(name, "GNU", 4) == 0) {
			size_t n = nh.n_descsz < PCT_BUILD_ID_MAX ? nh.n_descsz : PCT_BUILD_ID_MAX;
			memcpy(out, desc, n);
			return n;
		}
		p = desc + descsz;
	}
	return 0;
}

/* async-signal-safe with the module lock held. */
static int module_add(uint64_t start, uint64_t end, uint64_t file_offset, const char *path,
		      size_t path_len, int kind, const uint8_t *build_id, size_t build_id_len)
{
	struct pct_header *h = rt_g.hdr;
	struct rt_ledger *l = &rt_g.led;
	uint32_t n = rt_load_relaxed(&l->modules_count);
	uint64_t used = l->strings_used;

	if (n >= l->modules_max || path_len > PCT_PATH_MAX || used + path_len + 1 > l->strings_size ||
	    rt_reserve(rt_g.strings + used, path_len + 1) != 0 ||
	    rt_reserve(&rt_g.modules[n], sizeof rt_g.modules[n]) != 0)
		return -1;
	memcpy(rt_g.strings + used, path, path_len);
	rt_g.strings[used + path_len] = '\0';
	l->strings_used = used + path_len + 1;
	rt_store_relaxed(rt_shared(&h->strings_used), l->strings_used);

	struct pct_module *m = &rt_g.modules[n];
	memset(m, 0, sizeof *m);
	m->start = start;
	m->end = end;
	m->file_offset = file_offset;
	m->path_offset = used;
	m->path_len = (uint32_t)path_len;
	m->kind = (uint8_t)kind;
	m->build_id_len = (uint8_t)build_id_len;
	memcpy(m->build_id, build_id, build_id_len);
	if (kind == PCT_MOD_MAIN && l->exe_module == UINT32_MAX) {
		l->exe_module = n;
		h->exe_module = n;
	}
	struct rt_module_range *r = &l->mods[n];
	r->start = start;
	r->end = end;
	r->file_offset = file_offset;
	r->anon = kind == PCT_MOD_ANON;
	rt_store_relaxed(&r->unmapped, 0);
	rt_store_release(&l->modules_count, n + 1);
	rt_store_release(rt_shared(&h->modules_count), n + 1);
	return (int)n;
}

/* async-signal-safe: the newest module whose range holds pc, or -1. */
int rt_module_find(uintptr_t pc)
{
	const struct rt_module_range *mods = rt_g.led.mods;
	uint32_t n = rt_load_acquire(&rt_g.led.modules_count);
	while (n-- > 0)
		if (pc >= mods[n].start && pc < mods[n].end &&
		    !rt_load_relaxed(&mods[n].unmapped))
			return (int)n;
	return -1;
}

/*
 * A line of /proc/self/maps, parsed one character at a time so that a path
 * of any length needs no buffer beyond the one it is copied into:
 *
 *   7f12a000-7f12c000 r-xp 00002000 fe:01 1234   /usr/lib/libfoo.so
 *   start    end      perm offset   dev   inode  path
 */
struct maps_line {
	int field;                     /* 0 start, 1 end, 2 perms, 3 offset, 4 dev, 5 inode, 6 path */
	uint64_t start, end, offset, inode, dev;
	char perms[4];
	int nperm;
	size_t path_len;
	int path_started;
};

struct maps_scan {
	uintptr_t pc;                  /* add only the mapping holding pc; 0: every executable one */
	int fresh;                     /* with pc: every executable mapping not recorded yet too */
	int mark;                      /* only mark the modules still mapped, in seen[] */
	int added;                     /* module number added for pc, or -1 */
	int done;
	int full;                      /* the module table or pool is full */
	struct maps_line cur;
	/* the last offset-0 mapping, which may hold the ELF header of the next
	 * mappings of the same file */
	uint64_t head_start, head_end, head_dev, head_inode;
	const char *exe;               /* /proc/self/exe's target, or "" */
};

static char scan_path[PCT_PATH_MAX + 1]; /* guarded by module_lock */

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* async-signal-safe: copy len bytes of our memory at addr into dst with
 * process_vm_readv(2), which fails with EFAULT where a read would fault (a
 * PROT_NONE page, or a page past the end of a truncated file: SIGSEGV or
 * SIGBUS in the program).  The bytes copied. */
static size_t read_self(void *dst, uint64_t addr, size_t len)
{
	struct iovec local = { dst, len }, remote = { (void *)(uintptr_t)addr, len };
	ssize_t got = syscall(SYS_process_vm_readv, (pid_t)rt_getpid(), &local, 1UL, &remote, 1UL, 0UL);
	return got > 0 ? (size_t)got : 0;
}

/* The ELF header and note segment, copied (guarded by module_lock). */
static unsigned char image_head[4096], image_notes[4096];

/* async-signal-safe: the build-id of the ELF image whose header is mapped at
 * [head, head_end), if its note segment lies inside that mapping.  The
 * mapping is never touched directly: it may be unreadable or outlive its
 * file's end. */
static size_t build_id_from_image(uint64_t head, uint64_t head_end, uint8_t *out)
{
	size_t have = read_self(image_head, head, head_end - head < sizeof image_head ?
						       (size_t)(head_end - head) : sizeof image_head);
	const ElfW(Ehdr) *eh = (const void *)image_head;

	if (have < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32) ||
	    eh->e_phentsize != sizeof(ElfW(Phdr)) ||
	    eh->e_phoff + (uint64_t)eh->e_phnum * sizeof(ElfW(Phdr)) > have)
		return 0;
	const ElfW(Phdr) *ph = (const void *)(image_head + eh->e_phoff);
	uint64_t bias = 0;
	int have_bias = 0;
	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_offset == 0) {
			bias = head - ph[i].p_vaddr;  /* offset 0 starts a page */
			have_bias = 1;
			break;
		}
	if (!have_bias)
		return 0;
	for (int i = 0; i < eh->e_phnum; i++) {
		uint64_t a = bias + ph[i].p_vaddr;
		if (ph[i].p_type == PT_NOTE && a >= head && a + ph[i].p_filesz <= head_end &&
		    ph[i].p_filesz <= sizeof image_notes) {
			size_t len = read_self(image_notes, a, (size_t)ph[i].p_filesz);
			size_t n = len == ph[i].p_filesz ? build_id_from_notes(image_notes, len, out) : 0;
			if (n)
				return n;
		}
	}
	return 0;
}

/* async-signal-safe: record the executable mapping just parsed. */
static void add_line(struct maps_scan *s, const struct maps_line *l)
{
	uint8_t bid[PCT_BUILD_ID_MAX];
	size_t bid_len = 0;
	int kind = PCT_MOD_FILE;
	const char *path = scan_path;
	size_t path_len = l->path_len;

	scan_path[path_len] = '\0';
	if (l->inode == 0) {
		kind = path_len == 6 && memcmp(path, "[vdso]", 6) == 0 ? PCT_MOD_VDSO : PCT_MOD_ANON;
		if (path_len == 0) {
			path = "[anon]";
			path_len = 6;
		}
	} else if (s->exe[0] && strcmp(path, s->exe) == 0) {
		kind = PCT_MOD_MAIN;
	}
	if (kind != PCT_MOD_ANON) {
		if (l->offset == 0)
			bid_len = build_id_from_image(l->start, l->end, bid);
		else if (s->head_inode == l->inode && s->head_dev == l->dev)
			bid_len = build_id_from_image(s->head_start, s->head_end, bid);
	}
	int m = module_add(l->start, l->end, l->offset, path, path_len, kind, bid, bid_len);
	if (m < 0)
		s->full = 1;
	if (s->pc && s->pc >= l->start && s->pc < l->end) {
		s->added = m;
		s->done = !s->fresh;
	}
}

/* async-signal-safe: is the executable mapping l recorded already (the
 * same range and offset, still mapped)? */
static int line_known(const struct maps_line *l)
{
	const struct rt_module_range *mods = rt_g.led.mods;
	for (uint32_t n = rt_load_acquire(&rt_g.led.modules_count); n-- > 0;)
		if (mods[n].start == l->start && mods[n].end == l->end && mods[n].file_offset == l->offset &&
		    !rt_load_relaxed(&mods[n].unmapped))
			return 1;
	return 0;
}

static uint8_t seen[RT_MODULES_MAX];  /* guarded by module_lock */

/* The modules that an executable mapping still backs, with the same range
 * and offset. */
static void mark_line(const struct maps_line *l)
{
	uint32_t n = rt_load(&rt_g.led.modules_count);
	for (uint32_t i = 0; i < n; i++) {
		const struct rt_module_range *m = &rt_g.led.mods[i];
		if (m->start == l->start && m->end == l->end && m->file_offset == l->offset)
			seen[i] = 1;
	}
}

/* async-signal-safe */
static void maps_end_line(struct maps_scan *s)
{
	struct maps_line *l = &s->cur;

	if (s->mark && l->field >= 5 && l->nperm == 4 && l->perms[2] == 'x')
		mark_line(l);
	else if (l->field >= 5 && l->nperm == 4 && l->perms[2] == 'x' &&
		 (s->pc == 0 || (s->pc >= l->start && s->pc < l->end) || (s->fresh && !line_known(l))))
		add_line(s, l);
	if (l->field >= 5 && l->offset == 0) {
		s->head_start = l->start;
		s->head_end = l->end;
		s->head_dev = l->dev;
		s->head_inode = l->inode;
	}
	memset(l, 0, sizeof *l);
}

/* async-signal-safe */
static void maps_feed(struct maps_scan *s, char c)
{
	struct maps_line *l = &s->cur;

	if (c == '\n') {
		maps_end_line(s);
		return;
	}
	switch (l->field) {
	case 0: case 1: case 3: case 4: case 5:
		if (c == '-' && l->field == 0) { l->field = 1; return; }
		if (c == ':' && l->field == 4) { l->dev <<= 16; return; }
		if (c == ' ') { l->field++; return; }
		uint64_t *v = l->field == 0 ? &l->start : l->field == 1 ? &l->end
			    : l->field == 3 ? &l->offset : l->field == 4 ? &l->dev : &l->inode;
		int d = l->field == 5 ? (c >= '0' && c <= '9' ? c - '0' : -1) : hexval(c);
		if (d >= 0)
			*v = *v * (l->field == 5 ? 10 : 16) + (uint64_t)d;
		return;
	case 2:
		if (c == ' ') { l->field = 3; return; }
		if (l->nperm < 4)
			l->perms[l->nperm++] = c;
		return;
	case 6:
		if (!l->path_started && c == ' ')
			return;
		l->path_started = 1;
		if (l->path_len < PCT_PATH_MAX)
			scan_path[l->path_len++] = c;
		return;
	}
}

/* async-signal-safe, with the module lock held: read /proc/self/maps. */
static int maps_scan(struct maps_scan *s)
{
	char buf[1024];
	ssize_t n;
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while (!s->done && (n = read(fd, buf, sizeof buf)) > 0)
		for (ssize_t i = 0; i < n && !s->done; i++)
			maps_feed(s, buf[i]);
	close(fd);
	return 0;
}

/*
 * async-signal-safe, with the module lock held: record every executable
 * mapping of the process (the main program, the shared libraries, the
 * vDSO and any anonymous executable memory), and clear modules_pending.
 * Warns once if the module table or string pool is full.
 */
static void scan_all_locked(void)
{
	static char exe[PCT_PATH_MAX + 1];
	struct maps_scan s;

	memset(&s, 0, sizeof s);
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	exe[n > 0 ? n : 0] = '\0';
	s.exe = exe;
	int rc = maps_scan(&s), err = errno;
	rt_store_relaxed(&rt_g.modules_pending, 0);
	if (rc != 0)
		rt_warn("cannot read /proc/self/maps, so samples keep raw addresses in", rt_g.path, err);
	else if (s.full)
		rt_warn("too many modules to record all of them in", rt_g.path, 0);
}

/* Leave the module table to be filled by the first sample (or by
 * rt_modules_scan_pending at the end). */
void rt_modules_defer_scan(void)
{
	rt_store(&rt_g.modules_pending, 1);
}

/* Fill the module table now if no sample has yet (at the end of a run
 * whose first samples found the table busy).  Not in the handler. */
void rt_modules_scan_pending(void)
{
	sigset_t old;
	if (!rt_load(&rt_g.modules_pending))
		return;
	rt_block_signals(&old);  /* no handler while the lock is held: see rt_output_create */
	rt_lock(&rt_g.module_lock);
	if (rt_load(&rt_g.modules_pending))
		scan_all_locked();
	rt_unlock(&rt_g.module_lock);
	rt_restore_signals(&old);
}

/*
 * async-signal-safe: find the mapping that holds pc in /proc/self/maps and
 * append it as a module (the first call records every module), and with
 * it every executable mapping not recorded yet: a library that came in
 * with it (dlopen) may never take a sample itself, yet stacks return
 * through it.  Returns pc's module's number, or -1 if pc is in no
 * executable mapping, the table is full, or another thread is appending.
 */
int rt_modules_add_mapping_of(uintptr_t pc)
{
	struct maps_scan s;
	int mod;
	sigset_t old;

	rt_block_signals(&old);
	if (!rt_trylock(&rt_g.module_lock)) {
		rt_restore_signals(&old);
		return -1;
	}
	/* The first sample records every module; another thread may have
	 * added this one meanwhile. */
	if (rt_load_relaxed(&rt_g.modules_pending))
		scan_all_locked();
	mod = rt_module_find(pc);
	if (mod >= 0)
		goto out;
	/* under module_lock: the only writer */
	uint64_t rescans = rt_load_relaxed(&rt_g.led.rescans);
	if (rescans >= RT_MAX_RESCANS)
		goto out;
	rt_store_relaxed(&rt_g.led.rescans, rescans + 1);
	rt_store_relaxed(rt_shared(&rt_g.hdr->rescans), rescans + 1);
	memset(&s, 0, sizeof s);
	s.pc = pc;
	s.fresh = 1;
	s.added = -1;
	s.exe = "";        /* the main program was found at start */
	maps_scan(&s);
	mod = s.added;
out:
	rt_unlock(&rt_g.module_lock);
	rt_restore_signals(&old);
	return mod;
}

/*
 * Mark the modules whose mappings are gone (after dlclose) as unmapped, so
 * that a library mapped later at the same addresses is looked up afresh
 * instead of being charged to the old one.  Their records stay: samples
 * taken before still name their file and build-id.  Returns how many
 * were marked.
 */
int rt_modules_retire_unmapped(void)
{
	struct maps_scan s;
	int n = 0;

	/* Nothing is recorded yet, so nothing can be stale; and taking the
	 * lock now could make the first sample's handler wait on it. */
	if (rt_load(&rt_g.modules_pending) || !rt_write_begin())
		return 0;
	sigset_t old;
	rt_block_signals(&old);
	rt_lock(&rt_g.module_lock);
	memset(&s, 0, sizeof s);
	memset(seen, 0, sizeof seen);
	s.mark = 1;
	s.exe = "";
	if (maps_scan(&s) == 0) {
		uint32_t count = rt_load(&rt_g.led.modules_count);
		for (uint32_t i = 0; i < count; i++) {
			struct rt_module_range *m = &rt_g.led.mods[i];
			if (!seen[i] && !m->anon && !rt_load(&m->unmapped)) {
				rt_store(&m->unmapped, 1);
				rt_or_relaxed(rt_shared(&rt_g.modules[i].flags), PCT_MODF_UNMAPPED);
				n++;
			}
		}
	}
	rt_unlock(&rt_g.module_lock);
	rt_restore_signals(&old);
	rt_write_end();
	return n;
}

/*
 * dlopen(3) brings in libraries that may never take a sample themselves
 * while stacks return through them (a plugin calling zlib, Python's
 * extension modules).  pct's dlopen() only counts the call and jumps to
 * the C library's (a tail call: glibc takes the caller's address, for the
 * caller's RUNPATH, $ORIGIN and namespace, from its own return address,
 * which must stay the program's); the next sample, once the loader says
 * its list is consistent again (_r_debug.r_state, the debuggers'
 * interface), reads /proc/self/maps and records every executable mapping
 * not recorded yet (rt_modules_after_dlopen).  At most RT_MAX_DL_RESCANS
 * such reads a process.
 */
static _Atomic uint32_t dl_calls, dl_seen;
static _Atomic uint32_t dl_rescans;
extern struct r_debug _r_debug __attribute__((weak));

#ifndef RT_NO_INTERPOSE
typedef void *dlopen_fn(const char *, int);
static dlopen_fn *real_dlopen;

/* resolved before any program's thread may call it in a handler */
void rt_modules_resolve(void)
{
	if (real_dlopen == NULL)
		real_dlopen = (dlopen_fn *)dlsym(RTLD_NEXT, "dlopen");
}

__attribute__((visibility("default"), optimize("O2", "optimize-sibling-calls")))
void *dlopen(const char *file, int mode)
{
	if (real_dlopen == NULL)
		rt_modules_resolve();
	rt_add_relaxed(&dl_calls, 1);
	/* returned as is, for the compiler to make this a jump */
	return real_dlopen ? real_dlopen(file, mode) : NULL;
}
#else
void rt_modules_resolve(void)
{
}
#endif

/* async-signal-safe (the handler, each sample): after a dlopen, once the
 * loader is done, record the executable mappings not recorded yet. */
void rt_modules_after_dlopen(void)
{
	uint32_t calls = rt_load_relaxed(&dl_calls);
	if (calls == rt_load_relaxed(&dl_seen) || rt_load(&rt_g.modules_pending))
		return;
	if (&_r_debug != NULL && _r_debug.r_state != RT_CONSISTENT)
		return;  /* a dlopen or dlclose under way: at a later sample */
	sigset_t old;
	rt_block_signals(&old);
	if (!rt_trylock(&rt_g.module_lock)) {
		rt_restore_signals(&old);
		return;
	}
	rt_store_relaxed(&dl_seen, calls);
	if (rt_load_relaxed(&dl_rescans) < RT_MAX_DL_RESCANS) {
		struct maps_scan s;
		rt_store_relaxed(&dl_rescans, rt_load_relaxed(&dl_rescans) + 1);
		memset(&s, 0, sizeof s);
		s.pc = 1;  /* in no mapping: only the new ones are added */
		s.fresh = 1;
		s.added = -1;
		s.exe = "";
		maps_scan(&s);
	}
	rt_unlock(&rt_g.module_lock);
	rt_restore_signals(&old);
}

#ifndef RT_NO_INTERPOSE
typedef int dlclose_fn(void *);

/* dlclose(3), then the unloaded modules are marked unmapped while pct is
 * on; otherwise exactly the C library's.  Not in libpct.a: a static
 * program has no next dlclose to find. */
__attribute__((visibility("default"))) int dlclose(void *handle)
{
	static dlclose_fn *real;
	if (real == NULL)
		real = (dlclose_fn *)dlsym(RTLD_NEXT, "dlclose");
	if (real == NULL)
		return -1;
	int rc = real(handle), e = errno;
	if (rc == 0 && rt_load(&rt_g.state) == RT_ON && rt_g.hdr && rt_g.led.pid == rt_getpid())
		rt_modules_retire_unmapped();
	errno = e;
	return rc;
}
#endif
