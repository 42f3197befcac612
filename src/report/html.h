/*
 * html.h - `pct html`: one self-contained HTML report of profiles, or of
 * the difference between two (BASE NEW), for a browser from file://.
 *
 * The page is the embedded browser code (src/html/report.js, report.css;
 * html_assets.h) and the profile's data as one JSON object in
 * <script id="pct-data" type="application/json">, in which '<', '>' and
 * '&' are written \u003c, \u003e, \u0026 so that no text of a profile can
 * end the element.  Every name is escaped as pct report prints it
 * (escape.h): the page shows it as text, never as markup.
 *
 * The data (all counts are samples; times are ms since the set's start;
 * "rows" are the flat tables' rows, in pct report's order: most samples
 * first):
 *
 * {
 *   "pct": 1,                       layout version
 *   "mode": "profile" | "diff",
 *   "title": TEXT,                  --title, else the command line
 *   "files": [{"path", "cmdline", "pid", "samples", "side": "base"|"new"}],
 *   "summary": {
 *     "samples": N,                 all samples (diff: of the base)
 *     "new_samples": N,             diff only: of the new side
 *     "dimension": "cpu"|"wall"|EVENT, "unit": "CPU seconds"...,
 *     "seconds": S,                 what the samples cover (diff: base)
 *     "new_seconds": S,             diff only
 *     "rate_hz": R, "period_ms": P,
 *     "resolution": PTS,            1.96/sqrt(samples) x 100: two shares that differ
 *                                   by more differ at 95% (stats_resolution_percent)
 *     "stacks": N,                  samples with call stacks (0: no -g)
 *     "unrooted": N,                of those, not unwound to their root
 *     "timed": N,                   samples whose time is in "ticks" (0: none)
 *     "untimed_why": TEXT|null      why the timeline is missing, if it is
 *   },
 *   "diff": null | {                diff only
 *     "test": TEXT, "adjustment": TEXT, "alpha": A, "min_effect": PTS,
 *     "resolution": PTS, "compare": "time"|"share"
 *   },
 *   "tables": {                     the flat profile by dimension
 *     DIM: {                        DIM: function, line, file, module, thread, process
 *       "cols": [NAME...],          key columns, as pct report --by=DIM names them
 *       "keys": [[KEY...]...],      one array of strings per row, cols' order
 *       "samples": [N...],          self samples (diff: of the base)
 *       "new": [N...],              diff only: samples of the new side
 *       "total": [N...],            function table with stacks only: samples whose
 *                                   stack holds the function (total time)
 *       "lo": [P...], "hi": [P...], 95% Wilson interval of the share, percent
 *       "verdict": [V...],          diff only: "slower"|"faster"|"unchanged"|"unresolved"
 *       "delta": [PTS...], "dlo": [PTS...], "dhi": [PTS...], "q": [Q|null...]
 *                                   diff only: change and its 95% interval, points;
 *                                   Holm-adjusted q (null: unnamed row)
 *     }
 *   },
 *   "cells": {                      the samples by every dimension at once, for
 *                                   re-summing a time slice: cell i belongs to row
 *     "samples": [N...],            cells.DIM[i] of tables.DIM
 *     "function": [ROW...], "line": [...], "file": [...], "module": [...],
 *     "thread": [...], "process": [...]
 *   },
 *   "ticks": null | {               profile mode with sample times: one entry per
 *     "t": [MS...],                 time, ms (0.01 ms resolution) since the start
 *     "cell": [CELL...],
 *     "node": [NODE|-1...],         its stack's leaf node in flame (-1: none)
 *     "w": [N...],                  samples it stands for
 *     "span_ms": MS
 *   },
 *   "flame": null | {               with call stacks: the merged tree (flametree.h),
 *                                   root first, a node's parent before it
 *     "funcs": [{"name", "module", "row", "file", "line"}],   row: the function table's
 *                                   row, or -1; file, line: where its symbol starts
 *                                   (absent for inlined frames and unnamed code);
 *                                   a function inlined at a frame's address is a
 *                                   frame of its own above it, "NAME (inline)"
 *                                   (callstack.h, callstack_inlines); in a diff,
 *                                   functions are matched by name, as pct diff's
 *     "parent": [NODE...],          -1 for the root ("all")
 *     "func": [FUNC...],            index in funcs (-1 for the root, and for a
 *                                   "[pruned]" node holding pruned callees)
 *     "self": [N...],               samples whose stack ends here (diff: base)
 *     "new_self": [N...],           diff only
 *     "verdict": [V...],            diff only: of the node's self samples, tested over
 *                                   the whole tree (flametree_diff); "unresolved"
 *                                   for a [pruned] node
 *     "delta": [PTS...],            diff only
 *     "pruned": {"below_pct": P, "nodes": N, "samples": N}
 *   },
 *   "annotate": {                   for the hottest functions (html_opts.annotate)
 *     "limit": {"functions": N, "lines": N, "bytes": N},   the bounds used
 *     ROW: {                        the function table's row, as a string
 *       "file": PATH|null, "samples": N, "hottest": N,
 *       "insns": [[ADDR_HEX, N, TEXT, LINE]...],    LINE 0: none
 *       "lines": [[LINE, N, TEXT|null]...],          the function's lines of
 *                                   "file", first to last, their samples
 *       "why": TEXT|null            no instructions: why
 *     }
 *   }
 * }
 */
#ifndef PCT_HTML_H
#define PCT_HTML_H
#include <stddef.h>
#include <stdio.h>
#include "pset.h"
#include "util.h"

#define HTML_ANNOTATE_FUNCTIONS 50     /* functions annotated, at most */
#define HTML_ANNOTATE_LINES 400        /* source lines embedded per function, at most */
#define HTML_ANNOTATE_BYTES (2u << 20) /* source and instruction text embedded, at most */

struct html_opts {
	const char *title;             /* NULL: the command line */
	int diff;                      /* 1: base is the first side, s2 the new */
	double alpha, min_effect;      /* diff: as struct diff_setup */
	int share;                     /* diff: compare shares (--normalize) */
	size_t annotate;               /* functions to annotate (HTML_ANNOTATE_FUNCTIONS) */
};

/*
 * Write the report of set s (or, with o->diff, of s against s2) to out.
 * Returns 0, or -1 with *e set (a stage's error: status 1).
 */
int html_write(FILE *out, const struct pset *s, const struct pset *s2, const struct html_opts *o, struct error *e);

#endif
