/*
 * pack.c - the build-id cache filled from a set of profiles, and
 * `pct archive`'s .tar.gz, written with libarchive (pack.h).
 */
#define _GNU_SOURCE
#include "pack.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "infile.h"
#include "modfile.h"
#include "outfile.h"
#include "pct_format.h"
#include "perfmap.h"
#include "symtab.h"
#include "util.h"

int pack_cache(const struct pset *s, int quiet, struct pack_kept *k)
{
	memset(k, 0, sizeof *k);
	char *dir = modfile_cache_dir();
	if (dir == NULL)
		return -1;
	free(dir);
	unsigned char *need = xmalloc(s->nmods + 1);
	pset_needed_modules(s, need);
	for (size_t m = 0; m < s->nmods; m++) {
		const struct pset_module *g = &s->mods[m];
		if (!need[m])
			continue;
		if (g->build_id_len == 0) {
			k->no_build_id++;
			continue;
		}
		char *why = NULL;
		int rc = modfile_cache_add(g->path, g->build_id, g->build_id_len, &why);
		if (rc > 0)
			k->added++;
		else if (rc == 0)
			k->present++;
		else {
			k->failed++;
			if (!quiet)
				warnx_("not kept in the build-id cache: %s", why);
		}
		free(why);
	}
	free(need);
	if (k->added > 0) {
		uint64_t freed;
		char *why = NULL;
		k->pruned = modfile_cache_prune(MODFILE_CACHE_MAX_DEFAULT, &freed, &why);
		free(why);
	}
	return 0;
}

/* Add the open file fd (st) to the archive as name. */
static int put(struct archive *a, const char *name, int fd, const struct stat *st, char *err, size_t errlen)
{
	struct archive_entry *e = archive_entry_new();
	archive_entry_set_pathname(e, name);
	archive_entry_set_size(e, st->st_size);
	archive_entry_set_filetype(e, AE_IFREG);
	archive_entry_set_perm(e, st->st_mode & 0755);
	archive_entry_set_mtime(e, st->st_mtim.tv_sec, st->st_mtim.tv_nsec);
	int rc = archive_write_header(a, e) == ARCHIVE_OK ? 0 : -1;
	archive_entry_free(e);
	char buf[65536];
	for (off_t off = 0; rc == 0 && off < st->st_size;) {
		ssize_t n = pread(fd, buf, sizeof buf, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			snprintf(err, errlen, "cannot read the file for '%s': %s", name,
				 n < 0 ? strerror(errno) : "it shrank");
			return -1;
		}
		if (archive_write_data(a, buf, (size_t)n) != n)
			rc = -1;
		off += n;
	}
	if (rc != 0)
		snprintf(err, errlen, "cannot write '%s' to the archive: %s", name, archive_error_string(a));
	return rc;
}

/* Add the file at path (a regular file) as name; 1 if added, 0 if it
 * cannot be opened, -1 on a write error. */
static int put_path(struct archive *a, const char *name, const char *path, char *err, size_t errlen)
{
	struct stat st;
	const char *why;
	int fd = infile_open(path, 0, &st, &why);
	if (fd < 0)
		return 0;
	int rc = put(a, name, fd, &st, err, errlen);
	close(fd);
	return rc == 0 ? 1 : -1;
}

/* The module files: returns how many were stored, or -1. */
static long put_modules(struct archive *a, const struct pset *s, char *err, size_t errlen)
{
	unsigned char *need = xmalloc(s->nmods + 1);
	long stored = 0;
	pset_needed_modules(s, need);
	for (size_t m = 0; m < s->nmods && stored >= 0; m++) {
		const struct pset_module *g = &s->mods[m];
		if (!need[m])
			continue;
		char bp[2 * PCT_BUILD_ID_MAX + 2], *file = NULL, *why = NULL;
		int fd = modfile_open(g->path, g->build_id, g->build_id_len, &file, &why);
		if (fd < 0) {
			warnx_("archive: left out: %s", why);
			free(why);
			continue;
		}
		struct stat st;
		char *name;
		modfile_build_id_path(g->build_id, g->build_id_len, bp);
		if (g->build_id_len > 0)
			name = xasprintf("build-id/%s/elf", bp);
		else
			name = xstrdup(g->path + (g->path[0] == '/'));
		int rc = fstat(fd, &st) == 0 ? put(a, name, fd, &st, err, errlen) : -1;
		close(fd);
		free(name);
		free(file);
		if (rc != 0) {
			stored = -1;
			break;
		}
		stored++;
		/* the separate debug file libdwfl finds for it, if any */
		const char *dbg = g->build_id_len > 0 ? symtab_debug_file(pset_symtab(g)) : NULL;
		if (dbg) {
			char *dpath = xstrdup(dbg);
			name = xasprintf("build-id/%s/debug", bp);
			rc = put_path(a, name, dpath, err, errlen);
			free(name);
			free(dpath);
			if (rc < 0)
				stored = -1;
			else
				stored += rc;
		}
	}
	free(need);
	return stored;
}

/* The perf maps that name the profiles' JIT code (perfmap.h), stored as
 * copies kept beside them, STEM.perf-PID.map, which a report of the
 * unpacked profile finds.  Returns how many, or -1. */
static long put_jit_maps(struct archive *a, const struct pset *s, char *err, size_t errlen)
{
	long stored = 0;
	for (size_t i = 0; i < s->nprofiles; i++) {
		const struct profile *p = &s->profiles[i];
		int jit = 0;
		for (size_t m = 0; m < p->nmodules; m++)
			jit |= p->modules[m].kind == PCT_MOD_ANON;
		char *why = NULL, *map = jit ? perfmap_path(p->file, p->hdr.pid, p->hdr.start_time_ns, &why) : NULL;
		free(why);
		if (map == NULL)
			continue;
		char *name = perfmap_copy_name(path_base(p->file), p->hdr.pid);
		int rc = put_path(a, name, map, err, errlen);
		free(name);
		free(map);
		if (rc < 0)
			return -1;
		stored += rc;
	}
	return stored;
}

long pack_archive(const struct pset *s, char *const *files, size_t nfiles, const char *out, char *err,
		   size_t errlen)
{
	for (size_t i = 0; i < nfiles; i++)
		for (size_t j = 0; j < i; j++)
			if (strcmp(path_base(files[i]), path_base(files[j])) == 0) {
				snprintf(err, errlen, "two profiles are named '%s': an archive keeps base names",
					 path_base(files[i]));
				return -1;
			}
	struct outfile o;
	if (outfile_open(&o, out, err, errlen) != 0)
		return -1;
	struct archive *a = archive_write_new();
	long stored = -1;
	if (a == NULL || archive_write_add_filter_gzip(a) != ARCHIVE_OK ||
	    archive_write_set_format_pax_restricted(a) != ARCHIVE_OK || archive_write_open_FILE(a, o.fp) != ARCHIVE_OK) {
		snprintf(err, errlen, "cannot start the archive: %s", a ? archive_error_string(a) : "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < nfiles; i++) {
		int rc = put_path(a, path_base(files[i]), files[i], err, errlen);
		if (rc <= 0) {
			if (rc == 0)
				snprintf(err, errlen, "cannot read '%s' again", files[i]);
			goto fail;
		}
	}
	stored = put_modules(a, s, err, errlen);
	long maps = stored < 0 ? -1 : put_jit_maps(a, s, err, errlen);
	if (stored < 0 || maps < 0)
		goto fail;
	stored += maps;
	if (archive_write_close(a) != ARCHIVE_OK) {
		snprintf(err, errlen, "cannot finish the archive: %s", archive_error_string(a));
		stored = -1;
		goto fail;
	}
	archive_write_free(a);
	if (outfile_commit(&o, err, errlen) != 0)
		return -1;
	return stored;
fail:
	if (a)
		archive_write_free(a);
	outfile_abort(&o);
	return -1;
}
