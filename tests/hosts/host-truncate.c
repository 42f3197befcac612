/*
 * host-truncate.c - a program whose live profile is truncated under it,
 * and that meets SIGBUS of its own (tests/e2e/138-host-truncate.sh).
 *
 *   host-truncate SECONDS [own|dfl|ign|raise|blocked]
 *
 * Under pct ($PCT names the profile), it burns CPU until the profile
 * exists, truncates it as `: > FILE` would (open with O_TRUNC), burns
 * until pct wrote to the truncated file (its mapping of it is gone), and
 * burns SECONDS more; without $PCT it
 * burns SECONDS.  Then, with "own", it maps a file of its own, truncates
 * it, touches the page past the end and catches the SIGBUS in its own
 * handler (siglongjmp), which must see si_addr in its page and its own
 * disposition; with "dfl" it does the same without a handler and dies of
 * SIGBUS; with "ign" it ignores SIGBUS and raises it, and goes on; with
 * "raise" it raises SIGBUS and dies of it; with "blocked" it blocks every
 * signal (SIGBUS too) for the whole run, as worker threads often do.  It prints "done", and "caught
 * SIGBUS in my page" for "own", "ignored" for "ign".
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "../progs/burn.h"

DEFINE_BURN(static, burn)

/* does /proc/self/maps show a mapping of the file (dev, ino)? */
static int maps_file(dev_t dev, ino_t ino)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[4096];
	unsigned maj, mnr;
	unsigned long long i;
	int found = 0;
	if (!f)
		return 0;
	while (!found && fgets(line, sizeof line, f))
		if (sscanf(line, "%*s %*s %*s %x:%x %llu", &maj, &mnr, &i) == 3)
			found = i == (unsigned long long)ino && maj == major(dev) && mnr == minor(dev);
	fclose(f);
	return found;
}

static sigjmp_buf back;
static char *page;
static volatile sig_atomic_t in_page;

static void on_bus(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	in_page = si->si_code == BUS_ADRERR && (char *)si->si_addr == page;
	siglongjmp(back, 1);
}

int main(int argc, char **argv)
{
	double s = argc > 1 ? atof(argv[1]) : 0.3;
	const char *mode = argc > 2 ? argv[2] : "";
	const char *prof = getenv("PCT");
	struct stat st;
	if (strcmp(mode, "blocked") == 0) {
		sigset_t all;
		sigfillset(&all);
		sigprocmask(SIG_BLOCK, &all, NULL);
	}
	if (prof) {
		/* at most 5 s of CPU waiting for the first sample's file */
		for (int i = 0; i < 500 && stat(prof, &st) != 0; i++)
			burn(0.01);
		int fd = open(prof, O_WRONLY | O_TRUNC | O_CLOEXEC);
		if (fd >= 0)
			close(fd);
		/* then until pct met the truncation at a write of its own (its
		 * mapping of the file is gone from /proc/self/maps: it made the
		 * range zero memory of its own), at most 30 s of CPU: a fixed
		 * time may hold no sample on a loaded machine, which loses
		 * CPU-timer expirations (libpct(3)) */
		for (int i = 0; i < 3000 && fd >= 0 && st.st_ino && maps_file(st.st_dev, st.st_ino); i++)
			burn(0.01);
	}
	burn(s);
	printf("done\n");
	fflush(stdout);
	if (strcmp(mode, "ign") == 0) {
		signal(SIGBUS, SIG_IGN);
		raise(SIGBUS);
		printf("ignored\n");
		return 0;
	}
	if (strcmp(mode, "raise") == 0) {
		raise(SIGBUS);
		printf("not reached\n");
		return 0;
	}
	if (strcmp(mode, "own") != 0 && strcmp(mode, "dfl") != 0)
		return 0;
	char name[] = "/tmp/host-truncate.XXXXXX";
	int fd = mkstemp(name);
	if (fd < 0 || ftruncate(fd, 4096) != 0)
		return 2;
	unlink(name);
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (page == MAP_FAILED || ftruncate(fd, 0) != 0)
		return 2;
	if (strcmp(mode, "own") == 0) {
		struct sigaction sa, now;
		memset(&sa, 0, sizeof sa);
		sa.sa_sigaction = on_bus;
		sa.sa_flags = SA_SIGINFO;
		sigaction(SIGBUS, &sa, NULL);
		if (sigaction(SIGBUS, NULL, &now) != 0 || now.sa_sigaction != on_bus || !(now.sa_flags & SA_SIGINFO))
			printf("my SIGBUS disposition is not mine\n");
		if (sigsetjmp(back, 1) == 0)
			page[0] = 1;
		printf(in_page ? "caught SIGBUS in my page\n" : "caught SIGBUS elsewhere\n");
		return 0;
	}
	page[0] = 1;  /* dies of SIGBUS */
	printf("not reached\n");
	return 0;
}
