/*
 * calltree.c - the call tree of -g stacks (calltree.h).
 */
#include <stdlib.h>
#include <string.h>

#include "calltree.h"
#include "escape.h"
#include "names.h"
#include "stats.h"
#include "u64map.h"
#include "util.h"

/* The node for function f's group under parent (node index + 1, or 0),
 * made if new: children are found through map, keyed by parent and group. */
static uint32_t child(struct calltree *t, struct u64map *map, const struct cs_graph *g, uint32_t parent, uint32_t f)
{
	uint64_t key = ((uint64_t)parent << 32) | (uint64_t)g->funcs[f].group;
	uint64_t *slot = u64map_slot(map, key);
	if (*slot)
		return (uint32_t)*slot;
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 256;
		t->nodes = xrealloc(t->nodes, t->cap * sizeof *t->nodes);
	}
	t->nodes[t->n] = (struct ct_node){
		.func = f, .parent = parent, .depth = parent ? t->nodes[parent - 1].depth + 1 : 0,
	};
	*slot = ++t->n;
	return (uint32_t)*slot;
}

void calltree_build(const struct cs_graph *g, int bottom_up, struct calltree *t)
{
	memset(t, 0, sizeof *t);
	t->bottom_up = bottom_up;
	t->samples = g->samples;
	struct u64map map = { 0 };
	for (size_t p = 0; p < g->npaths; p++) {
		const struct cs_path *path = &g->paths[p];
		uint32_t node = 0;
		for (size_t i = 0; i < path->n; i++) {
			uint32_t f = path->funcs[bottom_up ? path->n - 1 - i : i];
			node = child(t, &map, g, node, f);
			t->nodes[node - 1].total += path->samples;
			if (bottom_up ? i == 0 : i + 1 == path->n)
				t->nodes[node - 1].self += path->samples;
		}
	}
	u64map_free(&map);
}

void calltree_free(struct calltree *t)
{
	free(t->nodes);
	memset(t, 0, sizeof *t);
}

/* Children lists: first[n] the first child of node n + 1 (index + 1;
 * first[-1 + 0] for roots at index 0 of first, shifted), next[] siblings,
 * each list by total descending, then by name. */
struct order {
	const struct calltree *t;
	const struct cs_graph *g;
};
static const struct order *sort_ctx;

static int by_total(const void *a, const void *b)
{
	const struct ct_node *x = &sort_ctx->t->nodes[*(const uint32_t *)a];
	const struct ct_node *y = &sort_ctx->t->nodes[*(const uint32_t *)b];
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	int c = strcmp(sort_ctx->g->funcs[x->func].name, sort_ctx->g->funcs[y->func].name);
	if (c)
		return c;
	return (*(const uint32_t *)a > *(const uint32_t *)b) - (*(const uint32_t *)a < *(const uint32_t *)b);
}

static void put_share(FILE *out, uint64_t k, uint64_t n, int tsv)
{
	double lo, hi, pct = n ? 100.0 * (double)k / (double)n : 0;
	stats_wilson(k, n, STATS_Z95, &lo, &hi);
	if (tsv)
		fprintf(out, "\t%llu\t%.4f\t%.4f\t%.4f", (unsigned long long)k, pct, 100 * lo, 100 * hi);
	else
		fprintf(out, "%7.2f%% [%5.1f,%5.1f] ", pct, 100 * lo, 100 * hi);
}

void calltree_print(const struct calltree *t, const struct cs_graph *g, const struct pset *s,
		    const struct calltree_opts *o, FILE *out)
{
	/* every node's children, sorted: kids[start[n]..start[n + 1]) are
	 * those of node n (n = parent index + 1; 0: the roots) */
	size_t n = t->n;
	uint32_t *start = xcalloc(n + 2, sizeof *start), *kids = xmalloc((n ? n : 1) * sizeof *kids);
	for (size_t i = 0; i < n; i++)
		start[t->nodes[i].parent + 1]++;
	for (size_t i = 1; i < n + 2; i++)
		start[i] += start[i - 1];
	uint32_t *fill = xmalloc((n + 1) * sizeof *fill);
	memcpy(fill, start, (n + 1) * sizeof *fill);
	for (size_t i = 0; i < n; i++)
		kids[fill[t->nodes[i].parent]++] = (uint32_t)i;
	free(fill);
	struct order ctx = { t, g };
	sort_ctx = &ctx;
	for (size_t p = 0; p <= n; p++)
		if (start[p + 1] - start[p] > 1)
			qsort(kids + start[p], start[p + 1] - start[p], sizeof *kids, by_total);
	sort_ctx = NULL;

	if (o->tsv)
		fprintf(out, "node\tparent\tdepth\ttotal\ttotal_percent\ttotal_ci_low\ttotal_ci_high\tself\tself_percent"
			     "\tself_ci_low\tself_ci_high\tmodule\tfunction\n");
	else
		fprintf(out, "# call tree, %s: total (samples whose stack passes through the node) and self (%s), "
			     "percent of %llu samples with stacks, 95%% CI\n"
			     "    total       95%% CI      self       95%% CI  function  module\n",
			t->bottom_up ? "bottom-up (each sampled function, then its callers)"
				     : "top-down (callers, then their callees)",
			t->bottom_up ? "a root's own samples" : "the stacks that end there",
			(unsigned long long)t->samples);
	/* depth first: a stack of positions, the node printed on the way down */
	uint32_t *stack = xmalloc((n + 1) * sizeof *stack), *printed = xcalloc(n + 1, sizeof *printed);
	size_t sp = 0, row = 0;
	for (size_t r = start[0]; r < start[1]; r++) {
		stack[sp++] = kids[r];
		while (sp) {
			uint32_t i = stack[--sp];
			const struct ct_node *nd = &t->nodes[i];
			if (nd->depth >= o->max_depth || nd->total < o->min_samples ||
			    (o->percent_limit > 0 &&
			     (t->samples == 0 || 100.0 * (double)nd->total / (double)t->samples < o->percent_limit)))
				continue;
			printed[i + 1] = (uint32_t)++row;
			const struct cs_func *f = &g->funcs[nd->func];
			const char *mod = f->module < s->nmods ? s->mods[f->module].path : "[unknown]";
			if (o->tsv) {
				fprintf(out, "%zu\t%u\t%u", row, nd->parent ? printed[nd->parent] : 0, nd->depth);
				put_share(out, nd->total, t->samples, 1);
				put_share(out, nd->self, t->samples, 1);
				fputc('\t', out);
				esc_fputs(mod, out);
				fputc('\t', out);
				esc_fputs(f->name, out);
				fputc('\n', out);
			} else {
				fputc(' ', out);
				put_share(out, nd->total, t->samples, 0);
				if (t->bottom_up && nd->depth > 0)
					fprintf(out, "%24s", "");
				else
					put_share(out, nd->self, t->samples, 0);
				fprintf(out, "%*s", 2 * (int)(nd->depth < 40 ? nd->depth : 40) + 1, "");
				char *shortn = o->full_names ? NULL : name_short(f->name);
				esc_fputs(shortn ? shortn : f->name, out);
				free(shortn);
				fputs("  ", out);
				esc_fputs(path_base(mod), out);
				fputc('\n', out);
			}
			/* children, pushed last first so the largest comes out first */
			for (size_t c = start[i + 2]; c > start[i + 1]; c--)
				stack[sp++] = kids[c - 1];
		}
	}
	free(stack);
	free(printed);
	free(start);
	free(kids);
}
