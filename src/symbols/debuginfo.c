/*
 * debuginfo.c - see debuginfo.h.
 */
#define _GNU_SOURCE
#include <elfutils/debuginfod.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libgen.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "debuginfo.h"
#include "infile.h"
#include "modfile.h"
#include "u64map.h"
#include "util.h"

#define DEBUG_ROOT "/usr/lib/debug"
#define BUILD_ID_BYTES_MAX 64

/* What debuginfod said about one build-id and kind of file in this run:
 * the file it gave, or NULL. */
enum kind { DEBUGINFO, EXECUTABLE };
struct asked {
	uint8_t id[BUILD_ID_BYTES_MAX];
	size_t len;
	enum kind kind;
	char *path;
};

static struct asked *asked;
static size_t nasked, capasked;
static debuginfod_client *client;
static double budget;                  /* seconds left for debuginfod */
static int budget_read;                /* budget was set from the environment */
static double deadline;                /* CLOCK_MONOTONIC at which the query under way gives up */
static long maxsize;                   /* bytes a file from debuginfod may have; 0: no bound */
static int oversize;                   /* the query under way was abandoned for its size */
static struct u64map warned;           /* hashes of the files whose compressed sections were refused */

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int no_find_elf(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		       char **file_name, Elf **elfp)
{
	(void)mod, (void)userdata, (void)modname, (void)base, (void)file_name, (void)elfp;
	return -1;
}

/* CRC-32 of the whole file at fd, as .gnu_debuglink records it. */
static int file_crc(int fd, uint32_t *crc)
{
	unsigned char buf[65536];
	uLong c = crc32(0, Z_NULL, 0);
	for (off_t off = 0;;) {
		ssize_t n = pread(fd, buf, sizeof buf, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		c = crc32(c, buf, (uInt)n);
		off += n;
	}
	*crc = (uint32_t)c;
	return 0;
}

/*
 * Open path if it is a regular file other than the module's own (self),
 * whose build-id is id (len > 0) or, without one, whose CRC is crc (if
 * nonzero), as elfutils checks them.  On success *name is a copy of path.
 */
/* A file that exists but cannot be opened for want of descriptors or
 * memory is not "no debug file": say so, with errno's words (once a run,
 * since every later module would say the same). */
static void open_failed(const char *path, const char *why)
{
	static int said;
	if ((errno == EMFILE || errno == ENFILE || errno == ENOMEM) && !said) {
		said = 1;
		warnx_("cannot open '%s': %s; debug information may be missing", path, why);
	}
}

/*
 * What a compressed section claims it inflates to: an SHF_COMPRESSED
 * section's ch_size (Elf64_Chdr/Elf32_Chdr), or a GNU .zdebug_ section's
 * 8-byte big-endian size after "ZLIB"; 0 for a section not compressed.
 * Only the header is read.
 */
static uint64_t section_claim(Elf_Scn *scn, const GElf_Shdr *sh, const char *name)
{
	if (sh->sh_type == SHT_NOBITS)
		return 0;
	if (sh->sh_flags & SHF_COMPRESSED) {
		GElf_Chdr ch;
		return gelf_getchdr(scn, &ch) ? ch.ch_size : 0;
	}
	Elf_Data *d;
	if (name == NULL || strncmp(name, ".zdebug", 7) != 0 || (d = elf_rawdata(scn, NULL)) == NULL ||
	    d->d_buf == NULL || d->d_size < 12 || memcmp(d->d_buf, "ZLIB", 4) != 0)
		return 0;
	const unsigned char *b = (const unsigned char *)d->d_buf + 4;
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | b[i];
	return v;
}

/*
 * What is wrong with the compressed sections of elf (the file path) as
 * debuginfo.h bounds them, or NULL: the message names the file and the
 * section that passes the bound.  Malloc'd.
 */
static char *claims_problem(Elf *elf, const char *path)
{
	size_t size = 0, shstrndx;
	if (elf_rawfile(elf, &size) == NULL || elf_getshdrstrndx(elf, &shstrndx) != 0)
		return NULL;
	uint64_t total = 0, limit = (uint64_t)size * DEBUGINFO_INFLATE_RATIO;
	for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) == NULL)
			continue;
		const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
		uint64_t c = section_claim(scn, &sh, name);
		if (c == 0)
			continue;
		if (c > DEBUGINFO_INFLATE_MAX)
			return xasprintf("'%s': compressed section %zu (%s) claims to inflate to %llu bytes, more than "
					 "4 GiB", path, elf_ndxscn(scn), name ? name : "?", (unsigned long long)c);
		total += c;
		if (total > limit)
			return xasprintf("'%s': compressed section %zu (%s) claims to inflate to %llu bytes, the "
					 "file's compressed sections to %llu in all, more than %d times the file's %zu bytes",
					 path, elf_ndxscn(scn), name ? name : "?", (unsigned long long)c,
					 (unsigned long long)total, DEBUGINFO_INFLATE_RATIO, size);
	}
	return NULL;
}

/* Say problem, once a run for each file (a module is opened again when
 * it was closed for others, and by the unwinder); free it. */
static void claims_warn(const char *path, char *problem)
{
	uint64_t *w = u64map_slot(&warned, fnv1a(FNV1A_BASIS, path, strlen(path)));
	if (*w == 0)
		warnx_("%s: its debug information is not read", problem);
	*w = 1;
	free(problem);
}

/* May libdw open the DWARF of the file at fd (named name)?  If not,
 * say why (once), close fd and free *name. */
static int claims_ok(int fd, char **name)
{
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	char *problem = elf ? claims_problem(elf, *name) : NULL;
	elf_end(elf);
	if (problem == NULL)
		return 1;
	claims_warn(*name, problem);
	close(fd);
	free(*name);
	*name = NULL;
	return 0;
}

static int try_file(const char *path, const struct stat *self, const uint8_t *id, size_t len, uint32_t crc,
		    char **name)
{
	struct stat st;
	const char *why;
	uint32_t got;
	int fd = infile_open(path, 0, &st, &why);
	if (fd < 0) {
		open_failed(path, why);
		return -1;
	}
	if ((self && st.st_dev == self->st_dev && st.st_ino == self->st_ino) ||
	    (len > 0 ? !modfile_build_id_is(fd, id, len) : crc != 0 && (file_crc(fd, &got) != 0 || got != crc))) {
		close(fd);
		return -1;
	}
	*name = xstrdup(path);
	return fd;
}

/* id (len bytes, at most BUILD_ID_BYTES_MAX) in hex, in hex[2 * len + 1]. */
static char *id_hex(const uint8_t *id, size_t len, char *hex)
{
	for (size_t i = 0; i < len; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	hex[2 * len] = '\0';
	return hex;
}

static char *build_id_path(const uint8_t *id, size_t len)
{
	char hex[2 * BUILD_ID_BYTES_MAX + 1];
	id_hex(id, len, hex);
	return xasprintf(DEBUG_ROOT "/.build-id/%.2s/%s.debug", hex, hex + 2);
}

/* libdebuginfod calls it about once a second, and as data arrives: a is
 * the bytes received once a server answers (before that, a count of
 * calls), b the size the server announced (Content-Length), or 0 if it
 * announced none.  libdebuginfod refuses an announced size over
 * DEBUGINFOD_MAXSIZE itself; an answer without one is abandoned here once
 * it passes that size. */
static int progress(debuginfod_client *c, long a, long b)
{
	(void)c, (void)b;
	if (maxsize > 0 && a > maxsize) {
		oversize = 1;
		return 1;
	}
	return now() >= deadline;      /* nonzero: give up */
}

/* The answers are kept for the whole run (symtab_free_all may come
 * between two lookups of a build-id): released at exit. */
static void debuginfo_end(void)
{
	for (size_t i = 0; i < nasked; i++)
		free(asked[i].path);
	free(asked);
	if (client)
		debuginfod_end(client);
}

/* Read $PCT_DEBUGINFOD_TIMEOUT into budget, once a run. */
static void budget_init(void)
{
	if (budget_read)
		return;
	budget_read = 1;
	atexit(debuginfo_end);
	const char *s = getenv("PCT_DEBUGINFOD_TIMEOUT");
	char *end;
	budget = s && *s ? strtod(s, &end) : DEBUGINFO_TIMEOUT_DEFAULT;
	if (s && *s && (*end || !(budget >= 0))) {
		/* a library does not exit: the safe reading is no network */
		warnx_("PCT_DEBUGINFOD_TIMEOUT wants a number of seconds, not '%s': no debuginfod server is asked", s);
		budget = 0;
	}
	/* libdebuginfod reads DEBUGINFOD_MAXSIZE at each query (atol: a
	 * value that is not a number would be 0, no bound) */
	const char *m = getenv(DEBUGINFOD_MAXSIZE_ENV_VAR);
	long long v = -1;
	if (m && *m) {
		errno = 0;
		v = strtoll(m, &end, 10);
		if (*end || errno || v < 0 || v > LONG_MAX) {
			warnx_(DEBUGINFOD_MAXSIZE_ENV_VAR " wants a number of bytes, not '%s': %s bytes are fetched at most",
			       m, STR(DEBUGINFO_MAXSIZE_DEFAULT));
			v = -1;
		}
	}
	if (v < 0)
		setenv(DEBUGINFOD_MAXSIZE_ENV_VAR, STR(DEBUGINFO_MAXSIZE_DEFAULT), 1);
	maxsize = v < 0 ? DEBUGINFO_MAXSIZE_DEFAULT : (long)v;
}

/* Remove path, a file of debuginfod's cache that pct refused, and its
 * build-id's directory if that is then empty, so that what a server sent
 * does not stay there. */
static void uncache(const char *path)
{
	struct stat sb;
	if (lstat(path, &sb) != 0 || unlink(path) != 0)
		return;
	char *copy = xstrdup(path);
	rmdir(dirname(copy));
	free(copy);
}

/* debuginfod's file of that kind for id, asked at most once per run and
 * within the run's budget of waiting; *name is a copy of its path. */
static int ask_debuginfod(const uint8_t *id, size_t len, enum kind kind, char **name)
{
	struct asked *a = NULL;
	if (len == 0 || len > BUILD_ID_BYTES_MAX)
		return -1;
	for (size_t i = 0; i < nasked && a == NULL; i++)
		if (asked[i].kind == kind && asked[i].len == len && memcmp(asked[i].id, id, len) == 0)
			a = &asked[i];
	if (a) {
		const char *why;
		int fd = a->path ? infile_open(a->path, 0, NULL, &why) : -1;
		if (fd >= 0)
			*name = xstrdup(a->path);
		return fd;
	}
	budget_init();
	const char *urls = getenv("DEBUGINFOD_URLS");
	if (budget <= 0 || urls == NULL || *urls == '\0')
		return -1;
	/* libdebuginfod retries a failed query twice by default: one request
	 * per build-id is what we promise, unless the user asked otherwise */
	setenv(DEBUGINFOD_RETRY_LIMIT_ENV_VAR, "0", 0);
	if (client == NULL && (client = debuginfod_begin()) == NULL)
		return -1;
	debuginfod_set_progressfn(client, progress);
	grow(&asked, &capasked, nasked + 1, sizeof *asked);
	a = &asked[nasked++];
	memset(a, 0, sizeof *a);
	memcpy(a->id, id, len);
	a->len = len;
	a->kind = kind;
	double start = now();
	deadline = start + budget;
	oversize = 0;
	char *path = NULL;
	int fd = kind == EXECUTABLE ? debuginfod_find_executable(client, id, (int)len, &path)
				    : debuginfod_find_debuginfo(client, id, (int)len, &path);
	budget -= now() - start;
	const char *what = kind == EXECUTABLE ? "executable" : "debug file";
	char hex[2 * BUILD_ID_BYTES_MAX + 1];
	struct stat sb;
	if (fd == -EFBIG || (fd < 0 && oversize)) {
		/* libdebuginfod removed what it had received */
		warnx_("debuginfod: the %s of build-id %s is larger than " DEBUGINFOD_MAXSIZE_ENV_VAR " (%ld bytes): "
		       "not fetched", what, id_hex(id, len, hex), maxsize);
		free(path);
		return -1;
	}
	if (fd < 0) {
		free(path);
		return -1;
	}
	/* A file in debuginfod's cache.  One over the budget (it finished
	 * arriving before the progress callback looked, or was cached by an
	 * earlier run) or of another build would stay there for good: it is
	 * removed. */
	int big = fstat(fd, &sb) == 0 && maxsize > 0 && sb.st_size > maxsize;
	int other = !big && !modfile_build_id_is(fd, id, len);
	close(fd);
	if (big || other) {
		if (big)
			warnx_("debuginfod: the %s of build-id %s is larger than " DEBUGINFOD_MAXSIZE_ENV_VAR
			       " (%ld bytes): removed from its cache", what, id_hex(id, len, hex), maxsize);
		else
			warnx_("debuginfod: the %s sent for build-id %s is not that build: removed from its cache", what,
			       id_hex(id, len, hex));
		uncache(path);
		free(path);
		return -1;
	}
	/* check it is a regular file all the same, as every file found */
	fd = try_file(path, NULL, id, len, 0, name);
	if (fd >= 0)
		a->path = path;
	else
		free(path);
	return fd;
}

int debuginfo_find_executable(const uint8_t *build_id, size_t len, const char **path)
{
	char *name = NULL;
	int fd = ask_debuginfod(build_id, len, EXECUTABLE, &name);
	if (fd < 0)
		return -1;
	free(name);
	/* the table's copy lives for the run */
	for (size_t i = 0; i < nasked; i++)
		if (asked[i].kind == EXECUTABLE && asked[i].len == len && memcmp(asked[i].id, build_id, len) == 0 &&
		    asked[i].path) {
			*path = asked[i].path;
			return fd;
		}
	close(fd);
	return -1;
}

/* The name and build-id in the .gnu_debugaltlink section of the ELF file
 * at path, or -1. */
static int altlink_of(const char *path, char **alt, uint8_t *id, size_t *len)
{
	const char *why;
	int fd = infile_open(path, 0, NULL, &why), rc = -1;
	if (fd < 0)
		return -1;
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	size_t shstrndx;
	if (elf == NULL || elf_getshdrstrndx(elf, &shstrndx) != 0)
		goto out;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn)) != NULL;) {
		GElf_Shdr sh;
		const char *sname;
		if (gelf_getshdr(scn, &sh) == NULL || (sname = elf_strptr(elf, shstrndx, sh.sh_name)) == NULL ||
		    strcmp(sname, ".gnu_debugaltlink") != 0)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		const char *b = d ? d->d_buf : NULL;
		const char *nul = b ? memchr(b, '\0', d->d_size) : NULL;
		size_t idlen = nul ? d->d_size - (size_t)(nul + 1 - b) : 0;
		if (idlen == 0 || idlen > BUILD_ID_BYTES_MAX)
			break;
		*alt = xstrdup(b);
		memcpy(id, nul + 1, idlen);
		*len = idlen;
		rc = 0;
		break;
	}
out:
	elf_end(elf);
	close(fd);
	return rc;
}

/* A debug link's name: a plain file name, never a path. */
static int link_name_ok(const char *name)
{
	return name && *name && strchr(name, '/') == NULL && strstr(name, "..") == NULL;
}

/*
 * The debug link's file (link, with crc) looked for beside each of the
 * ndirs module files' directories (dirs: file paths, duplicates
 * skipped): DIR/link, DIR/.debug/link, /usr/lib/debug/DIR/link, kept as
 * try_file checks it.  -1 if none is found or link is not a plain name.
 */
static int link_search(const char *const *files, size_t nfiles, const char *link, uint32_t crc,
		       const struct stat *self, const uint8_t *id, size_t len, char **name)
{
	int fd = -1;
	char *dirs[2];
	size_t ndirs = 0;
	if (!link_name_ok(link))
		return -1;
	for (size_t f = 0; f < nfiles && ndirs < 2; f++) {
		if (files[f] == NULL)
			continue;
		char *copy = xstrdup(files[f]);
		char *dir = xstrdup(dirname(copy));
		free(copy);
		int seen = 0;
		for (size_t k = 0; k < ndirs; k++)
			seen |= strcmp(dirs[k], dir) == 0;
		if (seen)
			free(dir);
		else
			dirs[ndirs++] = dir;
	}
	for (size_t d = 0; d < ndirs; d++) {
		const char *dir = dirs[d];
		char *cand[3] = {
			xasprintf("%s/%s", dir, link),
			xasprintf("%s/.debug/%s", dir, link),
			xasprintf(DEBUG_ROOT "%s%s/%s", dir[0] == '/' ? "" : "/", dir, link),
		};
		for (int i = 0; i < 3; i++) {
			if (fd < 0)
				fd = try_file(cand[i], self, id, len, crc, name);
			free(cand[i]);
		}
	}
	for (size_t d = 0; d < ndirs; d++)
		free(dirs[d]);
	return fd;
}

/* fd, the debug file found (named *name), if libdw may open its DWARF;
 * else -1, and the module has none (claims_ok). */
static int usable(int fd, char **name)
{
	return claims_ok(fd, name) ? fd : -1;
}

static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			  const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
			  char **debuginfo_file_name)
{
	uint8_t id[BUILD_ID_BYTES_MAX];
	size_t len = 0;
	char *alt = NULL, *path;
	struct stat self;
	const char *why;
	int fd = -1;
	(void)modname, (void)base;

	if (file_name == NULL)
		return -1;
	int sfd = infile_open(file_name, 0, &self, &why);
	if (sfd < 0) {
		open_failed(file_name, why);
		return -1;
	}
	close(sfd);
	/* libdwfl asks again for the dwz file, naming it by its
	 * .gnu_debugaltlink with no CRC: debuginfo_alt_attach finds that one
	 * (by build-id) and hands it to libdw, and owns it */
	if (debuglink_file && debuglink_crc == 0 && altlink_of(file_name, &alt, id, &len) == 0 &&
	    strcmp(alt, debuglink_file) == 0) {
		free(alt);
		return -1;
	}
	free(alt);
	len = 0;
	const unsigned char *bits;
	GElf_Addr vaddr;
	int n = dwfl_module_build_id(mod, &bits, &vaddr);
	if (n > 0 && n <= BUILD_ID_BYTES_MAX) {
		len = (size_t)n;
		memcpy(id, bits, len);
		/* --symfs and the build-id cache first (modfile.h) */
		char *first[2];
		size_t nfirst = modfile_debug_paths(id, len, first, 2);
		for (size_t i = 0; i < nfirst; i++) {
			if (fd < 0)
				fd = try_file(first[i], &self, id, len, 0, debuginfo_file_name);
			free(first[i]);
		}
		if (fd >= 0)
			return usable(fd, debuginfo_file_name);
		path = build_id_path(id, len);
		fd = try_file(path, &self, id, len, 0, debuginfo_file_name);
		free(path);
		if (fd >= 0)
			return usable(fd, debuginfo_file_name);
	}
	/* beside the file opened, then beside the path the module was
	 * recorded at (the file opened may be the cache's copy) */
	const char *files[2] = { file_name, userdata ? *userdata : NULL };
	fd = link_search(files, 2, debuglink_file, debuglink_crc, &self, id, len, debuginfo_file_name);
	if (fd < 0 && len > 0)
		fd = ask_debuginfod(id, len, DEBUGINFO, debuginfo_file_name);
	return fd >= 0 ? usable(fd, debuginfo_file_name) : -1;
}

/* A DWARF section's name: what libdw reads (dwarf_begin_elf). */
static int dwarf_section(const char *name)
{
	return name && (strncmp(name, ".debug_", 7) == 0 || strncmp(name, ".zdebug_", 8) == 0 ||
			strncmp(name, ".gnu.debuglto_", 14) == 0);
}

/* Make every compressed and every DWARF section of elf (libdwfl's copy,
 * mapped privately) read as empty (SHT_NOBITS), so that neither libdwfl
 * nor libdw inflates or reads them. */
static void hide_sections(Elf *elf)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return;
	for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) == NULL)
			continue;
		const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (dwarf_section(name) || section_claim(scn, &sh, name) != 0) {
			sh.sh_type = SHT_NOBITS;
			sh.sh_flags &= ~(GElf_Xword)SHF_COMPRESSED;
			gelf_update_shdr(scn, &sh);
		}
	}
}

void debuginfo_reported(Dwfl_Module *mod, const char *path)
{
	void **ud = NULL;
	const char *file = NULL;
	Dwarf_Addr bias;
	if (mod == NULL)
		return;
	dwfl_module_info(mod, &ud, NULL, NULL, NULL, NULL, &file, NULL);
	if (ud && path && path[0] == '/')  /* "[vdso]", or no path: nowhere to look */
		*ud = (void *)path;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	char *problem = elf ? claims_problem(elf, file ? file : path ? path : "?") : NULL;
	if (problem) {
		hide_sections(elf);
		claims_warn(file ? file : path ? path : "?", problem);
	}
}

/*
 * What libdw is handed for a dwz file that was not found: a Dwarf with no
 * units, made once from an ELF image in memory with one DWARF section
 * (dwarf_begin_elf wants .debug_info, .debug_line or .debug_frame) that
 * nothing reads.  An attribute in the dwz file then reads as absent.
 */
static struct {
	Elf64_Ehdr eh;
	Elf64_Shdr sh[3];
	char names[24];
	char frame[8];
} stand_in_image;
static Elf *stand_in_elf;
static Dwarf *stand_in_dwarf;

static void stand_in_end(void)
{
	dwarf_end(stand_in_dwarf);
	elf_end(stand_in_elf);
}

static Dwarf *stand_in(void)
{
	if (stand_in_dwarf)
		return stand_in_dwarf;
	typeof(stand_in_image) *im = &stand_in_image;
	memset(im, 0, sizeof *im);
	memcpy(im->eh.e_ident, ELFMAG, SELFMAG);
	im->eh.e_ident[EI_CLASS] = ELFCLASS64;
	im->eh.e_ident[EI_DATA] = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB;
	im->eh.e_ident[EI_VERSION] = EV_CURRENT;
	im->eh.e_type = ET_REL;
	im->eh.e_version = EV_CURRENT;
	im->eh.e_ehsize = sizeof im->eh;
	im->eh.e_shoff = offsetof(typeof(*im), sh);
	im->eh.e_shentsize = sizeof(Elf64_Shdr);
	im->eh.e_shnum = 3;
	im->eh.e_shstrndx = 1;
	memcpy(im->names, "\0.shstrtab\0.debug_frame", 24);
	im->sh[1] = (Elf64_Shdr){ .sh_name = 1, .sh_type = SHT_STRTAB, .sh_offset = offsetof(typeof(*im), names),
				  .sh_size = sizeof im->names, .sh_addralign = 1 };
	im->sh[2] = (Elf64_Shdr){ .sh_name = 11, .sh_type = SHT_PROGBITS, .sh_offset = offsetof(typeof(*im), frame),
				  .sh_size = 4, .sh_addralign = 1 };
	elf_version(EV_CURRENT);
	stand_in_elf = elf_memory((char *)im, sizeof *im);
	stand_in_dwarf = stand_in_elf ? dwarf_begin_elf(stand_in_elf, DWARF_C_READ, NULL) : NULL;
	if (stand_in_dwarf == NULL) {
		elf_end(stand_in_elf);
		stand_in_elf = NULL;
		return NULL;
	}
	atexit(stand_in_end);
	return stand_in_dwarf;
}

int debuginfo_alt_attach(Dwarf *dw, struct debuginfo_alt *alt)
{
	const char *name;
	const void *bits;
	memset(alt, 0, sizeof *alt);
	alt->fd = -1;
	ssize_t n = dwelf_dwarf_gnu_debugaltlink(dw, &name, &bits);
	if (n <= 0)
		return 0;                      /* no link: libdw looks for nothing either */
	char *found = NULL;
	int fd = -1;
	if (n <= BUILD_ID_BYTES_MAX) {
		uint8_t id[BUILD_ID_BYTES_MAX];
		memcpy(id, bits, (size_t)n);
		char *path = build_id_path(id, (size_t)n);
		fd = try_file(path, NULL, id, (size_t)n, 0, &found);
		free(path);
		/* the path the link names, if it is under /usr/lib/debug (where
		 * Debian's dwz files are, /usr/lib/debug/.dwz/...) */
		if (fd < 0 && strncmp(name, DEBUG_ROOT "/", sizeof DEBUG_ROOT) == 0 && strstr(name, "/../") == NULL)
			fd = try_file(name, NULL, id, (size_t)n, 0, &found);
		if (fd < 0)
			fd = ask_debuginfod(id, (size_t)n, DEBUGINFO, &found);
	}
	if (fd >= 0 && claims_ok(fd, &found)) {
		Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
		Dwarf *a = elf ? dwarf_begin_elf(elf, DWARF_C_READ, NULL) : NULL;
		if (a) {
			*alt = (struct debuginfo_alt){ a, elf, fd };
		} else {
			elf_end(elf);
			close(fd);
		}
	}
	free(found);
	Dwarf *a = alt->dwarf ? alt->dwarf : stand_in();
	if (a == NULL)
		return -1;
	dwarf_setalt(dw, a);
	return 0;
}

void debuginfo_alt_release(struct debuginfo_alt *alt)
{
	if (alt->dwarf) {
		dwarf_end(alt->dwarf);
		elf_end(alt->elf);
		close(alt->fd);
	}
	memset(alt, 0, sizeof *alt);
	alt->fd = -1;
}

int debuginfo_find_local(const char *path, const uint8_t *id, size_t len, char **name)
{
	struct stat self;
	const char *why;
	GElf_Word crc = 0;
	char *link = NULL;
	*name = NULL;
	if (len == 0 || len > BUILD_ID_BYTES_MAX)
		return -1;
	char *bp = build_id_path(id, len);
	int fd = try_file(bp, NULL, id, len, 0, name);
	free(bp);
	if (fd >= 0)
		return fd;
	int mfd = infile_open(path, 0, &self, &why);
	if (mfd < 0)
		return -1;
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(mfd, ELF_C_READ, NULL);
	const char *l = elf ? dwelf_elf_gnu_debuglink(elf, &crc) : NULL;
	if (l)
		link = xstrdup(l);
	elf_end(elf);
	close(mfd);
	const char *files[1] = { path };
	fd = link_search(files, 1, link, crc, &self, id, len, name);
	free(link);
	return fd;
}

const Dwfl_Callbacks debuginfo_callbacks = {
	.find_elf = no_find_elf,
	.find_debuginfo = find_debuginfo,
	.section_address = dwfl_offline_section_address,
};
