/* source.c - see source.h. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "infile.h"
#include "source.h"
#include "util.h"

static char **dirs;
static size_t ndirs, capdirs;
static char **roots;                   /* --source-root, resolved */
static size_t nroots, caproots;
static struct srcfile **files;
static size_t nfiles, capfiles;

void source_add_dir(const char *dir)
{
	grow(&dirs, &capdirs, ndirs + 1, sizeof *dirs);
	dirs[ndirs++] = xstrdup(dir);
}

int source_add_root(const char *dir)
{
	char *real = realpath(dir, NULL);
	if (real == NULL)
		return -1;
	grow(&roots, &caproots, nroots + 1, sizeof *roots);
	roots[nroots++] = real;
	return 0;
}

/* Whether the file open at fd lies under a root: the path the kernel
 * has for it, so a symlink swapped after the open does not count. */
static int under_root(int fd)
{
	char self[64];
	snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
	char *real = realpath(self, NULL);
	int ok = 0;
	for (size_t i = 0; real && i < nroots && !ok; i++) {
		size_t n = strlen(roots[i]);
		ok = strncmp(real, roots[i], n) == 0 && (real[n] == '/' || (n == 1 && roots[i][0] == '/'));
	}
	free(real);
	return ok;
}

/* The text of path, if it is a regular file (a source path from a
 * profile may name a FIFO or a device) under a root when there are any;
 * *outside is set when it is not. */
static char *slurp(const char *path, size_t *len, int *outside)
{
	const char *why;
	int fd = infile_open(path, 0, NULL, &why);
	if (fd < 0)
		return NULL;
	if (nroots && !under_root(fd)) {
		*outside = 1;
		close(fd);
		return NULL;
	}
	FILE *f = fdopen(fd, "r");
	if (f == NULL) {
		close(fd);
		return NULL;
	}
	char *buf = NULL;
	size_t cap = 0;
	*len = 0;
	for (;;) {
		grow(&buf, &cap, *len + 65536 + 1, 1);
		size_t n = fread(buf + *len, 1, 65536, f);
		*len += n;
		if (n < 65536)
			break;
	}
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		free(buf);
		return NULL;
	}
	buf[*len] = '\0';
	return buf;
}

/* Try dir + each tail of path ("a/b/c.c": "a/b/c.c", "b/c.c", "c.c"). */
static char *try_tails(const char *dir, const char *path, FILE *log, size_t *len, char **found, int *outside)
{
	for (const char *tail = path; tail; tail = strchr(tail + 1, '/')) {
		const char *t = tail[0] == '/' ? tail + 1 : tail;
		if (*t == '\0')
			break;
		char *cand = xasprintf("%s/%s", dir, t);
		fprintf(log, ", %s", cand);
		char *text = slurp(cand, len, outside);
		if (text) {
			*found = cand;
			return text;
		}
		free(cand);
	}
	return NULL;
}

const struct srcfile *source_get(const char *path)
{
	for (size_t i = 0; i < nfiles; i++)
		if (strcmp(files[i]->path, path) == 0)
			return files[i];
	struct srcfile *sf = xcalloc(1, sizeof *sf);
	sf->path = xstrdup(path);
	size_t len = 0, looked_len = 0;
	FILE *log = open_memstream(&sf->looked, &looked_len);
	fprintf(log, "%s", path);
	sf->text = slurp(path, &len, &sf->outside);
	if (sf->text)
		sf->found = xstrdup(path);
	for (size_t d = 0; d < ndirs && !sf->text; d++)
		sf->text = try_tails(dirs[d], path, log, &len, &sf->found, &sf->outside);
	if (!sf->text)
		sf->text = try_tails(".", path, log, &len, &sf->found, &sf->outside);
	if (sf->text)
		sf->outside = 0;
	fclose(log);
	if (sf->text) {
		size_t cap = 0;
		for (char *p = sf->text; p < sf->text + len;) {
			char *nl = memchr(p, '\n', (size_t)(sf->text + len - p));
			grow(&sf->lines, &cap, sf->nlines + 1, sizeof *sf->lines);
			sf->lines[sf->nlines++] = p;
			if (nl == NULL)
				break;
			*nl = '\0';
			if (nl > p && nl[-1] == '\r')     /* CRLF: the CR is no part of the text */
				nl[-1] = '\0';
			p = nl + 1;
		}
	}
	grow(&files, &capfiles, nfiles + 1, sizeof *files);
	files[nfiles++] = sf;
	return sf;
}

const char *source_line(const struct srcfile *f, int n)
{
	return n >= 1 && (size_t)n <= f->nlines ? f->lines[n - 1] : NULL;
}

void source_free_all(void)
{
	for (size_t i = 0; i < nfiles; i++) {
		free(files[i]->path);
		free(files[i]->found);
		free(files[i]->looked);
		free(files[i]->text);
		free(files[i]->lines);
		free(files[i]);
	}
	free(files);
	files = NULL;
	nfiles = capfiles = 0;
	for (size_t i = 0; i < ndirs; i++)
		free(dirs[i]);
	free(dirs);
	dirs = NULL;
	ndirs = capdirs = 0;
	for (size_t i = 0; i < nroots; i++)
		free(roots[i]);
	free(roots);
	roots = NULL;
	nroots = caproots = 0;
}
