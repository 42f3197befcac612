/*
 * stages.h - pct's filter stages, as functions from one stream to another.
 *
 *   dump  profiles -> module build_id offset samples
 *   sym   + function function_offset address
 *   line  + file line inline
 *   sum   grouped by KEYS, sorted, with percent and standard error
 *
 * `pct report` is exactly dump | sym [| line] | sum run in one process
 * (pipeline.h), so the report and the shell pipeline print the same
 * thing; but with -g stacks the report adds total columns and rows of
 * total time only (sum_opts.totals), which no stage's TSV carries.
 *
 * Before its header, a stage's TSV may hold comment lines; `pct
 * dump` writes the profile's description there and the other stages copy
 * it through, so that `pct sum` can print the summary:
 *
 *   #pct files=N dropped=D cpu_ns=C dimension=NAME event=EVENT
 *   #pct cpu_before_ns=B expected=E mechanism=timer|perf|perf-attach|ptrace incomplete=K
 *   #pct file=NAME pid=P cmdline=ARGS       (when N is 1)
 *   #pct live=L                             (when L is not 0)
 *   #pct overruns signals=S samples=W squares=Q max=M  (when a signal stood for more than one sample)
 *
 * B is the CPU time (ns) the processes spent before sampling started in
 * them; E the samples their CPU time should have given at the requested
 * period (profile_expected_samples), or "-" when the event is not CPU time;
 * K the number of files whose process never finished sampling (state
 * running: it exec'd, called _exit, was killed, or is still running);
 * L the number of those still being written (live.h); S, W, Q and M
 * the tick logs' signals, the samples they stand for, the sum of their
 * squared weights and the largest weight (struct profile_overruns).
 */
#ifndef PCT_STAGES_H
#define PCT_STAGES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "aggregate.h"
#include "pset.h"
#include "util.h"

struct tsv;
struct symtab;

/*
 * A stage reads TSV from in (name: the input's name, for messages) and
 * writes TSV to out.  It returns 0, or -1 with *e set (status 1: the
 * input lacks a column the stage needs, has a row of the wrong width or a
 * bad value, naming the input and its line; 2: a usage error).
 */
typedef int stage_fn(FILE *in, const char *name, FILE *out, struct error *e);

/* dump: the samples of the profiles of s (stage_dump.c); cannot fail. */
void stage_dump(const struct pset *s, FILE *out);
/* The '#pct' comment lines dump writes first, describing s. */
void stage_dump_meta(const struct pset *s, FILE *out);
/* The module column of global module m of s: its path, or "[unknown]"
 * for PSET_NO_MODULE (not escaped). */
const char *stage_module_path(const struct pset *s, uint32_t m);

/* What the '#pct' comment lines of a stage's input say (summed over the
 * lines of several dumps), as stage_meta_parse reads them; without such
 * lines, files is 0 and dimension "seconds". */
struct stage_meta {
	size_t files;
	uint64_t dropped, cpu_ns;
	uint64_t cpu_before_ns;        /* CPU time before sampling started, ns */
	double expected;               /* samples expected at the requested period; -1: unknown */
	char mechanism[16];            /* "timer", "perf" or "" */
	uint64_t incomplete;           /* files whose process never finished sampling */
	uint64_t live;                 /* files still being written (live.h) */
	struct profile_overruns overruns; /* the tick logs' weights, summed */
	int sliced;                    /* only the samples of a --time range */
	uint64_t slice_from_ns, slice_to_ns; /* its ends, ns after the start; to: UINT64_MAX open */
	char dimension[32];
	char event[32];
	char *file;                    /* malloc'd, or NULL */
	char pid[24];
	const char *cmdline;
	int have;
	struct agg processes;          /* every process of the set, from the '#pct process'
					  lines: keys (pid, command) as the TSV holds them, in the
					  set's order (a tree file's: the tree's, pct(5)) */
};
/* Read the '#pct' comment lines among comments[0..n) (a TSV's, written
 * by stage_dump) into *m; stage_meta_free(m) after.  Lines it cannot read
 * are left out. */
void stage_meta_parse(char *const *comments, size_t n, struct stage_meta *m);
void stage_meta_free(struct stage_meta *m);
/* sym: + function, function_offset, address (stage_sym.c). */
stage_fn stage_sym;
/* What sym appends for offset off (bytes into the module's file) of the
 * module whose symtab is st (NULL: none): the link-time address, if a
 * segment maps off, and the function holding it with the offset into it
 * (function NULL: "[unknown]"; the name is the symtab's, unescaped). */
struct sym_cols {
	int has_address;
	uint64_t address;
	const char *function;
	uint64_t function_offset;
};
void stage_sym_cols(struct symtab *st, uint64_t off, struct sym_cols *c);
/* The same for the link-time address of the offset (symtab_addr), when
 * has_address. */
void stage_sym_cols_at(struct symtab *st, int has_address, uint64_t address, struct sym_cols *c);
/* line: + file, line, inline (stage_line.c). */
stage_fn stage_line;
/* What line appends for a row of the module whose symtab is st (NULL:
 * none): the source line of address (has_address: sym's column), or of
 * offset off's address; 0 with *sl filled, or -1 for "[unknown]", line 0. */
struct srcline;
int stage_line_cols(struct symtab *st, int has_address, uint64_t address, uint64_t off, struct srcline *sl);

struct sum_opts {
	const char *by;                /* comma-separated key columns */
	int tsv;                       /* 1: TSV; 0: aligned text with a summary */
	size_t limit;                  /* rows to print; SIZE_MAX for all */
	uint64_t min_samples;          /* hide rows with fewer samples (of the sort column) */
	double percent_limit;          /* hide rows under this percent of the sort column; 0: none */
	int sort_total;                /* --sort=total: rows by their total (totals; -g), as perf
					  report --children and pprof -cum; 0: by self samples */
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
/* sum: group by o->split and o->by, print as o asks (stage_sum.c).
 * Returns 0, or -1 with *e set: status 2 for more than 16 keys, none, or
 * a key the input has no column for; 1 for an input without a samples
 * column or with a bad row. */
int stage_sum(FILE *in, const char *name, FILE *out, const struct sum_opts *o, struct error *e);
/* The key columns of o (o->split's, then o->by's) split at commas into
 * k->keys, pointing into k->by (free it).  -1 with *e set (status 2) for
 * none or more than 16. */
struct sum_keys {
	char *keys[16];
	size_t nkeys;
	char *by;
};
int sum_keys_parse(const struct sum_opts *o, struct sum_keys *k, struct error *e);
/* The end of sum, once the rows are in a (grouped by keys): add -g's
 * total-only rows, sort, and print as o asks, the text with the summary
 * of m. */
void sum_print(FILE *out, struct agg *a, char **keys, const struct stage_meta *m, const struct sum_opts *o);
/* Parse the options `pct report` and `pct sum` share into *o and *by
 * (left as it is without --by), and, if symbols is set (report, not
 * sum), --symfs and --no-cache (modfile.h).  Returns the index of the first operand,
 * or -1 with *e set: status 2 and a message for a bad option value; or
 * the status of usage_exit() (0 for --help, 2 for an unknown option) and
 * no message, the usage printed. */
int sum_parse_options(int argc, char **argv, const char *usage_text, int symbols, struct sum_opts *o, const char **by,
		      struct error *e);

/* Helpers the stages share (stage.c). */
/* Read the header of in, check it has the columns need (NULL-ended), and
 * write the comment lines and the header with added (tab-separated
 * names) appended to out.  -1 with *e set (status 1) if in is empty or
 * lacks a column; t is then closed. */
int stage_open(struct tsv *t, FILE *in, const char *name, const char *const *need, FILE *out,
	       const char *added, struct error *e);
/* Copy the current row's fields to out, each escaped and followed by a tab. */
void stage_put_fields(const struct tsv *t, FILE *out);
/* The symtab (symtab.h) of a row's module column and build_id column
 * (hex) into *st, NULL for [unknown] and [anon] or a module that cannot
 * be read; -1 with *e set (status 1, naming where, "FILE:LINE") for a
 * bad build_id. */
int stage_row_symtab(const char *module, const char *build_id, const char *where, struct symtab **st,
		     struct error *e);
/* A column's 0x-hex field s as a number in *v; -1 with *e set (status 1,
 * naming where and column) if s is not one. */
int stage_hex_field(const char *s, const char *column, const char *where, uint64_t *v, struct error *e);
/* The shell of `pct sym` and `pct line`: parse argv (--help only), run
 * stage over each named input (or standard input) to stdout; returns the
 * exit status, the error reported. */
int stage_main(int argc, char **argv, const char *usage_text, stage_fn *stage);

#endif
