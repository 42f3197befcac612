/*
 * cmd_dump.c - `pct dump`: the first filter stage.  It prints the raw
 * samples of profile files as TSV, one row per (module, build-id,
 * offset), summed over the files: the input of `pct sym`.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "pset.h"
#include "stages.h"
#include "util.h"

static const char usage[] =
	"usage: pct dump [--time=START..END] FILE...\n"
	"\n"
	"Print the samples of the pct profiles FILE... (summed; '-' is standard\n"
	"input) as TSV with the\n"
	"columns module (the file's path, or [unknown] for a PC in no module),\n"
	"build_id (hex, or empty), offset (0x-hex offset in the module's file;\n"
	"the absolute PC for [unknown]), pid and command (the process), tid and\n"
	"thread (the thread's id and name; 0 and ? if unknown) and samples,\n"
	"sorted by module, offset, process and thread,\n"
	"after '#pct' comment lines that describe the profiles.  Feed it to\n"
	"`pct sym`.\n"
	"\n"
	PSET_SELECT_USAGE
	"  -h, --help        show this help\n"
	"\n"
	"See pct-dump(1).\n";

int cmd_dump(int argc, char **argv)
{
	static const struct option opts[] = {
		PSET_SELECT_LONG_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1)
		if (!pset_select_option(c, optarg))
			return usage_exit(usage, c == 'h');
	if (optind >= argc)
		return usage_short(usage);
	struct pset s;
	cmd_load(&s, argv + optind, (size_t)(argc - optind), "");
	stage_dump(&s, stdout);
	pset_free(&s);
	return 0;
}
