/*
 * scribble.c - a hostile writer of a live profile, and a workload for it
 * to attack (tests/e2e/41-hostile-writer.sh).
 *
 *   scribble attack FILE SECONDS
 *     Waits (up to 60 s) for FILE to exist, opens it for writing and, for
 *     SECONDS, rewrites every header field in turn with 0, all ones, huge
 *     and random values, now and then the whole header at once, and
 *     random slots of the module, thread and count tables, and at the end
 *     puts back the magic, version, byte order and header size.  Exits 3 with
 *     one line if the file cannot be opened for writing (permission
 *     denied), 2 on other errors, 0 after printing how many writes it made.
 *
 *   scribble work DIR SECONDS
 *     For about SECONDS of wall time: burns CPU in four threads started one
 *     after another, dlopens DIR/libplug-a.so and DIR/libplug-b.so, burns
 *     in them and dlcloses them, and forks a child that burns and exits.
 *     Prints "work done" and exits 7, so that a test can compare the
 *     output and status with a run without pct.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "burn.h"
#include "pct_format.h"

DEFINE_BURN(static, spin)

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t rnd_state = 88172645463325252u;
static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

#define F(name) { offsetof(struct pct_header, name), sizeof(((struct pct_header *)0)->name) }
static const struct { size_t off, size; } fields[] = {
	F(magic), F(version), F(byte_order), F(header_size), F(state), F(file_size), F(mechanism), F(pid),
	F(dimension), F(dimension_abbrev), F(ppid), F(period_requested_ns), F(period_ns),
	F(start_time_ns), F(end_time_ns), F(cpu_start_ns), F(cpu_last_ns), F(strings_offset),
	F(strings_size), F(strings_used), F(modules_offset), F(module_size), F(modules_max),
	F(modules_count), F(cmdline_len), F(cmdline_offset), F(table_offset), F(table_slots),
	F(entry_size), F(exe_module), F(samples), F(dropped), F(slots_used), F(rescans), F(runs),
	F(event), F(threads_offset), F(threads_max), F(thread_size), F(threads_count),
	F(stacks_offset), F(stacks_size), F(stacks_used), F(stacks_dropped), F(stack_machine),
	F(stack_regs), F(stack_bytes_max),
};
#define NFIELDS (sizeof fields / sizeof fields[0])

/* The value of pattern p, for a field of 8 bytes (truncated for less). */
static uint64_t pattern(unsigned p)
{
	switch (p % 7) {
	case 0: return 0;
	case 1: return UINT64_MAX;
	case 2: return UINT64_C(0x7ffffffffffff000);
	case 3: return UINT64_C(1) << 40;
	case 4: return 0xffffffffu;
	case 5: return (uint64_t)getpid();  /* a pid that is not the profiled one */
	default: return rnd();
	}
}

static void put(char *map, size_t off, size_t size, uint64_t v)
{
	for (size_t i = 0; i < size; i++)
		map[off + i] = (char)(v >> (8 * (i % 8)));
}

/* A region of the file: n records of size bytes at off, if inside it. */
struct region { uint64_t off, n, size; };

static void region(struct region *r, uint64_t off, uint64_t n, uint64_t size, uint64_t file)
{
	r->off = r->n = 0;
	r->size = size;
	if (off < file && n <= (file - off) / size) {
		r->off = off;
		r->n = n;
	}
}

static void scribble_region(char *map, const struct region *r, unsigned p)
{
	if (r->n == 0)
		return;
	uint64_t i = rnd() % r->n;
	for (uint64_t b = 0; b < r->size; b += 8)
		put(map, r->off + i * r->size + b, r->size - b < 8 ? r->size - b : 8, pattern(p + (unsigned)b));
}

static int attack(const char *file, double seconds)
{
	int fd = -1;
	for (double t0 = mono_s(); fd < 0 && mono_s() - t0 < 60;) {
		fd = open(file, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 && errno != ENOENT) {
			int err = errno;
			printf("scribble: cannot open '%s' for writing: %s\n", file, strerror(err));
			return err == EACCES || err == EPERM ? 3 : 2;
		}
		if (fd < 0)
			usleep(1000);
	}
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0 || st.st_size < (off_t)sizeof(struct pct_header)) {
		printf("scribble: '%s' did not appear\n", file);
		return 2;
	}
	/* only the part before the stack region, which the runtime may trim
	 * at the end (a write past the end of the file would be a SIGBUS) */
	struct pct_header h;
	if (pread(fd, &h, sizeof h, 0) != (ssize_t)sizeof h) {
		printf("scribble: cannot read '%s'\n", file);
		return 2;
	}
	uint64_t size = (uint64_t)st.st_size;
	if (h.stacks_offset && h.stacks_offset < size)
		size = h.stacks_offset;
	char *map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		printf("scribble: cannot map '%s': %s\n", file, strerror(errno));
		return 2;
	}
	struct region mods, threads, table;
	region(&mods, h.modules_offset, h.modules_max, sizeof(struct pct_module), size);
	region(&threads, h.threads_offset, h.threads_max, sizeof(struct pct_thread), size);
	region(&table, h.table_offset, h.table_slots, sizeof(struct pct_entry), size);
	unsigned long writes = 0;
	for (double t0 = mono_s(); mono_s() - t0 < seconds; writes++) {
		unsigned p = (unsigned)(writes / NFIELDS);
		if (writes % 64 == 63) {
			for (size_t f = 0; f < NFIELDS; f++)
				put(map, fields[f].off, fields[f].size, pattern(p + (unsigned)f));
		} else {
			size_t f = writes % NFIELDS;
			put(map, fields[f].off, fields[f].size, pattern(p));
		}
		scribble_region(map, &mods, p);
		scribble_region(map, &threads, p + 1);
		scribble_region(map, &table, p + 2);
		if (writes % 8 == 0)
			usleep(100);
	}
	/* leave a file that still says it is a profile, so that a reader
	 * has to check the rest */
	memcpy(map, &h, offsetof(struct pct_header, state));
	printf("scribble: %lu writes to '%s'\n", writes, file);
	return 0;
}

static double work_seconds;

static void *worker(void *arg)
{
	(void)arg;
	spin(work_seconds / 8);
	return NULL;
}

static void plug(const char *dir, const char *lib, const char *fn, double s)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, lib);
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) {
		fprintf(stderr, "scribble: %s\n", dlerror());
		exit(2);
	}
	void (*f)(double) = (void (*)(double))dlsym(h, fn);
	if (f)
		f(s);
	dlclose(h);
}

static int work(const char *dir, double seconds)
{
	double t0 = mono_s();
	work_seconds = seconds;
	for (int round = 0; round == 0 || mono_s() - t0 < seconds; round++) {
		pthread_t t[4];
		for (int i = 0; i < 4; i++)
			if (pthread_create(&t[i], NULL, worker, NULL) != 0)
				return 2;
		spin(seconds / 16);
		plug(dir, "libplug-a.so", "plug_a_work", seconds / 16);
		plug(dir, "libplug-b.so", "plug_b_work", seconds / 16);
		fflush(stdout);
		pid_t pid = fork();
		if (pid == 0) {
			spin(seconds / 16 > 0.1 ? seconds / 16 : 0.1);  /* enough to be sampled on a loaded machine */
			_exit(0);
		}
		int st;
		if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
			return 2;
		for (int i = 0; i < 4; i++)
			pthread_join(t[i], NULL);
	}
	printf("work done\n");
	return 7;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "attack") == 0)
		return attack(argv[2], atof(argv[3]));
	if (argc == 4 && strcmp(argv[1], "work") == 0)
		return work(argv[2], atof(argv[3]));
	fprintf(stderr, "usage: scribble attack FILE SECONDS | scribble work DIR SECONDS\n");
	return 2;
}
