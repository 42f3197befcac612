/*
 * cmd_line.c - `pct line`: the third filter stage.  It appends the source
 * file and line of each row's address, from the DWARF line table, and the
 * chain of inlined functions that hold it.
 */
#include <stdio.h>

#include "modfile.h"
#include "commands.h"
#include "stages.h"

static const char usage[] =
	"usage: pct line [FILE...]\n"
	"\n"
	"Read TSV with the columns module, build_id and offset (and address, if\n"
	"`pct sym` added it) from FILE... or standard input, and write it with\n"
	"three columns appended: file and line (from the DWARF line table, through\n"
	"separate debug info if installed; [unknown] and 0 without), and inline:\n"
	"the inlined functions holding the address, innermost first, each as\n"
	"NAME@FILE:LINE with the call site it was inlined at, separated by ';'\n"
	"(empty if none).\n"
	"\n"
	"Where the modules' files are found (see pct-report(1), FILES):\n"
	MODFILE_USAGE
	"  -h, --help       show this help\n"
	"\n"
	"See pct-line(1).\n";

int cmd_line(int argc, char **argv)
{
	return stage_main(argc, argv, usage, stage_line);
}
