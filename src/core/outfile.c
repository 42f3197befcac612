/*
 * outfile.c - the one way the pct commands create a file: see outfile.h.
 *
 * The dangers are those of a shared directory (/tmp, a group's project
 * directory): another user can plant a symbolic link or a FIFO under any
 * name the command will use, before it runs or while it runs.  So no name
 * the command makes up is ever opened without O_EXCL | O_NOFOLLOW, the
 * made-up names are random, and a name the user gave is followed through
 * a symbolic link only when the link is the user's own or root's (the
 * kernel's protected_symlinks rule, applied to every directory: a
 * group-writable one is as open to planting as a sticky one).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "infile.h"
#include "outfile.h"
#include "pct_format.h"
#include "util.h"

#ifndef PROC_SUPER_MAGIC
#define PROC_SUPER_MAGIC 0x9fa0
#endif
#define MAX_LINKS 40                   /* as the kernel's MAXSYMLINKS */
#define MAX_OPEN 8                     /* temporaries open at once */

/* The temporaries to remove if the command exits or is killed before it
 * commits: read by a signal handler, so only pointers are swapped. */
static char *volatile temps[MAX_OPEN];

static void remove_temps(void)
{
	for (int i = 0; i < MAX_OPEN; i++)
		if (temps[i])
			unlink(temps[i]);
}

static void on_signal(int sig)
{
	remove_temps();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void watch_temps(void)
{
	static int done;
	if (done++)
		return;
	atexit(remove_temps);
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		struct sigaction old, sa = { .sa_handler = on_signal };
		sigemptyset(&sa.sa_mask);
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
			sigaction(sigs[i], &sa, NULL);
	}
}

static int fail(char *err, size_t errlen, const char *verb, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int fail(char *err, size_t errlen, const char *verb, const char *path, const char *fmt, ...)
{
	char why[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "cannot %s '%s': %s", verb, path, why);
	return -1;
}

/* The directory part of path, "." for none. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (slash == NULL)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xasprintf("%.*s", (int)(slash - path), path);
}

static int on_procfs(const char *path)
{
	char *dir = dir_of(path);
	struct statfs fs;
	int yes = statfs(dir, &fs) == 0 && fs.f_type == PROC_SUPER_MAGIC;
	free(dir);
	return yes;
}

int outfile_owner_trusted(uid_t owner)
{
	return owner == geteuid() || owner == 0;
}

/*
 * Follow path's symbolic links, one at a time, as open(2) would, refusing
 * a link owned by anyone but the caller or root.  Returns the last name
 * (malloc'd) with its lstat in *st, or NULL with *why set.  *exists is 0
 * if path itself does not exist; *magic is 1 if the walk reached a link
 * of /proc (/proc/self/fd/1), whose target is not a name to rename over.
 */
static char *resolve(const char *path, struct stat *st, int *exists, int *magic, char *why, size_t whylen)
{
	char *cur = xstrdup(path);
	*exists = 1;
	*magic = 0;
	for (int hop = 0;; hop++) {
		if (lstat(cur, st) != 0) {
			if (errno == ENOENT && hop == 0) {
				*exists = 0;
				return cur;
			}
			if (errno == ENOENT)
				snprintf(why, whylen, "a symbolic link to '%s', which does not exist", cur);
			else
				snprintf(why, whylen, "%s", strerror(errno));
			break;
		}
		if (!S_ISLNK(st->st_mode))
			return cur;
		if (!outfile_owner_trusted(st->st_uid)) {
			snprintf(why, whylen, "%s'%s' is a symbolic link owned by uid %u, neither yours nor "
				 "root's: not followed", hop ? "on the way, " : "", cur, (unsigned)st->st_uid);
			break;
		}
		if (on_procfs(cur)) {
			*magic = 1;
			if (stat(cur, st) == 0)
				return cur;
			snprintf(why, whylen, "%s", strerror(errno));
			break;
		}
		if (hop == MAX_LINKS) {
			snprintf(why, whylen, "%s", strerror(ELOOP));
			break;
		}
		char link[PATH_MAX];
		ssize_t n = readlink(cur, link, sizeof link - 1);
		if (n < 0) {
			snprintf(why, whylen, "%s", strerror(errno));
			break;
		}
		link[n] = '\0';
		char *next;
		if (link[0] == '/') {
			next = xstrdup(link);
		} else {
			char *dir = dir_of(cur);
			next = xasprintf("%s/%s", dir, link);
			free(dir);
		}
		free(cur);
		cur = next;
	}
	free(cur);
	return NULL;
}

/* May another user than the caller (and root) write in the directory st,
 * and so rename or replace what is in it?  The sticky bit keeps them to
 * their own names; the caller's own group (a user private group) and
 * root's count as the caller's. */
static int others_may_write(const struct stat *st)
{
	if (st->st_mode & S_ISVTX)
		return 0;
	return (st->st_mode & S_IWOTH) ||
	       ((st->st_mode & S_IWGRP) && st->st_gid != getegid() && st->st_gid != 0);
}

int outfile_private_dir(const char *path, int create, char *why, size_t whylen)
{
	if (path[0] != '/') {
		snprintf(why, whylen, "'%s' is not an absolute path", path);
		errno = EINVAL;
		return -1;
	}
	char *rest = xstrdup(path), *shown = xstrdup("");  /* what is left; where cur is ("" for /) */
	int cur = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC), hops = 0, e = 0;
	struct stat st;
	if (cur < 0 || fstat(cur, &st) != 0) {
		e = errno;
		snprintf(why, whylen, "cannot open '/': %s", strerror(e));
		goto out;
	}
	for (;;) {
		/* cur (st) is a directory walked to: it must be one no other user controls */
		if (!outfile_owner_trusted(st.st_uid)) {
			e = EPERM;
			snprintf(why, whylen, "'%s' is owned by uid %u, neither yours nor root's", shown[0] ? shown : "/",
				 (unsigned)st.st_uid);
			goto out;
		}
		if (others_may_write(&st)) {
			e = EPERM;
			snprintf(why, whylen, "'%s' can be written by other users (mode %04o, group %u)",
				 shown[0] ? shown : "/", (unsigned)(st.st_mode & 07777), (unsigned)st.st_gid);
			goto out;
		}
		char *p = rest;
		while (*p == '/')
			p++;
		if (*p == '\0')
			break;
		size_t len = strcspn(p, "/");
		char *name = xstrndup(p, len), *left = xstrdup(p + len);
		free(rest);
		rest = left;
		if (strcmp(name, ".") == 0) {
			free(name);
			continue;
		}
		char *here = xasprintf("%s/%s", shown, name);
		int fd = openat(cur, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 && errno == ENOENT && create && strcmp(name, "..") != 0) {
			if (mkdirat(cur, name, 0700) != 0 && errno != EEXIST) {
				e = errno;
				snprintf(why, whylen, "cannot create '%s': %s", here, strerror(e));
			} else {
				fd = openat(cur, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
			}
		}
		if (fd < 0 && e == 0) {
			e = errno;
			snprintf(why, whylen, "'%s': %s", here, strerror(e));
		}
		free(name);
		struct stat lst;
		if (fd >= 0 && fstat(fd, &lst) != 0) {
			e = errno;
			snprintf(why, whylen, "'%s': %s", here, strerror(e));
		} else if (fd >= 0 && S_ISLNK(lst.st_mode)) {
			char link[PATH_MAX];
			ssize_t n = -1;
			if (!outfile_owner_trusted(lst.st_uid))
				e = EPERM, snprintf(why, whylen, "'%s' is a symbolic link owned by uid %u, neither yours "
						    "nor root's", here, (unsigned)lst.st_uid);
			else if (++hops > MAX_LINKS)
				e = ELOOP, snprintf(why, whylen, "'%s': %s", here, strerror(ELOOP));
			else if ((n = readlinkat(fd, "", link, sizeof link - 1)) < 0)
				e = errno, snprintf(why, whylen, "'%s': %s", here, strerror(e));
			if (e == 0) {
				/* the link's target, then what was left, walked the same way */
				link[n] = '\0';
				char *next = xasprintf("%s/%s", link, rest);
				free(rest);
				rest = next;
				if (link[0] == '/') {
					close(cur);
					cur = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
					free(shown);
					shown = xstrdup("");
					if (cur < 0 || fstat(cur, &st) != 0)
						e = errno, snprintf(why, whylen, "cannot open '/': %s", strerror(e));
				}
			}
			close(fd);
			free(here);
			if (e)
				goto out;
			continue;
		} else if (fd >= 0 && !S_ISDIR(lst.st_mode)) {
			e = ENOTDIR;
			snprintf(why, whylen, "'%s' is %s, not a directory", here, infile_kind(lst.st_mode));
		}
		if (e) {
			if (fd >= 0)
				close(fd);
			free(here);
			goto out;
		}
		close(cur);
		cur = fd;
		st = lst;
		free(shown);
		shown = here;
	}
	/* the directory itself is the caller's own */
	if (st.st_uid != geteuid()) {
		e = EPERM;
		snprintf(why, whylen, "'%s' is owned by uid %u, not yours", shown[0] ? shown : "/", (unsigned)st.st_uid);
		goto out;
	}
	int dfd = openat(cur, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		e = errno;
		snprintf(why, whylen, "cannot open '%s': %s", path, strerror(e));
	}
	close(cur);
	free(rest);
	free(shown);
	errno = e;
	return dfd;
out:
	if (cur >= 0)
		close(cur);
	free(rest);
	free(shown);
	errno = e;
	return -1;
}

/* Open a character device or FIFO in place, without creating, truncating
 * or following anything; a FIFO's reader is waited for a few seconds. */
static int open_in_place(const char *name, const struct stat *st, const char **why)
{
	int flags = O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW;
	struct timespec nap = { 0, 50 * 1000 * 1000 };
	int fd;
	for (int tries = 0;; tries++) {
		fd = open(name, flags);
		if (fd >= 0 || errno != ENXIO || !S_ISFIFO(st->st_mode) || tries >= OUTFILE_FIFO_WAIT * 20)
			break;
		nanosleep(&nap, NULL);
	}
	if (fd < 0) {
		*why = errno == ENXIO && S_ISFIFO(st->st_mode)
			? "a FIFO with no reader (waited " STR(OUTFILE_FIFO_WAIT) " s)" : strerror(errno);
		return -1;
	}
	struct stat now;
	if (fstat(fd, &now) != 0 || now.st_dev != st->st_dev || now.st_ino != st->st_ino) {
		close(fd);
		*why = "replaced by another file while being opened";
		return -1;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

/* A link into /proc: /proc/self/fd/N (or /dev/fd/N) is our own descriptor N, written
 * through a duplicate so that the shell's `>>` and offsets hold; any
 * other is opened in place, and a regular file behind it truncated. */
static int open_magic(const char *name, const char **why)
{
	int n, len = 0;
	if ((sscanf(name, "/proc/self/fd/%d%n", &n, &len) == 1 ||
	     sscanf(name, "/proc/thread-self/fd/%d%n", &n, &len) == 1 ||
	     sscanf(name, "/dev/fd/%d%n", &n, &len) == 1) && name[len] == '\0' && n >= 0) {
		int fl = fcntl(n, F_GETFL);
		if (fl >= 0 && (fl & O_ACCMODE) != O_RDONLY) {
			int fd = fcntl(n, F_DUPFD_CLOEXEC, 3);
			if (fd >= 0)
				return fd;
		}
	}
	int fd = open(name, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ftruncate(fd, 0) != 0) {
		close(fd);
		fd = -1;
	}
	if (fd < 0)
		*why = strerror(errno);
	return fd;
}

/* Create "TARGET.pct-tmp.XXXXXX" exclusively, with random X's, private
 * (0600) while it is written: outfile_commit gives it its mode, so a
 * reader who opens it early cannot keep reading what outfile_limit_to
 * makes private later. */
static int create_temp(const char *target, char **tmp)
{
	static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	for (int tries = 0; tries < 100; tries++) {
		unsigned char r[6];
		if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
			struct timespec t;
			clock_gettime(CLOCK_MONOTONIC, &t);
			unsigned long x = (unsigned long)t.tv_nsec * 2654435761u ^
					  (unsigned long)getpid() << 16 ^ (unsigned long)tries;
			for (size_t i = 0; i < sizeof r; i++, x >>= 6)
				r[i] = (unsigned char)x;
		}
		char suffix[7];
		for (size_t i = 0; i < sizeof r; i++)
			suffix[i] = abc[r[i] % (sizeof abc - 1)];
		suffix[6] = '\0';
		*tmp = xasprintf("%s" PCT_TMP_INFIX "%s", target, suffix);
		int fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0)
			return fd;
		int e = errno;
		free(*tmp);
		*tmp = NULL;
		errno = e;
		if (e != EEXIST)
			return -1;
	}
	return -1;
}

/* Create o's temporary beside name, watched (removed at exit or on a
 * fatal signal).  Its descriptor, or -1 with *reason. */
static int open_temp(struct outfile *o, const char *name, mode_t mode, const char **reason)
{
	watch_temps();
	int slot = 0, fd;
	while (slot < MAX_OPEN && temps[slot])
		slot++;
	if (slot == MAX_OPEN) {
		*reason = "too many files open at once";
		return -1;
	}
	if ((fd = create_temp(name, &o->tmp)) < 0) {
		*reason = strerror(errno);
		return -1;
	}
	o->mode = mode;  /* given at commit, less what outfile_limit_to drops */
	o->slot = slot;
	temps[slot] = o->tmp;
	return fd;
}

/* o's stream on fd, or the failure (fd < 0: reason). */
static int open_fp(struct outfile *o, int fd, const char *path, const char *reason, char *err, size_t errlen)
{
	if (fd < 0)
		return fail(err, errlen, "create", path, "%s", reason);
	o->path = xstrdup(path);
	struct stat now;
	if (fstat(fd, &now) == 0) {
		o->gid = now.st_gid;
		o->in_place_file = o->tmp == NULL && S_ISREG(now.st_mode);
	}
	o->fp = fdopen(fd, "w");
	if (o->fp == NULL) {
		int e = errno;
		close(fd);
		outfile_abort(o);
		return fail(err, errlen, "create", path, "%s", strerror(e));
	}
	return 0;
}

int outfile_open(struct outfile *o, const char *path, char *err, size_t errlen)
{
	memset(o, 0, sizeof *o);
	o->slot = -1;
	if (strcmp(path, "-") == 0) {
		/* -o -: standard output, written in place and left open */
		struct stat now;
		o->fp = stdout;
		o->is_stdout = 1;
		o->path = xstrdup("standard output");
		if (fstat(STDOUT_FILENO, &now) == 0) {
			o->gid = now.st_gid;
			o->in_place_file = S_ISREG(now.st_mode);
		}
		return 0;
	}
	struct stat st;
	int exists, magic, fd = -1;
	char why[PATH_MAX + 128];
	const char *reason = NULL;
	char *name = resolve(path, &st, &exists, &magic, why, sizeof why);
	if (name == NULL)
		return fail(err, errlen, "create", path, "%s", why);

	if (magic) {
		fd = open_magic(name, &reason);
	} else if (exists && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) && st.st_uid != geteuid() &&
		   st.st_uid != 0) {
		/* someone else's FIFO under the name: its reader is its owner */
		snprintf(why, sizeof why, "%s%s owned by uid %u, neither yours nor root's: not written to",
			 strcmp(name, path) ? "it leads to " : "", infile_kind(st.st_mode), (unsigned)st.st_uid);
		reason = why;
	} else if (exists && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
		fd = open_in_place(name, &st, &reason);
	} else if (exists && !S_ISREG(st.st_mode)) {
		snprintf(why, sizeof why, "%s%s; pct writes only regular files, character devices and FIFOs",
			 strcmp(name, path) ? "it leads to " : "", infile_kind(st.st_mode));
		reason = why;
	} else {
		mode_t mask = umask(0);
		umask(mask);
		if ((fd = open_temp(o, name, exists ? st.st_mode & 0777 : 0666 & ~mask, &reason)) >= 0) {
			o->target = name;
			name = NULL;
		}
	}
	free(name);
	return open_fp(o, fd, path, reason, err, errlen);
}

int outfile_open_new(struct outfile *o, const char *path, char *err, size_t errlen)
{
	memset(o, 0, sizeof *o);
	o->slot = -1;
	const char *reason = NULL;
	mode_t mask = umask(0);
	umask(mask);
	int fd = open_temp(o, path, 0666 & ~mask, &reason);
	return open_fp(o, fd, path, reason, err, errlen);
}

int outfile_limit_to(struct outfile *o, const struct stat *st, char *err, size_t errlen)
{
	mode_t drop = 0;
	if (!(st->st_mode & S_IROTH))
		drop |= S_IROTH;
	/* group read only for a member its group may read, and the same
	 * group (or one anyone may read) */
	if (!(st->st_mode & S_IRGRP) || (!(st->st_mode & S_IROTH) && st->st_gid != o->gid))
		drop |= S_IRGRP;
	o->drop |= drop;
	if (!o->in_place_file || drop == 0)
		return 0;
	/* the file behind /dev/stdout: as private as it can be made now */
	struct stat now;
	int fd = fileno(o->fp);
	if (fstat(fd, &now) != 0 || ((now.st_mode & drop) && fchmod(fd, now.st_mode & 07777 & ~drop) != 0))
		return fail(err, errlen, "write", o->path, "cannot make it as private as the files in it: %s",
			    strerror(errno));
	return 0;
}

/* Forget o's temporary (no longer to be removed at exit) and free o. */
static void release(struct outfile *o)
{
	if (o->slot >= 0)
		temps[o->slot] = NULL;
	free(o->tmp);
	free(o->target);
	free(o->path);
	memset(o, 0, sizeof *o);
	o->slot = -1;
}

int outfile_commit(struct outfile *o, char *err, size_t errlen)
{
	int e = 0;
	if (o->is_stdout) {
		e = stdout_error();
		if (e)
			fail(err, errlen, "write", o->path, "%s", strerror(e));
		release(o);
		return e ? -1 : 0;
	}
	if (fflush(o->fp) != 0 || ferror(o->fp))
		e = errno ? errno : EIO;
	else if (o->tmp && fchmod(fileno(o->fp), o->mode & ~o->drop) != 0)
		e = errno;
	else if (o->tmp && fsync(fileno(o->fp)) != 0)
		e = errno;
	if (fclose(o->fp) != 0 && e == 0)
		e = errno;
	o->fp = NULL;
	if (e == 0 && o->tmp) {
		/* the name may have been swapped for a device or FIFO meanwhile:
		 * still never replace one */
		struct stat st;
		if (lstat(o->target, &st) == 0 && !S_ISREG(st.st_mode)) {
			fail(err, errlen, "write", o->path, "'%s' became %s while being written; not replaced",
			     o->target, infile_kind(st.st_mode));
			outfile_abort(o);
			return -1;
		}
		if (rename(o->tmp, o->target) != 0)
			e = errno;
	}
	if (e) {
		fail(err, errlen, "write", o->path, "%s", strerror(e));
		outfile_abort(o);
		return -1;
	}
	release(o);
	return 0;
}

int outfile_commit_new(struct outfile *o, const char *name, char *err, size_t errlen)
{
	int e = 0;
	if (!o->flushed) {
		if (fflush(o->fp) != 0 || ferror(o->fp))
			e = errno ? errno : EIO;
		else if (fchmod(fileno(o->fp), o->mode & ~o->drop) != 0)
			e = errno;
		else if (fsync(fileno(o->fp)) != 0)
			e = errno;
		if (fclose(o->fp) != 0 && e == 0)
			e = errno;
		o->fp = NULL;
		o->flushed = 1;
	}
	if (e == 0 && link(o->tmp, name) != 0) {
		e = errno;
		if (e == EEXIST)
			return -1;
	}
	if (e) {
		fail(err, errlen, "write", name, "%s", strerror(e));
		outfile_abort(o);
		errno = e;
		return -1;
	}
	unlink(o->tmp);
	release(o);
	return 0;
}

void outfile_abort(struct outfile *o)
{
	if (o->fp && !o->is_stdout)
		fclose(o->fp);
	if (o->tmp)
		unlink(o->tmp);
	release(o);
}
