/*
 * pipeline.h - the report pipeline: `pct diff` reads profiles as dump |
 * sym [| line] in one process, through memory streams, and `pct report`
 * as the same stages ending in sum (stages.h) without text between them
 * (pipeline_sum), so the report and the shell pipeline of the stages
 * print the same thing (e2e 14 and the fuzz target compare them).
 */
#ifndef PCT_PIPELINE_H
#define PCT_PIPELINE_H

#include <stddef.h>
#include <stdio.h>

#include "pset.h"
#include "util.h"

/* The views of `pct report` (pipeline.c): which stages run between dump
 * and sum, and the columns sum groups by. */
struct view {
	const char *name;
	int sym, line;
	const char *keys;
};
const struct view *view_find(const char *name);
/* Every view's name, as a message lists the choices: "function, module,
 * address, line, file, thread or process" (a static string). */
const char *view_names(void);

/* One stage's output, read back as the next one's input. */
struct pipe_buf {
	char *buf;
	size_t len;
	FILE *w;
};

/* Run dump [| sym [| line]] over the profiles of s, as view v needs, in
 * memory; returns the last stage's TSV to read (fclose it, then
 * pipeline_free(b)), or NULL with *e set (a stage's error, or out of
 * memory: status 1) and b freed. */
FILE *pipeline_run(const struct pset *s, const struct view *v, struct pipe_buf b[3], struct error *e);
/* Free the buffers of a pipeline_run. */
void pipeline_free(struct pipe_buf b[3]);

struct sum_opts;
/*
 * dump | sym [| line] | sum over the profiles of s, as view v runs the
 * stages and o sums (o->by the keys; stages.h), printed to out: the bytes
 * sum prints after pipeline_run, computed without text between the
 * stages.  Each row's key columns are made from the samples as the
 * stages would print them (escaped, the same formats), and the samples go
 * module by module in dump's order of modules, so that each module's ELF
 * file is opened once, in the order sym opens them (the warnings of
 * opening them come in the same order; with the line view, a module's
 * line warnings now follow its own rather than all of sym's).  A
 * "samples" key (dump's rows merged across files) takes the text route.
 * Memory: 8 bytes per sample beyond the profiles, and the rows of the
 * sum.  Returns 0, or -1 with *e set as stage_sum sets it ("pipeline" as
 * the input's name).
 */
int pipeline_sum(const struct pset *s, const struct view *v, FILE *out, const struct sum_opts *o, struct error *e);

struct agg;
/*
 * The grouping of pipeline_sum, for a command that needs to know which row
 * each sample went to (pct timeline): the samples of s grouped into a (its
 * nkeys set here, rows unsorted) by the columns keys[0..nkeys) that view v's
 * stages give ("module", "function", "tid"...; not "samples"), each key as
 * the stages print it (escaped).  If row_of is not NULL (s->nprofiles
 * pointers), row_of[p] becomes a malloc'd array whose entry i is the row
 * number in a of sample i of profile p (free each).  Returns 0, or -1 with
 * *e set: status 2 for a column v has not or a count of keys not 1..16; 1
 * for a stage's error; row_of's arrays are then freed.
 */
int pipeline_group(const struct pset *s, const struct view *v, char *const *keys, size_t nkeys, struct agg *a,
		   uint32_t **row_of, struct error *e);

#endif
