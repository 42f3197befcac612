/*
 * cmd_source.c - `pct source`: an annotated source listing, as gprof -A or
 * gcov print one: every line of a source file with its samples and share,
 * the hot lines marked.
 */
#include <stdlib.h>
#include <string.h>

#include "modfile.h"
#include "commands.h"
#include "annotate.h"
#include "escape.h"
#include "listing.h"
#include "pset.h"
#include "source.h"
#include "symtab.h"
#include "util.h"

static const char usage[] =
	"usage: pct source [-n N] [-S DIR] [--source-root=DIR] [SRCFILE] FILE...\n"
	"\n"
	"Print the source files of the pct profiles FILE... with every line's\n"
	"samples and share of the file's samples: the N files with the most\n"
	"samples (default 1), or the file whose path ends with SRCFILE.  '=>'\n"
	"marks the hottest line, '*' any other with 5% or more.  If a source file\n"
	"cannot be found, pct says where it looked and lists the line table's\n"
	"lines that hold samples instead.  pct prints any file that DWARF names,\n"
	"so a listing of someone else's profile may show a secret file:\n"
	"--source-root limits what it reads.\n"
	"\n"
	"  -n, --files=N        list the N files with the most samples\n"
	"  -S, --source-dir=DIR look for source files under DIR too\n"
	"  --source-root=DIR    read source files only under DIR (symlinks and ..\n"
	"                       resolved; repeatable); others are not shown\n"
	PSET_SELECT_USAGE
	MODFILE_USAGE
	"  -h, --help           show this help\n"
	"\n"
	"See pct-source(1).\n";

struct fline {
	int line;
	uint64_t samples;
};

struct file {
	const char *path;              /* owned by a symtab */
	struct fline *lines;
	size_t nlines, cap;
	uint64_t samples;
};

static int cmp_files(const void *pa, const void *pb)
{
	const struct file *a = pa, *b = pb;
	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	return strcmp(a->path, b->path);
}

static int cmp_lines(const void *pa, const void *pb)
{
	const struct fline *a = pa, *b = pb;
	return (a->line > b->line) - (a->line < b->line);
}

static void add(struct file **files, size_t *n, size_t *cap, const char *path, int line, uint64_t k)
{
	struct file *f = NULL;
	for (size_t i = 0; i < *n && !f; i++)
		if (strcmp((*files)[i].path, path) == 0)
			f = &(*files)[i];
	if (f == NULL) {
		grow(files, cap, *n + 1, sizeof **files);
		f = &(*files)[(*n)++];
		memset(f, 0, sizeof *f);
		f->path = path;
	}
	f->samples += k;
	for (size_t i = 0; i < f->nlines; i++)
		if (f->lines[i].line == line) {
			f->lines[i].samples += k;
			return;
		}
	grow(&f->lines, &f->cap, f->nlines + 1, sizeof *f->lines);
	f->lines[f->nlines++] = (struct fline){ line, k };
}

static void list(const struct file *f, uint64_t total)
{
	uint64_t hottest = 0;
	for (size_t i = 0; i < f->nlines; i++)
		if (f->lines[i].samples > hottest)
			hottest = f->lines[i].samples;
	const struct srcfile *sf = source_get(f->path);
	/* paths and the source text print escaped (escape.h) */
	fputs("# ", stdout);
	esc_fputs(f->path, stdout);
	printf(": %llu samples, %.2f%% of all\n", (unsigned long long)f->samples,
	       total ? 100.0 * (double)f->samples / (double)total : 0.0);
	if (sf->found == NULL) {
		if (sf->outside)
			printf("# source not shown: outside --source-root; listing the line table\n");
		else
			warnx_("cannot open source '%s' (looked in: %s); listing the line table", f->path, sf->looked);
		printf("%2s %9s %8s %6s\n", "", "samples", "percent", "line");
		for (size_t i = 0; i < f->nlines; i++) {
			double pct = f->samples ? 100.0 * (double)f->lines[i].samples / (double)f->samples : 0;
			printf("%-2s %9llu %7.2f%% %6d\n", annotate_mark(f->lines[i].samples, hottest, f->samples),
			       (unsigned long long)f->lines[i].samples, pct, f->lines[i].line);
		}
		printf("\n");
		return;
	}
	if (strcmp(sf->found, f->path) != 0) {
		fputs("# read from ", stdout);
		esc_fputs(sf->found, stdout);
		putchar('\n');
	}
	printf("%2s %9s %8s %6s  %s\n", "", "samples", "percent", "line", "source");
	size_t j = 0;
	size_t last = sf->nlines;
	if (f->nlines && (size_t)f->lines[f->nlines - 1].line > last)
		last = (size_t)f->lines[f->nlines - 1].line;
	for (size_t n = 1; n <= last; n++) {
		uint64_t k = 0;
		while (j < f->nlines && (size_t)f->lines[j].line < n)
			j++;
		if (j < f->nlines && (size_t)f->lines[j].line == n)
			k = f->lines[j].samples;
		const char *text = source_line(sf, (int)n);
		double pct = f->samples ? 100.0 * (double)k / (double)f->samples : 0;
		if (k)
			printf("%-2s %9llu %7.2f%% %6zu  ", annotate_mark(k, hottest, f->samples), (unsigned long long)k, pct, n);
		else
			printf("%2s %9s %8s %6zu  ", "", "", "", n);
		esc_fputs_tabs(text ? text : k ? "(past the end of the file: it changed since the build?)" : "", stdout);
		putchar('\n');
	}
	printf("\n");
}

static int ends_with_path(const char *path, const char *tail)
{
	size_t lp = strlen(path), lt = strlen(tail);
	return lt <= lp && strcmp(path + lp - lt, tail) == 0 && (lt == lp || path[lp - lt - 1] == '/' || tail[0] == '/');
}

int cmd_source(int argc, char **argv)
{
	struct listing l;
	int status;
	if (listing_open(argc, argv, usage, "files", 1, &l, &status) != 0)
		return status;
	cmd_wrap_headers();
	size_t nf = 0, capf = 0;
	struct file *files = NULL;
	for (size_t i = 0; i < l.naddrs; i++) {
		const struct pset_module *g = &l.set.mods[l.addrs[i].module];
		struct srcline sl;
		if (symtab_srcline(pset_symtab(g), l.addrs[i].addr, &sl) == 0)
			add(&files, &nf, &capf, sl.file, sl.line, l.addrs[i].samples);
	}
	sort(files, nf, sizeof *files, cmp_files);
	size_t shown = 0;
	for (size_t i = 0; i < nf; i++) {
		if (l.target ? !ends_with_path(files[i].path, l.target) : shown >= l.count)
			continue;
		sort(files[i].lines, files[i].nlines, sizeof *files[i].lines, cmp_lines);
		list(&files[i], l.total);
		shown++;
	}
	if (shown == 0)
		die(l.target ? "source: no samples in a source file named '%s'" : "source: no samples have line information%s",
		    l.target ? l.target : " (no DWARF debug info; install the -dbg or -dbgsym package?)");
	for (size_t i = 0; i < nf; i++)
		free(files[i].lines);
	free(files);
	listing_close(&l);
	return 0;
}
