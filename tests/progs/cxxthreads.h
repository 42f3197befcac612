/*
 * cxxthreads.h - the hot code of cxxthreads.cc: mix(), a static inline
 * function of its own header, which -O2 inlines into work::delta().
 */
#ifndef CXXTHREADS_H
#define CXXTHREADS_H
#include <cstdint>

static inline uint64_t mix(uint64_t x, uint64_t i)
{
	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ull;
	x += i;
	x ^= x << 11;
	return x;
}

#endif
