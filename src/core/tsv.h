/*
 * tsv.h - the line-oriented TSV that pct's filter stages exchange: one
 * header row naming the columns, then one row per record, fields split by
 * single tabs.  Stages find their columns by name, so a user may add,
 * drop or reorder columns with awk between them.
 *
 * Lines starting with '#' before the header are comments.  pct uses them
 * to carry what the profile says about itself (files, CPU time covered,
 * dimension; see stages.h) from `pct dump` to `pct sum`: every stage copies
 * them to its output unchanged.
 */
#ifndef PCT_TSV_H
#define PCT_TSV_H

#include <stddef.h>
#include <stdio.h>

struct tsv {
	FILE *f;
	const char *name;              /* for messages: the file, or "standard input" */
	char *line;
	size_t cap;
	unsigned long lineno;
	char **comments;               /* the '#' lines before the header, without '\n' */
	size_t ncomments;
	char **header;                 /* column names */
	size_t ncols;
	char **fields;                 /* the current row */
	size_t nfields, capfields;
};

/* Start reading f; reads the header row.  Returns -1 with err set if the
 * input is empty. */
int tsv_open(struct tsv *t, FILE *f, const char *name, char *err, size_t errlen);
/* The index of column name, or -1. */
int tsv_column(const struct tsv *t, const char *name);
/* Read the next row into t->fields.  Returns 1, 0 at the end, or -1 with
 * err set when the row has another number of fields than the header. */
int tsv_next(struct tsv *t, char *err, size_t errlen);
void tsv_close(struct tsv *t);

#endif
