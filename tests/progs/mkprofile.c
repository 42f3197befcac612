/*
 * mkprofile.c - write a pct profile (pct_format.h) from TSV, for tests and
 * benchmarks: a second, independent writer of the format.
 *
 *   mkprofile OUT < TSV
 *     TSV as `pct dump` prints it (module, build_id, offset, samples; '#'
 *     lines and the header are skipped).  The profile gets pid 4242,
 *     command line "mkprofile", a 4 ms period and CPU time = samples x 4 ms.
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
};

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

static void add(int mod, uint64_t off, uint64_t n)
{
	if (nrows == caprows) {
		caprows = caprows ? 2 * caprows : 1024;
		rows = realloc(rows, caprows * sizeof *rows);
	}
	rows[nrows++] = (struct row){ mod, off, n };
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
	h.pid = 4242;
	h.ppid = 1;
	strcpy(h.dimension, "seconds");
	h.dimension_abbrev = 's';
	h.period_requested_ns = 1000000;
	h.start_time_ns = 1700000000000000000;
	h.end_time_ns = h.start_time_ns + 1000000000;
	h.modules_offset = 4096;
	h.module_size = sizeof(struct pct_module);
	h.modules_max = nmods ? (uint32_t)nmods : 1;
	h.strings_offset = h.modules_offset + h.modules_max * sizeof(struct pct_module);
	h.strings_size = 16;
	for (int i = 0; i < nmods; i++)
		h.strings_size += strlen(mods[i]) + 1;
	h.table_offset = (h.strings_offset + h.strings_size + 4095) & ~4095ull;
	h.table_slots = slots;
	h.entry_size = sizeof(struct pct_entry);
	h.exe_module = UINT32_MAX;
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
		size_t bl = strlen(bids[i]) / 2;
		for (size_t k = 0; k < bl && k < PCT_BUILD_ID_MAX; k++)
			sscanf(bids[i] + 2 * k, "%2hhx", &m[i].build_id[k]);
		m[i].build_id_len = (uint8_t)(bl < PCT_BUILD_ID_MAX ? bl : PCT_BUILD_ID_MAX);
	}
	h.modules_count = (uint32_t)nmods;
	struct pct_entry *e = (struct pct_entry *)(buf + h.table_offset);
	for (size_t r = 0; r < nrows; r++) {
		uint64_t key = rows[r].mod < 0 ? pct_key(PCT_KEY_UNKNOWN_MODULE, rows[r].offset)
					       : pct_key((uint32_t)rows[r].mod + 1, rows[r].offset);
		uint64_t i = (key * 0x9e3779b97f4a7c15ull) & (slots - 1);
		while (e[i].key && e[i].key != key)
			i = (i + 1) & (slots - 1);
		if (e[i].key == 0)
			h.slots_used++;
		e[i].key = key;
		e[i].count += rows[r].samples;
		total += rows[r].samples;
	}
	h.samples = total;
	h.cpu_start_ns = 1000000;
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
			add(mod, lo + i * stride + next() % (stride ? stride : 1), n);
			left -= n;
		}
		return write_profile(argv[2]);
	}
	if (argc != 2) {
		fprintf(stderr, "usage: mkprofile OUT < TSV | mkprofile --random OUT MODULE LO HI NADDR NSAMPLES SEED\n");
		return 2;
	}
	char line[8192];
	while (fgets(line, sizeof line, stdin)) {
		if (line[0] == '#' || strncmp(line, "module\t", 7) == 0)
			continue;
		char *mod = strtok(line, "\t"), *bid = strtok(NULL, "\t"), *off = strtok(NULL, "\t"),
		     *n = strtok(NULL, "\t\n");
		if (mod && bid && off && !n) {  /* empty build_id: strtok skips it */
			n = off;
			off = bid;
			bid = "";
		}
		if (!mod || !off || !n)
			return fprintf(stderr, "mkprofile: bad line\n"), 2;
		add(strcmp(mod, "[unknown]") == 0 ? -1 : intern(mod, bid), strtoull(off, NULL, 16), strtoull(n, NULL, 10));
	}
	return write_profile(argv[1]);
}
