/*
 * cmd_report.c - `pct report`: the flat profile of one or more files.
 *
 * Samples of all files are summed, grouped by function (module + symbol)
 * or by module, sorted, and printed with their share, cumulative share and
 * standard error (stats.h), as aligned text for people or TSV for scripts.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "commands.h"
#include "pset.h"
#include "stats.h"
#include "util.h"

static const char usage[] =
	"usage: pct report [--by=function|module] [--format=text|tsv] [-n N] FILE...\n"
	"\n"
	"Print the flat profile of the pct profiles FILE... (summed): samples,\n"
	"their standard error (sqrt(n), Poisson), percent, cumulative percent,\n"
	"module and function.\n"
	"\n"
	"  --by=KEY        group by 'function' (default) or 'module'\n"
	"  --format=FMT    'text' (default, aligned) or 'tsv' (a header row, then\n"
	"                  samples, stderr, percent, stderr_percent, cum_percent,\n"
	"                  module[, function])\n"
	"  -n, --rows=N    print only the N largest rows (default: all)\n"
	"  -h, --help      show this help\n"
	"\n"
	"See pct-report(1).\n";

enum by { BY_FUNCTION, BY_MODULE };

#define KEY_MODULE_SHIFT 40
#define KEY_LOW_MASK ((UINT64_C(1) << KEY_MODULE_SHIFT) - 1)
#define KEY_UNKNOWN_FUNCTION KEY_LOW_MASK

/* Group every sample of the set into rows. */
static void aggregate(struct pset *s, enum by by, struct agg *a)
{
	for (size_t p = 0; p < s->nprofiles; p++) {
		const struct profile *prof = &s->profiles[p];
		for (size_t i = 0; i < prof->nsamples; i++) {
			const struct profile_sample *smp = &prof->samples[i];
			uint32_t m = pset_module_of(s, p, smp);
			const char *modname = m == PSET_NO_MODULE ? "[unknown]" : s->mods[m].display;
			uint64_t mkey = (uint64_t)(m == PSET_NO_MODULE ? 0xffffffu : m) << KEY_MODULE_SHIFT;
			if (by == BY_MODULE) {
				agg_add(a, mkey, smp->count, modname, NULL);
				continue;
			}
			uint64_t start = KEY_UNKNOWN_FUNCTION, addr;
			const char *fn = NULL;
			if (m != PSET_NO_MODULE)
				fn = symtab_function(pset_symtab(s, m), smp->offset, &start, &addr);
			if (fn == NULL)
				start = KEY_UNKNOWN_FUNCTION;
			agg_add(a, mkey | (start & KEY_LOW_MASK), smp->count, modname, fn ? fn : "[unknown]");
		}
	}
}

static void print_summary(const struct pset *s)
{
	double rate = pset_rate(s);
	const char *dim = s->profiles[0].hdr.dimension;

	if (s->nprofiles == 1)
		printf("# %s: pid %u: %s\n", s->profiles[0].file, s->profiles[0].hdr.pid, s->profiles[0].cmdline);
	else
		printf("# %zu files summed\n", s->nprofiles);
	printf("# %llu samples over %.3f %s of CPU time", (unsigned long long)s->total,
	       (double)s->cpu_ns / 1e9, dim);
	if (rate > 0)
		printf(", effective rate %.1f Hz (period %.3f ms)", rate, 1e3 / rate);
	printf("\n");
	if (s->dropped)
		printf("# %llu more samples were dropped: the sample table was full (raise $PCT_SLOTS)\n",
		       (unsigned long long)s->dropped);
	printf("# ±: one standard error, sqrt(samples) (Poisson)\n");
}

static void print_text(const struct agg *a, enum by by, size_t rows)
{
	int modw = 6;
	for (size_t i = 0; i < rows; i++) {
		int w = (int)strlen(a->rows[i].module);
		if (w > modw)
			modw = w > 40 ? 40 : w;
	}
	/* "±" is two bytes of UTF-8 but one column: pad it by hand. */
	printf("%9s %6s%s %7s %5s%s %7s  %-*s%s\n", "samples", "", "±", "percent", "", "±", "cum%",
	       by == BY_FUNCTION ? modw : 0, "module", by == BY_FUNCTION ? "  function" : "");
	double cum = 0;
	for (size_t i = 0; i < rows; i++) {
		const struct agg_row *r = &a->rows[i];
		double pct = a->total ? 100.0 * (double)r->samples / (double)a->total : 0;
		cum += pct;
		printf("%9llu %7.0f %6.2f%% %5.2f%% %6.2f%%  %-*s", (unsigned long long)r->samples,
		       stats_stderr(r->samples), pct, stats_stderr_percent(r->samples, a->total), cum,
		       by == BY_FUNCTION ? modw : 0, r->module);
		if (by == BY_FUNCTION)
			printf("  %s", r->function);
		printf("\n");
	}
	if (rows < a->nrows)
		printf("# %zu more rows, %.2f%% of the samples\n", a->nrows - rows, 100.0 - cum);
}

static void print_tsv(const struct agg *a, enum by by, size_t rows)
{
	printf("samples\tstderr\tpercent\tstderr_percent\tcum_percent\tmodule%s\n",
	       by == BY_FUNCTION ? "\tfunction" : "");
	double cum = 0;
	for (size_t i = 0; i < rows; i++) {
		const struct agg_row *r = &a->rows[i];
		double pct = a->total ? 100.0 * (double)r->samples / (double)a->total : 0;
		cum += pct;
		printf("%llu\t%.3f\t%.4f\t%.4f\t%.4f\t", (unsigned long long)r->samples,
		       stats_stderr(r->samples), pct, stats_stderr_percent(r->samples, a->total), cum);
		put_tsv_field(r->module);
		if (by == BY_FUNCTION) {
			putchar('\t');
			put_tsv_field(r->function);
		}
		putchar('\n');
	}
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "by", required_argument, NULL, 'b' },
		{ "format", required_argument, NULL, 'f' },
		{ "rows", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum by by = BY_FUNCTION;
	int tsv = 0, c;
	size_t limit = SIZE_MAX;
	char *end;

	while ((c = getopt_long(argc, argv, "n:h", opts, NULL)) != -1) {
		switch (c) {
		case 'b':
			if (strcmp(optarg, "function") == 0)
				by = BY_FUNCTION;
			else if (strcmp(optarg, "module") == 0)
				by = BY_MODULE;
			else
				die("report: unknown --by '%s' (function or module)", optarg);
			break;
		case 'f':
			if (strcmp(optarg, "text") == 0 || strcmp(optarg, "tsv") == 0)
				tsv = optarg[0] == 't' && optarg[1] == 's';
			else
				die("report: unknown --format '%s' (text or tsv)", optarg);
			break;
		case 'n':
			limit = strtoul(optarg, &end, 10);
			if (*end || optarg[0] == '-' || optarg[0] == '\0')
				die("report: -n wants a number of rows, not '%s'", optarg);
			break;
		default:
			return usage_exit(usage, c == 'h');
		}
	}
	if (optind >= argc)
		return usage_exit(usage, 0);

	struct pset s;
	char err[512];
	if (pset_load(&s, argv + optind, (size_t)(argc - optind), err, sizeof err) != 0)
		die("%s", err);
	struct agg a = { 0 };
	aggregate(&s, by, &a);
	agg_sort(&a);
	size_t rows = a.nrows < limit ? a.nrows : limit;
	if (tsv) {
		print_tsv(&a, by, rows);
	} else {
		print_summary(&s);
		print_text(&a, by, rows);
	}
	finish_stdout();
	agg_free(&a);
	pset_free(&s);
	return 0;
}
