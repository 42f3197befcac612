/*
 * masker - a program that blocks every signal around short stretches of
 * work, as code that guards a critical section does: 2 ms of CPU with
 * signals open, then about as long with all blocked, for argv[1] seconds
 * of each.  The lengths vary (0.5 to 3.5 ms, pseudo-random), so that the
 * stretches do not keep in step with the kernel's tick.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include "../progs/burn.h"

DEFINE_BURN(static, open_work)
DEFINE_BURN(static, closed_work)

int main(int argc, char **argv)
{
	double s = argc > 1 ? atof(argv[1]) : 1.0;
	sigset_t all, old;
	sigfillset(&all);
	unsigned x = 12345;
	for (double done = 0; done < s;) {
		x = x * 1103515245u + 12345u;
		double t = 0.0005 + (double)(x >> 16 & 1023) / 1023 * 0.003;
		open_work(t);
		sigprocmask(SIG_BLOCK, &all, &old);
		closed_work(t);
		sigprocmask(SIG_SETMASK, &old, NULL);
		done += t;
	}
	printf("done\n");
	return 0;
}
