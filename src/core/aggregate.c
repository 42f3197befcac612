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

/*
 * The keys live in an arena of large chunks (no malloc per string, none
 * per key array), and each column's strings are interned: a column that
 * repeats (module, function) holds each value once.  A column whose
 * values are mostly distinct (an address) stops being interned after its
 * first STORE_PROBE rows, since the table would cost more than it saves.
 */
#define STORE_CHUNK (256 * 1024)
#define STORE_PROBE 4096

struct chunk {
	struct chunk *next;
	size_t used, size;
	char data[];
};

struct column {
	char **slot;                   /* interned strings, open addressing; NULL empty */
	size_t nslots, n;
	size_t rows;                   /* rows added while interning */
	int off;                       /* no longer interned */
};

struct agg_store {
	struct chunk *chunks;
	struct column *col;            /* nkeys */
};

static void *store_alloc(struct agg_store *s, size_t n, size_t align)
{
	struct chunk *c = s->chunks;
	size_t at = c ? (c->used + align - 1) & ~(align - 1) : 0;
	if (c == NULL || at + n > c->size) {
		size_t size = n > STORE_CHUNK / 4 ? n : STORE_CHUNK - sizeof *c;
		c = xmalloc(sizeof *c + size);
		c->size = size;
		c->next = s->chunks;
		s->chunks = c;
		at = 0;
	}
	c->used = at + n;
	return c->data + at;
}

static uint64_t hash_str(const char *p)
{
	uint64_t h = 1469598103934665603u;           /* FNV-1a */
	for (; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211u;
	return h;
}

static char *store_copy(struct agg_store *s, const char *str)
{
	size_t len = strlen(str) + 1;
	return memcpy(store_alloc(s, len, 1), str, len);
}

/* The store's string equal to str in column c. */
static char *store_string(struct agg_store *s, struct column *c, const char *str)
{
	if (c->off)
		return store_copy(s, str);
	if (2 * (c->n + 1) > c->nslots) {
		size_t nslots = c->nslots ? 2 * c->nslots : 64;
		char **slot = xcalloc(nslots, sizeof *slot);
		for (size_t i = 0; i < c->nslots; i++)
			if (c->slot[i]) {
				size_t j = hash_str(c->slot[i]) & (nslots - 1);
				while (slot[j])
					j = (j + 1) & (nslots - 1);
				slot[j] = c->slot[i];
			}
		free(c->slot);
		c->slot = slot;
		c->nslots = nslots;
	}
	size_t i = hash_str(str) & (c->nslots - 1);
	while (c->slot[i] && strcmp(c->slot[i], str) != 0)
		i = (i + 1) & (c->nslots - 1);
	if (c->slot[i] == NULL) {
		c->slot[i] = store_copy(s, str);
		c->n++;
	}
	char *r = c->slot[i];
	if (++c->rows == STORE_PROBE && 4 * c->n > 3 * STORE_PROBE) {
		free(c->slot);         /* mostly distinct: copy from now on */
		c->slot = NULL;
		c->nslots = c->n = 0;
		c->off = 1;
	}
	return r;
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
		a->slots[i] = (uint32_t)r + 1;
	}
}

size_t agg_add(struct agg *a, char *const *key, uint64_t samples)
{
	if (2 * (a->nrows + 1) > a->nslots)
		rehash(a, a->nslots ? 2 * a->nslots : 64);
	size_t i = hash_key(key, a->nkeys) & (a->nslots - 1);
	while (a->slots[i] && !same_key(a->rows[a->slots[i] - 1].key, key, a->nkeys))
		i = (i + 1) & (a->nslots - 1);
	if (a->slots[i] == 0) {
		if (a->nrows == UINT32_MAX - 1)
			die("more than %u distinct keys", UINT32_MAX - 1);
		grow(&a->rows, &a->cap, a->nrows + 1, sizeof *a->rows);
		struct agg_row *r = &a->rows[a->nrows];
		if (a->store == NULL) {
			a->store = xcalloc(1, sizeof *a->store);
			a->store->col = xcalloc(a->nkeys ? a->nkeys : 1, sizeof *a->store->col);
		}
		r->key = store_alloc(a->store, (a->nkeys ? a->nkeys : 1) * sizeof *r->key, sizeof *r->key);
		for (size_t k = 0; k < a->nkeys; k++)
			r->key[k] = store_string(a->store, &a->store->col[k], key[k]);
		r->samples = 0;
		a->slots[i] = (uint32_t)++a->nrows;
	}
	a->rows[a->slots[i] - 1].samples += samples;
	a->total += samples;
	return a->slots[i] - 1;
}

void agg_add_to(struct agg *a, size_t row, uint64_t samples)
{
	a->rows[row].samples += samples;
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

struct ranked {
	size_t rank;
	struct agg_row row;
};

static int cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;
	return a->rank < b->rank ? -1 : a->rank > b->rank;
}

void agg_order_by(struct agg *a, const struct agg *order)
{
	struct ranked *r = xmalloc((a->nrows ? a->nrows : 1) * sizeof *r);
	for (size_t i = 0; i < a->nrows; i++) {
		long k = agg_find(order, a->rows[i].key);
		r[i] = (struct ranked){ k >= 0 ? (size_t)k : order->nrows + i, a->rows[i] };
	}
	sort(r, a->nrows, sizeof *r, cmp_ranked);
	for (size_t i = 0; i < a->nrows; i++)
		a->rows[i] = r[i].row;
	free(r);
	rehash(a, a->nslots ? a->nslots : 64);
}

void agg_free(struct agg *a)
{
	if (a->store) {
		for (struct chunk *c = a->store->chunks, *next; c; c = next) {
			next = c->next;
			free(c);
		}
		for (size_t k = 0; k < a->nkeys; k++)
			free(a->store->col[k].slot);
		free(a->store->col);
		free(a->store);
	}
	free(a->rows);
	free(a->slots);
	memset(a, 0, sizeof *a);
}
