/*
 * proc.c - what /proc says of another process: its threads, their names,
 * states and CPU times, where a blocked thread waits, its command line,
 * and its executable mappings with their build-ids.
 *
 * The target may be hostile to the profiler: every line is bounded, the
 * paths it maps are only names (never opened through our root: a file is
 * read through /proc/PID/map_files, or /proc/PID/root resolved inside the
 * target's root, and only if it is the very file mapped, by device and
 * inode), and a build-id is trusted only as the note of an ELF header
 * the loader mapped.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <linux/openat2.h>

#include "attach_int.h"
#include "u64map.h"
#include "util.h"

uint64_t mono_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int64_t real_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Read at most cap - 1 bytes of path into buf, NUL-terminated: the length,
 * or -1 with errno. */
static ssize_t read_small(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -1;
	size_t n = 0;
	while (n + 1 < cap) {
		ssize_t r = read(fd, buf + n, cap - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			close(fd);
			errno = e;
			return -1;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	return (ssize_t)n;
}

long proc_tids(uint32_t pid, uint32_t **out)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%u/task", pid);
	DIR *d = opendir(path);
	*out = NULL;
	if (d == NULL)
		return -1;
	size_t n = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		char *end;
		unsigned long t = strtoul(e->d_name, &end, 10);
		if (*end || t == 0 || t > UINT32_MAX)
			continue;
		grow(out, &cap, n + 1, sizeof **out);
		(*out)[n++] = (uint32_t)t;
	}
	closedir(d);
	return (long)n;
}

int proc_comm(uint32_t pid, uint32_t tid, char name[16])
{
	char path[64], buf[64];
	snprintf(path, sizeof path, "/proc/%u/task/%u/comm", pid, tid);
	ssize_t n = read_small(path, buf, sizeof buf);
	if (n <= 0)
		return -1;
	if (buf[n - 1] == '\n')
		buf[--n] = '\0';
	memset(name, 0, 16);
	memcpy(name, buf, (size_t)n < 15 ? (size_t)n : 15);
	return 0;
}

char *proc_cmdline(uint32_t pid, size_t *len)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%u/cmdline", pid);
	size_t cap = 32 * 1024;            /* the runtime's RT_CMDLINE_MAX */
	char *buf = xmalloc(cap + 1);
	ssize_t n = read_small(path, buf, cap + 1);
	if (n <= 0) {
		free(buf);
		return NULL;
	}
	*len = (size_t)n;
	return buf;
}

/* The value after "FIELD:" in /proc/PID/status, in buf. */
static const char *status_field(uint32_t pid, const char *field, char *buf, size_t cap)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%u/status", pid);
	if (read_small(path, buf, cap) <= 0)
		return NULL;
	size_t fl = strlen(field);
	for (char *l = buf; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
		if (strncmp(l, field, fl) == 0 && l[fl] == ':')
			return l + fl + 1;
	return NULL;
}

long proc_status_num(uint32_t pid, const char *field)
{
	char buf[4096];
	const char *v = status_field(pid, field, buf, sizeof buf);
	if (v == NULL)
		return -1;
	return strtol(v, NULL, 10);
}

int proc_ids(uint32_t pid, const char *field, unsigned ids[4])
{
	char buf[4096];
	const char *v = status_field(pid, field, buf, sizeof buf);
	return v && sscanf(v, "%u %u %u %u", &ids[0], &ids[1], &ids[2], &ids[3]) == 4 ? 0 : -1;
}

char proc_state(uint32_t pid, uint32_t tid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof path, "/proc/%u/task/%u/stat", pid, tid);
	if (read_small(path, buf, sizeof buf) <= 0)
		return 0;
	const char *c = strrchr(buf, ')');   /* the name may hold anything */
	return c && c[1] == ' ' ? c[2] : 0;
}

int proc_last_cpu(uint32_t pid, uint32_t tid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof path, "/proc/%u/task/%u/stat", pid, tid);
	if (read_small(path, buf, sizeof buf) <= 0)
		return -1;
	const char *c = strrchr(buf, ')');
	/* field 39, processor: the 37th after the name's ')' */
	for (int f = 0; c && f < 37; f++)
		c = strchr(c + 1, ' ');
	return c ? atoi(c + 1) : -1;
}

int proc_schedstat_open(uint32_t pid, uint32_t tid)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%u/task/%u/schedstat", pid, tid);
	return open(path, O_RDONLY | O_CLOEXEC);
}

int64_t proc_schedstat(int fd)
{
	uint64_t runs;
	return proc_schedstat_runs(fd, &runs);
}

int64_t proc_schedstat_runs(int fd, uint64_t *runs)
{
	char buf[96];
	ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	unsigned long long v, delay, pcount;
	if (sscanf(buf, "%llu %llu %llu", &v, &delay, &pcount) != 3)
		return -1;
	*runs = pcount;
	return (int64_t)v;
}

static int hex_word(const char *c, uint64_t *out)
{
	if (strncmp(c, "0x", 2) != 0)
		return -1;
	char *end;
	*out = strtoull(c + 2, &end, 16);
	return end == c + 2 ? -1 : 0;
}

int proc_blocked_at(uint32_t pid, uint32_t tid, uint64_t *pc, uint64_t *sp)
{
	char path[64], buf[512];
	snprintf(path, sizeof path, "/proc/%u/task/%u/syscall", pid, tid);
	ssize_t n = read_small(path, buf, sizeof buf);
	if (n < 0)
		return -1;
	/* "running", or "NR ARG1..ARG6 SP PC" (proc(5)); "-1 SP PC" for a
	 * thread blocked outside a system call */
	if (n == 0 || strncmp(buf, "running", 7) == 0)
		return 0;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	char *last = strrchr(buf, ' ');
	if (last == NULL || hex_word(last + 1, pc) != 0 || *pc == 0)
		return 0;
	*last = '\0';
	char *prev = strrchr(buf, ' ');
	if (prev == NULL || hex_word(prev + 1, sp) != 0)
		*sp = 0;
	return 1;
}

uint64_t proc_cpu_ns(uint32_t pid)
{
	clockid_t c;
	struct timespec ts;
	if (clock_getcpuclockid((pid_t)pid, &c) != 0 || clock_gettime(c, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- build-ids ---- */

/* Where the bytes of an ELF image come from: the process's memory (at
 * addresses), or a file (at offsets). */
struct image {
	uint32_t pid;
	int fd;                        /* -1: memory */
};

static int image_read(const struct image *im, uint64_t at, void *buf, size_t len)
{
	if (im->fd >= 0)
		return pread(im->fd, buf, len, (off_t)at) == (ssize_t)len ? 0 : -1;
	struct iovec l = { buf, len }, r = { (void *)(uintptr_t)at, len };
	return process_vm_readv((pid_t)im->pid, &l, 1, &r, 1, 0) == (ssize_t)len ? 0 : -1;
}

/* The NT_GNU_BUILD_ID note among len bytes of notes. */
static size_t note_build_id(const unsigned char *n, size_t len, uint8_t *out)
{
	size_t at = 0;
	while (at + sizeof(Elf64_Nhdr) <= len) {
		Elf64_Nhdr h;
		memcpy(&h, n + at, sizeof h);
		size_t name = (h.n_namesz + 3u) & ~3u, desc = (h.n_descsz + 3u) & ~3u;
		at += sizeof h;
		if (h.n_namesz > len || h.n_descsz > len || name > len - at || desc > len - at - name)
			return 0;
		if (h.n_type == NT_GNU_BUILD_ID && h.n_namesz == 4 && memcmp(n + at, "GNU", 4) == 0 && h.n_descsz > 0 &&
		    h.n_descsz <= PCT_BUILD_ID_MAX) {
			memcpy(out, n + at + name, h.n_descsz);
			return h.n_descsz;
		}
		at += name + desc;
	}
	return 0;
}

/*
 * The build-id of the ELF image whose header is at head: in memory the
 * first byte of the mapping at file offset 0 (notes at their virtual
 * addresses, placed by the load bias), in a file offset 0 (notes at
 * their file offsets).  64-bit images only.
 */
static size_t image_build_id(const struct image *im, uint64_t head, uint8_t *out)
{
	Elf64_Ehdr eh;
	if (image_read(im, head, &eh, sizeof eh) != 0 || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum == 0 ||
	    eh.e_phnum > 256 || eh.e_phoff > (1u << 20))
		return 0;
	Elf64_Phdr ph[256];
	if (image_read(im, head + eh.e_phoff, ph, eh.e_phnum * sizeof *ph) != 0)
		return 0;
	uint64_t bias = 0;
	int have = im->fd >= 0;
	for (int i = 0; !have && i < eh.e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_offset == 0) {
			bias = head - (ph[i].p_vaddr & ~(uint64_t)(PCT_PAGE - 1));
			have = 1;
		}
	if (!have)
		return 0;
	for (int i = 0; i < eh.e_phnum; i++) {
		if (ph[i].p_type != PT_NOTE || ph[i].p_filesz == 0 || ph[i].p_filesz > 4096)
			continue;
		unsigned char notes[4096];
		uint64_t at = im->fd >= 0 ? ph[i].p_offset : bias + ph[i].p_vaddr;
		if (image_read(im, at, notes, (size_t)ph[i].p_filesz) != 0)
			continue;
		size_t n = note_build_id(notes, (size_t)ph[i].p_filesz, out);
		if (n)
			return n;
	}
	return 0;
}

/* The file mapped at [start, end) of pid, device dev, inode ino, opened
 * through /proc/PID/map_files (root), else through /proc/PID/root with
 * the path resolved inside the target's root, and only if it is that
 * very file; -1 if neither. */
static int open_mapped(uint32_t pid, uint64_t start, uint64_t end, const char *path, dev_t dev, ino_t ino)
{
	char p[96];
	struct stat st;
	snprintf(p, sizeof p, "/proc/%u/map_files/%llx-%llx", pid, (unsigned long long)start, (unsigned long long)end);
	int fd = open(p, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0 && path[0] == '/') {
		snprintf(p, sizeof p, "/proc/%u/root", pid);
		int root = open(p, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (root >= 0) {
			struct open_how how = { .flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY,
						.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS };
			fd = (int)syscall(SYS_openat2, root, path + 1, &how, sizeof how);
			close(root);
		}
	}
	if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_ino != ino ||
			(dev && st.st_dev != dev))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

size_t proc_build_id(uint32_t pid, uint64_t start, uint64_t end, uint64_t head, const char *path, uint8_t *out)
{
	(void)start, (void)end, (void)path;
	struct image mem = { pid, -1 };
	return image_build_id(&mem, head, out);
}

/* ---- maps ---- */

struct mapline {
	uint64_t start, end, off;
	unsigned maj, min;
	unsigned long long ino;
	char perms[5];
	const char *path;
};

/* Parse one line of /proc/PID/maps ("START-END PERMS OFF MAJ:MIN INO
 * PATH"); 0, or -1 if it is not of that shape. */
static int parse_mapline(char *line, struct mapline *m)
{
	unsigned long long s, e, o;
	int n = 0;
	if (sscanf(line, "%llx-%llx %4s %llx %x:%x %llu %n", &s, &e, m->perms, &o, &m->maj, &m->min, &m->ino, &n) < 7)
		return -1;
	m->start = s, m->end = e, m->off = o;
	char *p = line + n, *nl = strchr(p, '\n');
	if (nl)
		*nl = '\0';
	m->path = p;
	return 0;
}

int proc_scan_modules(uint32_t pid, struct pbuild *b)
{
	char path[64], exe[PATH_MAX + 1] = "";
	snprintf(path, sizeof path, "/proc/%u/exe", pid);
	ssize_t xl = readlink(path, exe, sizeof exe - 1);
	exe[xl > 0 ? xl : 0] = '\0';
	snprintf(path, sizeof path, "/proc/%u/maps", pid);
	FILE *f = fopen(path, "re");
	if (f == NULL)
		return -1;
	/* the mapped modules by start, to find those already recorded and
	 * those no longer mapped */
	struct u64map known = { 0 };
	size_t nmods = pbuild_modules(b);
	uint8_t *seen = xcalloc(nmods + 1, 1);
	for (size_t i = 0; i < nmods; i++) {
		const struct pct_module *r = pbuild_module_rec(b, (uint32_t)i, NULL);
		if (!(r->flags & PCT_MODF_UNMAPPED))
			*u64map_slot(&known, r->start) = i + 1;
	}
	char *line = NULL;
	size_t cap = 0;
	int added = 0;
	uint64_t head = 0;                 /* the last mapping at offset 0, and its file */
	unsigned long long head_ino = 0;
	unsigned head_maj = 0, head_min = 0;
	size_t lines = 0;
	while (getline(&line, &cap, f) > 0 && lines++ < (1u << 22)) {
		struct mapline m;
		if (parse_mapline(line, &m) != 0)
			continue;
		if (m.off == 0 && m.ino) {
			head = m.start;
			head_ino = m.ino, head_maj = m.maj, head_min = m.min;
		}
		if (m.perms[2] != 'x')
			continue;
		uint64_t *k = u64map_get(&known, m.start);
		if (k) {
			const struct pct_module *r = pbuild_module_rec(b, (uint32_t)(*k - 1), NULL);
			if (r->end == m.end && r->file_offset == m.off) {
				seen[*k - 1] = 1;
				continue;
			}
		}
		int kind = PCT_MOD_FILE;
		const char *p = m.path;
		if (m.ino == 0)
			kind = strcmp(p, "[vdso]") == 0 ? PCT_MOD_VDSO : PCT_MOD_ANON;
		else if (exe[0] && strcmp(p, exe) == 0)
			kind = PCT_MOD_MAIN;
		uint8_t id[PCT_BUILD_ID_MAX];
		size_t idl = 0;
		if (kind == PCT_MOD_VDSO) {
			idl = proc_build_id(pid, m.start, m.end, m.start, p, id);
		} else if (kind != PCT_MOD_ANON) {
			uint64_t h = m.off == 0 ? m.start
				   : head_ino == m.ino && head_maj == m.maj && head_min == m.min ? head : 0;
			if (h)
				idl = proc_build_id(pid, m.start, m.end, h, p, id);
			if (idl == 0) {  /* not mapped from its header: the file itself */
				int fd = open_mapped(pid, m.start, m.end, p, makedev(m.maj, m.min), (ino_t)m.ino);
				if (fd >= 0) {
					struct image im = { pid, fd };
					idl = image_build_id(&im, 0, id);
					close(fd);
				}
			}
		}
		/* a deleted file keeps its name, without the kernel's mark */
		size_t pl = strlen(p);
		char *shown = xstrdup(p);
		if (pl > 10 && strcmp(p + pl - 10, " (deleted)") == 0)
			shown[pl - 10] = '\0';
		uint32_t mod = pbuild_module(b, m.start, m.end, m.off, shown, kind, id, idl);
		free(shown);
		if (mod != PBUILD_NO_MODULE)
			added++;
	}
	for (size_t i = 0; i < nmods; i++) {
		const struct pct_module *r = pbuild_module_rec(b, (uint32_t)i, NULL);
		if (!seen[i] && !(r->flags & PCT_MODF_UNMAPPED))
			pbuild_unmap(b, (uint32_t)i);
	}
	free(seen);
	free(line);
	u64map_free(&known);
	fclose(f);
	return added;
}
