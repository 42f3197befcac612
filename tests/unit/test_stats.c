/* test_stats.c - the Poisson standard error and the aggregation of rows. */
#include <math.h>
#include <string.h>

#include "aggregate.h"
#include "stats.h"
#include "u64map.h"
#include "unit.h"

static void test_stderr(void)
{
	CHECK(stats_stderr(0) == 0.0);
	CHECK(fabs(stats_stderr(100) - 10.0) < 1e-12);
	CHECK(fabs(stats_stderr(5) - 2.2360679775) < 1e-9);   /* the seed's sqrt(5) = 2.2 */
	/* 100 of 10000 samples: 1% +- 0.1 percentage points */
	/* binomial: 100 * sqrt(p (1 - p) / N); 93 of 94 is 1.0581 points
	 * (the example), 100 of 10000 is 0.099499 */
	CHECK(fabs(stats_stderr_percent(100, 10000) - 100.0 * sqrt(0.01 * 0.99 / 10000)) < 1e-12);
	CHECK(fabs(stats_stderr_percent(100, 10000) - 0.0994987) < 1e-6);
	CHECK(fabs(stats_stderr_percent(93, 94) - 1.0581) < 1e-4);
	CHECK(stats_stderr_percent(94, 94) == 0.0);
	CHECK(fabs(stats_stderr_percent(50, 100) - 5.0) < 1e-12);
	CHECK(stats_stderr_percent(3, 0) == 0.0);
}

/* The Poisson score interval: the means whose 95% test accepts n. */
static void test_poisson_score(void)
{
	double lo, hi;
	stats_poisson_score(0, STATS_Z95, &lo, &hi);
	CHECK(lo == 0 && fabs(hi - STATS_Z95 * STATS_Z95) < 1e-12);       /* 0 .. 3.84 */
	stats_poisson_score(100, STATS_Z95, &lo, &hi);                      /* 82.23 .. 121.61 */
	CHECK(fabs(lo - 82.2272) < 1e-3 && fabs(hi - 121.6143) < 1e-3);
	/* the ends are the means whose score statistic is exactly z */
	CHECK(fabs((100 - lo) / sqrt(lo) - STATS_Z95) < 1e-9);
	CHECK(fabs((hi - 100) / sqrt(hi) - STATS_Z95) < 1e-9);
	stats_poisson_score(1, STATS_Z95, &lo, &hi);
	CHECK(lo > 0 && lo < 1 && hi > 1);
}

static void test_u64map(void)
{
	struct u64map m = { 0 };
	for (uint64_t k = 0; k < 100000; k++)
		*u64map_slot(&m, k * 7919) = k + 1;
	CHECK(m.len == 100000);
	int ok = 1;
	for (uint64_t k = 0; k < 100000; k++) {
		uint64_t *v = u64map_get(&m, k * 7919);
		ok &= v != NULL && *v == k + 1;
	}
	CHECK(ok);
	CHECK(u64map_get(&m, 1) == NULL);
	CHECK(*u64map_slot(&m, 0) == 1);               /* key 0 is an ordinary key */
	u64map_free(&m);
	CHECK(u64map_get(&m, 0) == NULL);
}

static void add(struct agg *a, const char *m, const char *f, uint64_t n)
{
	char *key[2] = { (char *)m, (char *)f };
	agg_add(a, key, n);
}

static void test_aggregate(void)
{
	struct agg a = { .nkeys = 2 };
	add(&a, "libc.so.6", "memcpy", 5);
	add(&a, "prog", "main", 7);
	add(&a, "libc.so.6", "memcpy", 4);
	add(&a, "prog", "a_tie", 9);
	add(&a, "libc.so.6", "z_tie", 9);
	add(&a, "prog", "", 1);                        /* an empty value is a value */
	add(&a, "prog\tx", "", 1);                     /* keys are compared whole */
	CHECK(a.nrows == 6);
	CHECK(a.total == 36);
	agg_sort(&a);
	/* 9 (libc memcpy), 9 (libc z_tie), 9 (prog a_tie), 7 (main): ties by key columns in order */
	CHECK(a.rows[0].samples == 9 && strcmp(a.rows[0].key[1], "memcpy") == 0);
	CHECK(a.rows[1].samples == 9 && strcmp(a.rows[1].key[1], "z_tie") == 0);
	CHECK(a.rows[2].samples == 9 && strcmp(a.rows[2].key[1], "a_tie") == 0);
	CHECK(a.rows[3].samples == 7 && strcmp(a.rows[3].key[0], "prog") == 0);
	CHECK(strcmp(a.rows[4].key[0], "prog") == 0 && strcmp(a.rows[5].key[0], "prog\tx") == 0);
	/* the table follows the sort */
	add(&a, "prog", "main", 1);
	CHECK(a.rows[3].samples == 8 && a.nrows == 6);
	agg_free(&a);

	/* many rows */
	struct agg b = { .nkeys = 1 };
	char buf[32], *key[1] = { buf };
	for (int i = 0; i < 50000; i++) {
		snprintf(buf, sizeof buf, "k%d", i % 10000);
		agg_add(&b, key, (uint64_t)(i % 10000));
	}
	CHECK(b.nrows == 10000);
	agg_sort(&b);
	CHECK(b.rows[0].samples == 5 * 9999 && strcmp(b.rows[0].key[0], "k9999") == 0);
	CHECK(b.rows[9999].samples == 0);
	agg_free(&b);
}

static int close_rel(double a, double b, double rel)
{
	return fabs(a - b) <= rel * fabs(b);
}

/* Fisher's exact test: references computed exactly with Python integers
 * (math.comb), summing every outcome no more likely than the observed
 * (relative tolerance 1e-7, as the function). */
static void test_fisher(void)
{
	/* the overrun factor (stats.h): sqrt(squares / samples), at least 1 */
	CHECK(stats_overrun_factor(0, 0) == 1 && stats_overrun_factor(10, 10) == 1 && stats_overrun_factor(10, 5) == 1);
	CHECK(close_rel(stats_overrun_factor(49, 1251), sqrt(1251.0 / 49), 1e-12));
	CHECK(close_rel(stats_overrun_factor(4, 16), 2, 1e-12));         /* one signal of 4 */
	/* the e2e 105 case: the binomial given the row's sum says 1.1e-4 */
	CHECK(close_rel(stats_fisher_test(52, 148, 147, 228), 3.088348271191322e-08, 1e-6));
	CHECK(stats_binom_test(52, 52 + 147, 148.0 / (148 + 228)) > 1e-4);
	CHECK(close_rel(stats_fisher_test(3, 10, 7, 10), 0.17889540799757517, 1e-9));
	CHECK(close_rel(stats_fisher_test(7, 10, 3, 10), 0.17889540799757517, 1e-9));
	CHECK(close_rel(stats_fisher_test(1, 5, 4, 5), 0.20634920634920634, 1e-9));
	CHECK(close_rel(stats_fisher_test(0, 10, 10, 10), 1.082508822446903e-05, 1e-9));
	CHECK(close_rel(stats_fisher_test(300, 1000, 250, 1000), 0.014093391894333684, 1e-6));
	CHECK(close_rel(stats_fisher_test(250, 1000, 300, 1000), 0.014093391894333684, 1e-6));
	CHECK(close_rel(stats_fisher_test(2, 1000, 30, 2000), 0.0004828103141532563, 1e-6));
	CHECK(close_rel(stats_fisher_test(1000, 5000, 1300, 5000), 1.1374069090194018e-12, 1e-6));
	CHECK(close_rel(stats_fisher_test(10, 100000, 40, 100000), 2.380846046021548e-05, 1e-6));
	CHECK(close_rel(stats_fisher_test(99, 100, 1, 100), 2.2089815692688225e-55, 1e-6));
	CHECK(close_rel(stats_fisher_test(5000, 10000, 4800, 10000), 0.004878795768906829, 1e-5));
	CHECK(close_rel(stats_fisher_test(20, 50000, 5, 3000), 0.011891268887684252, 1e-6));
	CHECK(close_rel(stats_fisher_test(7, 9, 0, 1), 0.3, 1e-9));
	CHECK(stats_fisher_test(5, 10, 5, 10) == 1.0);
	CHECK(stats_fisher_test(0, 0, 5, 10) == 1.0);
	CHECK(stats_fisher_test(0, 10, 0, 10) == 1.0);
	CHECK(stats_fisher_test(10, 10, 10, 10) == 1.0);
	CHECK(stats_fisher_test(11, 10, 0, 10) == 1.0);     /* not a table: no evidence */
	/* large counts stay finite, and a row of nearly all samples is fine */
	double big = stats_fisher_test(500000000, 1000000000, 500010000, 1000000000);
	CHECK(big > 0.5 && big <= 1.0);
	double far = stats_fisher_test(490000000, 1000000000, 500000000, 1000000000);
	CHECK(far >= 0 && far < 1e-20);
	double all = stats_fisher_test(999999, 1000000, 999990, 1000000);
	CHECK(close_rel(all, 0.011718535157109376, 1e-5));   /* exact, as above */
}

/* Reference p-values were computed exactly with Python integers
 * (math.comb), summing every outcome no more likely than the observed. */
static void test_binomial(void)
{
	CHECK(close_rel(stats_binom_test(4, 5, 0.5), 0.375, 1e-9));          /* the seed: 4 vs 1 */
	CHECK(close_rel(stats_binom_test(1, 5, 0.5), 0.375, 1e-9));
	CHECK(close_rel(stats_binom_test(10, 50, 0.5), 2.3861331676755526e-05, 1e-6)); /* 10 vs 40 */
	CHECK(close_rel(stats_binom_test(40, 50, 0.5), 2.3861331676755526e-05, 1e-6));
	CHECK(close_rel(stats_binom_test(2, 20, 0.3), 0.052627948729727064, 1e-6));
	CHECK(close_rel(stats_binom_test(11, 20, 0.3), 0.024782076205458418, 1e-6));
	CHECK(close_rel(stats_binom_test(300, 1000, 0.25), 0.00034062944136693747, 1e-5));
	CHECK(stats_binom_test(25, 50, 0.5) == 1.0);
	CHECK(stats_binom_test(0, 0, 0.5) == 1.0);
	/* large counts stay finite and sensible */
	double big = stats_binom_test(500000, 1000000, 0.5);
	CHECK(big > 0.99 && big <= 1.0);
	double far = stats_binom_test(495000, 1000000, 0.5);
	CHECK(far > 0 && far < 1e-20);
	/* P(X <= 10), X ~ Bin(50, 1/2) = 1.1930665838377763e-05 (exact) */
	CHECK(close_rel(stats_binom_cdf(10, 50, 0.5), 1.1930665838377763e-05, 1e-6));
	CHECK(stats_binom_cdf(50, 50, 0.5) == 1.0);
	CHECK(close_rel(stats_betai(2, 3, 0.4), 0.5248, 1e-9));             /* 1 - P(Bin(4,.4) <= 1) */
}

static void test_intervals(void)
{
	double lo, hi;
	stats_wilson(4, 10, STATS_Z95, &lo, &hi);          /* 0.1682 .. 0.6873 */
	CHECK(fabs(lo - 0.16818) < 1e-4 && fabs(hi - 0.68733) < 1e-4);
	stats_wilson(0, 10, STATS_Z95, &lo, &hi);          /* 0 .. 0.2775 */
	CHECK(lo == 0 && fabs(hi - 0.27753) < 1e-4);
	stats_wilson(10, 10, STATS_Z95, &lo, &hi);
	CHECK(hi == 1 && fabs(lo - 0.72247) < 1e-4);
	stats_wilson(0, 0, STATS_Z95, &lo, &hi);
	CHECK(lo == 0 && hi == 1);
	/* Newcombe's example 1 (Statistics in Medicine 17, 1998, table II):
	 * 56/70 - 48/80 = 0.2000, method 10: 0.0524 .. 0.3339 */
	stats_newcombe(56, 70, 48, 80, STATS_Z95, &lo, &hi);
	CHECK(fabs(lo - 0.0524) < 5e-4 && fabs(hi - 0.3339) < 5e-4);

	/* Holm: sorted 0.005 0.01 0.03 0.04 times 4 3 2 1, running maximum */
	double p[] = { 0.01, 0.04, 0.03, 0.005 }, q[4];
	stats_holm(p, 4, q);
	CHECK(fabs(q[0] - 0.03) < 1e-12 && fabs(q[1] - 0.06) < 1e-12);
	CHECK(fabs(q[2] - 0.06) < 1e-12 && fabs(q[3] - 0.02) < 1e-12);
	double one = 0.7, qone;
	stats_holm(&one, 1, &qone);
	CHECK(qone == 0.7);
	CHECK(fabs(stats_resolution_percent(10000) - 1.96) < 0.001);
}

/* The effective rate and the test that calls samples lost, not noise. */
static void test_unsampled(void)
{
	CHECK(stats_rate_hz(905, 3620000000u) == 250.0);
	CHECK(stats_rate_hz(0, 1000) == 0 && stats_rate_hz(10, 0) == 0);
	CHECK(stats_period(3620000000u, 905) == 4000000.0 && stats_period(5, 0) == 0);
	double share = -1;
	/* 10000 expected: sqrt is 100, so up to 300 short is noise */
	CHECK(stats_shortfall(9700, 10000, &share) == 0 && share == -1);
	CHECK(stats_shortfall(9699, 10000, &share) == 1 && fabs(share - 0.0301) < 1e-12);
	CHECK(stats_shortfall(10400, 10000, &share) == 1 - 1);     /* more than expected: not a loss */
	/* xz -T2 in issue 15: 7 samples for 7.06 s at 4 ms (1765 expected) */
	CHECK(stats_shortfall(7, 7.06 / 0.004, &share) == 1 && fabs(share - (1 - 7 / 1765.0)) < 1e-12);
	CHECK(stats_shortfall(0, 0, NULL) == 0 && stats_shortfall(0, -1, NULL) == 0);
	CHECK(stats_shortfall(0, 4, NULL) == 0);                   /* 4 - 3*2 < 0: no count is short */
	CHECK(stats_shortfall(0, 10, NULL) == 1);                  /* 10 - 3*3.16 = 0.51 */
}

int main(void)
{
	test_unsampled();
	test_binomial();
	test_fisher();
	test_intervals();
	test_stderr();
	test_poisson_score();
	test_u64map();
	test_aggregate();
	return unit_done("test_stats");
}
