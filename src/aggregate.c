/* aggregate.c - see aggregate.h. */
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "util.h"

void agg_add(struct agg *a, uint64_t key, uint64_t samples, const char *module, const char *function)
{
	uint64_t *slot = u64map_get(&a->index, key);
	if (slot == NULL) {
		grow(&a->rows, &a->cap, a->nrows + 1, sizeof *a->rows);
		a->rows[a->nrows] = (struct agg_row){ key, 0, module, function };
		slot = u64map_slot(&a->index, key);
		*slot = a->nrows++;
	}
	a->rows[*slot].samples += samples;
	a->total += samples;
}

static int cmp_str(const char *x, const char *y)
{
	return strcmp(x ? x : "", y ? y : "");
}

static int cmp_rows(const void *pa, const void *pb)
{
	const struct agg_row *x = pa, *y = pb;
	int c;
	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	if ((c = cmp_str(x->module, y->module)) != 0)
		return c;
	if ((c = cmp_str(x->function, y->function)) != 0)
		return c;
	return x->key < y->key ? -1 : x->key > y->key;
}

void agg_sort(struct agg *a)
{
	qsort(a->rows, a->nrows, sizeof *a->rows, cmp_rows);
	u64map_free(&a->index);
	for (size_t i = 0; i < a->nrows; i++)
		*u64map_slot(&a->index, a->rows[i].key) = i;
}

void agg_free(struct agg *a)
{
	u64map_free(&a->index);
	free(a->rows);
	memset(a, 0, sizeof *a);
}
