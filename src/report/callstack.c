/*
 * callstack.c - unwinding -g stack records with the modules' CFI, and
 * folding them.
 *
 * One Dwfl per profile holds its modules at the addresses the process had
 * them (load bias = mapping start - link-time address of the mapped file
 * offset).  The thread callbacks hand libdwfl one thread whose registers
 * are the record's and whose only readable memory is the record's stack
 * copy; dwfl_getthread_frames then walks the CFI.  The Dwfl is attached
 * once and reused for every record of the profile: each call starts a
 * fresh thread state from set_initial_registers.
 *
 * On x86_64 the frames are first walked by a cached step (struct rule):
 * libdw's CFI rules of each PC, asked of dwarf_cfi_addrframe once per
 * profile, then applied to each stack as libdwfl's frame_unwind.c applies
 * them.  Only the plain rules are cached (CFA = register + offset; each
 * register undefined, same value, or saved at or equal to CFA + offset);
 * a stack that meets anything else (no CFI, a signal frame, a DWARF
 * expression, an unreadable return address, an initial PC of 0) is
 * unwound again from its start by libdwfl, so the frames are libdwfl's in
 * every case.  $PCT_UNWIND=libdwfl unwinds every stack with libdwfl (the
 * reference the cached step is tested against, e2e 98).
 */
#define _GNU_SOURCE
#include <dwarf.h>
#include <elf.h>
#include <elfutils/libdwfl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "callstack.h"
#include "debuginfo.h"
#include "escape.h"
#include "symtab.h"
#include "u64map.h"
#include "util.h"

/* The CFI rules of one PC, x86_64 (System V psABI DWARF numbers: 0-15
 * the general registers, 16 the return address). */
#define RULE_NREGS 17
#define RULE_RA 16
enum { REG_UNSET, REG_SAME, REG_AT_CFA, REG_IS_CFA };
struct rule {
	int plain;                     /* 0: unwind this stack with libdwfl */
	int outermost;                 /* the return address is undefined here */
	uint8_t cfa_reg;               /* CFA = cfa_reg + cfa_off */
	int64_t cfa_off;
	uint8_t how[RULE_NREGS];       /* REG_*: undefined (or an error), same value,
					  saved at CFA + off, or equal to CFA + off */
	int64_t off[RULE_NREGS];
};

struct unwinder {
	Dwfl *dwfl;
	const struct profile *p;
	const struct profile_stack *cur;
	uint64_t pcs[CALLSTACK_MAX_FRAMES];
	size_t n;
	int ended;                     /* a frame returned to address 0 */
	uint64_t start_pc;             /* nonzero: libdwfl starts here, a return address */
	int cached;                    /* the cached step may be tried (x86_64) */
	struct u64map rule_at;         /* CFI lookup address -> index in rules + 1 */
	struct rule *rules;
	size_t nrules, caprules;
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

/* The 8 bytes at addr in record s's stack copy, the only memory there is;
 * false if they are not all in it. */
static bool stack_word(const struct profile_stack *s, uint64_t addr, uint64_t *result)
{
	if (addr < s->sp || addr - s->sp > s->stack_len || s->stack_len - (addr - s->sp) < sizeof *result)
		return false;
	memcpy(result, s->stack + (addr - s->sp), sizeof *result);
	return true;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	(void)dwfl;
	uint64_t w;
	if (!stack_word(((struct unwinder *)arg)->cur, addr, &w))
		return false;
	*result = w;
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
	Dwarf_Word pc = u->start_pc ? u->start_pc : u->cur->regs[n - 1];
	dwfl_thread_state_register_pc(thread, pc);
	/* x86_64's DWARF register 16 is the PC too (elfutils' x86_64_initreg.c
	 * sets it so): a PLT entry's CFA is an expression of it */
	if (u->p->hdr.stack_machine == EM_X86_64 && n - 1 == RULE_RA &&
	    !dwfl_thread_state_registers(thread, RULE_RA, 1, &pc))
		return false;
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
	if (!dwfl_frame_pc(frame, &pc, &activation))
		return DWARF_CB_ABORT;
	if (pc == 0) {
		u->ended = 1;
		return DWARF_CB_ABORT;
	}
	/* a walk begun at a return address (start_pc) has no activation */
	u->pcs[u->n] = activation && !(u->start_pc && u->n == 1) ? pc : pc - 1;
	u->n++;
	return u->n < CALLSTACK_MAX_FRAMES ? DWARF_CB_OK : DWARF_CB_ABORT;
}

/* A Dwfl with the profile's modules where the process had them, attached
 * to the record callbacks; NULL if none could be reported. */
static Dwfl *unwinder_dwfl(struct unwinder *u, const struct pset *s, size_t prof)
{
	const struct profile *p = &s->profiles[prof];
	/* the registers' layout (pct_format.h) is known for these only */
	if (p->hdr.stack_machine != EM_X86_64 && p->hdr.stack_machine != EM_AARCH64)
		return NULL;
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
		struct symtab *st = pset_symtab(gm);
		uint64_t link;
		if (*symtab_why(st) || symtab_addr(st, m->file_offset, &link) != 0 ||
		    symtab_machine(st) != (int)p->hdr.stack_machine)
			continue;
		char *why = NULL;
		int fd = symtab_open_file(symtab_file(st), &why);
		free(why);
		if (fd < 0)
			continue;
		/* ET_DYN: base is the load bias; overlapping or repeated
		 * mappings of a file are refused by libdwfl and skipped */
		Dwfl_Module *dm = dwfl_report_elf(dwfl, path_base(m->path), symtab_file(st), fd, m->start - link, false);
		if (dm != NULL) {
			debuginfo_reported(dm, m->path);
			reported++;
		} else {
			close(fd);
		}
	}
	dwfl_report_end(dwfl, NULL, NULL);
	if (reported == 0 || !dwfl_attach_state(dwfl, NULL, 1, &thread_callbacks, u)) {
		dwfl_end(dwfl);
		return NULL;
	}
	return dwfl;
}

/* The rules at lookup address pc as libdwfl's handle_cfi finds them:
 * .eh_frame first, then .debug_frame. */
static void rule_find(struct unwinder *u, uint64_t pc, struct rule *r)
{
	memset(r, 0, sizeof *r);
	Dwfl_Module *mod = dwfl_addrmodule(u->dwfl, pc);
	if (mod == NULL)
		return;
	Dwarf_Addr bias;
	Dwarf_Frame *frame = NULL;
	Dwarf_CFI *cfi = dwfl_module_eh_cfi(mod, &bias);
	if (cfi == NULL || dwarf_cfi_addrframe(cfi, pc - bias, &frame) != 0) {
		frame = NULL;
		cfi = dwfl_module_dwarf_cfi(mod, &bias);
		if (cfi == NULL || dwarf_cfi_addrframe(cfi, pc - bias, &frame) != 0)
			return;
	}
	Dwarf_Addr start, end;
	bool signal = false;
	Dwarf_Op *ops, mem[3];
	size_t nops;
	int ra = dwarf_frame_info(frame, &start, &end, &signal);
	/* libdw gives an undefined register as no operations at mem */
	r->outermost = ra >= 0 && dwarf_frame_register(frame, ra, mem, &ops, &nops) == 0 && nops == 0 && ops == mem;
	if (ra != RULE_RA || signal ||
	    dwarf_frame_cfa(frame, &ops, &nops) != 0 || nops != 1)
		goto out;
	if (ops[0].atom == DW_OP_bregx && ops[0].number < RULE_NREGS) {
		r->cfa_reg = (uint8_t)ops[0].number;
		r->cfa_off = (int64_t)ops[0].number2;
	} else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom < DW_OP_breg0 + RULE_NREGS) {
		r->cfa_reg = (uint8_t)(ops[0].atom - DW_OP_breg0);
		r->cfa_off = (int64_t)ops[0].number;
	} else {
		goto out;
	}
	for (unsigned reg = 0; reg < RULE_NREGS; reg++) {
		if (dwarf_frame_register(frame, (int)reg, mem, &ops, &nops) != 0) {
			if (reg == RULE_RA)
				goto out;
			r->how[reg] = REG_UNSET;
		} else if (nops == 0) {
			if (ops != NULL && ops != mem)
				goto out;
			r->how[reg] = ops == NULL ? REG_SAME : REG_UNSET;  /* mem: undefined */
		} else if (ops[0].atom == DW_OP_call_frame_cfa) {
			size_t k = 1;
			if (k < nops && ops[k].atom == DW_OP_plus_uconst)
				r->off[reg] = (int64_t)ops[k++].number;
			r->how[reg] = REG_AT_CFA;
			if (k < nops && ops[k].atom == DW_OP_stack_value) {
				r->how[reg] = REG_IS_CFA;
				k++;
			}
			if (k != nops)
				goto out;
		} else {
			goto out;
		}
	}
	r->plain = 1;
out:
	free(frame);
}

static const struct rule *rule_at(struct unwinder *u, uint64_t pc)
{
	uint64_t *v = u64map_slot(&u->rule_at, pc);
	if (*v == 0) {
		grow(&u->rules, &u->caprules, u->nrules + 1, sizeof *u->rules);
		rule_find(u, pc, &u->rules[u->nrules]);
		*v = ++u->nrules;
	}
	return &u->rules[*v - 1];
}

/*
 * Walk the current record with the cached rules, as dwfl_getthread_frames
 * would: the first frame's PC as sampled, each caller's as its return
 * address - 1.  Returns 1 when the walk ended at the root (the return
 * address undefined or 0), 0 when it stopped at CALLSTACK_MAX_FRAMES, and
 * -1 when a rule is not plain or a register it needs is not known: then
 * libdwfl must unwind this stack.
 */
static int unwind_cached(struct unwinder *u)
{
	const struct profile_stack *rec = u->cur;
	uint64_t val[RULE_NREGS], next[RULE_NREGS];
	uint32_t known = (1u << RULE_RA) - 1, now;   /* registers 0-15; the PC apart */
	uint64_t pc = rec->regs[RULE_NREGS - 1];
	memcpy(val, rec->regs, RULE_RA * sizeof *val);
	val[RULE_RA] = 0;
	if (pc == 0)
		return -1;
	for (u->n = 0;;) {
		uint64_t at = u->n == 0 ? pc : pc - 1;
		const struct rule *r = rule_at(u, at);
		if (!r->plain)
			return -1;
		u->pcs[u->n++] = at;
		if (u->n == CALLSTACK_MAX_FRAMES)
			return 0;
		if (!(known >> r->cfa_reg & 1))
			return -1;
		uint64_t cfa = val[r->cfa_reg] + (uint64_t)r->cfa_off;
		now = 0;
		for (unsigned reg = 0; reg < RULE_NREGS; reg++) {
			uint64_t a = cfa + (uint64_t)r->off[reg];
			switch (r->how[reg]) {
			case REG_SAME:
				next[reg] = val[reg];
				now |= known & (1u << reg);
				break;
			case REG_IS_CFA:
				next[reg] = a;
				now |= 1u << reg;
				break;
			case REG_AT_CFA:
				if (stack_word(rec, a, &next[reg]))
					now |= 1u << reg;
				break;
			}
		}
		if (r->how[RULE_RA] == REG_UNSET)
			return 1;              /* the outermost frame */
		if (!(now >> RULE_RA & 1))
			return -1;             /* libdwfl versions differ here */
		if (next[RULE_RA] == 0) {
			u->ended = 1;          /* as frame_cb's return to address 0 */
			return 1;
		}
		pc = next[RULE_RA];
		memcpy(val, next, sizeof val);
		known = now;
	}
}

int callstack_present(const struct pset *s)
{
	for (size_t p = 0; p < s->nprofiles; p++)
		if (s->profiles[p].nstacks)
			return 1;
	return 0;
}

/* What locates a profile's PCs: its modules' symtabs, fetched on first
 * need (so that symtab_get's warnings come in the order they did), and
 * each PC's frame once found.  A stack's frames repeat from stack to stack
 * (the same callers, the same return addresses): a PC's module and
 * link-time address are looked up once per profile. */
struct locator {
	const struct pset *s;
	size_t prof;
	struct symtab **st;            /* [local module], NULL until fetched */
	struct u64map seen;            /* pc -> index in found + 1 */
	struct cs_frame *found;
	size_t nfound, capfound;
	unsigned char *runtime;        /* [set module] 0 not yet asked, 1 no, 2 pct's runtime */
};

/* The set's module and link-time address of pc in profile prof. */
static void locate(struct locator *l, uint64_t pc, struct cs_frame *f)
{
	const struct pset *s = l->s;
	const struct profile *p = &s->profiles[l->prof];
	f->module = PSET_NO_MODULE;
	f->addr = pc;
	f->pc = pc;
	for (size_t i = p->nmodules; i-- > 0;) {
		const struct profile_module *m = &p->modules[i];
		if (pc < m->start || pc >= m->end)
			continue;
		uint32_t g = s->modmap[l->prof][i];
		uint64_t addr;
		if (g == PSET_NO_MODULE)
			return;
		const struct pset_module *gm = &s->mods[g];
		if (l->st[i] == NULL)
			l->st[i] = pset_symtab(gm);
		if (symtab_addr(l->st[i], pc - m->start + m->file_offset, &addr) == 0) {
			f->module = g;
			f->addr = addr;
		}
		return;
	}
}

/* Is set module g pct's runtime (its DT_SONAME libpct.so or libpct.so.N,
 * however its file is named)?  Asked once per module of a set. */
static int is_runtime(struct locator *l, uint32_t g)
{
	if (g == PSET_NO_MODULE)
		return 0;
	if (l->runtime[g] == 0) {
		const char *so = symtab_soname(pset_symtab(&l->s->mods[g]));
		size_t len = strlen(CALLSTACK_RUNTIME_SONAME);
		l->runtime[g] = so && strncmp(so, CALLSTACK_RUNTIME_SONAME, len) == 0 &&
				(so[len] == '\0' || so[len] == '.') ? 2 : 1;
	}
	return l->runtime[g] == 2;
}

/* locate, once per distinct pc */
static void locate_cached(struct locator *l, uint64_t pc, struct cs_frame *f)
{
	uint64_t *v = u64map_slot(&l->seen, pc);
	if (*v == 0) {
		grow(&l->found, &l->capfound, l->nfound + 1, sizeof *l->found);
		locate(l, pc, &l->found[l->nfound]);
		*v = ++l->nfound;
	}
	*f = l->found[*v - 1];
}

/*
 * An aarch64 PLT stub (adrp, ldr, add, br) has no CFI (GNU ld writes none
 * for aarch64's .plt), and libdwfl's fallback for a PC without CFI walks
 * the frame-pointer chain, which the stub has not extended: the stacks
 * came out as garbage ending at _start.  The stub leaves sp, x29 and the
 * link register x30 as its caller's, so its caller is at x30.  Returns 1
 * with *ret = x30 when record rec's PC is in a stub ("FUNC@plt", symtab.h)
 * of an aarch64 profile, 0 otherwise.
 */
#define AARCH64_LR 30                  /* DWARF number of x30 (AAPCS64 DWARF) */
static int aarch64_plt_return(struct locator *l, const struct profile *p, const struct profile_stack *rec,
			      uint64_t *ret)
{
	if (p->hdr.stack_machine != EM_AARCH64 || p->hdr.stack_regs <= AARCH64_LR + 1)
		return 0;
	struct cs_frame f;
	struct symbol sym;
	locate_cached(l, rec->regs[p->hdr.stack_regs - 1], &f);
	if (f.module == PSET_NO_MODULE ||
	    symtab_function_at(pset_symtab(&l->s->mods[f.module]), f.addr, &sym) != 0)
		return 0;
	if (!symbol_is_plt(sym.name) || rec->regs[AARCH64_LR] == 0)
		return 0;
	*ret = rec->regs[AARCH64_LR];
	return 1;
}

/*
 * A progress line on standard error while stacks are unwound, when it is
 * a terminal and the work has taken longer than $PCT_PROGRESS_DELAY
 * seconds (default 1): "pct: unwinding stacks: N of M", rewritten in
 * place with a carriage return, at most 10 times a second, and erased at
 * the end.  Never when standard error is not a terminal.
 */
struct progress {
	uint64_t done, total;
	double start, delay, last;
	int on;                        /* standard error is a terminal */
	int width;                     /* of the line shown; 0: none shown */
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void progress_begin(struct progress *pr, uint64_t total)
{
	memset(pr, 0, sizeof *pr);
	pr->total = total;
	pr->on = isatty(STDERR_FILENO);
	if (!pr->on)
		return;
	pr->delay = 1;
	const char *e = getenv("PCT_PROGRESS_DELAY");
	char *end;
	if (e && *e) {
		double d = strtod(e, &end);
		if (*end == '\0' && d >= 0 && d <= 1e6)
			pr->delay = d;
	}
	pr->start = now_s();
}

static void progress_step(struct progress *pr)
{
	pr->done++;
	if (!pr->on || (pr->done & 255) != 0)
		return;
	double t = now_s();
	if (t - pr->start < pr->delay || (pr->width && t - pr->last < 0.1))
		return;
	pr->last = t;
	pr->width = fprintf(stderr, "\rpct: unwinding stacks: %llu of %llu", (unsigned long long)pr->done,
			    (unsigned long long)pr->total) - 1;
	fflush(stderr);
}

static void progress_end(struct progress *pr)
{
	if (pr->width > 0)
		fprintf(stderr, "\r%*s\r", pr->width, "");
	fflush(stderr);
}

uint64_t callstack_each(const struct pset *s, void (*fn)(const struct cs_stack *st, void *arg), void *arg)
{
	uint64_t total = 0, nstacks = 0;
	struct cs_frame frames[CALLSTACK_MAX_FRAMES];
	struct progress pr;
	const char *how = getenv("PCT_UNWIND");
	int only_libdwfl = how && strcmp(how, "libdwfl") == 0;
	unsigned char *runtime = xcalloc(s->nmods + 1, 1);
	for (size_t prof = 0; prof < s->nprofiles; prof++)
		nstacks += s->profiles[prof].nstacks;
	progress_begin(&pr, nstacks);
	for (size_t prof = 0; prof < s->nprofiles; prof++) {
		const struct profile *p = &s->profiles[prof];
		if (p->nstacks == 0)
			continue;
		struct unwinder *u = xcalloc(1, sizeof *u);
		struct locator l = { s, prof, xcalloc(p->nmodules ? p->nmodules : 1, sizeof *l.st), { 0 }, NULL, 0, 0,
				     runtime };
		u->p = p;
		Dwfl *dwfl = p->hdr.stack_regs >= 2 ? unwinder_dwfl(u, s, prof) : NULL;
		u->dwfl = dwfl;
		u->cached = !only_libdwfl && p->hdr.stack_machine == EM_X86_64 && p->hdr.stack_regs == RULE_NREGS;
		for (size_t i = 0; i < p->nstacks; i++) {
			const struct profile_stack *rec = &p->stacks[i];
			int rc = -1;
			u->cur = rec;
			u->n = 0;
			u->ended = 0;
			u->start_pc = 0;
			int fast = u->cached && dwfl ? unwind_cached(u) : -1;
			if (fast >= 0) {
				rc = fast ? 0 : DWARF_CB_ABORT;
			} else if (dwfl) {
				u->n = 0;
				if (aarch64_plt_return(&l, p, rec, &u->start_pc))
					u->pcs[u->n++] = rec->regs[p->hdr.stack_regs - 1];
				rc = dwfl_getthread_frames(dwfl, 1, frame_cb, u);
			}
			/* libdwfl ends cleanly (0) also when a return address
			 * cannot be read: the stack is rooted only where the
			 * CFI says the return address is undefined */
			int rooted = u->n > 0 &&
				     (u->ended || (rc == 0 && rule_at(u, u->pcs[u->n - 1])->outermost));
			if (u->n == 0 && p->hdr.stack_regs >= 2)  /* at least the sampled PC */
				u->pcs[u->n++] = rec->regs[p->hdr.stack_regs - 1];
			size_t n = 0;
			for (size_t k = 0; k < u->n; k++) {
				locate_cached(&l, u->pcs[k], &frames[n]);
				/* pct's own frames are no part of the program's stack */
				if (!is_runtime(&l, frames[n].module))
					n++;
			}
			if (n == 0 && u->n > 0)  /* a stack of nothing else keeps its leaf */
				locate_cached(&l, u->pcs[n++], &frames[0]);
			struct cs_stack st = { prof, rec, frames, n, rooted };
			total += rec->weight;
			fn(&st, arg);
			progress_step(&pr);
		}
		if (dwfl)
			dwfl_end(dwfl);
		u64map_free(&u->rule_at);
		free(u->rules);
		free(u);
		free(l.st);
		free(l.found);
		u64map_free(&l.seen);
	}
	progress_end(&pr);
	free(runtime);
	return total;
}

/* What building a graph keeps besides it: the maps that find a frame's
 * function and a stack's path without building strings. */
struct graph_build {
	const struct pset *s;
	struct cs_graph *g;
	struct symtab **st;            /* [set module], NULL until fetched */
	struct u64map *byaddr;         /* [set module, then PSET_NO_MODULE]: symbol start -> func + 1 */
	struct u64map *bypc;           /* [profile]: pc -> func + 1 */
	struct u64map paths;           /* hash of a path's funcs (+ k on collision) -> path + 1 */
	struct u64map *byinl;          /* [set module]: inlined function's name (interned) -> func + 1 */
	uint32_t *seqs;                /* per distinct pc, its count then its funcs */
	size_t nseqs, capseqs;
	uint32_t funcs[CALLSTACK_MAX_FRAMES];
};

/* The function of a frame in g, added on first sight. */
static uint32_t graph_func(struct graph_build *b, const struct cs_frame *f)
{
	const struct pset *s = b->s;
	struct cs_graph *g = b->g;
	struct symbol sym;
	const char *name = "[unknown]";
	uint64_t start = 0;
	int named = 0;
	size_t m = f->module == PSET_NO_MODULE ? s->nmods : f->module;
	if (f->module != PSET_NO_MODULE) {
		const struct pset_module *gm = &s->mods[f->module];
		if (b->st[m] == NULL)
			b->st[m] = pset_symtab(gm);
		named = symtab_function_at(b->st[m], f->addr, &sym) == 0;
		name = named ? sym.name : name;
		start = named ? sym.start : f->addr;
	}
	uint64_t *id = u64map_slot(&b->byaddr[m], start);
	if (*id == 0) {
		if (f->module != PSET_NO_MODULE && !named) {
			grow(&g->owned, &g->capowned, g->nowned + 1, sizeof *g->owned);
			name = g->owned[g->nowned++] = xasprintf("%s+0x%llx", s->mods[f->module].display,
								 (unsigned long long)start);
		}
		char *gkey[2] = { f->module == PSET_NO_MODULE ? "[unknown]" : s->mods[f->module].path, (char *)name };
		long gr = agg_find(&g->groups, gkey);
		if (gr < 0) {
			agg_add(&g->groups, gkey, 0);
			gr = (long)g->groups.nrows - 1;
		}
		grow(&g->funcs, &g->capfuncs, g->nfuncs + 1, sizeof *g->funcs);
		g->funcs[g->nfuncs++] = (struct cs_func){ f->module, start, name, name, (size_t)gr, 0, !named };
		g->ngroups = g->groups.nrows;
		*id = g->nfuncs;
	}
	return (uint32_t)(*id - 1);
}

/* The pseudo-function "NAME (inline)" of a function inlined in module m
 * (its group too: a row of its own, apart from any symbol NAME), added on
 * first sight. */
static uint32_t graph_inline_func(struct graph_build *b, uint32_t m, const char *name)
{
	struct cs_graph *g = b->g;
	uint64_t *id = u64map_slot(&b->byinl[m], (uintptr_t)name);
	if (*id == 0) {
		grow(&g->owned, &g->capowned, g->nowned + 1, sizeof *g->owned);
		char *label = g->owned[g->nowned++] = xasprintf("%s" CS_INLINE_SUFFIX, name);
		char *gkey[2] = { b->s->mods[m].path, label };
		long gr = agg_find(&g->groups, gkey);
		if (gr < 0) {
			agg_add(&g->groups, gkey, 0);
			gr = (long)g->groups.nrows - 1;
		}
		grow(&g->funcs, &g->capfuncs, g->nfuncs + 1, sizeof *g->funcs);
		g->funcs[g->nfuncs++] = (struct cs_func){ m, 0, label, name, (size_t)gr, 1, 0 };
		g->ngroups = g->groups.nrows;
		*id = g->nfuncs;
	}
	return (uint32_t)(*id - 1);
}

size_t callstack_inlines(const struct pset *s, const struct cs_frame *f, struct inline_level *out)
{
	if (f->module == PSET_NO_MODULE)
		return 0;
	size_t n = symtab_inlines(pset_symtab(&s->mods[f->module]), f->addr, out, CALLSTACK_MAX_INLINES);
	return n < CALLSTACK_MAX_INLINES ? n : CALLSTACK_MAX_INLINES;
}

size_t callstack_model(const struct pset *s, const struct cs_frame *frames, size_t n,
		       struct cs_mframe out[CALLSTACK_MAX_FRAMES])
{
	size_t m = 0;
	for (size_t k = n; k-- > 0 && m < CALLSTACK_MAX_FRAMES;) {
		const struct cs_frame *f = &frames[k];
		struct inline_level lv[CALLSTACK_MAX_INLINES];
		size_t ni = callstack_inlines(s, f, lv);
		out[m++] = (struct cs_mframe){ .f = f };
		struct srcline sl;
		for (size_t j = ni; j-- > 0 && m < CALLSTACK_MAX_FRAMES;) {
			struct cs_mframe *o = &out[m++];
			*o = (struct cs_mframe){ .f = f, .inlined = 1, .inl = lv[j] };
			if (j > 0) {
				o->file = lv[j - 1].call_file;
				o->line = lv[j - 1].call_line;
			} else if (symtab_srcline(pset_symtab(&s->mods[f->module]), f->addr, &sl) == 0) {
				o->file = sl.file;
				o->line = sl.line;
			}
		}
	}
	return m;
}

/*
 * The functions of a frame, outermost first, into out[0..room): its
 * symbol's function, then the functions inlined at its address
 * (callstack_inlines, outermost first).  Found once per distinct pc of a
 * profile.  Returns how many were written.
 */
static size_t graph_frame(struct graph_build *b, size_t prof, const struct cs_frame *f, uint32_t *out, size_t room)
{
	if (room == 0)
		return 0;
	uint64_t *v = u64map_get(&b->bypc[prof], f->pc);
	if (v == NULL) {
		uint32_t id = graph_func(b, f);
		struct inline_level lv[CALLSTACK_MAX_INLINES];
		size_t n = callstack_inlines(b->s, f, lv);
		grow(&b->seqs, &b->capseqs, b->nseqs + 2 + n, sizeof *b->seqs);
		size_t at = b->nseqs;
		b->seqs[at] = (uint32_t)(1 + n);
		b->seqs[at + 1] = id;
		for (size_t k = 0; k < n; k++)  /* innermost first in lv */
			b->seqs[at + 2 + k] = graph_inline_func(b, f->module, lv[n - 1 - k].name);
		b->nseqs += 2 + n;
		*u64map_slot(&b->bypc[prof], f->pc) = at + 1;
		v = u64map_get(&b->bypc[prof], f->pc);
	}
	const uint32_t *seq = &b->seqs[*v - 1];
	size_t n = seq[0] < room ? seq[0] : room;
	memcpy(out, seq + 1, n * sizeof *out);
	return n;
}

/* The path of b->funcs[0..n) in g, added on first sight. */
static size_t graph_path(struct graph_build *b, size_t n)
{
	struct cs_graph *g = b->g;
	uint64_t h = UINT64_C(0xcbf29ce484222325) ^ n;  /* FNV-1a over the function numbers */
	for (size_t k = 0; k < n; k++)
		h = (h ^ b->funcs[k]) * UINT64_C(0x100000001b3);
	for (;; h++) {  /* paths of one hash take the next free keys */
		uint64_t *v = u64map_get(&b->paths, h);
		if (v == NULL)
			break;
		const struct cs_path *p = &g->paths[*v - 1];
		if (p->n == n && memcmp(p->funcs, b->funcs, n * sizeof *b->funcs) == 0)
			return *v - 1;
	}
	grow(&g->paths, &g->cappaths, g->npaths + 1, sizeof *g->paths);
	uint32_t *copy = xmalloc((n ? n : 1) * sizeof *copy);
	memcpy(copy, b->funcs, n * sizeof *copy);
	g->paths[g->npaths++] = (struct cs_path){ copy, n, 0 };
	*u64map_slot(&b->paths, h) = g->npaths;
	return g->npaths - 1;
}

static void graph_one(const struct cs_stack *st, void *arg)
{
	struct graph_build *b = arg;
	struct cs_graph *g = b->g;
	size_t n = 0;
	for (size_t k = 0; k < st->nframes; k++)
		n += graph_frame(b, st->profile, &st->frames[st->nframes - 1 - k], b->funcs + n, CALLSTACK_MAX_FRAMES - n);
	size_t r = graph_path(b, n);
	if (g->path_of)
		g->path_of[st->profile][st->rec - b->s->profiles[st->profile].stacks] = (uint32_t)r;
	g->paths[r].samples += st->rec->weight;
	g->samples += st->rec->weight;
	if (!st->rooted)
		g->unrooted += st->rec->weight;
}

uint64_t callstack_graph_ex(const struct pset *s, struct cs_graph *g, unsigned flags)
{
	memset(g, 0, sizeof *g);
	if (flags & CS_GRAPH_PATHS) {
		g->path_of = xcalloc(s->nprofiles ? s->nprofiles : 1, sizeof *g->path_of);
		for (size_t p = 0; p < s->nprofiles; p++)
			g->path_of[p] = xcalloc(s->profiles[p].nstacks ? s->profiles[p].nstacks : 1,
						sizeof **g->path_of);
		g->npath_of = s->nprofiles;
	}
	g->groups.nkeys = 2;
	struct graph_build b = { .s = s, .g = g };
	b.byinl = xcalloc(s->nmods + 1, sizeof *b.byinl);
	b.st = xcalloc(s->nmods + 1, sizeof *b.st);
	b.byaddr = xcalloc(s->nmods + 1, sizeof *b.byaddr);
	b.bypc = xcalloc(s->nprofiles ? s->nprofiles : 1, sizeof *b.bypc);
	callstack_each(s, graph_one, &b);
	for (size_t m = 0; m <= s->nmods; m++) {
		u64map_free(&b.byaddr[m]);
		u64map_free(&b.byinl[m]);
	}
	free(b.byinl);
	free(b.seqs);
	for (size_t p = 0; p < s->nprofiles; p++)
		u64map_free(&b.bypc[p]);
	u64map_free(&b.paths);
	free(b.st);
	free(b.byaddr);
	free(b.bypc);
	return g->samples;
}

uint64_t callstack_graph(const struct pset *s, struct cs_graph *g)
{
	return callstack_graph_ex(s, g, 0);
}

void callstack_graph_free(struct cs_graph *g)
{
	for (size_t i = 0; i < g->npaths; i++)
		free(g->paths[i].funcs);
	free(g->paths);
	free(g->funcs);
	for (size_t p = 0; p < g->npath_of; p++)
		free(g->path_of[p]);
	free(g->path_of);
	for (size_t i = 0; i < g->nowned; i++)
		free(g->owned[i]);
	free(g->owned);
	agg_free(&g->groups);
	memset(g, 0, sizeof *g);
}

void callstack_print_unrooted(const struct cs_graph *g, const char *prefix, FILE *out)
{
	fprintf(out, "%s%llu of %llu samples with stacks (%.2f%%) were not unwound to their root "
		     "(see pct-report(1)): their callers are missing from totals and call graphs\n",
		prefix, (unsigned long long)g->unrooted, (unsigned long long)g->samples,
		g->samples ? 100.0 * (double)g->unrooted / (double)g->samples : 0.0);
}

void callstack_fold(const struct cs_graph *g, struct agg *out)
{
	char *line = NULL;
	size_t cap = 0;
	out->nkeys = 1;
	for (size_t i = 0; i < g->npaths; i++) {
		const struct cs_path *p = &g->paths[i];
		size_t len = 0;
		for (size_t k = 0; k < p->n; k++) {
			const char *n = g->funcs[p->funcs[k]].name;
			grow(&line, &cap, len + 4 * strlen(n) + 2, 1);
			if (k)
				line[len++] = ';';
			for (; *n; n++)
				if (*n == ';') {
					memcpy(line + len, "\\x3b", 4);
					len += 4;
				} else {
					line[len++] = *n;
				}
		}
		grow(&line, &cap, len + 1, 1);
		line[len] = '\0';
		agg_add(out, &line, p->samples);
	}
	free(line);
	agg_sort(out);
}

void callstack_totals(const struct cs_graph *g, struct agg *out)
{
	uint64_t *sum = xcalloc(g->ngroups ? g->ngroups : 1, sizeof *sum);
	size_t *seen = xcalloc(g->ngroups ? g->ngroups : 1, sizeof *seen);  /* path index + 1 */
	out->nkeys = 2;
	for (size_t i = 0; i < g->npaths; i++)
		for (size_t k = 0; k < g->paths[i].n; k++) {
			if (g->funcs[g->paths[i].funcs[k]].inlined)  /* no row of the function view */
				continue;
			size_t grp = g->funcs[g->paths[i].funcs[k]].group;
			if (seen[grp] == i + 1)  /* recursion: count a function once per stack */
				continue;
			seen[grp] = i + 1;
			sum[grp] += g->paths[i].samples;
		}
	/* keyed as the pipeline's TSV writes module and function (put_tsv_field),
	 * for the flat report's rows to find their totals */
	for (size_t grp = 0; grp < g->ngroups; grp++) {
		char *key[2] = { esc_dup(g->groups.rows[grp].key[0]), esc_dup(g->groups.rows[grp].key[1]) };
		agg_add(out, key, sum[grp]);
		free(key[0]);
		free(key[1]);
	}
	free(sum);
	free(seen);
	agg_sort(out);
}

uint64_t callstack_neighbours(const struct cs_graph *g, const char *fn, int callees, struct agg *out)
{
	uint64_t total = 0;
	char *self = "[self]", *root = "[root]";
	unsigned char *is_fn = xcalloc(g->nfuncs ? g->nfuncs : 1, 1);
	for (size_t f = 0; f < g->nfuncs; f++)
		is_fn[f] = strcmp(g->funcs[f].bare, fn) == 0;
	out->nkeys = 1;
	for (size_t i = 0; i < g->npaths; i++) {
		const struct cs_path *p = &g->paths[i];
		for (size_t k = 0; k < p->n; k++) {
			if (!is_fn[p->funcs[k]])
				continue;
			char *who = callees ? (k + 1 < p->n ? (char *)g->funcs[p->funcs[k + 1]].name : self)
					    : (k > 0 ? (char *)g->funcs[p->funcs[k - 1]].name : root);
			agg_add(out, &who, p->samples);
			total += p->samples;
			break;
		}
	}
	free(is_fn);
	agg_sort(out);
	return total;
}
