/*
 * host-elfhdr.c - a program whose memory holds the first page of an ELF
 * file that faults when read, followed by an executable mapping of the
 * same file: pct's module scan must not read that page directly.
 *   host-elfhdr none:  the header page is PROT_NONE (SIGSEGV if read)
 *   host-elfhdr trunc: the file is truncated after mapping (SIGBUS if read)
 * It copies its own executable to ./elf.copy, maps it, burns CPU and says
 * "ok".
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../progs/burn.h"

DEFINE_BURN(static, burn)

int main(int argc, char **argv)
{
	int trunc = argc > 1 && strcmp(argv[1], "trunc") == 0;
	int in = open("/proc/self/exe", O_RDONLY), fd = open("elf.copy", O_RDWR | O_CREAT | O_TRUNC, 0755);
	struct stat st;
	if (in < 0 || fd < 0 || fstat(in, &st) != 0 || sendfile(fd, in, NULL, (size_t)st.st_size) != st.st_size)
		return 2;
	char *area = mmap(NULL, 2 * 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED ||
	    mmap(area, 4096, trunc ? PROT_READ : PROT_NONE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED ||
	    mmap(area + 4096, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_FIXED, fd, 4096) == MAP_FAILED)
		return 2;
	if (trunc && ftruncate(fd, 0) != 0)
		return 2;
	burn(0.3);
	printf("ok\n");
	return 0;
}
