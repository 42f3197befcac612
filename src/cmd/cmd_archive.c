/*
 * cmd_archive.c - `pct archive`: the profiles with every module file they
 * need, by build-id, in one .tar.gz for another machine (as `perf
 * archive`), and those files in the build-id cache for this one.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pack.h"
#include "commands.h"
#include "modfile.h"
#include "pset.h"
#include "symtab.h"
#include "util.h"

static const char usage[] =
	"usage: pct archive [-o OUT.tar.gz] FILE...\n"
	"\n"
	"Write the pct profiles FILE... to a gzip-compressed tar archive (default:\n"
	"the first FILE + \".tar.gz\") with every module file they need, by\n"
	"build-id: build-id/XX/REST/elf, and build-id/XX/REST/debug for a separate\n"
	"debug file (a module without a build-id is stored at its own path).  The\n"
	"modules holding samples are needed, and every module of a -g profile.\n"
	"Unpacked into DIR on any machine, `pct report --symfs=DIR DIR/FILE`\n"
	"(and annotate, source, diff, export, flame) reads them there.  The\n"
	"modules are also put in the build-id cache (see pct-cache(1)), unless\n"
	"it is off.  OUT is written under a temporary name and renamed.\n"
	"\n"
	"A file the profiles merely name is archived only if its build-id is the\n"
	"profile's, or if the profile's writer (the owner of the profile file)\n"
	"could read it; each file left out is named with the reason.  The archive\n"
	"is no more readable than the most private file in it.\n"
	"\n"
	"  -o, --output=OUT  write the archive to OUT (- for standard output,\n"
	"                    refused on a terminal)\n"
	MODFILE_USAGE
	"  -h, --help        show this help\n"
	"\n"
	"See pct-archive(1).\n";

int cmd_archive(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		MODFILE_LONG_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL;
	int c;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		if (c == 'o')
			out = optarg;
		else if (!modfile_option(c, optarg))
			return usage_exit(usage, c == 'h');
	}
	if (optind >= argc)
		return usage_short(usage);
	char *def = out ? NULL : xasprintf("%s.tar.gz", argv[optind]);
	if (def)
		out = def;
	int to_stdout = strcmp(out, "-") == 0;
	if (to_stdout)
		cmd_output_tty("archive", out, "binary");
	for (int i = optind; i < argc; i++)
		if (strcmp(argv[i], "-") == 0)
			die_usage("archive: a profile must be a file, not standard input");
		else if (!to_stdout && strcmp(argv[i], out) == 0)
			die("archive: the output '%s' is also an input", out);
	struct pset s;
	struct pack_kept k;
	char err[1024];
	cmd_load(&s, argv + optind, (size_t)(argc - optind), "archive: ");
	pack_cache(&s, 1, &k);
	long left, n = pack_archive(&s, argv + optind, (size_t)(argc - optind), out, &left, err, sizeof err);
	if (n < 0)
		die("archive: %s", err);
	char *also = left ? xasprintf("; %ld file%s left out (above)", left, left == 1 ? "" : "s") : xstrdup("");
	note("archived %d profile%s and %ld module file%s into %s%s%s%s", argc - optind, argc - optind == 1 ? "" : "s", n,
	     n == 1 ? "" : "s", to_stdout ? "" : "'", to_stdout ? "standard output" : out, to_stdout ? "" : "'", also);
	free(also);
	symtab_free_all();
	pset_free(&s);
	free(def);
	return 0;
}
