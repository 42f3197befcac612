/*
 * modules.c - the module table: which file each executable mapping of the
 * process comes from, so that a PC becomes (module, offset in its file).
 *
 * At start the loaded objects are listed with dl_iterate_phdr(3), which
 * also hands us the program headers and so the build-id notes.  Code
 * mapped later (dlopen, JIT, a vDSO missed at start) is found lazily: when
 * the handler sees a PC outside every known module it reads
 * /proc/self/maps with open/read/close, which are async-signal-safe, and
 * appends the mapping holding that PC.  dl_iterate_phdr itself cannot be
 * used there, since the interrupted code may hold the loader's lock.
 *
 * Records are appended under module_lock and published by a release store
 * of modules_count, so the handler (and a reader of the live file) sees
 * either the old count or a complete new record.  Lookups scan newest
 * first: a mapping that replaced an unloaded one wins.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
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
	uint32_t n = atomic_load_explicit((_Atomic uint32_t *)&h->modules_count, memory_order_relaxed);
	uint64_t used = h->strings_used;

	if (n >= h->modules_max || path_len > PCT_PATH_MAX || used + path_len + 1 > h->strings_size)
		return -1;
	memcpy(rt_g.strings + used, path, path_len);
	rt_g.strings[used + path_len] = '\0';
	atomic_store_explicit((_Atomic uint64_t *)&h->strings_used, used + path_len + 1,
			      memory_order_relaxed);

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
	if (kind == PCT_MOD_MAIN && h->exe_module == UINT32_MAX)
		h->exe_module = n;
	atomic_store_explicit((_Atomic uint32_t *)&h->modules_count, n + 1, memory_order_release);
	return (int)n;
}

/* async-signal-safe: the newest module whose range holds pc, or -1. */
int rt_module_find(uintptr_t pc)
{
	uint32_t n = atomic_load_explicit((_Atomic uint32_t *)&rt_g.hdr->modules_count,
					  memory_order_acquire);
	while (n-- > 0)
		if (pc >= rt_g.modules[n].start && pc < rt_g.modules[n].end)
			return (int)n;
	return -1;
}

static int add_loaded_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	char exe[PCT_PATH_MAX + 1], real[PATH_MAX];
	uint8_t bid[PCT_BUILD_ID_MAX];
	size_t bid_len = 0;
	const char *path = info->dlpi_name;
	int kind = PCT_MOD_FILE;
	(void)size;
	(void)arg;

	for (int i = 0; i < info->dlpi_phnum && bid_len == 0; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_NOTE)
			bid_len = build_id_from_notes((const void *)(info->dlpi_addr + ph->p_vaddr),
						      ph->p_memsz, bid);
	}
	if (info->dlpi_addr != 0 && info->dlpi_addr == getauxval(AT_SYSINFO_EHDR)) {
		path = "[vdso]";
		kind = PCT_MOD_VDSO;
	} else if (path == NULL || path[0] == '\0') {
		/* The main program is listed first, with an empty name. */
		ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
		if (n <= 0)
			return 0;
		exe[n] = '\0';
		path = exe;
		kind = PCT_MOD_MAIN;
	} else if (realpath(path, real) != NULL) {
		/* The name the kernel shows in /proc/self/maps, as the handler's
		 * rescan records it: "liblzma.so.5.4.1", not the "liblzma.so.5"
		 * link the loader opened. */
		path = real;
	}
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		uint64_t start = info->dlpi_addr + ph->p_vaddr;
		if (module_add(start, start + ph->p_memsz, ph->p_offset, path, strlen(path), kind,
			       bid, bid_len) < 0)
			return 1;
	}
	return 0;
}

/* Record every object loaded now.  Not async-signal-safe (loader lock). */
int rt_modules_scan_loaded(void)
{
	while (atomic_flag_test_and_set_explicit(&rt_g.module_lock, memory_order_acquire))
		;
	int full = dl_iterate_phdr(add_loaded_object, NULL);
	atomic_flag_clear_explicit(&rt_g.module_lock, memory_order_release);
	return full ? -1 : 0;
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
	uint64_t start, end, offset, inode;
	char perms[4];
	int nperm;
	uint64_t dev;
	size_t path_len;
	int path_started;
};

struct maps_scan {
	uintptr_t pc;
	struct maps_line cur;
	int found;                     /* the line holding pc was seen */
	struct maps_line hit;
	/* the last offset-0 mapping, which may hold the ELF header of hit */
	uint64_t head_start, head_end, head_dev, head_inode;
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

/* async-signal-safe */
static void maps_end_line(struct maps_scan *s)
{
	struct maps_line *l = &s->cur;

	if (l->field >= 5 && !s->found && s->pc >= l->start && s->pc < l->end) {
		s->found = 1;
		s->hit = *l;
		scan_path[l->path_len] = '\0';
	} else if (l->field >= 5 && l->offset == 0 && !s->found) {
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
	int in_range;

	if (c == '\n') {
		maps_end_line(s);
		return;
	}
	if (s->found)
		return;
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
		in_range = s->pc >= l->start && s->pc < l->end;
		if (in_range && l->path_len < PCT_PATH_MAX)
			scan_path[l->path_len++] = c;
		return;
	}
}

/* async-signal-safe: the build-id of the ELF image whose header is mapped at
 * [head, head_end), if its note segment lies inside that mapping. */
static size_t build_id_from_image(uint64_t head, uint64_t head_end, uint8_t *out)
{
	const ElfW(Ehdr) *eh = (const void *)head;

	if (head_end - head < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32) ||
	    eh->e_phentsize != sizeof(ElfW(Phdr)) ||
	    eh->e_phoff + (uint64_t)eh->e_phnum * sizeof(ElfW(Phdr)) > head_end - head)
		return 0;
	const ElfW(Phdr) *ph = (const void *)(head + eh->e_phoff);
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
		if (ph[i].p_type == PT_NOTE && a >= head && a + ph[i].p_filesz <= head_end) {
			size_t n = build_id_from_notes((const void *)a, ph[i].p_filesz, out);
			if (n)
				return n;
		}
	}
	return 0;
}

/*
 * async-signal-safe: find the mapping that holds pc in /proc/self/maps and
 * append it as a module.  Returns its number, or -1 if pc is in no
 * executable mapping, the table is full, or another thread is appending.
 */
int rt_modules_add_mapping_of(uintptr_t pc)
{
	struct maps_scan s;
	char buf[1024];
	ssize_t n;
	int fd, mod = -1;

	if (atomic_flag_test_and_set_explicit(&rt_g.module_lock, memory_order_acquire))
		return -1;
	/* Another thread may have added it while we waited for nothing. */
	mod = rt_module_find(pc);
	if (mod >= 0)
		goto out;
	uint64_t *rescans = &rt_g.hdr->rescans;
	if (atomic_load_explicit((_Atomic uint64_t *)rescans, memory_order_relaxed) >= RT_MAX_RESCANS)
		goto out;
	atomic_fetch_add_explicit((_Atomic uint64_t *)rescans, 1, memory_order_relaxed);

	memset(&s, 0, sizeof s);
	s.pc = pc;
	fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		goto out;
	while (!s.found && (n = read(fd, buf, sizeof buf)) > 0)
		for (ssize_t i = 0; i < n; i++)
			maps_feed(&s, buf[i]);
	close(fd);
	if (!s.found || s.hit.perms[2] != 'x')
		goto out;

	uint8_t bid[PCT_BUILD_ID_MAX];
	size_t bid_len = 0;
	int kind = PCT_MOD_FILE;
	const char *path = scan_path;
	size_t path_len = s.hit.path_len;
	if (s.hit.inode == 0) {
		if (path_len == 6 && memcmp(path, "[vdso]", 6) == 0)
			kind = PCT_MOD_VDSO;
		else
			kind = PCT_MOD_ANON;
		if (path_len == 0) {
			path = "[anon]";
			path_len = 6;
		}
	}
	if (kind == PCT_MOD_FILE || kind == PCT_MOD_VDSO) {
		if (s.hit.offset == 0)
			bid_len = build_id_from_image(s.hit.start, s.hit.end, bid);
		else if (s.head_inode == s.hit.inode && s.head_dev == s.hit.dev)
			bid_len = build_id_from_image(s.head_start, s.head_end, bid);
	}
	mod = module_add(s.hit.start, s.hit.end, s.hit.offset, path, path_len, kind, bid, bid_len);
out:
	atomic_flag_clear_explicit(&rt_g.module_lock, memory_order_release);
	return mod;
}
