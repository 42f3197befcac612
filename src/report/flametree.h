/*
 * flametree.h - the call stacks of one profile set, or of two (a diff),
 * merged into one tree, as flame graphs draw them: a node is a path of
 * functions from the root, with the samples whose stack ends there (self)
 * and that pass through it (total), on each side.  `pct html` and
 * `pct flame` draw the same tree, so the two agree.
 */
#ifndef PCT_FLAMETREE_H
#define PCT_FLAMETREE_H
#include <stddef.h>
#include <stdint.h>
#include "aggregate.h"
#include "callstack.h"
#include "diff.h"
#include "pset.h"

struct ft_node {
	int32_t parent;                /* -1 for the root ("all") */
	int32_t func;                  /* in funcs (fkeys' rows); -1 for the root */
	uint64_t self[2], total[2];    /* samples: [0] the base (or only) side, [1] the new */
	int32_t out;                   /* free for the drawer's use */
};

struct flametree {
	const struct pset *s[2];
	int diff;                      /* 1: two sides */
	struct cs_graph g[2];          /* each side's stacks (callstack_graph_ex) */
	struct agg fkeys;              /* functions: (module path, name); in a diff ("", name),
					  matched by name as pct diff matches them */
	const char **fmods;            /* [func] its module's path (the first seen) */
	unsigned char *funnamed;       /* [func] 1: no symbol names it (cs_func.unnamed) */
	const struct cs_func **fdef;   /* [func] the graph's function first seen for it */
	unsigned char *fside;          /* [func] the side of that graph */
	struct ft_node *nodes;         /* parents before their children; node 0 the root */
	size_t nnodes, capnodes;
	uint32_t *path_node[2];        /* [side][path of g[side]] -> its leaf node */
};

/*
 * Unwind the stacks of base (and of new, if not NULL: a diff) with
 * callstack_graph_ex(flags) and merge them into *t (free it with
 * flametree_free).  Never fails; a set without stacks gives the root
 * alone.
 */
void flametree_build(struct flametree *t, const struct pset *base, const struct pset *new, unsigned flags);
void flametree_free(struct flametree *t);

/* The name of node v's function ("all" for the root), as callstack.h
 * names it (not escaped). */
const char *flametree_name(const struct flametree *t, size_t v);

/*
 * The totals and periods of a diff of t's stack samples in ds (the rest of
 * ds is the caller's): each side's samples with stacks, and the period of
 * one, the set's CPU time over the samples taken (stats_period, as pct
 * diff) scaled to the share of them that have stacks.  A period is 0 if a
 * side has no CPU time recorded.
 */
void flametree_diff_setup(const struct flametree *t, struct diff_setup *ds);

/*
 * The diff of every node's self samples, pct diff's test (diff.h) with
 * setup ds: rows[v] for node v (n = t->nnodes, keys unset).  Nodes
 * without samples on either side are unchanged and not counted in Holm's
 * adjustment; unnamed ones ("[unknown]", "MODULE+0xADDR": funnamed) are
 * unresolved.
 */
void flametree_diff(const struct flametree *t, const struct diff_setup *ds, struct diff_row *rows);

#endif
