/*
 * pipeline.c - the report pipeline: the views of `pct report` and
 * dump | sym [| line] run in one process through memory streams
 * (pipeline.h), as `pct report` and `pct diff` read profiles.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline.h"
#include "stages.h"
#include "util.h"

static const struct view views[] = {
	{ "function", 1, 0, "module,function" },
	{ "module", 0, 0, "module" },
	{ "address", 1, 0, "module,address,function" },
	{ "line", 1, 1, "file,line,function,inline" },
	{ "file", 1, 1, "file" },
	{ "thread", 0, 0, "pid,tid,thread" },
	{ "process", 0, 0, "pid,command" },
};

static FILE *buf_writer(struct pipe_buf *p, struct error *e)
{
	p->w = open_memstream(&p->buf, &p->len);
	if (p->w == NULL)
		error_set(e, 1, "out of memory");
	return p->w;
}

static FILE *buf_reader(struct pipe_buf *p, struct error *e)
{
	int rc = fclose(p->w);
	p->w = NULL;
	FILE *r = rc == 0 ? fmemopen(p->buf, p->len, "r") : NULL;
	if (r == NULL)
		error_set(e, 1, "out of memory");
	return r;
}

const struct view *view_find(const char *name)
{
	for (size_t i = 0; i < sizeof views / sizeof views[0]; i++)
		if (strcmp(name, views[i].name) == 0)
			return &views[i];
	return NULL;
}

void pipeline_free(struct pipe_buf b[3])
{
	for (size_t i = 0; i < 3; i++) {
		if (b[i].w)
			fclose(b[i].w);
		free(b[i].buf);
		b[i] = (struct pipe_buf){ 0 };
	}
}

FILE *pipeline_run(const struct pset *s, const struct view *v, struct pipe_buf b[3], struct error *e)
{
	memset(b, 0, 3 * sizeof *b);
	if (buf_writer(&b[0], e) == NULL)
		goto fail;
	stage_dump(s, b[0].w);
	FILE *in = buf_reader(&b[0], e);
	size_t cur = 0;                /* the buffer in reads */
	stage_fn *stages[2] = { v->sym ? stage_sym : NULL, v->line ? stage_line : NULL };
	for (size_t i = 0; i < 2 && in; i++) {
		if (stages[i] == NULL)
			continue;
		/* the stage from in to a new buffer, which becomes in */
		int rc = buf_writer(&b[i + 1], e) ? stages[i](in, "pipeline", b[i + 1].w, e) : -1;
		fclose(in);
		/* read through: its memory goes before the next stage's grows */
		free(b[cur].buf);
		b[cur].buf = NULL;
		b[cur].len = 0;
		cur = i + 1;
		in = rc == 0 ? buf_reader(&b[i + 1], e) : NULL;
	}
	if (in)
		return in;
fail:
	pipeline_free(b);
	return NULL;
}
