/*
 * pct.c - the pct command: the dispatcher.  It owns the table of
 * subcommands (commands.h), pct's own --help, `pct help CMD` (CMD's
 * --help), and the check that standard output reached its file, made
 * once here after a command returns 0 rather than in each command.
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
	{ "record", cmd_record, "run a command with sampling on, or attach to processes, and write the profile" },
	{ "report", cmd_report, "print the flat profile of profile files" },
	{ "top", cmd_top, "live view of the hottest functions of running programs" },
	{ "merge", cmd_merge, "sum runs into one profile (as gprof -s)" },
	{ "archive", cmd_archive, "pack profiles with the module files they need, by build-id" },
	{ "cache", cmd_cache, "list or prune the build-id cache of module files" },
	{ "diff", cmd_diff, "which rows of two profiles differ beyond sampling noise" },
	{ "export", cmd_export, "write profiles for gprof, pprof, callgrind, flamegraph.pl, speedscope" },
	{ "html", cmd_html, "write one self-contained interactive HTML report, or a diff's" },
	{ "flame", cmd_flame, "write a flame graph of -g call stacks as a self-contained SVG" },
	{ "annotate", cmd_annotate, "annotated disassembly of the hottest or a named function" },
	{ "source", cmd_source, "annotated source listing, every line with its samples" },
	{ "timeline", cmd_timeline, "when the samples were taken: each thread's activity over time" },
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

/* The command named name, or NULL. */
static const struct command *command_find(const char *name)
{
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(name, commands[i].name) == 0)
			return &commands[i];
	return NULL;
}

/* Run a command, as git's run_builtin() does: the command returns its
 * exit status; if that is 0, what it wrote to stdout must have reached
 * its file, or pct exits 1 saying so (finish_stdout). */
static int run_command(const struct command *c, int argc, char **argv)
{
	int status = c->fn(argc, argv);
	if (status == 0)
		finish_stdout();
	return status;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (strcmp(argv[1], "help") == 0 && argc > 2) {
		/* pct help CMD: CMD's own --help, as git help and go help do */
		const struct command *c = command_find(argv[2]);
		if (c) {
			char *args[] = { argv[2], "--help", NULL };
			return run_command(c, 2, args);
		}
		note("help: unknown command '%s'", argv[2]);
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
	const struct command *c = command_find(argv[1]);
	if (c)
		return run_command(c, argc - 1, argv + 1);
	note("unknown command '%s'", argv[1]);
	usage(stderr);
	return 2;
}
