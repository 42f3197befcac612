/*
 * annotate.c - a function's annotated disassembly as data (annotate.h).
 */
#include <capstone/capstone.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate.h"
#include "symtab.h"
#include "u64map.h"
#include "util.h"

static int cmp_targets(const void *pa, const void *pb)
{
	const struct ann_target *a = pa, *b = pb;
	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	return strcmp(a->name, b->name);
}

struct ann_target *annotate_hot_functions(const struct pset *s, const struct pset_addr *v, size_t n, size_t *nt)
{
	struct u64map index = { 0 };
	struct ann_target *t = NULL;
	size_t cap = 0;
	*nt = 0;
	for (size_t i = 0; i < n; i++) {
		if (v[i].module == PSET_NO_MODULE)
			continue;
		const struct pset_module *g = &s->mods[v[i].module];
		struct symbol sym;
		if (symtab_function_at(pset_symtab(g), v[i].addr, &sym) != 0)
			continue;
		uint64_t key = ((uint64_t)v[i].module << 48) ^ sym.start;
		uint64_t *slot = u64map_get(&index, key);
		if (slot == NULL) {
			grow(&t, &cap, *nt + 1, sizeof *t);
			t[*nt] = (struct ann_target){ v[i].module, sym.start, sym.end, sym.name, 0 };
			*u64map_slot(&index, key) = (*nt)++;
			slot = u64map_get(&index, key);
		}
		t[*slot].samples += v[i].samples;
	}
	u64map_free(&index);
	sort(t, *nt, sizeof *t, cmp_targets);
	return t;
}

int annotate_find_target(const struct pset *s, const char *spec, struct ann_target *t)
{
	char *dash = NULL;
	const char *plus = strstr(spec, "+0x");
	if (plus)
		dash = strchr(plus, '-');
	for (uint32_t m = 0; m < s->nmods; m++) {
		const struct pset_module *g = &s->mods[m];
		struct symtab *st = pset_symtab(g);
		struct symbol sym;
		if (dash && (size_t)(plus - spec) == strlen(path_base(g->path)) &&
		    strncmp(spec, path_base(g->path), (size_t)(plus - spec)) == 0) {
			char *end;
			uint64_t lo = strtoull(plus + 3, &end, 16), hi;
			if (end != dash || strncmp(dash, "-0x", 3) != 0)
				return -1;
			hi = strtoull(dash + 3, &end, 16);
			if (*end || hi <= lo)
				return -1;
			*t = (struct ann_target){ m, lo, hi, spec, 0 };
			return 0;
		}
		if (!dash && symtab_find_function(st, spec, &sym) == 0) {
			*t = (struct ann_target){ m, sym.start, sym.end, sym.name, 0 };
			return 0;
		}
	}
	return -1;
}

void annotate_function(const struct pset *s, const struct pset_addr *v, size_t n, const struct ann_target *t,
		       struct annotation *a)
{
	memset(a, 0, sizeof *a);
	a->target = *t;
	const struct pset_module *g = &s->mods[t->module];
	struct symtab *st = pset_symtab(g);
	struct u64map at = { 0 };
	uint64_t max_addr = t->start, end = t->end;
	for (size_t i = 0; i < n; i++)
		if (v[i].module == t->module && v[i].addr >= t->start && (end == 0 || v[i].addr < end)) {
			struct symbol sym;
			/* without a known end, stop at the next function */
			if (end == 0 && (symtab_function_at(st, v[i].addr, &sym) != 0 || sym.start != t->start))
				continue;
			*u64map_slot(&at, v[i].addr) += v[i].samples;
			a->samples += v[i].samples;
			if (v[i].addr > max_addr)
				max_addr = v[i].addr;
		}
	if (end == 0)
		end = max_addr + 16;
	a->end = end;
	for (size_t i = 0; i < at.cap; i++)
		if (at.used[i] && at.vals[i] > a->hottest)
			a->hottest = at.vals[i];
	const uint8_t *code;
	size_t len = symtab_code(st, t->start, end - t->start, &code);
	a->machine = symtab_machine(st);
	csh cs;
	cs_err e = a->machine == EM_X86_64 ? cs_open(CS_ARCH_X86, CS_MODE_64, &cs)
		 : a->machine == EM_AARCH64 ? cs_open(CS_ARCH_ARM64, CS_MODE_ARM, &cs)
		 : CS_ERR_ARCH;
	if (len == 0 || e != CS_ERR_OK) {
		a->why = len == 0 ? ANN_WHY_NO_BYTES : ANN_WHY_ARCH;
		if (e == CS_ERR_OK)
			cs_close(&cs);
		u64map_free(&at);
		return;
	}
	cs_insn *insn = NULL;
	size_t count = cs_disasm(cs, code, len, t->start, 0, &insn);
	if (count == 0)
		a->why = ANN_WHY_UNDECODED;
	a->insns = count ? xcalloc(count, sizeof *a->insns) : NULL;
	a->ninsns = count;
	for (size_t i = 0; i < count; i++) {
		struct ann_insn *in = &a->insns[i];
		struct srcline sl;
		in->addr = insn[i].address;
		uint64_t *c = u64map_get(&at, insn[i].address);
		in->samples = c ? *c : 0;
		snprintf(in->text, sizeof in->text, "%s %s", insn[i].mnemonic, insn[i].op_str);
		if (symtab_srcline(st, insn[i].address, &sl) == 0) {
			in->file = sl.file;
			in->line = sl.line;
		}
	}
	cs_free(insn, count);
	cs_close(&cs);
	u64map_free(&at);
}

void annotation_free(struct annotation *a)
{
	free(a->insns);
	memset(a, 0, sizeof *a);
}

const char *annotate_arch_name(int m)
{
	return m == EM_X86_64 ? "x86_64" : m == EM_AARCH64 ? "aarch64" : NULL;
}

const char *annotate_mark(uint64_t k, uint64_t hottest, uint64_t total)
{
	double pct = total ? 100.0 * (double)k / (double)total : 0;
	return k && k == hottest ? "=>" : pct >= ANN_HOT_PERCENT ? " *" : "";
}
