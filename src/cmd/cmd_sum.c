/*
 * cmd_sum.c - `pct sum`: the last filter stage.  It groups rows by the
 * chosen columns, adds up their samples, sorts the groups and prints each
 * with its share, cumulative share and standard error (stats.h), as
 * aligned text with a summary, or as TSV.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "infile.h"
#include "stages.h"
#include "util.h"

static const char usage[] =
	"usage: pct sum --by=KEY[,KEY...] [--split=thread|process] [--format=text|tsv]\n"
	"               [-n N] [--min-samples=N] [--percent-limit=P] [-l] [--full-names] [FILE]\n"
	"\n"
	"Read TSV with a samples column from FILE or standard input, group the\n"
	"rows by the KEY columns, and print each group: samples, stderr\n"
	"(sqrt(samples), Poisson), percent, stderr_percent (the share's binomial\n"
	"error, 100*sqrt(p(1-p)/N)), ci_low and ci_high (the 95%\n"
	"Wilson interval of the share), cum_percent and the KEYs, most samples\n"
	"first.  The text format (default) is aligned, shows module base names,\n"
	"marks rows of fewer than 10 samples with '?', and starts with the summary\n"
	"carried in '#pct' comment lines.  It shows percent, its 95% interval and\n"
	"samples, then the KEYs with module last; on a terminal, names are cut to\n"
	"its width (never in a pipe or a file, never in TSV).\n"
	"\n"
	"  --by=KEYS         columns to group by, e.g. module,function or file,line\n"
	"  --format=FMT      'text' (default) or 'tsv'\n"
	"  -n, --rows=N      print only the N largest groups\n"
	"  --min-samples=N   hide groups of fewer than N samples\n"
	"  --percent-limit=P hide groups under P percent of the samples\n"
	"  --split=WHAT      'thread' (pid,tid,thread) or 'process' (pid,command):\n"
	"                    group by those columns first, then by KEYS\n"
	"  -l, --long        text: every column (samples, stderr, percent, its stderr,\n"
	"                    95% CI, cum%), KEYs in the order given\n"
	"  --full-names      text: C++ and Rust function names in full; by default\n"
	"                    they are shortened as pprof does (no parameters, no\n"
	"                    template arguments); TSV always has them in full\n"
	"  -h, --help        show this help\n"
	"\n"
	"See pct-sum(1).\n";

int cmd_sum(int argc, char **argv)
{
	struct sum_opts o;
	struct error e = { 0 };
	const char *by = NULL;
	int first = sum_parse_options(argc, argv, usage, 0, &o, &by, &e), rc;
	if (first < 0)
		return error_report(&e);
	if (by == NULL)
		die_usage("sum: --by=KEY[,KEY...] is required");
	if (o.sort_total)
		die_usage("sum: --sort=total needs the functions' totals from call stacks: use pct report on a -g profile");
	o.by = by;
	if (first >= argc) {
		rc = stage_sum(stdin, "standard input", stdout, &o, &e);
	} else if (first + 1 == argc) {
		const char *why;
		FILE *f = infile_stream(argv[first], &why);
		if (f == NULL)
			die("sum: cannot open '%s': %s", argv[first], why);
		rc = stage_sum(f, argv[first], stdout, &o, &e);
		if (f != stdin)
			fclose(f);
	} else {
		die_usage("sum: reads one input (concatenate TSV with `pct dump` of all files instead)");
	}
	return rc ? error_report(&e) : 0;
}
