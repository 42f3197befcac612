/*
 * mkprofile.c - write a pct profile (pct_format.h) from TSV, for tests and
 * benchmarks: a second, independent writer of the format.
 *
 *   mkprofile OUT < TSV
 *     TSV as `pct dump` prints it: a header row naming at least module,
 *     build_id, offset and samples, and optionally tid and thread; '#'
 *     lines are skipped.  The profile gets pid 4242, command line
 *     "mkprofile", a 4 ms period and CPU time = samples x 4 ms, all of it
 *     sampled (none before sampling started, no sample missing).  The
 *     module named by $MKPROFILE_EXE, if any, is the main executable.
 *   mkprofile --random OUT MODULE LO HI NADDR NSAMPLES SEED
 *     NADDR distinct random file offsets in [LO, HI) of MODULE holding
 *     NSAMPLES samples in all, from a fixed seed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pct_format.h"

#define MAXMOD 256

struct row {
	int mod;                       /* -1: [unknown] */
	uint64_t offset, samples;
	int thread;                    /* index in threads + 1, or 0 */
};

#define MAXTHREAD 64
static uint32_t tids[MAXTHREAD];
static char tnames[MAXTHREAD][16];
static int nthreads;

static int intern_thread(uint32_t tid, const char *name)
{
	if (tid == 0)
		return 0;
	for (int i = 0; i < nthreads; i++)
		if (tids[i] == tid && strncmp(tnames[i], name, 15) == 0)
			return i + 1;
	if (nthreads == MAXTHREAD) {
		fprintf(stderr, "mkprofile: too many threads\n");
		exit(1);
	}
	tids[nthreads] = tid;
	strncpy(tnames[nthreads], name, 15);
	return ++nthreads;
}

static char *mods[MAXMOD], *bids[MAXMOD];
static uint64_t maxoff[MAXMOD];
static int nmods;
static struct row *rows;
static size_t nrows, caprows;

static int intern(const char *m, const char *b)
{
	for (int i = 0; i < nmods; i++)
		if (strcmp(mods[i], m) == 0 && strcmp(bids[i], b) == 0)
			return i;
	if (nmods == MAXMOD) {
		fprintf(stderr, "mkprofile: too many modules\n");
		exit(1);
	}
	mods[nmods] = strdup(m);
	bids[nmods] = strdup(b);
	return nmods++;
}

static void add(int mod, uint64_t off, uint64_t n, int thread)
{
	if (nrows == caprows) {
		caprows = caprows ? 2 * caprows : 1024;
		rows = realloc(rows, caprows * sizeof *rows);
	}
	rows[nrows++] = (struct row){ mod, off, n, thread };
	if (mod >= 0 && off >= maxoff[mod])
		maxoff[mod] = off + 1;
}

static uint64_t rng = 88172645463325252u;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int write_profile(const char *out)
{
	uint32_t slot_of[MAXTHREAD];
	uint64_t slots = 64, total = 0;   /* compact: these files also seed the fuzzer */
	while (slots < 2 * nrows)
		slots *= 2;
	struct pct_header h;
	memset(&h, 0, sizeof h);
	memcpy(h.magic, PCT_MAGIC, PCT_MAGIC_LEN);
	h.version = PCT_VERSION;
	h.byte_order = PCT_BYTE_ORDER;
	h.header_size = sizeof h;
	h.state = PCT_STATE_COMPLETE;
	h.mechanism = PCT_MECH_CPU_TIMER;
	h.event = PCT_EVENT_CPU;
	h.pid = 4242;
	h.ppid = 1;
	strcpy(h.dimension, "seconds");
	h.dimension_abbrev = 's';
	h.period_requested_ns = 4000000;   /* the 4 ms period: no sample missing */
	h.start_time_ns = 1700000000000000000;
	h.end_time_ns = h.start_time_ns + 1000000000;
	h.modules_offset = 4096;
	h.module_size = sizeof(struct pct_module);
	h.modules_max = nmods ? (uint32_t)nmods : 1;
	h.strings_offset = h.modules_offset + h.modules_max * sizeof(struct pct_module);
	h.strings_size = 16;
	for (int i = 0; i < nmods; i++)
		h.strings_size += strlen(mods[i]) + 1;
	h.threads_offset = (h.strings_offset + h.strings_size + 7) & ~7ull;
	h.threads_max = 16;
	while (h.threads_max < 2 * (uint32_t)nthreads)
		h.threads_max *= 2;
	h.thread_size = sizeof(struct pct_thread);
	h.threads_count = (uint32_t)nthreads;
	h.table_offset = (h.threads_offset + h.threads_max * sizeof(struct pct_thread) + 4095) & ~4095ull;
	h.table_slots = slots;
	h.entry_size = sizeof(struct pct_entry);
	h.exe_module = UINT32_MAX;
	const char *exe = getenv("MKPROFILE_EXE");  /* the module to mark as the executable */
	h.file_size = h.table_offset + slots * sizeof(struct pct_entry);
	char *buf = calloc(1, h.file_size);
	struct pct_module *m = (struct pct_module *)(buf + h.modules_offset);
	char *pool = buf + h.strings_offset;
	memcpy(pool, "mkprofile", 10);
	h.cmdline_len = 10;
	h.strings_used = 10;
	for (int i = 0; i < nmods; i++) {
		size_t len = strlen(mods[i]);
		if (h.strings_used + len + 1 > h.strings_size)
			return fprintf(stderr, "mkprofile: paths too long\n"), 1;
		memcpy(pool + h.strings_used, mods[i], len + 1);
		m[i].path_offset = h.strings_used;
		m[i].path_len = (uint32_t)len;
		h.strings_used += len + 1;
		m[i].start = 0x10000000000ull * (uint64_t)(i + 1);
		m[i].end = m[i].start + maxoff[i] + 1;
		m[i].kind = strcmp(mods[i], "[vdso]") == 0 ? PCT_MOD_VDSO : mods[i][0] == '[' ? PCT_MOD_ANON : PCT_MOD_FILE;
		if (exe && strcmp(exe, mods[i]) == 0) {
			m[i].kind = PCT_MOD_MAIN;
			h.exe_module = (uint32_t)i;
		}
		size_t bl = strlen(bids[i]) / 2;
		for (size_t k = 0; k < bl && k < PCT_BUILD_ID_MAX; k++)
			sscanf(bids[i] + 2 * k, "%2hhx", &m[i].build_id[k]);
		m[i].build_id_len = (uint8_t)(bl < PCT_BUILD_ID_MAX ? bl : PCT_BUILD_ID_MAX);
	}
	h.modules_count = (uint32_t)nmods;
	struct pct_thread *th = (struct pct_thread *)(buf + h.threads_offset);
	for (int i = 0; i < nthreads; i++) {
		/* placed by tid as the runtime does, though readers index by slot */
		uint32_t j = (tids[i] * 2654435761u) & (h.threads_max - 1);
		while (th[j].tid)
			j = (j + 1) & (h.threads_max - 1);
		th[j].tid = tids[i];
		memcpy(th[j].name, tnames[i], strlen(tnames[i]));
		slot_of[i] = j + 1;
	}
	struct pct_entry *e = (struct pct_entry *)(buf + h.table_offset);
	for (size_t r = 0; r < nrows; r++) {
		uint64_t key = rows[r].mod < 0 ? pct_key(PCT_KEY_UNKNOWN_MODULE, rows[r].offset)
					       : pct_key((uint32_t)rows[r].mod + 1, rows[r].offset);
		uint64_t ctx = rows[r].thread ? slot_of[rows[r].thread - 1] : 0;
		uint64_t i = (key * 0x9e3779b97f4a7c15ull) & (slots - 1);
		while (e[i].key && !(e[i].key == key && e[i].ctx == ctx))
			i = (i + 1) & (slots - 1);
		if (e[i].key == 0)
			h.slots_used++;
		e[i].key = key;
		e[i].ctx = ctx;
		e[i].count += rows[r].samples;
		if (ctx)
			th[ctx - 1].samples += rows[r].samples;
		total += rows[r].samples;
	}
	h.samples = total;
	h.cpu_start_ns = 0;                 /* no CPU time before sampling started */
	h.cpu_last_ns = h.cpu_start_ns + total * 4000000;
	h.period_ns = 4000000;
	memcpy(buf, &h, sizeof h);
	FILE *f = fopen(out, "wb");
	if (f == NULL || fwrite(buf, 1, h.file_size, f) != h.file_size || fclose(f) != 0)
		return perror(out), 1;
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 9 && strcmp(argv[1], "--random") == 0) {
		int mod = intern(argv[3], "");
		uint64_t lo = strtoull(argv[4], NULL, 0), hi = strtoull(argv[5], NULL, 0);
		uint64_t naddr = strtoull(argv[6], NULL, 0), nsamp = strtoull(argv[7], NULL, 0);
		rng ^= strtoull(argv[8], NULL, 0) * 0x9e3779b97f4a7c15ull;
		if (hi <= lo || naddr == 0 || naddr > hi - lo)
			return fprintf(stderr, "mkprofile: bad range or count\n"), 2;
		/* distinct offsets: a stride walk from a random start */
		uint64_t span = hi - lo, stride = span / naddr, left = nsamp;
		for (uint64_t i = 0; i < naddr; i++) {
			uint64_t n = i + 1 == naddr ? left : 1 + next() % (2 * nsamp / naddr);
			if (n > left - (naddr - i - 1))
				n = left - (naddr - i - 1);
			add(mod, lo + i * stride + next() % (stride ? stride : 1), n, 0);
			left -= n;
		}
		return write_profile(argv[2]);
	}
	if (argc != 2) {
		fprintf(stderr, "usage: mkprofile OUT < TSV | mkprofile --random OUT MODULE LO HI NADDR NSAMPLES SEED\n");
		return 2;
	}
	char line[8192];
	int col[5] = { -1, -1, -1, -1, -1 }, ctid = -1, cthread = -1;   /* module build_id offset samples */
	static const char *const need[4] = { "module", "build_id", "offset", "samples" };
	while (fgets(line, sizeof line, stdin)) {
		char *f[32];
		int nf = 0;
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#')
			continue;
		for (char *p = line; nf < 32;) {   /* split at every tab: fields may be empty */
			f[nf++] = p;
			p = strchr(p, '\t');
			if (p == NULL)
				break;
			*p++ = '\0';
		}
		if (col[0] < 0) {
			for (int i = 0; i < nf; i++) {
				for (int k = 0; k < 4; k++)
					if (strcmp(f[i], need[k]) == 0)
						col[k] = i;
				if (strcmp(f[i], "tid") == 0)
					ctid = i;
				if (strcmp(f[i], "thread") == 0)
					cthread = i;
			}
			for (int k = 0; k < 4; k++)
				if (col[k] < 0)
					return fprintf(stderr, "mkprofile: no %s column\n", need[k]), 2;
			continue;
		}
		if (nf <= col[0] || nf <= col[1] || nf <= col[2] || nf <= col[3])
			return fprintf(stderr, "mkprofile: bad line\n"), 2;
		const char *mod = f[col[0]];
		int thread = ctid >= 0 && cthread >= 0 && nf > ctid && nf > cthread
				     ? intern_thread((uint32_t)strtoul(f[ctid], NULL, 10), f[cthread]) : 0;
		add(strcmp(mod, "[unknown]") == 0 ? -1 : intern(mod, f[col[1]]), strtoull(f[col[2]], NULL, 16),
		    strtoull(f[col[3]], NULL, 10), thread);
	}
	return write_profile(argv[1]);
}
