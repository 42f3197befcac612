/*
 * cmd_sym.c - `pct sym`: the second filter stage.  It reads the TSV of
 * `pct dump` (or anything with module, build_id and offset columns) and
 * appends the function holding each offset, the offset within it, and
 * the link-time address.
 */

#include "modfile.h"
#include "commands.h"
#include "stages.h"

static const char usage[] =
	"usage: pct sym [FILE...]\n"
	"\n"
	"Read TSV with the columns module, build_id and offset (as `pct dump`\n"
	"writes) from FILE... or standard input, and write it with three columns\n"
	"appended: function (the demangled symbol; MODULE+0xSTART for a function\n"
	"known only from .eh_frame; [unknown] if nothing names the offset),\n"
	"function_offset (0x-hex from the function's start, or empty) and\n"
	"address (0x-hex link-time address, as objdump shows it, or empty).\n"
	"\n"
	"Where the modules' files are found (see pct-report(1), FILES):\n"
	MODFILE_USAGE
	"  -h, --help       show this help\n"
	"\n"
	"See pct-sym(1).\n";

int cmd_sym(int argc, char **argv)
{
	return stage_main(argc, argv, usage, stage_sym);
}
