/*
 * pack.c - the build-id cache filled from a set of profiles, and
 * `pct archive`'s .tar.gz, written with libarchive (pack.h).
 */
#define _GNU_SOURCE
#include "pack.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
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

/* An archive being written: where, from what, and what it holds so far. */
struct pack {
	struct archive *a;
	struct outfile *o;
	const struct pset *s;
	long stored;                   /* module and map files stored */
	long left;                     /* files left out, each warned about once */
	char *err;
	size_t errlen;
};

static void left_out(struct pack *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void left_out(struct pack *k, const char *fmt, ...)
{
	va_list ap;
	char *msg;
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	warnx_("archive: left out: %s", msg ? msg : "a file (out of memory)");
	free(msg);
	k->left++;
}

/* Add the open file fd (st) to the archive as name, the archive made no
 * more readable than it first (outfile_limit_to). */
static int put(struct pack *k, const char *name, int fd, const struct stat *st)
{
	if (outfile_limit_to(k->o, st, k->err, k->errlen) != 0)
		return -1;
	struct archive *a = k->a;
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
			snprintf(k->err, k->errlen, "cannot read the file for '%s': %s", name,
				 n < 0 ? strerror(errno) : "it shrank");
			return -1;
		}
		if (archive_write_data(a, buf, (size_t)n) != n)
			rc = -1;
		off += n;
	}
	if (rc != 0)
		snprintf(k->err, k->errlen, "cannot write '%s' to the archive: %s", name, archive_error_string(a));
	return rc;
}

/*
 * Who may read what: the writer of a profile is the owner of its file
 * (profile.owned).  A file the profile merely names, which no build-id
 * ties to the profiled program, is archived only if every writer of a
 * profile naming it could have read it: the caller (it opened it) or
 * root, or by the permission bits of the file and of every directory
 * above it, conservatively.  The owner's bits if the writer owns it, the
 * group's if it is of the writer's own group, else both the group's and
 * the others' (the writer may be in its group by a supplementary group,
 * which pct cannot tell); an access ACL, or a file whose place cannot be
 * told, counts as unreadable.
 */
struct writer {
	uint32_t module;               /* a module of the set, named by a profile of */
	int owned;                     /* this writer (profile.owned) */
	uid_t uid;
	gid_t gid;
};

static int cmp_writer(const void *pa, const void *pb)
{
	const struct writer *a = pa, *b = pb;
	if (a->module != b->module)
		return a->module < b->module ? -1 : 1;
	if (a->owned != b->owned)
		return a->owned < b->owned ? -1 : 1;
	if (a->uid != b->uid)
		return a->uid < b->uid ? -1 : 1;
	return a->gid < b->gid ? -1 : a->gid > b->gid;
}

/* The writers of the profiles naming each module of s, sorted by module,
 * without repeats: module m's are w[first[m]] to w[first[m + 1]). */
static struct writer *module_writers(const struct pset *s, size_t **first)
{
	size_t n = 0, cap = 0;
	struct writer *w = NULL;
	for (size_t p = 0; p < s->nprofiles; p++) {
		const struct profile *pr = &s->profiles[p];
		for (size_t i = 0; i < pr->nmodules; i++) {
			if (s->modmap[p][i] == PSET_NO_MODULE)
				continue;
			grow(&w, &cap, n + 1, sizeof *w);
			w[n++] = (struct writer){ s->modmap[p][i], pr->owned, pr->owner_uid, pr->owner_gid };
		}
	}
	sort(w, n, sizeof *w, cmp_writer);
	size_t u = 0;
	for (size_t i = 0; i < n; i++)
		if (u == 0 || cmp_writer(&w[u - 1], &w[i]) != 0)
			w[u++] = w[i];
	*first = xcalloc(s->nmods + 1, sizeof **first);
	for (size_t i = 0, m = 0; m <= s->nmods; m++) {
		while (i < u && w[i].module < m)
			i++;
		(*first)[m] = i;
	}
	return w;
}

/* May w read (bit 4) or search (bit 1) what st describes, by its bits? */
static int may(const struct writer *w, const struct stat *st, unsigned bit)
{
	unsigned m = st->st_mode;
	if (st->st_uid == w->uid)
		return ((m >> 6) & bit) != 0;
	if (st->st_gid == w->gid)
		return ((m >> 3) & bit) != 0;
	return (m & bit) && ((m >> 3) & bit);
}

/* Has the file (fd, or path if fd < 0) an access ACL, or cannot that be
 * told? */
static int has_acl(int fd, const char *path)
{
	ssize_t n = fd >= 0 ? fgetxattr(fd, "system.posix_acl_access", NULL, 0)
			    : lgetxattr(path, "system.posix_acl_access", NULL, 0);
	return n >= 0 || (errno != ENODATA && errno != ENOTSUP);
}

/* NULL if w could read the file open at fd (st), else why not, in buf. */
static const char *unreadable(const struct writer *w, int fd, const struct stat *st, char *buf, size_t len)
{
	if (!w->owned) {
		snprintf(buf, len, "the writer of its profile is not known");
		return buf;
	}
	if (w->uid == geteuid() || w->uid == 0)
		return NULL;
	if (!may(w, st, 4)) {
		snprintf(buf, len, "uid %u, who wrote the profile, cannot read it (mode %04o, owner uid %u, group %u)",
			 (unsigned)w->uid, (unsigned)(st->st_mode & 07777), (unsigned)st->st_uid, (unsigned)st->st_gid);
		return buf;
	}
	if (has_acl(fd, NULL)) {
		snprintf(buf, len, "uid %u, who wrote the profile, may not read it: it has an access ACL",
			 (unsigned)w->uid);
		return buf;
	}
	/* the directories above it, as the kernel names the file open */
	char self[64], path[PATH_MAX];
	snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(self, path, sizeof path - 1);
	static const char gone[] = " (deleted)";
	if (n > 0)
		path[n] = '\0';
	if (n <= 0 || n >= (ssize_t)sizeof path - 1 || path[0] != '/' ||
	    ((size_t)n >= sizeof gone - 1 && strcmp(path + n - (sizeof gone - 1), gone) == 0)) {
		snprintf(buf, len, "uid %u, who wrote the profile, may not read it: where it is cannot be told",
			 (unsigned)w->uid);
		return buf;
	}
	for (char *slash = path; (slash = strchr(slash + 1, '/')) != NULL;) {
		*slash = '\0';
		struct stat d;
		const char *dir = path[0] ? path : "/";
		int bad = lstat(dir, &d) != 0 || !S_ISDIR(d.st_mode);
		if (bad)
			snprintf(buf, len, "uid %u, who wrote the profile, may not read it: '%s' is not a directory now",
				 (unsigned)w->uid, dir);
		else if ((bad = !may(w, &d, 1)))
			snprintf(buf, len, "uid %u, who wrote the profile, cannot search '%s' (mode %04o, owner uid %u, "
				 "group %u)", (unsigned)w->uid, dir, (unsigned)(d.st_mode & 07777), (unsigned)d.st_uid,
				 (unsigned)d.st_gid);
		else if ((bad = has_acl(-1, dir)))
			snprintf(buf, len, "uid %u, who wrote the profile, may not read it: '%s' has an access ACL",
				 (unsigned)w->uid, dir);
		*slash = '/';
		if (bad)
			return buf;
	}
	return NULL;
}

/* NULL if every writer in w[0..n) could read the file, else why not. */
static const char *unreadable_by(const struct writer *w, size_t n, int fd, const struct stat *st, char *buf,
				 size_t len)
{
	if (n == 0) {
		snprintf(buf, len, "no profile's writer names it");
		return buf;
	}
	for (size_t i = 0; i < n; i++) {
		const char *why = unreadable(&w[i], fd, st, buf, len);
		if (why)
			return why;
	}
	return NULL;
}

/* The separate debug file dbg of the module stored as build-id/BP/elf
 * (from file), as build-id/BP/debug; 0, or -1 on a write error. */
static int put_debug(struct pack *k, const char *dbg, const char *file, const struct pset_module *g, const char *bp,
		     const struct writer *w, size_t nw)
{
	struct stat st;
	const char *reason;
	char buf[PATH_MAX + 200];
	int fd = infile_open(dbg, 0, &st, &reason);
	if (fd < 0) {
		left_out(k, "cannot open '%s': %s", dbg, reason);
		return 0;
	}
	/* libdwfl may have matched it by its debug link's CRC alone */
	const char *bad = modfile_build_id_is(fd, g->build_id, g->build_id_len) ? NULL
			  : unreadable_by(w, nw, fd, &st, buf, sizeof buf);
	int rc = 0;
	if (bad) {
		left_out(k, "'%s', the debug file of '%s', has not its build-id, and %s", dbg, file, bad);
	} else {
		char *name = xasprintf("build-id/%s/debug", bp);
		rc = put(k, name, fd, &st);
		free(name);
		k->stored += rc == 0;
	}
	close(fd);
	return rc;
}

/* The module files; 0, or -1 on a write error. */
static int put_modules(struct pack *k)
{
	const struct pset *s = k->s;
	unsigned char *need = xmalloc(s->nmods + 1);
	size_t *first;
	struct writer *w = module_writers(s, &first);
	int rc = 0;
	pset_needed_modules(s, need);
	for (size_t m = 0; m < s->nmods && rc == 0; m++) {
		const struct pset_module *g = &s->mods[m];
		if (!need[m])
			continue;
		char bp[2 * PCT_BUILD_ID_MAX + 2], *file = NULL, *why = NULL, buf[PATH_MAX + 200];
		int fd = modfile_open(g->path, g->build_id, g->build_id_len, &file, &why);
		if (fd < 0) {
			left_out(k, "%s", why);
			free(why);
			continue;
		}
		struct stat st;
		const struct writer *mw = w + first[m];
		size_t nw = first[m + 1] - first[m];
		modfile_build_id_path(g->build_id, g->build_id_len, bp);
		const char *bad = NULL;
		if (fstat(fd, &st) != 0) {
			snprintf(k->err, k->errlen, "cannot read '%s': %s", file, strerror(errno));
			rc = -1;
		} else if (g->build_id_len == 0) {
			/* nothing ties the file to the profiled program */
			bad = unreadable_by(mw, nw, fd, &st, buf, sizeof buf);
		}
		if (bad)
			left_out(k, "'%s' has no build-id to check it by, and %s", file, bad);
		if (rc == 0 && !bad) {
			char *name = g->build_id_len > 0 ? xasprintf("build-id/%s/elf", bp)
							 : xstrdup(g->path + (g->path[0] == '/'));
			rc = put(k, name, fd, &st);
			free(name);
			k->stored += rc == 0;
		}
		close(fd);
		/* the separate debug file libdwfl finds for it, if any */
		const char *dbg = rc == 0 && !bad && g->build_id_len > 0 ? symtab_debug_file(pset_symtab(g)) : NULL;
		if (dbg) {
			char *dpath = xstrdup(dbg);
			rc = put_debug(k, dpath, file, g, bp, mw, nw);
			free(dpath);
		}
		free(file);
	}
	free(first);
	free(w);
	free(need);
	return rc;
}

/* The perf maps that name the profiles' JIT code (perfmap.h), stored as
 * copies kept beside them, STEM.perf-PID.map, which a report of the
 * unpacked profile finds; a map is one more file the profile merely
 * names (by its pid).  0, or -1 on a write error. */
static int put_jit_maps(struct pack *k)
{
	const struct pset *s = k->s;
	for (size_t i = 0; i < s->nprofiles; i++) {
		const struct profile *p = &s->profiles[i];
		int jit = 0;
		for (size_t m = 0; m < p->nmodules; m++)
			jit |= p->modules[m].kind == PCT_MOD_ANON;
		char *why = NULL, *map = jit ? perfmap_path(p->file, p->hdr.pid, p->hdr.start_time_ns, &why) : NULL;
		free(why);
		if (map == NULL)
			continue;
		struct stat st;
		const char *reason, *bad = NULL;
		char buf[PATH_MAX + 200];
		struct writer w = { 0, p->owned, p->owner_uid, p->owner_gid };
		int rc = 0, fd = infile_open(map, 0, &st, &reason);
		if (fd < 0)
			left_out(k, "cannot open '%s': %s", map, reason);
		else if ((bad = unreadable(&w, fd, &st, buf, sizeof buf)) != NULL)
			left_out(k, "'%s', a perf map, has no build-id to check it by, and %s", map, bad);
		if (fd >= 0 && !bad) {
			char *name = perfmap_copy_name(path_base(p->file), p->hdr.pid);
			rc = put(k, name, fd, &st);
			free(name);
			k->stored += rc == 0;
		}
		if (fd >= 0)
			close(fd);
		free(map);
		if (rc < 0)
			return -1;
	}
	return 0;
}

long pack_archive(const struct pset *s, char *const *files, size_t nfiles, const char *out, long *left, char *err,
		  size_t errlen)
{
	*left = 0;
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
	struct pack k = { .a = archive_write_new(), .o = &o, .s = s, .err = err, .errlen = errlen };
	struct archive *a = k.a;
	if (a == NULL || archive_write_add_filter_gzip(a) != ARCHIVE_OK ||
	    archive_write_set_format_pax_restricted(a) != ARCHIVE_OK || archive_write_open_FILE(a, o.fp) != ARCHIVE_OK) {
		snprintf(err, errlen, "cannot start the archive: %s", a ? archive_error_string(a) : "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < nfiles; i++) {
		struct stat st;
		const char *why;
		int fd = infile_open(files[i], 0, &st, &why);
		if (fd < 0) {
			snprintf(err, errlen, "cannot read '%s' again: %s", files[i], why);
			goto fail;
		}
		int rc = put(&k, path_base(files[i]), fd, &st);
		close(fd);
		if (rc != 0)
			goto fail;
	}
	if (put_modules(&k) != 0 || put_jit_maps(&k) != 0)
		goto fail;
	if (archive_write_close(a) != ARCHIVE_OK) {
		snprintf(err, errlen, "cannot finish the archive: %s", archive_error_string(a));
		goto fail;
	}
	archive_write_free(a);
	if (outfile_commit(&o, err, errlen) != 0)
		return -1;
	*left = k.left;
	return k.stored;
fail:
	if (a)
		archive_write_free(a);
	outfile_abort(&o);
	return -1;
}
