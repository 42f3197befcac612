/*
 * profile_write.c - write a set of profiles as one pct file (pct(5)):
 * what `pct merge` produces.  The runtime writes its files in place
 * through a mapping (lib/output.c); this is the tools' writer, for a
 * finished profile.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile.h"
#include "pset.h"
#include "u64map.h"
#include "util.h"

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len) {
		ssize_t w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

int profile_write(const char *path, const struct pset *s, char *err, size_t errlen)
{
	const struct profile *first = &s->profiles[0];
	struct pct_header h;
	memset(&h, 0, sizeof h);
	memcpy(h.magic, PCT_MAGIC, PCT_MAGIC_LEN);
	h.version = PCT_VERSION;
	h.byte_order = PCT_BYTE_ORDER;
	h.header_size = sizeof h;
	h.state = PCT_STATE_COMPLETE;
	h.mechanism = first->hdr.mechanism;
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
	h.cpu_start_ns = 0;
	h.cpu_last_ns = s->cpu_ns;
	h.dropped = s->dropped;

	/* samples keyed by (global module, offset), as the runtime keys them */
	struct u64map sum = { 0 };
	for (size_t f = 0; f < s->nprofiles; f++)
		for (size_t i = 0; i < s->profiles[f].nsamples; i++) {
			const struct profile_sample *smp = &s->profiles[f].samples[i];
			uint32_t m = pset_module_of(s, f, smp);
			uint64_t key = m == PSET_NO_MODULE ? pct_key(PCT_KEY_UNKNOWN_MODULE, smp->offset)
							   : pct_key(m + 1, smp->offset);
			*u64map_slot(&sum, key) += smp->count;
		}
	if (s->nmods > PCT_MODULES_LIMIT)
		return snprintf(err, errlen, "'%s': %zu modules, more than a profile holds", path, s->nmods), -1;
	uint64_t pool = 0;
	for (size_t m = 0; m < s->nmods; m++)
		pool += strlen(s->mods[m].path) + 1;
	pool += strlen(first->cmdline) + 1;
	uint64_t slots = 1024;
	while (slots < 2 * sum.len)
		slots *= 2;
	h.modules_offset = 4096;
	h.module_size = sizeof(struct pct_module);
	h.modules_max = (uint32_t)s->nmods;
	h.modules_count = (uint32_t)s->nmods;
	h.strings_offset = h.modules_offset + s->nmods * sizeof(struct pct_module);
	h.strings_size = pool;
	h.table_offset = (h.strings_offset + pool + 4095) & ~UINT64_C(4095);
	h.table_slots = slots;
	h.entry_size = sizeof(struct pct_entry);
	h.file_size = h.table_offset + slots * sizeof(struct pct_entry);

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

	struct pct_entry *table = (struct pct_entry *)(buf + h.table_offset);
	for (size_t i = 0; i < sum.cap; i++) {
		if (!sum.used[i])
			continue;
		uint64_t key = sum.keys[i];
		uint64_t j = (key * UINT64_C(0x9e3779b97f4a7c15)) & (slots - 1);
		while (table[j].key)
			j = (j + 1) & (slots - 1);
		table[j].key = key;
		table[j].count = sum.vals[i];
		h.samples += sum.vals[i];
		h.slots_used++;
	}
	uint64_t n = h.samples + h.dropped;
	h.period_ns = n ? s->cpu_ns / n : 0;
	memcpy(buf, &h, sizeof h);
	u64map_free(&sum);

	/* write beside the target, then rename over it: never a torn file */
	char *tmp = xasprintf("%s.tmp.%d", path, (int)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	int rc = -1;
	if (fd < 0) {
		snprintf(err, errlen, "cannot create '%s': %s", tmp, strerror(errno));
	} else if (write_all(fd, buf, h.file_size) != 0 || fsync(fd) != 0) {
		snprintf(err, errlen, "cannot write '%s': %s", tmp, strerror(errno));
	} else if (close(fd) != 0) {
		fd = -1;
		snprintf(err, errlen, "cannot write '%s': %s", tmp, strerror(errno));
	} else if ((fd = -1, rename(tmp, path) != 0)) {
		snprintf(err, errlen, "cannot rename '%s' to '%s': %s", tmp, path, strerror(errno));
	} else {
		rc = 0;
	}
	if (fd >= 0)
		close(fd);
	if (rc != 0)
		unlink(tmp);
	free(tmp);
	free(buf);
	return rc;
}
