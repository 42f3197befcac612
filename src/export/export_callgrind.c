/*
 * export_callgrind.c - the Callgrind profile format (valgrind's
 * docs/callgrind-format, "Callgrind Format Specification"), for
 * callgrind_annotate and KCachegrind.
 *
 * "positions: instr line": every cost line is a link-time instruction
 * address, its source line (0 if unknown) and the samples there, under
 * ob= (module), fl= (the function's own source file) and fn= (function)
 * lines, and fi=/fe= lines where the line is in another file (code
 * inlined from a header) and back; names are compressed as "(id) name"
 * the first time and "(id)" after.  With -g stacks each call site adds a
 * calls= line: the samples whose stack went through it, the callee's
 * inclusive cost, at the call instruction's address (callsite.h).  A
 * sample that no module's file places (pset_addresses_all) is written at
 * its file offset as function MODULE+0xOFFSET, or as [unknown].  Names
 * and the command line are escaped (escape.h): a newline in one would
 * start a line of its own.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "callsite.h"
#include "callstack.h"
#include "escape.h"
#include "export.h"
#include "stats.h"
#include "symtab.h"
#include "u64map.h"
#include "util.h"

/* "(id) name" the first time a name of a kind is written, "(id)" after:
 * the ids are row numbers + 1 of an agg keyed by the name. */
static void put_name(FILE *out, const char *tag, struct agg *ns, const char *name)
{
	char *key[1] = { (char *)name };
	long r = agg_find(ns, key);
	if (r >= 0) {
		fprintf(out, "%s=(%ld)\n", tag, r + 1);
		return;
	}
	agg_add(ns, key, 0);
	fprintf(out, "%s=(%zu) ", tag, ns->nrows);
	esc_fputs(name, out);
	fputc('\n', out);
}

/* A place: module, address, and what symtab says of it.  An unplaced
 * one (pset.h) is a file offset in a module whose file cannot be read, or
 * an absolute address outside every module: named "MODULE+0xOFFSET" or
 * "[unknown]", with no source. */
struct place {
	uint32_t module;
	uint64_t addr;
	int unplaced;
	const char *ob;                /* the module's path, "[unknown]" without one */
	const char *fn;
	const char *fl;                /* the function's own source file */
	const char *file;              /* the instruction's source file: fl, or the file of
					  code inlined there */
	int line;                      /* in file, 0 if unknown */
	uint64_t fn_start;
	char *buf;                     /* the name when fn is made here (malloc'd) */
};

static void locate(const struct pset *s, uint32_t module, uint64_t addr, int unplaced, struct place *pl)
{
	memset(pl, 0, sizeof *pl);
	pl->module = module;
	pl->addr = pl->fn_start = addr;
	pl->unplaced = unplaced;
	pl->fl = pl->file = "???";
	if (module == PSET_NO_MODULE) {
		pl->ob = pl->fn = "[unknown]";
		return;
	}
	const struct pset_module *gm = &s->mods[module];
	pl->ob = gm->path;
	if (unplaced) {
		pl->fn = pl->buf = xasprintf("%s+0x%" PRIx64, gm->display, addr);
		return;
	}
	struct symtab *st = pset_symtab(gm);
	struct symbol sym;
	struct srcline sl;
	if (symtab_function_at(st, addr, &sym) == 0) {
		pl->fn = sym.name;
		pl->fn_start = sym.start;
	} else {
		pl->fn = pl->buf = xasprintf("%s+0x%" PRIx64, gm->display, addr);
	}
	/* fl= is the function's file, so that a callee's cfi= names the file
	 * of its fn= block; the line is the instruction's, in its own file */
	pl->fl = pl->file = export_function_file(st, pl->fn_start);
	if (symtab_srcline(st, addr, &sl) == 0) {
		pl->file = sl.file;
		pl->line = sl.line;
	}
}

/* The call instruction of a caller frame whose address is its return
 * address - 1 (callstack.h), else that address. */
static uint64_t call_site(const struct pset *s, const struct pset_addr *caller)
{
	struct place pl;
	uint64_t call;
	if (caller->unplaced)
		return caller->addr;
	const struct pset_module *gm = &s->mods[caller->module];
	locate(s, caller->module, caller->addr, 0, &pl);
	free(pl.buf);
	if (pl.fn_start <= caller->addr &&
	    callsite_start(pset_symtab(gm), pl.fn_start, caller->addr + 1,
			   &call) == 0)
		return call;
	return caller->addr;
}

static int by_place(const void *a, const void *b)
{
	const struct pset_addr *x = a, *y = b;
	if (x->module != y->module)
		return x->module < y->module ? -1 : 1;
	if (x->unplaced != y->unplaced)
		return x->unplaced - y->unplaced;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int arc_by_from(const void *a, const void *b)
{
	const struct export_arc *x = a, *y = b;
	return by_place(&x->from, &y->from);
}

/* What the cost lines so far were written under. */
struct cursor {
	const char *ob, *fn, *fl, *file;
};

/* ob=, fl=, fn= and fi=/fe= lines for a cost line at pl: "fl=" opens
 * a function's block with its own file, "fi=" switches to the file of
 * code inlined into it, and "fe=" back. */
static void put_position(FILE *out, struct cursor *c, const struct place *pl, struct agg *obs, struct agg *fls,
			 struct agg *fns)
{
	if (c->ob == NULL || strcmp(c->ob, pl->ob) != 0) {
		put_name(out, "ob", obs, pl->ob);
		c->ob = pl->ob;
		c->fn = NULL;
	}
	if (c->fn == NULL || strcmp(c->fn, pl->fn) != 0 || strcmp(c->fl, pl->fl) != 0) {
		put_name(out, "fl", fls, pl->fl);
		put_name(out, "fn", fns, pl->fn);
		c->fn = pl->fn;
		c->fl = c->file = pl->fl;
	}
	if (strcmp(c->file, pl->file) != 0)
		put_name(out, strcmp(pl->file, pl->fl) == 0 ? "fe" : "fi", fls, pl->file);
	/* point into pl, whose names the caller keeps until the next call */
	c->ob = pl->ob;
	c->fn = pl->fn;
	c->fl = pl->fl;
	c->file = pl->file;
}

int export_callgrind(const struct pset *s, FILE *out, char *err, size_t errlen)
{
	struct pset_addr *addrs;
	size_t n;
	uint64_t total = pset_addresses_all(s, &addrs, &n);
	sort(addrs, n, sizeof *addrs, by_place);
	struct export_arc *arcs;
	size_t narcs;
	export_arcs(s, &arcs, &narcs);
	for (size_t k = 0; k < narcs; k++)
		arcs[k].from.addr = call_site(s, &arcs[k].from);
	sort(arcs, narcs, sizeof *arcs, arc_by_from);
	const struct profile *p0 = &s->profiles[0];
	uint64_t all = s->total + s->dropped;
	fprintf(out, "# callgrind format\nversion: 1\ncreator: pct\n");
	if (s->nprofiles == 1) {
		fprintf(out, "pid: %u\ncmd: ", p0->hdr.pid);
		esc_fputs(p0->cmdline, out);
		fputc('\n', out);
	}
	fprintf(out, "positions: instr line\n");
	fprintf(out, "event: samples : pct samples of %s (%.0f ns of ", event_name(p0->hdr.event),
		stats_period(s->cpu_ns, all));
	esc_fputs(p0->hdr.dimension, out);
	fputs(" each)\n", out);
	fprintf(out, "events: samples\n");
	fprintf(out, "summary: %llu\n\n", (unsigned long long)total);

	struct agg obs = { .nkeys = 1 }, fls = { .nkeys = 1 }, fns = { .nkeys = 1 };
	struct cursor cur = { 0 };
	uint64_t unplaced = 0;
	/* the cursor may point into the last place's name: freed after */
	struct place prev = { 0 };
	for (size_t i = 0; i < n; i++) {
		struct place pl;
		locate(s, addrs[i].module, addrs[i].addr, addrs[i].unplaced, &pl);
		put_position(out, &cur, &pl, &obs, &fls, &fns);
		fprintf(out, "0x%" PRIx64 " %d %llu\n", pl.addr, pl.line, (unsigned long long)addrs[i].samples);
		if (addrs[i].unplaced)
			unplaced += addrs[i].samples;
		free(prev.buf);
		prev = pl;
	}
	/* calls: grouped under their caller's function, after the costs */
	for (size_t k = 0; k < narcs; k++) {
		const struct export_arc *x = &arcs[k];
		struct place from, to;
		locate(s, x->from.module, x->from.addr, x->from.unplaced, &from);
		locate(s, x->to.module, x->to.addr, x->to.unplaced, &to);
		put_position(out, &cur, &from, &obs, &fls, &fns);
		put_name(out, "cob", &obs, to.ob);
		put_name(out, "cfi", &fls, to.fl);
		put_name(out, "cfn", &fns, to.fn);
		/* the callee's line in its own file; none if its entry is
		 * code inlined from another file */
		fprintf(out, "calls=%llu 0x%" PRIx64 " %d\n", (unsigned long long)x->from.samples, to.addr,
			strcmp(to.file, to.fl) == 0 ? to.line : 0);
		fprintf(out, "0x%" PRIx64 " %d %llu\n", from.addr, from.line, (unsigned long long)x->from.samples);
		free(prev.buf);
		prev = from;
		free(to.buf);
	}
	free(prev.buf);
	if (unplaced)
		note("export: %llu samples are in modules whose file cannot be read, or in no "
			"module: written as MODULE+0xOFFSET or [unknown], without source lines",
			(unsigned long long)unplaced);
	agg_free(&obs);
	agg_free(&fls);
	agg_free(&fns);
	free(arcs);
	free(addrs);
	if (ferror(out)) {
		snprintf(err, errlen, "export: write error");
		return -1;
	}
	return 0;
}
