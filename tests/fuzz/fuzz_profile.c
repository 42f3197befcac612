/*
 * fuzz_profile.c - libFuzzer target for the profile reader and the report
 * path: any bytes are parsed as a pct profile (profile_parse, the code
 * every command reads files with); a profile that passes goes through
 * dump | sym | line | sum in memory, as `pct report --by=line` runs it,
 * and then every export format (pct export) to /dev/null.
 * A crash, a sanitizer report, an exit or a hang is a finding.
 *
 * Built with clang -fsanitize=fuzzer,address,undefined by `make fuzz`;
 * tests/fuzz/replay.c runs the same function over files without libFuzzer.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callstack.h"
#include "export.h"
#include "profile.h"
#include "pset.h"
#include "stages.h"
#include "symtab.h"

static void run_stage(FILE **in, void (*stage)(FILE *, const char *, FILE *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	stage(*in, "fuzz", out);
	fclose(out);
	fclose(*in);
	*in = fmemopen(buf, len, "r");
	/* the buffer must outlive the stream: leak it to the caller's free */
	static char *keep[2];
	static int k;
	free(keep[k]);
	keep[k] = buf;
	k ^= 1;
}

static unsigned runs;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct profile p;
	struct pset s;
	char err[512];
	/* profile_parse wants 8-byte alignment, as a file read into malloc'd
	 * memory has */
	void *copy = malloc(size ? size : 1);
	memcpy(copy, data, size);
	if (profile_parse("fuzz", copy, size, &p, err, sizeof err) != 0) {
		free(copy);
		return 0;
	}
	free(copy);
	memset(&s, 0, sizeof s);
	if (pset_add(&s, &p, err, sizeof err) == 0) {
		char *buf = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&buf, &len);
		stage_dump(&s, out);
		fclose(out);
		FILE *in = fmemopen(buf, len, "r");
		run_stage(&in, stage_sym);
		run_stage(&in, stage_line);
		struct sum_opts o = { .by = "file,line,function,inline", .tsv = 0, .limit = SIZE_MAX };
		FILE *sink = fopen("/dev/null", "w");
		stage_sum(in, "fuzz", sink, &o);
		/* -g stacks: unwinding fuzzed registers and stack bytes */
		if (callstack_present(&s)) {
			struct agg folded = { 0 }, totals = { 0 }, callers = { 0 };
			struct cs_graph g;
			callstack_graph(&s, &g);
			callstack_fold(&g, &folded);
			callstack_totals(&g, &totals);
			callstack_neighbours(&g, "main", 0, &callers);
			callstack_print_unrooted(&g, "", sink);
			callstack_graph_free(&g);
			agg_free(&folded);
			agg_free(&totals);
			agg_free(&callers);
		}
		/* every export format, as `pct export` writes them (pprof
		 * gzips to a dup of the stream's descriptor: a real file) */
		char xerr[512];
		export_callgrind(&s, sink, xerr, sizeof xerr);
		export_pprof(&s, sink, xerr, sizeof xerr);
		export_gperftools(&s, sink, xerr, sizeof xerr);
		export_gmon(&s, sink, xerr, sizeof xerr);
		export_folded(&s, sink, xerr, sizeof xerr);
		fclose(sink);
		fclose(in);
		free(buf);
	}
	pset_free(&s);
	/* Keep the ELF files of real modules open across inputs (loading
	 * libc's debug info takes a while), within bounds. */
	if (++runs % 512 == 0)
		symtab_free_all();
	return 0;
}
