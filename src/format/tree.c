/* tree.c - see tree.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "outfile.h"
#include "tree.h"
#include "u64map.h"
#include "util.h"

static int fail(char *err, size_t errlen, const char *file, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(err, errlen, "'%s': ", file);
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < errlen)
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

int tree_magic(const void *buf, size_t len)
{
	return len >= PCT_MAGIC_LEN && memcmp(buf, PCT_TREE_MAGIC, PCT_MAGIC_LEN) == 0;
}

int tree_put(struct outfile *o, const struct tree_member *members, size_t n, uint32_t root_pid, uint64_t session,
	     char *err, size_t errlen)
{
	const char *path = o->path;
	struct pct_tree_header h;
	struct pct_tree_member *index = xcalloc(n, sizeof *index);
	unsigned char **z = xcalloc(n, sizeof *z);
	uint64_t at = sizeof h + n * sizeof *index;
	int rc = -1;

	for (size_t i = 0; i < n; i++) {
		uLongf len = compressBound((uLong)members[i].size);
		z[i] = xmalloc(len);
		if (compress2(z[i], &len, members[i].data, (uLong)members[i].size, Z_BEST_SPEED) != Z_OK) {
			snprintf(err, errlen, "cannot write '%s': zlib failed", path);
			goto out;
		}
		index[i] = (struct pct_tree_member){ .offset = at, .size = len, .raw_size = members[i].size,
						     .pid = members[i].pid, .encoding = PCT_TREE_ZLIB,
						     .run = members[i].run };
		at += len;
	}
	memset(&h, 0, sizeof h);
	memcpy(h.magic, PCT_TREE_MAGIC, PCT_MAGIC_LEN);
	h.version = PCT_TREE_VERSION;
	h.byte_order = PCT_BYTE_ORDER;
	h.header_size = sizeof h;
	h.members = (uint32_t)n;
	h.index_offset = sizeof h;
	h.file_size = at;
	h.member_size = sizeof *index;
	h.root_pid = root_pid;
	h.session = session;

	/* the runtime's modes, whatever the umask: 0644, or 0600 when a
	 * profile holds call stacks (copies of raw stack memory) */
	mode_t mode = 0644;
	for (size_t i = 0; i < n; i++)
		if (profile_file_mode(members[i].data, members[i].size) == 0600)
			mode = 0600;
	if (o->tmp && fchmod(fileno(o->fp), mode) != 0) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		goto out;
	}
	int ok = fwrite(&h, sizeof h, 1, o->fp) == 1 && fwrite(index, sizeof *index, n, o->fp) == n;
	for (size_t i = 0; ok && i < n; i++)
		ok = fwrite(z[i], 1, index[i].size, o->fp) == index[i].size;
	if (!ok) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (rc != 0)
		outfile_abort(o);
	for (size_t i = 0; i < n; i++)
		free(z[i]);
	free(z);
	free(index);
	return rc;
}

int tree_write(const char *path, const struct tree_member *members, size_t n, uint32_t root_pid,
	       uint64_t session, char *err, size_t errlen)
{
	struct outfile o;
	if (outfile_open(&o, path, err, errlen) != 0 ||
	    tree_put(&o, members, n, root_pid, session, err, errlen) != 0)
		return -1;
	return outfile_commit(&o, err, errlen);
}

/* Is [off, off + len) inside a file of size bytes? */
static int in_file(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

/* pwrite all of buf (len bytes) at off, skipping its all-zero pages (the
 * file reads as zeros there: a hole). */
static int write_nonzero(int fd, const unsigned char *buf, size_t len, uint64_t off)
{
	static const unsigned char zeros[PCT_PAGE];
	while (len > 0) {
		size_t k = PCT_PAGE - (size_t)(off % PCT_PAGE);   /* to the next page of the file */
		if (k > len)
			k = len;
		if (memcmp(buf, zeros, k) != 0)
			for (size_t done = 0; done < k;) {
				ssize_t w = pwrite(fd, buf + done, k - done, (off_t)(off + done));
				if (w < 0 && errno == EINTR)
					continue;
				if (w <= 0)
					return -1;
				done += (size_t)w;
			}
		buf += k;
		len -= k;
		off += k;
	}
	return 0;
}

/*
 * Inflate src (len bytes) into an anonymous file of exactly raw bytes (a
 * memfd: profile_read_fd reads it as a profile file), of which only what a
 * reader of the profile reads is kept (profile_spans: the header, the
 * regions it bounds, as far as they are used) and of that only the pages
 * that are not all zeros: a member costs the memory its used records
 * take, whatever it inflates to (a sample table of zeros, padding).  The
 * stream is inflated TREE_CHUNK bytes at a time.  Returns the descriptor,
 * or -1 with why set.
 */
#define TREE_CHUNK ((size_t)1 << 18)
static int inflate_member(const unsigned char *src, uint64_t len, uint64_t raw, const char **why)
{
	z_stream zs;
	memset(&zs, 0, sizeof zs);
	if (inflateInit(&zs) != Z_OK) {
		*why = "zlib cannot start";
		return -1;
	}
	int fd = memfd_create("pct-tree-member", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, (off_t)raw) != 0) {
		*why = strerror(errno);
		if (fd >= 0)
			close(fd);
		inflateEnd(&zs);
		return -1;
	}
	unsigned char *out = xmalloc(TREE_CHUNK);
	struct profile_span span[PROFILE_SPANS_MAX];
	size_t nspans = 0;             /* 0 until the header is whole */
	unsigned char head[sizeof(struct pct_header)];
	size_t nhead = 0, hlen = raw < sizeof head ? (size_t)raw : sizeof head;
	uint64_t have = 0, left = len;
	int z = Z_OK, failed = 0;
	zs.next_in = (unsigned char *)src;
	while (z == Z_OK && !failed) {
		if (zs.avail_in == 0) {
			uInt chunk = left > (1u << 30) ? (1u << 30) : (uInt)left;
			zs.avail_in = chunk;
			left -= chunk;
		}
		zs.next_out = out;
		zs.avail_out = (uInt)TREE_CHUNK;
		z = inflate(&zs, Z_NO_FLUSH);
		size_t got = TREE_CHUNK - zs.avail_out;
		if (got > raw - have) {        /* more output than raw_size */
			z = Z_DATA_ERROR;
			break;
		}
		if (nspans == 0) {
			/* until the header is whole (the first chunk, but for an
			 * odd stream), everything is kept */
			size_t k = got < hlen - nhead ? got : hlen - nhead;
			memcpy(head + nhead, out, k);
			nhead += k;
			if (write_nonzero(fd, out, got, have) != 0)
				failed = 1;
			if (nhead == hlen)
				nspans = profile_spans(head, nhead, raw, span);
		} else {
			for (size_t i = 0; i < nspans && !failed; i++) {
				/* the part of [have, have + got) inside span i */
				uint64_t lo = span[i].off > have ? span[i].off : have;
				uint64_t end = span[i].off + span[i].len, hi = end < have + got ? end : have + got;
				if (lo < hi && write_nonzero(fd, out + (lo - have), (size_t)(hi - lo), lo) != 0)
					failed = 1;
			}
		}
		have += got;
		if (z == Z_BUF_ERROR && (zs.avail_in || left))
			z = Z_OK;                      /* out of room: go on */
	}
	int ended = z == Z_STREAM_END && zs.avail_in == 0 && left == 0;
	inflateEnd(&zs);
	free(out);
	if (failed)
		*why = strerror(errno);
	else if (z != Z_STREAM_END)
		*why = z == Z_BUF_ERROR ? "its compressed data ends early" : "its compressed data is corrupt";
	else if (!ended)
		*why = "bytes follow its compressed data";
	else if (have != raw)
		*why = "it inflates to another size than its index says";
	else
		return fd;
	close(fd);
	return -1;
}

/* A member's stream in the file, for the overlap check. */
struct extent {
	uint64_t offset, size;
	uint32_t member;
};

static int cmp_extent(const void *pa, const void *pb)
{
	const struct extent *a = pa, *b = pb;
	if (a->offset != b->offset)
		return a->offset < b->offset ? -1 : 1;
	return a->member < b->member ? -1 : a->member > b->member;
}

/*
 * No two members' streams may share a byte, nor a stream the header's or
 * the index's: each byte of the file is then inflated once at most, and a
 * file costs in proportion to its size (zlib inflates a byte to 1032 at
 * most).  m: the members' (offset, size), in range of the file; index:
 * the index's.  -1 with err set naming the two.
 */
static int members_overlap(struct extent *m, uint32_t n, const struct extent *index, char *err, size_t errlen,
			   const char *file)
{
	const struct extent head = { 0, sizeof(struct pct_tree_header), 0 };
	sort(m, n, sizeof *m, cmp_extent);
	for (uint32_t i = 0; i < n; i++) {
		if (m[i].size == 0)
			continue;
		for (int k = 0; k < 2; k++) {
			const struct extent *r = k ? index : &head;
			if (m[i].offset < r->offset + r->size && r->offset < m[i].offset + m[i].size)
				return fail(err, errlen, file, "tree member %u (%llu bytes at offset %llu) overlaps the tree's "
					    "%s (%llu bytes at offset %llu)", m[i].member, (unsigned long long)m[i].size,
					    (unsigned long long)m[i].offset, k ? "index" : "header",
					    (unsigned long long)r->size, (unsigned long long)r->offset);
		}
		for (uint32_t j = i + 1; j < n && m[j].offset < m[i].offset + m[i].size; j++)
			if (m[j].size)
				return fail(err, errlen, file, "tree members %u and %u overlap (%llu bytes at offset %llu, "
					    "%llu at %llu): a corrupt index", m[i].member < m[j].member ? m[i].member : m[j].member,
					    m[i].member < m[j].member ? m[j].member : m[i].member,
					    (unsigned long long)m[i].size, (unsigned long long)m[i].offset,
					    (unsigned long long)m[j].size, (unsigned long long)m[j].offset);
	}
	return 0;
}

/* Every run from 0 to the largest must have a profile: -1 with err set
 * naming the first run without one. */
static int runs_gap(const struct profile *v, size_t n, char *err, size_t errlen, const char *file)
{
	unsigned char *seen = xcalloc(n ? n : 1, 1);
	uint32_t most = 0;
	for (size_t i = 0; i < n; i++) {
		if (v[i].run < n)
			seen[v[i].run] = 1;
		if (v[i].run + 1 > most)
			most = v[i].run + 1;
	}
	for (uint32_t r = 0; r < most && r < n; r++)
		if (!seen[r]) {
			free(seen);
			return fail(err, errlen, file, "the tree's run %u has no profile (runs 0 to %u)", r, most - 1);
		}
	free(seen);
	return 0;
}

/* tree_parse, and with rawsp, each member's inflated bytes in *rawsp
 * (malloc'd, as many as profiles) */
static int parse_tree(const char *file, const void *data, size_t size, struct profile **out, size_t *n,
		      struct tree_member **rawsp, char *err, size_t errlen)
{
	struct tree_member *raws = NULL;
	const unsigned char *buf = data;
	struct pct_tree_header h;
	*out = NULL;
	*n = 0;
	if (size < sizeof h)
		return fail(err, errlen, file, "only %zu bytes: too short for a pct tree header (%zu)", size, sizeof h);
	memcpy(&h, buf, sizeof h);
	if (!tree_magic(h.magic, sizeof h.magic))
		return fail(err, errlen, file, "not a pct tree (bad magic)");
	if (h.byte_order != PCT_BYTE_ORDER)
		return fail(err, errlen, file, "bad byte-order mark 0x%08x", h.byte_order);
	if (h.version != PCT_TREE_VERSION && h.version != 1)
		return fail(err, errlen, file, "tree format version %u; this pct reads versions 1 to %u", h.version,
			    PCT_TREE_VERSION);
	size_t msize = h.version == 1 ? PCT_TREE_MEMBER_V1_SIZE : sizeof(struct pct_tree_member);
	if (h.header_size != sizeof h)
		return fail(err, errlen, file, "bad tree header_size %u, expected %zu", h.header_size, sizeof h);
	if (h.file_size != size)
		return fail(err, errlen, file, "file is %zu bytes but its tree header says %llu (truncated or padded)",
			    size, (unsigned long long)h.file_size);
	if (h.member_size != msize)
		return fail(err, errlen, file, "tree member_size %u, expected %zu", h.member_size, msize);
	if (h.members == 0 || h.members > PCT_TREE_MEMBERS_MAX)
		return fail(err, errlen, file, "a tree of %u profiles (1 to %u)", h.members, PCT_TREE_MEMBERS_MAX);
	if (h.index_offset % 8 != 0 ||
	    !in_file(h.index_offset, (uint64_t)h.members * msize, size))
		return fail(err, errlen, file, "tree index (%u members at offset %llu) is unaligned or outside the file",
			    h.members, (unsigned long long)h.index_offset);
	/* every member's stream inside the file, and none overlapping another */
	struct extent *ext = xcalloc(h.members, sizeof *ext);
	for (uint32_t i = 0; i < h.members; i++) {
		struct pct_tree_member m = { 0 };
		memcpy(&m, buf + h.index_offset + (uint64_t)i * msize, msize);
		if (!in_file(m.offset, m.size, size)) {
			free(ext);
			return fail(err, errlen, file, "tree member %u (pid %u, %llu bytes at offset %llu): its data lies "
				    "outside the file", i, m.pid, (unsigned long long)m.size, (unsigned long long)m.offset);
		}
		ext[i] = (struct extent){ m.offset, m.size, i };
	}
	const struct extent index = { h.index_offset, (uint64_t)h.members * msize, 0 };
	int overlap = members_overlap(ext, h.members, &index, err, errlen, file);
	free(ext);
	if (overlap != 0)
		return -1;
	struct profile *v = xcalloc(h.members, sizeof *v);
	size_t got = 0;
	if (rawsp)
		raws = xcalloc(h.members, sizeof *raws);
	for (uint32_t i = 0; i < h.members; i++) {
		struct pct_tree_member m = { 0 };
		memcpy(&m, buf + h.index_offset + (uint64_t)i * msize, msize);
		if (m.run >= h.members || m.reserved != 0) {
			fail(err, errlen, file, "tree member %u: run %u of a tree of %u members, reserved %u", i, m.run,
			     h.members, m.reserved);
			goto bad;
		}
		const char *why = NULL;
		int fd = -1;
		if (m.encoding != PCT_TREE_ZLIB)
			why = "unknown encoding";
		else if (m.raw_size < PCT_HEADER_MIN || m.raw_size > PCT_TREE_RAW_MAX ||
			 m.raw_size / PCT_TREE_ZLIB_RATIO > m.size)
			why = "bad inflated size";
		else
			fd = inflate_member(buf + m.offset, m.size, m.raw_size, &why);
		if (fd < 0) {
			fail(err, errlen, file, "tree member %u (pid %u, %llu bytes at offset %llu, %llu inflated): %s", i,
			     m.pid, (unsigned long long)m.size, (unsigned long long)m.offset,
			     (unsigned long long)m.raw_size, why);
			goto bad;
		}
		char *name = h.members == 1 ? xstrdup(file) : xasprintf("%s:%u", file, m.pid);
		int rc = profile_read_fd(fd, m.raw_size, name, &v[got], err, errlen);
		void *compact = NULL;
		size_t len = 0;
		if (rc == 0 && raws) {
			rc = profile_compact_fd(fd, m.raw_size, name, &compact, &len, err, errlen);
			if (rc == 0)
				raws[got] = (struct tree_member){ .data = compact, .size = len, .pid = m.pid, .run = m.run };
			else
				profile_free(&v[got]);
		}
		free(name);
		close(fd);
		if (rc != 0)
			goto bad;
		v[got].run = m.run;
		got++;
	}
	if (runs_gap(v, got, err, errlen, file) != 0)
		goto bad;
	*out = v;
	*n = got;
	if (rawsp)
		*rawsp = raws;
	return 0;
bad:
	for (size_t i = 0; i < got; i++)
		profile_free(&v[i]);
	free(v);
	tree_members_free(raws, got);
	return -1;
}

int tree_parse(const char *file, const void *data, size_t size, struct profile **out, size_t *n, char *err,
	       size_t errlen)
{
	return parse_tree(file, data, size, out, n, NULL, err, errlen);
}

void tree_members_free(struct tree_member *m, size_t n)
{
	for (size_t i = 0; m && i < n; i++)
		free((void *)m[i].data);
	free(m);
}

static int read_tree_fd(int fd, uint64_t size, const char *file, struct profile **out, size_t *n,
			struct tree_member **raws, char *err, size_t errlen)
{
	if (size > SIZE_MAX / 2)
		return fail(err, errlen, file, "too large for this machine's memory (%llu bytes)",
			    (unsigned long long)size);
	char *buf = xmalloc(size ? (size_t)size : 1);
	for (size_t done = 0; done < size;) {
		ssize_t r = pread(fd, buf + done, (size_t)size - done, (off_t)done);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			int e = r < 0 ? errno : 0;
			free(buf);
			return fail(err, errlen, file, "cannot read: %s", e ? strerror(e) : "file shrank");
		}
		done += (size_t)r;
	}
	int rc = parse_tree(file, buf, (size_t)size, out, n, raws, err, errlen);
	free(buf);
	return rc;
}

int tree_read_fd(int fd, uint64_t size, const char *file, struct profile **out, size_t *n, char *err,
		 size_t errlen)
{
	return read_tree_fd(fd, size, file, out, n, NULL, err, errlen);
}

/* profiles_read, and with raws, each profile's bytes (tree_members_read) */
static int read_profiles(const char *file, struct profile **out, size_t *n, struct tree_member **raws, char *err,
			 size_t errlen)
{
	const char *shown;
	uint64_t size;
	*out = NULL;
	*n = 0;
	int fd = profile_open(file, &shown, &size, err, errlen);
	if (fd < 0)
		return -1;
	char magic[PCT_MAGIC_LEN];
	int rc;
	if (size >= sizeof magic && pread(fd, magic, sizeof magic, 0) == (ssize_t)sizeof magic &&
	    tree_magic(magic, sizeof magic)) {
		rc = read_tree_fd(fd, size, shown, out, n, raws, err, errlen);
	} else {
		*out = xcalloc(1, sizeof **out);
		rc = profile_read_fd(fd, size, shown, *out, err, errlen);
		if (rc == 0)
			*n = 1;
		else
			free(*out), *out = NULL;
		void *data = NULL;
		size_t len = 0;
		if (rc == 0 && raws) {
			rc = profile_compact_fd(fd, size, shown, &data, &len, err, errlen);
			if (rc == 0) {
				*raws = xcalloc(1, sizeof **raws);
				**raws = (struct tree_member){ .data = data, .size = len, .pid = (*out)->hdr.pid };
			} else {
				profile_free(*out);
				free(*out), *out = NULL;
				*n = 0;
			}
		}
	}
	/* who wrote them: the file's owner (pct archive's rule, pack.h) */
	struct stat st;
	if (rc == 0 && fstat(fd, &st) == 0)
		for (size_t i = 0; i < *n; i++)
			profile_set_owner(&(*out)[i], &st);
	close(fd);
	return rc;
}

int profiles_read(const char *file, struct profile **out, size_t *n, char *err, size_t errlen)
{
	return read_profiles(file, out, n, NULL, err, errlen);
}

int tree_members_read(const char *file, struct profile **out, struct tree_member **raws, size_t *n, char *err,
		      size_t errlen)
{
	return read_profiles(file, out, n, raws, err, errlen);
}

uint32_t profiles_runs(const struct profile *v, size_t n)
{
	uint32_t runs = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i].run + 1 > runs)
			runs = v[i].run + 1;
	return runs;
}

int tree_merge(const char *path, char *const *files, size_t nfiles, uint32_t *runs, size_t *members, char *err,
	       size_t errlen)
{
	struct tree_member *all = NULL;
	size_t n = 0, cap = 0;
	uint64_t base = 0;
	int rc = -1;
	struct u64map seen = { 0 };    /* profile_identity -> 1 + the file it came from */
	for (size_t f = 0; f < nfiles; f++) {
		struct profile *v;
		struct tree_member *raws;
		size_t k;
		if (tree_members_read(files[f], &v, &raws, &k, err, errlen) != 0)
			goto out;
		uint32_t r = profiles_runs(v, k);
		int dup = -1;
		uint32_t dup_pid = 0;
		for (size_t i = 0; i < k; i++) {
			uint64_t *at = u64map_slot(&seen, profile_identity(&v[i]));
			if (*at && dup < 0) {
				dup = (int)(*at - 1);
				dup_pid = v[i].hdr.pid;
			}
			*at = f + 1;
		}
		for (size_t i = 0; i < k; i++)
			profile_free(&v[i]);
		free(v);
		if (dup >= 0) {
			tree_members_free(raws, k);
			profile_twice_error(err, errlen, files[dup], files[f], dup_pid);
			goto out;
		}
		if (base + r > PCT_TREE_MEMBERS_MAX) {
			tree_members_free(raws, k);
			snprintf(err, errlen, "more than %u runs", PCT_TREE_MEMBERS_MAX);
			goto out;
		}
		for (size_t i = 0; i < k; i++) {
			grow(&all, &cap, n + 1, sizeof *all);
			all[n] = raws[i];
			all[n++].run += (uint32_t)base;
		}
		free(raws);   /* the data moved to all */
		base += r;
	}
	if (n > PCT_TREE_MEMBERS_MAX) {
		snprintf(err, errlen, "more than %u profiles", PCT_TREE_MEMBERS_MAX);
		goto out;
	}
	rc = tree_write(path, all, n, 0, 0, err, errlen);
	*runs = (uint32_t)base;
	*members = n;
out:
	tree_members_free(all, n);
	u64map_free(&seen);
	return rc;
}

int tree_file_runs(const char *file, uint32_t *runs, char *err, size_t errlen)
{
	const char *shown;
	uint64_t size;
	struct pct_tree_header h;
	*runs = 1;
	int fd = profile_open(file, &shown, &size, err, errlen);
	if (fd < 0)
		return -1;
	int rc = 0;
	if (size < sizeof h || pread(fd, &h, sizeof h, 0) != (ssize_t)sizeof h || !tree_magic(h.magic, sizeof h.magic) ||
	    h.version != PCT_TREE_VERSION) {
		close(fd);
		return 0;   /* a profile, a version 1 tree (one run), or what the full read refuses */
	}
	if (h.member_size != sizeof(struct pct_tree_member) || h.members == 0 ||
	    h.members > PCT_TREE_MEMBERS_MAX || h.index_offset % 8 != 0 ||
	    !in_file(h.index_offset, (uint64_t)h.members * sizeof(struct pct_tree_member), size)) {
		close(fd);
		return fail(err, errlen, shown, "bad tree header (version %u, %u members of %u bytes at offset %llu)",
			    h.version, h.members, h.member_size, (unsigned long long)h.index_offset);
	}
	struct pct_tree_member *m = xcalloc(h.members, sizeof *m);
	size_t len = (size_t)h.members * sizeof *m;
	if (pread(fd, m, len, (off_t)h.index_offset) != (ssize_t)len) {
		rc = fail(err, errlen, shown, "cannot read the tree index");
	} else {
		uint32_t most = 0;
		unsigned char *seen = xcalloc(h.members, 1);
		for (uint32_t i = 0; i < h.members && rc == 0; i++) {
			if (m[i].run >= h.members) {
				rc = fail(err, errlen, shown, "tree member %u: run %u of a tree of %u members", i, m[i].run,
					  h.members);
			} else {
				seen[m[i].run] = 1;
				if (m[i].run + 1 > most)
					most = m[i].run + 1;
			}
		}
		for (uint32_t r = 0; r < most && rc == 0; r++)
			if (!seen[r])
				rc = fail(err, errlen, shown, "the tree's run %u has no profile (runs 0 to %u)", r, most - 1);
		free(seen);
		*runs = most;
	}
	free(m);
	close(fd);
	return rc;
}
