/* stats.c - see stats.h. */
#include <math.h>

#include "stats.h"

double stats_stderr(uint64_t n)
{
	return sqrt((double)n);
}

double stats_stderr_percent(uint64_t n, uint64_t total)
{
	return total ? 100.0 * sqrt((double)n) / (double)total : 0.0;
}
