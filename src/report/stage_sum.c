/*
 * stage_sum.c - the sum stage: group rows by the chosen columns, add up
 * their samples, sort the groups and print each with its share,
 * cumulative share and standard error (stats.h), as aligned text with a
 * summary, or as TSV; and the options `pct sum` and `pct report` share
 * (stages.h).
 */
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "modfile.h"
#include "pset.h"
#include "aggregate.h"
#include "escape.h"
#include "names.h"
#include "stages.h"
#include "stats.h"
#include "tsv.h"
#include "u64map.h"
#include "util.h"

/* A span of time: ms below a second, else seconds. */
static void put_span(FILE *out, double ns)
{
	if (ns < 1e9)
		fprintf(out, "%.1f ms", ns / 1e6);
	else
		fprintf(out, "%.3f seconds", ns / 1e9);
}

/*
 * The CPU time that the samples do not cover, and why when it is known:
 * (i) the time before sampling started in each process (cpu_before_ns);
 * (ii) samples fewer than the CPU time at the requested period expects,
 * by more than noise (stats_shortfall).  Dropped samples are counted as
 * taken here: they have their own line.
 */
static void print_unsampled(FILE *out, const struct stage_meta *m, uint64_t total)
{
	if (!m->have || strcmp(m->dimension, "seconds") != 0 ||
	    (strcmp(m->event, "cpu") != 0 && strcmp(m->event, "user") != 0))
		return;
	if (m->cpu_before_ns) {
		fputs("# not sampled: ", out);
		put_span(out, (double)m->cpu_before_ns);
		if (strcmp(m->mechanism, "perf-attach") == 0 || strcmp(m->mechanism, "ptrace") == 0)
			fprintf(out, " of CPU time before sampling started (before pct attached; after an exec, the "
				"earlier program)\n");
		else
			fprintf(out, " of CPU time before sampling started (the dynamic loader, constructors; after an "
				"exec, the earlier program)\n");
	}
	if (m->incomplete)
		fprintf(out, "# not sampled: the CPU time after the last sample of %llu profile%s whose process did "
			"not finish sampling (it exec'd, called _exit, or was killed; or it still runs)\n",
			(unsigned long long)m->incomplete, m->incomplete == 1 ? "" : "s");
	double share;
	if (m->expected < 0 || !stats_shortfall(total + m->dropped, m->expected, &share))
		return;
	fputs("# not sampled: ", out);
	put_span(out, share * (double)m->cpu_ns);
	fprintf(out, " (%.1f%%) of the CPU time above: %llu samples where one per requested period (", 100 * share,
		(unsigned long long)(total + m->dropped));
	put_span(out, (double)m->cpu_ns / m->expected);
	fprintf(out, ") expects %.0f, more than %.0f standard deviations short; ", m->expected, STATS_SHORTFALL_Z);
	if (strcmp(m->event, "user") == 0 || strcmp(m->mechanism, "perf") == 0)
		fputs("the CPU time includes system time, which user-time sampling does not see, and samples may "
		      "have been lost\n", out);
	else if (strcmp(m->mechanism, "perf-attach") == 0 || strcmp(m->mechanism, "ptrace") == 0)
		fputs("threads that used less than a period while pct was attached, or ended between its looks, "
		      "take no sample\n", out);
	else
		fputs("threads that block pct's signal, and timer expirations lost (threads shorter than a "
		      "period, expirations the kernel merged), take no sample\n", out);
}

static void print_summary(FILE *out, const struct stage_meta *m, uint64_t total)
{
	if (m->files == 1 && m->cmdline) {
		fputs("# ", out);
		esc_fputs(m->file, out);
		fputs(": pid ", out);
		esc_fputs(m->pid, out);
		fputs(": ", out);
		esc_fputs(m->cmdline, out);
		fputc('\n', out);
	} else if (m->files > 1)
		fprintf(out, "# %zu files summed\n", m->files);
	fprintf(out, "# %llu samples", (unsigned long long)total);
	if (m->have) {
		if (strcmp(m->dimension, "seconds") != 0) {
			/* a count: cpu_ns holds events, samples x period */
			fputs(" of ", out);
			esc_fputs(m->event, out);
			fprintf(out, " (%llu ", (unsigned long long)m->cpu_ns);
			esc_fputs(m->dimension, out);
			fprintf(out, " in all, one sample per %.0f)",
				stats_period(m->cpu_ns, total + m->dropped));
		} else {
			double rate = stats_rate_hz(total + m->dropped, m->cpu_ns);
			const char *what = strcmp(m->event, "wall") == 0 ? "wall-clock time (all threads)"
					 : strcmp(m->event, "user") == 0 ? "user CPU time" : "CPU time";
			fprintf(out, " over %.3f %s of %s", (double)m->cpu_ns / 1e9, m->dimension, what);
			if (rate > 0)
				fprintf(out, ", effective rate %.1f Hz (period %.3f ms)", rate, 1e3 / rate);
		}
	}
	if (m->live)
		fprintf(out, ", so far: still running (%llu file%s being written)", (unsigned long long)m->live,
			m->live == 1 ? "" : "s");
	fprintf(out, "\n");
	if (m->sliced) {
		fprintf(out, "# --time: only the samples taken from %.3f s ", m->slice_from_ns / 1e9);
		if (m->slice_to_ns == UINT64_MAX)
			fputs("after the start to the end\n", out);
		else
			fprintf(out, "to %.3f s after the start\n", m->slice_to_ns / 1e9);
	} else {
		print_unsampled(out, m, total);  /* (of a whole run's CPU time) */
	}
	if (m->dropped && strcmp(m->mechanism, "ptrace") == 0)
		fprintf(out, "# %llu more periods passed between the ptrace sampler's wakes, not sampled (counted in "
			"the effective rate; the shares are of the samples taken)\n", (unsigned long long)m->dropped);
	else if (m->dropped)
		fprintf(out, "# %llu more samples were dropped: the sample table was full (raise $PCT_SLOTS), "
			"or the file system had no room for more of the profile\n",
			(unsigned long long)m->dropped);
	fprintf(out, "# %s: one standard error: of samples, sqrt(samples) (Poisson); of percent, sqrt(p(1-p)/N) (binomial); 95%% CI: Wilson score interval of the share\n", plus_minus());
	char over[400];
	if (profile_overruns_note(&m->overruns, over, sizeof over))
		fprintf(out, "# %s\n", over);
	fprintf(out, "# resolution: any two shares that differ by more than %.2f points differ at 95%% "
		"(1.96/sqrt(samples)); small rows resolve finer\n", stats_resolution_percent(total));
}

/* The text form of a key value: module paths print as base names.  It is
 * printed escaped (escape.h), and its width is the escaped form's. */
static const char *shown(const char *key, const char *value)
{
	return strcmp(key, "module") == 0 ? path_base(value) : value;
}

/* The total (inclusive) samples of row i's function, or -1 without
 * totals. */
static long long row_total(const struct agg *a, size_t i, char **keys, const struct sum_opts *o)
{
	if (o->totals == NULL || a->nkeys != 2 || strcmp(keys[0], "module") != 0 || strcmp(keys[1], "function") != 0)
		return -1;
	long r = agg_find(o->totals, a->rows[i].key);
	return r < 0 ? 0 : (long long)o->totals->rows[r].samples;
}

/* Does the table of rows [0, rows) carry the total columns (row_total)? */
static int has_totals(const struct agg *a, char **keys, size_t rows, const struct sum_opts *o)
{
	return rows && row_total(a, 0, keys, o) >= 0;
}

/* The count row i is judged by: its total with --sort=total (and
 * totals), else its own samples.  --min-samples, --percent-limit and the
 * '?' mark all use it, as the rows are sorted by it. */
static uint64_t row_sort_count(const struct agg *a, size_t i, char **keys, const struct sum_opts *o)
{
	long long t = o->sort_total ? row_total(a, i, keys, o) : -1;
	return t >= 0 ? (uint64_t)t : a->rows[i].samples;
}

/* The samples the sort column's percent is of. */
static uint64_t sort_count_of(const struct agg *a, char **keys, const struct sum_opts *o)
{
	return o->sort_total && a->nrows && row_total(a, 0, keys, o) >= 0 ? o->totals_of : a->total;
}

/* Is row i under --min-samples or --percent-limit? */
static int row_hidden(const struct agg *a, size_t i, char **keys, const struct sum_opts *o)
{
	uint64_t n = row_sort_count(a, i, keys, o), of = sort_count_of(a, keys, o);
	if (n < o->min_samples)
		return 1;
	return o->percent_limit > 0 && (of == 0 || 100.0 * (double)n / (double)of < o->percent_limit);
}

/* The rows shown: at most limit, none that row_hidden hides (rows are
 * sorted by the count it judges, so those are all at the end). */
static size_t shown_rows(const struct agg *a, char **keys, const struct sum_opts *o)
{
	size_t rows = 0;
	while (rows < a->nrows && rows < o->limit && !row_hidden(a, rows, keys, o))
		rows++;
	return rows;
}

/* --sort=total: the rows in the order of their functions' totals
 * (descending, then by key), the rows without a total after them. */
static void sort_by_total(struct agg *a, const struct agg *totals)
{
	struct agg order = { .nkeys = totals->nkeys };
	for (size_t i = 0; i < totals->nrows; i++)
		agg_add(&order, totals->rows[i].key, totals->rows[i].samples);
	agg_sort(&order);
	agg_order_by(a, &order);
	agg_free(&order);
}

/* What the text and the TSV print of a row: counts in samples, the rest
 * in percent. */
struct row_figures {
	uint64_t samples;              /* the row's samples */
	double stderr_samples;         /* their standard error (stats_stderr) */
	double pct, stderr_pct;        /* their share of a->total and its standard error */
	double lo, hi;                 /* the share's 95% Wilson interval */
	double cum;                    /* the share of the rows up to this one */
	long long total;               /* with totals: its function's total samples; else 0 */
	double total_pct;              /* total's share of o->totals_of; 0 without one */
};

/* Row i's figures into *f, the rows being printed in order from 0 with f
 * zeroed before the first: f->cum is the share of the rows before i on
 * entry and of those up to i on return.  totals as has_totals says.  No
 * errors. */
static void row_figures(const struct agg *a, size_t i, char **keys, const struct sum_opts *o, int totals,
			struct row_figures *f)
{
	f->samples = a->rows[i].samples;
	f->stderr_samples = stats_stderr(f->samples);
	f->pct = a->total ? 100.0 * (double)f->samples / (double)a->total : 0;
	f->stderr_pct = stats_stderr_percent(f->samples, a->total);
	stats_wilson(f->samples, a->total, STATS_Z95, &f->lo, &f->hi);
	f->lo *= 100;
	f->hi *= 100;
	f->cum += f->pct;
	f->total = totals ? row_total(a, i, keys, o) : 0;
	f->total_pct = totals && o->totals_of ? 100.0 * (double)f->total / (double)o->totals_of : 0.0;
}

/* Is key a function name (shortened in text unless --full-names)? */
static int is_function_key(const char *key)
{
	return strcmp(key, "function") == 0 || strcmp(key, "caller") == 0 || strcmp(key, "callee") == 0;
}

/* Strings made for the text's cells, with their widths in columns, to
 * free at the end. */
struct cells {
	char **s;
	size_t *cols;
	size_t n, cap, capcols;
};

/* The length of s when it is printable ASCII only, which escaping passes
 * as it is and whose every byte is a column; else -1.  (Rows by address:
 * 10^7 lines, whose escaping and counting of columns cost more than their
 * figures.) */
static long ascii_len(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	for (; *p; p++)
		if (*p < 0x20 || *p > 0x7e)
			return -1;
	return (long)(p - (const unsigned char *)s);
}

/* The text of a key's cell, and its width in *cols: value as shown
 * (escaped; a function's name shortened if shorten), value itself when
 * that is what it shows; else made once per value string (memo: its
 * pointer -> the made cell + 1; the agg mostly keeps one copy of equal
 * strings). */
static const char *cell_text(const char *key, const char *value, int shorten, struct u64map *memo,
			     struct cells *made, size_t *cols)
{
	const char *plain = shown(key, value);
	long n;
	if (!shorten && (n = ascii_len(plain)) >= 0) {
		*cols = (size_t)n;
		return plain;
	}
	uint64_t *m = u64map_slot(memo, (uintptr_t)value);
	if (*m == 0) {
		char *s = shorten ? name_short(plain) : xstrdup(plain);
		if (esc_len(s) != strlen(s)) {
			char *e = esc_dup(s);
			free(s);
			s = e;
		}
		grow(&made->s, &made->cap, made->n + 1, sizeof *made->s);
		grow(&made->cols, &made->capcols, made->n + 1, sizeof *made->cols);
		made->s[made->n] = s;
		made->cols[made->n] = text_columns(s);
		*m = ++made->n;
	}
	*cols = made->cols[*m - 1];
	return made->s[*m - 1];
}

/* A line of text being put together, written at once. */
struct line {
	char *b;
	size_t n, cap;
};

static void line_put(struct line *l, const char *s, size_t len)
{
	grow(&l->b, &l->cap, l->n + len + 1, 1);
	memcpy(l->b + l->n, s, len);
	l->n += len;
}

static void line_str(struct line *l, const char *s)
{
	line_put(l, s, strlen(s));
}

static void line_pad(struct line *l, int n)
{
	for (; n > 0; n -= 32)
		line_put(l, "                                ", n < 32 ? (size_t)n : 32);
}

/*
 * v as printf's "%*.*f" (width, prec 1 or 2) at the end of buf, whose end
 * is *at; its start is returned.  Integer arithmetic (printf's decimal
 * conversion cost 3 s of 10^7 rows' report), and printf itself where v
 * is not plain (negative, huge, not finite) or within 10^-7 of a halfway
 * point, where only printf's exact rounding decides.
 */
static char *put_fixed(char *buf, size_t size, double v, int width, int prec)
{
	double scaled = v * (prec == 1 ? 10.0 : 100.0), fl;
	if (!(v >= 0 && v < 1e12) || fabs(scaled - (fl = floor(scaled)) - 0.5) < 1e-7) {
		snprintf(buf, size, "%*.*f", width, prec, v);
		return buf;
	}
	uint64_t r = (uint64_t)fl + (scaled - fl > 0.5);
	char *p = buf + size - 1;
	*p = '\0';
	for (int k = 0; k < prec; k++, r /= 10)
		*--p = (char)('0' + r % 10);
	*--p = '.';
	do
		*--p = (char)('0' + r % 10);
	while ((r /= 10) != 0);
	while (buf + size - 1 - p < width)
		*--p = ' ';
	return p;
}

/* n as printf's "%*llu". */
static char *put_count(char *buf, size_t size, uint64_t n, int width)
{
	char *p = buf + size - 1;
	*p = '\0';
	do
		*--p = (char)('0' + n % 10);
	while ((n /= 10) != 0);
	while (buf + size - 1 - p < width)
		*--p = ' ';
	return p;
}

/* Key column widths are capped so one long name does not push the others
 * off the screen. */
#define SUM_KEY_WIDTH 48

static void print_text(FILE *out, const struct agg *a, char **keys, size_t rows, const struct sum_opts *o)
{
	size_t nk = a->nkeys, ord[16];
	/* the order keys are shown in: as given, or module last by default,
	 * so the function comes right after the numbers */
	for (size_t k = 0, n = 0; k < nk; k++)
		if (o->long_columns || nk == 1 || strcmp(keys[k], "module") != 0)
			ord[n++] = k;
	if (!o->long_columns && nk > 1)
		for (size_t k = 0, n = 0; k < nk; k++)
			if (strcmp(keys[k], "module") == 0)
				ord[nk - 1 - n++] = k;
	/* each cell as shown (cell_text): escaped, functions shortened; made
	 * twice, for the widths and for the lines, rather than kept (8 bytes
	 * per key and row: 10^7 rows by address) */
	struct cells made = { 0 };
	struct u64map memo[16] = { 0 };
	int w[16] = { 0 }, shorten[16];
	size_t cols;
	for (size_t k = 0; k < nk; k++) {
		shorten[k] = !o->full_names && is_function_key(keys[k]);
		w[k] = (int)strlen(keys[k]);
	}
	for (size_t i = 0; i < rows; i++)
		for (size_t k = 0; k < nk; k++) {
			cell_text(keys[k], a->rows[i].key[k], shorten[k], &memo[k], &made, &cols);
			int l = (int)cols;
			if (l > w[k])
				w[k] = l > SUM_KEY_WIDTH && !o->width ? SUM_KEY_WIDTH : l;
		}
	int totals = has_totals(a, keys, rows, o);
	/* "±" is two bytes of UTF-8 but one column, "+-" two: pad by hand */
	const char *pm = plus_minus(), *pad = strlen(pm) == 2 && pm[0] == '+' ? "" : " ";
	int before;                    /* the columns before the keys */
	if (o->long_columns) {
		before = 58 + (totals ? 18 : 0);
	} else {
		before = 8 + 14 + 8 + (totals ? 8 : 0);
	}
	if (o->width > 0) {
		/* on a terminal: shrink the widest key column until the row fits,
		 * down to 12 columns (then the line wraps) */
		for (;;) {
			int used = before;
			size_t widest = ord[0];
			for (size_t j = 0; j < nk; j++) {
				used += 2 + w[ord[j]];
				if (w[ord[j]] > w[widest])
					widest = ord[j];
			}
			if (used <= o->width || w[widest] <= 12)
				break;
			w[widest] -= used - o->width < w[widest] - 12 ? used - o->width : w[widest] - 12;
		}
	}
	if (o->long_columns) {
		fprintf(out, " %9s %5s%s%s %7s %4s%s%s %15s %7s", "samples", "", pad, pm, "percent", "", pad, pm,
			"95% CI", "cum%");
		if (totals)
			fprintf(out, " %9s %7s", "total", "total%");
	} else {
		fprintf(out, "%8s %13s %7s", "percent", "95% CI ", "samples");
		if (totals)
			fprintf(out, " %7s", "total%");
	}
	for (size_t j = 0; j < nk; j++)
		fprintf(out, "  %-*s", j + 1 < nk ? w[ord[j]] : 0, keys[ord[j]]);
	fputc('\n', out);
	struct row_figures f = { 0 };
	struct line ln = { 0 };
	char b[4][32];
	size_t figures = 0;            /* the bytes of the last line's figures */
	for (size_t i = 0; i < rows; i++) {
		/* without totals, rows of as many samples have the same figures
		 * (10^7 rows by address: three counts), but for cum */
		int same = !o->long_columns && !totals && i > 0 && a->rows[i].samples == a->rows[i - 1].samples;
		if (same)
			f.cum += f.pct;
		else
			row_figures(a, i, keys, o, totals, &f);
		const char *few = row_sort_count(a, i, keys, o) < SUM_FEW_SAMPLES ? "?" : " ";
		ln.n = 0;
		if (same) {
			ln.n = figures;        /* still at the start of the buffer */
		} else if (o->long_columns) {
			/* a stderr of 2^64 samples is 20 digits: 512 bytes hold any */
			char fig[512];
			int n = snprintf(fig, sizeof fig, "%s%9llu %7.0f %6.2f%% %5.2f%% [%5.2f, %5.2f] %6.2f%%", few,
					 (unsigned long long)f.samples, f.stderr_samples, f.pct, f.stderr_pct, f.lo,
					 f.hi, f.cum);
			if (totals && n >= 0 && (size_t)n < sizeof fig)
				n += snprintf(fig + n, sizeof fig - (size_t)n, " %9lld %6.2f%%", f.total, f.total_pct);
			line_put(&ln, fig, n < 0 ? 0 : (size_t)n < sizeof fig ? (size_t)n : sizeof fig - 1);
		} else {
			/* "%s%6.2f%% [%5.1f,%5.1f] %7llu" */
			line_str(&ln, few);
			line_str(&ln, put_fixed(b[0], sizeof b[0], f.pct, 6, 2));
			line_put(&ln, "% [", 3);
			line_str(&ln, put_fixed(b[1], sizeof b[1], f.lo, 5, 1));
			line_put(&ln, ",", 1);
			line_str(&ln, put_fixed(b[2], sizeof b[2], f.hi, 5, 1));
			line_put(&ln, "] ", 2);
			line_str(&ln, put_count(b[3], sizeof b[3], f.samples, 7));
			if (totals) {
				line_put(&ln, " ", 1);
				line_str(&ln, put_fixed(b[0], sizeof b[0], f.total_pct, 6, 2));
				line_put(&ln, "%", 1);
			}
		}
		figures = ln.n;
		for (size_t j = 0; j < nk; j++) {
			size_t k = ord[j];
			const char *val = cell_text(keys[k], a->rows[i].key[k], shorten[k], &memo[k], &made, &cols);
			char *cut = o->width > 0 && cols > (size_t)w[k] ? text_cut(val, (size_t)w[k], cut_mark()) : NULL;
			if (cut) {
				val = cut;
				cols = text_columns(val);
			}
			if (j + 1 < nk || *val) {
				line_put(&ln, "  ", 2);
				line_str(&ln, val);
			}
			if (j + 1 < nk)
				line_pad(&ln, w[k] - (int)cols);
			free(cut);
		}
		line_put(&ln, "\n", 1);
		fwrite(ln.b, 1, ln.n, out);
	}
	free(ln.b);
	for (size_t k = 0; k < nk; k++)
		u64map_free(&memo[k]);
	for (size_t i = 0; i < made.n; i++)
		free(made.s[i]);
	free(made.s);
	free(made.cols);
	if (rows < a->nrows) {
		fprintf(out, "# %zu more rows, %.2f%% of the samples", a->nrows - rows, 100.0 - f.cum);
		if (rows < a->nrows && row_hidden(a, rows, keys, o)) {
			const char *col = o->sort_total && totals ? " in total" : "";
			if (o->min_samples && row_sort_count(a, rows, keys, o) < o->min_samples)
				fprintf(out, " (rows of fewer than %llu samples%s hidden)",
					(unsigned long long)o->min_samples, col);
			else
				fprintf(out, " (rows under %g%%%s hidden)", o->percent_limit, col);
		}
		fputc('\n', out);
	}
	for (size_t i = 0; i < rows; i++)
		if (row_sort_count(a, i, keys, o) < SUM_FEW_SAMPLES) {
			fprintf(out, "# ?: fewer than %d samples%s, a relative error above 30%%\n", SUM_FEW_SAMPLES,
				o->sort_total && totals ? " in total (the sort column)" : "");
			break;
		}
}

static void print_tsv(FILE *out, const struct agg *a, char **keys, size_t rows, const struct sum_opts *o)
{
	fprintf(out, "samples\tstderr\tpercent\tstderr_percent\tci_low\tci_high\tcum_percent");
	int totals = has_totals(a, keys, rows, o);
	if (totals)
		fprintf(out, "\ttotal\ttotal_percent");
	for (size_t k = 0; k < a->nkeys; k++)
		fprintf(out, "\t%s", keys[k]);
	fputc('\n', out);
	struct row_figures f = { 0 };
	for (size_t i = 0; i < rows; i++) {
		row_figures(a, i, keys, o, totals, &f);
		fprintf(out, "%llu\t%.3f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f", (unsigned long long)f.samples,
			f.stderr_samples, f.pct, f.stderr_pct, f.lo, f.hi, f.cum);
		if (totals)
			fprintf(out, "\t%lld\t%.4f", f.total, f.total_pct);
		for (size_t k = 0; k < a->nkeys; k++) {
			fputc('\t', out);
			esc_fputs(a->rows[i].key[k], out);
		}
		fputc('\n', out);
	}
}

int sum_keys_parse(const struct sum_opts *o, struct sum_keys *k, struct error *e)
{
	char *save = NULL;
	k->by = o->split ? xasprintf("%s,%s", o->split, o->by) : xstrdup(o->by);
	k->nkeys = 0;
	for (char *key = strtok_r(k->by, ",", &save); key; key = strtok_r(NULL, ",", &save)) {
		if (k->nkeys == 16) {
			free(k->by);
			k->by = NULL;
			return error_set(e, 2, "sum: at most 16 keys");
		}
		k->keys[k->nkeys++] = key;
	}
	if (k->nkeys == 0) {
		free(k->by);
		k->by = NULL;
		return error_set(e, 2, "sum: --by needs at least one column");
	}
	return 0;
}

void sum_print(FILE *out, struct agg *a, char **keys, const struct stage_meta *m, const struct sum_opts *o)
{
	/* -g: functions with a total but no samples of their own get a row */
	if (o->totals && a->nkeys == 2 && strcmp(keys[0], "module") == 0 && strcmp(keys[1], "function") == 0)
		for (size_t i = 0; i < o->totals->nrows; i++)
			if (agg_find(a, o->totals->rows[i].key) < 0)
				agg_add(a, o->totals->rows[i].key, 0);
	agg_sort(a);
	if (o->sort_total && o->totals && a->nkeys == 2 && strcmp(keys[0], "module") == 0 &&
	    strcmp(keys[1], "function") == 0)
		sort_by_total(a, o->totals);
	/* by process: in the set's order (a tree's), every process listed,
	 * one without samples as a row of 0 */
	const struct agg *procs = &m->processes;
	if (procs->nrows && a->nkeys == 2 && strcmp(keys[0], "pid") == 0 && strcmp(keys[1], "command") == 0) {
		for (size_t i = 0; i < procs->nrows; i++)
			if (agg_find(a, procs->rows[i].key) < 0)
				agg_add(a, procs->rows[i].key, 0);
		agg_order_by(a, procs);
	}
	size_t rows = shown_rows(a, keys, o);
	if (o->tsv) {
		print_tsv(out, a, keys, rows, o);
		return;
	}
	print_summary(out, m, a->total);
	print_text(out, a, keys, rows, o);
	if (o->totals) {
		fprintf(out, "# total: samples whose call stack holds the function (self + callees), "
			     "of %llu samples with stacks\n", (unsigned long long)o->totals_of);
	}
}

int stage_sum(FILE *in, const char *name, FILE *out, const struct sum_opts *o, struct error *e)
{
	struct sum_keys k;
	struct tsv t = { 0 };
	struct agg a = { 0 };
	if (sum_keys_parse(o, &k, e) != 0)
		return -1;
	char err[512];
	if (tsv_open(&t, in, name, err, sizeof err) != 0) {
		error_set(e, 1, "%s", err);
		goto fail;
	}
	int cs = tsv_column(&t, "samples"), col[16];
	if (cs < 0) {
		error_set(e, 1, "%s: no 'samples' column", name);
		goto fail;
	}
	for (size_t i = 0; i < k.nkeys; i++)
		if ((col[i] = tsv_column(&t, k.keys[i])) < 0) {
			error_set(e, 2, "%s: no '%s' column to group by", name, k.keys[i]);
			goto fail;
		}

	a.nkeys = k.nkeys;
	char *vals[16];
	int rc;
	while ((rc = tsv_next(&t, err, sizeof err)) > 0) {
		char *end;
		unsigned long long n = strtoull(t.fields[cs], &end, 10);
		if (*end || t.fields[cs][0] == '\0' || t.fields[cs][0] == '-') {
			error_set(e, 1, "%s:%lu: bad samples '%s'", name, t.lineno, t.fields[cs]);
			goto fail;
		}
		for (size_t i = 0; i < k.nkeys; i++)
			vals[i] = t.fields[col[i]];
		agg_add(&a, vals, n);
	}
	if (rc < 0) {
		error_set(e, 1, "%s", err);
		goto fail;
	}
	struct stage_meta m;
	stage_meta_parse(t.comments, t.ncomments, &m);
	sum_print(out, &a, k.keys, &m, o);
	stage_meta_free(&m);
	agg_free(&a);
	tsv_close(&t);
	free(k.by);
	return 0;
fail:
	agg_free(&a);
	tsv_close(&t);
	free(k.by);
	return -1;
}

int sum_parse_options(int argc, char **argv, const char *usage_text, int symbols, struct sum_opts *o, const char **by,
		      struct error *e)
{
	static const struct option opts[] = {
		{ "by", required_argument, NULL, 'b' },
		{ "format", required_argument, NULL, 'f' },
		{ "rows", required_argument, NULL, 'n' },
		{ "min-samples", required_argument, NULL, 'm' },
		{ "percent-limit", required_argument, NULL, 'P' },
		{ "sort", required_argument, NULL, 'S' },
		{ "split", required_argument, NULL, 's' },
		{ "long", no_argument, NULL, 'l' },
		{ "full-names", no_argument, NULL, 'F' },
		MODFILE_LONG_OPTIONS,
		PSET_SELECT_LONG_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	char *end;
	o->tsv = 0;
	o->limit = SIZE_MAX;
	o->min_samples = 0;
	o->percent_limit = 0;
	o->sort_total = 0;
	o->split = NULL;
	o->totals = NULL;
	o->totals_of = 0;
	o->long_columns = 0;
	o->full_names = 0;
	o->width = term_columns(STDOUT_FILENO);
	while ((c = getopt_long(argc, argv, "n:lh", opts, NULL)) != -1) {
		switch (c) {
		case 'l':
			o->long_columns = 1;
			break;
		case 'F':
			o->full_names = 1;
			break;
		case 'b':
			*by = optarg;
			break;
		case 'f':
			if (strcmp(optarg, "text") != 0 && strcmp(optarg, "tsv") != 0)
				return error_set(e, 2, "%s: unknown --format '%s' (text or tsv)", argv[0], optarg);
			o->tsv = strcmp(optarg, "tsv") == 0;
			break;
		case 'n':
			o->limit = strtoul(optarg, &end, 10);
			if (*end || optarg[0] == '-' || optarg[0] == '\0')
				return error_set(e, 2, "%s: -n wants a number of rows, not '%s'", argv[0], optarg);
			break;
		case 's':
			if (strcmp(optarg, "thread") == 0)
				o->split = "pid,tid,thread";
			else if (strcmp(optarg, "process") == 0)
				o->split = "pid,command";
			else
				return error_set(e, 2, "%s: unknown --split '%s' (thread or process)", argv[0], optarg);
			break;
		case 'm':
			o->min_samples = strtoull(optarg, &end, 10);
			if (*end || optarg[0] == '-' || optarg[0] == '\0')
				return error_set(e, 2, "%s: --min-samples wants a number, not '%s'", argv[0], optarg);
			break;
		case 'P':
			o->percent_limit = strtod(optarg, &end);
			if (*end || optarg[0] == '\0' || !(o->percent_limit >= 0 && o->percent_limit <= 100))
				return error_set(e, 2, "%s: --percent-limit wants a percent from 0 to 100, not '%s'",
						 argv[0], optarg);
			break;
		case 'S':
			if (strcmp(optarg, "self") != 0 && strcmp(optarg, "total") != 0)
				return error_set(e, 2, "%s: unknown --sort '%s' (self or total)", argv[0], optarg);
			o->sort_total = strcmp(optarg, "total") == 0;
			break;
		default:
			if (symbols && (modfile_option(c, optarg) || pset_select_option(c, optarg)))
				break;
			e->status = usage_exit(usage_text, c == 'h');
			e->msg = NULL;
			return -1;
		}
	}
	return optind;
}

