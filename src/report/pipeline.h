/*
 * pipeline.h - the report pipeline: `pct report` and `pct diff` read
 * profiles as dump | sym [| line] in one process, through memory streams,
 * and sum (stages.h) what it gives, so the report and the shell pipeline
 * of the stages print the same thing.
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

#endif
