/*
 * export_gperftools.c - gperftools' legacy CPU profile, which google-pprof
 * (Debian google-perftools) and pprof read.
 *
 * The layout is gperftools' docs/cpuprofile-fileformat.html: native
 * pointer-sized words; a header of 0, 3 (header words that follow), 0
 * (version), the sampling period in microseconds and 0; then one record
 * per stack, its sample count, its depth and its PCs, leaf first, callers
 * as return addresses (pprof subtracts one from all but the first); a
 * trailer of 0, 1, 0; then the text of /proc/self/maps for the modules,
 * with which pprof finds and symbolizes them (paths escaped, escape.h: a
 * newline in one would forge a line of the maps).  Without -g stacks each
 * record is one PC.
 *
 * The maps are the first profile's.  The other profiles' PCs are moved to
 * where the first one had the same module; a PC whose module the first
 * profile lacks is left out, and counted on stderr.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "callstack.h"
#include "escape.h"
#include "export.h"
#include "stats.h"
#include "util.h"

struct gp {
	const struct pset *s;
	FILE *out;
	uint64_t skipped;
	uintptr_t *words;
	size_t cap;
};

/* pc of profile prof as an address in the first profile, or 0. */
static uint64_t rebase(const struct pset *s, size_t prof, uint64_t pc)
{
	const struct profile *p = &s->profiles[prof];
	if (prof == 0)
		return pc;
	for (size_t i = 0; i < p->nmodules; i++) {
		const struct profile_module *m = &p->modules[i];
		if (pc < m->start || pc >= m->end)
			continue;
		uint32_t g = s->modmap[prof][i];
		const struct profile *p0 = &s->profiles[0];
		for (size_t j = 0; g != PSET_NO_MODULE && j < p0->nmodules; j++) {
			const struct profile_module *m0 = &p0->modules[j];
			uint64_t off = pc - m->start + m->file_offset;
			if (s->modmap[0][j] == g && off >= m0->file_offset && off - m0->file_offset < m0->end - m0->start)
				return m0->start + (off - m0->file_offset);
		}
		return 0;
	}
	return 0;
}

static void record(struct gp *g, uint64_t count, const uint64_t *pcs, size_t n)
{
	grow(&g->words, &g->cap, n + 2, sizeof *g->words);
	g->words[0] = (uintptr_t)count;
	g->words[1] = (uintptr_t)n;
	for (size_t k = 0; k < n; k++)
		g->words[2 + k] = (uintptr_t)pcs[k];
	fwrite(g->words, sizeof *g->words, n + 2, g->out);
}

static void stack_record(const struct cs_stack *st, void *arg)
{
	struct gp *g = arg;
	uint64_t pcs[CALLSTACK_MAX_FRAMES];
	size_t n = 0;
	for (size_t k = 0; k < st->nframes; k++) {
		uint64_t pc = rebase(g->s, st->profile, st->frames[k].pc);
		if (pc == 0)
			break;
		pcs[n++] = k ? pc + 1 : pc;  /* back to the return address */
	}
	if (n)
		record(g, st->rec->weight, pcs, n);
	else
		g->skipped += st->rec->weight;
}

int export_gperftools(const struct pset *s, FILE *out, char *err, size_t errlen)
{
	struct gp g = { s, out, 0, NULL, 0 };
	uint64_t all = s->total + s->dropped;
	uintptr_t period_us = all && s->cpu_ns ? (uintptr_t)(stats_period(s->cpu_ns, all) / 1e3 + 0.5) : 10000;
	uintptr_t header[5] = { 0, 3, 0, period_us ? period_us : 1, 0 }, trailer[3] = { 0, 1, 0 };
	fwrite(header, sizeof header[0], 5, out);
	if (callstack_present(s)) {
		callstack_each(s, stack_record, &g);
	} else {
		for (size_t prof = 0; prof < s->nprofiles; prof++) {
			const struct profile *p = &s->profiles[prof];
			for (size_t i = 0; i < p->nsamples; i++) {
				const struct profile_sample *smp = &p->samples[i];
				uint64_t pc = smp->offset;
				if (smp->module != PROFILE_NO_MODULE) {
					const struct profile_module *m = &p->modules[smp->module];
					pc = m->start + (smp->offset - m->file_offset);
				}
				pc = rebase(s, prof, pc);
				if (pc)
					record(&g, smp->count, &pc, 1);
				else
					g.skipped += smp->count;
			}
		}
	}
	fwrite(trailer, sizeof trailer[0], 3, out);
	const struct profile *p0 = &s->profiles[0];
	for (size_t i = 0; i < p0->nmodules; i++) {
		const struct profile_module *m = &p0->modules[i];
		fprintf(out, "%" PRIx64 "-%" PRIx64 " r-xp %08" PRIx64 " 00:00 0 ", m->start, m->end, m->file_offset);
		esc_fputs(m->path, out);
		fputc('\n', out);
	}
	free(g.words);
	if (g.skipped)
		note("export: %llu samples are in modules the first profile does not map; "
			"left out", (unsigned long long)g.skipped);
	if (ferror(out)) {
		snprintf(err, errlen, "export: write error");
		return -1;
	}
	return 0;
}
