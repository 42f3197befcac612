/*
 * inlhot.h - the hot code of inlhot.c: a static inline function in a
 * header of its own, which -O2 inlines into work().
 *
 * Its lines are numbered past the end of inlhot.c on purpose: a tool that
 * charges them to inlhot.c (the file of the function they are inlined
 * into) then points at lines that file does not have, which
 * callgrind_annotate prints as "<bogus line N>".
 *
 * Tests 75 (callgrind) and 76 (pprof) look for the lines of mix() below
 * under this file's name, and for mix() as an inline frame of work().
 *
 *
 *
 *
 *
 *
 *
 *
 *
 *
 *
 *
 */
#ifndef INLHOT_H
#define INLHOT_H

static inline unsigned long mix(unsigned long x, unsigned long i)
{
	x ^= x >> 13;
	x *= 0x9e3779b97f4a7c15ul;
	x += i;
	x ^= x << 7;
	return x;
}

#endif
