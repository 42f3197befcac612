/* export.c - what the exporters share; see export.h. */
#include <stdlib.h>

#include "callstack.h"
#include "export.h"
#include "symtab.h"
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
