/*
 * stages.h - pct's filter stages, as functions from one stream to another.
 *
 *   dump  profiles -> module build_id offset samples
 *   sym   + function function_offset address
 *   line  + file line inline
 *   sum   grouped by KEYS, sorted, with percent and standard error
 *
 * `pct report` is exactly dump | sym [| line] | sum run in one process
 * (cmd_report.c), so the report and the shell pipeline print the same
 * thing.  Before its header, a stage's TSV may hold comment lines; `pct
 * dump` writes the profile's description there and the other stages copy
 * it through, so that `pct sum` can print the summary:
 *
 *   #pct files=N dropped=D cpu_ns=C dimension=NAME event=EVENT
 *   #pct cpu_before_ns=B expected=E mechanism=timer|perf incomplete=K
 *   #pct file=NAME pid=P cmdline=ARGS       (when N is 1)
 *
 * B is the CPU time (ns) the processes spent before sampling started in
 * them; E the samples their CPU time should have given at the requested
 * period (profile_expected_samples), or "-" when the event is not CPU time;
 * K the number of files whose process never finished sampling (state
 * running: it exec'd, called _exit, was killed, or is still running).
 */
#ifndef PCT_STAGES_H
#define PCT_STAGES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "aggregate.h"

#include "pset.h"

struct tsv;
struct symtab;

void stage_dump(const struct pset *s, FILE *out);
void stage_sym(FILE *in, const char *name, FILE *out);
void stage_line(FILE *in, const char *name, FILE *out);

struct sum_opts {
	const char *by;                /* comma-separated key columns */
	int tsv;                       /* 1: TSV; 0: aligned text with a summary */
	size_t limit;                  /* rows to print; SIZE_MAX for all */
	uint64_t min_samples;          /* hide rows with fewer samples */
	const char *split;             /* keys put before by ("pid,command"), or NULL */
	const struct agg *totals;      /* -g: samples whose stack holds each function (a
					  one-key agg by name), printed as total columns
					  beside a 'function' key; or NULL */
	uint64_t totals_of;            /* the samples totals are a share of */
	int long_columns;              /* text: every column (samples, their stderr, percent, its
					  stderr, CI, cum%); 0: percent, CI, samples, then the keys
					  with module last, at most 40 columns before the keys */
	int full_names;                /* text: function names in full; 0: shortened (names.h) */
	int width;                     /* text: cut names so rows fit this many columns; 0: never
					  cut (a pipe, a file) */
};

/* Rows with fewer samples than this are marked '?' in text: their
 * relative standard error, 1/sqrt(n), is above 30%. */
#define SUM_FEW_SAMPLES 10
void stage_sum(FILE *in, const char *name, FILE *out, const struct sum_opts *o);
int sum_parse_options(int argc, char **argv, const char *usage_text, struct sum_opts *o, const char **by,
		      int *status);

/* The views of `pct report` (cmd_report.c): which stages run between dump
 * and sum, and the columns sum groups by. */
struct view {
	const char *name;
	int sym, line;
	const char *keys;
};
const struct view *view_find(const char *name);

/* One stage's output, read back as the next one's input. */
struct pipe_buf {
	char *buf;
	size_t len;
	FILE *w;
};

/* Run dump [| sym [| line]] over the profiles of s, as view v needs, in
 * memory; returns the last stage's TSV to read (fclose it, then free the
 * three buffers' buf). */
FILE *pipeline_run(const struct pset *s, const struct view *v, struct pipe_buf b[3]);
/* pset_load, or exit 1 with its message. */
void pset_load_or_die(struct pset *s, char *const *files, size_t nfiles);

/* Helpers the stages share (cmd_sym.c). */
void stage_open(struct tsv *t, FILE *in, const char *name, const char *const *need, FILE *out,
		const char *added);
void stage_put_fields(const struct tsv *t, FILE *out);
struct symtab *stage_row_symtab(const char *module, const char *build_id, const char *where);
uint64_t stage_hex_field(const char *s, const char *column, const char *where);
int stage_main(int argc, char **argv, const char *usage_text, void (*stage)(FILE *, const char *, FILE *));

#endif
