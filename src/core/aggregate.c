/* aggregate.c - see aggregate.h. */
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "util.h"

static uint64_t hash_key(char *const *key, size_t n)
{
	uint64_t h = 1469598103934665603u;           /* FNV-1a */
	for (size_t i = 0; i < n; i++) {
		for (const char *p = key[i]; *p; p++)
			h = (h ^ (unsigned char)*p) * 1099511628211u;
		h = (h ^ 0xff) * 1099511628211u;       /* separator */
	}
	return h;
}

static int same_key(char *const *a, char *const *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(a[i], b[i]) != 0)
			return 0;
	return 1;
}

static void rehash(struct agg *a, size_t nslots)
{
	free(a->slots);
	a->slots = xcalloc(nslots, sizeof *a->slots);
	a->nslots = nslots;
	for (size_t r = 0; r < a->nrows; r++) {
		size_t i = hash_key(a->rows[r].key, a->nkeys) & (nslots - 1);
		while (a->slots[i])
			i = (i + 1) & (nslots - 1);
		a->slots[i] = r + 1;
	}
}

void agg_add(struct agg *a, char *const *key, uint64_t samples)
{
	if (2 * (a->nrows + 1) > a->nslots)
		rehash(a, a->nslots ? 2 * a->nslots : 64);
	size_t i = hash_key(key, a->nkeys) & (a->nslots - 1);
	while (a->slots[i] && !same_key(a->rows[a->slots[i] - 1].key, key, a->nkeys))
		i = (i + 1) & (a->nslots - 1);
	if (a->slots[i] == 0) {
		grow(&a->rows, &a->cap, a->nrows + 1, sizeof *a->rows);
		struct agg_row *r = &a->rows[a->nrows];
		r->key = xcalloc(a->nkeys, sizeof *r->key);
		for (size_t k = 0; k < a->nkeys; k++)
			r->key[k] = xstrdup(key[k]);
		r->samples = 0;
		a->slots[i] = ++a->nrows;
	}
	a->rows[a->slots[i] - 1].samples += samples;
	a->total += samples;
}

long agg_find(const struct agg *a, char *const *key)
{
	if (a->nslots == 0)
		return -1;
	size_t i = hash_key(key, a->nkeys) & (a->nslots - 1);
	while (a->slots[i]) {
		if (same_key(a->rows[a->slots[i] - 1].key, key, a->nkeys))
			return (long)a->slots[i] - 1;
		i = (i + 1) & (a->nslots - 1);
	}
	return -1;
}

static size_t sort_nkeys;

static int cmp_rows(const void *pa, const void *pb)
{
	const struct agg_row *x = pa, *y = pb;
	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	for (size_t k = 0; k < sort_nkeys; k++) {
		int c = strcmp(x->key[k], y->key[k]);
		if (c)
			return c;
	}
	return 0;
}

void agg_sort(struct agg *a)
{
	sort_nkeys = a->nkeys;
	sort(a->rows, a->nrows, sizeof *a->rows, cmp_rows);
	rehash(a, a->nslots ? a->nslots : 64);
}

void agg_free(struct agg *a)
{
	for (size_t r = 0; r < a->nrows; r++) {
		for (size_t k = 0; k < a->nkeys; k++)
			free(a->rows[r].key[k]);
		free(a->rows[r].key);
	}
	free(a->rows);
	free(a->slots);
	memset(a, 0, sizeof *a);
}
