/*
 * commands.h - the pct subcommands.  Each is cmd_NAME(argc, argv) in
 * src/cmd_NAME.c, listed once in the table in pct.c, with a man page
 * man/pct-NAME.1 and tests under tests/.  argv[0] is the command's name;
 * the return value is the exit status.
 */
#ifndef PCT_COMMANDS_H
#define PCT_COMMANDS_H

#include <stddef.h>

int cmd_annotate(int argc, char **argv);
int cmd_archive(int argc, char **argv);
int cmd_cache(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_flame(int argc, char **argv);
int cmd_html(int argc, char **argv);
int cmd_line(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_source(int argc, char **argv);
int cmd_sum(int argc, char **argv);
int cmd_sym(int argc, char **argv);
int cmd_timeline(int argc, char **argv);
int cmd_top(int argc, char **argv);

struct pset;
/* What the commands share (common.c): load the profiles files[0..n) into
 * *s (pset_load), or print pset_load's message, prefixed with what (""
 * or e.g. "merge: "), and exit 1. */
void cmd_load(struct pset *s, char *const *files, size_t n, const char *what);

/* The index in argv[1..argc) of the first "--" (BASE... -- NEW...), or
 * -1 if there is none. */
int cmd_dashdash(int argc, char **argv);

/* A diff's --alpha (a level strictly between 0 and 1) and --min-effect
 * (percentage points, above 0 and at most 100) from arg; a bad value is a
 * usage error (exit 2) naming the command cmd. */
double cmd_alpha(const char *cmd, const char *arg);
double cmd_min_effect(const char *cmd, const char *arg);

/* The output of -o OUT as every command that writes a file takes it:
 * OUT NULL (no -o, for the commands whose default is standard output) or
 * "-" is standard output (outfile.h).  When that output is standard output
 * and standard output is a terminal, data that is not text for one (what:
 * "binary", "HTML", "SVG", said in the message) is refused, as gzip(1)
 * refuses to write compressed data to a terminal: a usage error (exit 2)
 * naming the command cmd, before any input is read. */
void cmd_output_tty(const char *cmd, const char *out, const char *what);

/* When standard output is a terminal (term_columns(), names.h), its
 * comment lines ("# ...", a text report's header and notes) are wrapped
 * to the terminal's width from here on (text_wrap_comments()): stdout is
 * replaced by a stream that passes other lines through unchanged.  Write
 * errors reach stdout's error flag, as before (stdout_error(), util.h).
 * Does nothing on a pipe or a file, or if the stream cannot be made. */
void cmd_wrap_headers(void);

#endif
