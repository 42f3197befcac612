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

void diff_compute(struct diff_row *rows, size_t n, const struct diff_setup *s)
{
	double *p = xcalloc(n, sizeof *p), *q = xcalloc(n, sizeof *q);
	double nb = (double)s->base_total, nn = (double)s->new_total;
	double rb = s->base_period > 0 ? 1 / s->base_period : 1, rn = s->new_period > 0 ? 1 / s->new_period : 1;
	double pi = s->share ? nb / (nb + nn) : rb / (rb + rn);

	for (size_t i = 0; i < n; i++) {
		struct diff_row *r = &rows[i];
		r->base_pct = nb > 0 ? 100 * (double)r->base / nb : 0;
		r->new_pct = nn > 0 ? 100 * (double)r->new / nn : 0;
		if (s->share) {
			r->delta = r->new_pct - r->base_pct;
			stats_newcombe(r->new, s->new_total, r->base, s->base_total, STATS_Z95, &r->lo, &r->hi);
			r->lo *= 100;
			r->hi *= 100;
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
		}
		r->p = stats_binom_test(r->base, r->base + r->new, pi);
	}
	/* Holm over the named rows only: an unresolved row is not a test */
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (!rows[i].unresolved)
			p[m++] = rows[i].p;
	stats_holm(p, m, q);
	m = 0;
	for (size_t i = 0; i < n; i++) {
		rows[i].q = rows[i].unresolved ? NAN : q[m++];
		rows[i].significant = !rows[i].unresolved && rows[i].q < s->alpha;
		rows[i].verdict = verdict_of(&rows[i], s->min_effect > 0 ? s->min_effect : DIFF_MIN_EFFECT);
	}
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
