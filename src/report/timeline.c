/* timeline.c - see timeline.h. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "escape.h"
#include "names.h"
#include "pipeline.h"
#include "profile.h"
#include "timeline.h"

#define NO_ROW UINT32_MAX

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	uint64_t r;
	return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

static double share_percent(uint64_t n, uint64_t total)
{
	return total ? 100.0 * (double)n / (double)total : 0.0;
}

uint64_t tl_nice_bucket(uint64_t span_ns, size_t columns)
{
	static const uint64_t mult[] = { 1, 2, 5 };
	if (columns == 0)
		columns = 1;
	for (uint64_t mag = 1000;; mag *= 10) {
		for (size_t i = 0; i < 3; i++) {
			uint64_t len = mult[i] * mag;
			uint64_t n = span_ns / len + (span_ns % len != 0);
			if (n <= columns)
				return len;
		}
		if (mag > UINT64_MAX / 50)     /* 5 x 10^18 fits any span in 4 columns */
			return 5 * mag;
	}
}

double tl_busy_samples(uint64_t bucket_ns, uint64_t period_ns)
{
	return period_ns ? (double)bucket_ns / (double)period_ns : 0.0;
}

char tl_grade(double f)
{
	static const char grades[] = ".:-=#";
	if (!(f > 0))
		return ' ';
	if (f >= 0.8)
		return '#';
	return grades[(int)(f * 5)];
}

const char *tl_seconds(uint64_t ns, char *buf)
{
	int n = snprintf(buf, 32, "%llu.%09llu", (unsigned long long)(ns / 1000000000u),
			 (unsigned long long)(ns % 1000000000u));
	while (n > 0 && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n > 0 && buf[n - 1] == '.')
		buf[--n] = '\0';
	return buf;
}

/* 1 if p's samples are of time (CPU or wall-clock), whose period is ns. */
static int measures_time(const struct profile *p)
{
	return profile_measures_cpu(p) || p->hdr.event == PCT_EVENT_WALL;
}

/* The thread slot + 1 of a sample or bucket: 0 for one outside the table. */
static uint32_t thread_of(const struct profile *p, uint32_t thread)
{
	return thread <= p->nthreads ? thread : 0;
}

/* The earliest start, the span, and the counts of samples without an
 * exact time. */
static int load_span(const struct pset *s, struct timeline *tl, struct error *e)
{
	char err[512];
	tl->coarse_from_ns = UINT64_MAX;
	if (pset_time_origin(s, &tl->origin_ns, err, sizeof err) != 0)
		return error_set(e, 1, "%s", err);
	tl->span_ns = 1;
	for (size_t i = 0; i < s->nprofiles; i++) {
		const struct profile *p = &s->profiles[i];
		uint64_t rel = p->hdr.clock_start_ns - tl->origin_ns, end = add_sat(rel, p->duration_ns);
		for (size_t k = 0; k < p->nticks; k++) {
			tl->logged += p->ticks[k].weight;
			uint64_t t = add_sat(add_sat(rel, p->ticks[k].time_ns), 1);
			if (t > end)
				end = t;
		}
		for (size_t k = 0; k < p->nbuckets; k++) {
			uint64_t start = add_sat(rel, p->buckets[k].start_ns);
			uint64_t t = add_sat(start, p->bucket_ns ? p->bucket_ns : 1);
			if (p->buckets[k].count == 0)
				continue;
			if (t > end)
				end = t;
			tl->coarse_samples += p->buckets[k].count;
			if (start < tl->coarse_from_ns)
				tl->coarse_from_ns = start;
			if (p->bucket_ns > tl->coarse_len_ns)
				tl->coarse_len_ns = p->bucket_ns;
		}
		tl->untimed += p->hdr.untimed;
		if (end > tl->span_ns)
			tl->span_ns = end;
	}
	return 0;
}

/* qsort_r's order of thread slots + 1 of profile arg: by tid. */
static int cmp_tid(const void *pa, const void *pb, void *arg)
{
	const struct profile *p = arg;
	const struct profile_thread *a = &p->threads[*(const uint32_t *)pa - 1];
	const struct profile_thread *b = &p->threads[*(const uint32_t *)pb - 1];
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	return *(const uint32_t *)pa < *(const uint32_t *)pb ? -1 : 1;
}

/* Rows by thread: each thread slot with samples in the table or in a
 * coarse bucket, by tid; row_of maps each sample to its thread's row. */
static void load_threads(const struct pset *s, struct timeline *tl)
{
	size_t cap = 0;
	for (size_t i = 0; i < s->nprofiles; i++) {
		const struct profile *p = &s->profiles[i];
		uint64_t *n = xcalloc(p->nthreads + 1, sizeof *n);
		unsigned char *have = xcalloc(p->nthreads + 1, 1);
		uint32_t *row = xmalloc((p->nthreads + 1) * sizeof *row);
		for (size_t k = 0; k < p->nsamples; k++) {
			uint32_t t = thread_of(p, p->samples[k].thread);
			n[t] += p->samples[k].count;
			have[t] |= p->samples[k].count > 0;
		}
		for (size_t k = 0; k < p->nbuckets; k++)
			have[thread_of(p, p->buckets[k].thread)] |= p->buckets[k].count > 0;
		/* the threads by tid (the slots are a hash table's), the
		 * unknown thread last */
		uint32_t *order = xmalloc((p->nthreads + 1) * sizeof *order);
		size_t nt = 0;
		for (uint32_t t = 1; t <= p->nthreads; t++)
			if (have[t])
				order[nt++] = t;
		qsort_r(order, nt, sizeof *order, cmp_tid, (void *)p);
		if (have[0])
			order[nt++] = 0;
		for (size_t t = 0; t <= p->nthreads; t++)
			row[t] = NO_ROW;
		for (size_t j = 0; j < nt; j++) {
			uint32_t t = order[j];
			grow(&tl->rows, &cap, tl->nrows + 1, sizeof *tl->rows);
			tl->rows[tl->nrows] = (struct tl_row){ .profile = i, .thread = t, .samples = n[t] };
			row[t] = (uint32_t)tl->nrows++;
		}
		tl->row_of[i] = xmalloc((p->nsamples ? p->nsamples : 1) * sizeof **tl->row_of);
		for (size_t k = 0; k < p->nsamples; k++)
			tl->row_of[i][k] = row[thread_of(p, p->samples[k].thread)];
		free(n);
		free(have);
		free(row);
		free(order);
	}
}

/* Rows by function: pct report's grouping and order, the first limit. */
static int load_functions(const struct pset *s, size_t limit, struct timeline *tl, struct error *e)
{
	static char *const keys[] = { "module", "function" };
	struct agg a = { 0 }, sorted = { .nkeys = 2 };
	if (pipeline_group(s, view_find("function"), keys, 2, &a, tl->row_of, e) != 0) {
		agg_free(&a);
		return -1;
	}
	for (size_t r = 0; r < a.nrows; r++)
		agg_add(&sorted, a.rows[r].key, a.rows[r].samples);
	agg_sort(&sorted);
	tl->functions = sorted.nrows;
	tl->nrows = sorted.nrows < limit ? sorted.nrows : limit;
	tl->rows = xcalloc(tl->nrows ? tl->nrows : 1, sizeof *tl->rows);
	for (size_t r = 0; r < tl->nrows; r++)
		tl->rows[r] = (struct tl_row){ .module = xstrdup(sorted.rows[r].key[0]),
					       .function = xstrdup(sorted.rows[r].key[1]),
					       .samples = sorted.rows[r].samples };
	/* a's row numbers to the rank of their key, or NO_ROW past the limit */
	uint32_t *rank = xmalloc((a.nrows ? a.nrows : 1) * sizeof *rank);
	for (size_t r = 0; r < a.nrows; r++) {
		long at = agg_find(&sorted, a.rows[r].key);
		rank[r] = at >= 0 && (size_t)at < tl->nrows ? (uint32_t)at : NO_ROW;
	}
	for (size_t i = 0; i < s->nprofiles; i++)
		for (size_t k = 0; k < s->profiles[i].nsamples; k++)
			tl->row_of[i][k] = rank[tl->row_of[i][k]];
	free(rank);
	agg_free(&a);
	agg_free(&sorted);
	return 0;
}

int tl_load(const struct pset *s, enum tl_by by, size_t limit, struct timeline *tl, struct error *e)
{
	memset(tl, 0, sizeof *tl);
	tl->by = by;
	tl->total = s->total;
	if (load_span(s, tl, e) != 0)
		return -1;
	tl->nprofiles = s->nprofiles;
	tl->row_of = xcalloc(s->nprofiles ? s->nprofiles : 1, sizeof *tl->row_of);
	if (by == TL_BY_THREAD) {
		load_threads(s, tl);
		return 0;
	}
	if (load_functions(s, limit, tl, e) != 0) {
		tl_free(tl);
		return -1;
	}
	return 0;
}

static int cmp_coarse(const void *pa, const void *pb)
{
	const struct tl_coarse *a = pa, *b = pb;
	if (a->start_ns != b->start_ns)
		return a->start_ns < b->start_ns ? -1 : 1;
	return a->row < b->row ? -1 : a->row > b->row;
}

void tl_bucket(struct timeline *tl, const struct pset *s, uint64_t bucket_ns)
{
	free(tl->counts);
	free(tl->bucket_total);
	free(tl->coarse);
	tl->bucket_ns = bucket_ns ? bucket_ns : 1;
	tl->nbuckets = (size_t)(tl->span_ns / tl->bucket_ns + (tl->span_ns % tl->bucket_ns != 0));
	size_t cells;
	if (__builtin_mul_overflow(tl->nrows ? tl->nrows : 1, tl->nbuckets, &cells))
		die("out of memory");
	tl->counts = xcalloc(cells, sizeof *tl->counts);
	tl->bucket_total = xcalloc(tl->nbuckets, sizeof *tl->bucket_total);
	tl->coarse = NULL;
	tl->ncoarse = 0;
	size_t cap = 0;
	for (size_t i = 0; i < s->nprofiles; i++) {
		const struct profile *p = &s->profiles[i];
		uint64_t rel = p->hdr.clock_start_ns - tl->origin_ns;
		for (size_t k = 0; k < p->nticks; k++) {
			const struct profile_tick *t = &p->ticks[k];
			size_t b = (size_t)(add_sat(rel, t->time_ns) / tl->bucket_ns);
			if (b >= tl->nbuckets)
				b = tl->nbuckets - 1;
			tl->bucket_total[b] += t->weight;
			uint32_t row = t->sample < p->nsamples ? tl->row_of[i][t->sample] : NO_ROW;
			if (row != NO_ROW)
				tl->counts[(size_t)row * tl->nbuckets + b] += t->weight;
		}
		/* the row of each thread (by thread), for the coarse buckets */
		size_t *trow = xmalloc((p->nthreads + 1) * sizeof *trow);
		for (size_t t = 0; t <= p->nthreads; t++)
			trow[t] = SIZE_MAX;
		for (size_t r = 0; r < tl->nrows; r++)
			if (tl->by == TL_BY_THREAD && tl->rows[r].profile == i)
				trow[tl->rows[r].thread] = r;
		for (size_t k = 0; k < p->nbuckets; k++) {
			const struct profile_bucket *c = &p->buckets[k];
			if (c->count == 0)
				continue;
			size_t row = trow[thread_of(p, c->thread)];
			grow(&tl->coarse, &cap, tl->ncoarse + 1, sizeof *tl->coarse);
			tl->coarse[tl->ncoarse++] = (struct tl_coarse){ row, add_sat(rel, c->start_ns),
								       p->bucket_ns ? p->bucket_ns : 1, c->count };
		}
		free(trow);
		for (size_t r = 0; r < tl->nrows; r++)
			if (tl->by == TL_BY_THREAD && tl->rows[r].profile == i)
				tl->rows[r].per_bucket =
					measures_time(p) ? tl_busy_samples(tl->bucket_ns, p->hdr.period_requested_ns) : 0;
	}
	sort(tl->coarse, tl->ncoarse, sizeof *tl->coarse, cmp_coarse);
}

void tl_free(struct timeline *tl)
{
	for (size_t r = 0; r < tl->nrows; r++) {
		free(tl->rows[r].module);
		free(tl->rows[r].function);
	}
	free(tl->rows);
	if (tl->row_of)
		for (size_t i = 0; i < tl->nprofiles; i++)
			free(tl->row_of[i]);
	free(tl->row_of);
	free(tl->counts);
	free(tl->bucket_total);
	free(tl->coarse);
	memset(tl, 0, sizeof *tl);
}

void tl_cells(const struct timeline *tl, double *cells, unsigned char *coarse)
{
	const size_t nb = tl->nbuckets;
	if (coarse)
		memset(coarse, 0, nb);
	for (size_t r = 0; r < tl->nrows; r++)
		for (size_t b = 0; b < nb; b++)
			cells[r * nb + b] = (double)tl->counts[r * nb + b];
	/* a coarse bucket's samples, spread over the buckets it overlaps */
	for (size_t k = 0; k < tl->ncoarse; k++) {
		const struct tl_coarse *c = &tl->coarse[k];
		uint64_t end = add_sat(c->start_ns, c->len_ns);
		for (size_t b = (size_t)(c->start_ns / tl->bucket_ns); b < nb; b++) {
			uint64_t from = (uint64_t)b * tl->bucket_ns, to = add_sat(from, tl->bucket_ns);
			if (from >= end)
				break;
			uint64_t lo = from > c->start_ns ? from : c->start_ns, hi = to < end ? to : end;
			if (coarse)
				coarse[b] = 1;
			if (c->row != SIZE_MAX)
				cells[c->row * nb + b] += (double)c->count * (double)(hi - lo) / (double)c->len_ns;
		}
	}
	/* over what fills a cell */
	double most = 0;
	for (size_t r = 0; r < tl->nrows; r++)
		for (size_t b = 0; b < nb && tl->by == TL_BY_THREAD && tl->rows[r].per_bucket == 0; b++)
			if (cells[r * nb + b] > most)
				most = cells[r * nb + b];
	for (size_t r = 0; r < tl->nrows; r++)
		for (size_t b = 0; b < nb; b++) {
			double full = tl->by == TL_BY_FUNCTION ? (double)tl->bucket_total[b]
				      : tl->rows[r].per_bucket > 0 ? tl->rows[r].per_bucket : most;
			cells[r * nb + b] = full > 0 ? cells[r * nb + b] / full : 0;
		}
}

/* A row's label, escaped (malloc'd). */
static char *row_label(const struct timeline *tl, const struct pset *s, size_t r, int full_names)
{
	const struct tl_row *row = &tl->rows[r];
	if (tl->by == TL_BY_THREAD) {
		const struct profile *p = &s->profiles[row->profile];
		if (row->thread == 0)
			return xstrdup("? (unknown thread)");
		const struct profile_thread *t = &p->threads[row->thread - 1];
		char *name = esc_dup(t->name);
		char *l = xasprintf("%u %s", t->tid, name);
		free(name);
		return l;
	}
	/* the function key is escaped already */
	char *name = full_names ? xstrdup(row->function) : name_short(row->function);
	for (size_t o = 0; o < tl->nrows; o++) {
		if (o == r)
			continue;
		char *other = full_names ? xstrdup(tl->rows[o].function) : name_short(tl->rows[o].function);
		int same = strcmp(other, name) == 0;
		free(other);
		if (same) {      /* the same name in two modules: say which */
			char *l = xasprintf("%s (%s)", name, path_base(row->module));
			free(name);
			return l;
		}
	}
	return name;
}

/* Does the set hold more than one process (then thread rows are grouped
 * under a line per process)? */
static int several(const struct timeline *tl, const struct pset *s)
{
	return tl->by == TL_BY_THREAD && s->nprofiles > 1;
}

#define SHARE_COLS 6                   /* "100.0%" */
#define MIN_STRIP 10

void tl_layout(const struct timeline *tl, const struct pset *s, size_t width, int full_names, size_t *label,
	       size_t *strip)
{
	size_t most = tl->by == TL_BY_THREAD ? 10 : 8, indent = several(tl, s) ? 2 : 0; /* the heading */
	for (size_t r = 0; r < tl->nrows; r++) {
		char *l = row_label(tl, s, r, full_names);
		size_t n = text_columns(l) + indent;
		if (n > most)
			most = n;
		free(l);
	}
	size_t cap = width / 3 > 12 ? width / 3 : 12;
	*label = most < cap ? most : cap;
	/* label, " |", strip, "| ", share */
	*strip = width > *label + 4 + SHARE_COLS + MIN_STRIP ? width - *label - 4 - SHARE_COLS : MIN_STRIP;
}

/* A space that put_wrapped never breaks a line at. */
#define NBSP "\x01"
#define LEGEND "'" NBSP "'" NBSP "none, '.'" NBSP "<20%, ':'" NBSP "<40%, '-'" NBSP "<60%, '='" NBSP "<80%, '#'" NBSP ">=80%"

/* Print text as words filling lines of at most width columns, each
 * starting "# "; a word wider than that is cut.  NBSP prints as a space
 * within a word. */
static void put_wrapped(const char *text, size_t width, FILE *out)
{
	size_t col = 0;
	const char *p = text;
	fputs("#", out);
	col = 1;
	while (*p) {
		while (*p == ' ')
			p++;
		if (*p == '\0')
			break;
		size_t len = strcspn(p, " ");
		char *word = xasprintf("%.*s", (int)len, p);
		for (char *c = word; *c; c++)
			if (*c == NBSP[0])
				*c = ' ';
		size_t w = text_columns(word);
		if (col > 1 && col + 1 + w > width) {
			fputs("\n#", out);
			col = 1;
		}
		fputc(' ', out);
		col++;
		if (w > width - col) {
			char *cut = text_cut(word, width - col, cut_mark());
			fputs(cut, out);
			free(cut);
			w = width - col;
		} else {
			fputs(word, out);
		}
		col += w;
		free(word);
		p += len;
	}
	fputc('\n', out);
}

/* label (escaped) cut to cols columns, then padded to them. */
static void put_cell(const char *label, size_t cols, FILE *out)
{
	char *cut = text_cut(label, cols, cut_mark());
	fputs(cut, out);
	for (size_t n = text_columns(cut); n < cols; n++)
		fputc(' ', out);
	free(cut);
}

/* The digits after the point that multiples of step_ns need in seconds. */
static int decimals(uint64_t step_ns)
{
	int d = 0;
	for (uint64_t unit = 1000000000u; d < 9 && step_ns % unit != 0; unit /= 10)
		d++;
	return d;
}

static void put_axis(const struct timeline *tl, size_t label, size_t width, FILE *out)
{
	size_t room = width - label - 2;       /* from the strip's first column to the end */
	char *line = xmalloc(room + 1);
	memset(line, ' ', room);
	line[room] = '\0';
	/* a label every step: the shortest nice length whose labels fit
	 * with two blanks between them */
	uint64_t step = tl_nice_bucket(tl->bucket_ns, 1);  /* the bucket's length, or the next nice one */
	char buf[64];
	for (;;) {
		int d = decimals(step);
		int w = snprintf(buf, sizeof buf, "%.*f", d, (double)tl->span_ns / 1e9);
		if ((double)step / (double)tl->bucket_ns >= (double)w + 2 || step > UINT64_MAX / 10)
			break;
		uint64_t m = step;
		while (m >= 10 && m % 10 == 0)
			m /= 10;
		step = m == 2 ? step / 2 * 5 : step * 2;   /* 1, 2, 5, 10, 20, ... */
	}
	int d = decimals(step);
	size_t next = 0;                       /* the first column free for a label */
	for (uint64_t t = 0; t <= (uint64_t)tl->nbuckets * tl->bucket_ns; t += step) {
		size_t col = (size_t)(t / tl->bucket_ns);
		int w = snprintf(buf, sizeof buf, "%.*f", d, (double)t / 1e9);
		if (col >= next && col + (size_t)w <= room) {
			memcpy(line + col, buf, (size_t)w);
			next = col + (size_t)w + 1;
		}
		if (t > UINT64_MAX - step)
			break;
	}
	size_t end = room;
	while (end > 0 && line[end - 1] == ' ')
		end--;
	line[end] = '\0';
	put_cell("seconds", label, out);
	fprintf(out, "  %s\n", line);
	free(line);
}

void tl_print_text(const struct timeline *tl, const struct pset *s, size_t width, int full_names, FILE *out)
{
	const size_t nb = tl->nbuckets;
	size_t label, strip;
	char a[32], b[32], *text;
	tl_layout(tl, s, width, full_names, &label, &strip);
	if (label + 4 + nb + SHARE_COLS > width)
		width = label + 4 + nb + SHARE_COLS;   /* cannot happen with tl_layout's strip */

	/* the summary and the legend */
	snprintf(a, sizeof a, "%.3f", (double)tl->span_ns / 1e9);
	tl_seconds(tl->bucket_ns, b);
	if (tl->by == TL_BY_FUNCTION) {
		text = xasprintf("%zu of %zu functions, %llu samples in %s" NBSP "s; a" NBSP "column" NBSP "is" NBSP "%s" NBSP "s; a cell: the "
				 "function's share of the column's samples: %s", tl->nrows, tl->functions,
				 (unsigned long long)tl->total, a, b, LEGEND);
	} else {
		size_t threads = tl->nrows;
		const struct profile *p = &s->profiles[0];
		char *who = s->nprofiles == 1 ? xasprintf("%s (pid %u)", p->command, p->hdr.pid)
				: xasprintf("%zu processes", s->nprofiles);
		char *ewho = esc_dup(who);
		const char *fill = "the samples of a thread running all through it";
		if (!measures_time(p))
			fill = "the most samples of any cell";
		char rate[64] = "";
		if (s->nprofiles == 1 && measures_time(p) && p->hdr.period_requested_ns && tl->nrows)
			snprintf(rate, sizeof rate, " (%.1f" NBSP "at" NBSP "%.0f" NBSP "Hz)", tl->rows[0].per_bucket,
				 1e9 / (double)p->hdr.period_requested_ns);
		text = xasprintf("%s: %zu thread%s, %llu samples in %s" NBSP "s; a" NBSP "column" NBSP "is" NBSP "%s" NBSP "s; a cell: its samples "
				 "over %s%s: %s", ewho, threads, threads == 1 ? "" : "s", (unsigned long long)tl->total,
				 a, b, fill, rate, LEGEND);
		free(who);
		free(ewho);
	}
	put_wrapped(text, width, out);
	free(text);

	/* the rows */
	double *cells = xmalloc((tl->nrows ? tl->nrows : 1) * (nb ? nb : 1) * sizeof *cells);
	unsigned char *coarse = xmalloc(nb ? nb : 1);
	tl_cells(tl, cells, coarse);
	put_cell(tl->by == TL_BY_FUNCTION ? "function" : "tid thread", label, out);
	fprintf(out, "  %*s  %*s\n", (int)nb, "", SHARE_COLS, "share");
	size_t shown_profile = SIZE_MAX;
	char *line = xmalloc(nb + 1);
	for (size_t r = 0; r < tl->nrows; r++) {
		const struct tl_row *row = &tl->rows[r];
		if (several(tl, s) && row->profile != shown_profile) {
			const struct profile *p = &s->profiles[row->profile];
			char *h = xasprintf("pid %u %s", p->hdr.pid, p->command), *eh = esc_dup(h);
			char *cut = text_cut(eh, width, cut_mark());
			fprintf(out, "%s\n", cut);
			free(cut);
			free(eh);
			free(h);
			shown_profile = row->profile;
		}
		char *l = row_label(tl, s, r, full_names);
		char *il = several(tl, s) ? xasprintf("  %s", l) : xstrdup(l);
		put_cell(il, label, out);
		free(il);
		free(l);
		for (size_t k = 0; k < nb; k++)
			line[k] = tl_grade(cells[r * nb + k]);
		line[nb] = '\0';
		fprintf(out, " |%s| %5.1f%%\n", line, share_percent(row->samples, tl->total));
	}
	if (tl->ncoarse) {
		for (size_t k = 0; k < nb; k++)
			line[k] = coarse[k] ? '~' : ' ';
		line[nb] = '\0';
		put_cell("~ coarse", label, out);
		fprintf(out, "  %s\n", line);
	}
	free(line);
	put_axis(tl, label, width, out);

	/* what the strips leave out or spread */
	if (tl->coarse_samples) {
		snprintf(a, sizeof a, "%.3f", (double)tl->coarse_from_ns / 1e9);
		tl_seconds(tl->coarse_len_ns, b);
		if (tl->by == TL_BY_FUNCTION)
			text = xasprintf("~ coarse: %llu samples (%.1f%%) from %s" NBSP "s on are known only to their "
					 "%s" NBSP "s bucket and thread (the time log was full), not their function: they are "
					 "in the shares, not in the strips", (unsigned long long)tl->coarse_samples,
					 share_percent(tl->coarse_samples, tl->total), a, b);
		else
			text = xasprintf("~ coarse: %llu samples (%.1f%%) from %s" NBSP "s on are known only to their "
					 "%s" NBSP "s bucket (the time log was full): drawn spread evenly over it",
					 (unsigned long long)tl->coarse_samples, share_percent(tl->coarse_samples, tl->total),
					 a, b);
		put_wrapped(text, width, out);
		free(text);
	}
	if (tl->untimed) {
		text = xasprintf("%llu samples (%.1f%%) have no time (the time log and the buckets were full): "
				 "they are in the shares, not in the strips", (unsigned long long)tl->untimed,
				 share_percent(tl->untimed, tl->total));
		put_wrapped(text, width, out);
		free(text);
	}
	free(cells);
	free(coarse);
}

void tl_print_tsv(const struct timeline *tl, const struct pset *s, FILE *out)
{
	const size_t nb = tl->nbuckets;
	char a[32], b[32];
	if (tl->by == TL_BY_FUNCTION) {
		fputs("start_s\tlength_s\tmodule\tfunction\tsamples\tbucket_samples\n", out);
		tl_seconds(tl->bucket_ns, b);
		for (size_t k = 0; k < nb; k++)
			for (size_t r = 0; r < tl->nrows; r++) {
				uint64_t n = tl->counts[r * nb + k];
				if (n == 0)
					continue;
				fprintf(out, "%s\t%s\t", tl_seconds((uint64_t)k * tl->bucket_ns, a), b);
				put_tsv_field(tl->rows[r].module, out);
				fputc('\t', out);
				put_tsv_field(tl->rows[r].function, out);
				fprintf(out, "\t%llu\t%llu\n", (unsigned long long)n, (unsigned long long)tl->bucket_total[k]);
			}
		return;
	}
	fputs("start_s\tlength_s\tpid\ttid\tthread\tsamples\n", out);
	size_t c = 0;
	for (size_t k = 0; k <= nb; k++) {
		uint64_t start = (uint64_t)k * tl->bucket_ns;
		/* the coarse buckets that start before this bucket, then its lines */
		for (; c < tl->ncoarse && (k == nb || tl->coarse[c].start_ns < start); c++) {
			const struct tl_coarse *x = &tl->coarse[c];
			if (x->row == SIZE_MAX)
				continue;
			const struct tl_row *row = &tl->rows[x->row];
			const struct profile *p = &s->profiles[row->profile];
			const struct profile_thread *t = row->thread ? &p->threads[row->thread - 1] : NULL;
			fprintf(out, "%s\t%s\t%u\t%u\t", tl_seconds(x->start_ns, a), tl_seconds(x->len_ns, b), p->hdr.pid,
				t ? t->tid : 0);
			put_tsv_field(t ? t->name : "?", out);
			fprintf(out, "\t%llu\n", (unsigned long long)x->count);
		}
		if (k == nb)
			break;
		for (size_t r = 0; r < tl->nrows; r++) {
			uint64_t n = tl->counts[r * nb + k];
			if (n == 0)
				continue;
			const struct tl_row *row = &tl->rows[r];
			const struct profile *p = &s->profiles[row->profile];
			const struct profile_thread *t = row->thread ? &p->threads[row->thread - 1] : NULL;
			fprintf(out, "%s\t%s\t%u\t%u\t", tl_seconds(start, a), tl_seconds(tl->bucket_ns, b), p->hdr.pid,
				t ? t->tid : 0);
			put_tsv_field(t ? t->name : "?", out);
			fprintf(out, "\t%llu\n", (unsigned long long)n);
		}
	}
}
