/*
 * annotate.h - a function's annotated disassembly as data: each
 * instruction with its samples and its source line, the hottest marked.
 * `pct annotate` prints it (cmd_annotate.c); `pct html` embeds it, with
 * the source lines summed from the same instructions, so the two agree.
 *
 * The disassembler is capstone, in-process (Debian libcapstone-dev): it
 * decodes exactly the bytes of the function that symtab_code() hands it,
 * for the module's own architecture (x86_64, aarch64).
 */
#ifndef PCT_ANNOTATE_H
#define PCT_ANNOTATE_H
#include <stddef.h>
#include <stdint.h>
#include "pset.h"

/* A function, or an address range, of a set's module. */
struct ann_target {
	uint32_t module;               /* index in the set's mods */
	uint64_t start, end;           /* link-time; end 0 if unknown (then: up to the next
					  function, or the last sample + 16) */
	const char *name;              /* symbol name (the symtab's), or the range as typed: the
					  spec given to annotate_find_target (not owned) */
	uint64_t samples;              /* annotate_hot_functions: its samples */
};

/* One instruction. */
struct ann_insn {
	uint64_t addr;                 /* link-time address */
	uint64_t samples;
	char text[192];                /* "mnemonic op_str", as capstone prints it */
	const char *file;              /* its source file (symtab's, interned), or NULL */
	int line;                      /* its line, 0 if none */
};

#define ANN_HOT_PERCENT 5.0           /* '*': an instruction with this share of its function or more */

struct annotation {
	struct ann_target target;
	uint64_t end;                  /* the end used (target.end, or as found) */
	uint64_t samples;              /* samples in [start, end) */
	uint64_t hottest;              /* the largest samples of one instruction */
	struct ann_insn *insns;        /* in address order; NULL if none decoded */
	size_t ninsns;
	const char *why;               /* why there are no instructions, or NULL: one of the
					  ANN_WHY_ strings below */
	int machine;                   /* ELF e_machine of the module (EM_X86_64, EM_AARCH64) */
};

/* The reasons a function has no instructions (annotation.why). */
#define ANN_WHY_NO_BYTES "the bytes are not in the module's file"
#define ANN_WHY_ARCH "unsupported architecture"
#define ANN_WHY_UNDECODED "capstone could not decode the function"

/*
 * The functions of set s holding the samples v[0..n) (pset_addresses),
 * hottest first (ties by name); *nt of them, malloc'd (free it).  A sample
 * in no named function is left out.
 */
struct ann_target *annotate_hot_functions(const struct pset *s, const struct pset_addr *v, size_t n, size_t *nt);

/*
 * The function or range spec in any module of s: a symbol name as
 * symtab_find_function() finds it, or MODULE+0xSTART-0xEND (MODULE the
 * module's base name).  Returns 0 with *t set, or -1 if none.
 */
int annotate_find_target(const struct pset *s, const char *spec, struct ann_target *t);

/*
 * Annotate target t with the samples v[0..n): fills *a (free it with
 * annotation_free).  Never fails: a function that cannot be disassembled
 * gets no instructions and a reason in a->why.
 */
void annotate_function(const struct pset *s, const struct pset_addr *v, size_t n, const struct ann_target *t,
		       struct annotation *a);
void annotation_free(struct annotation *a);

/* The mark of an instruction (or line) with k of total samples, the
 * largest one holding hottest: "=>" the hottest, " *" ANN_HOT_PERCENT or
 * more, else "". */
const char *annotate_mark(uint64_t k, uint64_t hottest, uint64_t total);

/* The name of the instruction set capstone decodes for ELF e_machine m
 * ("x86_64", "aarch64"), or NULL if pct does not disassemble it. */
const char *annotate_arch_name(int m);

#endif
