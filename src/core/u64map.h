/*
 * u64map.h - a hash map from 64-bit keys to 64-bit values (open
 * addressing, linear probing), used to group samples by address, symbol
 * or module without building strings.
 */
#ifndef PCT_U64MAP_H
#define PCT_U64MAP_H

#include <stddef.h>
#include <stdint.h>

struct u64map {
	uint64_t *keys;
	uint64_t *vals;
	uint8_t *used;
	size_t cap;                    /* a power of two, or 0 */
	size_t len;
};

/* The value slot for key, inserted as 0 if absent (the map may move). */
uint64_t *u64map_slot(struct u64map *m, uint64_t key);
/* The value for key, or NULL if absent. */
uint64_t *u64map_get(const struct u64map *m, uint64_t key);
void u64map_free(struct u64map *m);

#endif
