/*
 * cmd_timeline.c - `pct timeline`: when the samples were taken, a text
 * strip per thread (or per function) over time, or the counts per bucket
 * as TSV.  The work is timeline.h's.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "modfile.h"
#include "names.h"
#include "pset.h"
#include "symtab.h"
#include "timeline.h"
#include "util.h"

static const char usage[] =
	"usage: pct timeline [--by=thread|function] [-n N] [--format=text|tsv]\n"
	"                    [--width=COLUMNS] [--bucket=SECONDS] [--full-names]\n"
	"                    [--time=START..END] FILE...\n"
	"\n"
	"Show when the samples of the pct profiles FILE... were taken: a row per\n"
	"thread (of each process of a tree), its activity over time as a strip of\n"
	"one character per bucket of time, and its share of all samples.  A cell\n"
	"is graded by its samples over those of a thread running all through it:\n"
	"' ' none, '.' <20%, ':' <40%, '-' <60%, '=' <80%, '#' 80% or more.\n"
	"The processes of a tree are lined up by their start; the time axis is in\n"
	"seconds from the earliest.  Files need sample times (format version 3).\n"
	"\n"
	"  --by=ROWS       'thread' (default) or 'function': a row per function,\n"
	"                  grouped as `pct report` does, each cell its share of the\n"
	"                  bucket's samples\n"
	"  -n, --rows=N    --by=function: the N functions with the most samples\n"
	"                  (default 10 in text, all in TSV)\n"
	"  --format=FMT    'text' (default) or 'tsv': start_s, length_s, pid, tid,\n"
	"                  thread, samples per bucket and thread (--by=function:\n"
	"                  start_s, length_s, module, function, samples,\n"
	"                  bucket_samples)\n"
	"  --width=COLUMNS text: the width to fit (default: the terminal's, else\n"
	"                  $COLUMNS, else 80; at least 40); also sets the bucket\n"
	"  --bucket=SECONDS a bucket's length (default: the shortest of 1, 2 or 5\n"
	"                  times a power of ten that fits the strips in the width)\n"
	"  --full-names    text: C++ and Rust function names in full; by default\n"
	"                  shortened as `pct report` shows them\n"
	PSET_SELECT_USAGE
	MODFILE_USAGE
	"  -h, --help      show this help\n"
	"\n"
	"Samples known only to a coarse bucket (after the time log filled) are\n"
	"drawn spread over their bucket, marked '~'.\n"
	"\n"
	"See pct-timeline(1).\n";

#define WIDTH_MIN 40
#define BUCKETS_MAX 1000000            /* TSV with --bucket: at most this many buckets */

/* The width the text fits: --width, else the terminal's, else $COLUMNS,
 * else 80. */
static size_t width_default(void)
{
	int w = term_columns(STDOUT_FILENO);
	if (w == 0) {
		const char *c = getenv("COLUMNS");
		char *end;
		long v = c ? strtol(c, &end, 10) : 0;
		w = c && *c && *end == '\0' && v > 0 && v < 100000 ? (int)v : 80;
	}
	return w < WIDTH_MIN ? WIDTH_MIN : (size_t)w;
}

int cmd_timeline(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "by", required_argument, NULL, 'b' },
		{ "rows", required_argument, NULL, 'n' },
		{ "format", required_argument, NULL, 'f' },
		{ "width", required_argument, NULL, 'w' },
		{ "bucket", required_argument, NULL, 'B' },
		{ "full-names", no_argument, NULL, 'F' },
		MODFILE_LONG_OPTIONS,
		PSET_SELECT_LONG_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum tl_by by = TL_BY_THREAD;
	int tsv = 0, full_names = 0;
	size_t width = 0, limit = 0;
	uint64_t bucket_ns = 0;
	const char *bucket_arg = NULL;
	char *end;
	int c;
	while ((c = getopt_long(argc, argv, "n:h", opts, NULL)) != -1) {
		switch (c) {
		case 'b':
			if (strcmp(optarg, "thread") == 0)
				by = TL_BY_THREAD;
			else if (strcmp(optarg, "function") == 0)
				by = TL_BY_FUNCTION;
			else
				die_usage("timeline: unknown --by '%s' (thread or function)", optarg);
			break;
		case 'n': {
			unsigned long long v = strtoull(optarg, &end, 10);
			if (*end || optarg[0] == '\0' || optarg[0] == '-' || v == 0 || v > SIZE_MAX / 2)
				die_usage("timeline: -n wants a number of rows of 1 or more, not '%s'", optarg);
			limit = (size_t)v;
			break;
		}
		case 'f':
			if (strcmp(optarg, "text") == 0)
				tsv = 0;
			else if (strcmp(optarg, "tsv") == 0)
				tsv = 1;
			else
				die_usage("timeline: unknown --format '%s' (text or tsv)", optarg);
			break;
		case 'w': {
			unsigned long v = strtoul(optarg, &end, 10);
			if (*end || optarg[0] == '\0' || optarg[0] == '-' || v < WIDTH_MIN || v > 100000)
				die_usage("timeline: --width wants %d to 100000 columns, not '%s'", WIDTH_MIN, optarg);
			width = v;
			break;
		}
		case 'B': {
			double v = strtod(optarg, &end);
			if (*end || optarg[0] == '\0' || !(v >= 1e-6) || v > 1e9)
				die_usage("timeline: --bucket wants seconds, 0.000001 to 10^9, not '%s'", optarg);
			bucket_ns = (uint64_t)llround(v * 1e9);
			bucket_arg = optarg;
			break;
		}
		case 'F':
			full_names = 1;
			break;
		default:
			if (modfile_option(c, optarg) || pset_select_option(c, optarg))
				break;
			return usage_exit(usage, c == 'h');
		}
	}
	if (optind >= argc)
		return usage_short(usage);
	cmd_wrap_headers();
	if (width == 0)
		width = width_default();
	if (limit == 0)
		limit = tsv ? SIZE_MAX : 10;

	struct pset s;
	struct timeline tl;
	struct error e = { 0 };
	cmd_load(&s, argv + optind, (size_t)(argc - optind), "timeline: ");
	if (tl_load(&s, by, by == TL_BY_FUNCTION ? limit : SIZE_MAX, &tl, &e) != 0) {
		pset_free(&s);
		symtab_free_all();
		return error_report(&e);
	}
	size_t label, strip;
	tl_layout(&tl, &s, width, full_names, &label, &strip);
	if (bucket_ns == 0) {
		bucket_ns = tl_nice_bucket(tl.span_ns, strip);
	} else {
		uint64_t n = tl.span_ns / bucket_ns + (tl.span_ns % bucket_ns != 0);
		if (!tsv && n > strip)
			die_usage("timeline: --bucket=%s makes %llu buckets, more than the %zu columns that "
				  "--width=%zu leaves for them", bucket_arg, (unsigned long long)n, strip, width);
		if (n > BUCKETS_MAX)
			die_usage("timeline: --bucket=%s makes %llu buckets, more than %d", bucket_arg,
				  (unsigned long long)n, BUCKETS_MAX);
	}
	tl_bucket(&tl, &s, bucket_ns);
	if (tsv)
		tl_print_tsv(&tl, &s, stdout);
	else
		tl_print_text(&tl, &s, width, full_names, stdout);
	if (tsv && tl.coarse_samples)
		note("timeline: %llu samples (%.1f%%) are known only to their coarse bucket%s (the time log was full)%s",
		     (unsigned long long)tl.coarse_samples, 100.0 * (double)tl.coarse_samples / (double)tl.total,
		     by == TL_BY_FUNCTION ? " and thread" : "",
		     by == TL_BY_FUNCTION ? ": not in the function lines" : ": their lines have its length");
	if (tsv && tl.untimed)
		note("timeline: %llu samples (%.1f%%) have no time (the time log and the buckets were full): in no line",
		     (unsigned long long)tl.untimed, 100.0 * (double)tl.untimed / (double)tl.total);
	tl_free(&tl);
	pset_free(&s);
	symtab_free_all();
	return 0;
}
