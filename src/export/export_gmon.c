/*
 * export_gmon.c - a GNU gmon.out holding one histogram record of the main
 * executable and, with -g stacks, its call arcs, for `gprof -b PROG
 * gmon.out`.
 *
 * The layout is gmon_out.h's (glibc, gmon/sys/gmon_out.h; the gprof manual,
 * "gmon.out File Format"): a 20-byte header, "gmon", version 1 and 12
 * spare bytes; then a GMON_TAG_TIME_HIST (0) tag byte, the histogram
 * header (low_pc and high_pc, pointer-sized; hist_size and prof_rate,
 * 4 bytes; dimen, 15 bytes; dimen_abbrev, 1) and hist_size 16-bit bins;
 * then one GMON_TAG_CG_ARC (1) tag byte and record per arc (from_pc and
 * self_pc, pointer-sized; count, 4 bytes); all in this machine's byte
 * order.
 *
 * Addresses are link-time addresses, the load bias of a PIE removed (as
 * glibc >= 2.27 writes them), so gprof matches them with the executable's
 * symbol table.  A bin covers 2 bytes, gprof's UNIT (with 1-byte bins
 * gprof places samples wrongly), while the sampled span is at most 16 MiB,
 * doubling beyond; functions start 2-byte aligned or more, so no bin
 * straddles two.  Bins are
 * 16-bit: a count above 65535 saturates, and a note says so on stderr.
 * prof_rate is the profile's effective rate in Hz, rounded, so gprof's
 * seconds are samples / rate, as pct's.  gprof prints the dimension:
 * it is written escaped (escape.h), cut at a character boundary.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "export.h"
#include "stats.h"
#include "symtab.h"
#include "util.h"

#define GMON_MAGIC "gmon"
#define GMON_VERSION 1
#define GMON_TAG_TIME_HIST 0
#define GMON_TAG_CG_ARC 1
#define GMON_BIN_BYTES 2               /* sizeof(UNIT), gprof hist.c: its bins are in 16-bit units */
#define GMON_HIST_SPAN (16u << 20)     /* bytes a histogram covers at 2 bytes per bin */

/*
 * The call arcs of the -g stacks between two functions of the executable
 * (export_arcs), one GMON_TAG_CG_ARC record each: from_pc, the caller's
 * return address - 1 (in its body), self_pc, the callee's start, both
 * link-time and pointer-sized, and a 32-bit count: the arc's samples,
 * which gprof shows as calls.  gprof propagates a function's time to its
 * callers in proportion to these counts.  An arc with another module at
 * either end is left out (gprof reads one executable's symbols), and so is
 * one into a PLT stub.
 */
static void write_arcs(const struct pset *s, uint32_t exe, FILE *out)
{
	struct export_arc *arcs;
	size_t n, cut = 0;
	export_arcs(s, &arcs, &n);
	for (size_t i = 0; i < n; i++) {
		const struct export_arc *a = &arcs[i];
		struct symbol sym;
		if (a->from.module != exe || a->to.module != exe || a->from.unplaced || a->to.unplaced)
			continue;
		/* gprof knows no PLT stubs: it would name one by the symbol
		 * before it (_init) */
		if (symtab_function_at(pset_symtab(&s->mods[exe]), a->to.addr, &sym) == 0 && symbol_is_plt(sym.name))
			continue;
		unsigned char tag = GMON_TAG_CG_ARC;
		uintptr_t from_pc = (uintptr_t)a->from.addr, self_pc = (uintptr_t)a->to.addr;
		uint32_t count = a->from.samples > UINT32_MAX ? UINT32_MAX : (uint32_t)a->from.samples;
		cut += a->from.samples > UINT32_MAX;
		fwrite(&tag, 1, 1, out);
		fwrite(&from_pc, sizeof from_pc, 1, out);
		fwrite(&self_pc, sizeof self_pc, 1, out);
		fwrite(&count, sizeof count, 1, out);
	}
	if (cut)
		note("export: %zu gmon arcs hold more than 4294967295 samples and are cut to it "
		     "(gmon.out counts are 32-bit)", cut);
	free(arcs);
}

int export_gmon(const struct pset *s, FILE *out, char *err, size_t errlen)
{
	const struct profile *p0 = &s->profiles[0];
	if (p0->hdr.exe_module == UINT32_MAX || p0->hdr.exe_module >= p0->nmodules) {
		snprintf(err, errlen, "%s: the main executable is not among its modules", p0->file);
		return -1;
	}
	uint32_t exe = s->modmap[0][p0->hdr.exe_module];
	struct pset_addr *addrs;
	size_t n;
	uint64_t total = pset_addresses_all(s, &addrs, &n), unplaced = 0;
	uint64_t lo = UINT64_MAX, hi = 0, samples = 0;
	for (size_t i = 0; i < n; i++)
		if (addrs[i].module == exe && addrs[i].unplaced)
			unplaced += addrs[i].samples;
		else if (addrs[i].module == exe) {
			lo = addrs[i].addr < lo ? addrs[i].addr : lo;
			hi = addrs[i].addr + 1 > hi ? addrs[i].addr + 1 : hi;
			samples += addrs[i].samples;
		}
	if (samples == 0) {
		free(addrs);
		if (unplaced)
			snprintf(err, errlen, "%s: the main executable's file cannot be read (%s), so gmon.out "
				 "cannot place its %llu samples", p0->file, symtab_why(pset_symtab(&s->mods[exe])),
				 (unsigned long long)unplaced);
		else
			snprintf(err, errlen, "%s: no samples in the main executable (%s) to write", p0->file,
				 s->mods[exe].display);
		return -1;
	}
	/* gprof reads one executable: say what is left out */
	if (samples < total)
		note("export: gmon.out holds the main executable's %llu samples; %llu of the "
		     "%llu samples are elsewhere (other modules%s) and left out", (unsigned long long)samples,
			(unsigned long long)(total - samples), (unsigned long long)total,
			unplaced ? ", or the executable at addresses its file cannot place" : "");
	uint64_t per_bin = GMON_BIN_BYTES;
	while ((hi - lo) / per_bin > GMON_HIST_SPAN / GMON_BIN_BYTES)
		per_bin *= 2;
	lo -= lo % per_bin;
	hi += (per_bin - (hi - lo) % per_bin) % per_bin;
	uint32_t nbins = (uint32_t)((hi - lo) / per_bin);
	uint16_t *bins = xcalloc(nbins, sizeof *bins);
	uint64_t *wide = xcalloc(nbins, sizeof *wide);
	for (size_t i = 0; i < n; i++)
		if (addrs[i].module == exe && !addrs[i].unplaced)
			wide[(addrs[i].addr - lo) / per_bin] += addrs[i].samples;
	size_t saturated = 0;
	for (uint32_t i = 0; i < nbins; i++) {
		bins[i] = wide[i] > UINT16_MAX ? UINT16_MAX : (uint16_t)wide[i];
		saturated += wide[i] > UINT16_MAX;
	}
	if (saturated)
		note("export: %zu gmon bins hold more than 65535 samples and are cut to 65535 "
			"(gmon.out bins are 16-bit)", saturated);

	/* the effective rate over the whole set, as reports show it */
	uint64_t all = s->total + s->dropped;
	double rate = stats_rate_hz(all, s->cpu_ns);
	/* gmon's rate is a 32-bit int: a corrupt profile's rate is cut */
	int32_t prof_rate = rate >= INT32_MAX ? INT32_MAX : rate >= 1 ? (int32_t)(rate + 0.5) : 1;
	if (rate >= INT32_MAX)
		note("export: the profile's rate, %.3g Hz, is cut to gmon.out's largest, %d Hz",
			rate, INT32_MAX);
	int32_t version = GMON_VERSION;
	char spare[12] = { 0 }, dimen[15] = { 0 };
	uintptr_t low_pc = (uintptr_t)lo, high_pc = (uintptr_t)hi;
	char *shown = esc_dup(p0->hdr.dimension);
	size_t cut = 0, k;
	while (shown[cut] && (k = esc_printable((const unsigned char *)shown + cut, strlen(shown + cut))) != 0 &&
	       cut + k <= sizeof dimen)
		cut += k;
	memcpy(dimen, shown, cut);
	free(shown);
	char abbrev = p0->hdr.dimension_abbrev;
	if (abbrev <= ' ' || abbrev >= 0x7f)
		abbrev = '?';
	unsigned char tag = GMON_TAG_TIME_HIST;

	fwrite(GMON_MAGIC, 1, 4, out);
	fwrite(&version, 4, 1, out);
	fwrite(spare, 1, sizeof spare, out);
	fwrite(&tag, 1, 1, out);
	fwrite(&low_pc, sizeof low_pc, 1, out);
	fwrite(&high_pc, sizeof high_pc, 1, out);
	fwrite(&nbins, 4, 1, out);
	fwrite(&prof_rate, 4, 1, out);
	fwrite(dimen, 1, sizeof dimen, out);
	fwrite(&abbrev, 1, 1, out);
	fwrite(bins, sizeof *bins, nbins, out);
	write_arcs(s, exe, out);
	free(bins);
	free(wide);
	free(addrs);
	if (ferror(out)) {
		snprintf(err, errlen, "export: write error");
		return -1;
	}
	return 0;
}
