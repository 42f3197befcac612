/*
 * cmd_html.c - `pct html`: one self-contained, interactive HTML report of
 * profiles, or of the difference between two (html.h).
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "diff.h"
#include "html.h"
#include "modfile.h"
#include "outfile.h"
#include "pset.h"
#include "source.h"
#include "symtab.h"
#include "util.h"

static const char usage[] =
	"usage: pct html [-o OUT.html] [--title=TEXT] [--sum] [--normalize] [--alpha=A]\n"
	"                [--min-effect=POINTS] [-n N] [-S DIR] [--source-root=DIR] FILE...\n"
	"       pct html [OPTIONS] BASE NEW\n"
	"       pct html [OPTIONS] BASE... -- NEW...\n"
	"\n"
	"Write one self-contained HTML report of the pct profiles FILE... (summed),\n"
	"to OUT.html or standard output: a flat profile by function, line, file,\n"
	"module, thread and process with 95% intervals; with -g stacks, a flame\n"
	"graph and icicle, callers and callees; the hottest functions' source and\n"
	"disassembly; a timeline whose brushed range filters the other views.  It\n"
	"opens from file:// in a browser and fetches nothing.  With two files, or\n"
	"files on both sides of --, it shows the difference of NEW against BASE as\n"
	"pct diff tests it: each row and frame slower, faster, unchanged or\n"
	"unresolved, and only significant ones coloured.\n"
	"\n"
	"  -o, --output=OUT     write to OUT: a regular file is replaced whole (a\n"
	"                       temporary beside it, renamed), a device or FIFO is\n"
	"                       written in place; see pct-html(1) for symlinks;\n"
	"                       - is standard output (the default), refused on a\n"
	"                       terminal\n"
	"  --title=TEXT         the heading (default: the command line)\n"
	"  --sum                two files are one profile summed, not a diff\n"
	"  --normalize          diff: compare shares, not times (as pct diff)\n"
	"  --alpha=A            diff: significance level after Holm's adjustment\n"
	"                       (default 0.05)\n"
	"  --min-effect=POINTS  diff: the smallest change that matters, percentage\n"
	"                       points of the base's total (default 0.5)\n"
	"  -n, --functions=N    annotate the N hottest functions (default 50)\n"
	"  -S, --source-dir=DIR look for source files under DIR too\n"
	"  --source-root=DIR    read source files only under DIR (repeatable);\n"
	"                       others are not embedded\n"
	PSET_SELECT_USAGE
	MODFILE_USAGE
	"  -h, --help           show this help\n"
	"\n"
	"See pct-html(1).\n";

int cmd_html(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "title", required_argument, NULL, 't' },
		{ "sum", no_argument, NULL, 's' },
		{ "normalize", no_argument, NULL, 'N' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "min-effect", required_argument, NULL, 'm' },
		{ "functions", required_argument, NULL, 'n' },
		{ "source-dir", required_argument, NULL, 'S' },
		{ "source-root", required_argument, NULL, 'R' },
		MODFILE_LONG_OPTIONS,
		PSET_SELECT_LONG_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct html_opts o = { .alpha = 0.05, .min_effect = DIFF_MIN_EFFECT, .annotate = HTML_ANNOTATE_FUNCTIONS };
	const char *outname = NULL;
	int sum = 0, c;
	char *end;
	/* BASE... -- NEW...: options before the "--" */
	int dd = cmd_dashdash(argc, argv);
	int left = dd < 0 ? argc : dd;
	while ((c = getopt_long(left, argv, "o:n:S:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			outname = optarg;
			break;
		case 't':
			o.title = optarg;
			break;
		case 's':
			sum = 1;
			break;
		case 'N':
			o.share = 1;
			break;
		case 'a':
			o.alpha = cmd_alpha("html", optarg);
			break;
		case 'm':
			o.min_effect = cmd_min_effect("html", optarg);
			break;
		case 'n':
			o.annotate = strtoul(optarg, &end, 10);
			if (*end || optarg[0] == '-' || optarg[0] == '\0' || o.annotate > 100000)
				die_usage("html: -n wants a number of functions, not '%s'", optarg);
			break;
		case 'S':
			source_add_dir(optarg);
			break;
		case 'R':
			if (source_add_root(optarg) != 0)
				die_usage("html: --source-root: cannot resolve '%s'", optarg);
			break;
		default:
			if (modfile_option(c, optarg) || pset_select_option(c, optarg))
				break;
			return usage_exit(usage, c == 'h');
		}
	}
	char **base = argv + optind, **newf = NULL;
	size_t nbase = (size_t)(left - optind), nnew = 0;
	if (dd >= 0) {
		newf = argv + dd + 1;
		nnew = (size_t)(argc - dd - 1);
		if (nbase == 0 || nnew == 0)
			return usage_short(usage);
	} else if (nbase == 2 && !sum) {
		nbase = nnew = 1;
		newf = argv + optind + 1;
	}
	if (nbase == 0)
		return usage_short(usage);
	cmd_output_tty("html", outname, "HTML");
	if (outname && strcmp(outname, "-") == 0)
		outname = NULL; /* -o -: standard output */
	o.diff = nnew > 0;
	struct pset s, s2;
	cmd_load(&s, base, nbase, "html: ");
	if (o.diff)
		cmd_load(&s2, newf, nnew, "html: ");
	if (s.total == 0 || (o.diff && s2.total == 0))
		die("html: the %s has no samples", o.diff ? (s.total == 0 ? "base side" : "new side") : "profile");

	char err[512];
	struct outfile out = { .fp = stdout };
	if (outname && outfile_open(&out, outname, err, sizeof err) != 0)
		die("html: %s", err);
	struct error e = { 0 };
	if (html_write(out.fp, &s, o.diff ? &s2 : NULL, &o, &e) != 0) {
		if (outname)
			outfile_abort(&out);
		return error_report(&e);
	}
	if (outname && outfile_commit(&out, err, sizeof err) != 0)
		die("html: %s", err);
	pset_free(&s);
	if (o.diff)
		pset_free(&s2);
	source_free_all();
	symtab_free_all();
	return 0;
}
