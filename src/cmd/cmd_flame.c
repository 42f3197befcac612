/*
 * cmd_flame.c - `pct flame`: a flame graph of -g call stacks, as one
 * self-contained SVG file (no external scripts, fonts or styles), or the
 * differential flame graph of two profiles (BASE NEW).
 *
 * The stacks are folded (callstack.h) and merged into a tree: each frame is
 * a box as wide as the samples whose stack passes through it, callers
 * below their callees (Brendan Gregg's flame graph layout; the colours are
 * a hash of the name on a warm palette, as flamegraph.pl's default).  Each
 * box has a <title> with its name, samples and share, which browsers show
 * on hover, and data-function / data-samples for scripts and tests.  The
 * script (src/html/flame-svg.js, embedded by assets.S) zooms into a box on
 * click, searches names by a regular expression and fits the labels by
 * measuring their text.
 *
 * A differential graph is drawn from the NEW profile's stacks (widths:
 * its samples), as Gregg's differential flame graphs are; the two trees
 * are merged by the path of function names from the root, so that two
 * builds' frames match.  Each frame's own (self) samples in the base and
 * in the new profile are compared by pct diff's test (diff.h) and only
 * frames found slower or faster are coloured.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "modfile.h"
#include "callstack.h"
#include "commands.h"
#include "diff.h"
#include "flametree.h"
#include "escape.h"
#include "html_assets.h"
#include "outfile.h"
#include "pset.h"
#include "stats.h"
#include "symtab.h"
#include "util.h"

static const char usage[] =
	"usage: pct flame [-o OUT.svg] [--title=TEXT] [--width=PIXELS] FILE\n"
	"       pct flame [OPTIONS] [--normalize] [--alpha=A] [--min-effect=POINTS] BASE NEW\n"
	"       pct flame [OPTIONS] --sum FILE...\n"
	"\n"
	"Write a flame graph of the call stacks in the pct profile FILE (recorded\n"
	"with `pct record -g`) as a self-contained SVG, to OUT.svg or standard\n"
	"output.  Open it in a browser: hover a box for its samples, click to\n"
	"zoom, 'Reset zoom' to zoom out, 'Search' (or Ctrl-F) to highlight the\n"
	"functions matching a regular expression and see their share.\n"
	"\n"
	"Two files, BASE NEW, give a differential flame graph: the boxes are NEW's\n"
	"stacks, and each frame's own samples are compared between BASE and NEW\n"
	"by `pct diff`'s exact test, Holm-adjusted over the frames; only\n"
	"frames that are significantly slower (red) or faster (blue) by at least\n"
	"the minimum effect are coloured, the others are grey.  Three or more\n"
	"files, or any number with --sum, are summed into one graph.\n"
	"\n"
	"  -o, --output=OUT  write to OUT: a regular file is replaced whole (a\n"
	"                    temporary beside it, renamed), a device or FIFO is\n"
	"                    written in place; see pct-flame(1) for symlinks;\n"
	"                    - is standard output (the default), refused on a\n"
	"                    terminal\n"
	"  --title=TEXT      the heading (default: the command line)\n"
	"  --width=PIXELS    image width (default 1200)\n"
	"  --sum             sum the files into one graph, even two of them\n"
	"  --normalize       diff: compare each frame's share of its profile, not\n"
	"                    its time\n"
	"  --alpha=A         diff: colour frames whose q is below A (default 0.05)\n"
	"  --min-effect=POINTS  diff: the smallest change that is coloured, in\n"
	"                    percentage points of the base (default 0.5)\n"
	PSET_SELECT_USAGE
	MODFILE_USAGE
	"  -h, --help        show this help\n"
	"\n"
	"See pct-flame(1).\n";

#define FRAME_H 16                     /* pixels per stack level */
#define LINE_H 16                      /* pixels per line of text */
#define PAD 10
/* The labels the SVG holds before its script fits them by measuring (and
 * keeps when scripts are off): cut at this many pixels per character, a
 * little wider than a 12px monospace font's 7.2, so that they stay inside
 * their boxes. */
#define CHAR_W_GUESS 7.5
#define GONE_LISTED 10                 /* diff: frames only in the base, listed under the graph */

struct node {
	const char *name;
	uint64_t samples, self;        /* the drawn profile (NEW in a diff): total and own samples */
	uint64_t base, base_self;      /* diff: the base profile's */
	size_t child, next;            /* first child, next sibling: index + 1, 0 for none */
	size_t parent;
	struct diff_row *row;          /* diff: its test, or NULL (no own samples on either side) */
};

struct tree {
	struct node *v;
	size_t n;
	size_t depth;                  /* deepest level with samples drawn */
};

/* The drawn tree from the merged one (flametree.h): the drawn side d's
 * samples (NEW in a diff), the base's beside them, children linked in the
 * order they were made. */
static void tree_from(struct tree *t, const struct flametree *ft, int d)
{
	t->n = ft->nnodes;
	t->v = xcalloc(t->n ? t->n : 1, sizeof *t->v);
	size_t *depth = xcalloc(t->n ? t->n : 1, sizeof *depth);
	for (size_t i = 0; i < t->n; i++) {
		const struct ft_node *f = &ft->nodes[i];
		t->v[i] = (struct node){ .name = flametree_name(ft, i), .samples = f->total[d], .self = f->self[d],
					 .base = f->total[0], .base_self = f->self[0],
					 .parent = f->parent < 0 ? 0 : (size_t)f->parent };
		if (i > 0) {
			depth[i] = depth[f->parent] + 1;
			if (f->total[d] > 0 && depth[i] > t->depth)
				t->depth = depth[i];
		}
	}
	for (size_t i = t->n; i-- > 1;) {  /* prepend, last first: made order */
		struct node *p = &t->v[t->v[i].parent];
		t->v[i].next = p->child;
		p->child = i + 1;
	}
	free(depth);
}

/* flamegraph.pl's "hot" palette, hashed from the name so that a function
 * keeps its colour between graphs. */
static void colour(const char *name, int *r, int *g, int *b)
{
	uint32_t h = 2166136261u;
	for (const char *c = name; *c; c++)
		h = (h ^ (unsigned char)*c) * 16777619u;
	*r = 205 + (int)(h % 50);
	*g = (int)((h >> 8) % 230);
	*b = (int)((h >> 16) % 55);
}

/* A differential frame's colour: red (slower) or blue (faster), deeper as
 * |delta| nears the largest |delta| of a coloured frame (max); grey for
 * every other verdict, whatever its delta. */
static void diff_colour(const struct node *n, double max, int *r, int *g, int *b)
{
	enum diff_verdict v = n->row ? n->row->verdict : DIFF_UNCHANGED;
	if (v != DIFF_SLOWER && v != DIFF_FASTER) {
		*r = *g = *b = 212;
		return;
	}
	double k = max > 0 ? fabs(n->row->delta) / max : 1;
	int pale = (int)lround(200 - 150 * (k < 1 ? k : 1)); /* 200 faint .. 50 deep */
	*r = v == DIFF_SLOWER ? 255 : pale;
	*g = pale;
	*b = v == DIFF_FASTER ? 255 : pale;
}

struct draw {
	FILE *out;
	const struct tree *t;
	double scale;                  /* pixels per sample */
	double bottom;                 /* y of the root level's top: level 1 is drawn above it */
	double max_delta;              /* diff: the largest |delta| of a coloured frame */
	int diff;
	size_t drawn;
};

/* The <title> of a frame: "NAME (N samples, P%)", and in a diff its own
 * samples, their change and the verdict. */
static void frame_title(const struct draw *d, const struct node *n)
{
	FILE *out = d->out;
	esc_xml(n->name, SIZE_MAX, out);
	fprintf(out, " (%llu samples, %.2f%%", (unsigned long long)n->samples,
		100.0 * (double)n->samples / (double)d->t->v[0].samples);
	if (d->diff) {
		const struct diff_row *r = n->row;
		fprintf(out, "; self: base %llu, new %llu", (unsigned long long)n->base_self,
			(unsigned long long)n->self);
		if (r == NULL)
			fputs("; no own samples: unchanged", out);
		else if (r->unresolved)
			fprintf(out, "; delta %+.2f points [%+.2f, %+.2f]; no name, not tested: unresolved", r->delta,
				r->lo, r->hi);
		else
			fprintf(out, "; delta %+.2f points [%+.2f, %+.2f]; q %.2g: %s", r->delta, r->lo, r->hi, r->q,
				diff_verdict_name(r->verdict));
	}
	fputc(')', out);
}

static void draw(struct draw *d, size_t at, uint64_t x, size_t level)
{
	const struct node *n = &d->t->v[at];
	double w = (double)n->samples * d->scale;
	if (w < 0.1)
		return;
	if (level > 0) {
		double px = PAD + (double)x * d->scale, py = d->bottom - (double)level * FRAME_H;
		int r, g, b;
		if (d->diff)
			diff_colour(n, d->max_delta, &r, &g, &b);
		else
			colour(n->name, &r, &g, &b);
		fputs("<g class=\"f\" data-function=\"", d->out);
		esc_xml(n->name, SIZE_MAX, d->out);
		fprintf(d->out, "\" data-samples=\"%llu\"", (unsigned long long)n->samples);
		if (d->diff)
			fprintf(d->out, " data-verdict=\"%s\" data-base=\"%llu\" data-new=\"%llu\" data-delta=\"%.4f\"",
				diff_verdict_name(n->row ? n->row->verdict : DIFF_UNCHANGED),
				(unsigned long long)n->base_self, (unsigned long long)n->self,
				n->row ? n->row->delta : 0.0);
		fprintf(d->out, " data-x=\"%llu\" data-w=\"%llu\" data-l=\"%zu\"><title>", (unsigned long long)x,
			(unsigned long long)n->samples, level);
		frame_title(d, n);
		fprintf(d->out, "</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"rgb(%d,%d,%d)\" rx=\"2\"/>",
			px, py, w, FRAME_H - 1, r, g, b);
		size_t fit = w > 2 * CHAR_W_GUESS ? (size_t)((w - 6) / CHAR_W_GUESS) : 0;
		fprintf(d->out, "<text x=\"%.1f\" y=\"%.1f\">", px + 3, py + FRAME_H - 4.5);
		/* names print escaped (escape.h): they are as wide as that */
		if (fit >= esc_len(n->name)) {
			esc_xml(n->name, SIZE_MAX, d->out);
		} else if (fit > 2) {
			esc_xml(n->name, fit - 2, d->out);
			fputs("..", d->out);
		}
		fputs("</text></g>\n", d->out);
		d->drawn++;
	}
	uint64_t cx = x;
	for (size_t c = n->child; c; c = d->t->v[c - 1].next) {
		draw(d, c - 1, cx, level + 1);
		cx += d->t->v[c - 1].samples;
	}
}

/* Write the script (flame-svg.js) as one CDATA section; a "]]>" in it, which
 * would end the section, is split across two. */
static void write_script(FILE *out)
{
	const char *s = pct_asset_flame_svg_js, *e;
	fputs("<script type=\"text/ecmascript\"><![CDATA[\n", out);
	while ((e = strstr(s, "]]>")) != NULL) {
		fwrite(s, 1, (size_t)(e - s) + 2, out);
		fputs("]]><![CDATA[", out);
		s = e + 2;
	}
	fputs(s, out);
	fputs("\n]]></script>\n", out);
}

/* One side's files, as a set with stacks. */
static void side_load(struct pset *s, char *const *files, size_t n, const char *what)
{
	cmd_load(s, files, n, what);
	if (!callstack_present(s))
		die("flame: %s%s has no call stacks (record with `pct record -g`)", what, files[0]);
}

/* The frames only in the base (no samples in NEW, own samples in the
 * base), most base samples first, for the note under the graph. */
static int by_base_self(const void *a, const void *b)
{
	const struct node *x = *(const struct node *const *)a, *y = *(const struct node *const *)b;
	return x->base_self < y->base_self ? 1 : x->base_self > y->base_self ? -1 : 0;
}

int cmd_flame(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "title", required_argument, NULL, 't' },
		{ "width", required_argument, NULL, 'w' },
		{ "sum", no_argument, NULL, 's' },
		{ "normalize", no_argument, NULL, 'N' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "min-effect", required_argument, NULL, 'm' },
		MODFILE_LONG_OPTIONS,
		PSET_SELECT_LONG_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *outname = NULL, *title = NULL;
	unsigned long width = 1200;
	struct diff_setup ds = { .alpha = 0.05, .min_effect = DIFF_MIN_EFFECT };
	int sum = 0, diff_opts = 0;
	char *end;
	int c;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			outname = optarg;
			break;
		case 't':
			title = optarg;
			break;
		case 'w':
			width = strtoul(optarg, &end, 10);
			if (*end || width < 100 || width > 100000)
				die_usage("flame: --width wants 100 to 100000 pixels, not '%s'", optarg);
			break;
		case 's':
			sum = 1;
			break;
		case 'N':
			ds.share = 1;
			diff_opts = 1;
			break;
		case 'a':
			ds.alpha = cmd_alpha("flame", optarg);
			diff_opts = 1;
			break;
		case 'm':
			ds.min_effect = cmd_min_effect("flame", optarg);
			diff_opts = 1;
			break;
		default:
			if (modfile_option(c, optarg) || pset_select_option(c, optarg))
				break;
			return usage_exit(usage, c == 'h');
		}
	}
	if (optind >= argc)
		return usage_short(usage);
	cmd_output_tty("flame", outname, "SVG");
	if (outname && strcmp(outname, "-") == 0)
		outname = NULL; /* -o -: standard output */
	size_t nfiles = (size_t)(argc - optind);
	int diff = nfiles == 2 && !sum;
	if (diff_opts && !diff)
		die_usage("flame: --normalize, --alpha and --min-effect are for a diff (BASE NEW, without --sum)");

	/* base and new in a diff, else the one set; the tree drawn from the
	 * new side's samples (side 1), or the set's (0) */
	struct pset sets[2];
	char err[512];
	if (diff) {
		side_load(&sets[0], argv + optind, 1, "base: ");
		side_load(&sets[1], argv + optind + 1, 1, "new: ");
	} else {
		side_load(&sets[0], argv + optind, nfiles, "");
	}
	struct flametree ft;
	flametree_build(&ft, &sets[0], diff ? &sets[1] : NULL, 0, FLAMETREE_PRUNE_PERCENT);
	const struct cs_graph *g = &ft.g[diff], *gb = &ft.g[0];
	struct tree t = { 0 };
	tree_from(&t, &ft, diff);

	/* diff: one test per frame with own samples on either side (a frame
	 * with none has nothing that changed: unchanged, untested) */
	struct diff_row *rows = NULL;
	size_t nrows = 0, untested = 0;
	double max_delta = 0;
	struct node **gone = NULL;
	size_t ngone = 0, capgone = 0;
	uint64_t gone_base = 0;
	if (diff) {
		if (t.v[0].base == 0 || t.v[0].samples == 0)
			die("flame: the %s profile has no samples with stacks", t.v[0].base == 0 ? "base" : "new");
		rows = xcalloc(t.n, sizeof *rows);
		flametree_diff_setup(&ft, &ds);
		if (!ds.share && (ds.base_period == 0 || ds.new_period == 0))
			die("flame: a side has no CPU time recorded; use --normalize to compare shares");
		flametree_diff(&ft, &ds, rows);
		for (size_t i = 1; i < t.n; i++) {
			struct node *n = &t.v[i];
			if (n->self + n->base_self > 0) {
				n->row = &rows[i];
				nrows++;
				untested += (size_t)n->row->unresolved;
				if ((n->row->verdict == DIFF_SLOWER || n->row->verdict == DIFF_FASTER) &&
				    fabs(n->row->delta) > max_delta)
					max_delta = fabs(n->row->delta);
			}
			if (n->samples == 0 && n->base_self > 0) {
				grow(&gone, &capgone, ngone + 1, sizeof *gone);
				gone[ngone++] = n;
				gone_base += n->base_self;
			}
		}
		if (ngone)
			qsort(gone, ngone, sizeof *gone, by_base_self);
	}

	struct outfile o = { .fp = stdout };
	if (outname && outfile_open(&o, outname, err, sizeof err) != 0)
		die("flame: %s", err);
	FILE *out = o.fp;
	double plot = (double)width - 2 * PAD;
	size_t info = diff ? 4 : 1;                         /* lines under the heading */
	size_t listed = ngone < GONE_LISTED ? ngone : GONE_LISTED;
	size_t notes = diff && ngone ? 1 + listed : 0;      /* lines under the graph */
	double top = 24 + LINE_H * (double)info + 6;
	double bottom = top + (double)(t.depth + 1) * FRAME_H;
	double height = bottom + (double)notes * LINE_H + LINE_H + PAD;
	struct draw d = { out, &t, t.v[0].samples ? plot / (double)t.v[0].samples : 0, bottom, max_delta, diff, 0 };
	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		     "<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%lu\" height=\"%.0f\" "
		     "viewBox=\"0 0 %lu %.0f\" data-total=\"%llu\" data-plot-width=\"%.0f\" data-pad=\"%d\"",
		width, height, width, height, (unsigned long long)t.v[0].samples, plot, PAD);
	if (diff)
		fprintf(out, " data-mode=\"diff\" data-base-total=\"%llu\"", (unsigned long long)t.v[0].base);
	fputs(">\n", out);
	fprintf(out, "<style>text { font: 12px monospace; fill: #000; pointer-events: none; } "
		     "g.f { cursor: pointer; } g.f:hover rect { stroke: #000; stroke-width: 0.5; } "
		     "text.ctl { pointer-events: auto; cursor: pointer; fill: #1a4fb5; } "
		     "text.ctl:hover { text-decoration: underline; }</style>\n");
	fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"%s\"/>\n", diff ? "#f6f6f6" : "#fdf8ef");
	fprintf(out, "<text x=\"%.0f\" y=\"24\" style=\"font-size: 16px\" text-anchor=\"middle\">", (double)width / 2);
	if (title)
		esc_xml(title, 200, out);
	else if (diff) {
		fputs("differential flame graph: ", out);
		esc_xml(argv[optind], 90, out);
		fputs(" against ", out);
		esc_xml(argv[optind + 1], 90, out);
	} else
		esc_xml(sets[0].nprofiles == 1 ? sets[0].profiles[0].cmdline : "pct flame graph", 200, out);
	fputs("</text>\n", out);
	/* the controls (the script makes them work) */
	fprintf(out, "<text id=\"pct-reset\" class=\"ctl\" x=\"%d\" y=\"24\">Reset zoom</text>\n", PAD);
	fprintf(out, "<text id=\"pct-search\" class=\"ctl\" x=\"%lu\" y=\"24\" text-anchor=\"end\">Search</text>\n",
		width - PAD);
	fprintf(out, "<text id=\"pct-matched\" x=\"%lu\" y=\"%.0f\" text-anchor=\"end\"></text>\n", width - PAD,
		height - PAD);
	double y = 24 + LINE_H;
	if (!diff) {
		fprintf(out, "<text x=\"%d\" y=\"%.0f\">%llu samples with stacks, %llu (%.2f%%) not unwound to "
			     "their root; width: share of samples; click to zoom</text>\n", PAD, y,
			(unsigned long long)t.v[0].samples, (unsigned long long)g->unrooted,
			g->samples ? 100.0 * (double)g->unrooted / (double)g->samples : 0.0);
	} else {
		fprintf(out, "<text x=\"%d\" y=\"%.0f\">width: the new profile's samples, %llu with stacks (%llu, "
			     "%.2f%%, not unwound to their root); base: %llu (%llu, %.2f%%); click to zoom</text>\n",
			PAD, y, (unsigned long long)t.v[0].samples, (unsigned long long)g->unrooted,
			g->samples ? 100.0 * (double)g->unrooted / (double)g->samples : 0.0,
			(unsigned long long)t.v[0].base, (unsigned long long)gb->unrooted,
			gb->samples ? 100.0 * (double)gb->unrooted / (double)gb->samples : 0.0);
		y += LINE_H;
		fprintf(out, "<text x=\"%d\" y=\"%.0f\">test: each frame's own samples, base against new: "
			     "%s</text>\n", PAD, y, diff_test_name(&ds));
		y += LINE_H;
		fprintf(out, "<text x=\"%d\" y=\"%.0f\">adjustment: Holm over %zu frames with own samples (%zu "
			     "without a name not tested); alpha %g; min effect %g points %s</text>\n",
			PAD, y, nrows - untested, untested, ds.alpha, ds.min_effect,
			ds.share ? "of share" : "of the base's total time");
		y += LINE_H;
		fprintf(out, "<text x=\"%d\" y=\"%.0f\">colour: <tspan style=\"fill: #c00\">red slower</tspan>, "
			     "<tspan style=\"fill: #00c\">blue faster</tspan> (q &lt; alpha and |delta| &gt;= min "
			     "effect; deeper: larger |delta|); grey: unchanged, or can't tell</text>\n", PAD, y);
	}
	draw(&d, 0, 0, 0);
	if (notes) {
		y = bottom + 12;
		fprintf(out, "<text x=\"%d\" y=\"%.0f\">%zu frame%s only in the base, not drawn (%llu of its "
			     "samples, %.2f%%)%s:</text>\n", PAD, y, ngone, ngone == 1 ? "" : "s",
			(unsigned long long)gone_base, 100.0 * (double)gone_base / (double)t.v[0].base,
			ngone > listed ? ", the largest" : "");
		for (size_t i = 0; i < listed; i++) {
			const struct node *n = gone[i];
			y += LINE_H;
			fputs("<text class=\"gone\" data-function=\"", out);
			esc_xml(n->name, SIZE_MAX, out);
			fprintf(out, "\" data-samples=\"0\" data-verdict=\"%s\" data-base=\"%llu\" x=\"%d\" y=\"%.0f\">",
				diff_verdict_name(n->row->verdict), (unsigned long long)n->base_self, PAD + 12, y);
			esc_xml(n->name, 80, out);
			if (n->parent) {
				fputs(" (called by ", out);
				esc_xml(t.v[n->parent].name, 60, out);
				fputc(')', out);
			}
			fprintf(out, ": base %llu own samples, %+.2f points: %s</text>\n",
				(unsigned long long)n->base_self, n->row->delta, diff_verdict_name(n->row->verdict));
		}
	}
	write_script(out);
	fputs("</svg>\n", out);
	if (outname && outfile_commit(&o, err, sizeof err) != 0)
		die("flame: %s", err);
	/* the note after the graph; none when the graph was lost (the
	 * dispatcher says so) */
	if (outname || stdout_error() == 0) {
		if (diff && gb->unrooted)
			callstack_print_unrooted(gb, "pct: flame: base: ", stderr);
		if (g->unrooted)
			callstack_print_unrooted(g, diff ? "pct: flame: new: " : "pct: flame: ", stderr);
	}
	free(gone);
	free(rows);
	free(t.v);
	flametree_free(&ft);
	pset_free(&sets[0]);
	if (diff)
		pset_free(&sets[1]);
	symtab_free_all();
	return 0;
}
