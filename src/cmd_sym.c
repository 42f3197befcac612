/*
 * cmd_sym.c - `pct sym`: the second filter stage.  It reads the TSV of
 * `pct dump` (or anything with module, build_id and offset columns) and
 * appends the function holding each offset, the offset within it, and
 * the link-time address.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "escape.h"
#include "profile.h"
#include "stages.h"
#include "symtab.h"
#include "tsv.h"
#include "infile.h"
#include "util.h"

static const char usage[] =
	"usage: pct sym [FILE...]\n"
	"\n"
	"Read TSV with the columns module, build_id and offset (as `pct dump`\n"
	"writes) from FILE... or standard input, and write it with three columns\n"
	"appended: function (the demangled symbol; MODULE+0xSTART for a function\n"
	"known only from .eh_frame; [unknown] if nothing names the offset),\n"
	"function_offset (0x-hex from the function's start, or empty) and\n"
	"address (0x-hex link-time address, as objdump shows it, or empty).\n"
	"\n"
	"See pct-sym(1).\n";

static int parse_build_id(const char *hex, uint8_t *out, size_t *len)
{
	size_t n = strlen(hex);
	if (n % 2 || n / 2 > PCT_BUILD_ID_MAX)
		return -1;
	for (size_t i = 0; i < n / 2; i++) {
		unsigned v;
		if (sscanf(hex + 2 * i, "%2x", &v) != 1)
			return -1;
		out[i] = (uint8_t)v;
	}
	*len = n / 2;
	return 0;
}

/* The symtab of a row's module, or NULL for [unknown] and [anon].  The
 * column holds the path as `pct dump` escaped it. */
struct symtab *stage_row_symtab(const char *module, const char *build_id, const char *where)
{
	uint8_t id[PCT_BUILD_ID_MAX];
	size_t idlen = 0;
	if (strcmp(module, "[unknown]") == 0 || strcmp(module, "[anon]") == 0)
		return NULL;
	if (parse_build_id(build_id, id, &idlen) != 0)
		die("%s: bad build_id '%s' (want an even number of hex digits)", where, build_id);
	char *path = esc_undo(module);
	struct symtab *st = symtab_get(path, id, idlen);
	free(path);
	return st;
}

/* A 0x-hex field as a number, or die naming where. */
uint64_t stage_hex_field(const char *s, const char *column, const char *where)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 16);
	if (errno || *end || s[0] == '\0' || s[0] == '-')
		die("%s: bad %s '%s' (want 0x-hex)", where, column, s);
	return v;
}

/* Open a stage's input, check it has the columns it needs, and start the
 * output: the comment lines, then the header with added columns appended.
 * What a stage copies from its input it escapes (escape.h): a no-op for
 * the TSV of an earlier stage, which is escaped already, but not for a
 * file made by hand. */
void stage_open(struct tsv *t, FILE *in, const char *name, const char *const *need, FILE *out,
		const char *added)
{
	char err[512];
	if (tsv_open(t, in, name, err, sizeof err) != 0)
		die("%s", err);
	for (; *need; need++)
		if (tsv_column(t, *need) < 0)
			die("%s: no '%s' column", name, *need);
	for (size_t i = 0; i < t->ncomments; i++) {
		esc_fputs(t->comments[i], out);
		fputc('\n', out);
	}
	for (size_t i = 0; i < t->ncols; i++) {
		esc_fputs(t->header[i], out);
		fputc('\t', out);
	}
	fprintf(out, "%s\n", added);
}

/* Copy a row's fields, each followed by a tab. */
void stage_put_fields(const struct tsv *t, FILE *out)
{
	for (size_t i = 0; i < t->nfields; i++) {
		esc_fputs(t->fields[i], out);
		fputc('\t', out);
	}
}

void stage_sym(FILE *in, const char *name, FILE *out)
{
	static const char *const need[] = { "module", "build_id", "offset", NULL };
	struct tsv t;
	char err[512], where[600];
	stage_open(&t, in, name, need, out, "function\tfunction_offset\taddress");
	int cm = tsv_column(&t, "module"), cb = tsv_column(&t, "build_id"), co = tsv_column(&t, "offset");
	int rc;
	while ((rc = tsv_next(&t, err, sizeof err)) > 0) {
		snprintf(where, sizeof where, "%s:%lu", name, t.lineno);
		uint64_t off = stage_hex_field(t.fields[co], "offset", where), addr;
		struct symtab *st = stage_row_symtab(t.fields[cm], t.fields[cb], where);
		struct symbol sym;
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
	if (rc < 0)
		die("%s", err);
	tsv_close(&t);
}

/* Run stage over each named input (or standard input), to stdout. */
int stage_main(int argc, char **argv, const char *usage_text,
	       void (*stage)(FILE *, const char *, FILE *))
{
	static const struct option opts[] = { { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 } };
	int c;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1)
		return usage_exit(usage_text, c == 'h');
	if (optind >= argc)
		stage(stdin, "standard input", stdout);
	for (int i = optind; i < argc; i++) {
		const char *why;
		FILE *f = infile_stream(argv[i], &why);
		if (f == NULL)
			die("sym: cannot open '%s': %s", argv[i], why);
		stage(f, f == stdin ? "standard input" : argv[i], stdout);
		if (f != stdin)
			fclose(f);
	}
	finish_stdout();
	symtab_free_all();
	return 0;
}

int cmd_sym(int argc, char **argv)
{
	return stage_main(argc, argv, usage, stage_sym);
}
