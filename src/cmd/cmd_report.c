/*
 * cmd_report.c - `pct report`: the flat profile of one or more files.
 *
 * It is exactly the filter pipeline, run in one process (pipeline_sum,
 * with no text between the stages):
 *
 *   --by=module     pct dump FILE... | pct sum --by=module
 *   --by=function   pct dump FILE... | pct sym | pct sum --by=module,function
 *   --by=address    ... | pct sym | pct sum --by=module,address,function
 *   --by=line       ... | pct sym | pct line | pct sum --by=file,line,function,inline
 *   --by=file       ... | pct sym | pct line | pct sum --by=file
 *   --by=thread     pct dump FILE... | pct sum --by=pid,tid,thread
 *   --by=process    pct dump FILE... | pct sum --by=pid,command
 *
 * and --split=thread or --split=process puts those keys before the
 * view's (a profile per thread or per process, in one table);
 * so a shell pipeline of the stages prints the same report.
 *
 * With call stacks (pct record -g) the function view adds each function's
 * total from the stacks, and --callers/--callees FUNC print the call
 * graph around FUNC (callstack.h); those need the stacks, not the TSV.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modfile.h"
#include "pset.h"
#include "callstack.h"
#include "calltree.h"
#include "commands.h"
#include "escape.h"
#include "namematch.h"
#include "pipeline.h"
#include "stages.h"
#include "symtab.h"
#include "util.h"

static const char usage[] =
	"usage: pct report [--by=VIEW] [--split=thread|process] [--format=text|tsv]\n"
	"                  [--sort=self|total] [-n N] [--min-samples=N] [--percent-limit=P]\n"
	"                  [-l] [--full-names] FILE...\n"
	"       pct report --callers=FUNC | --callees=FUNC [--format=text|tsv] FILE...\n"
	"       pct report --tree[=caller|callee] [--depth=N] [--format=text|tsv] FILE...\n"
	"\n"
	"Print the flat profile of the pct profiles FILE... (summed; '-' is\n"
	"standard input): percent, its 95% Wilson interval and samples, then the\n"
	"function and its module (with -l: samples, their standard error\n"
	"(sqrt(n), Poisson), percent, its standard error, the 95% interval,\n"
	"cumulative percent and the grouping columns; TSV has them all).  On a\n"
	"terminal, names are cut to its width.  The same as the pipeline\n"
	"  pct dump FILE... | pct sym [| pct line] | pct sum --by=KEYS\n"
	"\n"
	"  --by=VIEW       function (default): module,function\n"
	"                  module:   module\n"
	"                  address:  module,address,function (one row per instruction)\n"
	"                  line:     file,line,function,inline (DWARF lines)\n"
	"                  file:     file\n"
	"                  thread:   pid,tid,thread (thread id and name)\n"
	"                  process:  pid,command\n"
	"  --split=WHAT    'thread' or 'process': group by WHAT first, then by VIEW\n"
	"  --format=FMT    'text' (default, aligned, with a summary) or 'tsv'\n"
	"  --sort=COL      'self' (default): rows by their own samples; 'total':\n"
	"                  by the samples whose stack holds the function (-g\n"
	"                  stacks, the function view), as perf report --children\n"
	"                  and pprof -cum sort\n"
	"  -n, --rows=N    print only the N largest rows\n"
	"  --min-samples=N hide rows of fewer than N samples in the sort column\n"
	"                  (text marks rows of fewer than 10 there with '?')\n"
	"  --percent-limit=P  hide rows under P percent of the sort column\n"
	"  -l, --long      text: every column (samples, stderr, percent, its stderr,\n"
	"                  95% CI, cum%); by default percent, its 95% CI and samples,\n"
	"                  then the function and its module\n"
	"  --full-names    text: C++ and Rust function names in full; by default\n"
	"                  they are shortened as pprof does (no parameters, no\n"
	"                  template arguments); TSV always has them in full\n"
	"  --callers=FUNC  with -g stacks: who calls FUNC, and how much of FUNC's\n"
	"                  total each caller accounts for\n"
	"  --callees=FUNC  with -g stacks: what FUNC calls, and FUNC's self time\n"
	"                  FUNC: the exact name, else the name without its\n"
	"                  parameter list, else a unique prefix, else a POSIX\n"
	"                  extended regex; several matches are listed (exit 1)\n"
	"  --tree[=WAY]    with -g stacks: the whole call tree, each node with its\n"
	"                  total and self and their 95% CIs; WAY 'caller' (default:\n"
	"                  top-down, callers then callees, as perf -g caller) or\n"
	"                  'callee' (bottom-up: each sampled function, then its\n"
	"                  callers); --min-samples and --percent-limit prune by total\n"
	"  --depth=N       with --tree: only the first N levels\n"
	PSET_SELECT_USAGE
	MODFILE_USAGE
	"  -h, --help      show this help\n"
	"\n"
	"With -g stacks the function view adds total and total%: the samples whose\n"
	"stack holds the function (self plus callees), and a line counts the\n"
	"samples whose stack was not unwound to its root (their callers are\n"
	"missing; standard error with --format=tsv).\n"
	"\n"
	"See pct-report(1).\n";

/* Take --callers=F / --callees=F (or the two-word forms) out of argv,
 * which the shared option parser does not know. */
static int take_graph_option(int *argc, char **argv, const char **fn)
{
	int callees = -1;
	for (int i = 1; i < *argc; i++) {
		int k = 0, words = 1;
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strncmp(argv[i], "--callers", 9) == 0)
			k = 9, callees = 0;
		else if (strncmp(argv[i], "--callees", 9) == 0)
			k = 9, callees = 1;
		else
			continue;
		if (argv[i][k] == '=')
			*fn = argv[i] + k + 1;
		else if (argv[i][k] == '\0' && i + 1 < *argc)
			*fn = argv[i + 1], words = 2;
		else
			die_usage("report: %s wants a function name", argv[i]);
		if (**fn == '\0')
			die_usage("report: %.9s wants a function name, not an empty one", argv[i]);
		memmove(&argv[i], &argv[i + words], (size_t)(*argc - i - words + 1) * sizeof *argv);
		*argc -= words;
		i--;
	}
	return callees;
}

/* Take --tree[=caller|callee] and --depth=N out of argv as
 * take_graph_option does: *tree -1 without --tree, 0 top-down (caller),
 * 1 bottom-up (callee); *depth UINT32_MAX without --depth. */
static void take_tree_option(int *argc, char **argv, int *tree, uint32_t *depth)
{
	*tree = -1;
	*depth = UINT32_MAX;
	for (int i = 1; i < *argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0)
			break;
		if (strcmp(a, "--tree") == 0 || strcmp(a, "--tree=caller") == 0)
			*tree = 0;
		else if (strcmp(a, "--tree=callee") == 0)
			*tree = 1;
		else if (strncmp(a, "--tree=", 7) == 0)
			die_usage("report: unknown --tree '%s' (caller or callee)", a + 7);
		else if (strncmp(a, "--depth=", 8) == 0) {
			char *end;
			unsigned long v = strtoul(a + 8, &end, 10);
			if (*end || a[8] == '\0' || a[8] == '-' || v == 0 || v > 10000)
				die_usage("report: --depth wants a number of levels from 1 to 10000, not '%s'", a + 8);
			*depth = (uint32_t)v;
		} else {
			continue;
		}
		memmove(&argv[i], &argv[i + 1], (size_t)(*argc - i) * sizeof *argv);
		(*argc)--;
		i--;
	}
}

/* --tree: the whole call tree of the profiles' stacks (calltree.h). */
static int report_tree(char *const *files, size_t nfiles, int bottom_up, uint32_t depth, const struct sum_opts *o)
{
	struct pset s;
	cmd_load(&s, files, nfiles, "");
	if (!callstack_present(&s))
		die("report: %s has no call stacks (record with `pct record -g`)", files[0]);
	struct cs_graph g;
	callstack_graph(&s, &g);
	struct calltree t;
	calltree_build(&g, bottom_up, &t);
	struct calltree_opts co = {
		.tsv = o->tsv, .max_depth = depth, .min_samples = o->min_samples, .percent_limit = o->percent_limit,
		.full_names = o->full_names,
	};
	calltree_print(&t, &g, &s, &co, stdout);
	if (!o->tsv || g.unrooted)
		callstack_print_unrooted(&g, o->tsv ? "pct: report: " : "# ", o->tsv ? stderr : stdout);
	calltree_free(&t);
	callstack_graph_free(&g);
	pset_free(&s);
	symtab_free_all();
	return 0;
}

/* The distinct names of the graph's functions, for name_match: an
 * inlined function's own (callstack_neighbours matches it so). */
static const char **graph_names(const struct cs_graph *g, size_t *n)
{
	const char **names = xmalloc((g->nfuncs ? g->nfuncs : 1) * sizeof *names);
	struct agg seen = { .nkeys = 1 };
	*n = 0;
	for (size_t f = 0; f < g->nfuncs; f++) {
		char *name = (char *)g->funcs[f].bare;
		if (agg_find(&seen, &name) < 0) {
			agg_add(&seen, &name, 0);
			names[(*n)++] = name;
		}
	}
	agg_free(&seen);
	return names;
}

/* The call graph around the function the user names typed: its callers or
 * callees, as a sum of rows. */
static int report_neighbours(char *const *files, size_t nfiles, const char *typed, int callees, struct sum_opts *o)
{
	struct pset s;
	struct error e = { 0 };
	cmd_load(&s, files, nfiles, "");
	if (!callstack_present(&s))
		die("report: %s has no call stacks (record with `pct record -g`)", files[0]);
	struct cs_graph g;
	struct agg rows = { 0 };
	callstack_graph(&s, &g);
	size_t nnames;
	const char **names = graph_names(&g, &nnames);
	const char *fn = name_match_one("report", typed, names, nnames);
	free(names);
	uint64_t total = fn ? callstack_neighbours(&g, fn, callees, &rows) : 0;
	if (total == 0)
		die("report: no stack holds a function named '%s' (exactly, without its parameters, "
		    "by a prefix or a regular expression)", typed);
	/* through sum, for the same columns and errors as every report */
	char *buf = NULL;
	size_t len = 0;
	FILE *w = open_memstream(&buf, &len);
	if (w == NULL)
		die("out of memory");
	const char *key = callees ? "callee" : "caller";
	fprintf(w, "samples\t%s\n", key);
	for (size_t i = 0; i < rows.nrows; i++) {
		fprintf(w, "%llu\t", (unsigned long long)rows.rows[i].samples);
		put_tsv_field(rows.rows[i].key[0], w);
		fputc('\n', w);
	}
	fclose(w);
	if (!o->tsv) {
		char *name = esc_dup(fn);
		printf("# %s of %s: %llu samples hold %s in their stack (%.2f%% of %llu with stacks); "
		       "percent is of those\n", callees ? "callees" : "callers", name, (unsigned long long)total, name,
		       g.samples ? 100.0 * (double)total / (double)g.samples : 0.0, (unsigned long long)g.samples);
		free(name);
	}
	FILE *r = fmemopen(buf, len, "r");
	o->by = key;
	o->split = NULL;
	int rc = stage_sum(r, "call graph", stdout, o, &e);
	fclose(r);
	free(buf);
	if (rc != 0)
		return error_report(&e);
	if (!o->tsv || g.unrooted)  /* TSV has no comment lines after its header */
		callstack_print_unrooted(&g, o->tsv ? "pct: report: " : "# ", o->tsv ? stderr : stdout);
	agg_free(&rows);
	callstack_graph_free(&g);
	pset_free(&s);
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct sum_opts o;
	struct error e = { 0 };
	const char *by = "function", *graph_fn = NULL;
	int graph = take_graph_option(&argc, argv, &graph_fn), tree;
	uint32_t depth;
	take_tree_option(&argc, argv, &tree, &depth);
	int first = sum_parse_options(argc, argv, usage, 1, &o, &by, &e);
	if (first < 0)
		return error_report(&e);
	const struct view *v = view_find(by);
	if (v == NULL)
		die_usage("report: unknown --by '%s' (%s)", by, view_names());
	if (first >= argc)
		return usage_short(usage);
	cmd_wrap_headers();
	if (tree >= 0 && graph >= 0)
		die_usage("report: --tree shows the whole tree; it does not take --callers or --callees");
	if (depth != UINT32_MAX && tree < 0)
		die_usage("report: --depth is --tree's");
	if (tree >= 0) {
		if (o.sort_total || o.split || o.limit != SIZE_MAX || strcmp(by, "function") != 0)
			die_usage("report: --tree takes neither --sort, --split, -n nor --by (its nodes are functions, by total)");
		return report_tree(argv + first, (size_t)(argc - first), tree, depth, &o);
	}
	if (graph >= 0) {
		int status = report_neighbours(argv + first, (size_t)(argc - first), graph_fn, graph, &o);
		symtab_free_all();
		return status;
	}

	struct pset s;
	cmd_load(&s, argv + first, (size_t)(argc - first), "");
	/* -g: each function's total, for the function view's total columns */
	struct agg totals = { 0 };
	struct cs_graph g = { 0 };
	if (strcmp(v->name, "function") == 0 && callstack_present(&s)) {
		o.totals_of = callstack_graph(&s, &g);
		callstack_totals(&g, &totals);
		o.totals = &totals;
	}
	if (o.sort_total && !o.totals)
		die_usage("report: --sort=total sorts by the functions' totals: it needs --by=function and profiles "
			  "recorded with -g (call stacks)");
	o.by = v->keys;
	int rc = pipeline_sum(&s, v, stdout, &o, &e);
	pset_free(&s);
	if (rc == 0 && o.totals && (!o.tsv || g.unrooted))
		callstack_print_unrooted(&g, o.tsv ? "pct: report: " : "# ", o.tsv ? stderr : stdout);
	callstack_graph_free(&g);
	agg_free(&totals);
	symtab_free_all();
	return rc ? error_report(&e) : 0;
}
