/*
 * spinsleep.c - spin for SECONDS of CPU in spin(), then sleep SECONDS in
 * nanosleep(2).  usage: spinsleep [SECONDS]   (default 1)
 */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "burn.h"

DEFINE_BURN(static, spin)

int main(int argc, char **argv)
{
	double s = argc > 1 ? atof(argv[1]) : 1.0;
	spin(s);
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };
	while (nanosleep(&ts, &ts) != 0)
		;
	return 0;
}
