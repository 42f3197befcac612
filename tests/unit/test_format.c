/*
 * test_format.c - the file format, end to end inside one process: the
 * runtime's writer (lib/) creates and fills a profile, the tools' reader
 * (src/format/profile.c) reads it back; then every kind of damage to the file
 * must be refused with a message naming the file and the problem.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arch.h"
#include "profile.h"
#include "runtime.h"
#include "tree.h"
#include "unit.h"

static char dir[] = "/tmp/pct-unit-XXXXXX";

__attribute__((noipa)) static int probe_function(int x)
{
	return x * 3 + 1;
}

static char *slurp(const char *path, size_t *len)
{
	struct stat st;
	int fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) != 0)
		abort();
	char *buf = malloc((size_t)st.st_size);
	if (read(fd, buf, (size_t)st.st_size) != st.st_size)
		abort();
	close(fd);
	*len = (size_t)st.st_size;
	return buf;
}

static void spit(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, buf, len) != (ssize_t)len)
		abort();
	close(fd);
}

/* What the signal handler does with a PC: create the file on the first
 * sample, then count it (thread unknown). */
static void sample_at(uintptr_t pc)
{
	if (!atomic_load(&rt_g.table_ready) && rt_output_create() != 0)
		return;
	rt_sample(pc, 0, 1);
}

/* Write the runtime's profile with known samples; return its path. */
static const char *write_profile(void)
{
	static char name[256];
	snprintf(name, sizeof name, "%s/unit.pct", dir);
	CHECK(rt_output_prepare(name, 12, 0) == 0);
	rt_modules_defer_scan();
	CHECK(access(name, F_OK) != 0);    /* no file before the first sample */
	CHECK(rt_g.hdr->modules_count == 0); /* and no /proc/self/maps read */
	uintptr_t pc = (uintptr_t)probe_function + 1;
	sample_at(pc);
	CHECK(rt_g.hdr->modules_count > 1 && rt_g.hdr->exe_module != UINT32_MAX);
	CHECK(strcmp(rt_g.path, name) == 0 && access(name, F_OK) == 0);
	sample_at(pc);
	CHECK(rt_g.hdr->samples == 2);     /* counted in the file's table */
	for (int i = 2; i < 1000; i++)
		sample_at(pc);
	sample_at(1);                      /* in no mapping at all */
	rt_sampling_stop();
	rt_output_finish();
	return name;
}

static void test_roundtrip(const char *file)
{
	struct profile p;
	char err[512];
	CHECK(profile_read(file, &p, err, sizeof err) == 0);
	CHECK(p.hdr.state == PCT_STATE_COMPLETE);
	CHECK(p.hdr.pid == (uint32_t)getpid());
	CHECK(strcmp(p.hdr.dimension, "seconds") == 0 && p.hdr.dimension_abbrev == 's');
	CHECK(p.total == 1001 && p.hdr.samples == 1001 && p.hdr.dropped == 0);
	CHECK(p.hdr.exe_module < p.nmodules);
	CHECK(strstr(p.cmdline, "test_format") != NULL);
	CHECK(p.hdr.end_time_ns >= p.hdr.start_time_ns && p.hdr.start_time_ns > 0);

	/* the 1000 samples sit at one offset of the executable's file */
	const struct profile_module *exe = &p.modules[p.hdr.exe_module];
	CHECK(exe->kind == PCT_MOD_MAIN && exe->build_id_len == 20);
	uintptr_t pc = (uintptr_t)probe_function + 1;
	uint64_t want = pc - exe->start + exe->file_offset;
	int found = 0, unknown = 0;
	for (size_t i = 0; i < p.nsamples; i++) {
		if (p.samples[i].module == p.hdr.exe_module && p.samples[i].offset == want)
			found = p.samples[i].count == 1000;
		if (p.samples[i].module == PROFILE_NO_MODULE)
			unknown = p.samples[i].count == 1 && p.samples[i].offset == 1;
	}
	CHECK(found);
	CHECK(unknown);
	int have_libc = 0;
	for (size_t i = 0; i < p.nmodules; i++)
		have_libc |= strstr(p.modules[i].path, "libc.so") != NULL;
	CHECK(have_libc);
	profile_free(&p);
}

/* Samples keep their thread: (key, ctx) pairs, the thread table, a slot
 * still being claimed (ignored) and a pair claimed twice (added up). */
static void test_threads(void)
{
	char name[256];
	snprintf(name, sizeof name, "%s/threads.pct", dir);
	CHECK(rt_output_prepare(name, 10, 0) == 0);
	rt_modules_defer_scan();
	uintptr_t pc = (uintptr_t)probe_function + 1;
	sample_at(pc);                     /* creates the file; thread unknown */
	uint32_t a = rt_thread_slot(111, "alpha"), b = rt_thread_slot(222, "beta");
	CHECK(a && b && a != b && rt_thread_slot(111, "other") == a && rt_thread_find(222) == b);
	CHECK(rt_thread_find(333) == 0);
	for (int i = 0; i < 3; i++)
		rt_sample(pc, a, 1);
	for (int i = 0; i < 5; i++)
		rt_sample(pc, b, 1);
	/* by hand: a second slot for (pc, a) and a slot caught mid-claim */
	uint64_t key = 0;
	for (uint64_t i = 0; i <= rt_g.slots_mask; i++)
		if (rt_g.table[i].key && rt_g.table[i].ctx == a)
			key = rt_g.table[i].key;
	int put = 0;
	for (uint64_t i = 0; i <= rt_g.slots_mask && put < 2; i++)
		if (rt_g.table[i].key == 0) {
			rt_g.table[i] = put == 0 ? (struct pct_entry){ key, a, 2 } : (struct pct_entry){ PCT_KEY_BUSY, b, 7 };
			put++;
		}
	rt_sampling_stop();
	rt_output_finish();

	struct profile p;
	char err[512];
	CHECK(profile_read(name, &p, err, sizeof err) == 0);
	uint64_t in_a = 0, in_b = 0, none = 0;
	for (size_t i = 0; i < p.nsamples; i++) {
		const struct profile_sample *smp = &p.samples[i];
		if (smp->thread == 0)
			none += smp->count;
		else if (p.threads[smp->thread - 1].tid == 111 && strcmp(p.threads[smp->thread - 1].name, "alpha") == 0)
			in_a += smp->count;
		else if (p.threads[smp->thread - 1].tid == 222 && strcmp(p.threads[smp->thread - 1].name, "beta") == 0)
			in_b += smp->count;
	}
	CHECK(none == 1 && in_a == 5 && in_b == 5);
	CHECK(p.threads[a - 1].samples == 3 && p.threads[b - 1].samples == 5);
	profile_free(&p);
}

/* 1024 slots hold 896 keys (7/8); the rest are dropped and counted. */
static void test_table_bound(void)
{
	char name[256];
	snprintf(name, sizeof name, "%s/small.pct", dir);
	CHECK(rt_output_prepare(name, 10, 0) == 0);
	rt_modules_defer_scan();
	uintptr_t base = (uintptr_t)probe_function;
	for (int i = 0; i < 2000; i++)
		sample_at(base + (uintptr_t)(i % 64));          /* 64 keys, many hits each */
	for (int i = 0; i < 2000; i++)
		sample_at((uintptr_t)0x1000 + (uintptr_t)i * 16); /* 2000 unknown keys */
	rt_output_finish();
	struct profile p;
	char err[512];
	CHECK(profile_read(name, &p, err, sizeof err) == 0);
	CHECK(p.nsamples == 896);
	CHECK(p.total + p.hdr.dropped == 4000);
	CHECK(p.hdr.dropped == 4000 - p.total && p.hdr.dropped >= 2000 - (896 - 64));
	profile_free(&p);
}

static void expect_error(const char *file, const char *what);

/* -g: stack records (registers, a stack copy, a weight) written by the
 * runtime's rt_stack_record and read back; weighted samples (1 +
 * si_overrun); the unused stack region given back at the end; and damaged
 * records refused. */
static void test_stacks(void)
{
	char name[256];
	snprintf(name, sizeof name, "%s/stacks.pct", dir);
	rt_g.stack_bytes = 256;
	rt_g.stack_area_mb = 1;
	CHECK(rt_output_prepare(name, 10, 0) == 0);
	rt_modules_defer_scan();
	uintptr_t pc = (uintptr_t)probe_function + 1;
	sample_at(pc);
	uint32_t a = rt_thread_slot(444, "gamma");
	rt_sample(pc, a, 3);               /* one signal standing for 3 periods */
	uint64_t regs[ARCH_STACK_REGS], stack[64];
	for (int i = 0; i < ARCH_STACK_REGS; i++)
		regs[i] = 1000 + (uint64_t)i;
	for (int i = 0; i < 64; i++)
		stack[i] = 0x5eed0000u + (uint64_t)i;
	regs[ARCH_SP_INDEX] = (uint64_t)(uintptr_t)stack;
	regs[ARCH_STACK_REGS - 1] = pc;
	rt_stack_record(regs, a, 3, (uintptr_t)(stack + 40), 0); /* 320 bytes to stack_hi; 256 kept */
	rt_stack_record(regs, 0, 1, 0, 0);                     /* $PCT_STACK_BYTES: 256 */
	uint64_t mapped = rt_g.hdr->file_size;
	rt_sampling_stop();
	rt_output_finish();
	rt_g.stack_bytes = 0;

	struct profile p;
	char err[512];
	CHECK(profile_read(name, &p, err, sizeof err) == 0);
	CHECK(p.total == 4 && p.threads[a - 1].samples == 3);
	CHECK(p.hdr.stack_regs == ARCH_STACK_REGS && p.hdr.stack_machine == ARCH_STACK_MACHINE);
	CHECK(p.hdr.file_size < mapped && p.hdr.stacks_size == 4096); /* trimmed to a page */
	CHECK(p.nstacks == 2);
	if (p.nstacks == 2) {
		const struct profile_stack *s0 = &p.stacks[0], *s1 = &p.stacks[1];
		CHECK(s0->thread == a && s0->weight == 3 && s0->stack_len == 256 && s0->sp == regs[ARCH_SP_INDEX]);
		CHECK(s1->thread == 0 && s1->weight == 1 && s1->stack_len == 256);
		CHECK(s0->regs[0] == 1000 && s0->regs[ARCH_STACK_REGS - 1] == pc);
		CHECK(memcmp(s0->stack, stack, 256) == 0);
	}
	profile_free(&p);

	/* damage: a record longer than the region, and one naming an empty
	 * thread slot */
	size_t len;
	char *buf = slurp(name, &len);
	struct pct_header h;
	memcpy(&h, buf, sizeof h);
	struct pct_stack *r = (struct pct_stack *)(buf + h.stacks_offset);
	char bad[300];
	snprintf(bad, sizeof bad, "%s/bad-stack.pct", dir);
	uint32_t size = r->size;
	r->size = 1u << 30;
	spit(bad, buf, len);
	expect_error(bad, "stack record at byte 0");
	r->size = size;
	r->ctx = PCT_STACK_DONE | 77;
	spit(bad, buf, len);
	expect_error(bad, "names thread slot 77");
	/* a record without PCT_STACK_DONE (its writer died) is skipped */
	r->ctx = a;
	spit(bad, buf, len);
	CHECK(profile_read(bad, &p, err, sizeof err) == 0 && p.nstacks == 1);
	profile_free(&p);
	free(buf);
}

static void expect_error(const char *file, const char *what)
{
	struct profile p;
	char err[512] = "";
	int rc = profile_read(file, &p, err, sizeof err);
	if (rc != -1) {
		fprintf(stderr, "  '%s' was accepted; expected an error about '%s'\n", file, what);
		profile_free(&p);
	}
	CHECK(rc == -1);
	if (rc == -1 && (strstr(err, file) == NULL || strstr(err, what) == NULL)) {
		fprintf(stderr, "  message '%s' lacks '%s'\n", err, what);
		CHECK(!"error message names file and problem");
	}
}

static void test_damage(const char *good)
{
	size_t len;
	char *orig = slurp(good, &len), *buf = malloc(len);
	char bad[256];
	snprintf(bad, sizeof bad, "%s/bad.pct", dir);
	struct pct_header *h = (struct pct_header *)buf;

#define DAMAGE(stmt, what)                        \
	do {                                      \
		memcpy(buf, orig, len);           \
		stmt;                             \
		spit(bad, buf, len);              \
		expect_error(bad, what);          \
	} while (0)

	DAMAGE(h->magic[0] = 'X', "bad magic");
	DAMAGE(h->version = 99, "version 99");
	DAMAGE(h->byte_order = __builtin_bswap32(PCT_BYTE_ORDER), "other byte order");
	DAMAGE(h->header_size = 12, "header_size");
	DAMAGE(h->state = 7, "state");
	DAMAGE(h->mechanism = 42, "mechanism");
	DAMAGE(memset(h->dimension, 'x', sizeof h->dimension), "dimension");
	DAMAGE(memcpy(h->dimension, "seconds\n", 9), "dimension contains a blank or control character");
	DAMAGE(h->module_size = 8, "module_size");
	DAMAGE(h->entry_size = 16, "entry_size");
	DAMAGE(h->modules_count = h->modules_max + 1, "modules_count");
	DAMAGE(h->modules_max = PCT_MODULES_LIMIT + 1, "exceeds the format's limit of 65534 modules");
	DAMAGE(h->modules_offset = len - 8, "module table");
	DAMAGE(h->table_slots = 3000, "sample table");
	DAMAGE(h->table_offset = len, "sample table");
	DAMAGE(h->strings_used = h->strings_size + 1, "string pool");
	DAMAGE(h->cmdline_len = 0xffffffffu, "command line");
	DAMAGE(h->cpu_start_ns = h->cpu_last_ns + 1, "CPU time");
	DAMAGE(((struct pct_module *)(buf + h->modules_offset))[0].path_offset = 1u << 30, "module 0: path");
	DAMAGE(((struct pct_module *)(buf + h->modules_offset))[0].kind = 9, "module 0: unknown kind");
	DAMAGE(((struct pct_module *)(buf + h->modules_offset))[0].build_id_len = 200, "build-id");
	DAMAGE(((struct pct_module *)(buf + h->modules_offset))[0].end = 0, "empty address range");
	/* a sample pointing past the module table */
	DAMAGE(({
		struct pct_entry *e = (struct pct_entry *)(buf + h->table_offset);
		for (uint64_t i = 0; i < h->table_slots; i++)
			if (e[i].key && (e[i].key >> 48) != 0xffff) {
				e[i].key = pct_key(h->modules_count + 5, 0);
				break;
			}
	}), "refers to module");

	DAMAGE(h->event = 0, "unknown event 0");
	DAMAGE(h->event = PCT_EVENT_MAX + 1, "unknown event");
	DAMAGE(h->thread_size = 8, "thread_size");
	DAMAGE(h->threads_offset = len - 8, "thread table");
	DAMAGE(h->threads_count = h->threads_max + 1, "thread table");
	/* a sample whose context names an empty thread slot, or sets reserved bits */
	DAMAGE(({
		struct pct_entry *e = (struct pct_entry *)(buf + h->table_offset);
		for (uint64_t i = 0; i < h->table_slots; i++)
			if (e[i].key) {
				e[i].ctx = h->threads_max;   /* the runtime left that slot empty */
				break;
			}
	}), "bad context");
	DAMAGE(({
		struct pct_entry *e = (struct pct_entry *)(buf + h->table_offset);
		for (uint64_t i = 0; i < h->table_slots; i++)
			if (e[i].key) {
				e[i].ctx |= UINT64_C(1) << 40;
				break;
			}
	}), "bad context");

	/* every truncation of the header, and a chopped table */
	int all_refused = 1;
	for (size_t n = 0; n <= sizeof(struct pct_header) + 8; n++) {
		struct profile p;
		char err[512];
		spit(bad, orig, n);
		if (profile_read(bad, &p, err, sizeof err) != -1 || strstr(err, bad) == NULL)
			all_refused = 0;
	}
	CHECK(all_refused);
	spit(bad, orig, len - 4096);
	expect_error(bad, "truncated");
	expect_error("/nonexistent/x.pct", "No such file");
	expect_error(dir, "not a regular file");
	free(buf);
	free(orig);
}

/* A name that is taken makes the runtime write NAME.PID.pct instead. */
static void test_taken_name(const char *taken)
{
	char want[300];
	snprintf(want, sizeof want, "%.*s.%d.pct", (int)strlen(taken) - 4, taken, (int)getpid());
	CHECK(rt_output_prepare(taken, 10, 0) == 0);
	rt_modules_defer_scan();
	sample_at((uintptr_t)probe_function);
	CHECK(strcmp(rt_g.path, want) == 0);
	CHECK(access(want, F_OK) == 0);
	/* and NAME.PID.1.pct if that is taken too */
	snprintf(want + strlen(want) - 4, 20, ".1.pct");
	CHECK(rt_output_prepare(taken, 10, 0) == 0);
	rt_modules_defer_scan();
	sample_at((uintptr_t)probe_function);
	CHECK(strcmp(rt_g.path, want) == 0);
}

/*
 * The runtime's limit on late modules: code that appears after start is
 * found by rereading /proc/self/maps, at most RT_MAX_RESCANS times.  Make
 * more separate executable regions than that, one at a time, and sample
 * each once as it appears: the first ones become modules, the rest are
 * counted as PCs in no module; no sample is lost.
 */
static void test_rescan_limit(void)
{
	enum { N = RT_MAX_RESCANS + 44 };
	long page = sysconf(_SC_PAGESIZE);
	char name[256];
	snprintf(name, sizeof name, "%s/late.pct", dir);
	CHECK(rt_output_prepare(name, 12, 0) == 0);
	rt_modules_defer_scan();
	sample_at((uintptr_t)probe_function);      /* creates the file and scans */
	uint32_t before = rt_g.hdr->modules_count;
	CHECK(before > 1);
	/* after the first sample's scan: executable pages with a gap between
	 * each, so none merge */
	char *base = mmap(NULL, (size_t)(2 * N) * (size_t)page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(base != MAP_FAILED);
	/* one region appears after each rescan: a rescan records every
	 * executable mapping new to it, so each finds exactly one */
	int ok = 1;
	for (int i = 0; i < N; i++) {
		ok &= mprotect(base + (size_t)(2 * i) * (size_t)page, (size_t)page, PROT_READ | PROT_EXEC) == 0;
		sample_at((uintptr_t)(base + (size_t)(2 * i) * (size_t)page + 16));
	}
	CHECK(ok);
	rt_output_finish();
	struct profile p;
	char err[512];
	CHECK(profile_read(name, &p, err, sizeof err) == 0);
	CHECK(p.hdr.rescans == RT_MAX_RESCANS);
	CHECK(p.nmodules == before + RT_MAX_RESCANS);
	uint64_t anon = 0, unknown = 0;
	for (size_t i = 0; i < p.nsamples; i++) {
		if (p.samples[i].module == PROFILE_NO_MODULE)
			unknown += p.samples[i].count;
		else if (p.modules[p.samples[i].module].kind == PCT_MOD_ANON)
			anon += p.samples[i].count;
	}
	CHECK(anon == RT_MAX_RESCANS && unknown == N - RT_MAX_RESCANS);
	CHECK(p.total == N + 1);
	profile_free(&p);
	munmap(base, (size_t)(2 * N) * (size_t)page);
}

/* A process tree's file (tree.h): the runtime's profile compacted, two
 * members written, read back through profiles_read; then every
 * truncation and every damaged word of the header and the index is
 * refused with the file named, or read without harm. */
static void test_tree(const char *file)
{
	char err[512], tree[300];
	struct stat st;
	void *raw;
	size_t rawlen;
	int fd = open(file, O_RDONLY);
	CHECK(fd >= 0 && fstat(fd, &st) == 0);
	CHECK(profile_compact_fd(fd, (uint64_t)st.st_size, file, &raw, &rawlen, err, sizeof err) == 0);
	close(fd);
	CHECK(rawlen < (size_t)st.st_size / 4);   /* the table's 2^12 slots are gone */
	struct profile orig, compact;
	CHECK(profile_read(file, &orig, err, sizeof err) == 0);
	CHECK(profile_parse("compact", raw, rawlen, &compact, err, sizeof err) == 0);
	CHECK(compact.total == orig.total && compact.nsamples == orig.nsamples &&
	      compact.nmodules == orig.nmodules && strcmp(compact.cmdline, orig.cmdline) == 0);
	profile_free(&compact);

	snprintf(tree, sizeof tree, "%s/tree.pct", dir);
	/* two members of two runs (pct merge's; one process tree is run 0) */
	struct tree_member m[2] = { { .data = raw, .size = rawlen, .pid = 11 },
				    { .data = raw, .size = rawlen, .pid = 12, .run = 1 } };
	CHECK(tree_write(tree, m, 2, 11, 0x1234, err, sizeof err) == 0);
	CHECK(is_profile(tree));
	struct profile *v;
	size_t n;
	uint32_t runs = 0;
	CHECK(tree_file_runs(tree, &runs, err, sizeof err) == 0 && runs == 2);
	CHECK(tree_file_runs(file, &runs, err, sizeof err) == 0 && runs == 1);
	CHECK(profiles_read(tree, &v, &n, err, sizeof err) == 0 && n == 2);
	if (n == 2) {
		char want[320];
		snprintf(want, sizeof want, "%s:11", tree);
		CHECK(strcmp(v[0].file, want) == 0);
		CHECK(v[0].total == orig.total && v[1].total == orig.total);
		CHECK(v[0].run == 0 && v[1].run == 1 && profiles_runs(v, n) == 2);
		profile_free(&v[0]);
		profile_free(&v[1]);
		free(v);
	}
	/* a plain profile through the same door: one */
	CHECK(profiles_read(file, &v, &n, err, sizeof err) == 0 && n == 1);
	if (n == 1) {
		profile_free(&v[0]);
		free(v);
	}
	size_t len;
	char *good = slurp(tree, &len);
	CHECK(len < rawlen);                      /* compressed */
	for (size_t cut = 0; cut < len; cut++) {
		CHECK(tree_parse("t", good, cut, &v, &n, err, sizeof err) == -1);
		CHECK(strncmp(err, "'t': ", 5) == 0);
	}
	size_t words = (sizeof(struct pct_tree_header) + 2 * sizeof(struct pct_tree_member)) / 8;
	static const uint64_t bad[] = { 0, 1, 255, UINT64_MAX, UINT64_MAX / 2, 1ull << 40, 0x8000000000000000ull };
	char *copy = malloc(len);
	for (size_t w = 0; w < words; w++)
		for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
			memcpy(copy, good, len);
			memcpy(copy + 8 * w, &bad[b], 8);
			err[0] = '\0';
			if (tree_parse("t", copy, len, &v, &n, err, sizeof err) == 0) {
				for (size_t i = 0; i < n; i++)
					profile_free(&v[i]);
				free(v);
			} else {
				CHECK(strncmp(err, "'t", 2) == 0);
			}
		}
	/* a member's raw_size one off: refused, and the member named */
	memcpy(copy, good, len);
	struct pct_tree_member mem;
	memcpy(&mem, copy + sizeof(struct pct_tree_header), sizeof mem);
	mem.raw_size++;
	memcpy(copy + sizeof(struct pct_tree_header), &mem, sizeof mem);
	CHECK(tree_parse("t", copy, len, &v, &n, err, sizeof err) == -1);
	CHECK(strstr(err, "tree member 0 (pid 11") != NULL && strstr(err, "another size") != NULL);
	/* a run past the members: refused */
	memcpy(copy, good, len);
	memcpy(&mem, copy + sizeof(struct pct_tree_header) + sizeof mem, sizeof mem);
	mem.run = 2;
	memcpy(copy + sizeof(struct pct_tree_header) + sizeof mem, &mem, sizeof mem);
	CHECK(tree_parse("t", copy, len, &v, &n, err, sizeof err) == -1);
	CHECK(strstr(err, "tree member 1: run 2 of a tree of 2 members") != NULL);
	/* version 1 (32-byte members, no run): read, every member run 0 */
	{
		struct pct_tree_header h;
		memcpy(&h, good, sizeof h);
		size_t shrink = 2 * (sizeof(struct pct_tree_member) - PCT_TREE_MEMBER_V1_SIZE);
		char *v1 = malloc(len - shrink);
		h.version = 1;
		h.member_size = PCT_TREE_MEMBER_V1_SIZE;
		h.file_size -= shrink;
		memcpy(v1, &h, sizeof h);
		for (int i = 0; i < 2; i++) {
			memcpy(&mem, good + sizeof h + i * sizeof mem, sizeof mem);
			mem.offset -= shrink;
			memcpy(v1 + sizeof h + i * PCT_TREE_MEMBER_V1_SIZE, &mem, PCT_TREE_MEMBER_V1_SIZE);
		}
		size_t data = sizeof h + 2 * sizeof mem;
		memcpy(v1 + data - shrink, good + data, len - data);
		CHECK(tree_parse("t", v1, len - shrink, &v, &n, err, sizeof err) == 0 && n == 2);
		if (n == 2) {
			CHECK(v[0].run == 0 && v[1].run == 0 && profiles_runs(v, n) == 1);
			profile_free(&v[0]);
			profile_free(&v[1]);
			free(v);
		}
		free(v1);
	}
	free(copy);
	free(good);
	free(raw);
	profile_free(&orig);
}

/* The process's label: argv[0]'s base name and the arguments, at most
 * PROFILE_COMMAND_WIDTH bytes. */
static void test_command_label(const char *file)
{
	size_t len;
	char *buf = slurp(file, &len), err[512];
	struct pct_header h;
	memcpy(&h, buf, sizeof h);
	char *pool = buf + h.strings_offset;
	/* overwrite the command line in place: "/usr/lib/cc1 -quiet big.c" */
	static const char argv1[] = "/usr/lib/cc1\0-quiet\0big.c";
	if (h.strings_used + sizeof argv1 + 80 <= h.strings_size) {
		memcpy(pool + h.strings_used, argv1, sizeof argv1);
		h.cmdline_offset = h.strings_used;
		h.cmdline_len = sizeof argv1;
		h.strings_used += sizeof argv1;
		memcpy(buf, &h, sizeof h);
		struct profile p;
		CHECK(profile_parse("l", buf, len, &p, err, sizeof err) == 0);
		CHECK(strcmp(p.command, "cc1 -quiet big.c") == 0);
		profile_free(&p);
		/* 80 bytes of one argument: cut to the width, "..." added */
		char *arg = pool + h.strings_used;
		memcpy(arg, "x\0", 2);
		memset(arg + 2, 'a', 78);
		arg[79] = '\0';
		h.cmdline_offset = h.strings_used;
		h.cmdline_len = 80;
		h.strings_used += 80;
		memcpy(buf, &h, sizeof h);
		CHECK(profile_parse("l", buf, len, &p, err, sizeof err) == 0);
		CHECK(strlen(p.command) == PROFILE_COMMAND_WIDTH + 3 && strncmp(p.command, "x aaa", 5) == 0 &&
		      strcmp(p.command + PROFILE_COMMAND_WIDTH, "...") == 0);
		profile_free(&p);
	} else {
		CHECK(!"room in the pool for the test's command lines");
	}
	free(buf);
}

int main(void)
{
	if (mkdtemp(dir) == NULL)
		return 2;
	const char *file = write_profile();
	test_taken_name(file);
	test_roundtrip(file);
	test_threads();
	test_table_bound();
	test_stacks();
	test_rescan_limit();
	test_damage(file);
	test_tree(file);
	test_command_label(file);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		return 2;
	return unit_done("test_format");
}
