/*
 * stage.c - what the filter stages (dump, sym, line, sum) share: opening
 * a stage's TSV input and starting its output, copying a row's fields,
 * reading a row's module and hex columns, and the driver of `pct sym` and
 * `pct line` over their input files (stages.h).
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "modfile.h"
#include "escape.h"
#include "infile.h"
#include "profile.h"
#include "stages.h"
#include "symtab.h"
#include "tsv.h"
#include "util.h"

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

/* The symtab of a row's module, in *st: NULL for [unknown], [anon] and
 * JIT code without a perf map ("[JIT] tid PID", pset.h).  The column
 * holds the path as `pct dump` escaped it. */
int stage_row_symtab(const char *module, const char *build_id, const char *where, struct symtab **st,
		     struct error *e)
{
	uint8_t id[PCT_BUILD_ID_MAX];
	size_t idlen = 0;
	*st = NULL;
	if (strcmp(module, "[unknown]") == 0 || strcmp(module, "[anon]") == 0 || strncmp(module, "[JIT] tid ", 10) == 0)
		return 0;
	if (parse_build_id(build_id, id, &idlen) != 0)
		return error_set(e, 1, "%s: bad build_id '%s' (want an even number of hex digits)", where, build_id);
	char *path = esc_undo(module);
	*st = symtab_get(path, id, idlen);
	free(path);
	return 0;
}

int stage_hex_field(const char *s, const char *column, const char *where, uint64_t *v, struct error *e)
{
	char *end;
	errno = 0;
	unsigned long long n = strtoull(s, &end, 16);
	if (errno || *end || s[0] == '\0' || s[0] == '-')
		return error_set(e, 1, "%s: bad %s '%s' (want 0x-hex)", where, column, s);
	*v = n;
	return 0;
}

/* Open a stage's input, check it has the columns it needs, and start the
 * output: the comment lines, then the header with added columns appended.
 * What a stage copies from its input it escapes (escape.h): a no-op for
 * the TSV of an earlier stage, which is escaped already, but not for a
 * file made by hand. */
int stage_open(struct tsv *t, FILE *in, const char *name, const char *const *need, FILE *out,
	       const char *added, struct error *e)
{
	char err[512];
	if (tsv_open(t, in, name, err, sizeof err) != 0) {
		tsv_close(t);
		return error_set(e, 1, "%s", err);
	}
	for (; *need; need++)
		if (tsv_column(t, *need) < 0) {
			tsv_close(t);
			return error_set(e, 1, "%s: no '%s' column", name, *need);
		}
	for (size_t i = 0; i < t->ncomments; i++) {
		esc_fputs(t->comments[i], out);
		fputc('\n', out);
	}
	for (size_t i = 0; i < t->ncols; i++) {
		esc_fputs(t->header[i], out);
		fputc('\t', out);
	}
	fprintf(out, "%s\n", added);
	return 0;
}

/* Copy a row's fields, each followed by a tab. */
void stage_put_fields(const struct tsv *t, FILE *out)
{
	for (size_t i = 0; i < t->nfields; i++) {
		esc_fputs(t->fields[i], out);
		fputc('\t', out);
	}
}

int stage_main(int argc, char **argv, const char *usage_text, stage_fn *stage)
{
	static const struct option opts[] = { MODFILE_LONG_OPTIONS, { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 } };
	struct error e = { 0 };
	int c, rc = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1)
		if (!modfile_option(c, optarg))
			return usage_exit(usage_text, c == 'h');
	if (optind >= argc)
		rc = stage(stdin, "standard input", stdout, &e);
	for (int i = optind; i < argc && rc == 0; i++) {
		const char *why;
		FILE *f = infile_stream(argv[i], &why);
		if (f == NULL) {
			/* "sym:" for `pct line` too, as it always said */
			rc = error_set(&e, 1, "sym: cannot open '%s': %s", argv[i], why);
			break;
		}
		rc = stage(f, f == stdin ? "standard input" : argv[i], stdout, &e);
		if (f != stdin)
			fclose(f);
	}
	symtab_free_all();
	return rc ? error_report(&e) : 0;
}
