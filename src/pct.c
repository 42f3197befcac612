/*
 * pct.c - the pct command: dispatch to a subcommand from the table.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "escape.h"
#include "util.h"

#define PCT_VERSION_STRING "0.1.0"

static const struct command {
	const char *name;
	int (*fn)(int, char **);
	const char *summary;
} commands[] = {
	{ "record", cmd_record, "run a command with sampling on and write its profile" },
	{ "report", cmd_report, "print the flat profile of profile files" },
	{ "merge", cmd_merge, "sum runs into one profile (as gprof -s)" },
	{ "diff", cmd_diff, "which rows of two profiles differ beyond sampling noise" },
	{ "export", cmd_export, "write profiles for gprof, pprof, callgrind, flamegraph.pl, speedscope" },
	{ "flame", cmd_flame, "write a flame graph of -g call stacks as a self-contained SVG" },
	{ "annotate", cmd_annotate, "annotated disassembly of the hottest or a named function" },
	{ "source", cmd_source, "annotated source listing, every line with its samples" },
	{ "dump", cmd_dump, "filter stage: samples as TSV (module, build_id, offset, samples)" },
	{ "sym", cmd_sym, "filter stage: add the function to dump's TSV" },
	{ "line", cmd_line, "filter stage: add the source file, line and inline chain" },
	{ "sum", cmd_sum, "filter stage: group, sort, add percent and standard error" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: pct COMMAND [ARGS...]\n"
		   "       pct help [COMMAND] | --help | --version\n\n"
		   "pct samples a program's PC on CPU-time ticks, with no recompiling,\n"
		   "and reports where the time went, with its statistical error.\n\n"
		   "Commands:\n");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nRun 'pct help COMMAND' or 'pct COMMAND --help' for a command's options; see pct(1).\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (strcmp(argv[1], "help") == 0 && argc > 2) {
		/* pct help CMD: CMD's own --help, as git help and go help do */
		for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
			if (strcmp(argv[2], commands[i].name) == 0) {
				char *args[] = { argv[2], "--help", NULL };
				return commands[i].fn(2, args);
			}
		fprintf(stderr, "pct: help: unknown command '%s'\n", esc_dup(argv[2]));
		usage(stderr);
		return 2;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
		usage(stdout);
		finish_stdout();
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("pct %s\n", PCT_VERSION_STRING);
		finish_stdout();
		return 0;
	}
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "pct: unknown command '%s'\n", esc_dup(argv[1]));
	usage(stderr);
	return 2;
}
