/* source.c - see source.h. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "infile.h"
#include "source.h"
#include "util.h"

static char **dirs;
static size_t ndirs, capdirs;
static struct srcfile **files;
static size_t nfiles, capfiles;

void source_add_dir(const char *dir)
{
	grow(&dirs, &capdirs, ndirs + 1, sizeof *dirs);
	dirs[ndirs++] = xstrdup(dir);
}

static char *slurp(const char *path, size_t *len)
{
	/* only regular files: a source path from a profile may name a FIFO
	 * or a device, which must not even be opened */
	const char *why;
	int fd = infile_open(path, 0, NULL, &why);
	if (fd < 0)
		return NULL;
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
static char *try_tails(const char *dir, const char *path, FILE *log, size_t *len, char **found)
{
	for (const char *tail = path; tail; tail = strchr(tail + 1, '/')) {
		const char *t = tail[0] == '/' ? tail + 1 : tail;
		if (*t == '\0')
			break;
		char *cand = xasprintf("%s/%s", dir, t);
		fprintf(log, ", %s", cand);
		char *text = slurp(cand, len);
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
	sf->text = slurp(path, &len);
	if (sf->text)
		sf->found = xstrdup(path);
	for (size_t d = 0; d < ndirs && !sf->text; d++)
		sf->text = try_tails(dirs[d], path, log, &len, &sf->found);
	if (!sf->text)
		sf->text = try_tails(".", path, log, &len, &sf->found);
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
}
