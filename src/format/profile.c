/*
 * profile.c - read and validate a pct profile file (pct(5)).
 *
 * The file is named by someone else, so nothing in it is trusted before it
 * is checked: it is opened only if it is a regular file (infile_open), the
 * header is read and checked against the file's size first, and then only
 * the regions the header describes are read, each bounded by it.  The
 * sample table is read in chunks, skipping holes (SEEK_DATA), and only its
 * used slots are kept; stack records are read one by one up to the first
 * empty one.  A sparse file claiming to be huge therefore costs neither
 * time nor memory.
 *
 * The table and the stacks are read first, then the header, the module
 * records, the string pool and the thread table are read again.  The
 * runtime publishes a module before it counts any sample against it, so
 * the second read sees every module that the (older) table copy can refer
 * to: a live file gives a consistent snapshot, never a torn header.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "escape.h"
#include "infile.h"
#include "profile.h"
#include "ticks.h"
#include "stats.h"
#include "util.h"

#define PROFILE_MAX_SAMPLES (1ULL << 48)
/* no process uses 2^62 ns of CPU time (146 years): more is damage */
#define PROFILE_MAX_CPU_NS (1ULL << 62)
#define PROFILE_BUCKETS_MAX (1u << 24)   /* bucket table slots a reader accepts */
#define PROFILE_BUCKET_MS_MAX 3600000u   /* the longest bucket a reader accepts, ms */

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
		if (r == 0)
			errno = 0;  /* the file is shorter than it said */
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
	if (h->version < 3)                /* no time fields, whatever the bytes say */
		memset((char *)h + PCT_HEADER_V2, 0, sizeof *h - PCT_HEADER_V2);
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
	if (h->version < PCT_VERSION_MIN || h->version > PCT_VERSION)
		return fail(err, errlen, file, "format version %u; this pct reads versions %u to %u", h->version,
			    PCT_VERSION_MIN, PCT_VERSION);
	if (h->header_size < PCT_HEADER_MIN || h->header_size > size)
		return fail(err, errlen, file, "bad header_size %u", h->header_size);
	if (h->file_size != size)
		return fail(err, errlen, file, "file is %llu bytes but its header says %llu (truncated or padded)",
			    (unsigned long long)size, (unsigned long long)h->file_size);
	if (h->state != PCT_STATE_RUNNING && h->state != PCT_STATE_COMPLETE)
		return fail(err, errlen, file, "bad state %u", h->state);
	if (h->mechanism != PCT_MECH_CPU_TIMER && h->mechanism != PCT_MECH_PERF &&
	    h->mechanism != PCT_MECH_PERF_ATTACH && h->mechanism != PCT_MECH_PTRACE)
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
	if (h->cmdline_len > PROFILE_CMDLINE_MAX)
		return fail(err, errlen, file, "command line of %u bytes, longer than the limit of %u", h->cmdline_len,
			    PROFILE_CMDLINE_MAX);
	/* the pool holds the module paths and the command line, no more:
	 * a larger claim would only make a reader allocate for nothing (a
	 * page of slack, so that one path over PCT_PATH_MAX is named as such
	 * when the modules are read) */
	uint64_t pool_max = (uint64_t)h->modules_max * (PCT_PATH_MAX + 1) + h->cmdline_len + 4096;
	if (h->strings_used > pool_max)
		return fail(err, errlen, file, "string pool of %llu bytes in use, more than %u module paths and "
			    "the command line can fill (%llu)", (unsigned long long)h->strings_used, h->modules_max,
			    (unsigned long long)pool_max);
	if (h->ticks_offset != 0 &&
	    (h->ticks_offset % 8 != 0 || h->ticks_max >= (UINT64_C(1) << 32) ||
	     !in_file(h->ticks_offset, h->ticks_max * sizeof(struct pct_tick), size)))
		return fail(err, errlen, file, "tick log (%llu records at offset %llu) is malformed or outside the file",
			    (unsigned long long)h->ticks_max, (unsigned long long)h->ticks_offset);
	if (h->buckets_offset != 0 &&
	    (h->buckets_offset % 8 != 0 || h->buckets_slots == 0 || (h->buckets_slots & (h->buckets_slots - 1)) ||
	     h->buckets_slots > PROFILE_BUCKETS_MAX || h->bucket_ms == 0 || h->bucket_ms > PROFILE_BUCKET_MS_MAX ||
	     !in_file(h->buckets_offset, (uint64_t)h->buckets_slots * sizeof(struct pct_bucket), size)))
		return fail(err, errlen, file, "bucket table (%u slots of %u ms at offset %llu) is malformed or outside "
			    "the file", h->buckets_slots, h->bucket_ms, (unsigned long long)h->buckets_offset);
	if (h->clock_end_ns != 0 && h->clock_end_ns < h->clock_start_ns)
		return fail(err, errlen, file, "sampling ends (clock_end_ns) before it starts (clock_start_ns)");
	if (h->cpu_last_ns < h->cpu_start_ns)
		return fail(err, errlen, file, "CPU time at the last sample precedes the start");
	if (h->cpu_last_ns > PROFILE_MAX_CPU_NS)
		return fail(err, errlen, file, "header field cpu_last_ns is %llu ns, more CPU time than a process "
			    "can use (2^62 ns, 146 years)", (unsigned long long)h->cpu_last_ns);
	/* no process takes 2^48 samples (890 years of CPU at 10 kHz): a
	 * larger count is damage, not data */
	const struct { const char *name; uint64_t v; } counts[] = {
		{ "samples", h->samples }, { "dropped", h->dropped }, { "stacks_dropped", h->stacks_dropped },
		{ "untimed", h->untimed },
	};
	for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
		if (counts[i].v > PROFILE_MAX_SAMPLES)
			return fail(err, errlen, file, "header field %s is %llu, more samples than a process can take "
				    "(2^48)", counts[i].name, (unsigned long long)counts[i].v);
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

/* One used slot of the sample table, and where it was. */
struct slot {
	uint64_t index;
	struct pct_entry e;
};

/*
 * The samples of the table's used slots.  They are made in place, over
 * the slots (a sample, 24 bytes, is smaller than a slot, 32: sample k is
 * written only after slots 0..k are read), and *slots becomes
 * p->samples: a second array as large would cost its page faults again
 * (10^7 samples: 240 MB).  On an error *slots is left to the caller.
 */
static int read_table(struct profile *p, struct slot **slots, size_t n, const char *file, char *err,
		      size_t errlen)
{
	_Static_assert(sizeof(struct profile_sample) <= sizeof(struct slot), "samples are made over the slots");
	char *buf = (char *)*slots;

	for (size_t k = 0; k < n; k++) {
		struct slot sl;
		memcpy(&sl, buf + k * sizeof sl, sizeof sl);
		const struct pct_entry *e = &sl.e;
		unsigned long long i = (unsigned long long)sl.index;
		uint32_t mod = (uint32_t)(e->key >> PCT_KEY_MODULE_SHIFT);
		struct profile_sample s = { .offset = e->key & PCT_KEY_OFFSET_MASK, .count = e->count };
		uint64_t thread = e->ctx & PCT_CTX_THREAD_MASK;
		if ((e->ctx & ~(uint64_t)PCT_CTX_THREAD_MASK) != 0 || thread > p->nthreads ||
		    (thread && p->threads[thread - 1].tid == 0))
			return fail(err, errlen, file, "sample slot %llu has a bad context 0x%llx", i,
				    (unsigned long long)e->ctx);
		s.thread = (uint32_t)thread;
		if (mod == PCT_KEY_UNKNOWN_MODULE) {
			s.module = PROFILE_NO_MODULE;
			resolve_late(p, &s);
		} else if (mod == 0 || mod > p->nmodules) {
			return fail(err, errlen, file, "sample slot %llu refers to module %u of %zu", i, mod - 1,
				    p->nmodules);
		} else {
			s.module = mod - 1;
		}
		if (s.module != PROFILE_NO_MODULE && p->modules[s.module].kind == PCT_MOD_ANON) {
			/* JIT code has no file: its samples are kept at their
			 * absolute addresses, the ones a perf map names */
			const struct profile_module *m = &p->modules[s.module];
			s.offset = (s.offset - m->file_offset + m->start) & PCT_KEY_OFFSET_MASK;
		}
		if (p->total + s.count < p->total)
			return fail(err, errlen, file, "sample counts overflow 64 bits");
		p->total += s.count;
		memcpy(buf + k * sizeof s, &s, sizeof s);
	}
	p->samples = xrealloc(buf, n * sizeof *p->samples);
	p->nsamples = n;
	for (size_t i = 0; i < p->nmodules; i++)
		if (p->modules[i].kind == PCT_MOD_ANON)
			p->modules[i].file_offset = p->modules[i].start;   /* offset = address */
	*slots = NULL;
	return 0;
}

static int slot_used(const struct pct_entry *e)
{
	return e->key != 0 && e->key != PCT_KEY_BUSY && e->count != 0;
}

/*
 * Where the stack region's bytes come from: a profile in memory (mem), or
 * a file (fd), read as far as the records go.  stackdata holds the first
 * have bytes of the region.
 */
struct stack_src {
	const char *mem;
	int fd;
	uint64_t off, used;
	uint64_t have;
};

/*
 * The buffer for the region's used bytes: an anonymous mapping asked to be
 * backed by transparent huge pages (madvise(2), MADV_HUGEPAGE), 2 MiB
 * aligned.  The stack copies are most of a -g profile (~3 KiB a sample),
 * and faulting them in 4 KiB pages cost most of the time of reading one:
 * 330 MB read in 1.1 s of system time with 4 KiB pages, 0.15 s with huge
 * pages, on this project's 2-CPU VM.  The pages are touched only as far as
 * the records are read.
 */
#define STACK_BUF_ALIGN ((size_t)2 << 20)
static int stacks_buffer(struct profile *p, uint64_t used)
{
	if (used > SIZE_MAX - 2 * STACK_BUF_ALIGN) {
		errno = ENOMEM;
		return -1;
	}
	size_t len = ((size_t)used + STACK_BUF_ALIGN - 1) / STACK_BUF_ALIGN * STACK_BUF_ALIGN + STACK_BUF_ALIGN;
	void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED)
		return -1;
	char *at = (char *)(((uintptr_t)m + STACK_BUF_ALIGN - 1) & ~(uintptr_t)(STACK_BUF_ALIGN - 1));
#ifdef MADV_HUGEPAGE
	(void)madvise(at, len - (size_t)(at - (char *)m), MADV_HUGEPAGE);  /* a hint: 4 KiB pages else */
#endif
	p->stackmap = m;
	p->stackmap_len = len;
	p->stackdata = at;
	return 0;
}

/* Make the first n (<= used) bytes of the region readable in stackdata. */
static int stacks_fetch(struct profile *p, struct stack_src *s, uint64_t n)
{
	if (n <= s->have)
		return 0;
	if (p->stackmap == NULL && stacks_buffer(p, s->used) != 0)
		return -1;
	/* 1 MiB at least, and only as far as the records go: the region's
	 * empty tail (most of it, in a short run) is never touched */
	uint64_t want = n - s->have < (1u << 20) ? s->have + (1u << 20) : n;
	if (want > s->used)
		want = s->used;
	if (s->mem) {
		memcpy(p->stackdata + s->have, s->mem + s->have, want - s->have);
		s->have = want;
		return 0;
	}
	if (read_all(s->fd, p->stackdata + s->have, want - s->have, (off_t)(s->off + s->have)) != 0)
		return -1;
	s->have = want;
	return 0;
}

/* Read the stack records of a file up to the first empty or malformed
 * one, without checking them yet: they are part of the older copy, read
 * with the table. */
static int stacks_prefetch(struct profile *p, struct stack_src *s)
{
	const struct pct_header *h = &p->hdr;
	uint64_t most = sizeof(struct pct_stack) + 8 * (uint64_t)h->stack_regs +
			(((uint64_t)h->stack_bytes_max + 7) & ~UINT64_C(7));  /* a record's largest size */
	for (uint64_t off = 0; off + sizeof(struct pct_stack) <= s->used;) {
		uint32_t size;
		if (stacks_fetch(p, s, off + sizeof(struct pct_stack)) != 0)
			return -1;
		memcpy(&size, p->stackdata + off, sizeof size);
		if (size == 0 || size % 8 != 0 || size > s->used - off || size > most)
			break;
		if (stacks_fetch(p, s, off + size) != 0)
			return -1;
		off += size;
	}
	return 0;
}

/* The stack records (pct_format.h): copied out, so that they outlive the
 * file's buffer; each is checked against the region and the thread table.
 * Only the records up to the first empty one are read. */
static int read_stacks(struct profile *p, struct stack_src *src, const char *file, char *err, size_t errlen)
{
	const struct pct_header *h = &p->hdr;
	uint64_t used = src->used;
	uint64_t head = sizeof(struct pct_stack) + 8 * (uint64_t)h->stack_regs;
	uint64_t stack_max = ((uint64_t)h->stack_bytes_max + 7) & ~UINT64_C(7);
	size_t cap = 0;

	if (h->stacks_offset == 0 || used == 0)
		return 0;
	for (uint64_t off = 0; off + sizeof(struct pct_stack) <= used;) {
		struct pct_stack r;
		if (stacks_fetch(p, src, off + sizeof r) != 0)
			return fail(err, errlen, file, "cannot read the stack region: %s",
				    errno ? strerror(errno) : "file shrank");
		memcpy(&r, p->stackdata + off, sizeof r);
		if (r.size == 0)
			break;
		if (r.size % 8 != 0 || r.size < head || r.size > used - off || r.size - head > stack_max ||
		    r.stack_len > r.size - head)
			return fail(err, errlen, file, "stack record at byte %llu of the stack region has a bad "
				    "size (%u bytes, %u of stack)", (unsigned long long)off, r.size, r.stack_len);
		if (stacks_fetch(p, src, off + r.size) != 0)
			return fail(err, errlen, file, "cannot read the stack region: %s",
				    errno ? strerror(errno) : "file shrank");
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
			ps->regs = (const uint64_t *)(uintptr_t)(off + sizeof r);  /* offsets until the end */
			ps->stack = (const uint8_t *)(uintptr_t)(off + head);
			ps->stack_len = r.stack_len;
			ps->tick = r.tick;
		}
		off += r.size;
	}
	for (size_t i = 0; i < p->nstacks; i++) {  /* stackdata no longer moves */
		p->stacks[i].regs = (const uint64_t *)(p->stackdata + (uintptr_t)p->stacks[i].regs);
		p->stacks[i].stack = (const uint8_t *)(p->stackdata + (uintptr_t)p->stacks[i].stack);
	}
	return 0;
}

/* The parts of a profile, wherever they were read from. */
struct parts {
	const struct pct_module *modules;  /* modules_count records */
	const char *pool;                  /* strings_used bytes */
	const struct pct_thread *threads;  /* threads_max records */
	struct slot *slots;                /* the table's used slots (malloc'd; taken by read_table) */
	size_t nslots;
	struct stack_src stacks;
	const struct tick_rec *ticks;      /* the tick log's written records, nticks of them */
	size_t nticks;
	const struct bucket_rec *buckets;  /* the bucket table's used slots, nbuckets of them */
	size_t nbuckets;
};

static uint64_t stacks_used(const struct pct_header *h)
{
	return h->stacks_used < h->stacks_size ? h->stacks_used : h->stacks_size;
}

static size_t ticks_used(const struct pct_header *h)
{
	return (size_t)(h->ticks_used < h->ticks_max ? h->ticks_used : h->ticks_max);
}

/*
 * The process's label (profile.command): argv[0]'s base name, then the
 * other arguments, separated by spaces, shortened to
 * PROFILE_COMMAND_WIDTH bytes (cut at a character boundary of UTF-8,
 * "..." appended).  argv is len bytes of NUL-terminated arguments, or
 * NULL: "?".
 */
static char *command_label(const char *argv, uint32_t len)
{
	if (argv == NULL)
		return xstrdup("?");
	char *out = xmalloc(PROFILE_COMMAND_WIDTH + 4);
	size_t n = 0;
	const char *a = path_base(argv), *end = argv + len;
	int cut = 0;
	for (const char *arg = a; arg < end && !cut; arg += strnlen(arg, (size_t)(end - arg)) + 1) {
		size_t l = strnlen(arg, (size_t)(end - arg));
		if (arg != a && n == PROFILE_COMMAND_WIDTH)
			cut = 1;
		else if (arg != a)
			out[n++] = ' ';
		for (size_t i = 0; i < l && !cut; i++) {
			if (n == PROFILE_COMMAND_WIDTH)
				cut = 1;
			else
				out[n++] = arg[i];
		}
	}
	if (cut) {
		while (n && out[n - 1] == ' ')
			n--;
		while (n && ((unsigned char)out[n - 1] & 0xc0) == 0x80)   /* a continuation byte */
			n--;
		if (n && (unsigned char)out[n - 1] >= 0xc0)                /* the start of a cut character */
			n--;
		memcpy(out + n, "...", 3);
		n += 3;
	}
	out[n] = '\0';
	return out;
}

/* p->hdr is checked; build the rest of p from the parts. */
static int assemble(struct profile *p, struct parts *r, const char *name, char *err, size_t errlen)
{
	const char *pool = r->pool;
	if (read_modules(p, pool, name, err, errlen, r->modules) != 0)
		return -1;
	read_threads(p, r->threads);
	/* the table slot of each sample, for the ticks: ascending, as
	 * samples are made from the used slots in the table's order */
	uint64_t *slot_of = xmalloc((r->nslots ? r->nslots : 1) * sizeof *slot_of);
	for (size_t k = 0; k < r->nslots; k++)
		slot_of[k] = r->slots[k].index;
	int rc = read_table(p, &r->slots, r->nslots, name, err, errlen) != 0 ||
			 read_stacks(p, &r->stacks, name, err, errlen) != 0 ||
			 ticks_build(p, r->ticks, r->nticks, r->buckets, r->nbuckets, slot_of, name, err, errlen) != 0 ?
		 -1 : 0;
	free(slot_of);
	if (rc != 0)
		return -1;
	p->cmdline = xmalloc(p->hdr.cmdline_len + 1);
	memcpy(p->cmdline, pool + p->hdr.cmdline_offset, p->hdr.cmdline_len);
	p->cmdline[p->hdr.cmdline_len] = '\0';
	for (uint32_t i = 0; i + 1 < p->hdr.cmdline_len; i++)
		if (p->cmdline[i] == '\0')
			p->cmdline[i] = ' ';
	p->command = command_label(p->hdr.cmdline_len ? pool + p->hdr.cmdline_offset : NULL, p->hdr.cmdline_len);
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
}

int profile_parse(const char *name, const void *data, size_t size, struct profile *p, char *err, size_t errlen)
{
	struct tick_rec *tr = NULL;
	struct bucket_rec *br = NULL;
	size_t tcap = 0, bcap = 0;
	const char *buf = data;
	struct parts r = { .stacks.fd = -1 };
	size_t cap = 0;
	struct slot *slots = NULL;

	memset(p, 0, sizeof *p);
	p->file = xstrdup(name);
	if (size < PCT_HEADER_MIN) {
		fail(err, errlen, name, "only %zu bytes: too short for a pct header (%d)", size, PCT_HEADER_MIN);
		goto bad;
	}
	copy_header(&p->hdr, buf, size);
	if (check_header(&p->hdr, size, name, err, errlen) != 0)
		goto bad;
	const struct pct_entry *e = (const struct pct_entry *)(buf + p->hdr.table_offset);
	for (uint64_t i = 0; i < p->hdr.table_slots; i++)
		if (slot_used(&e[i])) {
			grow(&slots, &cap, r.nslots + 1, sizeof *slots);
			slots[r.nslots++] = (struct slot){ i, e[i] };
		}
	r.modules = (const struct pct_module *)(buf + p->hdr.modules_offset);
	r.pool = buf + p->hdr.strings_offset;
	r.threads = (const struct pct_thread *)(buf + p->hdr.threads_offset);
	r.slots = slots;               /* r owns them now */
	slots = NULL;
	r.stacks.mem = buf + p->hdr.stacks_offset;
	r.stacks.used = stacks_used(&p->hdr);
	if (p->hdr.ticks_offset) {
		const struct pct_tick *t = (const struct pct_tick *)(buf + p->hdr.ticks_offset);
		for (size_t i = 0, n = ticks_used(&p->hdr); i < n; i++)
			if (t[i].entry) {
				grow(&tr, &tcap, r.nticks + 1, sizeof *tr);
				tr[r.nticks++] = (struct tick_rec){ i, t[i] };
			}
		r.ticks = tr;
	}
	if (p->hdr.buckets_offset) {
		const struct pct_bucket *b = (const struct pct_bucket *)(buf + p->hdr.buckets_offset);
		for (uint32_t i = 0; i < p->hdr.buckets_slots; i++)
			if (b[i].key) {
				grow(&br, &bcap, r.nbuckets + 1, sizeof *br);
				br[r.nbuckets++] = (struct bucket_rec){ i, b[i] };
			}
		r.buckets = br;
	}
	if (assemble(p, &r, name, err, errlen) != 0)
		goto bad;
	free(tr);
	free(br);
	return 0;
bad:
	free(slots);
	free(r.slots);                 /* read_table took them, unless it failed */
	free(tr);
	free(br);
	profile_free(p);
	return -1;
}

/* Read the header of the file at fd (size bytes) into h and check it. */
static int read_header(int fd, uint64_t size, struct pct_header *h, const char *file, char *err, size_t errlen)
{
	char buf[sizeof *h];
	size_t n = size < sizeof buf ? (size_t)size : sizeof buf;
	if (read_all(fd, buf, n, 0) != 0)
		return fail(err, errlen, file, "cannot read the header: %s", errno ? strerror(errno) : "file shrank");
	copy_header(h, buf, n);
	return check_header(h, size, file, err, errlen);
}

/*
 * The records of es bytes at base of the file at fd, end of them, for
 * which used() holds: each as its index (8 bytes) then the record, in
 * *out (malloc'd; *n of them).  Read in chunks of at most 1 MiB, each up
 * to the next hole; holes (SEEK_DATA, SEEK_HOLE) are unused records and
 * are not read, so a sparse region costs what it holds, not its size.
 */
static int read_used(int fd, uint64_t base, size_t es, uint64_t end, int (*used)(const void *), void **out, size_t *n,
		     const char *what, const char *file, char *err, size_t errlen)
{
	const size_t chunk = ((size_t)1 << 20) / es, rs = 8 + es;
	char *e = xmalloc(chunk * es), *o = NULL;
	size_t cap = 0;
	int rc = -1;

	*n = 0;
	for (uint64_t i = 0; i < end;) {
		off_t at = (off_t)(base + i * es);
		off_t data = lseek(fd, at, SEEK_DATA);
		if (data < 0 && errno == ENXIO)
			break;                       /* a hole up to the end of the file */
		if (data > at) {
			uint64_t skip = ((uint64_t)data - base) / es;  /* whole unused records */
			if (skip > i)
				i = skip;
			if (i >= end)
				break;
		}
		uint64_t k = end - i < chunk ? end - i : chunk;
		/* only as far as the data goes: a hole after it is unused
		 * records (a sparse table of a few used pages was read 1 MiB a
		 * page) */
		off_t from = (off_t)(base + i * es);
		if (data > from)
			from = data;    /* the record that holds it starts in the hole before */
		off_t hole = lseek(fd, from, SEEK_HOLE);
		if (hole > (off_t)(base + i * es)) {
			uint64_t upto = ((uint64_t)hole - base + es - 1) / es;   /* records up to the hole */
			if (upto > i && upto - i < k)
				k = upto - i;
		}
		if (read_all(fd, e, k * es, (off_t)(base + i * es)) != 0) {
			fail(err, errlen, file, "cannot read the %s: %s", what, errno ? strerror(errno) : "file shrank");
			free(o);
			goto out;
		}
		for (uint64_t j = 0; j < k; j++)
			if (used(e + j * es)) {
				uint64_t index = i + j;
				grow(&o, &cap, *n + 1, rs);
				memcpy(o + *n * rs, &index, 8);
				memcpy(o + *n * rs + 8, e + j * es, es);
				(*n)++;
			}
		i += k;
	}
	*out = o;
	rc = 0;
out:
	free(e);
	return rc;
}

static int slot_used_rec(const void *r)
{
	struct pct_entry e;
	memcpy(&e, r, sizeof e);
	return slot_used(&e);
}

static int tick_written(const void *r)
{
	struct pct_tick t;
	memcpy(&t, r, sizeof t);
	return t.entry != 0;
}

/* The used slots of the sample table of the file at fd. */
static int read_slots(int fd, const struct pct_header *h, struct slot **slots, size_t *n, const char *file,
		      char *err, size_t errlen)
{
	_Static_assert(sizeof(struct slot) == 8 + sizeof(struct pct_entry), "read_used's layout");
	void *v;
	if (read_used(fd, h->table_offset, sizeof(struct pct_entry), h->table_slots, slot_used_rec, &v, n,
		      "sample table", file, err, errlen) != 0)
		return -1;
	*slots = v;
	return 0;
}

static int bucket_used(const void *r)
{
	struct pct_bucket b;
	memcpy(&b, r, sizeof b);
	return b.key != 0;
}

/* The used slots of the bucket table of the file at fd. */
static int read_buckets(int fd, const struct pct_header *h, struct bucket_rec **b, size_t *n, const char *file,
			char *err, size_t errlen)
{
	_Static_assert(sizeof(struct bucket_rec) == 8 + sizeof(struct pct_bucket), "read_used's layout");
	void *v;
	*b = NULL;
	*n = 0;
	if (h->buckets_offset == 0 || read_used(fd, h->buckets_offset, sizeof(struct pct_bucket), h->buckets_slots,
					       bucket_used, &v, n, "bucket table", file, err, errlen) != 0)
		return h->buckets_offset == 0 ? 0 : -1;
	*b = v;
	return 0;
}

/* The written records of the tick log of the file at fd (up to
 * ticks_used). */
static int read_ticks(int fd, const struct pct_header *h, struct tick_rec **ticks, size_t *n, const char *file,
		      char *err, size_t errlen)
{
	_Static_assert(sizeof(struct tick_rec) == 8 + sizeof(struct pct_tick), "read_used's layout");
	void *v;
	*ticks = NULL;
	*n = 0;
	if (h->ticks_offset == 0 || read_used(fd, h->ticks_offset, sizeof(struct pct_tick), ticks_used(h), tick_written,
					     &v, n, "tick log", file, err, errlen) != 0)
		return h->ticks_offset == 0 ? 0 : -1;
	*ticks = v;
	return 0;
}

/* len bytes at off of the file at fd, in a new buffer (never more than the
 * header's checked bounds ask for). */
static void *read_region(int fd, uint64_t off, uint64_t len, const char *what, const char *file, char *err,
			 size_t errlen)
{
	char *b = xmalloc(len ? len : 1);
	if (read_all(fd, b, len, (off_t)off) != 0) {
		fail(err, errlen, file, "cannot read the %s: %s", what, errno ? strerror(errno) : "file shrank");
		free(b);
		return NULL;
	}
	return b;
}

/* Standard input copied into an anonymous file, which profile_read_fd can
 * read at any offset (a pipe cannot be); -1 with *why set on failure.
 * Standard input is read once: later opens of "-" (a command that reads
 * its operands twice, as pct merge does) get a new descriptor of that
 * copy. */
static int stdin_copy(struct stat *st, const char **why)
{
	static int copy = -1;
	if (copy >= 0) {
		int fd = fcntl(copy, F_DUPFD_CLOEXEC, 0);
		if (fd < 0 || fstat(fd, st) != 0) {
			*why = strerror(errno);
			if (fd >= 0)
				close(fd);
			return -1;
		}
		return fd;
	}
	int fd = memfd_create("pct-stdin", MFD_CLOEXEC);
	if (fd < 0) {
		*why = strerror(errno);
		return -1;
	}
	char buf[65536];
	for (;;) {
		ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			*why = strerror(errno);
			close(fd);
			return -1;
		}
		if (n == 0)
			break;
		for (ssize_t done = 0; done < n;) {
			ssize_t w = write(fd, buf + done, (size_t)(n - done));
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0) {
				*why = strerror(errno);
				close(fd);
				return -1;
			}
			done += w;
		}
	}
	if (fstat(fd, st) != 0) {
		*why = strerror(errno);
		close(fd);
		return -1;
	}
	copy = fcntl(fd, F_DUPFD_CLOEXEC, 0);   /* kept for later opens; -1: read once only */
	return fd;
}

int profile_open(const char *file, const char **shown, uint64_t *size, char *err, size_t errlen)
{
	struct stat st;
	const char *why;
	int in = strcmp(file, "-") == 0;
	if (in)
		file = "standard input";
	*shown = file;
	int fd = in ? stdin_copy(&st, &why) : infile_open(file, 0, &st, &why);
	if (fd < 0)
		return fail(err, errlen, file, "cannot open: %s", why);
	*size = (uint64_t)st.st_size;
	return fd;
}

void profile_set_owner(struct profile *p, const struct stat *st)
{
	p->owned = 1;
	p->owner_uid = st->st_uid;
	p->owner_gid = st->st_gid;
}

int profile_read(const char *file, struct profile *p, char *err, size_t errlen)
{
	uint64_t size;
	struct stat st;
	memset(p, 0, sizeof *p);
	int fd = profile_open(file, &file, &size, err, errlen);
	if (fd < 0)
		return -1;
	int rc = profile_read_fd(fd, size, file, p, err, errlen);
	if (rc == 0 && fstat(fd, &st) == 0)
		profile_set_owner(p, &st);
	close(fd);
	return rc;
}


/* The header read again, into *h2, after the table was read under *h:
 * what the table refers to is then at least as new as the table copy.
 * -1 with err set if it cannot be read or its layout moved. */
static int reread_header(int fd, uint64_t size, const struct pct_header *h, struct pct_header *h2, const char *file,
			 char *err, size_t errlen)
{
	if (read_header(fd, size, h2, file, err, errlen) != 0)
		return -1;
	if (h2->table_offset != h->table_offset || h2->table_slots != h->table_slots ||
	    h2->stacks_offset != h->stacks_offset || h2->stacks_size != h->stacks_size ||
	    h2->ticks_offset != h->ticks_offset || h2->ticks_max != h->ticks_max ||
	    h2->buckets_offset != h->buckets_offset || h2->buckets_slots != h->buckets_slots)
		return fail(err, errlen, file, "the header's layout changed while it was read");
	return 0;
}
int profile_read_fd(int fd, uint64_t size, const char *file, struct profile *p, char *err, size_t errlen)
{
	struct pct_header h;
	struct parts r = { .stacks.fd = -1 };
	struct slot *slots = NULL;
	void *mods = NULL, *pool = NULL, *threads = NULL, *ticks = NULL, *buckets = NULL;
	int rc = -1;

	memset(p, 0, sizeof *p);
	if (size < PCT_HEADER_MIN) {
		fail(err, errlen, file, "only %llu bytes: too short for a pct header (%d)",
		     (unsigned long long)size, PCT_HEADER_MIN);
		goto out;
	}
	if (read_header(fd, size, &h, file, err, errlen) != 0)
		goto out;
	p->file = xstrdup(file);
	p->hdr = h;
	r.stacks.fd = fd;
	r.stacks.off = h.stacks_offset;
	r.stacks.used = h.stacks_offset ? stacks_used(&h) : 0;
	if (read_slots(fd, &h, &slots, &r.nslots, file, err, errlen) != 0)
		goto out;
	if (stacks_prefetch(p, &r.stacks) != 0) {
		fail(err, errlen, file, "cannot read the stack region: %s", errno ? strerror(errno) : "file shrank");
		goto out;
	}
	/* Read again everything the table refers to: it is at least as new
	 * as the table copy, so it lists every module the table refers to. */
	struct pct_header h2;
	if (reread_header(fd, size, &h, &h2, file, err, errlen) != 0)
		goto out;
	if ((mods = read_region(fd, h2.modules_offset, (uint64_t)h2.modules_count * h2.module_size,
				"module table", file, err, errlen)) == NULL ||
	    (pool = read_region(fd, h2.strings_offset, h2.strings_used, "string pool", file, err, errlen)) == NULL ||
	    (threads = read_region(fd, h2.threads_offset, (uint64_t)h2.threads_max * h2.thread_size,
				   "thread table", file, err, errlen)) == NULL)
		goto out;
	size_t nticks = 0;
	if (read_ticks(fd, &h2, (struct tick_rec **)&ticks, &nticks, file, err, errlen) != 0)
		goto out;
	size_t nbuckets = 0;
	if (read_buckets(fd, &h2, (struct bucket_rec **)&buckets, &nbuckets, file, err, errlen) != 0)
		goto out;
	r.ticks = ticks;
	r.nticks = nticks;
	r.buckets = buckets;
	r.nbuckets = nbuckets;
	p->hdr = h2;
	r.modules = mods;
	r.pool = pool;
	r.threads = threads;
	r.slots = slots;               /* r owns them now */
	slots = NULL;
	rc = assemble(p, &r, file, err, errlen);
out:
	if (rc != 0)
		profile_free(p);
	free(slots);
	free(r.slots);                 /* read_table took them, unless it failed */
	free(mods);
	free(pool);
	free(threads);
	free(ticks);
	free(buckets);
	return rc;
}

size_t profile_spans(const void *head, size_t len, uint64_t size, struct profile_span *out)
{
	struct pct_header h;
	char err[256];
	size_t n = 0;
	out[n++] = (struct profile_span){ 0, size < sizeof h ? size : sizeof h };
	if (len < out[0].len || size < PCT_HEADER_MIN)
		return n;
	copy_header(&h, head, size);
	if (check_header(&h, size, "", err, sizeof err) != 0)
		return n;
	out[n++] = (struct profile_span){ h.table_offset, h.table_slots * h.entry_size };
	out[n++] = (struct profile_span){ h.modules_offset, (uint64_t)h.modules_count * h.module_size };
	out[n++] = (struct profile_span){ h.strings_offset, h.strings_used };
	out[n++] = (struct profile_span){ h.threads_offset, (uint64_t)h.threads_max * h.thread_size };
	if (h.stacks_offset)
		out[n++] = (struct profile_span){ h.stacks_offset, stacks_used(&h) };
	if (h.ticks_offset)
		out[n++] = (struct profile_span){ h.ticks_offset, ticks_used(&h) * sizeof(struct pct_tick) };
	if (h.buckets_offset)
		out[n++] = (struct profile_span){ h.buckets_offset, (uint64_t)h.buckets_slots * sizeof(struct pct_bucket) };
	return n;
}

int profile_compact_fd(int fd, uint64_t size, const char *file, void **out, size_t *outlen, char *err,
		       size_t errlen)
{
	struct pct_header h;
	struct slot *slots = NULL;
	size_t n = 0;
	char *buf = NULL;
	struct pct_thread *threads = NULL;
	uint32_t *renum = NULL;        /* old thread slot + 1 -> new slot + 1 */
	struct tick_rec *ticks = NULL;
	struct bucket_rec *buckets = NULL;
	int rc = -1;

	*out = NULL;
	*outlen = 0;
	if (size < PCT_HEADER_MIN)
		return fail(err, errlen, file, "only %llu bytes: too short for a pct header (%d)",
			    (unsigned long long)size, PCT_HEADER_MIN);
	if (read_header(fd, size, &h, file, err, errlen) != 0 || read_slots(fd, &h, &slots, &n, file, err, errlen) != 0)
		goto out;
	/* the header again, as profile_read_fd does: what the table refers to
	 * is at least as new as the table copy */
	struct pct_header h2;
	if (reread_header(fd, size, &h, &h2, file, err, errlen) != 0)
		goto out;
	uint64_t slots_n = 1, stacks = h2.stacks_offset ? stacks_used(&h2) : 0;
	while (slots_n < n)
		slots_n *= 2;
	/* the thread table: its used slots packed (4096 slots were 128 KiB of
	 * each profile), renumbered in every entry's and stack record's ctx */
	threads = xmalloc((h2.threads_max ? h2.threads_max : 1) * sizeof *threads);
	if (read_all(fd, threads, (size_t)h2.threads_max * sizeof *threads, (off_t)h2.threads_offset) != 0) {
		fail(err, errlen, file, "cannot read the thread table: %s", errno ? strerror(errno) : "file shrank");
		goto out;
	}
	renum = xcalloc((size_t)h2.threads_max + 1, sizeof *renum);
	uint32_t used = 0;
	for (uint32_t t = 0; t < h2.threads_max; t++)
		if (threads[t].tid) {
			threads[used] = threads[t];
			renum[t + 1] = ++used;
		}
	/* the tick log's written records and the used buckets, packed */
	size_t nticks = 0, nb = 0;
	uint32_t bslots = 0;
	if (read_ticks(fd, &h2, &ticks, &nticks, file, err, errlen) != 0 ||
	    read_buckets(fd, &h2, &buckets, &nb, file, err, errlen) != 0)
		goto out;
	if (h2.buckets_offset) {
		for (size_t i = 0; i < nb; i++) {  /* their threads renumbered as the entries' */
			uint32_t th = (uint32_t)(buckets[i].b.key & PCT_BUCKET_THREAD_MASK);
			if (th <= h2.threads_max)
				buckets[i].b.key = (buckets[i].b.key & ~(uint64_t)PCT_BUCKET_THREAD_MASK) | renum[th];
		}
		for (bslots = 1; bslots < nb; bslots *= 2)
			;
	}
	struct pct_layout l;
	if (pct_layout(&l, h2.modules_count, h2.strings_used, used, slots_n, stacks, h2.ticks_offset ? nticks : 0,
		       h2.buckets_offset ? bslots : 0) != 0 ||
	    l.file_size > SIZE_MAX) {
		fail(err, errlen, file, "too large to compact");
		goto out;
	}
	buf = xcalloc(1, (size_t)l.file_size);
	if (read_all(fd, buf + l.modules_offset, (size_t)h2.modules_count * sizeof(struct pct_module),
		     (off_t)h2.modules_offset) != 0 ||
	    read_all(fd, buf + l.strings_offset, (size_t)h2.strings_used, (off_t)h2.strings_offset) != 0 ||
	    (stacks && read_all(fd, buf + l.stacks_offset, (size_t)stacks, (off_t)h2.stacks_offset) != 0)) {
		fail(err, errlen, file, "cannot read it: %s", errno ? strerror(errno) : "file shrank");
		goto out;
	}
	/* the used entries first, in the table's order; a reader scans every
	 * slot, so their hash positions do not matter */
	memcpy(buf + l.threads_offset, threads, (size_t)used * sizeof *threads);
	struct pct_entry *t = (struct pct_entry *)(buf + l.table_offset);
	for (size_t i = 0; i < n; i++) {
		t[i] = slots[i].e;
		uint64_t th = t[i].ctx & PCT_CTX_THREAD_MASK;
		if (th <= h2.threads_max)        /* else left for the parse to refuse */
			t[i].ctx = (t[i].ctx & ~(uint64_t)PCT_CTX_THREAD_MASK) | renum[th];
	}
	/* the stack records' ctx: walked as a reader walks them, to the first
	 * record not written */
	for (uint64_t off = 0; stacks && off + sizeof(struct pct_stack) <= stacks;) {
		struct pct_stack r;
		memcpy(&r, buf + l.stacks_offset + off, sizeof r);
		if (r.size < sizeof r || r.size % 8 != 0 || r.size > stacks - off)
			break;
		uint32_t th = r.ctx & PCT_CTX_THREAD_MASK;
		if (th <= h2.threads_max) {
			r.ctx = (r.ctx & ~(uint32_t)PCT_CTX_THREAD_MASK) | renum[th];
			memcpy(buf + l.stacks_offset + off + offsetof(struct pct_stack, ctx), &r.ctx, sizeof r.ctx);
		}
		/* its tick: where the record went in the packed log, 0 if it
		 * is not there */
		ptrdiff_t k = r.tick ? tick_rec_find(ticks, nticks, r.tick - 1) : -1;
		r.tick = k >= 0 ? (uint32_t)k + 1 : 0;
		memcpy(buf + l.stacks_offset + off + offsetof(struct pct_stack, tick), &r.tick, sizeof r.tick);
		off += r.size;
	}
	h2.header_size = sizeof h2;
	h2.file_size = l.file_size;
	h2.modules_offset = l.modules_offset;
	h2.modules_max = h2.modules_count;
	h2.strings_offset = l.strings_offset;
	h2.strings_size = h2.strings_used;
	h2.threads_offset = l.threads_offset;
	h2.threads_max = used;
	h2.threads_count = used;
	h2.table_offset = l.table_offset;
	h2.table_slots = slots_n;
	h2.slots_used = n;
	h2.stacks_offset = stacks ? l.stacks_offset : 0;
	h2.stacks_size = stacks;
	/* ticks name table slots: renumbered as the entries moved (slots[]
	 * is in the table's order); a tick of a slot not read is unwritten */
	if (h2.ticks_offset) {
		struct pct_tick *tk = (struct pct_tick *)(buf + l.ticks_offset);
		for (size_t i = 0; i < nticks; i++) {
			tk[i] = ticks[i].t;
			size_t lo = 0, hi = n;
			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;
				if (slots[mid].index + 1 < ticks[i].t.entry)
					lo = mid + 1;
				else
					hi = mid;
			}
			tk[i].entry = lo < n && slots[lo].index + 1 == ticks[i].t.entry ? (uint32_t)lo + 1 : 0;
		}
		/* a log with no tick is still a log: an empty one, at the end */
		h2.ticks_offset = nticks ? l.ticks_offset : l.file_size;
		h2.ticks_max = nticks;
		h2.ticks_used = nticks;
	}
	if (h2.buckets_offset) {
		for (size_t i = 0; i < nb; i++)
			memcpy(buf + l.buckets_offset + i * sizeof(struct pct_bucket), &buckets[i].b,
			       sizeof(struct pct_bucket));
		h2.buckets_offset = l.buckets_offset;
		h2.buckets_slots = bslots;
	}
	if (h2.stacks_used > stacks)
		h2.stacks_used = stacks;
	memcpy(buf, &h2, sizeof h2);
	*out = buf;
	*outlen = (size_t)l.file_size;
	buf = NULL;
	rc = 0;
out:
	free(buf);
	free(slots);
	free(threads);
	free(renum);
	free(ticks);
	free(buckets);
	return rc;
}

int is_profile(const char *path)
{
	char magic[PCT_MAGIC_LEN];
	const char *why;
	int fd = infile_open(path, 0, NULL, &why);
	if (fd < 0)
		return 0;
	int yes = read_all(fd, magic, sizeof magic, 0) == 0 && (memcmp(magic, PCT_MAGIC, PCT_MAGIC_LEN) == 0 ||
								  memcmp(magic, PCT_TREE_MAGIC, PCT_MAGIC_LEN) == 0);
	close(fd);
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
	free(p->ticks);
	free(p->buckets);
	if (p->stackmap)
		munmap(p->stackmap, p->stackmap_len);
	free(p->file);
	memset(p, 0, sizeof *p);
}

const char *event_name(uint32_t event)
{
	const struct pct_event_def *d = pct_event_by_id(event);
	return d ? d->name : "?";
}

double profile_rate(const struct profile *p)
{
	return stats_rate_hz(p->total + p->hdr.dropped, p->cpu_ns);
}

int profile_measures_cpu(const struct profile *p)
{
	return p->hdr.event == PCT_EVENT_CPU || p->hdr.event == PCT_EVENT_USER;
}

uint64_t profile_identity(const struct profile *p)
{
	uint64_t head[4] = { p->hdr.pid, p->hdr.clock_start_ns, (uint64_t)p->hdr.start_time_ns, p->total };
	uint64_t id = fnv1a(FNV1A_BASIS, head, sizeof head), sum = 0;
	uint64_t *mod = xcalloc(p->nmodules + 1, sizeof *mod);  /* each module's key; [nmodules]: none */
	for (size_t m = 0; m < p->nmodules; m++)
		mod[m] = module_hash(p->modules[m].path, p->modules[m].build_id, p->modules[m].build_id_len);
	for (size_t i = 0; i < p->nsamples; i++) {
		uint32_t m = p->samples[i].module < p->nmodules ? p->samples[i].module : (uint32_t)p->nmodules;
		uint64_t x = (p->samples[i].offset ^ mod[m]) * FNV1A_PRIME ^ p->samples[i].count;
		x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);  /* splitmix64's finalizer */
		x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
		sum += x ^ (x >> 31);
	}
	free(mod);
	return (id ^ sum) * FNV1A_PRIME;
}

void profile_twice_error(char *err, size_t errlen, const char *a, const char *b, uint32_t pid)
{
	char *ea = esc_dup(a), *eb = esc_dup(b);
	snprintf(err, errlen, "'%s' and '%s' hold the same profile (process %u, the same start and samples): "
		 "its samples would count twice; give each run once", ea, eb, pid);
	free(ea);
	free(eb);
}

uint64_t profile_sampled_ns(const struct profile *p)
{
	uint64_t ns;
	if (!profile_measures_cpu(p))
		return 0;
	return __builtin_mul_overflow(p->total + p->hdr.dropped, p->hdr.period_requested_ns, &ns) ? UINT64_MAX : ns;
}

double profile_expected_samples(const struct profile *p)
{
	if (!profile_measures_cpu(p) || p->hdr.period_requested_ns == 0)
		return -1;
	return (double)(p->hdr.cpu_last_ns - p->hdr.cpu_start_ns) / (double)p->hdr.period_requested_ns;
}
