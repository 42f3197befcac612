/* diff.c - see diff.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "stats.h"
#include "util.h"

const char *diff_verdict_name(enum diff_verdict v)
{
	static const char *const names[] = { "unresolved", "unchanged", "slower", "faster" };
	return (unsigned)v < sizeof names / sizeof *names ? names[v] : "unresolved";
}

static enum diff_verdict verdict_of(const struct diff_row *r, double min_effect)
{
	if (r->unresolved)
		return DIFF_UNRESOLVED;
	if (r->significant && fabs(r->delta) >= min_effect)
		return r->delta > 0 ? DIFF_SLOWER : DIFF_FASTER;
	if (r->lo > -min_effect && r->hi < min_effect)
		return DIFF_UNCHANGED;
	return DIFF_UNRESOLVED;
}

double diff_runs_df(const struct diff_setup *s)
{
	return (1 + DIFF_PRIOR_DF) * ((double)(s->base_runs + s->new_runs) - 2);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int diff_between_runs(const struct diff_setup *s)
{
	return s->base_runs >= DIFF_MIN_RUNS && s->new_runs >= DIFF_MIN_RUNS && s->run_total && s->run_period;
}

/* Run j's exposure (diff.h): samples in share mode, else samples per
 * second. */
static double exposure(const struct diff_setup *s, size_t j)
{
	return s->share ? (double)s->run_total[j] : (s->run_period[j] > 0 ? 1 / s->run_period[j] : 0);
}

/* A row's fit over runs: each side's sum of counts c[] and exposures e[],
 * and its raw dispersion, Pearson's X^2 / (K - 2). */
static double row_fit(const struct diff_row *r, const struct diff_setup *s, double c[2], double e[2])
{
	size_t nb = s->base_runs, k = s->base_runs + s->new_runs;
	c[0] = c[1] = e[0] = e[1] = 0;
	for (size_t j = 0; j < k; j++) {
		c[j >= nb] += (double)r->runs[j];
		e[j >= nb] += exposure(s, j);
	}
	double x2 = 0;
	for (size_t j = 0; j < k; j++) {
		int g = j >= nb;
		double mu = e[g] > 0 ? c[g] / e[g] * exposure(s, j) : 0;
		if (mu > 0)
			x2 += ((double)r->runs[j] - mu) * ((double)r->runs[j] - mu) / mu;
	}
	return x2 / ((double)k - 2);
}

/*
 * The common cv^2 that each row's is moderated towards (diff.h): the
 * median of (phi - 1) / mean over the named rows with at least
 * DIFF_PRIOR_MIN_COUNT samples a run; 0 if no row qualifies or it is
 * negative.
 */
#define DIFF_PRIOR_MIN_COUNT 10
static double prior_dispersion(const struct diff_row *rows, size_t n, const struct diff_setup *s)
{
	size_t k = s->base_runs + s->new_runs, m = 0;
	double *v = xcalloc(n ? n : 1, sizeof *v), c[2], e[2];
	for (size_t i = 0; i < n; i++)
		if (!rows[i].unresolved && (double)(rows[i].base + rows[i].new) >= DIFF_PRIOR_MIN_COUNT * (double)k)
			v[m++] = (row_fit(&rows[i], s, c, e) - 1) / ((c[0] + c[1]) / (double)k);
	double med = 0;
	if (m) {
		sort(v, m, sizeof *v, cmp_double);
		med = m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
	}
	free(v);
	return med > 0 ? med : 0;
}

/* The quasi-Poisson test of one row over runs (diff.h), its cv^2
 * moderated towards delta0 with DIFF_PRIOR_DF x (K - 2) degrees of
 * freedom: delta, its interval and p; *se0 the standard error of delta
 * under no change, in points, and *df the degrees of freedom. */
static void row_between_runs(struct diff_row *r, const struct diff_setup *s, double delta0, double *se0, double *df)
{
	size_t nb = s->base_runs, k = s->base_runs + s->new_runs;
	double c[2], e[2], base_time = 0;
	double d = (double)k - 2, phi = row_fit(r, s, c, e), mean = (c[0] + c[1]) / (double)k;
	double d0 = diff_runs_df(s) - d;
	double delta = mean > 0 ? (phi - 1) / mean : 0;        /* the row's own cv^2 */
	delta = (d0 * delta0 + d * delta) / (d0 + d);
	phi = 1 + (delta > 0 ? delta : 0) * mean;
	*df = d0 + d;
	for (size_t j = 0; j < nb; j++)
		base_time += (double)s->run_total[j] * s->run_period[j];
	double th[2] = { e[0] > 0 ? c[0] / e[0] : 0, e[1] > 0 ? c[1] / e[1] : 0 };
	double th0 = e[0] + e[1] > 0 ? (c[0] + c[1]) / (e[0] + e[1]) : 0;
	/* points: of the share, or of the base's mean total time per run */
	double scale = s->share ? 100 : (base_time > 0 ? 100 * (double)nb / base_time : 0);
	r->delta = scale * (th[1] - th[0]);
	*se0 = scale * sqrt(phi * th0 * (1 / e[0] + 1 / e[1]));
	double se1 = scale * sqrt(phi * (th[0] / e[0] + th[1] / e[1]));
	double tq = stats_t_quantile2(0.05, *df);
	r->lo = r->delta - tq * se1;
	r->hi = r->delta + tq * se1;
	r->p = *se0 > 0 ? stats_t_p2(r->delta / *se0, *df) : 1;
}

/* The minimum detectable effect (diff.h) for a standard error se0 at
 * level alpha over m tests, df degrees of freedom (INFINITY: normal). */
static double mde_of(double se0, double alpha, size_t m, double df)
{
	return (stats_t_quantile2(alpha / (double)(m ? m : 1), df) + stats_t_quantile2(0.4, df)) * se0;
}

const char *diff_test_name(const struct diff_setup *s)
{
	return s->share ? "Fisher's exact test of its share of its profile (--normalize), conditional on its two "
			  "counts and the profiles' totals"
			: "exact binomial test of its time (samples x period), conditional on its two counts";
}

void diff_compute(struct diff_row *rows, size_t n, const struct diff_setup *s)
{
	double *p = xcalloc(n, sizeof *p), *q = xcalloc(n, sizeof *q);
	double nb = (double)s->base_total, nn = (double)s->new_total;
	double rb = s->base_period > 0 ? 1 / s->base_period : 1, rn = s->new_period > 0 ? 1 / s->new_period : 1;
	double pi = rb / (rb + rn);

	int runs = diff_between_runs(s);
	double delta0 = runs ? prior_dispersion(rows, n, s) : 0;
	double *se0 = xcalloc(n ? n : 1, sizeof *se0), df = INFINITY;

	for (size_t i = 0; i < n; i++) {
		struct diff_row *r = &rows[i];
		r->base_pct = nb > 0 ? 100 * (double)r->base / nb : 0;
		r->new_pct = nn > 0 ? 100 * (double)r->new / nn : 0;
		if (runs) {
			row_between_runs(r, s, delta0, &se0[i], &df);
			continue;
		}
		if (s->share) {
			r->delta = r->new_pct - r->base_pct;
			stats_newcombe(r->new, s->new_total, r->base, s->base_total, STATS_Z95, &r->lo, &r->hi);
			r->lo *= 100;
			r->hi *= 100;
			double pb = (nb + nn) > 0 ? (double)(r->base + r->new) / (nb + nn) : 0;
			se0[i] = nb > 0 && nn > 0 ? 100 * sqrt(pb * (1 - pb) * (1 / nb + 1 / nn)) : 0;
		} else {
			/* seconds = samples x period; relative to the base's total */
			double tb = nb * s->base_period;
			double d = (double)r->new * s->new_period - (double)r->base * s->base_period;
			double var = (double)r->new * s->new_period * s->new_period +
				     (double)r->base * s->base_period * s->base_period;
			r->delta = tb > 0 ? 100 * d / tb : 0;
			double se = tb > 0 ? 100 * sqrt(var) / tb : 0;
			r->lo = r->delta - STATS_Z95 * se;
			r->hi = r->delta + STATS_Z95 * se;
			/* under no change: the pooled rate at each side's period */
			double lam = (double)(r->base + r->new) / (rb + rn);  /* seconds of the row */
			se0[i] = tb > 0 ? 100 * sqrt(lam * (s->new_period + s->base_period)) / tb : 0;
		}
		/* share: Fisher's exact test (diff.h); time: the binomial given the sum */
		r->p = s->share ? stats_fisher_test(r->base, s->base_total, r->new, s->new_total)
				 : stats_binom_test(r->base, r->base + r->new, pi);
	}
	/* Holm over the named rows only: an unresolved row is not a test */
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (!rows[i].unresolved)
			p[m++] = rows[i].p;
	stats_holm(p, m, q);
	size_t tested = m;
	m = 0;
	for (size_t i = 0; i < n; i++) {
		rows[i].q = rows[i].unresolved ? NAN : q[m++];
		rows[i].significant = !rows[i].unresolved && rows[i].q < s->alpha;
		rows[i].mde = mde_of(se0[i], s->alpha, tested, df);
		rows[i].verdict = verdict_of(&rows[i], s->min_effect > 0 ? s->min_effect : DIFF_MIN_EFFECT);
	}
	free(se0);
	free(p);
	free(q);
}

static size_t sort_nkeys;

static int cmp_rows(const void *pa, const void *pb)
{
	const struct diff_row *a = pa, *b = pb;
	if (a->significant != b->significant)
		return b->significant - a->significant;
	if (a->unresolved != b->unresolved)
		return a->unresolved - b->unresolved;
	if (!a->unresolved && a->q != b->q)
		return a->q < b->q ? -1 : 1;
	if (fabs(a->delta) != fabs(b->delta))
		return fabs(a->delta) > fabs(b->delta) ? -1 : 1;
	for (size_t k = 0; k < sort_nkeys; k++) {
		int c = strcmp(a->key[k], b->key[k]);
		if (c)
			return c;
	}
	return 0;
}

void diff_sort(struct diff_row *rows, size_t n, size_t nkeys)
{
	sort_nkeys = nkeys;
	sort(rows, n, sizeof *rows, cmp_rows);
}

int diff_key_unresolved(char *const *key, char *const *names, size_t nkeys)
{
	for (size_t k = 0; k < nkeys; k++)
		if (strcmp(key[k], "[unknown]") == 0 || (strcmp(names[k], "module") == 0 && strcmp(key[k], "[anon]") == 0))
			return 1;
	return 0;
}

double diff_unresolved_pct(const struct diff_row *rows, size_t n, uint64_t total, int side)
{
	uint64_t u = 0;
	for (size_t i = 0; i < n; i++)
		if (rows[i].unresolved)
			u += side ? rows[i].new : rows[i].base;
	return total > 0 ? 100 * (double)u / (double)total : 0;
}

int diff_unresolved_warn(double pct)
{
	return pct > DIFF_UNRESOLVED_WARN;
}
