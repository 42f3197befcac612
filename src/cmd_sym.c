/*
 * cmd_sym.c - `pct sym`: the second filter stage.  It reads the TSV of
 * `pct dump` (or anything with module, build_id and offset columns) and
 * appends the function holding each offset and the offset within it.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "profile.h"
#include "symtab.h"
#include "tsv.h"
#include "util.h"

static const char usage[] =
	"usage: pct sym [FILE...]\n"
	"\n"
	"Read TSV with the columns module, build_id and offset (as `pct dump`\n"
	"writes) from FILE... or standard input, and write it with two columns\n"
	"appended: function (the demangled symbol; MODULE+0xSTART for a function\n"
	"known only from .eh_frame; [unknown] if nothing names the offset) and\n"
	"function_offset (0x-hex from the function's start, or empty).\n"
	"\n"
	"See pct-sym(1).\n";

struct cached {
	char *module, *build_id;
	struct symtab *st;
};

static struct cached *cache;
static size_t ncache, capcache;

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

static struct symtab *lookup(const char *module, const char *build_id, const char *where)
{
	for (size_t i = 0; i < ncache; i++)
		if (strcmp(cache[i].module, module) == 0 && strcmp(cache[i].build_id, build_id) == 0)
			return cache[i].st;
	uint8_t id[PCT_BUILD_ID_MAX];
	size_t idlen = 0;
	if (parse_build_id(build_id, id, &idlen) != 0)
		die("%s: bad build_id '%s' (want an even number of hex digits)", where, build_id);
	grow(&cache, &capcache, ncache + 1, sizeof *cache);
	struct cached *c = &cache[ncache++];
	c->module = xstrdup(module);
	c->build_id = xstrdup(build_id);
	c->st = symtab_open(module, id, idlen);
	if (*symtab_why(c->st) && module[0] == '/')
		warnx_("no symbols for %s: %s", path_base(module), symtab_why(c->st));
	return c->st;
}

static void sym_stream(FILE *f, const char *name)
{
	struct tsv t;
	char err[512], where[600];
	if (tsv_open(&t, f, name, err, sizeof err) != 0)
		die("%s", err);
	int cm = tsv_column(&t, "module"), cb = tsv_column(&t, "build_id"), co = tsv_column(&t, "offset");
	if (cm < 0 || cb < 0 || co < 0)
		die("%s: needs the columns module, build_id and offset", name);
	for (size_t i = 0; i < t.ncols; i++)
		printf("%s\t", t.header[i]);
	printf("function\tfunction_offset\n");
	int rc;
	while ((rc = tsv_next(&t, err, sizeof err)) > 0) {
		snprintf(where, sizeof where, "%s:%lu", name, t.lineno);
		char *end;
		errno = 0;
		unsigned long long off = strtoull(t.fields[co], &end, 16);
		if (errno || *end || t.fields[co][0] == '\0')
			die("%s: bad offset '%s' (want 0x-hex)", where, t.fields[co]);
		const char *fn = NULL;
		uint64_t start = 0, addr = 0;
		const char *mod = t.fields[cm];
		if (strcmp(mod, "[unknown]") != 0 && strcmp(mod, "[anon]") != 0)
			fn = symtab_function(lookup(mod, t.fields[cb], where), off, &start, &addr);
		for (size_t i = 0; i < t.nfields; i++)
			printf("%s\t", t.fields[i]);
		if (fn) {
			put_tsv_field(fn);
			printf("\t0x%llx\n", (unsigned long long)(addr - start));
		} else {
			printf("[unknown]\t\n");
		}
	}
	if (rc < 0)
		die("%s", err);
	tsv_close(&t);
}

int cmd_sym(int argc, char **argv)
{
	static const struct option opts[] = { { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 } };
	int c;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1)
		return usage_exit(usage, c == 'h');
	if (optind >= argc) {
		sym_stream(stdin, "standard input");
	} else {
		for (int i = optind; i < argc; i++) {
			FILE *f = strcmp(argv[i], "-") == 0 ? stdin : fopen(argv[i], "r");
			if (f == NULL)
				die("cannot open '%s': %s", argv[i], strerror(errno));
			sym_stream(f, argv[i]);
			if (f != stdin)
				fclose(f);
		}
	}
	finish_stdout();
	for (size_t i = 0; i < ncache; i++) {
		symtab_close(cache[i].st);
		free(cache[i].module);
		free(cache[i].build_id);
	}
	free(cache);
	return 0;
}
