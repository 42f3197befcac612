/* plug.c - a plug-in for dlplug: built twice, as libplug-a.so (-DNAME=plug_a_work)
 * and libplug-b.so (-DNAME=plug_b_work).
 * The loop reads its clock every 10^6 iterations (about 3 ms), not every
 * 10^4 (DEFINE_BURN): on an oversubscribed machine the samples of the
 * CPU-time timers gather in those reads (callchain.c), which are the
 * vdso's clock_gettime, not the library: beside a loaded make check e2e
 * 77 saw 57 of 198 samples in the two libraries, the rest in
 * [vdso] clock_gettime (5-6% idle). */
#include "burn.h"

DEFINE_BURN_CHUNK(, NAME, 1000000)
