/*
 * test_modfile.c - where a module's file is found, and the build-id cache
 * (modfile.h): the XX/REST form of a build-id; a file put in the cache is
 * found there by build-id once its path holds another build (or nothing),
 * and never for another build-id; --symfs comes first; the cache lists
 * its entries least recently used first and prunes them in that order;
 * a cache that is off is neither filled nor read; and a stripped module's
 * debug file found by .gnu_debuglink is cached with it.
 *
 * The ELF files are this test's own executable, whose build-id the
 * linker wrote (Debian's gcc passes --build-id), copied to temporary paths.
 */
#define _GNU_SOURCE
#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "modfile.h"
#include "unit.h"
#include "util.h"

static char dir[64];

static void copy(const char *from, const char *to)
{
	char *cmd = xasprintf("cp '%s' '%s'", from, to);
	CHECK(system(cmd) == 0);
	free(cmd);
}

/* The build-id of the ELF file at path, in id; its length. */
static size_t build_id_of(const char *path, uint8_t *id)
{
	int fd = open(path, O_RDONLY);
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	const void *p;
	ssize_t n = elf ? dwelf_elf_gnu_build_id(elf, &p) : -1;
	if (n > 0)
		memcpy(id, p, (size_t)n);
	elf_end(elf);
	close(fd);
	return n > 0 ? (size_t)n : 0;
}

/* modfile_open of (path, id): the file found, or NULL. */
static char *found(const char *path, const uint8_t *id, size_t len)
{
	char *file = NULL, *why = NULL;
	int fd = modfile_open(path, id, len, &file, &why);
	if (fd >= 0)
		close(fd);
	free(why);
	return fd >= 0 ? file : NULL;
}

int main(void)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	CHECK(n > 0);
	exe[n > 0 ? n : 0] = '\0';
	strcpy(dir, "/tmp/pct-unit-modfile.XXXXXX");
	CHECK(mkdtemp(dir) != NULL);
	char *cache = xasprintf("%s/cache", dir);
	setenv("XDG_CACHE_HOME", cache, 1);
	unsetenv("PCT_CACHE");

	/* the path form */
	uint8_t id[] = { 0xab, 0x01, 0x02, 0xff };
	char bp[2 * sizeof id + 2];
	modfile_build_id_path(id, sizeof id, bp);
	CHECK(strcmp(bp, "ab/0102ff") == 0);

	/* a module, cached, then its path rebuilt (here: another file) */
	char *mod = xasprintf("%s/prog", dir);
	copy(exe, mod);
	uint8_t bid[64];
	size_t blen = build_id_of(mod, bid);
	CHECK(blen >= 16);
	char *why = NULL;
	CHECK(modfile_cache_add(mod, bid, blen, &why) == 1);
	free(why);
	CHECK(modfile_cache_add(mod, bid, blen, &why) == 0); /* there already */
	free(why);
	char *f = found(mod, bid, blen);
	char *want = xasprintf("%s/pct/build-id/", cache);
	CHECK(f && strncmp(f, want, strlen(want)) == 0); /* the cache comes first */
	free(f);
	unlink(mod);
	f = found(mod, bid, blen);
	CHECK(f && strncmp(f, want, strlen(want)) == 0); /* gone from its path: the cache */
	free(f);
	/* another build-id finds nothing, and says why in the path's terms */
	uint8_t other[20] = { 1, 2, 3 };
	char *file = NULL;
	CHECK(modfile_open(mod, other, sizeof other, &file, &why) < 0);
	CHECK(why && strstr(why, "cannot open") && strstr(why, mod));
	free(why);
	/* with the cache off, nothing is found, and nothing is added */
	setenv("PCT_CACHE", "0", 1);
	CHECK(found(mod, bid, blen) == NULL);
	copy(exe, mod);
	CHECK(modfile_cache_add(mod, bid, blen, &why) == -1);
	free(why);
	unsetenv("PCT_CACHE");
	modfile_set_cache(0);
	f = found(mod, bid, blen);
	CHECK(f && strcmp(f, mod) == 0); /* the path itself */
	free(f);
	modfile_set_cache(1);

	/* --symfs first: DIR/PATH */
	char *sym = xasprintf("%s/sym", dir);
	char *symmod = xasprintf("%s%s", sym, mod);
	char *cmd = xasprintf("mkdir -p '%s%s'", sym, dir);
	CHECK(system(cmd) == 0);
	free(cmd);
	copy(exe, symmod);
	modfile_set_symfs(sym);
	f = found(mod, bid, blen);
	CHECK(f && strcmp(f, symmod) == 0);
	free(f);
	modfile_set_symfs(NULL);

	/* list and prune: two entries, the older goes first */
	struct modfile_entry *e;
	size_t ne;
	CHECK(modfile_cache_scan(&e, &ne, &why) == 0);
	CHECK(ne == 1 && e[0].bytes > 0 && strcmp(e[0].path, mod) == 0);
	modfile_cache_entries_free(e, ne);
	/* a second entry under a made-up build-id, older */
	char *d2 = xasprintf("%s/pct/build-id/01/0203", cache);
	cmd = xasprintf("mkdir -p '%s' && echo x >'%s/elf' && touch -d '-1 day' '%s'", d2, d2, d2);
	CHECK(system(cmd) == 0);
	free(cmd);
	CHECK(modfile_cache_scan(&e, &ne, &why) == 0);
	CHECK(ne == 2 && strcmp(e[0].build_id, "010203") == 0);
	uint64_t keep = ne == 2 ? e[1].bytes : 0;
	modfile_cache_entries_free(e, ne);
	uint64_t freed;
	CHECK(modfile_cache_prune(keep, &freed, &why) == 1 && freed == 2);
	CHECK(modfile_cache_scan(&e, &ne, &why) == 0);
	CHECK(ne == 1 && strcmp(e[0].path, mod) == 0);
	modfile_cache_entries_free(e, ne);
	CHECK(modfile_cache_prune(0, &freed, &why) == 1);
	CHECK(modfile_cache_scan(&e, &ne, &why) == 0 && ne == 0);
	free(e);

	/* a stripped module's debug file found by its .gnu_debuglink beside
	 * it is cached as "debug", only with the module's build-id; an entry
	 * without one gets it when the module is cached again */
	cmd = xasprintf("cd '%s' && objcopy --only-keep-debug '%s' s.debug && cp s.debug s2.debug && "
			"objcopy --strip-all --add-gnu-debuglink=s.debug '%s' sprog && "
			"objcopy --strip-all --add-gnu-debuglink=s2.debug '%s' sprog2 && cp /bin/sh s2.debug",
			dir, exe, exe, exe);
	CHECK(system(cmd) == 0);
	free(cmd);
	char *sprog = xasprintf("%s/sprog", dir), *sprog2 = xasprintf("%s/sprog2", dir);
	CHECK(modfile_cache_add(sprog2, bid, blen, &why) == 1); /* s2.debug: another build-id */
	free(why);
	CHECK(modfile_cache_scan(&e, &ne, &why) == 0);
	CHECK(ne == 1 && e[0].has_debug == 0);
	modfile_cache_entries_free(e, ne);
	CHECK(modfile_cache_add(sprog, bid, blen, &why) == 0);
	free(why);
	CHECK(modfile_cache_scan(&e, &ne, &why) == 0);
	CHECK(ne == 1 && e[0].has_debug == 1);
	modfile_cache_entries_free(e, ne);
	char *dbg[2];
	CHECK(modfile_debug_paths(bid, blen, dbg, 2) == 1);
	char *sdbg = xasprintf("%s/s.debug", dir);
	struct stat a, b;
	CHECK(stat(dbg[0], &a) == 0 && stat(sdbg, &b) == 0 && a.st_ino == b.st_ino); /* a hard link */
	free(dbg[0]);
	free(sdbg);
	free(sprog);
	free(sprog2);

	cmd = xasprintf("rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
	free(cmd);
	free(d2);
	free(sym);
	free(symmod);
	free(want);
	free(mod);
	free(cache);
	return unit_done("modfile");
}
