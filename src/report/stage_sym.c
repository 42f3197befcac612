/*
 * stage_sym.c - the sym stage: append to each row of dump's TSV the
 * function holding its offset, the offset within that function, and the
 * link-time address (stages.h).
 */
#include <stdio.h>

#include "stages.h"
#include "symtab.h"
#include "tsv.h"
#include "util.h"

int stage_sym(FILE *in, const char *name, FILE *out, struct error *e)
{
	static const char *const need[] = { "module", "build_id", "offset", NULL };
	struct tsv t;
	char err[512], where[600];
	if (stage_open(&t, in, name, need, out, "function\tfunction_offset\taddress", e) != 0)
		return -1;
	int cm = tsv_column(&t, "module"), cb = tsv_column(&t, "build_id"), co = tsv_column(&t, "offset");
	int rc;
	while ((rc = tsv_next(&t, err, sizeof err)) > 0) {
		snprintf(where, sizeof where, "%s:%lu", name, t.lineno);
		uint64_t off, addr;
		struct symtab *st;
		struct symbol sym;
		if (stage_hex_field(t.fields[co], "offset", where, &off, e) != 0 ||
		    stage_row_symtab(t.fields[cm], t.fields[cb], where, &st, e) != 0) {
			tsv_close(&t);
			return -1;
		}
		stage_put_fields(&t, out);
		if (st && symtab_addr(st, off, &addr) == 0) {
			if (symtab_function_at(st, addr, &sym) == 0) {
				put_tsv_field(sym.name, out);
				fprintf(out, "\t0x%llx", (unsigned long long)(addr - sym.start));
			} else {
				fprintf(out, "[unknown]\t");
			}
			fprintf(out, "\t0x%llx\n", (unsigned long long)addr);
		} else {
			fprintf(out, "[unknown]\t\t\n");
		}
	}
	tsv_close(&t);
	return rc < 0 ? error_set(e, 1, "%s", err) : 0;
}
