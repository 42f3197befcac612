/* stats.c - see stats.h. */
#include <math.h>
#include <stdlib.h>

#include "stats.h"
#include "util.h"

double stats_stderr(uint64_t n)
{
	return sqrt((double)n);
}

double stats_stderr_percent(uint64_t n, uint64_t total)
{
	if (total == 0)
		return 0.0;
	double p = (double)n / (double)total;
	if (p > 1)
		p = 1;
	return 100.0 * sqrt(p * (1 - p) / (double)total);
}

void stats_wilson(uint64_t k, uint64_t n, double z, double *lo, double *hi)
{
	if (n == 0) {
		*lo = 0;
		*hi = 1;
		return;
	}
	double nn = (double)n, p = (double)k / nn, z2 = z * z;
	double center = (p + z2 / (2 * nn)) / (1 + z2 / nn);
	double half = z / (1 + z2 / nn) * sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn));
	*lo = k == 0 ? 0 : fmax(0, center - half);
	*hi = k == n ? 1 : fmin(1, center + half);
}

void stats_poisson_score(uint64_t n, double z, double *lo, double *hi)
{
	double nn = (double)n, z2 = z * z, half = z * sqrt(nn + z2 / 4);
	*lo = n == 0 ? 0 : fmax(0, nn + z2 / 2 - half);
	*hi = nn + z2 / 2 + half;
}

void stats_newcombe(uint64_t k1, uint64_t n1, uint64_t k2, uint64_t n2, double z, double *lo, double *hi)
{
	double l1, u1, l2, u2;
	double p1 = n1 ? (double)k1 / (double)n1 : 0, p2 = n2 ? (double)k2 / (double)n2 : 0, d = p1 - p2;
	stats_wilson(k1, n1, z, &l1, &u1);
	stats_wilson(k2, n2, z, &l2, &u2);
	*lo = d - sqrt((p1 - l1) * (p1 - l1) + (u2 - p2) * (u2 - p2));
	*hi = d + sqrt((u1 - p1) * (u1 - p1) + (p2 - l2) * (p2 - l2));
}

/*
 * The continued fraction of the incomplete beta function,
 *   I_x(a,b) = x^a (1-x)^b / (a B(a,b)) * 1/(1+ d1/(1+ d2/(1+ ...)))
 *   d_{2m+1} = -(a+m)(a+b+m) x / ((a+2m)(a+2m+1))
 *   d_{2m}   =  m(b-m) x / ((a+2m-1)(a+2m))
 * evaluated by the modified Lentz method; it converges fast for
 * x < (a+1)/(a+b+2), and the symmetry I_x(a,b) = 1 - I_{1-x}(b,a) covers
 * the rest.
 */
/* One step of the modified Lentz method: fold in the term num. */
static double lentz_step(double *c, double *d, double num)
{
	const double tiny = 1e-300;
	*d = 1 + num * *d;
	*c = 1 + num / *c;
	if (fabs(*d) < tiny)
		*d = tiny;
	if (fabs(*c) < tiny)
		*c = tiny;
	*d = 1 / *d;
	return *d * *c;
}

static double beta_fraction(double a, double b, double x)
{
	double c = 1, d = 1 - (a + b) * x / (a + 1);
	if (fabs(d) < 1e-300)
		d = 1e-300;
	d = 1 / d;
	double f = d;
	for (int m = 1; m <= 1000000; m++) {
		double m2 = 2.0 * m;
		f *= lentz_step(&c, &d, m * (b - m) * x / ((a + m2 - 1) * (a + m2)));
		double step = lentz_step(&c, &d, -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1)));
		f *= step;
		if (fabs(step - 1) < 1e-15)
			break;
	}
	return f;
}

double stats_betai(double a, double b, double x)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	double lfront = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	if (x < (a + 1) / (a + b + 2))
		return exp(lfront) * beta_fraction(a, b, x) / a;
	return 1 - exp(lfront) * beta_fraction(b, a, 1 - x) / b;
}

double stats_t_p2(double t, double df)
{
	if (isinf(df))
		return erfc(fabs(t) / M_SQRT2);
	if (!(df > 0))
		return 1;
	return stats_betai(df / 2, 0.5, df / (df + t * t));
}

/* stats_t_quantile2's bisection costs some 40 incomplete beta functions;
 * a diff asks for the same few quantiles once per row (its degrees of
 * freedom are the runs', its levels fixed), so the last few are kept. */
enum { TQ_KEPT = 4 };
static _Thread_local struct { double p2, df, t; int set; } tq_kept[TQ_KEPT];
static _Thread_local unsigned tq_next;

static double t_quantile2(double p2, double df);

double stats_t_quantile2(double p2, double df)
{
	for (int i = 0; i < TQ_KEPT; i++)
		if (tq_kept[i].set && tq_kept[i].p2 == p2 && tq_kept[i].df == df)
			return tq_kept[i].t;
	double t = t_quantile2(p2, df);
	unsigned i = tq_next++ % TQ_KEPT;
	tq_kept[i].p2 = p2;
	tq_kept[i].df = df;
	tq_kept[i].t = t;
	tq_kept[i].set = 1;
	return t;
}

static double t_quantile2(double p2, double df)
{
	if (!(p2 > 0 && p2 < 1))
		return p2 <= 0 ? INFINITY : 0;
	double lo = 0, hi = 1;
	while (stats_t_p2(hi, df) > p2 && hi < 1e12)   /* p falls as t grows */
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-9 * hi; i++) {
		double mid = (lo + hi) / 2;
		if (stats_t_p2(mid, df) > p2)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double stats_binom_cdf(uint64_t k, uint64_t n, double p)
{
	if (k >= n)
		return 1;
	if (p <= 0)
		return 1;
	if (p >= 1)
		return 0;
	return stats_betai((double)(n - k), (double)k + 1, 1 - p);
}

static double log_pmf(uint64_t k, uint64_t n, double p)
{
	double kk = (double)k, nn = (double)n;
	double lp = p > 0 ? kk * log(p) : (k ? -INFINITY : 0);
	double lq = p < 1 ? (nn - kk) * log1p(-p) : (k < n ? -INFINITY : 0);
	return lgamma(nn + 1) - lgamma(kk + 1) - lgamma(nn - kk + 1) + lp + lq;
}

double stats_binom_test(uint64_t k, uint64_t n, double p)
{
	if (n == 0)
		return 1;
	double mode = floor(((double)n + 1) * p);
	if (mode > (double)n)
		mode = (double)n;
	/* a small relative tolerance, as binom.test uses, so that outcomes as
	 * likely as k up to rounding count as "no more likely" */
	double lk = log_pmf(k, n, p) + log1p(1e-7);
	double below, above;
	if ((double)k == mode)
		return 1;
	if ((double)k < mode) {
		/* the first j above the mode with pmf(j) <= pmf(k) */
		uint64_t lo = (uint64_t)mode, hi = n + 1;
		while (lo < hi) {
			uint64_t mid = lo + (hi - lo) / 2;
			if (log_pmf(mid, n, p) <= lk)
				hi = mid;
			else
				lo = mid + 1;
		}
		below = stats_binom_cdf(k, n, p);
		above = lo > n ? 0 : 1 - stats_binom_cdf(lo - 1, n, p);
	} else {
		/* the last j below the mode with pmf(j) <= pmf(k) */
		uint64_t lo = 0, hi = (uint64_t)mode; /* answer in [0, mode), or none */
		int64_t found = -1;
		while (lo < hi) {
			uint64_t mid = lo + (hi - lo) / 2;
			if (log_pmf(mid, n, p) <= lk) {
				found = (int64_t)mid;
				lo = mid + 1;
			} else {
				hi = mid;
			}
		}
		below = found < 0 ? 0 : stats_binom_cdf((uint64_t)found, n, p);
		above = 1 - stats_binom_cdf(k - 1, n, p);
	}
	double pv = below + above;
	return pv > 1 ? 1 : pv < 0 ? 0 : pv;
}

/* log P(X = x) for X hypergeometric: x of the m draws from the n1 of
 * n1 + n2 (x of a row's m samples in the first profile, of n1). */
static double log_hyper(double x, double m, double n1, double n2)
{
	return lgamma(n1 + 1) - lgamma(x + 1) - lgamma(n1 - x + 1) +
	       lgamma(n2 + 1) - lgamma(m - x + 1) - lgamma(n2 - m + x + 1) -
	       (lgamma(n1 + n2 + 1) - lgamma(m + 1) - lgamma(n1 + n2 - m + 1));
}

/* The sum of P(X = j) from j = x outward (dir -1: down to lo, +1: up to
 * hi), x in the tail beyond the mode so the terms fall: each term from
 * the last by the pmf's ratio, until one adds less than 1e-17 of the sum
 * (O(sd) terms near the mode, few far out). */
static double hyper_tail(double x, int dir, double lo, double hi, double m, double n1, double n2)
{
	double t = exp(log_hyper(x, m, n1, n2)), sum = 0;
	while (t > 0) {
		sum += t;
		if (t < 1e-17 * sum || (dir < 0 ? x <= lo : x >= hi))
			break;
		if (dir > 0)
			t *= (n1 - x) * (m - x) / ((x + 1) * (n2 - m + x + 1));
		else
			t *= x * (n2 - m + x) / ((n1 - x + 1) * (m - x + 1));
		x += dir;
	}
	return sum;
}

double stats_fisher_test(uint64_t k1, uint64_t n1, uint64_t k2, uint64_t n2)
{
	if (k1 > n1 || k2 > n2 || n1 == 0 || n2 == 0)
		return 1;
	double a = (double)n1, b = (double)n2, m = (double)k1 + (double)k2, x = (double)k1;
	double lo = m > b ? m - b : 0, hi = m < a ? m : a;
	if (lo >= hi)
		return 1;
	double mode = floor((m + 1) * (a + 1) / (a + b + 2));
	mode = mode < lo ? lo : mode > hi ? hi : mode;
	/* outcomes as likely as x up to rounding count (R's fisher.test) */
	double lx = log_hyper(x, m, a, b) + log1p(1e-7);
	if (x == mode)
		return 1;
	/* the other tail starts at the outcome nearest the mode, on its other
	 * side, no more likely than x: the pmf falls monotonically there */
	int dir = x < mode ? 1 : -1;
	double l = x < mode ? mode : lo, h = x < mode ? hi + 1 : mode;  /* [l, h) */
	double other = NAN;
	while (l < h) {
		double mid = floor(l + (h - l) / 2);
		int le = log_hyper(mid, m, a, b) <= lx;
		if (dir > 0 ? le : !le)
			h = mid;
		else
			l = mid + 1;
	}
	if (dir > 0)
		other = l <= hi ? l : NAN;                 /* the first above with pmf <= */
	else
		other = l - 1 >= lo && log_hyper(l - 1, m, a, b) <= lx ? l - 1 : NAN; /* the last below */
	double pv = hyper_tail(x, -dir, lo, hi, m, a, b);
	if (!isnan(other))
		pv += hyper_tail(other, dir, lo, hi, m, a, b);
	return pv > 1 ? 1 : pv < 0 ? 0 : pv;
}

double stats_overrun_factor(uint64_t samples, uint64_t squares)
{
	if (samples == 0 || squares <= samples)
		return 1;
	return sqrt((double)squares / (double)samples);
}

static const double *sort_p;

static int cmp_index(const void *a, const void *b)
{
	double x = sort_p[*(const size_t *)a], y = sort_p[*(const size_t *)b];
	return (x > y) - (x < y);
}

void stats_holm(const double *p, size_t n, double *q)
{
	size_t *idx = xcalloc(n, sizeof *idx);
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	sort_p = p;
	sort(idx, n, sizeof *idx, cmp_index);
	double run = 0;
	for (size_t r = 0; r < n; r++) {   /* smallest p first, times m, m-1, ... */
		double v = p[idx[r]] * (double)(n - r);
		if (v > run)
			run = v;
		q[idx[r]] = run < 1 ? run : 1;
	}
	free(idx);
}

double stats_resolution_percent(uint64_t total)
{
	return total ? 100.0 * STATS_Z95 / sqrt((double)total) : 100.0;
}

double stats_rate_hz(uint64_t samples, uint64_t span_ns)
{
	return samples && span_ns ? (double)samples / ((double)span_ns / 1e9) : 0.0;
}

double stats_period(uint64_t span, uint64_t samples)
{
	return samples ? (double)span / (double)samples : 0.0;
}

int stats_shortfall(uint64_t samples, double expected, double *share)
{
	if (!(expected > 0) || (double)samples >= expected - STATS_SHORTFALL_Z * sqrt(expected))
		return 0;
	if (share)
		*share = 1.0 - (double)samples / expected;
	return 1;
}
