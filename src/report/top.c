/* top.c - see top.h. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "live.h"
#include "names.h"
#include "pipeline.h"
#include "stats.h"
#include "top.h"

/* The columns top_update groups by: the report's function view split by
 * thread (pct report --split=thread has them too). */
static char *const top_keys[] = { "module", "function", "pid", "tid", "thread" };
#define TOP_NKEYS (sizeof top_keys / sizeof top_keys[0])

static void rows_free(struct top *t)
{
	for (size_t i = 0; i < t->nrows; i++) {
		free(t->rows[i].module);
		free(t->rows[i].function);
		for (size_t k = 0; k < t->rows[i].nthreads; k++)
			free(t->rows[i].threads[k].label);
		free(t->rows[i].threads);
	}
	free(t->rows);
	t->rows = NULL;
	t->nrows = 0;
}

void top_free(struct top *t)
{
	rows_free(t);
	agg_free(&t->prev);
	memset(&t->prev, 0, sizeof t->prev);
}

static int cmp_thread(const void *pa, const void *pb)
{
	const struct top_thread *a = pa, *b = pb;
	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	return strcmp(a->label, b->label);
}

static int cmp_row(const void *pa, const void *pb)
{
	const struct top_row *a = pa, *b = pb;
	if (a->now != b->now)
		return a->now > b->now ? -1 : 1;
	if (a->run != b->run)
		return a->run > b->run ? -1 : 1;
	int c = strcmp(a->function, b->function);
	return c ? c : strcmp(a->module, b->module);
}

/* A function's name as the report shows it: escaped, shortened unless
 * full (names.h). */
static char *shown_function(const char *name, int full)
{
	if (full)
		return esc_dup(name);
	char *s = name_short(name), *e = esc_dup(s);
	free(s);
	return e;
}

/* The set's facts: what a sample stands for, its processes, threads, the
 * files still written and the run's span. */
static void set_facts(struct top *t, const struct pset *s, int64_t real_ns)
{
	/* processes: distinct pids (an exec'd process wrote a file per program) */
	t->processes = 0;
	for (size_t i = 0; i < s->nprofiles; i++) {
		size_t j = 0;
		while (j < i && s->profiles[j].hdr.pid != s->profiles[i].hdr.pid)
			j++;
		t->processes += j == i;
	}
	t->threads = 0;
	t->running = 0;
	int64_t start = INT64_MAX, end = 0;
	int all_complete = 1;
	for (size_t i = 0; i < s->nprofiles; i++) {
		const struct profile *p = &s->profiles[i];
		for (size_t k = 0; k < p->nthreads; k++)
			t->threads += p->threads[k].tid != 0;
		t->running += profile_live(p) == 1;
		all_complete &= p->hdr.state == PCT_STATE_COMPLETE;
		if (p->hdr.start_time_ns > 0 && p->hdr.start_time_ns < start)
			start = p->hdr.start_time_ns;
		if (p->hdr.end_time_ns > end)
			end = p->hdr.end_time_ns;
	}
	if (t->running || !all_complete || end == 0)
		end = real_ns;
	t->run_ns = start != INT64_MAX && end > start ? (uint64_t)(end - start) : 0;
	uint64_t taken = s->total + s->dropped;
	t->per_sample = taken ? stats_period(s->cpu_ns, taken) : 0;
	char *dim = esc_dup(s->profiles[0].hdr.dimension);
	snprintf(t->dimension, sizeof t->dimension, "%s", dim);
	free(dim);
	t->event = (int)s->profiles[0].hdr.event;
}

int top_update(struct top *t, const struct pset *s, uint64_t mono_ns, int64_t real_ns, struct error *e)
{
	struct agg cur = { .nkeys = TOP_NKEYS }, fns = { .nkeys = 2 };
	if (s && s->nprofiles && pipeline_group(s, view_find("function"), top_keys, TOP_NKEYS, &cur, NULL, e) != 0) {
		agg_free(&cur);
		return -1;
	}
	rows_free(t);
	if (s && s->nprofiles)
		set_facts(t, s, real_ns);
	else
		t->per_sample = 0, t->processes = t->threads = t->running = 0;
	/* each (function, thread) row: its function's row number, and the
	 * samples of the run and of the interval */
	uint64_t *now = NULL;
	size_t capnow = 0;
	t->total_now = t->total_run = 0;
	size_t *fn_of = xmalloc((cur.nrows ? cur.nrows : 1) * sizeof *fn_of);
	for (size_t i = 0; i < cur.nrows; i++) {
		const struct agg_row *r = &cur.rows[i];
		long p = t->updates ? agg_find(&t->prev, r->key) : -1;
		uint64_t before = p >= 0 ? t->prev.rows[p].samples : 0;
		uint64_t d = r->samples > before ? r->samples - before : 0;
		size_t had = fns.nrows, f = agg_add(&fns, r->key, r->samples);
		grow(&now, &capnow, fns.nrows, sizeof *now);
		if (fns.nrows > had)
			now[f] = 0;
		now[f] += d;
		fn_of[i] = f;
		t->total_now += d;
		t->total_run += r->samples;
	}
	t->nrows = fns.nrows;
	t->rows = xcalloc(t->nrows ? t->nrows : 1, sizeof *t->rows);
	for (size_t f = 0; f < fns.nrows; f++) {
		t->rows[f].module = esc_dup(path_base(fns.rows[f].key[0]));
		t->rows[f].function = shown_function(fns.rows[f].key[1], t->full_names);
		t->rows[f].now = now[f];
		t->rows[f].run = fns.rows[f].samples;
	}
	size_t *cap = xcalloc(t->nrows ? t->nrows : 1, sizeof *cap);
	for (size_t i = 0; i < cur.nrows; i++) {
		struct top_row *row = &t->rows[fn_of[i]];
		char *const *k = cur.rows[i].key;
		grow(&row->threads, &cap[fn_of[i]], row->nthreads + 1, sizeof *row->threads);
		row->threads[row->nthreads++] = (struct top_thread){ xasprintf("%s/%s", k[4], k[3]), cur.rows[i].samples };
	}
	for (size_t f = 0; f < t->nrows; f++)
		sort(t->rows[f].threads, t->rows[f].nthreads, sizeof *t->rows[f].threads, cmp_thread);
	sort(t->rows, t->nrows, sizeof *t->rows, cmp_row);
	free(cap);
	free(fn_of);
	free(now);
	agg_free(&fns);
	t->interval_ns = t->updates ? mono_ns - t->prev_mono_ns : t->run_ns;
	agg_free(&t->prev);
	t->prev = cur;
	t->prev_mono_ns = mono_ns;
	t->updates++;
	return 0;
}

/* Is the set's dimension time (seconds)? */
static int is_time(const struct top *t)
{
	return strcmp(t->dimension, "seconds") == 0;
}

/* A rate and its 95% interval: n samples over span_ns of wall-clock time,
 * "VALUE [LO-HI]" in the unit top_print's second line states. */
static void put_rate(FILE *out, const struct top *t, uint64_t n, uint64_t span_ns)
{
	if (span_ns == 0 || t->per_sample <= 0) {
		fprintf(out, "%7s %-17s", "-", "");
		return;
	}
	double lo, hi, f = t->per_sample / ((double)span_ns / 1e9);
	char ci[64];
	stats_poisson_score(n, STATS_Z95, &lo, &hi);
	if (is_time(t)) {
		f = f / 1e9 * 100;        /* ns per s -> % */
		snprintf(ci, sizeof ci, "[%.1f-%.1f]", lo * f, hi * f);
		fprintf(out, "%7.1f %-17s", (double)n * f, ci);
	} else {
		snprintf(ci, sizeof ci, "[%.3g-%.3g]", lo * f, hi * f);
		fprintf(out, "%7.3g %-17s", (double)n * f, ci);
	}
}

/* One line of text, cut to width (0: not cut), then a newline. */
static void put_line(FILE *out, char *line, int width)
{
	if (width > 0 && text_columns(line) > (size_t)width) {
		char *c = text_cut(line, (size_t)width, cut_mark());
		fputs(c, out);
		free(c);
	} else
		fputs(line, out);
	fputc('\n', out);
}

/* The line's text so far, as a string to put_line, and a new start. */
static char *take(FILE **w, char **buf, size_t *len)
{
	fclose(*w);
	char *line = *buf;
	*buf = NULL;
	*w = open_memstream(buf, len);
	if (*w == NULL)
		die("out of memory");
	return line;
}

void top_print(const struct top *t, const char *title, size_t rows, int width, FILE *out)
{
	char *buf = NULL, *line;
	size_t len = 0;
	FILE *w = open_memstream(&buf, &len);
	if (w == NULL)
		die("out of memory");
	fputs("pct top - ", w);
	esc_fputs(title, w);
	fprintf(w, " - %zu process%s, %zu thread%s", t->processes, t->processes == 1 ? "" : "es", t->threads,
		t->threads == 1 ? "" : "s");
	if (t->processes)
		fprintf(w, ", %zu running", t->running);
	fprintf(w, " - run %.1f s, last interval %.2f s", t->run_ns / 1e9, t->interval_ns / 1e9);
	put_line(out, line = take(&w, &buf, &len), width);
	free(line);

	const char *what = t->event == PCT_EVENT_WALL ? "wall-clock time" : "CPU time";
	if (t->per_sample <= 0)
		fputs("no samples yet", w);
	else if (is_time(t))
		fprintf(w, "rates in %% of one %s: samples x %.3f ms of %s per second of wall-clock time; "
			"[95%% interval] (Poisson score)", t->event == PCT_EVENT_WALL ? "thread" : "CPU",
			t->per_sample / 1e6, what);
	else
		fprintf(w, "rates in %s per second: samples x %.0f %s per second of wall-clock time; "
			"[95%% interval] (Poisson score)", t->dimension, t->per_sample, t->dimension);
	put_line(out, line = take(&w, &buf, &len), width);
	free(line);

	put_rate(w, t, t->total_now, t->interval_ns);
	put_rate(w, t, t->total_run, t->run_ns);
	fprintf(w, " [all functions: %llu samples in the interval, %llu in the run]",
		(unsigned long long)t->total_now, (unsigned long long)t->total_run);
	put_line(out, line = take(&w, &buf, &len), width);
	free(line);

	fprintf(w, "%7s %-17s %7s %-17s %-32s %-16s %s", "NOW", "[95%]", "RUN", "[95%]", "FUNCTION", "MODULE",
		"THREADS (share of the function's run)");
	put_line(out, line = take(&w, &buf, &len), width);
	free(line);

	for (size_t i = 0; i < t->nrows && i < rows; i++) {
		const struct top_row *r = &t->rows[i];
		put_rate(w, t, r->now, t->interval_ns);
		put_rate(w, t, r->run, t->run_ns);
		fputc(' ', w);
		size_t fc = text_columns(r->function), mc = text_columns(r->module);
		fputs(r->function, w);
		fprintf(w, "%*s ", fc < 32 ? (int)(32 - fc) : 0, "");
		fputs(r->module, w);
		fprintf(w, "%*s ", mc < 16 ? (int)(16 - mc) : 0, "");
		for (size_t k = 0; k < r->nthreads && k < 3; k++)
			fprintf(w, "%s%s %.0f%%", k ? ", " : "", r->threads[k].label,
				r->run ? 100.0 * (double)r->threads[k].samples / (double)r->run : 0.0);
		if (r->nthreads > 3)
			fprintf(w, ", +%zu more", r->nthreads - 3);
		put_line(out, line = take(&w, &buf, &len), width);
		free(line);
	}
	fclose(w);
	free(buf);
}
