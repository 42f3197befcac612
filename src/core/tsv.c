/* tsv.c - see tsv.h. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "tsv.h"
#include "util.h"

static size_t split(struct tsv *t, char ***out, size_t *cap)
{
	size_t n = 0;
	char *s = t->line;
	size_t len = strlen(s);
	if (len && s[len - 1] == '\n')
		s[--len] = '\0';
	for (;;) {
		grow(out, cap, n + 1, sizeof **out);
		(*out)[n++] = s;
		char *tab = strchr(s, '\t');
		if (tab == NULL)
			break;
		*tab = '\0';
		s = tab + 1;
	}
	return n;
}

int tsv_open(struct tsv *t, FILE *f, const char *name, char *err, size_t errlen)
{
	memset(t, 0, sizeof *t);
	t->f = f;
	t->name = name;
	size_t capc = 0;
	for (;;) {
		if (getline(&t->line, &t->cap, f) < 0) {
			snprintf(err, errlen, "%s: empty input, expected a header row", name);
			return -1;
		}
		t->lineno++;
		if (t->line[0] != '#')
			break;
		t->line[strcspn(t->line, "\n")] = '\0';
		grow(&t->comments, &capc, t->ncomments + 1, sizeof *t->comments);
		t->comments[t->ncomments++] = xstrdup(t->line);
	}
	size_t cap = 0;
	char **cols = NULL;
	t->ncols = split(t, &cols, &cap);
	t->header = xcalloc(t->ncols, sizeof *t->header);
	for (size_t i = 0; i < t->ncols; i++)
		t->header[i] = xstrdup(cols[i]);
	free(cols);
	return 0;
}

int tsv_column(const struct tsv *t, const char *name)
{
	for (size_t i = 0; i < t->ncols; i++)
		if (strcmp(t->header[i], name) == 0)
			return (int)i;
	return -1;
}

int tsv_next(struct tsv *t, char *err, size_t errlen)
{
	if (getline(&t->line, &t->cap, t->f) < 0)
		return 0;
	t->lineno++;
	t->nfields = split(t, &t->fields, &t->capfields);
	if (t->nfields != t->ncols) {
		snprintf(err, errlen, "%s:%lu: %zu fields, but the header has %zu", t->name, t->lineno,
			 t->nfields, t->ncols);
		return -1;
	}
	return 1;
}

void tsv_close(struct tsv *t)
{
	for (size_t i = 0; i < t->ncols; i++)
		free(t->header[i]);
	free(t->header);
	for (size_t i = 0; i < t->ncomments; i++)
		free(t->comments[i]);
	free(t->comments);
	free(t->fields);
	free(t->line);
	memset(t, 0, sizeof *t);
}
