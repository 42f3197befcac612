/*
 * aggregate.h - group samples into report rows and order them.
 *
 * A row is keyed by a 64-bit value the caller chooses (a module number, or
 * a module number and a function's address); it carries the names to
 * print.  Rows sort by samples, most first, then by module and function
 * name so that equal counts print in a stable order.
 */
#ifndef PCT_AGGREGATE_H
#define PCT_AGGREGATE_H

#include <stddef.h>
#include <stdint.h>

#include "u64map.h"

struct agg_row {
	uint64_t key;
	uint64_t samples;
	const char *module;            /* display name; not owned */
	const char *function;          /* NULL when grouping by module; not owned */
};

struct agg {
	struct u64map index;           /* key -> row number */
	struct agg_row *rows;
	size_t nrows, cap;
	uint64_t total;                /* sum of rows[].samples */
};

/* Add samples to the row for key, creating it with these names. */
void agg_add(struct agg *a, uint64_t key, uint64_t samples, const char *module, const char *function);
/* Sort rows: samples descending, then module, then function ascending. */
void agg_sort(struct agg *a);
void agg_free(struct agg *a);

#endif
