/* profile_build.c - see profile_build.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"
#include "profile.h"
#include "profile_build.h"
#include "u64map.h"
#include "util.h"

struct bentry {
	uint64_t key, ctx, count;
	uint64_t ord;                  /* the order it was made in: its slot in the file */
};

struct bmod {
	struct pct_module rec;         /* path_offset unset: paths[] holds the path */
	char *path;
};

struct pbuild {
	struct pbuild_info info;
	char *argv;
	size_t argv_len;
	struct bmod *mods;
	size_t nmods, capmods;
	struct pct_thread *threads;
	size_t nthreads, capthreads;
	struct u64map tid_slot;        /* tid -> slot + 1 */
	struct bentry *tab;            /* open addressing by (key, ctx); count 0: empty */
	size_t tab_cap, tab_len;
	struct pct_tick *ticks;        /* entry: the sample's ord + 1 */
	size_t nticks, capticks;
	struct u64map buckets;         /* bucket key (pct_format.h) -> count */
	uint64_t untimed;
	char *stacks;                  /* struct pct_stack records */
	size_t stacks_len, capstacks;
	uint64_t stacks_dropped;
	uint64_t samples, dropped;
	uint64_t cpu_last_ns;
	int64_t end_time_ns;
	uint64_t clock_end_ns;
	int ended;
};

struct pbuild *pbuild_new(const struct pbuild_info *info)
{
	struct pbuild *b = xcalloc(1, sizeof *b);
	b->info = *info;
	pbuild_argv(b, info->argv, info->argv_len);
	b->cpu_last_ns = info->cpu_start_ns;
	return b;
}

void pbuild_free(struct pbuild *b)
{
	if (b == NULL)
		return;
	for (size_t i = 0; i < b->nmods; i++)
		free(b->mods[i].path);
	free(b->mods);
	free(b->threads);
	u64map_free(&b->tid_slot);
	free(b->tab);
	free(b->ticks);
	u64map_free(&b->buckets);
	free(b->stacks);
	free(b->argv);
	free(b);
}

void pbuild_argv(struct pbuild *b, const char *argv, size_t len)
{
	free(b->argv);
	if (len > PROFILE_CMDLINE_MAX / 32)       /* the runtime keeps 32 KiB */
		len = PROFILE_CMDLINE_MAX / 32;
	b->argv = xmalloc(len + 1);
	if (len)
		memcpy(b->argv, argv, len);
	b->argv_len = len;
	/* argv form: NUL-terminated arguments, at least one */
	if (len == 0 || b->argv[len - 1] != '\0')
		b->argv[b->argv_len++] = '\0';
	b->info.argv = b->argv;
	b->info.argv_len = b->argv_len;
}

const struct pbuild_info *pbuild_info(const struct pbuild *b)
{
	return &b->info;
}

uint32_t pbuild_module(struct pbuild *b, uint64_t start, uint64_t end, uint64_t file_offset, const char *path,
		       int kind, const uint8_t *id, size_t id_len)
{
	if (b->nmods >= PCT_MODULES_LIMIT || start >= end)
		return PBUILD_NO_MODULE;
	size_t plen = strlen(path);
	if (plen == 0)
		path = "[anon]", plen = 6;
	if (plen > PCT_PATH_MAX)
		plen = PCT_PATH_MAX;
	grow(&b->mods, &b->capmods, b->nmods + 1, sizeof *b->mods);
	struct bmod *m = &b->mods[b->nmods];
	memset(m, 0, sizeof *m);
	m->path = xstrndup(path, plen);
	m->rec.start = start;
	m->rec.end = end;
	m->rec.file_offset = file_offset;
	m->rec.path_len = (uint32_t)strlen(m->path);
	m->rec.kind = (uint8_t)kind;
	if (id_len > PCT_BUILD_ID_MAX)
		id_len = 0;
	m->rec.build_id_len = (uint8_t)id_len;
	if (id_len)
		memcpy(m->rec.build_id, id, id_len);
	return (uint32_t)b->nmods++;
}

uint32_t pbuild_module_find(const struct pbuild *b, uint64_t pc)
{
	for (size_t i = b->nmods; i-- > 0;)
		if (!(b->mods[i].rec.flags & PCT_MODF_UNMAPPED) && pc >= b->mods[i].rec.start && pc < b->mods[i].rec.end)
			return (uint32_t)i;
	return PBUILD_NO_MODULE;
}

size_t pbuild_modules(const struct pbuild *b)
{
	return b->nmods;
}

const struct pct_module *pbuild_module_rec(const struct pbuild *b, uint32_t m, const char **path)
{
	if (path)
		*path = b->mods[m].path;
	return &b->mods[m].rec;
}

void pbuild_unmap(struct pbuild *b, uint32_t m)
{
	if (m < b->nmods)
		b->mods[m].rec.flags |= PCT_MODF_UNMAPPED;
}

uint32_t pbuild_thread(struct pbuild *b, uint32_t tid, const char *name)
{
	uint64_t *slot = u64map_slot(&b->tid_slot, tid);
	if (*slot == 0) {
		if (b->nthreads >= PCT_THREADS_LIMIT / 2 || tid == 0)
			return 0;
		grow(&b->threads, &b->capthreads, b->nthreads + 1, sizeof *b->threads);
		memset(&b->threads[b->nthreads], 0, sizeof *b->threads);
		b->threads[b->nthreads].tid = tid;
		*slot = ++b->nthreads;
	}
	struct pct_thread *t = &b->threads[*slot - 1];
	if (name && *name) {
		memset(t->name, 0, sizeof t->name);
		strncpy(t->name, name, sizeof t->name - 1);
	}
	return (uint32_t)*slot;
}

static uint64_t hash_kc(uint64_t key, uint64_t ctx)
{
	return (key ^ (ctx * UINT64_C(0xff51afd7ed558ccd))) * UINT64_C(0x9e3779b97f4a7c15);
}

/* The slot in tab of (key, ctx), made if new. */
static uint32_t entry_of(struct pbuild *b, uint64_t key, uint64_t ctx)
{
	if (2 * (b->tab_len + 1) > b->tab_cap) {
		size_t cap = b->tab_cap ? 2 * b->tab_cap : 1024;
		struct bentry *t = xcalloc(cap, sizeof *t);
		for (size_t i = 0; i < b->tab_cap; i++) {
			if (b->tab[i].key == 0)
				continue;
			size_t j = hash_kc(b->tab[i].key, b->tab[i].ctx) & (cap - 1);
			while (t[j].key)
				j = (j + 1) & (cap - 1);
			t[j] = b->tab[i];
		}
		free(b->tab);
		b->tab = t;
		b->tab_cap = cap;
	}
	size_t j = hash_kc(key, ctx) & (b->tab_cap - 1);
	while (b->tab[j].key && !(b->tab[j].key == key && b->tab[j].ctx == ctx))
		j = (j + 1) & (b->tab_cap - 1);
	if (b->tab[j].key == 0) {
		b->tab[j] = (struct bentry){ key, ctx, 0, b->tab_len++ };
	}
	return (uint32_t)j;
}

void pbuild_sample(struct pbuild *b, uint64_t pc, uint32_t thread, uint64_t weight, uint64_t mono_ns,
		   const uint64_t *regs, uint64_t sp, const void *stack, uint32_t stack_len)
{
	if (weight == 0)
		return;
	uint32_t m = pbuild_module_find(b, pc);
	uint64_t key;
	if (m == PBUILD_NO_MODULE) {
		key = pct_key(PCT_KEY_UNKNOWN_MODULE, pc);
	} else {
		const struct pct_module *r = &b->mods[m].rec;
		uint64_t off = r->kind == PCT_MOD_ANON ? pc : pc - r->start + r->file_offset;
		key = pct_key(m + 1, off);
		if (key == 0)
			key = pct_key(PCT_KEY_UNKNOWN_MODULE, pc);
	}
	if (key == 0)                      /* pc 0 of no module: not a sample the format holds */
		key = pct_key(PCT_KEY_UNKNOWN_MODULE, 1);
	uint32_t slot = entry_of(b, key, thread);
	b->tab[slot].count += weight;
	b->samples += weight;
	if (thread && thread <= b->nthreads)
		b->threads[thread - 1].samples += weight;
	/* its time: the log, then the buckets of a second, then none */
	uint64_t t = mono_ns > b->info.clock_start_ns ? mono_ns - b->info.clock_start_ns : 0;
	uint32_t tick = 0;
	if (b->nticks < PBUILD_TICKS_MAX && weight <= UINT32_MAX) {
		grow(&b->ticks, &b->capticks, b->nticks + 1, sizeof *b->ticks);
		b->ticks[b->nticks] = (struct pct_tick){ .time_ns = t, .entry = (uint32_t)b->tab[slot].ord + 1,
							 .weight = (uint32_t)weight };
		tick = (uint32_t)++b->nticks;
	} else {
		uint64_t bkey = ((t / 1000000000u + 1) << PCT_BUCKET_SHIFT) | (thread & PCT_BUCKET_THREAD_MASK);
		uint64_t *c = u64map_get(&b->buckets, bkey);
		if (c == NULL && b->buckets.len < PBUILD_BUCKETS_MAX)
			c = u64map_slot(&b->buckets, bkey);
		if (c)
			*c += weight;
		else
			b->untimed += weight;
	}
	if (b->info.stack_bytes == 0 || regs == NULL)
		return;
	if (stack_len > b->info.stack_bytes)
		stack_len = b->info.stack_bytes;
	size_t size = sizeof(struct pct_stack) + 8 * (size_t)b->info.stack_regs + ((stack_len + 7u) & ~7u);
	if (b->stacks_len + size > PBUILD_STACK_AREA) {
		b->stacks_dropped += weight;
		return;
	}
	grow(&b->stacks, &b->capstacks, b->stacks_len + size, 1);
	char *r = b->stacks + b->stacks_len;
	memset(r, 0, size);
	struct pct_stack h = { .size = (uint32_t)size, .ctx = (thread & PCT_CTX_THREAD_MASK) | PCT_STACK_DONE,
			       .weight = weight, .sp = sp, .stack_len = stack_len, .tick = tick };
	memcpy(r, &h, sizeof h);
	memcpy(r + sizeof h, regs, 8 * (size_t)b->info.stack_regs);
	if (stack_len)
		memcpy(r + sizeof h + 8 * (size_t)b->info.stack_regs, stack, stack_len);
	b->stacks_len += size;
}

void pbuild_dropped(struct pbuild *b, uint64_t weight)
{
	b->dropped += weight;
}

uint64_t pbuild_samples(const struct pbuild *b)
{
	return b->samples;
}

void pbuild_cpu(struct pbuild *b, uint64_t cpu_ns)
{
	if (cpu_ns >= b->info.cpu_start_ns && cpu_ns > b->cpu_last_ns)
		b->cpu_last_ns = cpu_ns;
}

void pbuild_span(const struct pbuild *b, uint64_t *cpu_start, uint64_t *cpu_last, uint64_t *taken)
{
	*cpu_start = b->info.cpu_start_ns;
	*cpu_last = b->cpu_last_ns;
	*taken = b->samples + b->dropped;
}

void pbuild_end(struct pbuild *b, int64_t real_ns, uint64_t mono_ns)
{
	b->ended = 1;
	b->end_time_ns = real_ns;
	b->clock_end_ns = mono_ns > b->info.clock_start_ns ? mono_ns : b->info.clock_start_ns;
}

static size_t pow2_at_least(size_t n, size_t min)
{
	size_t p = min;
	while (p < n)
		p *= 2;
	return p;
}

void pbuild_bytes(const struct pbuild *b, void **out, size_t *len)
{
	struct pct_header h;
	profile_header_init(&h, b->ended);
	h.mechanism = b->info.mechanism;
	h.event = b->info.event;
	const struct pct_event_def *d = pct_event_by_id(b->info.event);
	snprintf(h.dimension, sizeof h.dimension, "%s", d ? d->dimension : "seconds");
	h.dimension_abbrev = d ? d->dimension_abbrev : 's';
	h.pid = b->info.pid;
	h.ppid = b->info.ppid;
	h.period_requested_ns = b->info.period_ns;
	h.period_ns = b->info.period_ns;
	h.start_time_ns = b->info.start_time_ns;
	h.end_time_ns = b->ended ? b->end_time_ns : 0;
	h.cpu_start_ns = b->info.cpu_start_ns;
	h.cpu_last_ns = b->cpu_last_ns;
	h.samples = b->samples;
	h.dropped = b->dropped;
	h.exe_module = UINT32_MAX;
	h.session = b->info.session;
	h.clock_start_ns = b->info.clock_start_ns;
	h.clock_end_ns = b->ended ? b->clock_end_ns : 0;
	h.untimed = b->untimed;
	h.bucket_ms = 1000;

	uint64_t pool = b->argv_len;
	for (size_t m = 0; m < b->nmods; m++)
		pool += b->mods[m].rec.path_len + 1;
	size_t slots = pow2_at_least(b->tab_len, 1), tslots = pow2_at_least(b->nthreads, 1);
	size_t bslots = b->buckets.len ? pow2_at_least(b->buckets.len, 1) : 0;
	/* a log with no tick is still a log (profile_compact_fd's rule) */
	struct pct_layout lay;
	pct_layout(&lay, b->nmods, pool, tslots, slots, b->stacks_len, b->nticks, bslots);
	h.modules_offset = lay.modules_offset;
	h.module_size = sizeof(struct pct_module);
	h.modules_max = h.modules_count = (uint32_t)b->nmods;
	h.strings_offset = lay.strings_offset;
	h.strings_size = h.strings_used = pool;
	h.threads_offset = lay.threads_offset;
	h.threads_max = (uint32_t)tslots;
	h.thread_size = sizeof(struct pct_thread);
	h.threads_count = (uint32_t)b->nthreads;
	h.table_offset = lay.table_offset;
	h.table_slots = slots;
	h.entry_size = sizeof(struct pct_entry);
	h.slots_used = b->tab_len;
	h.ticks_offset = b->nticks ? lay.ticks_offset : lay.file_size;
	h.ticks_max = h.ticks_used = b->nticks;
	h.buckets_offset = bslots ? lay.buckets_offset : 0;
	h.buckets_slots = (uint32_t)bslots;
	if (b->info.stack_bytes) {
		h.stack_machine = b->info.stack_machine;
		h.stack_regs = b->info.stack_regs;
		h.stack_bytes_max = b->info.stack_bytes;
		h.stacks_dropped = b->stacks_dropped;
		if (b->stacks_len) {
			h.stacks_offset = lay.stacks_offset;
			h.stacks_size = h.stacks_used = b->stacks_len;
		}
	}
	h.file_size = lay.file_size;

	char *buf = xcalloc(1, (size_t)lay.file_size);
	struct pct_module *mods = (struct pct_module *)(buf + h.modules_offset);
	char *strings = buf + h.strings_offset;
	uint64_t used = 0;
	for (size_t m = 0; m < b->nmods; m++) {
		mods[m] = b->mods[m].rec;
		mods[m].path_offset = used;
		memcpy(strings + used, b->mods[m].path, mods[m].path_len + 1);
		used += mods[m].path_len + 1;
		if (mods[m].kind == PCT_MOD_MAIN && h.exe_module == UINT32_MAX)
			h.exe_module = (uint32_t)m;
	}
	if (b->argv_len)
		memcpy(strings + used, b->argv, b->argv_len);
	h.cmdline_offset = used;
	h.cmdline_len = (uint32_t)b->argv_len;
	if (b->nthreads)  /* (a process that ended before any thread was seen has none) */
		memcpy(buf + h.threads_offset, b->threads, b->nthreads * sizeof *b->threads);
	/* entries in the order they were made, from slot 0: a reader scans
	 * every slot, and the ticks name them by that position */
	struct pct_entry *t = (struct pct_entry *)(buf + h.table_offset);
	for (size_t i = 0; i < b->tab_cap; i++) {
		const struct bentry *e = &b->tab[i];
		if (e->key)
			t[e->ord] = (struct pct_entry){ e->key, e->ctx, e->count };
	}
	if (b->nticks)
		memcpy(buf + h.ticks_offset, b->ticks, b->nticks * sizeof *b->ticks);
	if (bslots) {
		struct pct_bucket *bt = (struct pct_bucket *)(buf + h.buckets_offset);
		for (size_t i = 0; i < b->buckets.cap; i++) {
			if (!b->buckets.used[i])
				continue;
			size_t j = (b->buckets.keys[i] * UINT64_C(0x9e3779b97f4a7c15)) & (bslots - 1);
			while (bt[j].key)
				j = (j + 1) & (bslots - 1);
			bt[j] = (struct pct_bucket){ b->buckets.keys[i], b->buckets.vals[i] };
		}
	}
	if (h.stacks_offset)
		memcpy(buf + h.stacks_offset, b->stacks, b->stacks_len);
	memcpy(buf, &h, sizeof h);
	*out = buf;
	*len = (size_t)lay.file_size;
}

int pbuild_write(const struct pbuild *b, const char *path, int replace, char *err, size_t errlen)
{
	void *data;
	size_t len;
	pbuild_bytes(b, &data, &len);
	unsigned mode = profile_file_mode(data, len);
	int rc = -1;
	if (replace) {
		struct outfile o;
		if (outfile_open(&o, path, err, errlen) == 0) {
			if (fchmod(fileno(o.fp), mode) != 0 || fwrite(data, 1, len, o.fp) != len) {
				snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
				outfile_abort(&o);
			} else {
				rc = outfile_commit(&o, err, errlen);
			}
		}
		free(data);
		return rc;
	}
	/* written whole under a temporary name beside path, then linked to
	 * path (link(2) fails with EEXIST where path exists, and follows no
	 * symlink there): a reader that finds path (pct top, reading the
	 * snapshots as they come) never sees it part-written */
	char *tmp = xasprintf("%s.XXXXXX", path);
	int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(e));
		free(tmp);
		free(data);
		errno = e;
		return -1;
	}
	size_t done = 0;
	while (done < len) {
		ssize_t w = write(fd, (char *)data + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		done += (size_t)w;
	}
	int e = errno;
	if (done == len && fchmod(fd, mode) == 0) {
		int c = close(fd);
		e = errno;
		if (c == 0 && link(tmp, path) == 0) {
			unlink(tmp);
			free(tmp);
			free(data);
			return 0;
		}
		e = errno;
		unlink(tmp);
		free(tmp);
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(e ? e : EIO));
		free(data);
		errno = e;
		return -1;
	} else {
		e = done == len ? errno : e;
		close(fd);
	}
	unlink(tmp);
	free(tmp);
	snprintf(err, errlen, "cannot write '%s': %s", path, strerror(e ? e : EIO));
	free(data);
	errno = e;
	return -1;
}
