/*
 * aggregate.h - group rows by a key and order them.
 *
 * A key is a tuple of strings (the values of the grouping columns); rows
 * sort by samples, most first, then by their key tuples column by column,
 * so that equal counts print in a stable order.
 */
#ifndef PCT_AGGREGATE_H
#define PCT_AGGREGATE_H

#include <stddef.h>
#include <stdint.h>

struct agg_store;

struct agg_row {
	char **key;                    /* nkeys strings, owned by the agg (equal strings of a
					  column may be one string) */
	uint64_t samples;
};

struct agg {
	size_t nkeys;
	struct agg_row *rows;
	size_t nrows, cap;
	uint64_t total;                /* sum of rows[].samples */
	uint32_t *slots;               /* hash table of row numbers + 1; 0 is empty */
	size_t nslots;
	int stale;                     /* slots do not hold every row (rows added in order, or
					  moved by agg_sort): rebuilt on next use */
	int ordered;                   /* every row was added in ascending key order (agg_add) */
	struct agg_store *store;       /* where the keys live (aggregate.c) */
};

/* Add samples to the row whose key is key[0..nkeys), creating it;
 * returns its number (valid until agg_sort).  Keys given in ascending
 * order (agg_sort's, column by column) cost no hashing. */
size_t agg_add(struct agg *a, char *const *key, uint64_t samples);
/* Room for n rows, so that adding up to n rows moves none: for a table
 * of about as many rows as its input has. */
void agg_reserve(struct agg *a, size_t n);
/* Add samples to row number row (agg_add's), as agg_add of its key. */
void agg_add_to(struct agg *a, size_t row, uint64_t samples);
/* The number of the row whose key is key[0..nkeys), or -1. */
long agg_find(const struct agg *a, char *const *key);
/* Sort rows: samples descending, then keys ascending. */
void agg_sort(struct agg *a);
/* Put the rows whose key is a row of order first, in order's row order;
 * the others follow in their present order.  Both aggs have the same
 * nkeys. */
void agg_order_by(struct agg *a, const struct agg *order);
void agg_free(struct agg *a);

#endif
