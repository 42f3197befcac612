/*
 * unit.h - a tiny test helper: CHECK(cond) records a failure with its line
 * and goes on; unit_done() prints "N passed, N failed" and gives the exit
 * status.
 */
#ifndef PCT_UNIT_H
#define PCT_UNIT_H

#include <stdio.h>

static int unit_pass, unit_fail;

#define CHECK(cond)                                                                   \
	do {                                                                          \
		if (cond) {                                                           \
			unit_pass++;                                                  \
		} else {                                                              \
			unit_fail++;                                                  \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
		}                                                                     \
	} while (0)

static inline int unit_done(const char *name)
{
	printf("%s: %d passed, %d failed\n", name, unit_pass, unit_fail);
	return unit_fail ? 1 : 0;
}

#endif
