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

void stage_sym_cols_at(struct symtab *st, int has_address, uint64_t address, struct sym_cols *c)
{
	struct symbol sym;
	c->function = NULL;
	c->has_address = has_address;
	c->address = address;
	if (c->has_address && symtab_function_at(st, c->address, &sym) == 0) {
		c->function = sym.name;
		c->function_offset = c->address - sym.start;
	}
}

void stage_sym_cols(struct symtab *st, uint64_t off, struct sym_cols *c)
{
	uint64_t address = 0;
	int has = st && symtab_addr(st, off, &address) == 0;
	stage_sym_cols_at(st, has, address, c);
}

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
		uint64_t off;
		struct symtab *st;
		struct sym_cols c;
		if (stage_hex_field(t.fields[co], "offset", where, &off, e) != 0 ||
		    stage_row_symtab(t.fields[cm], t.fields[cb], where, &st, e) != 0) {
			tsv_close(&t);
			return -1;
		}
		stage_put_fields(&t, out);
		stage_sym_cols(st, off, &c);
		if (c.function) {
			put_tsv_field(c.function, out);
			fprintf(out, "\t0x%llx", (unsigned long long)c.function_offset);
		} else {
			fprintf(out, "[unknown]\t");
		}
		if (c.has_address)
			fprintf(out, "\t0x%llx\n", (unsigned long long)c.address);
		else
			fprintf(out, "\t\n");
	}
	tsv_close(&t);
	return rc < 0 ? error_set(e, 1, "%s", err) : 0;
}
