/*
 * test_diff.c - calibration of pct diff's test on synthetic profiles,
 * with a fixed seed, so the figures are the same on every run:
 *  - A/A: two profiles drawn from one distribution are flagged (anything
 *    at q < 0.05) in at most 5% of trials, comparing time or shares;
 *  - a real 25% speed-up of one function (a fifth of the time) is flagged
 *    in at least 95% of trials, and the unchanged functions in at most 5%.
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

int main(void)
{
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
	return unit_done("test_diff");
}
