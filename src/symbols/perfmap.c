/*
 * perfmap.c - see perfmap.h.
 *
 * Limits: a map is read only if it has at most PERFMAP_SIZE_MAX (256 MiB)
 * bytes and every line at most PERFMAP_LINE_MAX (65,536) bytes; names are
 * kept in one buffer of the file's size, never in fixed buffers.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "infile.h"
#include "perfmap.h"
#include "util.h"

struct pm_line {
	uint64_t start, end;           /* [start, end) */
	const char *name;              /* in text */
	size_t line;                   /* 1-based line number: later lines win */
};

/* A range of addresses that one line names (the last line covering it). */
struct pm_seg {
	uint64_t lo, hi;
	size_t ent;                    /* index in lines */
};

struct perfmap {
	char *text;                    /* the file, its newlines made NULs */
	struct pm_line *lines;
	size_t nlines;
	struct pm_seg *segs;           /* sorted, disjoint */
	size_t nsegs;
};

void perfmap_free(struct perfmap *m)
{
	if (m == NULL)
		return;
	free(m->text);
	free(m->lines);
	free(m->segs);
	free(m);
}

/* A hex number at *s (an optional 0x, 1 to 16 digits) into *v; moves *s
 * past it.  -1 if there is none or it passes 64 bits. */
static int hex_field(const char **s, uint64_t *v)
{
	const char *p = *s;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	uint64_t n = 0;
	size_t digits = 0;
	for (;; p++, digits++) {
		int d;
		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (*p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else if (*p >= 'A' && *p <= 'F')
			d = *p - 'A' + 10;
		else
			break;
		if (digits == 16)
			return -1;
		n = n << 4 | (uint64_t)d;
	}
	if (digits == 0)
		return -1;
	*v = n;
	*s = p;
	return 0;
}

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* Parse the NUL-terminated line l (number no) into *e; NULL, or what is wrong. */
static const char *parse_line(const char *l, size_t no, struct pm_line *e)
{
	uint64_t start, size;
	const char *p = l;
	if (hex_field(&p, &start) != 0)
		return "no hex START";
	if (*p != ' ' && *p != '\t')
		return "START not followed by a space";
	p = skip_blanks(p);
	if (hex_field(&p, &size) != 0)
		return "no hex SIZE after START";
	if (*p != ' ' && *p != '\t' && *p != '\0')
		return "SIZE not followed by a space";
	p = skip_blanks(p);
	if (*p == '\0')
		return "no NAME after START and SIZE";
	if (start + size < start)
		return "START + SIZE passes 2^64";
	*e = (struct pm_line){ start, start + size, p, no };
	return NULL;
}

static int cmp_start(const void *pa, const void *pb)
{
	const struct pm_line *a = pa, *b = pb;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->line < b->line ? -1 : a->line > b->line;
}

static int cmp_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
	return a < b ? -1 : a > b;
}

/* A max-heap of line indices, by line number. */
struct heap {
	size_t *v, n, cap;
	const struct pm_line *lines;
};

static int above(const struct heap *h, size_t i, size_t j)
{
	return h->lines[h->v[i]].line > h->lines[h->v[j]].line;
}

static void swap(size_t *a, size_t *b)
{
	size_t t = *a;
	*a = *b;
	*b = t;
}

static void heap_push(struct heap *h, size_t x)
{
	grow(&h->v, &h->cap, h->n + 1, sizeof *h->v);
	size_t i = h->n++;
	h->v[i] = x;
	for (; i > 0 && above(h, i, (i - 1) / 2); i = (i - 1) / 2)
		swap(&h->v[i], &h->v[(i - 1) / 2]);
}

static void heap_pop(struct heap *h)
{
	h->v[0] = h->v[--h->n];
	for (size_t i = 0;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < h->n && above(h, l, m))
			m = l;
		if (r < h->n && above(h, r, m))
			m = r;
		if (m == i)
			break;
		swap(&h->v[i], &h->v[m]);
		i = m;
	}
}

/* Cut the address space at every start and end, and give each piece
 * the last line covering it: a sweep over the pieces with a heap of the
 * lines begun so far, the latest on top (ended ones dropped when on top). */
static void build_segments(struct perfmap *m)
{
	sort(m->lines, m->nlines, sizeof *m->lines, cmp_start);
	uint64_t *cut = xmalloc((2 * m->nlines + 1) * sizeof *cut);
	size_t ncut = 0;
	for (size_t i = 0; i < m->nlines; i++) {
		cut[ncut++] = m->lines[i].start;
		cut[ncut++] = m->lines[i].end;
	}
	sort(cut, ncut, sizeof *cut, cmp_u64);
	size_t k = 0;
	for (size_t i = 0; i < ncut; i++)
		if (k == 0 || cut[k - 1] != cut[i])
			cut[k++] = cut[i];
	ncut = k;
	struct heap h = { .lines = m->lines };
	size_t next = 0, cap = 0;
	for (size_t i = 0; i + 1 < ncut; i++) {
		while (next < m->nlines && m->lines[next].start == cut[i])
			heap_push(&h, next++);
		while (h.n && m->lines[h.v[0]].end <= cut[i])
			heap_pop(&h);
		if (h.n == 0)
			continue;
		size_t top = h.v[0];
		struct pm_seg *last = m->nsegs ? &m->segs[m->nsegs - 1] : NULL;
		if (last && last->ent == top && last->hi == cut[i]) {
			last->hi = cut[i + 1];
			continue;
		}
		grow(&m->segs, &cap, m->nsegs + 1, sizeof *m->segs);
		m->segs[m->nsegs++] = (struct pm_seg){ cut[i], cut[i + 1], top };
	}
	free(h.v);
	free(cut);
}

/* Read all of fd (a regular file of size bytes as fstat saw it) into a
 * NUL-terminated buffer; NULL with *why set if it is or grows too big. */
static char *read_all(int fd, const char *path, size_t *len, char **why)
{
	size_t cap = 65536, n = 0;
	char *buf = xmalloc(cap + 1);
	for (;;) {
		if (n == cap) {
			if (cap >= PERFMAP_SIZE_MAX) {
				*why = xasprintf("'%s' is bigger than the limit of %u bytes", path, PERFMAP_SIZE_MAX);
				free(buf);
				return NULL;
			}
			cap = cap * 2 > PERFMAP_SIZE_MAX ? PERFMAP_SIZE_MAX : cap * 2;
			buf = xrealloc(buf, cap + 1);
		}
		ssize_t r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			*why = xasprintf("cannot read '%s': %s", path, strerror(errno));
			free(buf);
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

struct perfmap *perfmap_load(const char *path, char **why)
{
	struct stat st;
	const char *reason;
	*why = NULL;
	int fd = infile_open(path, 1, &st, &reason);
	if (fd < 0) {
		*why = xasprintf("cannot open '%s': %s", path, reason);
		return NULL;
	}
	if (st.st_uid != geteuid() && st.st_uid != 0) {
		*why = xasprintf("'%s' is owned by uid %u, neither this user nor root", path, (unsigned)st.st_uid);
		close(fd);
		return NULL;
	}
	if ((uint64_t)st.st_size > PERFMAP_SIZE_MAX) {
		*why = xasprintf("'%s' has %llu bytes, more than the limit of %u", path,
				 (unsigned long long)st.st_size, PERFMAP_SIZE_MAX);
		close(fd);
		return NULL;
	}
	size_t len;
	char *text = read_all(fd, path, &len, why);
	close(fd);
	if (text == NULL)
		return NULL;
	struct perfmap *m = xcalloc(1, sizeof *m);
	m->text = text;
	size_t cap = 0, no = 0;
	for (char *l = text; l < text + len; no++) {
		char *nl = memchr(l, '\n', (size_t)(text + len - l));
		char *end = nl ? nl : text + len;
		const char *bad = NULL;
		struct pm_line e;
		if ((size_t)(end - l) > PERFMAP_LINE_MAX)
			bad = "longer than the limit of " STR(PERFMAP_LINE_MAX) " bytes";
		else if (memchr(l, '\0', (size_t)(end - l)))
			bad = "holds a NUL byte";
		*end = '\0';
		if (bad == NULL && l[0] != '\0' && (bad = parse_line(l, no + 1, &e)) == NULL && e.end > e.start) {
			grow(&m->lines, &cap, m->nlines + 1, sizeof *m->lines);
			m->lines[m->nlines++] = e;
		}
		if (bad) {
			*why = xasprintf("'%s' line %zu: %s (want 'START SIZE NAME', START and SIZE in hex)", path,
					 no + 1, bad);
			perfmap_free(m);
			return NULL;
		}
		l = end + 1;
	}
	build_segments(m);
	return m;
}

int perfmap_lookup(const struct perfmap *m, uint64_t addr, const char **name, uint64_t *start, uint64_t *end)
{
	size_t lo = 0, hi = m->nsegs;
	while (lo < hi) {   /* the first segment starting after addr */
		size_t mid = lo + (hi - lo) / 2;
		if (m->segs[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || addr >= m->segs[lo - 1].hi)
		return -1;
	const struct pm_line *e = &m->lines[m->segs[lo - 1].ent];
	*name = e->name;
	*start = e->start;
	*end = e->end;
	return 0;
}

/* Does s (n bytes) end in "perf-DIGITS.map"? */
static int ends_in_map_name(const char *s, size_t n)
{
	if (n < 10 || memcmp(s + n - 4, ".map", 4) != 0)
		return 0;
	size_t d = n - 4;
	while (d > 0 && s[d - 1] >= '0' && s[d - 1] <= '9')
		d--;
	return d < n - 4 && d >= 5 && memcmp(s + d - 5, "perf-", 5) == 0 ? (int)(d - 5 + 1) : 0;
}

int perfmap_is_name(const char *path)
{
	const char *base = path_base(path);
	int at = ends_in_map_name(base, strlen(base));   /* 1 + where "perf-" starts */
	return at == 1 || (at > 1 && base[at - 2] == '.');
}

char *perfmap_tmp_name(uint32_t pid)
{
	return xasprintf("/tmp/perf-%u.map", pid);
}

char *perfmap_copy_name(const char *file, uint32_t pid)
{
	size_t len = strlen(file);
	if (len > 4 && strcmp(file + len - 4, ".pct") == 0)
		len -= 4;
	return xasprintf("%.*s.perf-%u.map", (int)len, file, pid);
}

/* Is the map at path plausibly that of a process that started sampling
 * at start_ns?  NULL if so, else a static phrase saying why not. */
static const char *implausible(const char *path, int64_t start_ns)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return errno == ENOENT ? "does not exist" : strerror(errno);
	if (!S_ISREG(st.st_mode))
		return S_ISLNK(st.st_mode) ? "is a symbolic link, not a regular file" : "is not a regular file";
	if (st.st_uid != geteuid() && st.st_uid != 0)
		return "is owned by another user";
	int64_t mtime = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	if (mtime < start_ns - PERFMAP_CLOCK_SLACK_NS)
		return "was last modified before the profile started (another process's)";
	return NULL;
}

/* The length of file's stem if it is named like a tree's profile,
 * "STEM.PID.pct" or "STEM.PID.K.pct"; else 0. */
static size_t tree_stem(const char *file)
{
	size_t len = strlen(file);
	if (len <= 4 || strcmp(file + len - 4, ".pct") != 0)
		return 0;
	len -= 4;
	for (int part = 0; part < 2; part++) {
		size_t d = len;
		while (d > 0 && file[d - 1] >= '0' && file[d - 1] <= '9')
			d--;
		if (d == len || d < 2 || file[d - 1] != '.')
			return part ? len : 0;
		len = d - 1;
	}
	return len;
}

char *perfmap_path(const char *name, uint32_t pid, int64_t start_ns, char **why)
{
	/* a member of a tree file is named "FILE:PID" (tree.h): the copy is
	 * beside FILE */
	size_t len = strlen(name), digits = 0;
	while (digits < len && name[len - 1 - digits] >= '0' && name[len - 1 - digits] <= '9')
		digits++;
	char *file = digits && digits < len && name[len - 1 - digits] == ':' ? xasprintf("%.*s", (int)(len - 1 - digits), name)
									       : xstrdup(name);
	char *cands[2] = { perfmap_copy_name(file, pid), NULL };
	size_t stem = tree_stem(file);
	if (stem)
		cands[1] = xasprintf("%.*s.perf-%u.map", (int)stem, file, pid);
	char *found = NULL;
	for (int i = 0; i < 2 && found == NULL; i++)
		if (cands[i] && implausible(cands[i], start_ns) == NULL)
			found = realpath(cands[i], NULL);
	free(cands[0]);
	free(cands[1]);
	free(file);
	if (found)
		return found;
	char *tmp = perfmap_tmp_name(pid);
	const char *bad = implausible(tmp, start_ns);
	if (bad == NULL)
		return tmp;
	*why = xasprintf("'%s' %s, and no copy of it is beside the profile", tmp, bad);
	free(tmp);
	return NULL;
}

/* Copy fd's bytes (at most PERFMAP_SIZE_MAX) to out; 0, or -1 with errno. */
static int copy_fd(int fd, int out)
{
	char buf[65536];
	uint64_t total = 0;
	for (;;) {
		ssize_t r = read(fd, buf, sizeof buf);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			return 0;
		if ((total += (uint64_t)r) > PERFMAP_SIZE_MAX) {
			errno = EFBIG;
			return -1;
		}
		for (ssize_t w = 0; w < r;) {
			ssize_t k = write(out, buf + w, (size_t)(r - w));
			if (k < 0 && errno == EINTR)
				continue;
			if (k < 0)
				return -1;
			w += k;
		}
	}
}

int perfmap_keep(const char *file, uint32_t pid, int64_t start_ns, char **why)
{
	char *src = perfmap_tmp_name(pid), *dst = NULL;
	struct stat st;
	const char *reason;
	int rc = 0, out = -1;
	int fd = infile_open(src, 1, &st, &reason);
	if (fd < 0) {
		if (errno != ENOENT)
			rc = -1, *why = xasprintf("'%s' not kept: %s", src, reason);
		goto done;
	}
	int64_t mtime = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	if (mtime < start_ns - PERFMAP_CLOCK_SLACK_NS)
		goto done;                     /* an earlier process's */
	if (st.st_uid != geteuid()) {
		rc = -1, *why = xasprintf("'%s' not kept: owned by uid %u, not by this run's user", src,
					  (unsigned)st.st_uid);
		goto done;
	}
	if ((uint64_t)st.st_size > PERFMAP_SIZE_MAX) {
		rc = -1, *why = xasprintf("'%s' not kept: %llu bytes, more than the limit of %u", src,
					  (unsigned long long)st.st_size, PERFMAP_SIZE_MAX);
		goto done;
	}
	dst = perfmap_copy_name(file, pid);
	for (int tries = 0; tries < 2; tries++) {
		out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0666);
		struct stat old;
		/* an older copy of ours, from an earlier run whose process had the same pid */
		if (out < 0 && errno == EEXIST && lstat(dst, &old) == 0 && S_ISREG(old.st_mode) &&
		    old.st_uid == geteuid() &&
		    (int64_t)old.st_mtim.tv_sec * 1000000000 + old.st_mtim.tv_nsec < start_ns - PERFMAP_CLOCK_SLACK_NS &&
		    unlink(dst) == 0)
			continue;
		break;
	}
	if (out < 0) {
		rc = -1, *why = xasprintf("cannot keep '%s' as '%s': %s", src, dst, strerror(errno));
		goto done;
	}
	int bad = copy_fd(fd, out), err = errno;
	if (close(out) != 0 && bad == 0)
		bad = -1, err = errno;
	if (bad) {
		unlink(dst);
		rc = -1, *why = xasprintf("cannot keep '%s' as '%s': %s", src, dst, strerror(err));
	} else {
		rc = 1;
	}
done:
	if (fd >= 0)
		close(fd);
	free(src);
	free(dst);
	return rc;
}
