/*
 * host-title.c - a server that names its workers as postgres names its
 * backends: it forks argv[1] (3) children, and each sets its title by
 * writing over its argv strings in place (setproctitle's way: /proc/PID/
 * cmdline shows "host-title: worker N"), then burns argv[2] (0.2) s of
 * CPU.  argv[3] is room for the title (any long string).  The parent
 * waits for them and burns nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../progs/burn.h"

DEFINE_BURN(static, work)

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3;
	double s = argc > 2 ? atof(argv[2]) : 0.2;
	char *end = argv[argc - 1] + strlen(argv[argc - 1]);
	for (int i = 1; i <= n; i++) {
		pid_t p = fork();
		if (p == 0) {
			size_t room = (size_t)(end - argv[0]);
			memset(argv[0], 0, room);
			snprintf(argv[0], room, "host-title: worker %d", i);
			work(s);
			_exit(0);
		}
		if (p < 0)
			return 1;
	}
	while (wait(NULL) > 0)
		;
	return 0;
}
