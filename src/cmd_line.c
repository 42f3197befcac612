/*
 * cmd_line.c - `pct line`: the third filter stage.  It appends the source
 * file and line of each row's address, from the DWARF line table, and the
 * chain of inlined functions that hold it.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "stages.h"
#include "symtab.h"
#include "tsv.h"
#include "util.h"

static const char usage[] =
	"usage: pct line [FILE...]\n"
	"\n"
	"Read TSV with the columns module, build_id and offset (and address, if\n"
	"`pct sym` added it) from FILE... or standard input, and write it with\n"
	"three columns appended: file and line (from the DWARF line table, through\n"
	"separate debug info if installed; [unknown] and 0 without), and inline:\n"
	"the inlined functions holding the address, innermost first, each as\n"
	"NAME@FILE:LINE with the call site it was inlined at, separated by ';'\n"
	"(empty if none).\n"
	"\n"
	"See pct-line(1).\n";

void stage_line(FILE *in, const char *name, FILE *out)
{
	static const char *const need[] = { "module", "build_id", "offset", NULL };
	struct tsv t;
	char err[512], where[600];
	stage_open(&t, in, name, need, out, "file\tline\tinline");
	int cm = tsv_column(&t, "module"), cb = tsv_column(&t, "build_id"), co = tsv_column(&t, "offset");
	int ca = tsv_column(&t, "address");
	int rc;
	while ((rc = tsv_next(&t, err, sizeof err)) > 0) {
		snprintf(where, sizeof where, "%s:%lu", name, t.lineno);
		struct symtab *st = stage_row_symtab(t.fields[cm], t.fields[cb], where);
		struct srcline sl;
		uint64_t addr = 0;
		int ok = 0;
		if (st) {
			if (ca >= 0 && t.fields[ca][0])
				addr = stage_hex_field(t.fields[ca], "address", where), ok = 1;
			else
				ok = symtab_addr(st, stage_hex_field(t.fields[co], "offset", where), &addr) == 0;
		}
		stage_put_fields(&t, out);
		if (ok && symtab_srcline(st, addr, &sl) == 0) {
			put_tsv_field(sl.file, out);
			fprintf(out, "\t%d\t", sl.line);
			put_tsv_field(sl.inlined, out);
			fputc('\n', out);
		} else {
			fprintf(out, "[unknown]\t0\t\n");
		}
	}
	if (rc < 0)
		die("%s", err);
	tsv_close(&t);
}

int cmd_line(int argc, char **argv)
{
	return stage_main(argc, argv, usage, stage_line);
}
