/*
 * cmd_merge.c - `pct merge`: sum runs into one profile, as `gprof -s`
 * sums gmon.out files, to gain accuracy from repeated runs.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "pset.h"
#include "tree.h"
#include "util.h"

static const char usage[] =
	"usage: pct merge [--sum] [--time=START..END] -o OUT FILE...\n"
	"\n"
	"Merge the pct profiles FILE... into OUT, one file that every command\n"
	"reads as their sum (`pct report OUT` prints what `pct report FILE...`\n"
	"prints).  The runs stay apart: OUT is a tree file (pct(5)) whose\n"
	"profiles each carry the number of their run (a file's process tree is\n"
	"one run; a merged file's runs are renumbered after those before it), so\n"
	"that `pct diff -b OUT NEW...` still tests OUT's runs one by one, and\n"
	"call stacks and sample times are kept.  With --sum, the samples, dropped\n"
	"samples and CPU time are added up into one profile instead (smaller; it\n"
	"records how many runs it holds, but serves as one run, without stacks\n"
	"or times), as `gprof -s` sums gmon.out files.  Files that measure\n"
	"different things (dimension or mechanism) are refused, and so is a\n"
	"process's profile found twice (a file named twice, a copy, or a run\n"
	"already in a merge without --sum): its samples would count twice.  A\n"
	"module is the same in two files only if its path and build-id agree;\n"
	"otherwise both are kept, so no sample is ever charged to the wrong\n"
	"code.  OUT is written whole under a temporary name and then renamed\n"
	"into place (a device or FIFO is written in place; see pct-merge(1) for\n"
	"symlinks).\n"
	"\n"
	"  -o, --output=OUT  write the merged profile to OUT (- for standard\n"
	"                    output, refused on a terminal)\n"
	"  --sum             add the runs up into one profile\n"
	PSET_SELECT_USAGE
	"                  the samples selected by these four are summed, as with --sum\n"
	"  -h, --help        show this help\n"
	"\n"
	"See pct-merge(1).\n";

int profile_write(const char *path, const struct pset *s, char *err, size_t errlen);

int cmd_merge(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "sum", no_argument, NULL, 's' },
		PSET_SELECT_LONG_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL;
	int c, sum = 0, sliced = 0;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		if (c == 'o')
			out = optarg;
		else if (c == 's')
			sum = 1;
		else if (pset_select_option(c, optarg))
			sliced = 1;
		else
			return usage_exit(usage, c == 'h');
	}
	if (out == NULL || optind >= argc)
		return usage_short(usage);
	int to_stdout = strcmp(out, "-") == 0;
	if (to_stdout)
		cmd_output_tty("merge", out, "binary");
	for (int i = optind; i < argc; i++)
		if (!to_stdout && strcmp(argv[i], out) == 0)
			die("merge: the output '%s' is also an input", out);
	const char *shown = to_stdout ? "standard output" : out;
	struct pset s;
	char err[512];
	/* read all first: refuses files that measure different things */
	cmd_load(&s, argv + optind, (size_t)(argc - optind), "merge: ");
	if (sliced && !sum)
		note("merge: --time, --comm, --tid, --dso: the samples selected are summed into one profile, as with "
		     "--sum (a tree file keeps each profile whole)");
	if (sum || sliced) {
		for (size_t i = 0; i < s.nprofiles; i++)
			if (s.profiles[i].nstacks) {
				note("merge: the call stacks of '%s' are not summed (only samples are); "
				     "merge without --sum to keep them", s.profiles[i].file);
				break;
			}
		if (profile_write(out, &s, err, sizeof err) != 0)
			die("merge: %s", err);
		note("merged %llu runs, %llu samples, into %s%s%s", (unsigned long long)s.runs,
		     (unsigned long long)s.total, to_stdout ? "" : "'", shown, to_stdout ? "" : "'");
	} else {
		uint32_t runs;
		size_t members;
		if (tree_merge(out, argv + optind, (size_t)(argc - optind), &runs, &members, err, sizeof err) != 0)
			die("merge: %s", err);
		note("merged %u run%s (%zu profile%s), %llu samples, into %s%s%s", runs, runs == 1 ? "" : "s", members,
		     members == 1 ? "" : "s", (unsigned long long)s.total, to_stdout ? "" : "'", shown,
		     to_stdout ? "" : "'");
	}
	pset_free(&s);
	return 0;
}
