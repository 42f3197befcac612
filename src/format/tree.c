/* tree.c - see tree.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* Inflate src (len bytes) into a new buffer of exactly raw bytes, grown as
 * the stream produces output (a member that claims more than it holds
 * costs no more memory than it inflates to).  NULL with why set. */
static void *inflate_member(const unsigned char *src, uint64_t len, uint64_t raw, const char **why)
{
	z_stream zs;
	memset(&zs, 0, sizeof zs);
	if (inflateInit(&zs) != Z_OK) {
		*why = "zlib cannot start";
		return NULL;
	}
	size_t cap = raw < (1u << 20) ? (size_t)raw : (1u << 20), have = 0;
	unsigned char *out = xmalloc(cap);
	int z = Z_OK;
	uint64_t left = len;
	zs.next_in = (unsigned char *)src;
	while (z == Z_OK) {
		if (zs.avail_in == 0) {
			uInt chunk = left > (1u << 30) ? (1u << 30) : (uInt)left;
			zs.avail_in = chunk;
			left -= chunk;
		}
		if (have == cap) {
			if (cap == raw) {              /* more output than raw_size */
				z = Z_DATA_ERROR;
				break;
			}
			cap = raw - cap < cap ? (size_t)raw : cap * 2;
			out = xrealloc(out, cap);
		}
		size_t room = cap - have > (1u << 30) ? (1u << 30) : cap - have;
		zs.next_out = out + have;
		zs.avail_out = (uInt)room;
		z = inflate(&zs, Z_NO_FLUSH);
		have += room - zs.avail_out;
		if (z == Z_BUF_ERROR && (zs.avail_in || left))
			z = Z_OK;                      /* out of room: grow */
	}
	int ended = z == Z_STREAM_END && zs.avail_in == 0 && left == 0;
	inflateEnd(&zs);
	if (z != Z_STREAM_END) {
		*why = z == Z_BUF_ERROR ? "its compressed data ends early" : "its compressed data is corrupt";
	} else if (!ended) {
		*why = "bytes follow its compressed data";
	} else if (have != raw) {
		*why = "it inflates to another size than its index says";
	} else {
		return out;
	}
	free(out);
	return NULL;
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
		void *raw = NULL;
		if (m.encoding != PCT_TREE_ZLIB)
			why = "unknown encoding";
		else if (!in_file(m.offset, m.size, size))
			why = "its data lies outside the file";
		else if (m.raw_size < PCT_HEADER_MIN || m.raw_size > PCT_TREE_RAW_MAX || m.raw_size > SIZE_MAX / 2)
			why = "bad inflated size";
		else
			raw = inflate_member(buf + m.offset, m.size, m.raw_size, &why);
		if (raw == NULL) {
			fail(err, errlen, file, "tree member %u (pid %u, %llu bytes at offset %llu, %llu inflated): %s", i,
			     m.pid, (unsigned long long)m.size, (unsigned long long)m.offset,
			     (unsigned long long)m.raw_size, why);
			goto bad;
		}
		char *name = h.members == 1 ? xstrdup(file) : xasprintf("%s:%u", file, m.pid);
		int rc = profile_parse(name, raw, (size_t)m.raw_size, &v[got], err, errlen);
		free(name);
		if (rc == 0 && raws) {
			raws[got] = (struct tree_member){ .data = raw, .size = (size_t)m.raw_size, .pid = m.pid,
							  .run = m.run };
			raw = NULL;
		}
		free(raw);
		if (rc != 0)
			goto bad;
		v[got].run = m.run;
		got++;
		/* the stacks point into the inflated copy: keep none (parse
		 * copies them into its own mapping) */
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
