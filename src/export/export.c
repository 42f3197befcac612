/* export.c - what the exporters share; see export.h. */
#include <stdlib.h>
#include <string.h>

#include "callstack.h"
#include "export.h"
#include "stats.h"
#include "symtab.h"
#include "u64map.h"
#include "util.h"

void export_frame(const struct pset *s, const struct cs_stack *st, size_t k, struct pset_addr *out)
{
	const struct cs_frame *f = &st->frames[k];
	out->samples = st->rec->weight;
	if (f->module != PSET_NO_MODULE) {
		out->module = f->module;
		out->addr = f->addr;
		out->unplaced = 0;
		return;
	}
	uint64_t off;
	out->unplaced = 1;
	out->module = pset_module_at(s, st->profile, f->pc, &off);
	out->addr = out->module == PSET_NO_MODULE ? f->pc : off;
}

struct arcs {
	const struct pset *s;
	struct export_arc *v;
	size_t n, cap;
	struct u64map index;           /* hash of the arc (+ k on collision) -> v index + 1 */
	size_t *stamp;                 /* [arc] the stack that last counted it, + 1 */
	size_t stacks;                 /* stacks met */
};

static int same_place(const struct pset_addr *a, const struct pset_addr *b)
{
	return a->module == b->module && a->addr == b->addr && a->unplaced == b->unplaced;
}

static void arcs_add(struct arcs *a, const struct export_arc *x)
{
	uint64_t h = hash_mix(hash_mix(hash_mix(hash_start(), x->from.addr), x->to.addr),
			      (uint64_t)x->from.module << 32 ^ x->to.module ^ (uint64_t)x->from.unplaced << 63 ^
			      (uint64_t)x->to.unplaced << 62);
	for (;; h++) {
		uint64_t *slot = u64map_get(&a->index, h);
		if (slot == NULL)
			break;
		struct export_arc *y = &a->v[*slot - 1];
		if (same_place(&y->from, &x->from) && same_place(&y->to, &x->to)) {
			if (a->stamp[*slot - 1] != a->stacks) {  /* once per stack */
				a->stamp[*slot - 1] = a->stacks;
				y->from.samples += x->from.samples;
			}
			return;
		}
	}
	grow(&a->v, &a->cap, a->n + 1, sizeof *a->v);
	a->stamp = xrealloc(a->stamp, a->cap * sizeof *a->stamp);
	a->v[a->n] = *x;
	a->stamp[a->n] = a->stacks;
	*u64map_slot(&a->index, h) = ++a->n;
}

/* callstack_each's callback: the stack's arcs */
static void stack_arcs(const struct cs_stack *st, void *arg)
{
	struct arcs *a = arg;
	a->stacks++;
	for (size_t k = 0; k + 1 < st->nframes; k++) {
		struct export_arc x;
		struct symbol sym;
		export_frame(a->s, st, k, &x.to);
		export_frame(a->s, st, k + 1, &x.from);
		if (!x.to.unplaced &&
		    symtab_function_at(pset_symtab(&a->s->mods[x.to.module]), x.to.addr, &sym) == 0)
			x.to.addr = sym.start;
		arcs_add(a, &x);
	}
}

void export_arcs(const struct pset *s, struct export_arc **out, size_t *n)
{
	struct arcs a = { .s = s };
	if (callstack_present(s))
		callstack_each(s, stack_arcs, &a);
	u64map_free(&a.index);
	free(a.stamp);
	*out = a.v;
	*n = a.n;
}

const char *export_function_file(struct symtab *st, uint64_t fn_start)
{
	struct srcline sl;
	size_t n = symtab_inlines(st, fn_start, NULL, 0);
	if (n > 0) {
		struct inline_level *lv = xcalloc(n, sizeof *lv);
		symtab_inlines(st, fn_start, lv, n);
		const char *f = lv[n - 1].call_file;
		free(lv);
		return f;
	}
	return symtab_srcline(st, fn_start, &sl) == 0 ? sl.file : "???";
}

/* callstack_each's callback: keep the stack's frames, by record */
static void keep_stack(const struct cs_stack *st, void *arg)
{
	struct export_timed *t = arg;
	const struct profile *p = &t->s->profiles[st->profile];
	size_t i = (size_t)(st->rec - p->stacks);
	grow(&t->frames, &t->capframes, t->nframes + st->nframes, sizeof *t->frames);
	memcpy(t->frames + t->nframes, st->frames, st->nframes * sizeof *st->frames);
	t->first[st->profile][i] = t->nframes;
	t->count[st->profile][i] = (uint32_t)st->nframes;
	t->nframes += st->nframes;
}

int export_timed_load(const struct pset *s, struct export_timed *t, char *err, size_t errlen)
{
	memset(t, 0, sizeof *t);
	t->s = s;
	if (pset_time_origin(s, &t->origin_ns, err, errlen) != 0)
		return -1;
	for (size_t i = 0; i < s->nprofiles; i++) {
		const struct profile *p = &s->profiles[i];
		t->timed += p->ticks_total;
		t->untimed += p->total > p->ticks_total ? p->total - p->ticks_total : 0;
	}
	if (t->origin_ns == UINT64_MAX)
		t->origin_ns = 0;
	t->time = strcmp(s->profiles[0].hdr.dimension, "seconds") == 0;
	t->period = stats_period(s->cpu_ns, s->total + s->dropped);
	t->first = xcalloc(s->nprofiles ? s->nprofiles : 1, sizeof *t->first);
	t->count = xcalloc(s->nprofiles ? s->nprofiles : 1, sizeof *t->count);
	for (size_t i = 0; i < s->nprofiles; i++) {
		size_t n = s->profiles[i].nstacks;
		t->first[i] = xcalloc(n ? n : 1, sizeof **t->first);
		t->count[i] = xcalloc(n ? n : 1, sizeof **t->count);
	}
	if (callstack_present(s))
		callstack_each(s, keep_stack, t);
	if (t->untimed)
		note("export: %llu of %llu samples have no exact time (the time log was full: only their "
		     "bucket is known; or none) and are left out", (unsigned long long)t->untimed,
		     (unsigned long long)(t->untimed + t->timed));
	return 0;
}

void export_timed_free(struct export_timed *t)
{
	for (size_t i = 0; t->first && i < t->s->nprofiles; i++) {
		free(t->first[i]);
		free(t->count[i]);
	}
	free(t->first);
	free(t->count);
	free(t->frames);
	memset(t, 0, sizeof *t);
}

uint32_t export_tick_thread(const struct profile *p, const struct profile_tick *tk)
{
	if (tk->sample >= p->nsamples)
		return UINT32_MAX;
	uint32_t th = p->samples[tk->sample].thread;
	return th > p->nthreads ? UINT32_MAX : th;
}

size_t export_tick_frames(const struct export_timed *t, size_t prof, const struct profile_tick *tk,
			  const struct cs_frame **frames, struct cs_frame *tmp)
{
	const struct pset *s = t->s;
	const struct profile *p = &s->profiles[prof];
	if (tk->stack > 0 && tk->stack <= p->nstacks && t->count[prof][tk->stack - 1] > 0) {
		*frames = t->frames + t->first[prof][tk->stack - 1];
		return t->count[prof][tk->stack - 1];
	}
	if (tk->sample >= p->nsamples)
		return 0;
	/* no stack record: the sampled PC, placed as callstack.c places a frame */
	const struct profile_sample *smp = &p->samples[tk->sample];
	uint32_t m = pset_module_of(s, prof, smp);
	tmp->module = PSET_NO_MODULE;
	tmp->pc = tmp->addr = smp->offset;
	if (smp->module != PROFILE_NO_MODULE) {
		const struct profile_module *pm = &p->modules[smp->module];
		tmp->pc = tmp->addr = pm->start + (smp->offset - pm->file_offset);
		uint64_t addr;
		if (m != PSET_NO_MODULE && symtab_addr(pset_symtab(&s->mods[m]), smp->offset, &addr) == 0) {
			tmp->module = m;
			tmp->addr = addr;
		}
	}
	*frames = tmp;
	return 1;
}

void export_place(const struct pset *s, size_t prof, const struct cs_frame *f, struct export_place *out)
{
	struct symbol sym;
	memset(out, 0, sizeof *out);
	out->addr = f->addr;
	out->module = f->module;
	if (f->module == PSET_NO_MODULE) {
		out->module = pset_module_at(s, prof, f->pc, &out->addr);
		if (out->module == PSET_NO_MODULE)
			out->addr = f->pc;
		return;
	}
	out->placed = 1;
	if (symtab_function_at(pset_symtab(&s->mods[f->module]), f->addr, &sym) == 0) {
		out->name = sym.name;
		out->start = sym.start;
	}
}
