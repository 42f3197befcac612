/*
 * output.c - create, map and finish the profile file.
 *
 * No run's data is ever lost to another process: the runtime never
 * overwrites or appends to an existing file.  Each process writes a file
 * of its own, created exclusively.  The complete header is written to a
 * temporary file in the target directory first, which is then hard-linked
 * to the final name; link(2) fails with EEXIST rather than replace
 * anything, so the file under its final name always has a valid header,
 * and a name that is taken makes the runtime try "NAME.1.pct",
 * "NAME.2.pct", ... instead.  A symbolic link planted under the final name
 * is never followed: link(2) does not follow it, and the temporary file is
 * opened with O_EXCL | O_NOFOLLOW.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "runtime.h"

static int64_t realtime_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* "dir/name.pct" with n > 0 becomes "dir/name.N.pct"; without a ".pct"
 * suffix, ".N" is appended. */
static int numbered_name(char *out, size_t cap, const char *name, unsigned n)
{
	size_t len = strlen(name);
	int w;

	if (n == 0)
		w = snprintf(out, cap, "%s", name);
	else if (len > 4 && strcmp(name + len - 4, ".pct") == 0)
		w = snprintf(out, cap, "%.*s.%u.pct", (int)(len - 4), name, n);
	else
		w = snprintf(out, cap, "%s.%u", name, n);
	return w < 0 || (size_t)w >= cap ? -1 : 0;
}

static void header_init(struct pct_header *h, uint64_t file_size, unsigned slots_log2)
{
	uint64_t modules_off = 4096;
	uint64_t strings_off = modules_off + (uint64_t)RT_MODULES_MAX * sizeof(struct pct_module);
	uint64_t table_off = (strings_off + RT_STRINGS_SIZE + 4095) & ~(uint64_t)4095;

	memcpy(h->magic, PCT_MAGIC, PCT_MAGIC_LEN);
	h->version = PCT_VERSION;
	h->byte_order = PCT_BYTE_ORDER;
	h->header_size = sizeof *h;
	h->state = PCT_STATE_RUNNING;
	h->file_size = file_size;
	h->mechanism = PCT_MECH_CPU_TIMER;
	h->pid = (uint32_t)getpid();
	h->ppid = (uint32_t)getppid();
	memcpy(h->dimension, "seconds", 8);
	h->dimension_abbrev = 's';
	h->start_time_ns = realtime_ns();
	h->strings_offset = strings_off;
	h->strings_size = RT_STRINGS_SIZE;
	h->modules_offset = modules_off;
	h->module_size = sizeof(struct pct_module);
	h->modules_max = RT_MODULES_MAX;
	h->table_offset = table_off;
	h->table_slots = UINT64_C(1) << slots_log2;
	h->entry_size = sizeof(struct pct_entry);
	h->exe_module = UINT32_MAX;
}

static uint64_t file_size_for(unsigned slots_log2)
{
	struct pct_header h;
	memset(&h, 0, sizeof h);
	header_init(&h, 0, slots_log2);
	return h.table_offset + h.table_slots * sizeof(struct pct_entry);
}

/* Store the argv of this process in the string pool, NUL separated. */
static void store_cmdline(void)
{
	struct pct_header *h = rt_g.hdr;
	char *dst = rt_g.strings + h->strings_used;
	size_t n = 0;

	if (rt_g.argv) {
		for (int i = 0; i < rt_g.argc; i++) {
			size_t len = strlen(rt_g.argv[i]) + 1;
			if (n + len > RT_CMDLINE_MAX)
				break;
			memcpy(dst + n, rt_g.argv[i], len);
			n += len;
		}
	} else {
		int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
		ssize_t r;
		while (fd >= 0 && n < RT_CMDLINE_MAX && (r = read(fd, dst + n, RT_CMDLINE_MAX - n)) > 0)
			n += (size_t)r;
		if (fd >= 0)
			close(fd);
		while (n > 0 && dst[n - 1] != '\0')  /* cut a partial argument */
			n--;
	}
	h->cmdline_offset = h->strings_used;
	h->cmdline_len = (uint32_t)n;
	h->strings_used += n;
}

/*
 * Create the file for the expanded name, map it and fill its header.
 * Returns 0, or -1 after one warning.
 */
int rt_output_open(const char *name, unsigned slots_log2)
{
	char tmp[PCT_PATH_MAX + 64];
	const char *slash = strrchr(name, '/');
	int dirlen = slash ? (int)(slash - name + 1) : 0;
	uint64_t size = file_size_for(slots_log2);
	void *map = MAP_FAILED;
	int fd = -1, err = 0;

	for (unsigned try = 0; fd < 0 && try < 100; try++) {
		if (snprintf(tmp, sizeof tmp, "%.*s.pct-tmp.%d.%u", dirlen, name, (int)getpid(), try) >=
		    (int)sizeof tmp) {
			rt_warn("output name too long", name, 0);
			return -1;
		}
		fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd < 0 && errno != EEXIST) {
			rt_warn("cannot create the profile next to", name, errno);
			return -1;
		}
	}
	if (fd < 0) {
		rt_warn("cannot create a temporary file for", name, EEXIST);
		return -1;
	}
	if (ftruncate(fd, (off_t)size) != 0) {
		err = errno;
		goto fail;
	}
	map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		err = errno;
		goto fail;
	}
	close(fd);
	fd = -1;

	struct pct_header *h = map;
	header_init(h, size, slots_log2);
	rt_g.hdr = h;
	rt_g.modules = (struct pct_module *)((char *)map + h->modules_offset);
	rt_g.strings = (char *)map + h->strings_offset;
	rt_g.table = (struct pct_entry *)((char *)map + h->table_offset);
	rt_g.slots_mask = h->table_slots - 1;
	rt_g.slots_limit = h->table_slots - h->table_slots / 8;
	rt_g.slots_shift = 64 - slots_log2;
	store_cmdline();

	for (unsigned n = 0; n < 1000; n++) {
		if (numbered_name(rt_g.path, sizeof rt_g.path, name, n) != 0) {
			err = ENAMETOOLONG;
			goto fail;
		}
		if (link(tmp, rt_g.path) == 0) {
			unlink(tmp);
			return 0;
		}
		if (errno != EEXIST) {
			err = errno;
			goto fail;
		}
	}
	err = EEXIST;
fail:
	rt_warn("cannot create the profile", name, err);
	if (map != MAP_FAILED)
		munmap(map, size);
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	rt_g.hdr = NULL;
	rt_g.path[0] = '\0';
	return -1;
}

/* Write the end of the profile.  Only the process that created the file
 * does: a forked child shares the mapping but not the header's pid. */
void rt_output_finish(void)
{
	struct pct_header *h = rt_g.hdr;

	if (h == NULL || h->pid != (uint32_t)getpid())
		return;
	h->end_time_ns = realtime_ns();
	atomic_store_explicit((_Atomic uint32_t *)&h->state, PCT_STATE_COMPLETE, memory_order_release);
}
