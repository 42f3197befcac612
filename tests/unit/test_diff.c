/*
 * test_diff.c - calibration of pct diff's test on synthetic profiles,
 * with a fixed seed, so the figures are the same on every run:
 *  - A/A: two profiles drawn from one distribution are flagged (anything
 *    at q < 0.05) in at most 5% of trials, comparing time or shares;
 *  - a real 25% speed-up of one function (a fifth of the time) is flagged
 *    in at least 95% of trials, and the unchanged functions in at most 5%;
 *  - 5 + 5 runs whose counts vary more than Poisson (negative binomial:
 *    each function's time varies from run to run with a coefficient of
 *    variation of 0.5 to 1.5 times cv): the between-run test flags an A/A
 *    experiment in at most 5% at every cv from 0.02 to 0.10, and a 20%
 *    slow-down of f0 in at least 90% at cv 0.02 and 0.04 (its power falls
 *    as cv grows: printed); the pooled within-run test flags over 20% of
 *    A/A experiments from cv 0.06 (18% at 0.04);
 *  - rows without a name ([unknown], module [anon]) are never flagged nor
 *    counted in Holm's adjustment, and a side is warned about above 5% of
 *    its samples in them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "unit.h"

#define K 40                          /* functions */
#define TRIALS 1000

static uint64_t rng = 0x2545f4914f6cdd1dULL;
static double uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (double)(rng >> 11) / 9007199254740992.0;
}

/* A Poisson draw (Knuth's method for small means, normal beyond). */
static uint64_t poisson(double mean)
{
	if (mean > 60) {
		double u1 = uniform(), u2 = uniform();
		double z = sqrt(-2 * log(u1 > 0 ? u1 : 1e-300)) * cos(2 * M_PI * u2);
		double v = mean + sqrt(mean) * z + 0.5;
		return v < 0 ? 0 : (uint64_t)v;
	}
	double l = exp(-mean), p = 1;
	uint64_t k = 0;
	do {
		k++;
		p *= uniform();
	} while (p > l);
	return k - 1;
}

/* Each function's count is Poisson with mean seconds[i] / period. */
static uint64_t draw(const double *seconds, double period, uint64_t *counts)
{
	uint64_t total = 0;
	for (int i = 0; i < K; i++)
		total += counts[i] = poisson(seconds[i] / period);
	return total;
}

/* How many of rows[0..m) are flagged; *first: whether f0 is. */
static int count_flags(const struct diff_row *rows, size_t m, int *first)
{
	int flagged = 0;
	*first = 0;
	for (size_t i = 0; i < m; i++)
		if (rows[i].significant) {
			if (strcmp(rows[i].key[0], "f0") == 0)
				*first = 1;
			else
				flagged++;
		}
	return flagged + *first;
}

/* One trial: how many rows flagged, and was row 0 among them. */
static int trial(const double *base_s, const double *new_s, int share, int *first)
{
	uint64_t b[K], n[K];
	char name[K][16], *keys[K][1];
	struct diff_row rows[K];
	struct diff_setup s = { .base_period = 0.004, .new_period = 0.004, .share = share, .alpha = 0.05 };
	s.base_total = draw(base_s, s.base_period, b);
	s.new_total = draw(new_s, s.new_period, n);
	size_t m = 0;
	for (int i = 0; i < K; i++) {
		if (b[i] + n[i] == 0)
			continue;
		snprintf(name[i], sizeof name[i], "f%d", i);
		keys[i][0] = name[i];
		rows[m++] = (struct diff_row){ .key = keys[i], .base = b[i], .new = n[i] };
	}
	diff_compute(rows, m, &s);
	return count_flags(rows, m, first);
}

/* Rows without a name: the key test, the threshold, and the statistics. */
static void unresolved(void)
{
	char *fn[] = { "function" }, *mod[] = { "module" }, *fl[] = { "file", "line" };
	char *unk[] = { "[unknown]" }, *anon[] = { "[anon]" }, *named[] = { "hot" };
	char *unk_line[] = { "[unknown]", "0" }, *line[] = { "a.c", "12" };
	CHECK(diff_key_unresolved(unk, fn, 1));
	CHECK(!diff_key_unresolved(named, fn, 1));
	CHECK(diff_key_unresolved(anon, mod, 1));
	CHECK(!diff_key_unresolved(anon, fn, 1));    /* a function so named is a name */
	CHECK(diff_key_unresolved(unk_line, fl, 2));
	CHECK(!diff_key_unresolved(line, fl, 2));
	CHECK(!diff_unresolved_warn(5.0));            /* more than 5% */
	CHECK(diff_unresolved_warn(5.01));
	CHECK(!diff_unresolved_warn(0));

	/* base: 50 of 1000 samples unresolved (5%: no warning); new: 600 of
	 * 1000 (60%); the [unknown] row changes hugely, yet is not flagged */
	struct diff_row rows[3] = {
		{ .key = unk, .base = 50, .new = 600, .unresolved = 1 },
		{ .key = named, .base = 500, .new = 100 },
		{ .key = line, .base = 450, .new = 300 },
	};
	struct diff_setup s = { .base_total = 1000, .new_total = 1000, .share = 1, .alpha = 0.05 };
	diff_compute(rows, 3, &s);
	CHECK(!rows[0].significant && isnan(rows[0].q) && rows[0].p < 1e-10);
	CHECK(rows[1].significant && rows[2].significant);
	/* Holm over the 2 named rows: the smaller p times 2, the larger times 1 */
	double lo = rows[1].p < rows[2].p ? rows[1].p : rows[2].p, hi = rows[1].p < rows[2].p ? rows[2].p : rows[1].p;
	double qlo = rows[1].p < rows[2].p ? rows[1].q : rows[2].q, qhi = rows[1].p < rows[2].p ? rows[2].q : rows[1].q;
	CHECK(fabs(qlo - 2 * lo) <= 1e-12 * (2 * lo) + 1e-300);
	CHECK(fabs(qhi - fmax(hi, 2 * lo)) <= 1e-12 * fmax(hi, 2 * lo) + 1e-300);
	CHECK(fabs(diff_unresolved_pct(rows, 3, s.base_total, 0) - 5.0) < 1e-9);
	CHECK(fabs(diff_unresolved_pct(rows, 3, s.new_total, 1) - 60.0) < 1e-9);
	CHECK(!diff_unresolved_warn(diff_unresolved_pct(rows, 3, s.base_total, 0)));
	CHECK(diff_unresolved_warn(diff_unresolved_pct(rows, 3, s.new_total, 1)));
	CHECK(diff_unresolved_pct(rows, 3, 0, 0) == 0);
	/* sorted: the flagged named rows first, the unresolved one last */
	diff_sort(rows, 3, 1);
	CHECK(rows[2].unresolved);
}

/* Shares (--normalize) of a row that is much of its profile: e2e 105's
 * two functions, 52 and 96 of 148 samples against 147 and 81 of 228.
 * Fisher's exact test (diff.h): p 3.1e-8 each, so both are flagged at
 * 0.001 (the binomial given the row's sum said 1.1e-4, and flagged
 * neither). */
static void large_share(void)
{
	char *a[] = { "hash_loop" }, *b[] = { "other_loop" };
	struct diff_row rows[2] = { { .key = a, .base = 52, .new = 147 }, { .key = b, .base = 96, .new = 81 } };
	struct diff_setup s = { .base_total = 148, .new_total = 228, .share = 1, .alpha = 0.001 };
	diff_compute(rows, 2, &s);
	CHECK(fabs(rows[0].p - 3.088348271191322e-08) <= 1e-6 * 3.088348271191322e-08);
	CHECK(fabs(rows[1].p - rows[0].p) <= 1e-9 * rows[0].p);   /* a 2 x 2 table: one test */
	CHECK(rows[0].significant && rows[1].significant);
	CHECK(rows[0].verdict == DIFF_SLOWER && rows[1].verdict == DIFF_FASTER);
}

/* The verdicts (diff.h): significant and at least min_effect -> slower
 * or faster; an interval inside +-min_effect -> unchanged; else
 * unresolved, and always for a row without a name. */
static void verdicts(void)
{
	char *fn[1] = { "function" }, *k[1] = { "f" };
	(void)fn;
	/* shares of 100,000 samples a side: 20% -> 25% (slower), 20% -> 15%
	 * (faster), 30% -> 30% (unchanged: the interval is +-0.4 points),
	 * 0.1% -> 0.3% (significant, but 0.2 points: the interval, about
	 * [0.16, 0.24], lies inside +-0.5, so unchanged), 1 -> 0 samples out of
	 * 100 (unresolved: the interval spans more than the effect) */
	struct diff_row r[5] = {
		{ .key = k, .base = 20000, .new = 25000 },
		{ .key = k, .base = 20000, .new = 15000 },
		{ .key = k, .base = 30000, .new = 30000 },
		{ .key = k, .base = 100, .new = 300 },
		{ .key = k, .base = 59900, .new = 29700, .unresolved = 1 },
	};
	struct diff_setup s = { .base_total = 100000, .new_total = 100000, .share = 1, .alpha = 0.05 };
	diff_compute(r, 5, &s);
	CHECK(r[0].verdict == DIFF_SLOWER);
	CHECK(r[1].verdict == DIFF_FASTER);
	CHECK(r[2].verdict == DIFF_UNCHANGED);
	CHECK(r[3].significant && r[3].verdict == DIFF_UNCHANGED);
	CHECK(r[4].verdict == DIFF_UNRESOLVED);
	/* a minimum effect of 5.2 points: 20% -> 25% (5 points, interval
	 * about [4.6, 5.4]) is below it, but may reach it: unresolved; the
	 * -5 points of row 1 likewise */
	s.min_effect = 5.2;
	diff_compute(r, 5, &s);
	CHECK(r[0].verdict == DIFF_UNRESOLVED && r[1].verdict == DIFF_UNRESOLVED);
	CHECK(r[2].verdict == DIFF_UNCHANGED);
	/* 6 points: inside it, unchanged */
	s.min_effect = 6;
	diff_compute(r, 5, &s);
	CHECK(r[0].verdict == DIFF_UNCHANGED && r[1].verdict == DIFF_UNCHANGED);
	/* few samples: 3 -> 1 of 100 is neither */
	struct diff_row few[2] = { { .key = k, .base = 3, .new = 1 }, { .key = k, .base = 97, .new = 99 } };
	struct diff_setup s2 = { .base_total = 100, .new_total = 100, .share = 1, .alpha = 0.05 };
	diff_compute(few, 2, &s2);
	CHECK(few[0].verdict == DIFF_UNRESOLVED && few[1].verdict == DIFF_UNRESOLVED);
	CHECK(strcmp(diff_verdict_name(DIFF_SLOWER), "slower") == 0 && strcmp(diff_verdict_name(DIFF_FASTER), "faster") == 0);
	CHECK(strcmp(diff_verdict_name(DIFF_UNCHANGED), "unchanged") == 0);
	CHECK(strcmp(diff_verdict_name(DIFF_UNRESOLVED), "unresolved") == 0);
	CHECK(strcmp(diff_verdict_name((enum diff_verdict)99), "unresolved") == 0);
}

/* A gamma draw of shape a (>= 1) and scale 1 (Marsaglia and Tsang, ACM
 * TOMS 26, 2000). */
static double gamma1(double a)
{
	double d = a - 1.0 / 3, c = 1 / sqrt(9 * d);
	for (;;) {
		double u1 = uniform(), u2 = uniform();
		double z = sqrt(-2 * log(u1 > 0 ? u1 : 1e-300)) * cos(2 * M_PI * u2);
		double v = 1 + c * z;
		if (v <= 0)
			continue;
		v = v * v * v;
		double u = uniform();
		if (log(u > 0 ? u : 1e-300) < 0.5 * z * z + d - d * v + d * log(v))
			return d * v;
	}
}

#define RUNS 5                         /* runs a side */

/*
 * One experiment of RUNS + RUNS runs: in each run, each function's time is
 * its seconds times a gamma factor of mean 1 and coefficient of variation
 * cv (a run's own speed for that code), and its count is Poisson of that
 * over the period: negative binomial counts.  pooled: the runs of a side
 * summed, the within-run test.  Returns how many rows flagged, *first
 * whether f0 was among them.
 */
static int runs_trial(const double *base_s, const double *new_s, double cv, int pooled, int share, int *first)
{
	static uint64_t counts[K][2 * RUNS];
	uint64_t total[2 * RUNS], b[K] = { 0 }, n[K] = { 0 };
	double period[2 * RUNS];
	char name[K][16], *keys[K][1];
	struct diff_row rows[K];
	double shape[K];
	for (int i = 0; i < K; i++) {   /* each function its own cv: 0.5 to 1.5 times cv */
		double c = cv * (0.5 + uniform());
		shape[i] = 1 / (c * c);
	}
	for (int j = 0; j < 2 * RUNS; j++) {
		const double *sec = j < RUNS ? base_s : new_s;
		period[j] = 0.004;
		total[j] = 0;
		for (int i = 0; i < K; i++) {
			counts[i][j] = poisson(sec[i] * gamma1(shape[i]) / shape[i] / period[j]);
			total[j] += counts[i][j];
			*(j < RUNS ? &b[i] : &n[i]) += counts[i][j];
		}
	}
	struct diff_setup s = { .base_period = 0.004, .new_period = 0.004, .alpha = 0.05, .share = share, .base_runs = RUNS,
				.new_runs = pooled ? 0 : RUNS, .run_total = total, .run_period = period };
	for (int j = 0; j < 2 * RUNS; j++)
		*(j < RUNS ? &s.base_total : &s.new_total) += total[j];
	size_t m = 0;
	for (int i = 0; i < K; i++) {
		if (b[i] + n[i] == 0)
			continue;
		snprintf(name[i], sizeof name[i], "f%d", i);
		keys[i][0] = name[i];
		rows[m++] = (struct diff_row){ .key = keys[i], .base = b[i], .new = n[i], .runs = counts[i] };
	}
	diff_compute(rows, m, &s);
	return count_flags(rows, m, first);
}

int main(void)
{
	unresolved();
	large_share();
	verdicts();
	/* 20 s of CPU over 40 functions, Zipf-like: f0 holds a fifth */
	double base[K], faster[K], sum = 0;
	for (int i = 0; i < K; i++)
		sum += base[i] = 1.0 / (i + 1);
	for (int i = 0; i < K; i++)
		base[i] *= 20.0 / sum;
	base[0] = 4.0;
	memcpy(faster, base, sizeof base);
	faster[0] *= 0.75;

	for (int share = 0; share <= 1; share++) {
		int any = 0, first;
		for (int t = 0; t < TRIALS; t++)
			any += trial(base, base, share, &first) > 0;
		printf("A/A (%s): %d of %d trials flagged something\n", share ? "shares" : "time", any, TRIALS);
		CHECK(any <= TRIALS * 5 / 100);

		int hit = 0, spurious = 0;
		for (int t = 0; t < TRIALS; t++) {
			int n = trial(base, faster, share, &first);
			hit += first;
			spurious += n - first > 0;
		}
		printf("25%% speed-up of f0 (%s): flagged in %d of %d; others flagged in %d\n",
		       share ? "shares" : "time", hit, TRIALS, spurious);
		CHECK(hit >= TRIALS * 95 / 100);
		if (!share)   /* shares: the others' shares do move when f0 shrinks */
			CHECK(spurious <= TRIALS * 5 / 100);
	}

	/* several runs a side, overdispersed (diff.h): the pooled binomial
	 * test flags an A/A pair often; the between-run test at most 5% */
	double slower[K];
	memcpy(slower, base, sizeof base);
	slower[0] *= 1.2;
	for (double cv = 0.02; cv <= 0.1001; cv += 0.02) {
		int any = 0, first, hit = 0, spurious = 0, pooled = 0;
		for (int t = 0; t < TRIALS; t++)
			any += runs_trial(base, base, cv, 0, 0, &first) > 0;
		for (int t = 0; t < TRIALS; t++)
			pooled += runs_trial(base, base, cv, 1, 0, &first) > 0;
		for (int t = 0; t < TRIALS; t++) {
			int nf = runs_trial(base, slower, cv, 0, 0, &first);
			hit += first;
			spurious += nf - first > 0;
		}
		printf("%d+%d runs, cv %.2f: A/A flagged in %d of %d (pooled within-run test: %d); "
		       "20%% slower f0 flagged in %d, others in %d\n", RUNS, RUNS, cv, any, TRIALS, pooled, hit, spurious);
		CHECK(any <= TRIALS * 5 / 100);
		CHECK(spurious <= TRIALS * 5 / 100);
		if (cv < 0.05)
			CHECK(hit >= TRIALS * 90 / 100);
		if (cv > 0.05)
			CHECK(pooled > TRIALS * 20 / 100);   /* why runs are needed */
	}
	/* shares (--normalize), at cv 0.04: A/A at most 5%; the power is
	 * printed (the other functions' shares move with f0's) */
	{
		int any = 0, first, hit = 0;
		for (int t = 0; t < TRIALS; t++)
			any += runs_trial(base, base, 0.04, 0, 1, &first) > 0;
		for (int t = 0; t < TRIALS; t++) {
			runs_trial(base, slower, 0.04, 0, 1, &first);
			hit += first;
		}
		printf("%d+%d runs, shares, cv 0.04: A/A flagged in %d of %d; 20%% slower f0 flagged in %d\n", RUNS, RUNS,
		       any, TRIALS, hit);
		CHECK(any <= TRIALS * 5 / 100);
		CHECK(hit >= TRIALS * 80 / 100);
	}
	return unit_done("test_diff");
}
