/*
 * fuzz_profile.c - libFuzzer target for the profile reader and the report
 * path: any bytes are parsed as a pct profile (profile_parse, the code
 * every command reads files with), or, after the tree magic, as a process
 * tree's file (tree_parse, whose members go through profile_parse); a profile that passes goes through
 * the report pipeline of four views, both as text (pipeline_run, then
 * stage_sum) and as `pct report` runs it (pipeline_sum), which must print
 * the same bytes, then `pct timeline` (text and TSV, by thread and by
 * function) and every export format (pct export) to /dev/null.
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
#include "timeline.h"
#include "tree.h"

static unsigned runs;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct profile *pv = NULL;
	size_t nv = 0;
	struct pset s;
	char err[512];
	/* profile_parse wants 8-byte alignment, as a file read into malloc'd
	 * memory has; a process tree's file (tree.h) is expanded into its
	 * profiles, as pset_load does */
	void *copy = malloc(size ? size : 1);
	memcpy(copy, data, size);
	if (tree_magic(copy, size)) {
		if (tree_parse("fuzz", copy, size, &pv, &nv, err, sizeof err) != 0) {
			free(copy);
			return 0;
		}
	} else {
		pv = calloc(1, sizeof *pv);
		if (profile_parse("fuzz", copy, size, pv, err, sizeof err) != 0) {
			free(pv);
			free(copy);
			return 0;
		}
		nv = 1;
	}
	free(copy);
	/* half the inputs (by their last byte) are cut to a time slice, as
	 * --time cuts them (profile_slice): 0.5 s to 1.5 s of each profile */
	if (size && (data[size - 1] & 1)) {
		const struct time_range r = { 500000000u, 1500000000u };
		uint64_t coarse = 0;
		for (size_t i = 0; i < nv; i++)
			if (pv[i].timed && profile_slice(&pv[i], &r, pv[i].hdr.clock_start_ns, &coarse, err,
							 sizeof err) != 0) {
				fprintf(stderr, "fuzz: a timed profile cannot be sliced: %s\n", err);
				abort();
			}
	}
	memset(&s, 0, sizeof s);
	size_t added = 0;
	while (added < nv && pset_add(&s, &pv[added], err, sizeof err) == 0)
		added++;
	for (size_t i = added + 1; i < nv; i++)
		profile_free(&pv[i]);    /* pset_add took the failing one over */
	free(pv);
	if (added == nv) {
		/* each view of `pct report` (pipeline_sum, as cmd_report.c
		 * runs it) must print the bytes of the text pipeline, dump |
		 * sym | line | sum; dump's TSV is well formed whatever the
		 * profile, so an error from a later stage is a finding too */
		static const struct {
			const char *view, *split;
			int tsv;
		} cases[] = {
			{ "line", NULL, 0 }, { "function", NULL, 0 }, { "function", "pid,tid,thread", 1 },
			{ "address", NULL, 0 }, { "thread", NULL, 1 }, { "module", "pid,command", 0 },
			{ "process", NULL, 0 },
		};
		FILE *sink = fopen("/dev/null", "w");
		for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
			const struct view *v = view_find(cases[i].view);
			struct pipe_buf b[3];
			struct error e = { 0 };
			struct sum_opts o = { .by = v->keys, .tsv = cases[i].tsv, .limit = SIZE_MAX,
					      .split = cases[i].split };
			char *text = NULL, *direct = NULL;
			size_t ntext = 0, ndirect = 0;
			FILE *wt = open_memstream(&text, &ntext), *wd = open_memstream(&direct, &ndirect);
			FILE *in = pipeline_run(&s, v, b, &e);
			if (wt == NULL || wd == NULL || in == NULL || stage_sum(in, "pipeline", wt, &o, &e) != 0 ||
			    pipeline_sum(&s, v, wd, &o, &e) != 0) {
				fprintf(stderr, "fuzz: the pipeline failed: %s\n", e.msg ? e.msg : "?");
				abort();
			}
			fclose(in);
			pipeline_free(b);
			fclose(wt);
			fclose(wd);
			if (ntext != ndirect || memcmp(text, direct, ntext) != 0) {
				fprintf(stderr, "fuzz: --by=%s: pipeline_sum differs from the text pipeline\n%s\n---\n%s\n",
					cases[i].view, text, direct);
				abort();
			}
			free(text);
			free(direct);
		}
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
		/* pct timeline, by thread and by function, text and TSV (a
		 * file without sample times is refused: that is all) */
		for (int by = 0; by < 2; by++) {
			struct timeline tl;
			struct error e = { 0 };
			size_t label, strip;
			if (tl_load(&s, by ? TL_BY_FUNCTION : TL_BY_THREAD, 10, &tl, &e) != 0) {
				free(e.msg);
				continue;
			}
			tl_layout(&tl, &s, 80, 0, &label, &strip);
			tl_bucket(&tl, &s, tl_nice_bucket(tl.span_ns, strip));
			tl_print_text(&tl, &s, 80, 0, sink);
			tl_print_tsv(&tl, &s, sink);
			tl_free(&tl);
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
