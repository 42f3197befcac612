/*
 * export_callgrind.c - the Callgrind profile format (valgrind's
 * docs/callgrind-format, "Callgrind Format Specification"), for
 * callgrind_annotate and KCachegrind.
 *
 * "positions: instr line": every cost line is a link-time instruction
 * address, its source line (0 if unknown) and the samples there, under
 * ob= (module), fl= (source file) and fn= (function) lines, names
 * compressed as "(id) name" the first time and "(id)" after.  With -g
 * stacks each call site adds a calls= line: the samples whose stack went
 * through it, the callee's inclusive cost.  Names and the command line are
 * escaped (escape.h): a newline in one would start a line of its own.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callstack.h"
#include "escape.h"
#include "export.h"
#include "symtab.h"
#include "u64map.h"
#include "util.h"

/* A place: module, address, and what symtab says of it. */
struct place {
	uint32_t module;
	uint64_t addr;
	const char *fn, *file;
	int line;
	uint64_t fn_start;
};

/* "(id) name" the first time a name of a kind is written, "(id)" after. */
struct names {
	char **v;
	size_t n, cap;
};

static void put_name(FILE *out, const char *tag, struct names *ns, const char *name)
{
	for (size_t i = 0; i < ns->n; i++)
		if (strcmp(ns->v[i], name) == 0) {
			fprintf(out, "%s=(%zu)\n", tag, i + 1);
			return;
		}
	grow(&ns->v, &ns->cap, ns->n + 1, sizeof *ns->v);
	ns->v[ns->n++] = xstrdup(name);
	fprintf(out, "%s=(%zu) ", tag, ns->n);
	esc_fputs(name, out);
	fputc('\n', out);
}

static void names_free(struct names *ns)
{
	for (size_t i = 0; i < ns->n; i++)
		free(ns->v[i]);
	free(ns->v);
}

static void locate(const struct pset *s, uint32_t module, uint64_t addr, struct place *pl, char *buf, size_t len)
{
	const struct pset_module *gm = &s->mods[module];
	struct symtab *st = symtab_get(gm->path, gm->build_id, gm->build_id_len);
	struct symbol sym;
	struct srcline sl;
	pl->module = module;
	pl->addr = addr;
	pl->fn_start = addr;
	if (symtab_function_at(st, addr, &sym) == 0) {
		pl->fn = sym.name;
		pl->fn_start = sym.start;
	} else {
		snprintf(buf, len, "%s+0x%" PRIx64, gm->display, addr);
		pl->fn = buf;
	}
	/* one file per function, its entry's, so that a callee's cfi= names
	 * the same file as its fn= block; the line is the instruction's */
	pl->file = symtab_srcline(st, pl->fn_start, &sl) == 0 ? sl.file : "???";
	pl->line = symtab_srcline(st, addr, &sl) == 0 ? sl.line : 0;
}

/* A call arc: from a call site to a callee function. */
struct arc {
	uint32_t from_module, to_module;
	uint64_t from_addr, to_start;
	uint64_t samples;
};

struct arcs {
	struct arc *v;
	size_t n, cap;
	struct u64map index;           /* hash of the arc -> v index (chained by linear scan on collision) */
};

static void arcs_add(struct arcs *a, const struct arc *x)
{
	uint64_t h = (x->from_addr * 0x9e3779b97f4a7c15u) ^ (x->to_start * 0xff51afd7ed558ccdu) ^
		     ((uint64_t)x->from_module << 32) ^ x->to_module;
	for (;; h++) {
		uint64_t *slot = u64map_get(&a->index, h);
		if (slot == NULL)
			break;
		struct arc *y = &a->v[*slot];
		if (y->from_module == x->from_module && y->to_module == x->to_module && y->from_addr == x->from_addr &&
		    y->to_start == x->to_start) {
			y->samples += x->samples;
			return;
		}
	}
	grow(&a->v, &a->cap, a->n + 1, sizeof *a->v);
	a->v[a->n] = *x;
	*u64map_slot(&a->index, h) = a->n++;
}

struct collect {
	const struct pset *s;
	struct arcs *arcs;
};

static void collect_arcs(const struct cs_stack *st, void *arg)
{
	struct collect *c = arg;
	for (size_t k = 0; k + 1 < st->nframes; k++) {
		const struct cs_frame *callee = &st->frames[k], *caller = &st->frames[k + 1];
		if (callee->module == PSET_NO_MODULE || caller->module == PSET_NO_MODULE)
			continue;
		struct place pl;
		char buf[256];
		locate(c->s, callee->module, callee->addr, &pl, buf, sizeof buf);
		struct arc x = { caller->module, callee->module, caller->addr, pl.fn_start, st->rec->weight };
		arcs_add(c->arcs, &x);
	}
}

static int by_place(const void *a, const void *b)
{
	const struct pset_addr *x = a, *y = b;
	if (x->module != y->module)
		return x->module < y->module ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int arc_by_from(const void *a, const void *b)
{
	const struct arc *x = a, *y = b;
	if (x->from_module != y->from_module)
		return x->from_module < y->from_module ? -1 : 1;
	return x->from_addr < y->from_addr ? -1 : x->from_addr > y->from_addr;
}

int export_callgrind(const struct pset *s, FILE *out, char *err, size_t errlen)
{
	struct pset_addr *addrs;
	size_t n;
	uint64_t total = pset_addresses(s, &addrs, &n);
	sort(addrs, n, sizeof *addrs, by_place);
	struct arcs arcs = { 0 };
	if (callstack_present(s)) {
		struct collect c = { s, &arcs };
		callstack_each(s, collect_arcs, &c);
		sort(arcs.v, arcs.n, sizeof *arcs.v, arc_by_from);
	}
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
		all ? (double)s->cpu_ns / (double)all : 0.0);
	esc_fputs(p0->hdr.dimension, out);
	fputs(" each)\n", out);
	fprintf(out, "events: samples\n");
	fprintf(out, "summary: %llu\n\n", (unsigned long long)total);

	struct names obs = { 0 }, fls = { 0 }, fns = { 0 };
	uint64_t placed = 0;
	const char *cur_ob = NULL;
	char cur_fl[4096] = "", cur_fn[4096] = "";
	for (size_t i = 0; i < n; i++) {
		struct place pl;
		char buf[256];
		locate(s, addrs[i].module, addrs[i].addr, &pl, buf, sizeof buf);
		if (cur_ob != s->mods[pl.module].path) {
			cur_ob = s->mods[pl.module].path;
			put_name(out, "ob", &obs, cur_ob);
			cur_fl[0] = cur_fn[0] = '\0';
		}
		if (strcmp(cur_fl, pl.file) != 0 || strcmp(cur_fn, pl.fn) != 0) {
			snprintf(cur_fl, sizeof cur_fl, "%s", pl.file);
			put_name(out, "fl", &fls, pl.file);
		}
		if (strcmp(cur_fn, pl.fn) != 0) {
			snprintf(cur_fn, sizeof cur_fn, "%s", pl.fn);
			put_name(out, "fn", &fns, pl.fn);
		}
		fprintf(out, "0x%" PRIx64 " %d %llu\n", pl.addr, pl.line, (unsigned long long)addrs[i].samples);
		placed += addrs[i].samples;
	}
	/* calls: grouped under their caller's function, after the costs */
	for (size_t k = 0; k < arcs.n; k++) {
		const struct arc *x = &arcs.v[k];
		struct place from, to;
		char b1[256], b2[256];
		locate(s, x->from_module, x->from_addr, &from, b1, sizeof b1);
		locate(s, x->to_module, x->to_start, &to, b2, sizeof b2);
		put_name(out, "ob", &obs, s->mods[from.module].path);
		put_name(out, "fl", &fls, from.file);
		put_name(out, "fn", &fns, from.fn);
		put_name(out, "cob", &obs, s->mods[to.module].path);
		put_name(out, "cfi", &fls, to.file);
		put_name(out, "cfn", &fns, to.fn);
		fprintf(out, "calls=%llu 0x%" PRIx64 " %d\n", (unsigned long long)x->samples, to.addr, to.line);
		fprintf(out, "0x%" PRIx64 " %d %llu\n", from.addr, from.line, (unsigned long long)x->samples);
	}
	if (placed < total)
		fprintf(stderr, "pct: export: %llu samples outside any readable module are counted in the "
			"summary only\n", (unsigned long long)(total - placed));
	names_free(&obs);
	names_free(&fls);
	names_free(&fns);
	free(arcs.v);
	u64map_free(&arcs.index);
	free(addrs);
	if (ferror(out)) {
		snprintf(err, errlen, "export: write error");
		return -1;
	}
	return 0;
}
