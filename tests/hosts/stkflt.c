/*
 * stkflt - a program that handles SIGSTKFLT, pct's default signal: it
 * installs its handler in main (after any preloaded constructor), burns
 * CPU, sends itself the signal once, reads its disposition back, and
 * prints how many signals it received (1: its own).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../progs/burn.h"

DEFINE_BURN(static, spin)

static volatile sig_atomic_t got, foreign;

static void on_stkflt(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	got++;
	if (sig != SIGSTKFLT || si->si_code != SI_QUEUE || si->si_value.sival_int != 42)
		foreign++;
}

int main(int argc, char **argv)
{
	double s = argc > 1 ? atof(argv[1]) : 1.0;
	struct sigaction sa, back;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_stkflt;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSTKFLT, &sa, NULL);
	spin(s);
	sigqueue(getpid(), SIGSTKFLT, (union sigval){ .sival_int = 42 });
	sigaction(SIGSTKFLT, NULL, &back);
	printf("handler %s flags %#x\n", back.sa_sigaction == on_stkflt ? "mine" : "NOT MINE",
	       (unsigned)(back.sa_flags & (SA_SIGINFO | SA_RESTART | SA_ONSTACK)));
	/* SIG_IGN then means ignored, and signal() reports the old one */
	signal(SIGSTKFLT, SIG_IGN);
	raise(SIGSTKFLT);
	printf("signal() gave back %s\n", signal(SIGSTKFLT, SIG_DFL) == SIG_IGN ? "SIG_IGN" : "OTHER");
	spin(s / 4);
	printf("SIGSTKFLT received %d, not mine %d\n", (int)got, (int)foreign);
	return 0;
}
