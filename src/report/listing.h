/*
 * listing.h - what `pct annotate` and `pct source` share: the options
 * [-n N] [-S DIR] [--source-root=DIR] [TARGET] FILE..., and the profiles'
 * samples by address.
 */
#ifndef PCT_LISTING_H
#define PCT_LISTING_H

#include <stddef.h>
#include <stdint.h>

#include "pset.h"

struct listing {
	size_t count;                  /* -n: how many functions or files */
	const char *target;            /* the optional first operand, or NULL */
	struct pset set;
	struct pset_addr *addrs;       /* samples by (module, address) */
	size_t naddrs;
	uint64_t total;                /* all samples */
};

/*
 * Parse the options and load the profiles; count_name is -n's long name
 * ("functions", "files").  Returns 0, or -1 with the exit status in
 * *status after printing the usage (--help: 0; a bad option: 2) or the
 * error (a bad option value: 2; a profile that cannot be read: 1).
 */
int listing_open(int argc, char **argv, const char *usage, const char *count_name, size_t count,
		 struct listing *l, int *status);
void listing_close(struct listing *l);

#endif
