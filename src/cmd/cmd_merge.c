/*
 * cmd_merge.c - `pct merge`: sum runs into one profile, as `gprof -s`
 * sums gmon.out files, to gain accuracy from repeated runs.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "pset.h"
#include "util.h"

static const char usage[] =
	"usage: pct merge -o OUT FILE...\n"
	"\n"
	"Sum the pct profiles FILE... into OUT: samples, dropped samples and CPU\n"
	"time add up, and OUT records how many runs it holds.  Files that measure\n"
	"different things (dimension or mechanism) are refused.  A module is the\n"
	"same in two files only if its path and build-id agree; otherwise both\n"
	"are kept, so no sample is ever charged to the wrong code.  OUT is\n"
	"written whole under a temporary name and then renamed into place (a\n"
	"device or FIFO is written in place; see pct-merge(1) for symlinks).\n"
	"`pct report A B C` prints what `pct report` of their merge prints.\n"
	"\n"
	"  -o, --output=OUT  write the merged profile to OUT\n"
	"\n"
	"See pct-merge(1).\n";

int profile_write(const char *path, const struct pset *s, char *err, size_t errlen);

int cmd_merge(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL;
	int c;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		if (c == 'o')
			out = optarg;
		else
			return usage_exit(usage, c == 'h');
	}
	if (out == NULL || optind >= argc)
		return usage_exit(usage, 0);
	for (int i = optind; i < argc; i++)
		if (strcmp(argv[i], out) == 0)
			die("merge: the output '%s' is also an input", out);
	struct pset s;
	char err[512];
	cmd_load(&s, argv + optind, (size_t)(argc - optind), "merge: ");
	for (size_t i = 0; i < s.nprofiles; i++)
		if (s.profiles[i].nstacks) {
			note("merge: the call stacks of '%s' are not merged (only samples are); "
				"report or export the -g files together instead", s.profiles[i].file);
			break;
		}
	if (profile_write(out, &s, err, sizeof err) != 0)
		die("merge: %s", err);
	note("merged %llu runs, %llu samples, into '%s'", (unsigned long long)s.runs,
		(unsigned long long)s.total, out);
	pset_free(&s);
	return 0;
}
