/*
 * scalegen.c - synthetic pct profiles (pct(5)) at sizes real users reach,
 * for bench/scale.sh.  A third writer of the format (after lib/output.c
 * and tests/progs/mkprofile.c), with no limit on modules.
 *
 *   scalegen addrs OUT MODULE LO HI NADDR SEED
 *     NADDR distinct file offsets in [LO, HI) of MODULE (a stride walk
 *     with a random phase in each stride), 1 to 3 samples each.
 *   scalegen modules OUT PREFIX NMOD LO HI SEED
 *     NMOD modules PREFIX00000.so, PREFIX00001.so, ... (at most 65534),
 *     each with 4 distinct offsets in [LO, HI), 1 to 3 samples each.
 *
 * The profile is complete, CPU time at a 4 ms period, pid 4242.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pct_format.h"

static uint64_t rng = 88172645463325252u;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);
	if (p == NULL) {
		fprintf(stderr, "scalegen: out of memory\n");
		exit(1);
	}
	return p;
}

/* Write nmods modules named by paths[] and the samples (module, offset)
 * of keys[] (pct_key form), 1 to 3 samples each. */
static int write_profile(const char *out, char **paths, uint32_t nmods, const uint64_t *keys, size_t nkeys)
{
	uint64_t slots = 1024, total = 0;
	while (slots < 2 * nkeys)
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
	h.period_requested_ns = 4000000;
	h.start_time_ns = 1700000000000000000;
	h.end_time_ns = h.start_time_ns + 1000000000;
	h.modules_offset = 4096;
	h.module_size = sizeof(struct pct_module);
	h.modules_max = nmods ? nmods : 1;
	h.strings_offset = h.modules_offset + (uint64_t)h.modules_max * sizeof(struct pct_module);
	h.strings_size = 16;
	for (uint32_t i = 0; i < nmods; i++)
		h.strings_size += strlen(paths[i]) + 1;
	h.threads_offset = (h.strings_offset + h.strings_size + 7) & ~7ull;
	h.threads_max = 16;
	h.thread_size = sizeof(struct pct_thread);
	h.table_offset = (h.threads_offset + h.threads_max * sizeof(struct pct_thread) + 4095) & ~4095ull;
	h.table_slots = slots;
	h.entry_size = sizeof(struct pct_entry);
	h.exe_module = UINT32_MAX;
	h.file_size = h.table_offset + slots * sizeof(struct pct_entry);
	char *buf = xcalloc(1, h.file_size);
	struct pct_module *m = (struct pct_module *)(buf + h.modules_offset);
	char *pool = buf + h.strings_offset;
	memcpy(pool, "scalegen", 9);
	h.cmdline_len = 9;
	h.strings_used = 9;
	for (uint32_t i = 0; i < nmods; i++) {
		size_t len = strlen(paths[i]);
		memcpy(pool + h.strings_used, paths[i], len + 1);
		m[i].path_offset = h.strings_used;
		m[i].path_len = (uint32_t)len;
		h.strings_used += len + 1;
		m[i].start = 0x10000000000ull * (uint64_t)(i + 1);
		m[i].end = m[i].start + 0x1000000000ull;
		m[i].kind = PCT_MOD_FILE;
	}
	h.modules_count = nmods;
	struct pct_entry *e = (struct pct_entry *)(buf + h.table_offset);
	for (size_t r = 0; r < nkeys; r++) {
		uint64_t i = (keys[r] * 0x9e3779b97f4a7c15ull) & (slots - 1);
		while (e[i].key && e[i].key != keys[r])
			i = (i + 1) & (slots - 1);
		if (e[i].key == 0)
			h.slots_used++;
		e[i].key = keys[r];
		uint64_t n = 1 + next() % 3;
		e[i].count += n;
		total += n;
	}
	h.samples = total;
	h.cpu_last_ns = total * 4000000;
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
	if (argc != 8 || (strcmp(argv[1], "addrs") != 0 && strcmp(argv[1], "modules") != 0)) {
		fprintf(stderr, "usage: scalegen addrs OUT MODULE LO HI NADDR SEED\n"
				"       scalegen modules OUT PREFIX NMOD LO HI SEED\n");
		return 2;
	}
	int addrs = strcmp(argv[1], "addrs") == 0;
	uint64_t lo = strtoull(argv[addrs ? 4 : 5], NULL, 0), hi = strtoull(argv[addrs ? 5 : 6], NULL, 0);
	uint64_t count = strtoull(argv[addrs ? 6 : 4], NULL, 0);
	rng ^= strtoull(argv[7], NULL, 0) * 0x9e3779b97f4a7c15ull;
	if (addrs) {
		if (hi <= lo || count == 0 || count > hi - lo)
			return fprintf(stderr, "scalegen: bad range or count\n"), 2;
		uint64_t *keys = xcalloc(count, sizeof *keys), stride = (hi - lo) / count;
		for (uint64_t i = 0; i < count; i++)
			keys[i] = pct_key(1, lo + i * stride + next() % stride);
		return write_profile(argv[2], &argv[3], 1, keys, count);
	}
	if (count == 0 || count > PCT_MODULES_LIMIT || hi <= lo + 4)
		return fprintf(stderr, "scalegen: bad module count or range\n"), 2;
	char **paths = xcalloc(count, sizeof *paths);
	uint64_t *keys = xcalloc(4 * count, sizeof *keys), stride = (hi - lo) / 4;
	for (uint32_t i = 0; i < count; i++) {
		size_t len = strlen(argv[3]) + 16;
		paths[i] = xcalloc(1, len);
		snprintf(paths[i], len, "%s%05u.so", argv[3], i);
		for (uint64_t k = 0; k < 4; k++)
			keys[4 * i + k] = pct_key(i + 1, lo + k * stride + next() % stride);
	}
	return write_profile(argv[2], paths, (uint32_t)count, keys, 4 * count);
}
