/*
 * cmd_dump.c - `pct dump`: the first filter stage.  It prints the raw
 * samples of profile files as TSV, one row per (module, build-id,
 * offset), summed over the files: the input of `pct sym`.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "stages.h"
#include "u64map.h"
#include "util.h"

static const char usage[] =
	"usage: pct dump FILE...\n"
	"\n"
	"Print the samples of the pct profiles FILE... (summed) as TSV with the\n"
	"columns module (the file's path, or [unknown] for a PC in no module),\n"
	"build_id (hex, or empty), offset (0x-hex offset in the module's file;\n"
	"the absolute PC for [unknown]) and samples, sorted by module and offset,\n"
	"after '#pct' comment lines that describe the profiles.  Feed it to\n"
	"`pct sym`.\n"
	"\n"
	"See pct-dump(1).\n";

struct drow {
	uint32_t module;
	uint64_t offset, samples;
	const struct pset *s;
};

static const char *mod_path(const struct drow *r)
{
	return r->module == PSET_NO_MODULE ? "[unknown]" : r->s->mods[r->module].path;
}

static int cmp_drow(const void *pa, const void *pb)
{
	const struct drow *a = pa, *b = pb;
	int c = strcmp(mod_path(a), mod_path(b));
	if (c == 0 && a->module != b->module)
		c = a->module < b->module ? -1 : 1;
	if (c == 0)
		c = a->offset < b->offset ? -1 : a->offset > b->offset;
	return c;
}

/* The '#pct' lines: what `pct sum` needs for its summary (stages.h). */
static void write_meta(const struct pset *s, FILE *out)
{
	fprintf(out, "#pct files=%llu dropped=%llu cpu_ns=%llu dimension=", (unsigned long long)s->runs,
		(unsigned long long)s->dropped, (unsigned long long)s->cpu_ns);
	put_tsv_field(s->profiles[0].hdr.dimension, out);
	fputc('\n', out);
	if (s->runs == 1) {
		fprintf(out, "#pct file=");
		put_tsv_field(s->profiles[0].file, out);
		fprintf(out, " pid=%u cmdline=", s->profiles[0].hdr.pid);
		put_tsv_field(s->profiles[0].cmdline, out);
		fputc('\n', out);
	}
}

void stage_dump(const struct pset *s, FILE *out)
{
	/* (module, offset) -> row; module 0xffff is "no module" */
	struct u64map index = { 0 };
	struct drow *rows = NULL;
	size_t nrows = 0, cap = 0;
	for (size_t p = 0; p < s->nprofiles; p++)
		for (size_t i = 0; i < s->profiles[p].nsamples; i++) {
			const struct profile_sample *smp = &s->profiles[p].samples[i];
			uint32_t m = pset_module_of(s, p, smp);
			uint64_t key = ((uint64_t)(m == PSET_NO_MODULE ? 0xffff : m) << 48) | smp->offset;
			uint64_t *slot = u64map_get(&index, key);
			if (slot == NULL) {
				grow(&rows, &cap, nrows + 1, sizeof *rows);
				rows[nrows] = (struct drow){ m, smp->offset, 0, s };
				slot = u64map_slot(&index, key);
				*slot = nrows++;
			}
			rows[*slot].samples += smp->count;
		}
	sort(rows, nrows, sizeof *rows, cmp_drow);

	char hex[2 * PCT_BUILD_ID_MAX + 1];
	write_meta(s, out);
	fprintf(out, "module\tbuild_id\toffset\tsamples\n");
	for (size_t i = 0; i < nrows; i++) {
		const struct drow *r = &rows[i];
		put_tsv_field(mod_path(r), out);
		if (r->module == PSET_NO_MODULE)
			hex[0] = '\0';
		else
			build_id_hex(s->mods[r->module].build_id, s->mods[r->module].build_id_len, hex);
		fprintf(out, "\t%s\t0x%llx\t%llu\n", hex, (unsigned long long)r->offset,
			(unsigned long long)r->samples);
	}
	free(rows);
	u64map_free(&index);
}

int cmd_dump(int argc, char **argv)
{
	static const struct option opts[] = { { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 } };
	int c;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1)
		return usage_exit(usage, c == 'h');
	if (optind >= argc)
		return usage_exit(usage, 0);
	struct pset s;
	char err[512];
	if (pset_load(&s, argv + optind, (size_t)(argc - optind), err, sizeof err) != 0)
		die("%s", err);
	stage_dump(&s, stdout);
	finish_stdout();
	pset_free(&s);
	return 0;
}
