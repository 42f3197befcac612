/*
 * stage_line.c - the line stage: append to each row the source file and
 * line of its address, from the DWARF line table, and the chain of
 * inlined functions that hold it (stages.h).
 */
#include <stdio.h>

#include "stages.h"
#include "symtab.h"
#include "tsv.h"
#include "util.h"

int stage_line_cols(struct symtab *st, int has_address, uint64_t address, uint64_t off, struct srcline *sl)
{
	if (st == NULL || (!has_address && symtab_addr(st, off, &address) != 0))
		return -1;
	return symtab_srcline(st, address, sl);
}

int stage_line(FILE *in, const char *name, FILE *out, struct error *e)
{
	static const char *const need[] = { "module", "build_id", "offset", NULL };
	struct tsv t;
	char err[512], where[600];
	if (stage_open(&t, in, name, need, out, "file\tline\tinline", e) != 0)
		return -1;
	int cm = tsv_column(&t, "module"), cb = tsv_column(&t, "build_id"), co = tsv_column(&t, "offset");
	int ca = tsv_column(&t, "address");
	int rc;
	while ((rc = tsv_next(&t, err, sizeof err)) > 0) {
		snprintf(where, sizeof where, "%s:%lu", name, t.lineno);
		struct symtab *st;
		struct srcline sl;
		uint64_t addr = 0, off = 0;
		int have = 0;
		if (stage_row_symtab(t.fields[cm], t.fields[cb], where, &st, e) != 0)
			goto fail;
		if (st) {
			have = ca >= 0 && t.fields[ca][0];
			if (have ? stage_hex_field(t.fields[ca], "address", where, &addr, e) != 0
				 : stage_hex_field(t.fields[co], "offset", where, &off, e) != 0)
				goto fail;
		}
		stage_put_fields(&t, out);
		if (stage_line_cols(st, have, addr, off, &sl) == 0) {
			put_tsv_field(sl.file, out);
			fprintf(out, "\t%d\t", sl.line);
			put_tsv_field(sl.inlined, out);
			fputc('\n', out);
		} else {
			fprintf(out, "[unknown]\t0\t\n");
		}
	}
	tsv_close(&t);
	return rc < 0 ? error_set(e, 1, "%s", err) : 0;
fail:
	tsv_close(&t);
	return -1;
}
