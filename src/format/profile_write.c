/*
 * profile_write.c - write a set of profiles as one pct file (pct(5)):
 * what `pct merge` produces.  The runtime writes its files in place
 * through a mapping (lib/output.c); this is the tools' writer, for a
 * finished profile.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "outfile.h"
#include "profile.h"
#include "pset.h"
#include "util.h"

unsigned profile_file_mode(const void *data, size_t size)
{
	struct pct_header h;
	memset(&h, 0, sizeof h);
	memcpy(&h, data, size < sizeof h ? size : sizeof h);
	return h.stacks_offset ? 0600 : 0644;
}

static int cmp_mrow(const void *pa, const void *pb)
{
	const uint64_t *a = pa, *b = pb;   /* key, ctx */
	if (a[0] != b[0])
		return a[0] < b[0] ? -1 : 1;
	return a[1] < b[1] ? -1 : a[1] > b[1];
}

void profile_header_init(struct pct_header *h, int complete)
{
	memset(h, 0, sizeof *h);
	memcpy(h->magic, PCT_MAGIC, PCT_MAGIC_LEN);
	h->version = PCT_VERSION;
	h->byte_order = PCT_BYTE_ORDER;
	h->header_size = sizeof *h;
	h->state = complete ? PCT_STATE_COMPLETE : PCT_STATE_RUNNING;
}

int profile_write(const char *path, const struct pset *s, char *err, size_t errlen)
{
	const struct profile *first = &s->profiles[0];
	struct pct_header h;
	profile_header_init(&h, 1);
	h.mechanism = first->hdr.mechanism;
	h.event = first->hdr.event;
	memcpy(h.dimension, first->hdr.dimension, sizeof h.dimension);
	h.dimension_abbrev = first->hdr.dimension_abbrev;
	h.pid = first->hdr.pid;
	h.ppid = first->hdr.ppid;
	h.period_requested_ns = first->hdr.period_requested_ns;
	h.runs = (uint32_t)(s->runs > UINT32_MAX ? UINT32_MAX : s->runs);
	h.exe_module = UINT32_MAX;
	h.start_time_ns = first->hdr.start_time_ns;
	for (size_t f = 0; f < s->nprofiles; f++) {
		const struct pct_header *ph = &s->profiles[f].hdr;
		if (ph->start_time_ns < h.start_time_ns)
			h.start_time_ns = ph->start_time_ns;
		if (ph->end_time_ns > h.end_time_ns)
			h.end_time_ns = ph->end_time_ns;
	}
	/* the CPU time before sampling started is kept, as the sum of the
	 * files', unless it would overflow the header */
	h.cpu_start_ns = pset_cpu_before_ns(s);
	if (__builtin_add_overflow(h.cpu_start_ns, s->cpu_ns, &h.cpu_last_ns)) {
		h.cpu_start_ns = 0;
		h.cpu_last_ns = s->cpu_ns;
	}
	h.dropped = s->dropped;

	/* threads: one slot per distinct (tid, name) of all files */
	struct mthread { uint32_t tid; char name[17]; uint64_t samples; } *threads = NULL;
	size_t nthreads = 0, capthreads = 0;
	uint32_t **tmap = xcalloc(s->nprofiles, sizeof *tmap);
	for (size_t f = 0; f < s->nprofiles; f++) {
		const struct profile *p = &s->profiles[f];
		tmap[f] = xcalloc(p->nthreads + 1, sizeof **tmap);
		for (size_t t = 0; t < p->nthreads; t++) {
			if (p->threads[t].tid == 0)
				continue;
			size_t j = 0;
			while (j < nthreads && !(threads[j].tid == p->threads[t].tid &&
						 strcmp(threads[j].name, p->threads[t].name) == 0))
				j++;
			if (j == nthreads) {
				grow(&threads, &capthreads, nthreads + 1, sizeof *threads);
				threads[nthreads].tid = p->threads[t].tid;
				strcpy(threads[nthreads].name, p->threads[t].name);
				threads[nthreads++].samples = 0;
			}
			threads[j].samples += p->threads[t].samples;
			tmap[f][t + 1] = (uint32_t)j + 1;
		}
	}
	if (nthreads > PCT_THREADS_LIMIT / 2)
		nthreads = PCT_THREADS_LIMIT / 2;   /* more are merged as "unknown" */

	/* samples keyed by (global module, offset, thread), as the runtime keys them */
	struct mrow { uint64_t key, ctx, count; } *rows = NULL;
	size_t nrows = 0, caprows = 0;
	for (size_t f = 0; f < s->nprofiles; f++)
		for (size_t i = 0; i < s->profiles[f].nsamples; i++) {
			const struct profile_sample *smp = &s->profiles[f].samples[i];
			uint32_t m = pset_module_of(s, f, smp);
			uint64_t key = m == PSET_NO_MODULE ? pct_key(PCT_KEY_UNKNOWN_MODULE, smp->offset)
							   : pct_key(m + 1, smp->offset);
			uint32_t t = tmap[f][smp->thread];
			grow(&rows, &caprows, nrows + 1, sizeof *rows);
			rows[nrows++] = (struct mrow){ key, t > nthreads ? 0 : t, smp->count };
		}
	for (size_t f = 0; f < s->nprofiles; f++)
		free(tmap[f]);
	free(tmap);
	sort(rows, nrows, sizeof *rows, cmp_mrow);
	size_t nsum = 0;
	for (size_t i = 0; i < nrows; i++) {
		if (nsum && rows[nsum - 1].key == rows[i].key && rows[nsum - 1].ctx == rows[i].ctx)
			rows[nsum - 1].count += rows[i].count;
		else
			rows[nsum++] = rows[i];
	}
	if (s->nmods > PCT_MODULES_LIMIT)
		return snprintf(err, errlen, "'%s': %zu modules, more than a profile holds", path, s->nmods), -1;
	uint64_t pool = 0;
	for (size_t m = 0; m < s->nmods; m++)
		pool += strlen(s->mods[m].path) + 1;
	pool += strlen(first->cmdline) + 1;
	uint64_t slots = 1024;
	while (slots < 2 * nsum)
		slots *= 2;
	uint32_t tslots = 16;
	while (tslots < 2 * nthreads)
		tslots *= 2;
	struct pct_layout lay;             /* no stack region: merge sums samples only */
	if (pct_layout(&lay, s->nmods, pool, tslots, slots, 0, 0, 0) != 0) {
		free(rows);
		free(threads);
		return snprintf(err, errlen, "'%s': the merged profile would pass 2^64 bytes", path), -1;
	}
	h.modules_offset = lay.modules_offset;
	h.module_size = sizeof(struct pct_module);
	h.modules_max = (uint32_t)s->nmods;
	h.modules_count = (uint32_t)s->nmods;
	h.strings_offset = lay.strings_offset;
	h.strings_size = pool;
	h.threads_offset = lay.threads_offset;
	h.threads_max = tslots;
	h.thread_size = sizeof(struct pct_thread);
	h.threads_count = (uint32_t)nthreads;
	h.table_offset = lay.table_offset;
	h.table_slots = slots;
	h.entry_size = sizeof(struct pct_entry);
	h.file_size = lay.file_size;

	char *buf = xcalloc(1, h.file_size);
	struct pct_module *mods = (struct pct_module *)(buf + h.modules_offset);
	char *strings = buf + h.strings_offset;
	for (size_t m = 0; m < s->nmods; m++) {
		const struct pset_module *g = &s->mods[m];
		size_t len = strlen(g->path);
		memcpy(strings + h.strings_used, g->path, len + 1);
		mods[m].path_offset = h.strings_used;
		mods[m].path_len = (uint32_t)len;
		h.strings_used += len + 1;
		mods[m].kind = (uint8_t)g->kind;
		mods[m].build_id_len = (uint8_t)g->build_id_len;
		memcpy(mods[m].build_id, g->build_id, g->build_id_len);
		/* Samples are stored by file offset; the address range only
		 * places late-resolved PCs, and a merged file has none. */
		mods[m].start = 0x10000000000ull * (m + 1);
		mods[m].end = mods[m].start + 1;
		if (g->kind == PCT_MOD_ANON)
			mods[m].file_offset = mods[m].start;   /* its samples are at addresses (profile.c) */
		if (g->kind == PCT_MOD_MAIN && h.exe_module == UINT32_MAX)
			h.exe_module = (uint32_t)m;
	}
	size_t clen = strlen(first->cmdline);
	memcpy(strings + h.strings_used, first->cmdline, clen + 1);
	for (size_t i = 0; i < clen; i++)
		if (strings[h.strings_used + i] == ' ')
			strings[h.strings_used + i] = '\0';   /* back to argv form */
	h.cmdline_offset = h.strings_used;
	h.cmdline_len = (uint32_t)clen + 1;
	h.strings_used += clen + 1;

	struct pct_thread *tt = (struct pct_thread *)(buf + h.threads_offset);
	for (size_t t = 0; t < nthreads; t++) {
		tt[t].tid = threads[t].tid;
		memcpy(tt[t].name, threads[t].name, strnlen(threads[t].name, sizeof tt[t].name));
		tt[t].samples = threads[t].samples;
	}
	free(threads);
	struct pct_entry *table = (struct pct_entry *)(buf + h.table_offset);
	for (size_t i = 0; i < nsum; i++) {
		uint64_t j = (rows[i].key * UINT64_C(0x9e3779b97f4a7c15)) & (slots - 1);
		while (table[j].key)
			j = (j + 1) & (slots - 1);
		table[j].key = rows[i].key;
		table[j].ctx = rows[i].ctx;
		table[j].count = rows[i].count;
		h.samples += rows[i].count;
		h.slots_used++;
	}
	free(rows);
	uint64_t n = h.samples + h.dropped;
	h.period_ns = first->hdr.event == PCT_EVENT_WALL || h.mechanism != PCT_MECH_CPU_TIMER ? h.period_requested_ns
		    : n ? s->cpu_ns / n : 0;
	memcpy(buf, &h, sizeof h);

	/* outfile.h: beside the target, then renamed over it, never a torn
	 * file; a device or FIFO is written in place */
	struct outfile o;
	int rc = outfile_open(&o, path, err, errlen);
	if (rc == 0 && fwrite(buf, 1, h.file_size, o.fp) != h.file_size) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		outfile_abort(&o);
		rc = -1;
	} else if (rc == 0) {
		rc = outfile_commit(&o, err, errlen);
	}
	free(buf);
	return rc;
}
