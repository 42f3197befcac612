/*
 * flametree.c - the call stacks of one or two profile sets merged into one
 * tree (flametree.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flametree.h"
#include "stats.h"
#include "util.h"

/* The tree's function of g's function f: by module path and name; in a
 * diff by name alone, as pct diff matches functions (two builds' modules
 * have different paths). */
static int32_t tree_func(struct flametree *h, const struct cs_graph *g, uint32_t f)
{
	const struct cs_func *cf = &g->funcs[f];
	const char *path = cf->module == PSET_NO_MODULE ? "[unknown]" : h->s[g == &h->g[1]]->mods[cf->module].path;
	char *key[2] = { h->diff ? "" : (char *)path, (char *)cf->name };
	long r = agg_find(&h->fkeys, key);
	if (r < 0) {
		r = (long)agg_add(&h->fkeys, key, 0);
		h->fmods = xrealloc(h->fmods, h->fkeys.nrows * sizeof *h->fmods);
		h->funnamed = xrealloc(h->funnamed, h->fkeys.nrows);
		h->fdef = xrealloc(h->fdef, h->fkeys.nrows * sizeof *h->fdef);
		h->fside = xrealloc(h->fside, h->fkeys.nrows);
		h->fmods[r] = path;
		h->funnamed[r] = 0;
		h->fdef[r] = cf;
		h->fside[r] = (unsigned char)(g == &h->g[1]);
	}
	h->funnamed[r] |= (unsigned char)(cf->unnamed != 0);
	return (int32_t)r;
}

/* A stack of either side, its functions numbered as the tree's. */
struct mpath {
	const int32_t *f;
	uint32_t n;
	int side;
	size_t path;                   /* in its side's graph */
};

static int cmp_mpaths(const void *pa, const void *pb)
{
	const struct mpath *a = pa, *b = pb;
	uint32_t n = a->n < b->n ? a->n : b->n;
	for (uint32_t k = 0; k < n; k++)
		if (a->f[k] != b->f[k])
			return a->f[k] < b->f[k] ? -1 : 1;
	return a->n < b->n ? -1 : a->n > b->n;
}

/*
 * Merge both sides' stacks into one tree, root first.  The stacks are
 * sorted by their functions, so a stack shares its prefix with the one
 * before it: its nodes are that one's up to the first function they
 * differ in, and new after it.  No node is searched for (a hash or a list
 * of children per node cost 3x the time over the 800,000 nodes of 90,000
 * distinct deep stacks).
 */
static void build_tree(struct flametree *h)
{
	grow(&h->nodes, &h->capnodes, 1, sizeof *h->nodes);
	h->nodes[h->nnodes++] = (struct ft_node){ .parent = -1, .func = -1 };
	h->fkeys.nkeys = 2;
	size_t np = 0, nf = 0;
	for (int side = 0; side < 1 + h->diff; side++) {
		np += h->g[side].npaths;
		for (size_t i = 0; i < h->g[side].npaths; i++)
			nf += h->g[side].paths[i].n;
	}
	struct mpath *mp = xmalloc((np ? np : 1) * sizeof *mp);
	int32_t *funcs = xmalloc((nf ? nf : 1) * sizeof *funcs), *at = funcs;
	np = 0;
	for (int side = 0; side < 1 + h->diff; side++) {
		const struct cs_graph *g = &h->g[side];
		h->path_node[side] = xmalloc((g->npaths ? g->npaths : 1) * sizeof *h->path_node[side]);
		int32_t *fmap = xmalloc((g->nfuncs ? g->nfuncs : 1) * sizeof *fmap);
		for (size_t f = 0; f < g->nfuncs; f++)
			fmap[f] = tree_func(h, g, (uint32_t)f);
		for (size_t i = 0; i < g->npaths; i++) {
			const struct cs_path *p = &g->paths[i];
			mp[np++] = (struct mpath){ at, (uint32_t)p->n, side, i };
			for (size_t k = 0; k < p->n; k++)
				*at++ = fmap[p->funcs[k]];
		}
		free(fmap);
	}
	sort(mp, np, sizeof *mp, cmp_mpaths);
	/* at most a node per frame: sized once, not grown (each doubling
	 * copied and faulted in tens of MB) */
	grow(&h->nodes, &h->capnodes, nf + 1, sizeof *h->nodes);
	int32_t stack[CALLSTACK_MAX_FRAMES];
	const struct mpath *prev = NULL;
	for (size_t i = 0; i < np; i++) {
		const struct mpath *m = &mp[i];
		uint32_t l = 0;
		if (prev)
			while (l < m->n && l < prev->n && m->f[l] == prev->f[l])
				l++;
		for (uint32_t k = l; k < m->n && k < CALLSTACK_MAX_FRAMES; k++) {
			h->nodes[h->nnodes] = (struct ft_node){ .parent = k ? stack[k - 1] : 0, .func = m->f[k] };
			stack[k] = (int32_t)h->nnodes++;
		}
		int32_t leaf = m->n ? stack[m->n - 1] : 0;
		h->nodes[leaf].self[m->side] += h->g[m->side].paths[m->path].samples;
		h->path_node[m->side][m->path] = (uint32_t)leaf;
		prev = m;
	}
	free(mp);
	free(funcs);
	/* totals: children come after their parents */
	for (size_t i = h->nnodes; i-- > 0;) {
		for (int side = 0; side < 2; side++) {
			h->nodes[i].total[side] += h->nodes[i].self[side];
			if (h->nodes[i].parent >= 0)
				h->nodes[h->nodes[i].parent].total[side] += h->nodes[i].total[side];
		}
	}
}

void flametree_build(struct flametree *t, const struct pset *base, const struct pset *new, unsigned flags)
{
	memset(t, 0, sizeof *t);
	t->s[0] = base;
	t->s[1] = new ? new : base;
	t->diff = new != NULL;
	for (int side = 0; side < 1 + t->diff; side++)
		callstack_graph_ex(t->s[side], &t->g[side], flags);
	build_tree(t);
}

void flametree_free(struct flametree *t)
{
	for (int side = 0; side < 1 + t->diff; side++) {
		callstack_graph_free(&t->g[side]);
		free(t->path_node[side]);
	}
	agg_free(&t->fkeys);
	free(t->fmods);
	free(t->funnamed);
	free(t->fdef);
	free(t->fside);
	free(t->nodes);
	memset(t, 0, sizeof *t);
}

const char *flametree_name(const struct flametree *t, size_t v)
{
	int32_t f = t->nodes[v].func;
	return f < 0 ? "all" : t->fkeys.rows[f].key[1];
}

/* a side's period per sample with a stack, seconds */
static double stack_period(const struct pset *s, const struct cs_graph *g)
{
	if (s->total == 0 || g->samples == 0)
		return 0;
	double taken = (double)(s->total + s->dropped) * (double)g->samples / (double)s->total;
	return stats_period(s->cpu_ns, (uint64_t)llround(taken)) / 1e9;
}

void flametree_diff_setup(const struct flametree *t, struct diff_setup *ds)
{
	ds->base_total = t->nnodes ? t->nodes[0].total[0] : 0;
	ds->new_total = t->nnodes ? t->nodes[0].total[1] : 0;
	ds->base_period = stack_period(t->s[0], &t->g[0]);
	ds->new_period = stack_period(t->s[1], &t->g[t->diff]);
}

void flametree_diff(const struct flametree *t, const struct diff_setup *ds, struct diff_row *rows)
{
	size_t n = t->nnodes, m = 0;
	struct diff_row *r = xcalloc(n ? n : 1, sizeof *r);
	size_t *at = xmalloc((n ? n : 1) * sizeof *at);
	for (size_t v = 0; v < n; v++) {
		const struct ft_node *nd = &t->nodes[v];
		rows[v] = (struct diff_row){ .base = nd->self[0], .new = nd->self[1], .verdict = DIFF_UNCHANGED };
		if (nd->self[0] + nd->self[1] == 0)
			continue;
		r[m] = rows[v];
		r[m].unresolved = nd->func < 0 || t->funnamed[nd->func];
		at[m++] = v;
	}
	diff_compute(r, m, ds);
	for (size_t j = 0; j < m; j++)
		rows[at[j]] = r[j];
	free(r);
	free(at);
}
