/*
 * fuzz_profile.c - libFuzzer target for the profile reader and the report
 * path: any bytes are parsed as a pct profile (profile_parse, the code
 * every command reads files with); a profile that passes goes through
 * the report pipeline (pipeline_run, then stage_sum), the calls `pct
 * report --by=line` makes, and then every export format (pct export) to
 * /dev/null.
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
#include "pipeline.h"
#include "profile.h"
#include "pset.h"
#include "stages.h"
#include "symtab.h"

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
		/* the pipeline of `pct report --by=line`, as cmd_report.c runs it */
		struct pipe_buf b[3];
		struct error e = { 0 };
		FILE *sink = fopen("/dev/null", "w");
		FILE *in = pipeline_run(&s, view_find("line"), b, &e);
		struct sum_opts o = { .by = view_find("line")->keys, .tsv = 0, .limit = SIZE_MAX };
		/* dump's TSV is well formed whatever the profile: an error from
		 * a later stage is a finding */
		if (in == NULL || stage_sum(in, "pipeline", sink, &o, &e) != 0) {
			fprintf(stderr, "fuzz: the pipeline failed: %s\n", e.msg ? e.msg : "?");
			abort();
		}
		fclose(in);
		pipeline_free(b);
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
	}
	pset_free(&s);
	/* Keep the ELF files of real modules open across inputs (loading
	 * libc's debug info takes a while), within bounds. */
	if (++runs % 512 == 0)
		symtab_free_all();
	return 0;
}
