/*
 * cmd_diff.c - `pct diff`: which rows of two profiles (or two groups of
 * profiles) differ by more than sampling noise.  The statistics are in
 * diff.c; this file reads both sides through the report pipeline and
 * prints the comparison.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "modfile.h"
#include "pset.h"
#include "aggregate.h"
#include "commands.h"
#include "diff.h"
#include "escape.h"
#include "names.h"
#include "pipeline.h"
#include "stages.h"
#include "stats.h"
#include "symtab.h"
#include "tree.h"
#include "tsv.h"
#include "util.h"

static const char usage[] =
	"usage: pct diff [--by=function|module|address|line|file] [--format=text|tsv]\n"
	"                [--normalize] [--alpha=A] [--min-effect=POINTS]\n"
	"                [--check[=slower|faster]] [-n N] [-l] [--full-names] BASE NEW\n"
	"       pct diff [OPTIONS] BASE... -- NEW...\n"
	"       pct diff [OPTIONS] -b BASE1 -b BASE2 ... NEW1 NEW2 ...\n"
	"\n"
	"Compare two profiles, or two groups of profiles (each group summed), row\n"
	"by row.  By default it asks whether each row's time changed (for runs of\n"
	"the same work, e.g. two builds on one input); --normalize asks whether its\n"
	"share changed (for runs of different lengths).  Each row gets an exact\n"
	"p-value (of its time: the binomial test given its two counts; of its\n"
	"share: Fisher's exact test), adjusted for the number of rows with\n"
	"Holm's method (q); rows with q below A (default 0.05) are marked '*'\n"
	"and listed first.  Rows match by function name (by module base name, by\n"
	"file and line, ...), so two builds of a program compare.  Rows without a\n"
	"name ([unknown], module [anon]) get no q and no mark (q '-', in TSV\n"
	"'NA'), and are not counted in the adjustment; when more than 5% of a\n"
	"side's samples are in them, a warning says so at the top of the report\n"
	"and on standard error.\n"
	"\n"
	"With -b, each BASE and each NEW file is one run of the program (a file\n"
	"pct merge wrote: each of its runs; standard input is one run), and so\n"
	"in the BASE NEW form when a file holds several runs.  With at\n"
	"least 3 runs a side, each row is tested against the variance between\n"
	"runs (a quasi-Poisson model, t test with 2 x (runs - 2) degrees of\n"
	"freedom):\n"
	"one run's samples measure that run, not the program.  With fewer runs,\n"
	"and in the two-profile forms, only within-run (Poisson) noise is\n"
	"accounted for, and the report says so.\n"
	"\n"
	"Each row gets a verdict: 'slower' or 'faster' (q below A and a change\n"
	"of at least the minimum effect), 'unchanged' (the 95% CI lies within\n"
	"the minimum effect either way), else 'unresolved' (too few samples or\n"
	"runs to tell).  mde is the row's minimum detectable effect: the change\n"
	"the test finds with 80% power at level A over the rows tested.\n"
	"\n"
	"Text shows base%, new%, delta, its 95% CI, mde and the verdict (with -l\n"
	"also samples, p and q), then the key (C++ and Rust names shortened as\n"
	"pprof does; cut to a terminal's width, never in a pipe).\n"
	"\n"
	"  --by=VIEW       function (default), module, address, line or file\n"
	"  --format=FMT    'text' (default) or 'tsv'\n"
	"  --normalize     compare each row's share of its profile, not its time\n"
	"  -b, --base=FILE add FILE as one baseline run; the other FILEs are the\n"
	"                  new runs\n"
	"  --alpha=A       mark rows whose q is below A (default 0.05)\n"
	"  --min-effect=POINTS  the smallest change that matters, percentage\n"
	"                  points (default 0.5)\n"
	"  --check[=WHAT]  a gate for CI: print one line per row whose verdict is\n"
	"                  WHAT ('slower', the default, or 'faster') instead of\n"
	"                  the report, and exit 1 if there is one, else 0\n"
	"  -n, --rows=N    print only the first N rows\n"
	"  -l, --long      text: also the base and new samples, p and q\n"
	"  --full-names    text: function names in full\n"
	"\n"
	"TSV columns: the key, base_samples, new_samples, base_percent,\n"
	"new_percent, delta, delta_low, delta_high (percentage points), p_value,\n"
	"q_value, significant, verdict, mde (percentage points).\n"
	"\n"
	"Exit status: 0; with --check, 1 if a row has the verdict checked; 2 for\n"
	"a usage error; 1 for an unreadable or corrupt profile.\n"
	"\n"
	"Where the modules' files are found (see pct-report(1), FILES):\n"
	PSET_SELECT_USAGE
	MODFILE_USAGE
	"  -h, --help      show this help\n"
	"\n"
	"See pct-diff(1).\n";

/* The columns rows are matched by, for each view. */
static const char *diff_keys(const char *view)
{
	if (strcmp(view, "function") == 0)
		return "function";
	if (strcmp(view, "line") == 0)
		return "file,line";
	if (strcmp(view, "address") == 0)
		return "module,address";
	return view;   /* module, file */
}

struct side {
	struct agg a;
	uint64_t cpu_ns, dropped;
	size_t files;
	uint64_t id;                   /* the run's identity: a hash of its profiles'
					  (profile_identity; read_pset) */
};

/* Read one side: the pipeline's TSV, grouped by keys; module paths are
 * shortened to base names so that two builds' modules match.  Returns 0,
 * or the exit status with the pipeline's error reported. */
static int read_pset(struct side *sd, struct pset *s, const struct view *v, char **keys, size_t nkeys)
{
	struct pipe_buf b[3];
	struct error e = { 0 };
	char err[512];
	uint64_t id = 0;               /* the run's: its profiles' identities, combined */
	for (size_t i = 0; i < s->nprofiles; i++)
		id = (id ^ profile_identity(&s->profiles[i])) * FNV1A_PRIME;
	FILE *in = pipeline_run(s, v, b, &e);
	if (in == NULL)
		return error_report(&e);
	pset_free(s);
	struct tsv t;
	if (tsv_open(&t, in, "pipeline", err, sizeof err) != 0)
		die("%s", err);
	int col[16], cs = tsv_column(&t, "samples");
	for (size_t k = 0; k < nkeys; k++)
		col[k] = tsv_column(&t, keys[k]);
	memset(sd, 0, sizeof *sd);
	sd->id = id;
	sd->a.nkeys = nkeys;
	struct stage_meta m;
	stage_meta_parse(t.comments, t.ncomments, &m);
	sd->files = m.files;
	sd->dropped = m.dropped;
	sd->cpu_ns = m.cpu_ns;
	stage_meta_free(&m);
	char *vals[16];
	int rc;
	while ((rc = tsv_next(&t, err, sizeof err)) > 0) {
		for (size_t k = 0; k < nkeys; k++)
			vals[k] = strcmp(keys[k], "module") == 0 ? (char *)path_base(t.fields[col[k]]) : t.fields[col[k]];
		agg_add(&sd->a, vals, strtoull(t.fields[cs], NULL, 10));
	}
	if (rc < 0)
		die("%s", err);
	tsv_close(&t);
	fclose(in);
	pipeline_free(b);
	return 0;
}

static int read_side(struct side *sd, char *const *files, size_t n, const struct view *v, char **keys,
		      size_t nkeys)
{
	struct pset s;
	cmd_load(&s, files, n, "");
	return read_pset(sd, &s, v, keys, nkeys);
}

static double period_of(const struct side *sd)
{
	return stats_period(sd->cpu_ns, sd->a.total + sd->dropped) / 1e9;
}

/* How text is printed: -l, --full-names and the terminal's width. */
struct text_opts {
	int long_columns, full_names, width;
};

/* The warning for a side (0 base, 1 new) with more than
 * DIFF_UNRESOLVED_WARN percent of its samples in rows without a name, or
 * NULL.  Malloc'd. */
static char *unresolved_warning(const struct diff_row *r, size_t n, const struct side *sd, int side)
{
	double pct = diff_unresolved_pct(r, n, sd->a.total, side);
	if (!diff_unresolved_warn(pct))
		return NULL;
	return xasprintf("%.1f%% of the %s side's samples have no name ([unknown] or [anon]; over %g%%): the "
			 "comparison misses that code, and those rows are not tested",
			 pct, side ? "new" : "base", DIFF_UNRESOLVED_WARN);
}

static void print_text(const struct diff_row *r, size_t n, size_t shown, char **keys, size_t nkeys,
		       const struct side *b, const struct side *nw, const struct diff_setup *s,
		       const struct text_opts *t, char *const *warnings)
{
	size_t flagged = 0, unresolved = 0;
	for (size_t i = 0; i < n; i++) {
		flagged += (size_t)r[i].significant;
		unresolved += (size_t)r[i].unresolved;
	}
	for (int w = 0; w < 2; w++)
		if (warnings[w])
			printf("# warning: %s\n", warnings[w]);
	printf("# base: %zu file%s, %llu samples, %.3f s of CPU; new: %zu file%s, %llu samples, %.3f s of CPU\n",
	       b->files, b->files == 1 ? "" : "s", (unsigned long long)b->a.total, (double)b->cpu_ns / 1e9, nw->files,
	       nw->files == 1 ? "" : "s", (unsigned long long)nw->a.total, (double)nw->cpu_ns / 1e9);
	if (s->share)
		printf("# compared: each row's share of its profile (--normalize); delta in percentage points\n");
	else
		printf("# compared: each row's time (samples x period); delta in points of the base's total time\n");
	if (diff_between_runs(s))
		printf("# p: quasi-Poisson t test over %zu + %zu runs (between-run variance, %g degrees of freedom); "
		       "q: Holm-adjusted over %zu rows; * q < %g: %zu row%s\n", s->base_runs, s->new_runs,
		       diff_runs_df(s), n - unresolved, s->alpha, flagged, flagged == 1 ? "" : "s");
	else
		printf("# p: %s; q: Holm-adjusted over %zu rows; * q < %g: %zu row%s\n"
		       "# only within-run (Poisson) noise is accounted for: give %d or more runs a side (-b) for a "
		       "verdict on the program\n",
		       diff_test_name(s), n - unresolved, s->alpha, flagged, flagged == 1 ? "" : "s", DIFF_MIN_RUNS);
	printf("# verdict: slower/faster if q < %g and |delta| >= %g points (--min-effect), unchanged if the 95%% CI "
	       "is within it, else unresolved; mde: 80%% power\n", s->alpha, s->min_effect);
	if (unresolved)
		printf("# %zu row%s without a name ([unknown], [anon]): not tested, q '-'\n", unresolved,
		       unresolved == 1 ? "" : "s");
	/* the columns before the keys: 82 with -l, else 39 (base%, new%,
	 * delta, its 95% CI; q only with -l, '*' marks it below alpha), then
	 * 18 (mde, verdict) */
	int before = (t->long_columns ? 82 : 39) + 18;
	if (t->long_columns)
		printf("  %8s %8s %7s %7s %8s %17s %9s %9s", "base", "new", "base%", "new%", "delta", "95% CI", "p", "q");
	else
		printf("%8s %7s %6s %15s", "base%", "new%", "delta", "95% CI ");
	printf(" %6s %-10s", "mde", "verdict");
	for (size_t k = 0; k < nkeys; k++)
		printf("  %s", keys[k]);
	printf("\n");
	for (size_t i = 0; i < shown; i++) {
		char q[32];
		if (r[i].unresolved)
			snprintf(q, sizeof q, "-");
		else
			snprintf(q, sizeof q, "%.2g", r[i].q);
		if (t->long_columns)
			printf("%s %8llu %8llu %6.2f%% %6.2f%% %+8.2f [%+6.2f, %+6.2f] %9.2g %9s",
			       r[i].significant ? "*" : " ", (unsigned long long)r[i].base, (unsigned long long)r[i].new,
			       r[i].base_pct, r[i].new_pct, r[i].delta, r[i].lo, r[i].hi, r[i].p, q);
		else
			printf("%s%6.2f%% %6.2f%% %+6.2f [%+6.2f,%+6.2f]", r[i].significant ? "*" : " ",
			       r[i].base_pct, r[i].new_pct, r[i].delta, r[i].lo, r[i].hi);
		printf(" %6.2f %-10s", r[i].mde, diff_verdict_name(r[i].verdict));
		int used = before;
		for (size_t k = 0; k < nkeys; k++) {
			const char *key = r[i].key[k];
			char *sh = !t->full_names && strcmp(keys[k], "function") == 0 ? name_short(key) : xstrdup(key);
			char *e = esc_dup(sh), *c;
			/* on a terminal the last key takes what is left, at least 12 */
			if (t->width > 0 && k + 1 == nkeys) {
				int room = t->width - used - 2;
				c = text_cut(e, (size_t)(room > 12 ? room : 12), cut_mark());
			} else {
				c = xstrdup(e);
			}
			printf("  %s", c);
			used += 2 + (int)text_columns(c);
			free(sh);
			free(e);
			free(c);
		}
		printf("\n");
	}
	if (shown < n)
		printf("# %zu more rows\n", n - shown);
}

static void print_tsv(const struct diff_row *r, size_t shown, char **keys, size_t nkeys)
{
	for (size_t k = 0; k < nkeys; k++)
		printf("%s\t", keys[k]);
	printf("base_samples\tnew_samples\tbase_percent\tnew_percent\tdelta\tdelta_low\tdelta_high\tp_value\tq_value\t"
	       "significant\tverdict\tmde\n");
	for (size_t i = 0; i < shown; i++) {
		for (size_t k = 0; k < nkeys; k++) {
			esc_fputs(r[i].key[k], stdout);
			putchar('\t');
		}
		char q[32];
		if (r[i].unresolved)
			snprintf(q, sizeof q, "NA");
		else
			snprintf(q, sizeof q, "%.6g", r[i].q);
		printf("%llu\t%llu\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.6g\t%s\t%d\t%s\t%.4f\n", (unsigned long long)r[i].base,
		       (unsigned long long)r[i].new, r[i].base_pct, r[i].new_pct, r[i].delta, r[i].lo, r[i].hi, r[i].p, q,
		       r[i].significant, diff_verdict_name(r[i].verdict), r[i].mde);
	}
}

/* How many runs the file holds (a merged file: several; standard input
 * counts as one); a file that cannot be read is an error (exit 1). */
static uint32_t file_runs(const char *file)
{
	char err[512];
	uint32_t r;
	if (strcmp(file, "-") == 0)   /* standard input is read once: as one run */
		return 1;
	if (tree_file_runs(file, &r, err, sizeof err) != 0)
		die("diff: %s", err);
	return r ? r : 1;
}

/* --check: one line per row whose verdict is want, for CI logs; returns
 * how many. */
static size_t print_check(const struct diff_row *r, size_t n, char **keys, size_t nkeys, enum diff_verdict want)
{
	size_t bad = 0;
	for (size_t i = 0; i < n; i++) {
		if (r[i].verdict != want)
			continue;
		bad++;
		printf("pct diff: %s:", diff_verdict_name(want));
		for (size_t k = 0; k < nkeys; k++) {
			printf(" ");
			esc_fputs(r[i].key[k], stdout);
		}
		printf(": %+.2f points (95%% CI %+.2f to %+.2f), q = %.2g, base %.2f%% new %.2f%%\n", r[i].delta,
		       r[i].lo, r[i].hi, r[i].q, r[i].base_pct, r[i].new_pct);
	}
	return bad;
}

int cmd_diff(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "by", required_argument, NULL, 'B' },
		{ "base", required_argument, NULL, 'b' },
		{ "format", required_argument, NULL, 'f' },
		{ "normalize", no_argument, NULL, 'N' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "min-effect", required_argument, NULL, 'm' },
		{ "check", optional_argument, NULL, 'c' },
		{ "rows", required_argument, NULL, 'n' },
		{ "long", no_argument, NULL, 'l' },
		{ "full-names", no_argument, NULL, 'F' },
		MODFILE_LONG_OPTIONS,
		PSET_SELECT_LONG_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *by = "function";
	struct diff_setup s = { .alpha = 0.05, .min_effect = DIFF_MIN_EFFECT };
	int tsv = 0, c, check = -1;
	struct text_opts t = { .width = term_columns(STDOUT_FILENO) };
	size_t limit = SIZE_MAX;
	char *end;
	char **bases = xcalloc((size_t)argc + 1, sizeof *bases);
	size_t nb_opt = 0;

	/* BASE... -- NEW...: split at the first "--", options before it */
	int dd = cmd_dashdash(argc, argv);
	int left = dd < 0 ? argc : dd;
	while ((c = getopt_long(left, argv, "b:n:lh", opts, NULL)) != -1) {
		switch (c) {
		case 'l':
			t.long_columns = 1;
			break;
		case 'F':
			t.full_names = 1;
			break;
		case 'B':
			by = optarg;
			break;
		case 'b':
			bases[nb_opt++] = optarg;
			break;
		case 'f':
			if (strcmp(optarg, "text") != 0 && strcmp(optarg, "tsv") != 0)
				die_usage("diff: unknown --format '%s' (text or tsv)", optarg);
			tsv = strcmp(optarg, "tsv") == 0;
			break;
		case 'N':
			s.share = 1;
			break;
		case 'a':
			s.alpha = cmd_alpha("diff", optarg);
			break;
		case 'm':
			s.min_effect = cmd_min_effect("diff", optarg);
			break;
		case 'c':
			if (optarg == NULL || strcmp(optarg, "slower") == 0)
				check = DIFF_SLOWER;
			else if (strcmp(optarg, "faster") == 0)
				check = DIFF_FASTER;
			else
				die_usage("diff: --check wants 'slower' or 'faster', not '%s'", optarg);
			break;
		case 'n':
			limit = strtoul(optarg, &end, 10);
			if (*end || optarg[0] == '-' || optarg[0] == '\0')
				die_usage("diff: -n wants a number of rows, not '%s'", optarg);
			break;
		default:
			if (modfile_option(c, optarg) || pset_select_option(c, optarg))
				break;
			return usage_exit(usage, c == 'h');
		}
	}
	/* the runs: one side each for the two-profile forms (a group is
	 * summed), one per run with -b, or when BASE or NEW is a merged
	 * file of several runs */
	char **base = argv + optind, **newf;
	size_t nbase, nnew, nruns;
	int per_run = nb_opt > 0;
	if (per_run) {
		if (dd >= 0)
			die_usage("diff: -b and '--' do not mix: with -b, the files after the options are the new runs");
		base = bases;
		nbase = nb_opt;
		newf = argv + optind;
		nnew = (size_t)(argc - optind);
	} else if (dd >= 0) {
		nbase = (size_t)(dd - optind);
		newf = argv + dd + 1;
		nnew = (size_t)(argc - dd - 1);
	} else {
		if (argc - optind != 2)
			return usage_short(usage);
		nbase = nnew = 1;
		newf = argv + optind + 1;
	}
	if (nbase == 0 || nnew == 0)
		return usage_short(usage);
	if (check >= 0 && tsv)
		die_usage("diff: --check prints its own lines; it does not take --format=tsv");
	cmd_wrap_headers();
	size_t stdin_named = 0;
	for (size_t f = 0; f < nbase + nnew; f++)
		if (strcmp(f < nbase ? base[f] : newf[f - nbase], "-") == 0 && stdin_named++)
			die_usage("diff: standard input ('-') is named more than once");
	/* each run: its file, and its number in the file (-1: the whole file) */
	char **run_file = NULL;
	long *run_no = NULL;
	size_t base_runs = 0, new_runs = 0;
	if (per_run || dd < 0) {
		run_file = xcalloc(1, sizeof *run_file);
		run_no = xcalloc(1, sizeof *run_no);
		size_t cap = 1, k = 0;
		for (size_t f = 0; f < nbase + nnew; f++) {
			char *file = f < nbase ? base[f] : newf[f - nbase];
			uint32_t r = file_runs(file);
			for (uint32_t i = 0; i < r; i++) {
				grow(&run_file, &cap, k + 1, sizeof *run_file);
				run_no = xrealloc(run_no, cap * sizeof *run_no);
				run_file[k] = file;
				run_no[k++] = r > 1 ? (long)i : -1;
			}
			*(f < nbase ? &base_runs : &new_runs) += r;
		}
		per_run = per_run || base_runs > 1 || new_runs > 1;
	}
	const struct view *v = view_find(by);
	/* the views that have rows to match; thread and process do not
	 * (thread ids and pids differ between runs) */
	if (v == NULL || strcmp(by, "thread") == 0 || strcmp(by, "process") == 0)
		die_usage("diff: unknown --by '%s' (function, module, address, line or file)", by);

	char *keystr = xstrdup(diff_keys(by)), *keys[16], *save = NULL;
	size_t nkeys = 0;
	for (char *k = strtok_r(keystr, ",", &save); k && nkeys < 16; k = strtok_r(NULL, ",", &save))
		keys[nkeys++] = k;
	/* sides[0] and sides[1]: the base and new sums; with -b, sides[2..]
	 * are the runs, base runs first */
	if (per_run) {
		nbase = base_runs;
		nnew = new_runs;
	}
	nruns = per_run ? nbase + nnew : 0;
	struct side *sides = xcalloc(2 + nruns, sizeof *sides);
	int status;
	if (per_run) {
		for (size_t j = 0; j < nruns; j++) {
			if (run_no[j] < 0) {
				status = read_side(&sides[2 + j], &run_file[j], 1, v, keys, nkeys);
			} else {
				/* a file of several runs: read once, run_no[j] == 0 here */
				uint32_t r = 0;
				while (j + r + 1 < nruns && run_file[j + r + 1] == run_file[j] && run_no[j + r + 1] > 0)
					r++;
				struct pset *sets = xcalloc(r + 1, sizeof *sets);
				char err[512];
				if (pset_load_runs(sets, r + 1, run_file[j], err, sizeof err) != 0)
					die("diff: %s", err);
				status = 0;
				for (uint32_t k = 0; k <= r && status == 0; k++)
					status = read_pset(&sides[2 + j + k], &sets[k], v, keys, nkeys);
				free(sets);
				j += r;
			}
			if (status != 0)
				return status;
		}
		for (size_t j = 0; j < nruns; j++) {
			if (sides[2 + j].a.total == 0)
				die("diff: %s%s has no samples", esc_dup(run_file[j]),
				    run_no[j] >= 0 ? xasprintf(" (run %ld)", run_no[j] + 1) : "");
			/* the same run twice would fake agreement between runs */
			for (size_t i = 0; i < j; i++)
				if (sides[2 + i].id == sides[2 + j].id)
					die("diff: %s%s and %s%s are the same run (the same processes, started at the same "
					    "time): give each run once", esc_dup(run_file[i]),
					    run_no[i] >= 0 ? xasprintf(" (run %ld)", run_no[i] + 1) : "", esc_dup(run_file[j]),
					    run_no[j] >= 0 ? xasprintf(" (run %ld)", run_no[j] + 1) : "");
		}
		for (int g = 0; g < 2; g++) {
			struct side *sd = &sides[g];
			sd->a.nkeys = nkeys;
			for (size_t j = g ? nbase : 0; j < (g ? nruns : nbase); j++) {
				const struct side *r = &sides[2 + j];
				for (size_t i = 0; i < r->a.nrows; i++)
					agg_add(&sd->a, r->a.rows[i].key, r->a.rows[i].samples);
				sd->cpu_ns += r->cpu_ns;
				sd->dropped += r->dropped;
				sd->files += r->files;
			}
		}
	} else if ((status = read_side(&sides[0], base, nbase, v, keys, nkeys)) != 0 ||
		   (status = read_side(&sides[1], newf, nnew, v, keys, nkeys)) != 0) {
		return status;
	}
	struct side *sb = &sides[0], *sn = &sides[1];
	if (sb->a.total == 0 || sn->a.total == 0)
		die("diff: the %s side has no samples", sb->a.total == 0 ? "base" : "new");

	/* the union of both sides' rows */
	size_t n = 0;
	struct diff_row *rows = xcalloc(sb->a.nrows + sn->a.nrows, sizeof *rows);
	for (size_t i = 0; i < sb->a.nrows; i++) {
		long j = agg_find(&sn->a, sb->a.rows[i].key);
		rows[n++] = (struct diff_row){ .key = sb->a.rows[i].key, .base = sb->a.rows[i].samples,
					       .new = j >= 0 ? sn->a.rows[j].samples : 0 };
	}
	for (size_t i = 0; i < sn->a.nrows; i++)
		if (agg_find(&sb->a, sn->a.rows[i].key) < 0)
			rows[n++] = (struct diff_row){ .key = sn->a.rows[i].key, .new = sn->a.rows[i].samples };
	s.base_total = sb->a.total;
	s.new_total = sn->a.total;
	s.base_period = period_of(sb);
	s.new_period = period_of(sn);
	if (per_run) {
		/* each side's time per run: its runs' mean, so that 3 runs
		 * compare with 1 when the within-run test stands in */
		s.base_period /= (double)nbase;
		s.new_period /= (double)nnew;
	}
	uint64_t *counts = NULL, *run_total = NULL;
	double *run_period = NULL;
	if (per_run) {
		counts = xcalloc(n * nruns + 1, sizeof *counts);
		run_total = xcalloc(nruns, sizeof *run_total);
		run_period = xcalloc(nruns, sizeof *run_period);
		for (size_t j = 0; j < nruns; j++) {
			const struct side *r = &sides[2 + j];
			run_total[j] = r->a.total;
			run_period[j] = period_of(r);
			if (!s.share && run_period[j] == 0)
				die("diff: %s has no CPU time recorded; use --normalize to compare shares",
				    esc_dup(run_file[j]));
			for (size_t i = 0; i < n; i++) {
				long k = agg_find(&r->a, rows[i].key);
				counts[i * nruns + j] = k >= 0 ? r->a.rows[k].samples : 0;
			}
		}
		for (size_t i = 0; i < n; i++)
			rows[i].runs = counts + i * nruns;
		s.base_runs = nbase;
		s.new_runs = nnew;
		s.run_total = run_total;
		s.run_period = run_period;
	}
	if (!s.share && (s.base_period == 0 || s.new_period == 0))
		die("diff: a side has no CPU time recorded; use --normalize to compare shares");
	for (size_t i = 0; i < n; i++)
		rows[i].unresolved = diff_key_unresolved(rows[i].key, keys, nkeys);
	diff_compute(rows, n, &s);
	diff_sort(rows, n, nkeys);
	char *warnings[2] = { unresolved_warning(rows, n, sb, 0), unresolved_warning(rows, n, sn, 1) };
	for (int w = 0; w < 2; w++)
		if (warnings[w])
			warnx_("diff: %s", warnings[w]);
	size_t shown = n < limit ? n : limit;
	int rc = 0;
	if (check >= 0) {
		size_t bad = print_check(rows, n, keys, nkeys, (enum diff_verdict)check);
		printf("pct diff: %zu row%s %s (%s; alpha %g, min effect %g points)\n", bad, bad == 1 ? "" : "s",
		       diff_verdict_name((enum diff_verdict)check),
		       diff_between_runs(&s) ? "between-run test" : "within-run noise only", s.alpha, s.min_effect);
		rc = bad > 0;
	} else if (tsv) {
		print_tsv(rows, shown, keys, nkeys);
	} else {
		print_text(rows, n, shown, keys, nkeys, sb, sn, &s, &t, warnings);
	}
	free(warnings[0]);
	free(warnings[1]);
	free(rows);
	free(counts);
	free(run_total);
	free(run_period);
	for (size_t j = 0; j < 2 + nruns; j++)
		agg_free(&sides[j].a);
	free(sides);
	free(run_file);
	free(run_no);
	free(bases);
	free(keystr);
	symtab_free_all();
	return rc;
}
