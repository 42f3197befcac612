/*
 * cmd_annotate.c - `pct annotate`: annotated disassembly of functions,
 * with each instruction's samples and the source lines interleaved.
 *
 * The disassembler is capstone, in-process (Debian libcapstone-dev),
 * rather than objdump: it decodes exactly the bytes of the function that
 * symtab_code() hands it, for the module's own architecture (x86_64 and
 * aarch64 alike), with no process to spawn per function and no text
 * output of another tool to parse.
 */
#include <capstone/capstone.h>
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "modfile.h"
#include "commands.h"
#include "escape.h"
#include "listing.h"
#include "namematch.h"
#include "pset.h"
#include "source.h"
#include "symtab.h"
#include "u64map.h"
#include "util.h"

static const char usage[] =
	"usage: pct annotate [-n N] [-S DIR] [--source-root=DIR]\n"
	"                    [SYMBOL | MODULE+0xSTART-0xEND] FILE...\n"
	"\n"
	"Print the annotated disassembly of the N hottest functions (default 3) of\n"
	"the pct profiles FILE..., or of the function SYMBOL (its name, demangled\n"
	"or not, or MODULE+0xSTART as reports print it; else, among the functions\n"
	"that hold samples, the name without its parameter list, a unique prefix\n"
	"or a POSIX extended regex, several matches listed with exit 1), or of\n"
	"the address range MODULE+0xSTART-0xEND.  Every instruction shows its samples and its share\n"
	"of the function's samples; '=>' marks the hottest instruction, '*' any\n"
	"other with 5% or more.  Source lines are interleaved where debug info\n"
	"exists.  A sample's address is the instruction the timer interrupted,\n"
	"often the one after a slow instruction.\n"
	"\n"
	"  -n, --functions=N    annotate the N hottest functions\n"
	"  -S, --source-dir=DIR look for source files under DIR too\n"
	"  --source-root=DIR    read source files only under DIR (symlinks and ..\n"
	"                       resolved; repeatable); others are not shown\n"
	PSET_TIME_USAGE
	MODFILE_USAGE
	"\n"
	"See pct-annotate(1).\n";

struct target {
	uint32_t module;
	uint64_t start, end;           /* link-time; end 0 if unknown */
	const char *name;
	uint64_t samples;
};

static int cmp_targets(const void *pa, const void *pb)
{
	const struct target *a = pa, *b = pb;
	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* The functions that hold samples, hottest first. */
static struct target *hot_functions(const struct pset *s, const struct pset_addr *v, size_t n, size_t *nt)
{
	struct u64map index = { 0 };
	struct target *t = NULL;
	size_t cap = 0;
	*nt = 0;
	for (size_t i = 0; i < n; i++) {
		const struct pset_module *g = &s->mods[v[i].module];
		struct symbol sym;
		if (symtab_function_at(pset_symtab(g), v[i].addr, &sym) != 0)
			continue;
		uint64_t key = ((uint64_t)v[i].module << 48) ^ sym.start;
		uint64_t *slot = u64map_get(&index, key);
		if (slot == NULL) {
			grow(&t, &cap, *nt + 1, sizeof *t);
			t[*nt] = (struct target){ v[i].module, sym.start, sym.end, sym.name, 0 };
			*u64map_slot(&index, key) = (*nt)++;
			slot = u64map_get(&index, key);
		}
		t[*slot].samples += v[i].samples;
	}
	u64map_free(&index);
	sort(t, *nt, sizeof *t, cmp_targets);
	return t;
}

/* The function or range named on the command line, in any module. */
static int find_target(const struct pset *s, const char *spec, struct target *t)
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
			*t = (struct target){ m, lo, hi, xstrdup(spec), 0 };
			return 0;
		}
		if (!dash && symtab_find_function(st, spec, &sym) == 0) {
			*t = (struct target){ m, sym.start, sym.end, sym.name, 0 };
			return 0;
		}
	}
	return -1;
}

static void annotate(const struct pset *s, const struct pset_addr *v, size_t n, uint64_t total,
		     const struct target *t)
{
	const struct pset_module *g = &s->mods[t->module];
	struct symtab *st = pset_symtab(g);
	struct u64map at = { 0 };
	uint64_t fn_samples = 0, hottest = 0, max_addr = t->start;
	uint64_t end = t->end;

	for (size_t i = 0; i < n; i++)
		if (v[i].module == t->module && v[i].addr >= t->start && (end == 0 || v[i].addr < end)) {
			struct symbol sym;
			/* without a known end, stop at the next function */
			if (end == 0 && (symtab_function_at(st, v[i].addr, &sym) != 0 || sym.start != t->start))
				continue;
			*u64map_slot(&at, v[i].addr) += v[i].samples;
			fn_samples += v[i].samples;
			if (v[i].addr > max_addr)
				max_addr = v[i].addr;
		}
	if (end == 0)
		end = max_addr + 16;
	for (size_t i = 0; i < at.cap; i++)
		if (at.used[i] && at.vals[i] > hottest)
			hottest = at.vals[i];

	/* names, paths and source text print escaped (escape.h) */
	char *name = esc_dup(t->name), *path = esc_dup(g->path);
	printf("# %s in %s (%s), 0x%llx-0x%llx: %llu samples, %.2f%% of all\n", name, path_base(path), path,
	       (unsigned long long)t->start, (unsigned long long)end, (unsigned long long)fn_samples,
	       total ? 100.0 * (double)fn_samples / (double)total : 0.0);
	free(name);
	free(path);

	const uint8_t *code;
	size_t len = symtab_code(st, t->start, end - t->start, &code);
	int machine = symtab_machine(st);
	csh cs;
	cs_insn *insn = NULL;
	size_t count = 0;
	cs_err e = machine == EM_X86_64 ? cs_open(CS_ARCH_X86, CS_MODE_64, &cs)
		 : machine == EM_AARCH64 ? cs_open(CS_ARCH_ARM64, CS_MODE_ARM, &cs)
		 : CS_ERR_ARCH;
	if (len == 0 || e != CS_ERR_OK) {
		printf("# no code to disassemble: %s\n\n",
		       len == 0 ? "the bytes are not in the module's file" : "unsupported architecture");
		if (e == CS_ERR_OK)
			cs_close(&cs);
		u64map_free(&at);
		return;
	}
	count = cs_disasm(cs, code, len, t->start, 0, &insn);
	printf("%2s %9s %8s %14s  %s\n", "", "samples", "percent", "address", "instruction");
	const char *last_file = NULL;
	int last_line = -1;
	for (size_t i = 0; i < count; i++) {
		struct srcline sl;
		if (symtab_srcline(st, insn[i].address, &sl) == 0 && (sl.file != last_file || sl.line != last_line)) {
			const struct srcfile *sf = source_get(sl.file);
			const char *text = source_line(sf, sl.line);
			printf("%36s", "");
			esc_fputs(path_base(sl.file), stdout);
			printf(":%d", sl.line);
			if (text || sf->outside) {
				fputs("  ", stdout);
				esc_fputs_tabs(text ? text : "(source not shown: outside --source-root)", stdout);
			}
			putchar('\n');
			last_file = sl.file;
			last_line = sl.line;
		}
		uint64_t *c = u64map_get(&at, insn[i].address);
		uint64_t k = c ? *c : 0;
		double pct = fn_samples ? 100.0 * (double)k / (double)fn_samples : 0;
		const char *mark = k && k == hottest ? "=>" : pct >= 5.0 ? " *" : "";
		if (k)
			printf("%-2s %9llu %7.2f%% %14llx  %s %s\n", mark, (unsigned long long)k, pct,
			       (unsigned long long)insn[i].address, insn[i].mnemonic, insn[i].op_str);
		else
			printf("%-2s %9s %8s %14llx  %s %s\n", "", "", "", (unsigned long long)insn[i].address,
			       insn[i].mnemonic, insn[i].op_str);
	}
	if (count == 0)
		printf("# capstone could not decode the function\n");
	printf("\n");
	cs_free(insn, count);
	cs_close(&cs);
	u64map_free(&at);
}

int cmd_annotate(int argc, char **argv)
{
	struct listing l;
	int status;
	if (listing_open(argc, argv, usage, "functions", 3, &l, &status) != 0)
		return status;
	if (l.target && l.target[0] == '\0')
		die_usage("annotate: wants a function name or MODULE+0xSTART-0xEND, not an empty one");
	if (l.target) {
		struct target t;
		if (find_target(&l.set, l.target, &t) == 0) {
			annotate(&l.set, l.addrs, l.naddrs, l.total, &t);
		} else {
			/* the name as people type it, among the functions with samples */
			size_t nt, nnames = 0;
			struct target *hot = hot_functions(&l.set, l.addrs, l.naddrs, &nt);
			const char **names = xmalloc((nt ? nt : 1) * sizeof *names);
			for (size_t i = 0; i < nt; i++) {
				size_t j = 0;
				while (j < nnames && strcmp(names[j], hot[i].name) != 0)
					j++;
				if (j == nnames)
					names[nnames++] = hot[i].name;
			}
			const char *name = name_match_one("annotate", l.target, names, nnames);
			if (name == NULL)
				die("annotate: no function or range '%s' in the profiled modules", esc_dup(l.target));
			for (size_t i = 0; i < nt; i++)  /* that name in every module */
				if (strcmp(hot[i].name, name) == 0)
					annotate(&l.set, l.addrs, l.naddrs, l.total, &hot[i]);
			free(names);
			free(hot);
		}
	} else {
		size_t nt;
		struct target *t = hot_functions(&l.set, l.addrs, l.naddrs, &nt);
		if (nt == 0)
			die("annotate: no sample falls in a function that the modules' files name");
		for (size_t i = 0; i < nt && i < l.count; i++)
			annotate(&l.set, l.addrs, l.naddrs, l.total, &t[i]);
		free(t);
	}
	listing_close(&l);
	return 0;
}
