/*
 * cmd_flame.c - `pct flame`: a flame graph of -g call stacks, as one
 * self-contained SVG file (no external scripts, fonts or styles).
 *
 * The stacks are folded (callstack.h) and merged into a tree: each frame is
 * a box as wide as the samples whose stack passes through it, callers
 * below their callees (Brendan Gregg's flame graph layout; the colours are
 * a hash of the name on a warm palette, as flamegraph.pl's default).  Each
 * box has a <title> with its name, samples and share, which browsers show
 * on hover; a small inline script zooms into a box on click and back out
 * on a click on the background.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "modfile.h"
#include "callstack.h"
#include "commands.h"
#include "escape.h"
#include "outfile.h"
#include "pset.h"
#include "symtab.h"
#include "util.h"

static const char usage[] =
	"usage: pct flame [-o OUT.svg] [--title=TEXT] [--width=PIXELS] FILE...\n"
	"\n"
	"Write a flame graph of the call stacks in the pct profiles FILE...\n"
	"(recorded with `pct record -g`) as a self-contained SVG, to OUT.svg or\n"
	"standard output.  Open it in a browser: hover a box for its samples,\n"
	"click to zoom.\n"
	"\n"
	"  -o, --output=OUT  write to OUT: a regular file is replaced whole (a\n"
	"                    temporary beside it, renamed), a device or FIFO is\n"
	"                    written in place; see pct-flame(1) for symlinks\n"
	"  --title=TEXT      the heading (default: the command line)\n"
	"  --width=PIXELS    image width (default 1200)\n"
	PSET_TIME_USAGE
	MODFILE_USAGE
	"  -h, --help        show this help\n"
	"\n"
	"See pct-flame(1).\n";

#define FRAME_H 16                     /* pixels per stack level */
#define PAD 10
#define TOP 40                         /* heading */
#define CHAR_W 7.0                     /* pixels per character of the 12px monospace label */

struct node {
	const char *name;
	uint32_t func;                 /* cs_graph function */
	uint64_t samples;              /* total: samples through this frame */
	size_t child, next;            /* first child, next sibling: index + 1, 0 for none */
};

struct tree {
	struct node *v;
	size_t n, cap;
	size_t depth;
};

/* The child of parent for function func of g, added on first sight:
 * frames are told apart by their function, never by a (cut) name. */
static size_t child_of(struct tree *t, size_t parent, const struct cs_graph *g, uint32_t func)
{
	for (size_t c = t->v[parent].child; c; c = t->v[c - 1].next)
		if (t->v[c - 1].func == func)
			return c - 1;
	grow(&t->v, &t->cap, t->n + 1, sizeof *t->v);
	t->v[t->n] = (struct node){ g->funcs[func].name, func, 0, 0, t->v[parent].child };
	t->v[parent].child = t->n + 1;
	return t->n++;
}

static void tree_add(struct tree *t, const struct cs_graph *g, const struct cs_path *p)
{
	size_t at = 0;
	t->v[0].samples += p->samples;
	for (size_t k = 0; k < p->n; k++) {
		at = child_of(t, at, g, p->funcs[k]);
		t->v[at].samples += p->samples;
	}
	if (p->n > t->depth)
		t->depth = p->n;
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

struct draw {
	FILE *out;
	const struct tree *t;
	double scale;                  /* pixels per sample */
	double height;
	size_t drawn;
};

static void draw(struct draw *d, size_t at, uint64_t x, size_t level)
{
	const struct node *n = &d->t->v[at];
	double w = (double)n->samples * d->scale;
	if (w < 0.1)
		return;
	if (level > 0) {
		double px = PAD + (double)x * d->scale, py = d->height - PAD - (double)level * FRAME_H;
		int r, g, b;
		colour(n->name, &r, &g, &b);
		fprintf(d->out, "<g class=\"f\" data-x=\"%llu\" data-w=\"%llu\" data-l=\"%zu\"><title>",
			(unsigned long long)x, (unsigned long long)n->samples, level);
		esc_xml(n->name, SIZE_MAX, d->out);
		fprintf(d->out, " (%llu samples, %.2f%%)</title>", (unsigned long long)n->samples,
			100.0 * (double)n->samples / (double)d->t->v[0].samples);
		fprintf(d->out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"rgb(%d,%d,%d)\" rx=\"2\"/>",
			px, py, w, FRAME_H - 1, r, g, b);
		size_t fit = w > 2 * CHAR_W ? (size_t)((w - 6) / CHAR_W) : 0;
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

/* Click a box: it and its callees fill the width, its callers stay as
 * they were but dimmed; click the background: back to everything.  Also
 * counts the boxes the browser laid out, in data-rendered on the root, for
 * tests. */
static const char script[] =
	"<script type=\"text/ecmascript\"><![CDATA[\n"
	"(function () {\n"
	"  var svg = document.documentElement, fs = document.querySelectorAll('g.f');\n"
	"  var W = +svg.getAttribute('data-plot-width'), total = +svg.getAttribute('data-total'), pad = 10;\n"
	"  function zoom(x0, w0, l0) {\n"
	"    for (var i = 0; i < fs.length; i++) {\n"
	"      var g = fs[i], x = +g.dataset.x, w = +g.dataset.w, l = +g.dataset.l;\n"
	"      var r = g.querySelector('rect'), t = g.querySelector('text');\n"
	"      var inside = x >= x0 && x + w <= x0 + w0 && l >= l0, below = l < l0 && x <= x0 && x + w >= x0 + w0;\n"
	"      g.style.display = inside || below ? '' : 'none';\n"
	"      g.style.opacity = below ? 0.5 : 1;\n"
	"      var px = inside ? pad + (x - x0) * W / w0 : pad, pw = inside ? w * W / w0 : W;\n"
	"      r.setAttribute('x', px.toFixed(1)); r.setAttribute('width', pw.toFixed(1));\n"
	"      t.setAttribute('x', (px + 3).toFixed(1));\n"
	"      var name = g.querySelector('title').textContent.replace(/ \\(\\d+ samples.*$/, '');\n"
	"      var fit = Math.floor((pw - 6) / 7);\n"
	"      t.textContent = fit >= name.length ? name : fit > 2 ? name.slice(0, fit - 2) + '..' : '';\n"
	"    }\n"
	"  }\n"
	"  for (var i = 0; i < fs.length; i++)\n"
	"    fs[i].addEventListener('click', function (e) {\n"
	"      e.stopPropagation(); zoom(+this.dataset.x, +this.dataset.w, +this.dataset.l);\n"
	"    });\n"
	"  svg.addEventListener('click', function () { zoom(0, total, 0); });\n"
	"  var shown = 0;\n"
	"  for (var i = 0; i < fs.length; i++) if (fs[i].querySelector('rect').getBBox().width > 0) shown++;\n"
	"  svg.setAttribute('data-rendered', shown);\n"
	"})();\n"
	"]]></script>\n";

int cmd_flame(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "title", required_argument, NULL, 't' },
		{ "width", required_argument, NULL, 'w' },
		MODFILE_LONG_OPTIONS,
		PSET_TIME_LONG_OPTION,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *outname = NULL, *title = NULL;
	unsigned long width = 1200;
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
		default:
			if (modfile_option(c, optarg) || pset_time_option(c, optarg))
				break;
			return usage_exit(usage, c == 'h');
		}
	}
	if (optind >= argc)
		return usage_exit(usage, 0);
	struct pset s;
	char err[512];
	cmd_load(&s, argv + optind, (size_t)(argc - optind), "");
	if (!callstack_present(&s))
		die("flame: %s has no call stacks (record with `pct record -g`)", argv[optind]);
	struct cs_graph g;
	callstack_graph(&s, &g);
	struct tree t = { 0 };
	grow(&t.v, &t.cap, 1, sizeof *t.v);
	t.v[t.n++] = (struct node){ "all", 0, 0, 0, 0 };
	for (size_t i = 0; i < g.npaths; i++)
		tree_add(&t, &g, &g.paths[i]);

	struct outfile o = { .fp = stdout };
	if (outname && outfile_open(&o, outname, err, sizeof err) != 0)
		die("flame: %s", err);
	FILE *out = o.fp;
	double plot = (double)width - 2 * PAD;
	struct draw d = { out, &t, t.v[0].samples ? plot / (double)t.v[0].samples : 0,
			  (double)(TOP + PAD + (t.depth + 1) * FRAME_H), 0 };
	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		     "<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%lu\" height=\"%.0f\" "
		     "viewBox=\"0 0 %lu %.0f\" data-total=\"%llu\" data-plot-width=\"%.0f\">\n",
		width, d.height, width, d.height, (unsigned long long)t.v[0].samples, plot);
	fprintf(out, "<style>text { font: 12px monospace; fill: #000; pointer-events: none; } "
		     "g.f { cursor: pointer; } g.f:hover rect { stroke: #000; stroke-width: 0.5; }</style>\n");
	fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"#fdf8ef\"/>\n");
	fprintf(out, "<text x=\"%.0f\" y=\"24\" style=\"font-size: 16px\" text-anchor=\"middle\">", (double)width / 2);
	esc_xml(title ? title : s.nprofiles == 1 ? s.profiles[0].cmdline : "pct flame graph", 200, out);
	fprintf(out, "</text>\n<text x=\"%d\" y=\"%d\">%llu samples with stacks, %llu (%.2f%%) not unwound to "
		     "their root; width: share of samples; click to zoom</text>\n", PAD, TOP - 4,
		(unsigned long long)t.v[0].samples, (unsigned long long)g.unrooted,
		g.samples ? 100.0 * (double)g.unrooted / (double)g.samples : 0.0);
	draw(&d, 0, 0, 0);
	fputs(script, out);
	fputs("</svg>\n", out);
	if (outname && outfile_commit(&o, err, sizeof err) != 0)
		die("flame: %s", err);
	/* the note after the graph; none when the graph was lost (the
	 * dispatcher says so) */
	if (g.unrooted && (outname || stdout_error() == 0))
		callstack_print_unrooted(&g, "pct: flame: ", stderr);
	free(t.v);
	callstack_graph_free(&g);
	pset_free(&s);
	symtab_free_all();
	return 0;
}
