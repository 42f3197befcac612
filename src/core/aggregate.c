/* aggregate.c - see aggregate.h. */
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "u64map.h"
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
 * The probe is long enough for a column of tens of thousands of values to
 * show its repeats (--by=address's functions come in the sample table's
 * order: at 4,096 rows they looked distinct, and every row copied its
 * function's name).
 */
#define STORE_CHUNK (256 * 1024)
#define STORE_PROBE 65536

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
	char *last;                    /* the string stored last: rows in order repeat it */
};

/* Key arrays and strings in arenas of their own: strings need no
 * alignment, and a key array after a string would pad it (7 bytes a row
 * by address). */
struct agg_store {
	struct chunk *chunks;          /* key arrays */
	struct chunk *strings;
	struct column *col;            /* nkeys */
};

static void *chunk_alloc(struct chunk **list, size_t n, size_t align)
{
	struct chunk *c = *list;
	size_t at = c ? (c->used + align - 1) & ~(align - 1) : 0;
	if (c == NULL || at + n > c->size) {
		size_t size = n > STORE_CHUNK / 4 ? n : STORE_CHUNK - sizeof *c;
		c = xmalloc(sizeof *c + size);
		c->size = size;
		c->next = *list;
		*list = c;
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
	return memcpy(chunk_alloc(&s->strings, len, 1), str, len);
}

/* The store's string equal to str in column c. */
static char *store_string(struct agg_store *s, struct column *c, const char *str)
{
	if (c->last && strcmp(c->last, str) == 0)
		return c->last;
	if (c->off)
		return c->last = store_copy(s, str);
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
	return c->last = r;
}

static int same_key(char *const *a, char *const *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i] && strcmp(a[i], b[i]) != 0)
			return 0;
	return 1;
}

/* The table's size for n rows: a power of two, at least twice n. */
static size_t slots_for(size_t n)
{
	size_t nslots = 64;
	while (nslots < 2 * (n + 1))
		nslots *= 2;
	return nslots;
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

/* The hash table, built when rows were added in order without it, or
 * moved by a sort. */
static void table_ready(struct agg *a)
{
	if (a->stale) {
		a->stale = 0;
		rehash(a, slots_for(a->nrows));
	}
}

void agg_reserve(struct agg *a, size_t n)
{
	if (n > a->cap) {
		a->rows = xrealloc(a->rows, n * sizeof *a->rows);
		a->cap = n;
	}
}

/* Key tuples compared column by column, as rows sort. */
static int cmp_keys(char *const *x, char *const *y, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		/* interned: one string of a column is often both rows' */
		int c = x[k] == y[k] ? 0 : strcmp(x[k], y[k]);
		if (c)
			return c;
	}
	return 0;
}

/* A new row of key, last. */
static size_t new_row(struct agg *a, char *const *key)
{
	if (a->nrows == UINT32_MAX - 1)
		die("more than %u distinct keys", UINT32_MAX - 1);
	grow(&a->rows, &a->cap, a->nrows + 1, sizeof *a->rows);
	struct agg_row *r = &a->rows[a->nrows];
	if (a->store == NULL) {
		a->store = xcalloc(1, sizeof *a->store);
		a->store->col = xcalloc(a->nkeys ? a->nkeys : 1, sizeof *a->store->col);
	}
	r->key = chunk_alloc(&a->store->chunks, (a->nkeys ? a->nkeys : 1) * sizeof *r->key, sizeof *r->key);
	for (size_t k = 0; k < a->nkeys; k++)
		r->key[k] = store_string(a->store, &a->store->col[k], key[k]);
	r->samples = 0;
	return a->nrows++;
}

/*
 * While keys come in ascending order (a report's rows by address, made
 * module by module in address order), each is the last row's or a new
 * one after it: rows are appended with no hash table, which is built only
 * if a key comes out of order or a row is looked for (agg_find), and
 * agg_sort need not compare keys.  10^7 rows by address: 2.5 s less, and
 * 7 to 13 bytes a row less.
 */
size_t agg_add(struct agg *a, char *const *key, uint64_t samples)
{
	size_t r;
	if (a->nrows == 0 && a->nslots == 0)
		a->ordered = 1;
	int c = a->ordered && a->nrows ? cmp_keys(key, a->rows[a->nrows - 1].key, a->nkeys) : 1;
	if (a->ordered && c >= 0) {
		r = c == 0 ? a->nrows - 1 : new_row(a, key);
		a->stale = 1;
	} else {
		a->ordered = 0;
		table_ready(a);
		if (2 * (a->nrows + 1) > a->nslots)
			rehash(a, a->nslots ? 2 * a->nslots : 64);
		size_t i = hash_key(key, a->nkeys) & (a->nslots - 1);
		while (a->slots[i] && !same_key(a->rows[a->slots[i] - 1].key, key, a->nkeys))
			i = (i + 1) & (a->nslots - 1);
		if (a->slots[i] == 0)
			a->slots[i] = (uint32_t)new_row(a, key) + 1;
		r = a->slots[i] - 1;
	}
	a->rows[r].samples += samples;
	a->total += samples;
	return r;
}

void agg_add_to(struct agg *a, size_t row, uint64_t samples)
{
	a->rows[row].samples += samples;
	a->total += samples;
}

long agg_find(const struct agg *a, char *const *key)
{
	/* the table is a cache of the rows: rebuilding it leaves them as
	 * they are (no agg is a const object) */
	table_ready((struct agg *)a);
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
	return cmp_keys(x->key, y->key, sort_nkeys);
}

static int cmp_desc(const void *pa, const void *pb)
{
	uint64_t x = *(const uint64_t *)pa, y = *(const uint64_t *)pb;
	return x > y ? -1 : x < y;
}

/*
 * Rows whose keys ascend (agg_add's ordered rows) sorted by samples,
 * descending, keeping their order among equal samples: a counting sort
 * over the distinct counts (a merge sort compares keys scattered in
 * memory: 10^7 rows by address, 9 s).  Returns 0 without sorting when the
 * rows have more than 65,536 distinct counts.
 */
#define SORT_DISTINCT_MAX 65536
static int sort_ordered(struct agg *a)
{
	size_t n = a->nrows, nv = 0;
	struct u64map at = { 0 };      /* count -> its index in vals + 1 */
	uint64_t *vals = NULL;
	size_t capv = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t *v = u64map_slot(&at, a->rows[i].samples);
		if (*v == 0) {
			if (nv == SORT_DISTINCT_MAX) {
				u64map_free(&at);
				free(vals);
				return 0;
			}
			grow(&vals, &capv, nv + 1, sizeof *vals);
			vals[nv] = a->rows[i].samples;
			*v = ++nv;
		}
	}
	sort(vals, nv, sizeof *vals, cmp_desc);
	size_t *first = xmalloc((nv ? nv : 1) * sizeof *first), *rank = xmalloc((nv ? nv : 1) * sizeof *rank);
	for (size_t j = 0; j < nv; j++) {
		rank[*u64map_get(&at, vals[j]) - 1] = j;
		first[j] = 0;
	}
	for (size_t i = 0; i < n; i++)
		first[rank[*u64map_get(&at, a->rows[i].samples) - 1]]++;
	for (size_t j = 0, sum = 0; j < nv; j++) {
		size_t c = first[j];
		first[j] = sum;
		sum += c;
	}
	/* each row to its place in a new array: read in order, written in
	 * order within each count (moving them along the permutation's cycles
	 * in place took a cache miss a row) */
	struct agg_row *to = xmalloc((n ? n : 1) * sizeof *to);
	for (size_t i = 0; i < n; i++)
		to[first[rank[*u64map_get(&at, a->rows[i].samples) - 1]]++] = a->rows[i];
	free(a->rows);
	a->rows = to;
	a->cap = n ? n : 1;
	free(first);
	free(rank);
	free(vals);
	u64map_free(&at);
	return 1;
}

/* The table is built again on the next agg_add or agg_find, not here: a
 * report sorts its rows and prints them (10^7 rows: 2.3 s of hashing). */
void agg_sort(struct agg *a)
{
	sort_nkeys = a->nkeys;
	if (!(a->ordered && sort_ordered(a)))
		sort(a->rows, a->nrows, sizeof *a->rows, cmp_rows);
	a->ordered = 0;
	a->stale = a->nrows > 0;
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
	a->ordered = 0;
	a->stale = a->nrows > 0;
}

void agg_free(struct agg *a)
{
	if (a->store) {
		for (struct chunk *c = a->store->chunks, *next; c; c = next) {
			next = c->next;
			free(c);
		}
		for (struct chunk *c = a->store->strings, *next; c; c = next) {
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
