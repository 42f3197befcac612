/* live.c - see live.h. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "live.h"

int profile_live(const struct profile *p)
{
	struct stat st;
	if (p->hdr.state != PCT_STATE_RUNNING || p->file == NULL || stat(p->file, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	char path[40];
	snprintf(path, sizeof path, "/proc/%u/maps", p->hdr.pid);
	FILE *f = fopen(path, "re");
	if (f == NULL)
		return 0;
	char *line = NULL;
	size_t cap = 0;
	int live = 0;
	while (!live && getline(&line, &cap, f) > 0) {
		unsigned maj, min;
		unsigned long long ino;
		/* START-END PERMS OFFSET MAJ:MIN INODE PATH */
		if (sscanf(line, "%*x-%*x %*s %*x %x:%x %llu", &maj, &min, &ino) == 3 &&
		    ino == (unsigned long long)st.st_ino && maj == major(st.st_dev) && min == minor(st.st_dev))
			live = 1;
	}
	free(line);
	fclose(f);
	return live;
}
