/*
 * cmd_export.c - `pct export`: write profiles in another tool's format.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "modfile.h"
#include "commands.h"
#include "export.h"
#include "outfile.h"
#include "pset.h"
#include "symtab.h"
#include "util.h"

static const char usage[] =
	"usage: pct export --format=FORMAT [-o OUT] FILE...\n"
	"\n"
	"Write the pct profiles FILE... (summed) in another tool's format, to OUT\n"
	"or standard output.\n"
	"\n"
	"  --format=gmon        GNU gmon.out histogram of the main executable, and its\n"
	"                       call arcs with -g stacks, for `gprof -b PROG OUT`\n"
	"  --format=gperftools  gperftools' CPU profile, for `google-pprof --text PROG OUT`\n"
	"  --format=pprof       gzipped profile.proto, for pprof and the services that\n"
	"                       read it\n"
	"  --format=callgrind   for callgrind_annotate and KCachegrind (costs per\n"
	"                       instruction and line; calls with -g stacks, counted\n"
	"                       in samples, not calls)\n"
	"  --format=folded      \"main;f;g 12\" lines for flamegraph.pl and speedscope\n"
	"                       (needs stacks: pct record -g)\n"
	"  --format=speedscope  speedscope's JSON file: one sampled profile per thread,\n"
	"                       samples in time order, with their -g stacks\n"
	"  --format=perf-script the text of `perf script` (comm, pid/tid, time, stack)\n"
	"                       for speedscope and the Firefox Profiler\n"
	"                       (both need sample times: a file of format version 3;\n"
	"                       samples whose exact time was not kept are left out,\n"
	"                       with a note)\n"
	"  -o, --output=OUT     write to OUT: a regular file is replaced whole (a\n"
	"                       temporary beside it, renamed), a device or FIFO is\n"
	"                       written in place; see pct-export(1) for symlinks;\n"
	"                       - is standard output.  gmon, gperftools and pprof\n"
	"                       are binary: refused on a terminal without -o\n"
	PSET_SELECT_USAGE
	MODFILE_USAGE
	"  -h, --help           show this help\n"
	"\n"
	"See pct-export(1).\n";

static const struct {
	const char *name;
	int (*write)(const struct pset *, FILE *, char *, size_t);
	int binary;
} formats[] = {
	{ "gmon", export_gmon, 1 },
	{ "gperftools", export_gperftools, 1 },
	{ "pprof", export_pprof, 1 },
	{ "callgrind", export_callgrind, 0 },
	{ "folded", export_folded, 0 },
	{ "speedscope", export_speedscope, 0 },
	{ "perf-script", export_perfscript, 0 },
};

int cmd_export(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		MODFILE_LONG_OPTIONS,
		PSET_SELECT_LONG_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *format = NULL, *outname = NULL;
	int c;
	while ((c = getopt_long(argc, argv, "f:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			format = optarg;
			break;
		case 'o':
			outname = optarg;
			break;
		default:
			if (modfile_option(c, optarg) || pset_select_option(c, optarg))
				break;
			return usage_exit(usage, c == 'h');
		}
	}
	if (format == NULL || optind >= argc)
		return usage_short(usage);
	size_t f = 0;
	while (f < sizeof formats / sizeof formats[0] && strcmp(formats[f].name, format) != 0)
		f++;
	if (f == sizeof formats / sizeof formats[0])
		die_usage("export: unknown --format '%s' (gmon, gperftools, pprof, callgrind, folded, speedscope or perf-script)", format);
	if (formats[f].binary)
		cmd_output_tty("export", outname, "binary");
	if (outname && strcmp(outname, "-") == 0)
		outname = NULL;  /* -o -: standard output */

	struct pset s;
	char err[512];
	cmd_load(&s, argv + optind, (size_t)(argc - optind), "");
	struct outfile o = { .fp = stdout };
	if (outname && outfile_open(&o, outname, err, sizeof err) != 0)
		die("export: %s", err);
	int rc = formats[f].write(&s, o.fp, err, sizeof err);
	if (outname && rc != 0)
		outfile_abort(&o);
	else if (outname && outfile_commit(&o, err, sizeof err) != 0)
		die("export: %s", err);
	pset_free(&s);
	symtab_free_all();
	/* a lost standard output is the dispatcher's to report, first */
	if (rc != 0 && (outname || stdout_error() == 0))
		die("%s", err);
	return 0;
}
