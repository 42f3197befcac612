/*
 * calltree.h - the whole call tree of -g stacks (`pct report --tree`):
 * top-down (callers to callees, as perf report -G and hotspot's top-down
 * view) or bottom-up (from each sampled function to its callers, as perf
 * report's callee graph and hotspot's bottom-up view).  Built from the
 * stack model every -g view uses (callstack.h: the graph's paths, inline
 * frames included); a node is a function (its flat-report group: module
 * and name) under its parent node.
 */
#ifndef PCT_CALLTREE_H
#define PCT_CALLTREE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "callstack.h"
#include "pset.h"

struct ct_node {
	uint32_t func;                 /* a function of the graph (cs_graph.funcs) */
	uint32_t parent;               /* node index + 1; 0: a root */
	uint32_t depth;                /* 0 for a root */
	uint64_t total;                /* samples whose path passes through this node */
	uint64_t self;                 /* top-down: those whose stack ends here (the node's
					  function sampled); bottom-up: a root's, its function's
					  self samples; 0 below the roots */
};

struct calltree {
	struct ct_node *nodes;
	size_t n, cap;
	int bottom_up;
	uint64_t samples;              /* samples of all stacks (the percentages' base) */
};

/* Build t from g's paths: top-down (bottom_up 0) walks each path root
 * first, bottom-up from its leaf.  Memory: a node per distinct prefix
 * (suffix) of the paths, so at most the paths' frames.  No errors. */
void calltree_build(const struct cs_graph *g, int bottom_up, struct calltree *t);
void calltree_free(struct calltree *t);

struct calltree_opts {
	int tsv;                       /* 1: TSV (node, parent, depth, total, total_percent,
					  total_ci_low, total_ci_high, self, self_percent,
					  self_ci_low, self_ci_high, module, function); 0: text */
	uint32_t max_depth;            /* print nodes of depth below this; UINT32_MAX: all */
	uint64_t min_samples;          /* hide nodes (and what is under them) of fewer total */
	double percent_limit;          /* hide nodes under this percent of the samples, total */
	int full_names;                /* text: function names in full, else name_short() */
};

/*
 * Print t to out, depth first, each node's children by total (descending,
 * then by name): total and self, in samples and percent of t->samples, with
 * the 95% Wilson interval of each share (stats.h).  Text indents a node
 * two columns per depth and names its module after it; a first comment
 * line says which tree and of how many samples.  No errors (write errors
 * are the stream's).
 */
void calltree_print(const struct calltree *t, const struct cs_graph *g, const struct pset *s,
		    const struct calltree_opts *o, FILE *out);

#endif
