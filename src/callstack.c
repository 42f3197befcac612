/*
 * callstack.c - unwinding -g stack records with libdwfl, and folding them.
 *
 * One Dwfl per profile holds its modules at the addresses the process had
 * them (load bias = mapping start - link-time address of the mapped file
 * offset).  The thread callbacks hand libdwfl one thread whose registers
 * are the record's and whose only readable memory is the record's stack
 * copy; dwfl_getthread_frames then walks the CFI.  The Dwfl is attached
 * once and reused for every record of the profile: each call starts a
 * fresh thread state from set_initial_registers.
 */
#define _GNU_SOURCE
#include <elfutils/libdwfl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "callstack.h"
#include "debuginfo.h"
#include "symtab.h"
#include "util.h"

struct unwinder {
	Dwfl *dwfl;
	const struct profile *p;
	const struct profile_stack *cur;
	uint64_t pcs[CALLSTACK_MAX_FRAMES];
	size_t n;
};

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_arg)
{
	(void)dwfl;
	if (*thread_arg)
		return 0;
	*thread_arg = arg;
	return 1;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_arg)
{
	(void)dwfl;
	*thread_arg = arg;
	return tid == 1;
}

/* The only memory there is: the stack copy. */
static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	(void)dwfl;
	const struct profile_stack *s = ((struct unwinder *)arg)->cur;
	if (addr < s->sp || addr - s->sp > s->stack_len || s->stack_len - (addr - s->sp) < sizeof *result)
		return false;
	memcpy(result, s->stack + (addr - s->sp), sizeof *result);
	return true;
}

/* Registers 0 .. stack_regs-2 in DWARF numbers, then the PC (pct_format.h). */
static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct unwinder *u = arg;
	unsigned n = u->p->hdr.stack_regs;
	Dwarf_Word regs[PROFILE_STACK_REGS_MAX];
	if (n < 2)
		return false;
	for (unsigned i = 0; i + 1 < n; i++)
		regs[i] = u->cur->regs[i];
	if (!dwfl_thread_state_registers(thread, 0, n - 1, regs))
		return false;
	dwfl_thread_state_register_pc(thread, u->cur->regs[n - 1]);
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

static int frame_cb(Dwfl_Frame *frame, void *arg)
{
	struct unwinder *u = arg;
	Dwarf_Addr pc;
	bool activation;
	if (!dwfl_frame_pc(frame, &pc, &activation) || pc == 0)
		return DWARF_CB_ABORT;
	u->pcs[u->n++] = activation ? pc : pc - 1;
	return u->n < CALLSTACK_MAX_FRAMES ? DWARF_CB_OK : DWARF_CB_ABORT;
}

/* A Dwfl with the profile's modules where the process had them, attached
 * to the record callbacks; NULL if none could be reported. */
static Dwfl *unwinder_dwfl(struct unwinder *u, const struct pset *s, size_t prof)
{
	const struct profile *p = &s->profiles[prof];
	Dwfl *dwfl = dwfl_begin(&debuginfo_callbacks);
	size_t reported = 0;
	if (dwfl == NULL)
		return NULL;
	dwfl_report_begin(dwfl);
	for (size_t i = 0; i < p->nmodules; i++) {
		const struct profile_module *m = &p->modules[i];
		uint32_t g = s->modmap[prof][i];
		if (g == PSET_NO_MODULE)
			continue;
		const struct pset_module *gm = &s->mods[g];
		struct symtab *st = symtab_get(gm->path, gm->build_id, gm->build_id_len);
		uint64_t link;
		if (*symtab_why(st) || symtab_addr(st, m->file_offset, &link) != 0)
			continue;
		char *why = NULL;
		int fd = symtab_open_file(m->path, &why);
		free(why);
		if (fd < 0)
			continue;
		/* ET_DYN: base is the load bias; overlapping or repeated
		 * mappings of a file are refused by libdwfl and skipped */
		if (dwfl_report_elf(dwfl, path_base(m->path), m->path, fd, m->start - link, false) != NULL)
			reported++;
		else
			close(fd);
	}
	dwfl_report_end(dwfl, NULL, NULL);
	if (reported == 0 || !dwfl_attach_state(dwfl, NULL, 1, &thread_callbacks, u)) {
		dwfl_end(dwfl);
		return NULL;
	}
	return dwfl;
}

int callstack_present(const struct pset *s)
{
	for (size_t p = 0; p < s->nprofiles; p++)
		if (s->profiles[p].nstacks)
			return 1;
	return 0;
}

/* The set's module and link-time address of pc in profile prof. */
static void locate(const struct pset *s, size_t prof, uint64_t pc, struct cs_frame *f)
{
	const struct profile *p = &s->profiles[prof];
	f->module = PSET_NO_MODULE;
	f->addr = pc;
	f->pc = pc;
	for (size_t i = p->nmodules; i-- > 0;) {
		const struct profile_module *m = &p->modules[i];
		if (pc < m->start || pc >= m->end)
			continue;
		uint32_t g = s->modmap[prof][i];
		uint64_t addr;
		if (g == PSET_NO_MODULE)
			return;
		const struct pset_module *gm = &s->mods[g];
		if (symtab_addr(symtab_get(gm->path, gm->build_id, gm->build_id_len), pc - m->start + m->file_offset,
				&addr) == 0) {
			f->module = g;
			f->addr = addr;
		}
		return;
	}
}

uint64_t callstack_each(const struct pset *s, void (*fn)(const struct cs_stack *st, void *arg), void *arg)
{
	uint64_t total = 0;
	struct cs_frame frames[CALLSTACK_MAX_FRAMES];
	for (size_t prof = 0; prof < s->nprofiles; prof++) {
		const struct profile *p = &s->profiles[prof];
		if (p->nstacks == 0)
			continue;
		struct unwinder *u = xcalloc(1, sizeof *u);
		u->p = p;
		Dwfl *dwfl = p->hdr.stack_regs >= 2 ? unwinder_dwfl(u, s, prof) : NULL;
		for (size_t i = 0; i < p->nstacks; i++) {
			const struct profile_stack *rec = &p->stacks[i];
			u->cur = rec;
			u->n = 0;
			if (dwfl)
				dwfl_getthread_frames(dwfl, 1, frame_cb, u);
			if (u->n == 0 && p->hdr.stack_regs >= 2)  /* at least the sampled PC */
				u->pcs[u->n++] = rec->regs[p->hdr.stack_regs - 1];
			for (size_t k = 0; k < u->n; k++)
				locate(s, prof, u->pcs[k], &frames[k]);
			struct cs_stack st = { prof, rec, frames, u->n };
			total += rec->weight;
			fn(&st, arg);
		}
		if (dwfl)
			dwfl_end(dwfl);
		free(u);
	}
	return total;
}

const char *callstack_frame_name(const struct pset *s, const struct cs_frame *f, char *buf, size_t len)
{
	struct symbol sym;
	if (f->module == PSET_NO_MODULE) {
		snprintf(buf, len, "[unknown]");
		return buf;
	}
	const struct pset_module *gm = &s->mods[f->module];
	if (symtab_function_at(symtab_get(gm->path, gm->build_id, gm->build_id_len), f->addr, &sym) == 0)
		snprintf(buf, len, "%s", sym.name);
	else
		snprintf(buf, len, "%s+0x%llx", gm->display, (unsigned long long)f->addr);
	for (char *c = buf; *c; c++)
		if (*c == ';' || *c == '\t' || *c == '\n')
			*c = ':';
	return buf;
}

struct fold {
	const struct pset *s;
	struct agg *out;
	char *line;
	size_t cap;
};

static void fold_one(const struct cs_stack *st, void *arg)
{
	struct fold *f = arg;
	size_t len = 0;
	char name[1024];
	for (size_t k = st->nframes; k-- > 0;) {
		const char *n = callstack_frame_name(f->s, &st->frames[k], name, sizeof name);
		size_t nl = strlen(n);
		grow(&f->line, &f->cap, len + nl + 2, 1);
		if (len)
			f->line[len++] = ';';
		memcpy(f->line + len, n, nl);
		len += nl;
	}
	grow(&f->line, &f->cap, len + 1, 1);
	f->line[len] = '\0';
	char *key[1] = { f->line };
	agg_add(f->out, key, st->rec->weight);
}

uint64_t callstack_fold(const struct pset *s, struct agg *out)
{
	struct fold f = { s, out, NULL, 0 };
	out->nkeys = 1;
	uint64_t total = callstack_each(s, fold_one, &f);
	free(f.line);
	agg_sort(out);
	return total;
}

/* Split a folded stack (a copy) into its frames, root first. */
static size_t split_frames(char *line, char **frames, size_t max)
{
	size_t n = 0;
	char *save = NULL;
	for (char *t = strtok_r(line, ";", &save); t && n < max; t = strtok_r(NULL, ";", &save))
		frames[n++] = t;
	return n;
}

struct totals {
	const struct pset *s;
	struct agg *out;
	char (*names)[512];
};

static void total_one(const struct cs_stack *st, void *arg)
{
	struct totals *t = arg;
	for (size_t k = 0; k < st->nframes; k++) {
		callstack_frame_name(t->s, &st->frames[k], t->names[k], sizeof t->names[k]);
		int seen = 0;  /* recursion: count a function once per stack */
		for (size_t j = 0; j < k && !seen; j++)
			seen = st->frames[j].module == st->frames[k].module && strcmp(t->names[j], t->names[k]) == 0;
		if (seen)
			continue;
		char *key[2] = { st->frames[k].module == PSET_NO_MODULE ? "[unknown]" : t->s->mods[st->frames[k].module].path,
				 t->names[k] };
		agg_add(t->out, key, st->rec->weight);
	}
}

uint64_t callstack_totals(const struct pset *s, struct agg *out)
{
	struct totals t = { s, out, xmalloc(CALLSTACK_MAX_FRAMES * sizeof *t.names) };
	out->nkeys = 2;
	uint64_t total = callstack_each(s, total_one, &t);
	free(t.names);
	agg_sort(out);
	return total;
}

uint64_t callstack_neighbours(const struct agg *folded, const char *fn, int callees, struct agg *out)
{
	char *frames[CALLSTACK_MAX_FRAMES];
	uint64_t total = 0;
	out->nkeys = 1;
	for (size_t i = 0; i < folded->nrows; i++) {
		char *line = xstrdup(folded->rows[i].key[0]);
		size_t n = split_frames(line, frames, CALLSTACK_MAX_FRAMES);
		for (size_t k = 0; k < n; k++) {
			if (strcmp(frames[k], fn) != 0)
				continue;
			char *self = "[self]", *root = "[root]";
			char **who = callees ? (k + 1 < n ? &frames[k + 1] : &self) : (k > 0 ? &frames[k - 1] : &root);
			agg_add(out, who, folded->rows[i].samples);
			total += folded->rows[i].samples;
			break;
		}
		free(line);
	}
	agg_sort(out);
	return total;
}
