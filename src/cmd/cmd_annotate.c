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
#include <stdlib.h>
#include <string.h>

#include "modfile.h"
#include "commands.h"
#include "escape.h"
#include "annotate.h"
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
	PSET_SELECT_USAGE
	MODFILE_USAGE
	"  -h, --help           show this help\n"
	"\n"
	"See pct-annotate(1).\n";

/* Print the annotation of t: a heading, then each instruction with its
 * samples and share of the function's, source lines interleaved. */
static void annotate(const struct pset *s, const struct pset_addr *v, size_t n, uint64_t total,
		     const struct ann_target *t)
{
	const struct pset_module *g = &s->mods[t->module];
	struct annotation a;
	annotate_function(s, v, n, t, &a);
	/* names, paths and source text print escaped (escape.h) */
	char *name = esc_dup(t->name), *path = esc_dup(g->path);
	printf("# %s in %s (%s), 0x%llx-0x%llx: %llu samples, %.2f%% of all\n", name, path_base(path), path,
	       (unsigned long long)t->start, (unsigned long long)a.end, (unsigned long long)a.samples,
	       total ? 100.0 * (double)a.samples / (double)total : 0.0);
	free(name);
	free(path);
	/* the instruction set is the module's own (its ELF e_machine), never
	 * this machine's: say which one was decoded */
	const char *arch = annotate_arch_name(a.machine);
	if (a.ninsns == 0 && a.why && strcmp(a.why, ANN_WHY_UNDECODED) != 0) {
		if (strcmp(a.why, ANN_WHY_ARCH) == 0)
			printf("# no code to disassemble: %s (ELF e_machine %d)\n\n", a.why, a.machine);
		else
			printf("# no code to disassemble: %s\n\n", a.why);
		annotation_free(&a);
		return;
	}
	printf("# instructions: %s (ELF e_machine %d)\n", arch ? arch : "?", a.machine);
	printf("%2s %9s %8s %14s  %s\n", "", "samples", "percent", "address", "instruction");
	const char *last_file = NULL;
	int last_line = -1;
	for (size_t i = 0; i < a.ninsns; i++) {
		const struct ann_insn *in = &a.insns[i];
		if (in->file && (in->file != last_file || in->line != last_line)) {
			const struct srcfile *sf = source_get(in->file);
			const char *text = source_line(sf, in->line);
			printf("%36s", "");
			esc_fputs(path_base(in->file), stdout);
			printf(":%d", in->line);
			if (text || sf->outside) {
				fputs("  ", stdout);
				esc_fputs_tabs(text ? text : "(source not shown: outside --source-root)", stdout);
			}
			putchar('\n');
			last_file = in->file;
			last_line = in->line;
		}
		const char *mark = annotate_mark(in->samples, a.hottest, a.samples);
		if (in->samples)
			printf("%-2s %9llu %7.2f%% %14llx  %s\n", mark, (unsigned long long)in->samples,
			       a.samples ? 100.0 * (double)in->samples / (double)a.samples : 0.0,
			       (unsigned long long)in->addr, in->text);
		else
			printf("%-2s %9s %8s %14llx  %s\n", "", "", "", (unsigned long long)in->addr, in->text);
	}
	if (a.ninsns == 0)
		printf("# %s\n", a.why);
	printf("\n");
	annotation_free(&a);
}

int cmd_annotate(int argc, char **argv)
{
	struct listing l;
	int status;
	if (listing_open(argc, argv, usage, "functions", 3, &l, &status) != 0)
		return status;
	cmd_wrap_headers();
	if (l.target && l.target[0] == '\0')
		die_usage("annotate: wants a function name or MODULE+0xSTART-0xEND, not an empty one");
	if (l.target) {
		struct ann_target t;
		if (annotate_find_target(&l.set, l.target, &t) == 0) {
			annotate(&l.set, l.addrs, l.naddrs, l.total, &t);
		} else {
			/* the name as people type it, among the functions with samples */
			size_t nt, nnames = 0;
			struct ann_target *hot = annotate_hot_functions(&l.set, l.addrs, l.naddrs, &nt);
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
		struct ann_target *t = annotate_hot_functions(&l.set, l.addrs, l.naddrs, &nt);
		if (nt == 0)
			die("annotate: no sample falls in a function that the modules' files name");
		for (size_t i = 0; i < nt && i < l.count; i++)
			annotate(&l.set, l.addrs, l.naddrs, l.total, &t[i]);
		free(t);
	}
	listing_close(&l);
	return 0;
}
