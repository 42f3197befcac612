/*
 * html.c - `pct html`: the data of one self-contained HTML report (the
 * layout is html.h's) and the page around it.
 *
 * Every sample is grouped once, by every key column at once (pipeline
 * group over the line view: module, function, file, line, inline, pid,
 * command, tid, thread): a "cell".  Each flat table (function, line,
 * file, module, thread, process) groups the cells again by its columns,
 * so its rows and names are those of `pct report --by=DIM`; the page
 * re-sums the cells of a time slice with the tick log's times.  The call
 * stacks are merged into one tree (callstack_graph's paths, root first),
 * and a diff runs pct diff's test (diff.h) on every table row and on
 * every frame's self samples.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "annotate.h"
#include "callstack.h"
#include "flametree.h"
#include "diff.h"
#include "escape.h"
#include "html.h"
#include "html_assets.h"
#include "pipeline.h"
#include "source.h"
#include "stats.h"
#include "symtab.h"
#include "u64map.h"
#include "util.h"

/* The cell keys, in pipeline_group's order. */
enum { K_MODULE, K_FUNCTION, K_FILE, K_LINE, K_INLINE, K_PID, K_COMMAND, K_TID, K_THREAD, NCELLKEYS };
static char *const cell_keys[NCELLKEYS] = { "module", "function", "file", "line", "inline",
					    "pid", "command", "tid", "thread" };

/* A flat table: its columns (pct report --by=NAME's) as cell keys; in a
 * diff, the columns that match rows across the sides (pct diff's). */
struct dim {
	const char *name;
	int keys[4];
	size_t nkeys;
	int diff_keys[4];
	size_t ndiff;                  /* 0: not compared (pids differ between runs) */
};
static const struct dim dims[] = {
	{ "function", { K_FUNCTION, K_MODULE }, 2, { K_FUNCTION }, 1 },
	{ "line", { K_FILE, K_LINE, K_FUNCTION, K_INLINE }, 4, { K_FILE, K_LINE }, 2 },
	{ "file", { K_FILE }, 1, { K_FILE }, 1 },
	{ "module", { K_MODULE }, 1, { K_MODULE }, 1 },
	{ "thread", { K_PID, K_TID, K_THREAD }, 3, { 0 }, 0 },
	{ "process", { K_PID, K_COMMAND }, 2, { 0 }, 0 },
};
#define NDIMS (sizeof dims / sizeof *dims)

/* Both sides' cells: one agg by the cell keys, with each side's samples. */
struct cells {
	struct agg a;                  /* samples: unused; n[] hold them */
	uint64_t *n[2];
	size_t cap;
	uint32_t *row[NDIMS];          /* cell -> its row in each table */
};

struct table {
	const struct dim *d;
	size_t nrows;
	char ***keys;                  /* [row] -> the row's key strings (the cells') */
	uint64_t *n[2];
	uint64_t *total;               /* function table with stacks */
	struct diff_row *dr;           /* diff */
};

struct html {
	FILE *out;
	const struct pset *s[2];
	int diff;
	const struct html_opts *o;
	struct cells c;
	uint32_t **row_of[2];          /* [side][profile][sample] -> cell */
	struct table t[NDIMS];
	int stacks;
	struct flametree ft;           /* the merged stacks, pruned */
	struct agg totals;             /* callstack_totals of the profile */
};

/* ---- JSON ---- */

static void json_str(const char *s, FILE *out)
{
	esc_json(s, 0, out);
}

static void json_num(double v, FILE *out)
{
	if (isfinite(v))
		fprintf(out, "%.6g", v);
	else
		fputs("null", out);
}

/* v in decimal: printf's cost, a tenth of the time */
static void put_u64(uint64_t v, FILE *out)
{
	char b[24], *e = b + sizeof b, *c = e;
	do
		*--c = (char)('0' + v % 10);
	while (v /= 10);
	fwrite(c, 1, (size_t)(e - c), out);
}

static void json_u64s(const char *name, const uint64_t *v, size_t n, FILE *out)
{
	fprintf(out, "\"%s\":[", name);
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc(',', out);
		put_u64(v[i], out);
	}
	fputc(']', out);
}

/* ---- cells and tables ---- */

static int load_cells(struct html *h, struct error *e)
{
	const struct view *v = view_find("line");
	for (int side = 0; side < 1 + h->diff; side++) {
		const struct pset *s = h->s[side];
		struct agg a = { 0 };
		uint32_t **row_of = xcalloc(s->nprofiles ? s->nprofiles : 1, sizeof *row_of);
		if (pipeline_group(s, v, cell_keys, NCELLKEYS, &a, row_of, e) != 0) {
			free(row_of);
			agg_free(&a);
			return -1;
		}
		/* the side's rows into the shared cells */
		uint32_t *to = xmalloc((a.nrows ? a.nrows : 1) * sizeof *to);
		for (size_t r = 0; r < a.nrows; r++) {
			long c = agg_find(&h->c.a, a.rows[r].key);
			if (c < 0) {
				c = (long)agg_add(&h->c.a, a.rows[r].key, 0);
				grow(&h->c.n[0], &h->c.cap, h->c.a.nrows, sizeof *h->c.n[0]);
				size_t cap = h->c.cap;
				h->c.n[1] = xrealloc(h->c.n[1], cap * sizeof *h->c.n[1]);
				h->c.n[0][c] = h->c.n[1][c] = 0;
			}
			h->c.n[side][c] += a.rows[r].samples;
			to[r] = (uint32_t)c;
		}
		for (size_t p = 0; p < s->nprofiles; p++)
			for (size_t i = 0; i < s->profiles[p].nsamples; i++)
				row_of[p][i] = to[row_of[p][i]];
		h->row_of[side] = row_of;
		free(to);
		agg_free(&a);
	}
	return 0;
}

/* Row order: samples (both sides) descending, then the keys. */
static const struct table *sort_table;
static int cmp_rows(const void *pa, const void *pb)
{
	const struct table *t = sort_table;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	uint64_t na = t->n[0][a] + t->n[1][a], nb = t->n[0][b] + t->n[1][b];
	if (na != nb)
		return na > nb ? -1 : 1;
	for (size_t k = 0; k < t->d->nkeys; k++) {
		int c = strcmp(t->keys[a][k], t->keys[b][k]);
		if (c)
			return c;
	}
	return 0;
}

static void build_table(struct html *h, size_t di)
{
	const struct dim *d = &dims[di];
	struct table *t = &h->t[di];
	t->d = d;
	/* rows by the matching keys (a diff's) or all the columns */
	const int *mk = h->diff ? d->diff_keys : d->keys;
	size_t nmk = h->diff ? d->ndiff : d->nkeys;
	struct agg a = { .nkeys = nmk };
	size_t nc = h->c.a.nrows, cap = 0;
	uint32_t *row = xmalloc((nc ? nc : 1) * sizeof *row);
	for (size_t c = 0; c < nc; c++) {
		char *key[4];
		for (size_t k = 0; k < nmk; k++)
			key[k] = h->c.a.rows[c].key[mk[k]];
		long r = agg_find(&a, key);
		if (r < 0) {
			r = (long)agg_add(&a, key, 0);
			grow(&t->keys, &cap, a.nrows, sizeof *t->keys);
			t->keys[r] = xmalloc(d->nkeys * sizeof **t->keys);
			for (size_t k = 0; k < d->nkeys; k++)  /* the first cell's names */
				t->keys[r][k] = h->c.a.rows[c].key[d->keys[k]];
		}
		row[c] = (uint32_t)r;
	}
	t->nrows = a.nrows;
	for (int side = 0; side < 2; side++) {
		t->n[side] = xcalloc(t->nrows ? t->nrows : 1, sizeof *t->n[side]);
		for (size_t c = 0; c < nc; c++)
			t->n[side][row[c]] += h->c.n[side][c];
	}
	/* sort, and renumber the cells' rows */
	size_t *ord = xmalloc((t->nrows ? t->nrows : 1) * sizeof *ord), *inv = xmalloc((t->nrows ? t->nrows : 1) * sizeof *inv);
	for (size_t r = 0; r < t->nrows; r++)
		ord[r] = r;
	sort_table = t;
	sort(ord, t->nrows, sizeof *ord, cmp_rows);
	char ***keys = xmalloc((t->nrows ? t->nrows : 1) * sizeof *keys);
	uint64_t *n0 = xmalloc((t->nrows ? t->nrows : 1) * sizeof *n0), *n1 = xmalloc((t->nrows ? t->nrows : 1) * sizeof *n1);
	for (size_t r = 0; r < t->nrows; r++) {
		inv[ord[r]] = r;
		keys[r] = t->keys[ord[r]];
		n0[r] = t->n[0][ord[r]];
		n1[r] = t->n[1][ord[r]];
	}
	free(t->keys);
	free(t->n[0]);
	free(t->n[1]);
	t->keys = keys;
	t->n[0] = n0;
	t->n[1] = n1;
	h->c.row[di] = xmalloc((nc ? nc : 1) * sizeof *h->c.row[di]);
	for (size_t c = 0; c < nc; c++)
		h->c.row[di][c] = (uint32_t)inv[row[c]];
	free(ord);
	free(inv);
	free(row);
	agg_free(&a);
}

static double period_s(const struct pset *s)
{
	return stats_period(s->cpu_ns, s->total + s->dropped) / 1e9;
}

static void diff_setup_of(const struct html *h, struct diff_setup *ds)
{
	*ds = (struct diff_setup){ .base_total = h->s[0]->total, .new_total = h->s[1]->total,
				   .base_period = period_s(h->s[0]), .new_period = period_s(h->s[1]),
				   .share = h->o->share, .alpha = h->o->alpha, .min_effect = h->o->min_effect };
	if (ds->base_period == 0 || ds->new_period == 0)
		ds->share = 1;
}

static void diff_table(struct html *h, struct table *t)
{
	struct diff_setup ds;
	diff_setup_of(h, &ds);
	char *names[4];
	for (size_t k = 0; k < t->d->nkeys; k++)
		names[k] = cell_keys[t->d->keys[k]];
	t->dr = xcalloc(t->nrows ? t->nrows : 1, sizeof *t->dr);
	for (size_t r = 0; r < t->nrows; r++) {
		t->dr[r] = (struct diff_row){ .key = t->keys[r], .base = t->n[0][r], .new = t->n[1][r] };
		t->dr[r].unresolved = diff_key_unresolved(t->keys[r], names, t->d->nkeys);
	}
	diff_compute(t->dr, t->nrows, &ds);
}

/* ---- the call-stack tree ---- */

static void write_flame(struct html *h)
{
	FILE *out = h->out;
	const struct flametree *t = &h->ft;
	size_t nout = t->nnodes;
	int32_t *parent = xmalloc((nout ? nout : 1) * sizeof *parent), *func = xmalloc((nout ? nout : 1) * sizeof *func);
	uint64_t *self[2] = { xcalloc(nout ? nout : 1, sizeof(uint64_t)), xcalloc(nout ? nout : 1, sizeof(uint64_t)) };
	for (size_t i = 0; i < nout; i++) {
		parent[i] = t->nodes[i].parent;
		func[i] = t->nodes[i].func;
		self[0][i] = t->nodes[i].self[0];
		self[1][i] = t->nodes[i].self[1];
	}
	fputs(",\"flame\":{\"funcs\":[", out);
	const struct table *ft = &h->t[0];
	struct agg byname = { .nkeys = 2 };
	for (size_t r = 0; r < ft->nrows; r++) {  /* function table rows by (module, name) */
		char *k[2] = { h->diff ? "" : ft->keys[r][1], ft->keys[r][0] };
		agg_add(&byname, k, r + 1);
	}
	for (size_t f = 0; f < h->ft.fkeys.nrows; f++) {
		char **key = h->ft.fkeys.rows[f].key;
		char *ename = esc_dup(key[1]), *epath = esc_dup(h->ft.fmods[f]);
		char *k[2] = { h->diff ? "" : epath, ename };
		long r = agg_find(&byname, k);
		fputs(f ? ",{\"name\":" : "{\"name\":", out);
		json_str(ename, out);
		fputs(",\"module\":", out);
		json_str(path_base(epath), out);
		fprintf(out, ",\"row\":%ld", r >= 0 ? (long)byname.rows[r].samples - 1 : -1L);
		/* where the function starts (its symbol's first line), for the
		 * hover; none for inlined frames and unnamed code */
		const struct cs_func *cf = h->ft.fdef[f];
		struct srcline sl;
		if (cf->module != PSET_NO_MODULE && !cf->inlined && !cf->unnamed &&
		    symtab_srcline(pset_symtab(&h->s[h->ft.fside[f]]->mods[cf->module]), cf->start, &sl) == 0) {
			fputs(",\"file\":", out);
			json_str(sl.file, out);
			fprintf(out, ",\"line\":%d", sl.line);
		}
		fputc('}', out);
		free(ename);
		free(epath);
	}
	agg_free(&byname);
	fputs("],\"parent\":[", out);
	for (size_t i = 0; i < nout; i++)
		fprintf(out, "%s%d", i ? "," : "", parent[i]);
	fputs("],\"func\":[", out);
	for (size_t i = 0; i < nout; i++)
		fprintf(out, "%s%d", i ? "," : "", func[i]);
	fputs("],", out);
	json_u64s("self", self[0], nout, out);
	if (h->diff) {
		fputc(',', out);
		json_u64s("new_self", self[1], nout, out);
		/* the test of each frame's self samples, on the whole tree (as
		 * pct flame's); a [pruned] frame holds several: unresolved */
		struct diff_row *dr = xcalloc(h->ft.nnodes, sizeof *dr);
		struct diff_setup ds;
		diff_setup_of(h, &ds);
		flametree_diff_setup(&h->ft, &ds);  /* of the samples with stacks */
		if (ds.base_period == 0 || ds.new_period == 0)
			ds.share = 1;
		flametree_diff(&h->ft, &ds, dr);
		const char **verdict = xmalloc(nout * sizeof *verdict);
		double *delta = xcalloc(nout, sizeof *delta);
		for (size_t i = 0; i < nout; i++) {
			verdict[i] = diff_verdict_name(dr[i].verdict);
			delta[i] = dr[i].delta;
		}
		fputs(",\"verdict\":[", out);
		for (size_t i = 0; i < nout; i++)
			fprintf(out, "%s\"%s\"", i ? "," : "", verdict[i]);
		fputs("],\"delta\":[", out);
		for (size_t i = 0; i < nout; i++) {
			if (i)
				fputc(',', out);
			json_num(delta[i], out);
		}
		fputc(']', out);
		free(verdict);
		free(delta);
		free(dr);
	}
	fprintf(out, ",\"pruned\":{\"below_pct\":%g,\"nodes\":%zu,\"samples\":%llu}}", t->prune_pct, t->npruned,
		(unsigned long long)t->pruned_samples);
	free(parent);
	free(func);
	free(self[0]);
	free(self[1]);
}

/* ---- pieces of the data ---- */

static void write_tables(struct html *h)
{
	FILE *out = h->out;
	fputs(",\"tables\":{", out);
	int first = 1;
	for (size_t di = 0; di < NDIMS; di++) {
		const struct table *t = &h->t[di];
		if (h->diff && dims[di].ndiff == 0)
			continue;
		fprintf(out, "%s\"%s\":{\"cols\":[", first ? "" : ",", t->d->name);
		first = 0;
		for (size_t k = 0; k < t->d->nkeys; k++)
			fprintf(out, "%s\"%s\"", k ? "," : "", cell_keys[t->d->keys[k]]);
		fputs("],\"keys\":[", out);
		for (size_t r = 0; r < t->nrows; r++) {
			fputs(r ? ",[" : "[", out);
			for (size_t k = 0; k < t->d->nkeys; k++) {
				if (k)
					fputc(',', out);
				const char *v = t->keys[r][k];
				json_str(t->d->keys[k] == K_MODULE ? path_base(v) : v, out);
			}
			fputc(']', out);
		}
		fputs("],", out);
		json_u64s("samples", t->n[0], t->nrows, out);
		if (h->diff) {
			fputc(',', out);
			json_u64s("new", t->n[1], t->nrows, out);
		}
		if (t->total) {
			fputc(',', out);
			json_u64s("total", t->total, t->nrows, out);
		}
		uint64_t all = h->s[0]->total;
		fputs(",\"lo\":[", out);
		for (size_t r = 0; r < t->nrows; r++) {
			double lo, hi;
			stats_wilson(t->n[0][r], all, STATS_Z95, &lo, &hi);
			fprintf(out, "%s%.4f", r ? "," : "", 100 * lo);
		}
		fputs("],\"hi\":[", out);
		for (size_t r = 0; r < t->nrows; r++) {
			double lo, hi;
			stats_wilson(t->n[0][r], all, STATS_Z95, &lo, &hi);
			fprintf(out, "%s%.4f", r ? "," : "", 100 * hi);
		}
		fputc(']', out);
		if (t->dr) {
			fputs(",\"verdict\":[", out);
			for (size_t r = 0; r < t->nrows; r++)
				fprintf(out, "%s\"%s\"", r ? "," : "", diff_verdict_name(t->dr[r].verdict));
			const char *f[] = { "delta", "dlo", "dhi", "q" };
			for (int j = 0; j < 4; j++) {
				fprintf(out, "],\"%s\":[", f[j]);
				for (size_t r = 0; r < t->nrows; r++) {
					const struct diff_row *d = &t->dr[r];
					if (r)
						fputc(',', out);
					json_num(j == 0 ? d->delta : j == 1 ? d->lo : j == 2 ? d->hi : d->q, out);
				}
			}
			fputc(']', out);
		}
		fputc('}', out);
	}
	fputc('}', out);
	/* the cells */
	fputs(",\"cells\":{", out);
	json_u64s("samples", h->c.n[0], h->c.a.nrows, out);
	if (h->diff) {
		fputc(',', out);
		json_u64s("new", h->c.n[1], h->c.a.nrows, out);
	}
	for (size_t di = 0; di < NDIMS; di++) {
		if (h->diff && dims[di].ndiff == 0)
			continue;
		fprintf(out, ",\"%s\":[", dims[di].name);
		for (size_t c = 0; c < h->c.a.nrows; c++)
			fprintf(out, "%s%u", c ? "," : "", h->c.row[di][c]);
		fputc(']', out);
	}
	fputc('}', out);
}

/* The function table's total column: callstack_totals' rows, keyed by
 * (module path, function) as pipeline_group's cells are. */
static void table_totals(struct html *h)
{
	struct table *t = &h->t[0];
	struct agg *tot = &h->totals;
	callstack_totals(&h->ft.g[0], tot);
	/* the module column holds the path in keys[r][1] */
	size_t n = t->nrows, cap = n;
	t->total = xcalloc(n + tot->nrows + 1, sizeof *t->total);
	uint8_t *seen = xcalloc(tot->nrows + 1, 1);
	for (size_t r = 0; r < n; r++) {
		char *k[2] = { t->keys[r][1], t->keys[r][0] };
		long j = agg_find(tot, k);
		if (j >= 0) {
			t->total[r] = tot->rows[j].samples;
			seen[j] = 1;
		}
	}
	/* functions only on stacks (callers without self samples): rows of
	 * their own, after the others, most total first, as pct report -g */
	for (size_t j = 0; j < tot->nrows; j++) {
		if (seen[j])
			continue;
		grow(&t->keys, &cap, n + 1, sizeof *t->keys);
		t->keys[n] = xmalloc(2 * sizeof **t->keys);
		t->keys[n][0] = tot->rows[j].key[1];
		t->keys[n][1] = tot->rows[j].key[0];
		t->total[n++] = tot->rows[j].samples;
	}
	for (int side = 0; side < 2; side++) {
		t->n[side] = xrealloc(t->n[side], (n ? n : 1) * sizeof *t->n[side]);
		for (size_t r = t->nrows; r < n; r++)
			t->n[side][r] = 0;
	}
	/* the new rows by total, descending (a stable order) */
	for (size_t r = t->nrows + 1; r < n; r++)
		for (size_t q = r; q > t->nrows && t->total[q] > t->total[q - 1]; q--) {
			char **kk = t->keys[q];
			uint64_t tt = t->total[q];
			t->keys[q] = t->keys[q - 1];
			t->total[q] = t->total[q - 1];
			t->keys[q - 1] = kk;
			t->total[q - 1] = tt;
		}
	t->nrows = n;
	free(seen);
}

static void write_ticks(struct html *h, struct error *e)
{
	FILE *out = h->out;
	const struct pset *s = h->s[0];
	uint64_t origin;
	char err[512];
	if (pset_time_origin(s, &origin, err, sizeof err) != 0) {
		fputs(",\"ticks\":null", out);
		return;
	}
	(void)e;
	uint32_t **path_of = h->stacks ? h->ft.g[0].path_of : NULL;
	const char *f[] = { "t", "cell", "node", "w" };
	uint64_t span = 0;             /* 10 us */
	fputs(",\"ticks\":{", out);
	for (int j = 0; j < 4; j++) {
		fprintf(out, "%s\"%s\":[", j ? "," : "", f[j]);
		int first = 1;
		for (size_t p = 0; p < s->nprofiles; p++) {
			const struct profile *pr = &s->profiles[p];
			uint64_t base_ns = pr->hdr.clock_start_ns - origin;
			for (size_t i = 0; i < pr->nticks; i++) {
				const struct profile_tick *tk = &pr->ticks[i];
				if (!first)
					fputc(',', out);
				first = 0;
				switch (j) {
				case 0: {  /* ms with two decimals, from 10 us units */
					uint64_t u = (base_ns + tk->time_ns) / 10000;
					if (u > span)
						span = u;
					put_u64(u / 100, out);
					fprintf(out, ".%02u", (unsigned)(u % 100));
					break;
				}
				case 1:
					put_u64(h->row_of[0][p][tk->sample], out);
					break;
				case 2:
					if (tk->stack && path_of && path_of[p])
						put_u64((uint64_t)(int32_t)h->ft.path_node[0][path_of[p][tk->stack - 1]], out);
					else
						fputs("-1", out);
					break;
				default:
					put_u64(tk->weight, out);
				}
			}
		}
		fputc(']', out);
	}
	fprintf(out, ",\"span_ms\":%llu.%02u}", (unsigned long long)(span / 100), (unsigned)(span % 100));
}

/* The annotated functions: the hottest of the function table (by self
 * samples) that annotate_function can place, up to the bounds. */
static void write_annotate(struct html *h)
{
	FILE *out = h->out;
	const struct pset *s = h->s[h->diff];
	struct pset_addr *v;
	size_t n, nt;
	pset_addresses(s, &v, &n);
	struct ann_target *t = annotate_hot_functions(s, v, n, &nt);
	size_t want = h->o->annotate, bytes = 0, done = 0;
	fprintf(out, ",\"annotate\":{\"limit\":{\"functions\":%zu,\"lines\":%d,\"bytes\":%u}", want,
		HTML_ANNOTATE_LINES, HTML_ANNOTATE_BYTES);
	const struct table *ft = &h->t[0];
	struct agg rows = { .nkeys = 2 };
	for (size_t r = 0; r < ft->nrows; r++) {
		char *rk[2] = { h->diff ? "" : ft->keys[r][1], ft->keys[r][0] };
		agg_add(&rows, rk, r + 1);
	}
	for (size_t i = 0; i < nt && done < want && bytes < HTML_ANNOTATE_BYTES; i++) {
		char *ename = esc_dup(t[i].name), *epath = esc_dup(s->mods[t[i].module].path);
		char *rk[2] = { h->diff ? "" : epath, ename };
		long r = agg_find(&rows, rk);
		free(ename);
		free(epath);
		if (r < 0)
			continue;
		struct annotation a;
		annotate_function(s, v, n, &t[i], &a);
		/* its source file: the one with most samples among its
		 * instructions, else the first named */
		const char *file = NULL;
		int lo = 0, hi = 0;
		{
			struct u64map per = { 0 };
			uint64_t best = 0;
			for (size_t k = 0; k < a.ninsns; k++)
				if (a.insns[k].file) {
					uint64_t *c = u64map_slot(&per, (uintptr_t)a.insns[k].file);
					*c += a.insns[k].samples + 1;
					if (*c > best) {
						best = *c;
						file = a.insns[k].file;
					}
				}
			u64map_free(&per);
			for (size_t k = 0; k < a.ninsns; k++)
				if (a.insns[k].file == file && a.insns[k].line > 0) {
					if (lo == 0 || a.insns[k].line < lo)
						lo = a.insns[k].line;
					if (a.insns[k].line > hi)
						hi = a.insns[k].line;
				}
			if (hi - lo >= HTML_ANNOTATE_LINES)
				hi = lo + HTML_ANNOTATE_LINES - 1;
		}
		long before = ftell(out);
		fprintf(out, ",\"%ld\":{\"file\":", (long)rows.rows[r].samples - 1);
		if (file)
			json_str(file, out);
		else
			fputs("null", out);
		fprintf(out, ",\"samples\":%llu,\"hottest\":%llu,\"insns\":[", (unsigned long long)a.samples,
			(unsigned long long)a.hottest);
		for (size_t k = 0; k < a.ninsns; k++) {
			fprintf(out, "%s[\"%llx\",%llu,", k ? "," : "", (unsigned long long)a.insns[k].addr,
				(unsigned long long)a.insns[k].samples);
			json_str(a.insns[k].text, out);
			fprintf(out, ",%d]", a.insns[k].file == file ? a.insns[k].line : 0);
		}
		fputs("],\"lines\":[", out);
		if (file && lo > 0) {
			uint64_t *ls = xcalloc((size_t)(hi - lo + 1), sizeof *ls);
			for (size_t k = 0; k < a.ninsns; k++)
				if (a.insns[k].file == file && a.insns[k].line >= lo && a.insns[k].line <= hi)
					ls[a.insns[k].line - lo] += a.insns[k].samples;
			const struct srcfile *sf = source_get(file);
			for (int l = lo; l <= hi; l++) {
				const char *text = source_line(sf, l);
				fprintf(out, "%s[%d,%llu,", l > lo ? "," : "", l, (unsigned long long)ls[l - lo]);
				if (text)
					esc_json(text, 1, out);  /* a source line keeps its tabs */
				else
					fputs("null", out);
				fputc(']', out);
			}
			free(ls);
		}
		fputs("],\"why\":", out);
		if (a.why)
			json_str(a.why, out);
		else
			fputs("null", out);
		fputc('}', out);
		long after = ftell(out);
		if (before >= 0 && after > before)
			bytes += (size_t)(after - before);
		annotation_free(&a);
		done++;
	}
	fputc('}', out);
	agg_free(&rows);
	free(t);
	free(v);
}

static void write_summary(struct html *h)
{
	FILE *out = h->out;
	const struct pset *s = h->s[0];
	const struct profile *p0 = &s->profiles[0];
	fputs(",\"files\":[", out);
	int first = 1;
	for (int side = 0; side < 1 + h->diff; side++)
		for (size_t p = 0; p < h->s[side]->nprofiles; p++) {
			const struct profile *pr = &h->s[side]->profiles[p];
			fputs(first ? "{\"path\":" : ",{\"path\":", out);
			first = 0;
			json_str(pr->file, out);
			fputs(",\"cmdline\":", out);
			json_str(pr->cmdline, out);
			fprintf(out, ",\"pid\":%u,\"samples\":%llu,\"side\":\"%s\"}", pr->hdr.pid,
				(unsigned long long)pr->total, side ? "new" : "base");
		}
	fprintf(out, "],\"summary\":{\"samples\":%llu", (unsigned long long)s->total);
	if (h->diff)
		fprintf(out, ",\"new_samples\":%llu,\"new_seconds\":%.6f", (unsigned long long)h->s[1]->total,
			(double)h->s[1]->cpu_ns / 1e9);
	fputs(",\"dimension\":", out);
	json_str(event_name(p0->hdr.event), out);
	fputs(",\"unit\":", out);
	json_str(profile_measures_cpu(p0) ? "CPU seconds" : p0->hdr.dimension, out);
	fprintf(out, ",\"seconds\":%.6f,\"rate_hz\":%.3f,\"period_ms\":%.6f,\"resolution\":%.4f",
		(double)s->cpu_ns / 1e9, stats_rate_hz(s->total + s->dropped, s->cpu_ns), period_s(s) * 1e3,
		stats_resolution_percent(s->total));
	uint64_t timed = 0;
	for (size_t p = 0; p < s->nprofiles && !h->diff; p++)
		timed += s->profiles[p].ticks_total;
	fprintf(out, ",\"stacks\":%llu,\"unrooted\":%llu,\"timed\":%llu,\"untimed_why\":",
		(unsigned long long)(h->stacks ? h->ft.g[0].samples : 0),
		(unsigned long long)(h->stacks ? h->ft.g[0].unrooted : 0), (unsigned long long)timed);
	uint64_t origin;
	char err[512];
	if (h->diff)
		json_str("a diff has no timeline", out);
	else if (pset_time_origin(s, &origin, err, sizeof err) != 0)
		json_str(err, out);
	else
		fputs("null", out);
	fputc('}', out);
	if (h->diff) {
		struct diff_setup ds;
		diff_setup_of(h, &ds);
		fputs(",\"diff\":{\"test\":", out);
		json_str(diff_test_name(&ds), out);
		fputs(",\"adjustment\":\"Holm's step-down method over the named rows of each table "
		      "(and over the frames with samples)\"", out);
		fprintf(out, ",\"alpha\":%g,\"min_effect\":%g,\"compare\":\"%s\",\"resolution\":%.4f}", ds.alpha,
			ds.min_effect > 0 ? ds.min_effect : DIFF_MIN_EFFECT, ds.share ? "share" : "time",
			/* the smaller side's resolution, as points of a share */
			stats_resolution_percent(h->s[0]->total < h->s[1]->total ? h->s[0]->total : h->s[1]->total));
	} else {
		fputs(",\"diff\":null", out);
	}
}

static void write_page_head(FILE *out, const char *title)
{
	fputs("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"generator\" content=\"pct html\">\n<title>", out);
	esc_xml(title, 200, out);
	fputs("</title>\n<style>\n", out);
	fputs(pct_asset_report_css, out);
	fputs("</style>\n</head>\n<body>\n<script id=\"pct-data\" type=\"application/json\">{\"pct\":1", out);
}

int html_write(FILE *out, const struct pset *s, const struct pset *s2, const struct html_opts *o, struct error *e)
{
	struct html h = { .out = out, .s = { s, o->diff ? s2 : s }, .diff = o->diff, .o = o };
	h.c.a.nkeys = NCELLKEYS;
	int rc = -1;
	if (load_cells(&h, e) != 0)
		goto done;
	for (size_t di = 0; di < NDIMS; di++)
		if (!h.diff || dims[di].ndiff)
			build_table(&h, di);
	h.stacks = callstack_present(s) && (!h.diff || callstack_present(s2));
	if (h.stacks) {
		flametree_build(&h.ft, s, h.diff ? s2 : NULL, CS_GRAPH_PATHS, FLAMETREE_PRUNE_PERCENT);
		if (!h.diff)
			table_totals(&h);
	}
	if (h.diff)
		for (size_t di = 0; di < NDIMS; di++)
			if (dims[di].ndiff)
				diff_table(&h, &h.t[di]);

	const char *title = o->title ? o->title : s->profiles[0].cmdline;
	write_page_head(out, title);
	fprintf(out, ",\"mode\":\"%s\",\"title\":", h.diff ? "diff" : "profile");
	json_str(title, out);
	write_summary(&h);
	write_tables(&h);
	if (h.stacks)
		write_flame(&h);
	else
		fputs(",\"flame\":null", out);
	if (!h.diff)
		write_ticks(&h, e);
	else
		fputs(",\"ticks\":null", out);
	write_annotate(&h);
	fputs("}</script>\n<script>\n", out);
	fputs(pct_asset_report_js, out);
	fputs("</script>\n</body>\n</html>\n", out);
	rc = 0;
done:
	for (int side = 0; side < 2; side++) {
		if (h.row_of[side]) {
			for (size_t p = 0; p < h.s[side]->nprofiles; p++)
				free(h.row_of[side][p]);
			free(h.row_of[side]);
		}
		free(h.c.n[side]);
	}
	for (size_t di = 0; di < NDIMS; di++) {
		struct table *t = &h.t[di];
		for (size_t r = 0; r < t->nrows; r++)
			free(t->keys[r]);
		free(t->keys);
		free(t->n[0]);
		free(t->n[1]);
		free(t->total);
		free(t->dr);
		free(h.c.row[di]);
	}
	agg_free(&h.c.a);
	if (h.stacks)
		flametree_free(&h.ft);
	agg_free(&h.totals);
	return rc;
}
