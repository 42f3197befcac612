/*
 * profile.c - read and validate a pct profile file (pct(5)).
 *
 * The whole file is read into memory with read(2), then the header, the
 * module records and the string pool are read again.  The runtime
 * publishes a module before it counts any sample against it, so the second
 * read sees every module that the (older) table copy can refer to: a live
 * file gives a consistent snapshot, never a torn header.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profile.h"
#include "util.h"

static int fail(char *err, size_t errlen, const char *file, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(err, errlen, "'%s': ", file);
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < errlen)
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static int read_all(int fd, void *buf, size_t len, off_t off)
{
	size_t done = 0;
	while (done < len) {
		ssize_t r = pread(fd, (char *)buf + done, len - done, off + (off_t)done);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		done += (size_t)r;
	}
	return 0;
}

/* Is [off, off + len) inside a file of size bytes? */
static int in_file(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

const char *build_id_hex(const uint8_t *id, size_t len, char *buf)
{
	static const char hex[] = "0123456789abcdef";
	for (size_t i = 0; i < len; i++) {
		buf[2 * i] = hex[id[i] >> 4];
		buf[2 * i + 1] = hex[id[i] & 15];
	}
	buf[2 * len] = '\0';
	return buf;
}

/* Copy the header at buf (size >= PCT_HEADER_MIN bytes) into h: a header
 * shorter than this pct's (a file without stacks) reads as zeros past its
 * end. */
static void copy_header(struct pct_header *h, const void *buf, uint64_t size)
{
	uint32_t n;
	memset(h, 0, sizeof *h);
	memcpy(h, buf, PCT_HEADER_MIN);
	n = h->header_size < sizeof *h ? h->header_size : sizeof *h;
	if (n > PCT_HEADER_MIN && n <= size)  /* a larger header_size fails check_header */
		memcpy(h, buf, n);
}

static int check_header(const struct pct_header *h, uint64_t size, const char *file, char *err,
			size_t errlen)
{
	if (memcmp(h->magic, PCT_MAGIC, PCT_MAGIC_LEN) != 0)
		return fail(err, errlen, file, "not a pct profile (bad magic)");
	if (h->byte_order == __builtin_bswap32(PCT_BYTE_ORDER))
		return fail(err, errlen, file, "written on a machine of the other byte order, which this pct does not read");
	if (h->byte_order != PCT_BYTE_ORDER)
		return fail(err, errlen, file, "bad byte-order mark 0x%08x", h->byte_order);
	if (h->version != PCT_VERSION)
		return fail(err, errlen, file, "format version %u; this pct reads version %u", h->version, PCT_VERSION);
	if (h->header_size < PCT_HEADER_MIN || h->header_size > size)
		return fail(err, errlen, file, "bad header_size %u", h->header_size);
	if (h->file_size != size)
		return fail(err, errlen, file, "file is %llu bytes but its header says %llu (truncated or padded)",
			    (unsigned long long)size, (unsigned long long)h->file_size);
	if (h->state != PCT_STATE_RUNNING && h->state != PCT_STATE_COMPLETE)
		return fail(err, errlen, file, "bad state %u", h->state);
	if (h->mechanism != PCT_MECH_CPU_TIMER && h->mechanism != PCT_MECH_PERF)
		return fail(err, errlen, file, "unknown sampling mechanism %u", h->mechanism);
	if (h->event < 1 || h->event > PCT_EVENT_MAX)
		return fail(err, errlen, file, "unknown event %u", h->event);
	if (memchr(h->dimension, '\0', sizeof h->dimension) == NULL || h->dimension[0] == '\0')
		return fail(err, errlen, file, "dimension is not a NUL-terminated name");
	for (const char *c = h->dimension; *c; c++)
		if ((unsigned char)*c <= ' ' || *c == 0x7f)
			return fail(err, errlen, file, "dimension contains a blank or control character");
	if (h->stacks_offset != 0 &&
	    (h->stacks_offset % 8 != 0 || !in_file(h->stacks_offset, h->stacks_size, size) ||
	     h->stack_regs > PROFILE_STACK_REGS_MAX || h->stack_bytes_max > PROFILE_STACK_BYTES_MAX))
		return fail(err, errlen, file, "stack region (%llu bytes at offset %llu, %u registers, "
			    "%u bytes per stack) is malformed or outside the file",
			    (unsigned long long)h->stacks_size, (unsigned long long)h->stacks_offset,
			    h->stack_regs, h->stack_bytes_max);
	if (h->module_size != sizeof(struct pct_module))
		return fail(err, errlen, file, "module_size %u, expected %zu", h->module_size, sizeof(struct pct_module));
	if (h->entry_size != sizeof(struct pct_entry))
		return fail(err, errlen, file, "entry_size %u, expected %zu", h->entry_size, sizeof(struct pct_entry));
	if (h->thread_size != sizeof(struct pct_thread))
		return fail(err, errlen, file, "thread_size %u, expected %zu", h->thread_size, sizeof(struct pct_thread));
	if (h->threads_max > PCT_THREADS_LIMIT || h->threads_count > h->threads_max ||
	    h->threads_offset % 8 != 0 || !in_file(h->threads_offset, (uint64_t)h->threads_max * h->thread_size, size))
		return fail(err, errlen, file, "thread table (%u slots at offset %llu) is malformed or outside the file",
			    h->threads_max, (unsigned long long)h->threads_offset);
	if (h->modules_max > PCT_MODULES_LIMIT)
		return fail(err, errlen, file, "modules_max %u exceeds the format's limit of %u modules", h->modules_max,
			    PCT_MODULES_LIMIT);
	if (!in_file(h->modules_offset, (uint64_t)h->modules_max * h->module_size, size))
		return fail(err, errlen, file, "module table (%u records at offset %llu) lies outside the file",
			    h->modules_max, (unsigned long long)h->modules_offset);
	if (h->modules_offset % 8 != 0 || h->table_offset % 8 != 0)
		return fail(err, errlen, file, "module table or sample table is not 8-byte aligned");
	if (h->modules_count > h->modules_max)
		return fail(err, errlen, file, "modules_count %u exceeds modules_max %u", h->modules_count, h->modules_max);
	if (!in_file(h->strings_offset, h->strings_size, size) || h->strings_used > h->strings_size)
		return fail(err, errlen, file, "string pool lies outside the file");
	if (h->table_slots == 0 || (h->table_slots & (h->table_slots - 1)) != 0 ||
	    h->table_slots > (UINT64_C(1) << 40) ||
	    !in_file(h->table_offset, h->table_slots * h->entry_size, size))
		return fail(err, errlen, file, "sample table (%llu slots at offset %llu) is malformed or outside the file",
			    (unsigned long long)h->table_slots, (unsigned long long)h->table_offset);
	if (!in_file(h->cmdline_offset, h->cmdline_len, h->strings_used))
		return fail(err, errlen, file, "command line lies outside the string pool");
	if (h->cpu_last_ns < h->cpu_start_ns)
		return fail(err, errlen, file, "CPU time at the last sample precedes the start");
	return 0;
}

static int read_modules(struct profile *p, const char *pool, const char *file, char *err, size_t errlen,
			const struct pct_module *recs)
{
	const struct pct_header *h = &p->hdr;

	p->nmodules = h->modules_count;
	p->modules = xcalloc(p->nmodules, sizeof *p->modules);
	for (size_t i = 0; i < p->nmodules; i++) {
		const struct pct_module *m = &recs[i];
		struct profile_module *pm = &p->modules[i];
		if (m->path_len > PCT_PATH_MAX)
			return fail(err, errlen, file, "module %zu: path of %u bytes, longer than the limit of %d", i,
				    m->path_len, PCT_PATH_MAX);
		if (!in_file(m->path_offset, (uint64_t)m->path_len + 1, h->strings_used) ||
		    pool[m->path_offset + m->path_len] != '\0' || m->path_len == 0)
			return fail(err, errlen, file, "module %zu: path lies outside the string pool", i);
		if (m->kind < PCT_MOD_FILE || m->kind > PCT_MOD_ANON)
			return fail(err, errlen, file, "module %zu: unknown kind %u", i, m->kind);
		if (m->build_id_len > PCT_BUILD_ID_MAX)
			return fail(err, errlen, file, "module %zu: build-id of %u bytes", i, m->build_id_len);
		if (m->start >= m->end)
			return fail(err, errlen, file, "module %zu: empty address range", i);
		pm->path = xstrdup(pool + m->path_offset);
		if (strlen(pm->path) != m->path_len)
			return fail(err, errlen, file, "module %zu: path contains a NUL byte", i);
		pm->kind = m->kind;
		pm->build_id_len = m->build_id_len;
		memcpy(pm->build_id, m->build_id, m->build_id_len);
		pm->start = m->start;
		pm->end = m->end;
		pm->file_offset = m->file_offset;
	}
	return 0;
}

/* A sample whose module was unknown to the handler may lie in a module
 * that was recorded later: resolve it now if exactly that is the case. */
static void resolve_late(struct profile *p, struct profile_sample *s)
{
	for (size_t i = p->nmodules; i-- > 0;) {
		const struct profile_module *m = &p->modules[i];
		if (s->offset >= m->start && s->offset < m->end) {
			s->module = (uint32_t)i;
			s->offset = s->offset - m->start + m->file_offset;
			return;
		}
	}
}

static void read_threads(struct profile *p, const struct pct_thread *t)
{
	p->nthreads = p->hdr.threads_max;
	p->threads = xcalloc(p->nthreads ? p->nthreads : 1, sizeof *p->threads);
	for (size_t i = 0; i < p->nthreads; i++) {
		struct profile_thread *pt = &p->threads[i];
		pt->tid = t[i].tid;
		pt->samples = t[i].samples;
		for (size_t c = 0; c < sizeof t[i].name && t[i].name[c]; c++)
			pt->name[c] = (unsigned char)t[i].name[c] < ' ' || t[i].name[c] == 0x7f ? '?' : t[i].name[c];
	}
}

static int read_table(struct profile *p, const struct pct_entry *e, const char *file, char *err, size_t errlen)
{
	size_t cap = 0;

	for (uint64_t i = 0; i < p->hdr.table_slots; i++) {
		if (e[i].key == 0 || e[i].key == PCT_KEY_BUSY || e[i].count == 0)
			continue;
		uint32_t mod = (uint32_t)(e[i].key >> PCT_KEY_MODULE_SHIFT);
		struct profile_sample s = { .offset = e[i].key & PCT_KEY_OFFSET_MASK, .count = e[i].count };
		uint64_t thread = e[i].ctx & PCT_CTX_THREAD_MASK;
		if ((e[i].ctx & ~(uint64_t)PCT_CTX_THREAD_MASK) != 0 || thread > p->nthreads ||
		    (thread && p->threads[thread - 1].tid == 0))
			return fail(err, errlen, file, "sample slot %llu has a bad context 0x%llx",
				    (unsigned long long)i, (unsigned long long)e[i].ctx);
		s.thread = (uint32_t)thread;
		if (mod == PCT_KEY_UNKNOWN_MODULE) {
			s.module = PROFILE_NO_MODULE;
			resolve_late(p, &s);
		} else if (mod == 0 || mod > p->nmodules) {
			return fail(err, errlen, file, "sample slot %llu refers to module %u of %zu",
				    (unsigned long long)i, mod - 1, p->nmodules);
		} else {
			s.module = mod - 1;
		}
		if (p->total + s.count < p->total)
			return fail(err, errlen, file, "sample counts overflow 64 bits");
		p->total += s.count;
		grow(&p->samples, &cap, p->nsamples + 1, sizeof *p->samples);
		p->samples[p->nsamples++] = s;
	}
	return 0;
}

/* The stack records (pct_format.h): copied out, so that they outlive the
 * file's buffer; each is checked against the region and the thread table. */
static int read_stacks(struct profile *p, const char *buf, const char *file, char *err, size_t errlen)
{
	const struct pct_header *h = &p->hdr;
	uint64_t used = h->stacks_used < h->stacks_size ? h->stacks_used : h->stacks_size;
	uint64_t head = sizeof(struct pct_stack) + 8 * (uint64_t)h->stack_regs;
	size_t cap = 0;

	if (h->stacks_offset == 0 || used == 0)
		return 0;
	p->stackdata = xmalloc(used);
	memcpy(p->stackdata, buf + h->stacks_offset, used);
	for (uint64_t off = 0; off + sizeof(struct pct_stack) <= used;) {
		struct pct_stack r;
		memcpy(&r, p->stackdata + off, sizeof r);
		if (r.size == 0)
			break;
		if (r.size % 8 != 0 || r.size < head || r.size > used - off ||
		    r.stack_len > r.size - head)
			return fail(err, errlen, file, "stack record at byte %llu of the stack region has a bad "
				    "size (%u bytes, %u of stack)", (unsigned long long)off, r.size, r.stack_len);
		uint32_t thread = r.ctx & PCT_CTX_THREAD_MASK;
		if ((r.ctx & PCT_STACK_DONE) && r.weight > 0) {
			if (thread > p->nthreads || (thread && p->threads[thread - 1].tid == 0))
				return fail(err, errlen, file, "stack record at byte %llu of the stack region "
					    "names thread slot %u, which is empty", (unsigned long long)off, thread);
			grow(&p->stacks, &cap, p->nstacks + 1, sizeof *p->stacks);
			struct profile_stack *ps = &p->stacks[p->nstacks++];
			ps->thread = thread;
			ps->weight = r.weight;
			ps->sp = r.sp;
			ps->regs = (const uint64_t *)(p->stackdata + off + sizeof r);
			ps->stack = (const uint8_t *)(p->stackdata + off + head);
			ps->stack_len = r.stack_len;
		}
		off += r.size;
	}
	return 0;
}

int profile_parse(const char *name, const void *data, size_t size, struct profile *p, char *err, size_t errlen)
{
	const char *buf = data;

	memset(p, 0, sizeof *p);
	p->file = xstrdup(name);
	if (size < PCT_HEADER_MIN) {
		fail(err, errlen, name, "only %zu bytes: too short for a pct header (%d)", size, PCT_HEADER_MIN);
		goto bad;
	}
	copy_header(&p->hdr, buf, size);
	if (check_header(&p->hdr, size, name, err, errlen) != 0)
		goto bad;
	const char *pool = buf + p->hdr.strings_offset;
	if (read_modules(p, pool, name, err, errlen, (const struct pct_module *)(buf + p->hdr.modules_offset)) != 0)
		goto bad;
	read_threads(p, (const struct pct_thread *)(buf + p->hdr.threads_offset));
	if (read_table(p, (const struct pct_entry *)(buf + p->hdr.table_offset), name, err, errlen) != 0 ||
	    read_stacks(p, buf, name, err, errlen) != 0)
		goto bad;
	p->cmdline = xmalloc(p->hdr.cmdline_len + 1);
	memcpy(p->cmdline, pool + p->hdr.cmdline_offset, p->hdr.cmdline_len);
	p->cmdline[p->hdr.cmdline_len] = '\0';
	for (uint32_t i = 0; i + 1 < p->hdr.cmdline_len; i++)
		if (p->cmdline[i] == '\0')
			p->cmdline[i] = ' ';
	p->command = xstrdup(p->hdr.cmdline_len ? path_base(pool + p->hdr.cmdline_offset) : "?");
	for (char *c = p->command; *c; c++)
		if ((unsigned char)*c < ' ' || *c == 0x7f)
			*c = '?';
	p->cpu_ns = p->hdr.cpu_last_ns - p->hdr.cpu_start_ns;
	/* Wall time and hardware events are not CPU time: their samples cover
	 * samples x period (ns of wall-clock time, or events). */
	if (p->hdr.event == PCT_EVENT_WALL || p->hdr.event >= PCT_EVENT_CYCLES) {
		uint64_t n = p->total + p->hdr.dropped, cover;
		p->cpu_ns = __builtin_mul_overflow(n, p->hdr.period_requested_ns, &cover) ? UINT64_MAX : cover;
	}
	return 0;
bad:
	profile_free(p);
	return -1;
}

int profile_read(const char *file, struct profile *p, char *err, size_t errlen)
{
	struct stat st;
	struct pct_header h;
	char *buf = NULL;
	int fd, rc = -1;

	memset(p, 0, sizeof *p);
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(err, errlen, file, "%s", strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		fail(err, errlen, file, "not a regular file");
		goto out;
	}
	uint64_t size = (uint64_t)st.st_size;
	if (size < PCT_HEADER_MIN) {
		fail(err, errlen, file, "only %llu bytes: too short for a pct header (%d)",
		     (unsigned long long)size, PCT_HEADER_MIN);
		goto out;
	}
	if (size > (UINT64_C(1) << 40)) {
		fail(err, errlen, file, "%llu bytes: larger than any pct profile", (unsigned long long)size);
		goto out;
	}
	buf = malloc(size);
	if (buf == NULL) {
		fail(err, errlen, file, "cannot allocate %llu bytes to read it", (unsigned long long)size);
		goto out;
	}
	if (read_all(fd, buf, size, 0) != 0) {
		fail(err, errlen, file, "read failed or file shrank: %s", errno ? strerror(errno) : "short read");
		goto out;
	}
	copy_header(&h, buf, size);
	if (check_header(&h, size, file, err, errlen) != 0)
		goto out;
	/* Re-read everything before the table: it is at least as new as the
	 * table copy, so it lists every module the table refers to. */
	if (read_all(fd, buf, h.table_offset, 0) != 0) {
		fail(err, errlen, file, "second read failed: %s", strerror(errno));
		goto out;
	}
	rc = profile_parse(file, buf, size, p, err, errlen);
out:
	free(buf);
	close(fd);
	return rc;
}

int is_profile(const char *path)
{
	char magic[PCT_MAGIC_LEN];
	FILE *f = fopen(path, "rb");
	int yes = f && fread(magic, 1, sizeof magic, f) == sizeof magic && memcmp(magic, PCT_MAGIC, PCT_MAGIC_LEN) == 0;
	if (f)
		fclose(f);
	return yes;
}

void profile_free(struct profile *p)
{
	for (size_t i = 0; i < p->nmodules; i++)
		free(p->modules[i].path);
	free(p->modules);
	free(p->samples);
	free(p->cmdline);
	free(p->command);
	free(p->threads);
	free(p->stacks);
	free(p->stackdata);
	free(p->file);
	memset(p, 0, sizeof *p);
}

const char *event_name(uint32_t event)
{
	static const char *const names[] = { "?", "cpu", "user", "wall", "cycles", "instructions",
					     "cache-misses", "branch-misses" };
	return event <= PCT_EVENT_MAX ? names[event] : "?";
}

double profile_rate(const struct profile *p)
{
	uint64_t n = p->total + p->hdr.dropped;
	return p->cpu_ns && n ? (double)n / ((double)p->cpu_ns / 1e9) : 0.0;
}
