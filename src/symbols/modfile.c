/*
 * modfile.c - where a module's file is found, and the build-id cache
 * (modfile.h).
 *
 * The cache directory is reached only through directories and links no
 * other user controls (outfile_private_dir, walked once per run), and
 * must belong to the user.  Inside it every directory is opened with
 * O_NOFOLLOW and every file created with O_EXCL | O_NOFOLLOW (or linked,
 * which never replaces), so a link planted there is never followed.
 */
#define _GNU_SOURCE
#include "modfile.h"

#include <dirent.h>
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "debuginfo.h"
#include "infile.h"
#include "outfile.h"
#include "pct_format.h"
#include "util.h"

#define DEBUG_BUILD_ID_ROOT "/usr/lib/debug/.build-id"

static char *symfs;
static int cache_off;

void modfile_set_symfs(const char *dir)
{
	free(symfs);
	symfs = NULL;
	if (dir == NULL)
		return;
	/* made absolute: module files are opened by absolute paths only */
	char *cwd = dir[0] == '/' ? NULL : getcwd(NULL, 0);
	symfs = cwd ? xasprintf("%s/%s", cwd, dir) : xstrdup(dir);
	free(cwd);
}

void modfile_set_cache(int on)
{
	cache_off = !on;
}

int modfile_option(int c, const char *arg)
{
	if (c == MODFILE_OPT_SYMFS)
		modfile_set_symfs(arg);
	else if (c == MODFILE_OPT_NO_CACHE)
		modfile_set_cache(0);
	return c == MODFILE_OPT_SYMFS || c == MODFILE_OPT_NO_CACHE;
}

/* The cache directory as configured, malloc'd, or NULL if it is off. */
static char *cache_path(void)
{
	const char *e = getenv("PCT_CACHE");
	if (cache_off || (e && strcmp(e, "0") == 0))
		return NULL;
	const char *x = getenv("XDG_CACHE_HOME");
	if (x && x[0] == '/')
		return xasprintf("%s/pct", x);
	const char *h = getenv("HOME");
	if (h && h[0] == '/')
		return xasprintf("%s/.cache/pct", h);
	return NULL;
}

/*
 * The cache directory walked by outfile_private_dir(), once per run for
 * each path the environment names: its descriptor if it was found safe,
 * or why it was refused (said once).  A cache not there yet is walked
 * again when it is wanted.
 */
static char *walked;                   /* the path last walked */
static int walked_fd = -1;             /* it, verified, if it exists */
static char *refused;                  /* or why it is not used */
static int refused_said;

/* Walk the cache path dir (create: making what is missing) unless it was
 * walked already: 1 verified (walked_fd), 0 absent, -1 refused (refused),
 * -2 another error (errno, the reason in why). */
static int walk_cache(const char *dir, int create, char *why, size_t whylen)
{
	if (walked && strcmp(walked, dir) != 0) {
		if (walked_fd >= 0)
			close(walked_fd);
		walked_fd = -1;
		free(refused);
		refused = NULL;
		refused_said = 0;
	}
	free(walked);
	walked = xstrdup(dir);
	if (walked_fd >= 0)
		return 1;
	if (refused)
		return -1;
	int fd = outfile_private_dir(dir, create, why, whylen);
	if (fd >= 0) {
		walked_fd = fd;
		return 1;
	}
	if (errno == ENOENT && !create)
		return 0;
	if (errno == EPERM || errno == ENOTDIR || errno == ELOOP) {
		refused = xstrdup(why);
		return -1;
	}
	return -2;
}

static void say_refused(void)
{
	if (refused && !refused_said++)
		warnx_("the build-id cache is off: %s", refused);
}

char *modfile_cache_dir(void)
{
	char *dir = cache_path(), why[PATH_MAX + 200];
	if (dir && walk_cache(dir, 0, why, sizeof why) == -1) {
		say_refused();
		free(dir);
		dir = NULL;
	}
	return dir;
}

/* The directory name below dirfd, created (0700) if absent and create is
 * set, opened without following a link; -1 with errno. */
static int subdir(int dirfd, const char *name, int create)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && create) {
		if (mkdirat(dirfd, name, 0700) != 0 && errno != EEXIST)
			return -1;
		fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	return fd;
}

/* The cache directory opened, through verified directories only
 * (walk_cache; created with its parents if create is set): a new
 * descriptor, or -1 with errno and *why malloc'd: EINVAL if the cache is
 * off, ENOENT if it is not there (without create), EPERM if its path is
 * refused. */
static int open_cache(int create, char **why)
{
	char *dir = cache_path(), r[PATH_MAX + 200];
	if (dir == NULL) {
		*why = xstrdup("the build-id cache is off ($PCT_CACHE=0, --no-cache, or no $HOME)");
		errno = EINVAL;
		return -1;
	}
	int fd = -1;
	switch (walk_cache(dir, create, r, sizeof r)) {
	case 1:
		fd = fcntl(walked_fd, F_DUPFD_CLOEXEC, 3);
		if (fd < 0)
			*why = xasprintf("cannot open the build-id cache '%s': %s", dir, strerror(errno));
		break;
	case -1:
		*why = xasprintf("the build-id cache is off: %s", refused);
		errno = EPERM;
		break;
	default: {
		int e = errno;
		*why = xasprintf("cannot open the build-id cache: %s", r);
		errno = e;
	}
	}
	free(dir);
	return fd;
}

/* The cache's file build-id/XX/REST/name for bp ("XX/REST"), opened
 * through the verified cache directory without following a link: a
 * regular file (read only), or -1.  A refused cache is said once. */
static int cache_file(const char *bp, const char *name, int *refusal)
{
	char *why = NULL, xx[3] = { bp[0], bp[1], '\0' };
	int root = open_cache(0, &why);
	free(why);
	*refusal = root < 0 && errno == EPERM;
	if (root < 0)
		return -1;
	int bfd = subdir(root, "build-id", 0);
	int xfd = bfd >= 0 ? subdir(bfd, xx, 0) : -1;
	int efd = xfd >= 0 ? subdir(xfd, bp + 3, 0) : -1;
	int fd = efd >= 0 ? openat(efd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) : -1;
	struct stat st;
	if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
		close(fd);
		fd = -1;
	}
	int fds[] = { efd, xfd, bfd, root };
	for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	return fd;
}

void modfile_build_id_path(const uint8_t *id, size_t len, char *out)
{
	static const char hex[] = "0123456789abcdef";
	char *o = out;
	for (size_t i = 0; i < len && i < PCT_BUILD_ID_MAX; i++) {
		*o++ = hex[id[i] >> 4];
		*o++ = hex[id[i] & 15];
		if (i == 0)
			*o++ = '/';
	}
	*o = '\0';
}

int modfile_build_id_is(int fd, const uint8_t *id, size_t len)
{
	const void *got;
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	ssize_t n = elf ? dwelf_elf_gnu_build_id(elf, &got) : -1;
	int same = len > 0 && n > 0 && (size_t)n == len && memcmp(got, id, len) == 0;
	elf_end(elf);
	return same;
}

/* Open cand if it is a regular file with build-id id (any file if len is
 * 0); *mismatch is set if it had another. */
static int try_file(const char *cand, const uint8_t *id, size_t len, int *mismatch, const char **why)
{
	int fd = infile_open(cand, 0, NULL, why);
	if (fd >= 0 && len > 0 && !modfile_build_id_is(fd, id, len)) {
		close(fd);
		*mismatch = 1;
		return -1;
	}
	return fd;
}

/* Does the ELF file at fd have a symbol table (.symtab)? */
static int has_symtab(int fd)
{
	int found = 0;
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	for (Elf_Scn *scn = NULL; elf && !found && (scn = elf_nextscn(elf, scn)) != NULL;) {
		GElf_Shdr sh;
		found = gelf_getshdr(scn, &sh) != NULL && sh.sh_type == SHT_SYMTAB;
	}
	elf_end(elf);
	return found;
}

int modfile_open(const char *path, const uint8_t *id, size_t len, char **file, char **why)
{
	char bp[2 * PCT_BUILD_ID_MAX + 2];
	char *cand[6];
	size_t n = 0, own;
	modfile_build_id_path(id, len, bp);
	if (symfs && len > 0)
		cand[n++] = xasprintf("%s/build-id/%s/elf", symfs, bp);
	if (symfs && path[0] == '/')
		cand[n++] = xasprintf("%s%s", symfs, path);
	char *cache = len > 0 ? cache_path() : NULL;
	size_t in_cache = SIZE_MAX;
	if (cache)
		in_cache = n, cand[n++] = xasprintf("%s/build-id/%s/elf", cache, bp);
	free(cache);
	own = n;
	cand[n++] = xstrdup(path);
	if (len > 0)
		cand[n++] = xasprintf(DEBUG_BUILD_ID_ROOT "/%s", bp);
	/* the first file with a symbol table wins; a stripped one with the
	 * right build-id (strip keeps it) only if no other is found */
	int fd = -1, spare = -1;
	size_t chosen = 0, spare_i = 0;
	*why = NULL;
	*file = NULL;
	for (size_t i = 0; i < n && fd < 0; i++) {
		int mismatch = 0, f = -1;
		const char *reason = NULL;
		if (i == in_cache) {
			int refusal;
			f = cache_file(bp, "elf", &refusal);
			if (refusal)
				say_refused();
			if (f >= 0 && !modfile_build_id_is(f, id, len)) {
				close(f);
				f = -1;
			}
		} else if (i != own || path[0] == '/') {
			f = try_file(cand[i], id, len, &mismatch, &reason);
		}
		if (i == own && f < 0)
			*why = path[0] != '/' ? xasprintf("'%s' is not a file", path)
			       : mismatch   ? xasprintf("'%s' changed since the profile was taken (build-id differs)", path)
					    : xasprintf("cannot open '%s': %s", path, reason ? reason : "not found");
		if (f >= 0 && has_symtab(f))
			fd = f, chosen = i;
		else if (f >= 0 && spare < 0)
			spare = f, spare_i = i;
		else if (f >= 0)
			close(f);
	}
	if (fd < 0 && spare >= 0)
		fd = spare, chosen = spare_i;
	else if (spare >= 0)
		close(spare);
	const char *fetched = NULL;
	if (fd < 0 && len > 0) /* last, debuginfod's copy by build-id (checked there) */
		fd = debuginfo_find_executable(id, len, &fetched);
	if (fd >= 0) {
		*file = xstrdup(fetched ? fetched : cand[chosen]);
		free(*why);
		*why = NULL;
	}
	for (size_t i = 0; i < n; i++)
		free(cand[i]);
	return fd;
}

size_t modfile_debug_paths(const uint8_t *id, size_t len, char **out, size_t max)
{
	char bp[2 * PCT_BUILD_ID_MAX + 2];
	size_t n = 0;
	if (len == 0)
		return 0;
	modfile_build_id_path(id, len, bp);
	if (symfs && n < max)
		out[n++] = xasprintf("%s/build-id/%s/debug", symfs, bp);
	/* the cache's only if its path was verified (walk_cache), so that
	 * the name leads through directories no other user controls */
	char *why = NULL, *cache = cache_path();
	int root = cache ? open_cache(0, &why) : -1;
	if (root < 0 && errno == EPERM)
		say_refused();
	if (root >= 0 && n < max)
		out[n++] = xasprintf("%s/build-id/%s/debug", cache, bp);
	if (root >= 0)
		close(root);
	free(why);
	free(cache);
	return n;
}

/* Copy size bytes of in to out. */
static int copy_fd(int in, int out, off_t size)
{
	off_t off = 0;
	while (off < size) {
		ssize_t n = copy_file_range(in, &off, out, NULL, (size_t)(size - off), 0);
		if (n > 0)
			continue;
		if (n == 0)
			break;
		if (errno == EINTR)
			continue;
		if (errno != EXDEV && errno != ENOSYS && errno != EINVAL && errno != EOPNOTSUPP)
			return -1;
		char buf[65536];
		ssize_t r = pread(in, buf, sizeof buf, off);
		if (r <= 0)
			return r < 0 ? -1 : 0;
		for (ssize_t w = 0; w < r;) {
			ssize_t k = write(out, buf + w, (size_t)(r - w));
			if (k < 0 && errno == EINTR)
				continue;
			if (k < 0)
				return -1;
			w += k;
		}
		off += r;
	}
	return 0;
}

/* Put the file open at src under name in the directory dirfd: a hard
 * link, else a copy, made under a temporary name (a stale one of this
 * pid is removed first) and linked into place, or, with replace, renamed
 * over what is there.  1 added, 0 there already, -1 with errno. */
static int put_file(int dirfd, const char *name, int src, const struct stat *sst, int replace)
{
	struct stat st;
	char proc[64], tmp[64];
	if (!replace && fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
		return 0;
	snprintf(proc, sizeof proc, "/proc/self/fd/%d", src);
	snprintf(tmp, sizeof tmp, ".%s.tmp.%ld", name, (long)getpid());
	unlinkat(dirfd, tmp, 0);
	int rc = 0, e = 0;
	if (linkat(AT_FDCWD, proc, dirfd, tmp, AT_SYMLINK_FOLLOW) != 0) {
		/* a copy no more readable than its source (a hard link is it) */
		int out = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
				 0600 | (sst->st_mode & 0044));
		if (out < 0)
			return -1;
		rc = copy_fd(src, out, sst->st_size);
		e = errno;
		if (close(out) != 0 && rc == 0)
			rc = -1, e = errno;
	}
	if (rc == 0 && replace)
		rc = renameat(dirfd, tmp, dirfd, name) == 0 ? 1 : -1;
	else if (rc == 0)
		rc = linkat(dirfd, tmp, dirfd, name, 0) == 0 ? 1 : errno == EEXIST ? 0 : -1;
	if (rc < 0 && e == 0)
		e = errno;
	unlinkat(dirfd, tmp, 0);
	errno = e;
	return rc;
}

/* Open path as a file to cache: regular, at most MODFILE_CACHE_FILE_MAX
 * bytes, with build-id id.  -1 with *why malloc'd. */
static int open_source(const char *path, const uint8_t *id, size_t len, struct stat *st, char **why)
{
	const char *reason;
	int fd = infile_open(path, 0, st, &reason);
	if (fd < 0) {
		*why = xasprintf("cannot open '%s': %s", path, reason);
		return -1;
	}
	if ((uint64_t)st->st_size > MODFILE_CACHE_FILE_MAX)
		*why = xasprintf("'%s' is larger than %llu MiB: not cached", path, MODFILE_CACHE_FILE_MAX >> 20);
	else if (!modfile_build_id_is(fd, id, len))
		*why = xasprintf("'%s' changed since the profile was taken (build-id differs): not cached", path);
	else
		return fd;
	close(fd);
	return -1;
}

/* Put the separate debug file of the module at path (build-id id) in
 * the cache entry open at entry as "debug", if this machine has one
 * (debuginfo_find_local: by build-id or by its debug link, checked by
 * build-id) that can be kept as the module itself (open_source). */
static void add_debug(int entry, const char *path, const uint8_t *id, size_t len)
{
	char *name = NULL, *why = NULL;
	struct stat st;
	int fd = debuginfo_find_local(path, id, len, &name);
	if (fd < 0)
		return;
	close(fd);
	fd = open_source(name, id, len, &st, &why);
	if (fd >= 0) {
		put_file(entry, "debug", fd, &st, 0);
		close(fd);
	}
	free(why);
	free(name);
}

int modfile_cache_add(const char *path, const uint8_t *id, size_t len, char **why)
{
	char bp[2 * PCT_BUILD_ID_MAX + 2];
	struct stat sst;
	int rc = -1, src = -1, d = -1, entry = -1;
	*why = NULL;
	if (len == 0) {
		*why = xasprintf("'%s' has no build-id: not cached", path);
		return -1;
	}
	modfile_build_id_path(id, len, bp);
	int root = open_cache(1, why);
	if (root < 0)
		return -1;
	char *slash = strchr(bp, '/');
	*slash = '\0';
	int bfd = subdir(root, "build-id", 1);
	close(root);
	if (bfd >= 0 && (d = subdir(bfd, bp, 1)) >= 0)
		entry = subdir(d, slash + 1, 0);
	*slash = '/';
	struct stat est;
	if (entry >= 0 && fstatat(entry, "elf", &est, AT_SYMLINK_NOFOLLOW) == 0) {
		/* a stripped copy gives way to a file with a symbol table */
		int cfd = openat(entry, "elf", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		int stripped = cfd >= 0 && !has_symtab(cfd);
		if (cfd >= 0)
			close(cfd);
		rc = 0;
		if (stripped && (src = open_source(path, id, len, &sst, why)) >= 0 && has_symtab(src))
			rc = put_file(entry, "elf", src, &sst, 1) > 0;
		free(*why);
		*why = NULL;
		if (fstatat(entry, "debug", &est, AT_SYMLINK_NOFOLLOW) != 0 && errno == ENOENT)
			add_debug(entry, path, id, len); /* found since, or cached before debug files were */
		goto used;
	}
	/* the entry is made only for a file that can be kept */
	if ((src = open_source(path, id, len, &sst, why)) < 0)
		goto out;
	if (entry < 0 && d >= 0)
		entry = subdir(d, slash + 1, 1);
	if (entry < 0) {
		*why = xasprintf("cannot create the cache entry build-id/%s: %s", bp, strerror(errno));
		goto out;
	}
	rc = put_file(entry, "elf", src, &sst, 0);
	if (rc < 0) {
		*why = xasprintf("cannot cache '%s': %s", path, strerror(errno));
		goto out;
	}
	int pf = openat(entry, "path", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (pf >= 0) {
		ssize_t w = write(pf, path, strlen(path));
		(void)w;
		close(pf);
	}
	add_debug(entry, path, id, len);
used:
	futimens(entry, NULL); /* used now */
out:
	if (src >= 0)
		close(src);
	if (entry >= 0)
		close(entry);
	if (d >= 0)
		close(d);
	if (bfd >= 0)
		close(bfd);
	return rc;
}

static int cmp_used(const void *pa, const void *pb)
{
	const struct modfile_entry *a = pa, *b = pb;
	if (a->used.tv_sec != b->used.tv_sec)
		return a->used.tv_sec < b->used.tv_sec ? -1 : 1;
	if (a->used.tv_nsec != b->used.tv_nsec)
		return a->used.tv_nsec < b->used.tv_nsec ? -1 : 1;
	return strcmp(a->build_id, b->build_id);
}

static int is_hex(const char *s, size_t min, size_t max)
{
	size_t n = strspn(s, "0123456789abcdef");
	return s[n] == '\0' && n >= min && n <= max;
}

/* The recorded path of an entry, at most PCT_PATH_MAX bytes. */
static char *read_path(int entry)
{
	char *buf = xmalloc(PCT_PATH_MAX + 1);
	ssize_t n = -1;
	int fd = openat(entry, "path", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		n = read(fd, buf, PCT_PATH_MAX);
	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

int modfile_cache_scan(struct modfile_entry **out, size_t *n, char **why)
{
	size_t cap = 0;
	*out = NULL;
	*n = 0;
	*why = NULL;
	int root = open_cache(0, why);
	if (root < 0) {
		if (*why && errno == ENOENT) {
			free(*why);
			*why = NULL;
			return 0;
		}
		return -1;
	}
	int bfd = subdir(root, "build-id", 0);
	close(root);
	DIR *top = bfd >= 0 ? fdopendir(bfd) : NULL;
	if (top == NULL) {
		if (bfd >= 0)
			close(bfd);
		return 0;
	}
	for (struct dirent *a; (a = readdir(top)) != NULL;) {
		if (!is_hex(a->d_name, 2, 2))
			continue;
		int xfd = subdir(dirfd(top), a->d_name, 0);
		DIR *xx = xfd >= 0 ? fdopendir(xfd) : NULL;
		if (xx == NULL) {
			if (xfd >= 0)
				close(xfd);
			continue;
		}
		for (struct dirent *b; (b = readdir(xx)) != NULL;) {
			if (!is_hex(b->d_name, 2, 2 * PCT_BUILD_ID_MAX - 2))
				continue;
			int efd = subdir(dirfd(xx), b->d_name, 0);
			struct stat st;
			if (efd < 0 || fstat(efd, &st) != 0) {
				if (efd >= 0)
					close(efd);
				continue;
			}
			grow(out, &cap, *n + 1, sizeof **out);
			struct modfile_entry *e = &(*out)[(*n)++];
			memset(e, 0, sizeof *e);
			e->build_id = xasprintf("%s%s", a->d_name, b->d_name);
			e->used = st.st_mtim;
			e->path = read_path(efd);
			static const char *const files[] = { "elf", "debug", "path" };
			for (int f = 0; f < 3; f++) {
				struct stat fs;
				if (fstatat(efd, files[f], &fs, AT_SYMLINK_NOFOLLOW) == 0) {
					e->bytes += (uint64_t)fs.st_size;
					e->has_debug |= f == 1;
				}
			}
			close(efd);
		}
		closedir(xx);
	}
	closedir(top);
	sort(*out, *n, sizeof **out, cmp_used);
	return 0;
}

void modfile_cache_entries_free(struct modfile_entry *e, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(e[i].build_id);
		free(e[i].path);
	}
	free(e);
}

/* Remove the entry build-id/XX/REST for hex id: every file in it, then
 * it, then XX if that is empty. */
static int remove_entry(int bfd, const char *hex)
{
	char xx[3] = { hex[0], hex[1], '\0' };
	int xfd = subdir(bfd, xx, 0);
	int efd = xfd >= 0 ? subdir(xfd, hex + 2, 0) : -1;
	DIR *d = efd >= 0 ? fdopendir(efd) : NULL;
	int rc = -1;
	if (d) {
		for (struct dirent *f; (f = readdir(d)) != NULL;)
			if (strcmp(f->d_name, ".") != 0 && strcmp(f->d_name, "..") != 0)
				unlinkat(dirfd(d), f->d_name, 0);
		closedir(d);
		rc = unlinkat(xfd, hex + 2, AT_REMOVEDIR);
		unlinkat(bfd, xx, AT_REMOVEDIR); /* fails while XX holds others */
	} else if (efd >= 0) {
		close(efd);
	}
	if (xfd >= 0)
		close(xfd);
	return rc;
}

long modfile_cache_prune(uint64_t max_bytes, uint64_t *freed, char **why)
{
	struct modfile_entry *e;
	size_t n;
	uint64_t total = 0;
	long removed = 0;
	*freed = 0;
	if (modfile_cache_scan(&e, &n, why) != 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		total += e[i].bytes;
	int root = total > max_bytes ? open_cache(0, why) : -1;
	int bfd = root >= 0 ? subdir(root, "build-id", 0) : -1;
	for (size_t i = 0; i < n && total > max_bytes && bfd >= 0; i++)
		if (remove_entry(bfd, e[i].build_id) == 0) {
			total -= e[i].bytes;
			*freed += e[i].bytes;
			removed++;
		}
	if (bfd >= 0)
		close(bfd);
	if (root >= 0)
		close(root);
	modfile_cache_entries_free(e, n);
	return removed;
}
