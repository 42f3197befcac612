/* u64map.c - see u64map.h. */
#include <stdlib.h>
#include <string.h>

#include "u64map.h"
#include "util.h"

static size_t hash(uint64_t k, size_t cap)
{
	k ^= k >> 33;
	k *= UINT64_C(0xff51afd7ed558ccd);
	k ^= k >> 33;
	return (size_t)k & (cap - 1);
}

static void rehash(struct u64map *m, size_t cap)
{
	struct u64map n = { xcalloc(cap, 8), xcalloc(cap, 8), xcalloc(cap, 1), cap, 0 };
	for (size_t i = 0; i < m->cap; i++)
		if (m->used[i])
			*u64map_slot(&n, m->keys[i]) = m->vals[i];
	u64map_free(m);
	*m = n;
}

uint64_t *u64map_slot(struct u64map *m, uint64_t key)
{
	if (m->len + 1 > m->cap / 2)
		rehash(m, m->cap ? m->cap * 2 : 64);
	size_t i = hash(key, m->cap);
	while (m->used[i] && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	if (!m->used[i]) {
		m->used[i] = 1;
		m->keys[i] = key;
		m->vals[i] = 0;
		m->len++;
	}
	return &m->vals[i];
}

uint64_t *u64map_get(const struct u64map *m, uint64_t key)
{
	if (m->cap == 0)
		return NULL;
	size_t i = hash(key, m->cap);
	while (m->used[i]) {
		if (m->keys[i] == key)
			return &m->vals[i];
		i = (i + 1) & (m->cap - 1);
	}
	return NULL;
}

void u64map_free(struct u64map *m)
{
	free(m->keys);
	free(m->vals);
	free(m->used);
	memset(m, 0, sizeof *m);
}
