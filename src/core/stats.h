/*
 * stats.h - the statistics of sampled counts.
 *
 * A location that holds n of N samples is, to a good approximation, a
 * Poisson count (the seed's argument, and the gprof manual's §6.1): its
 * standard error is sqrt(n) samples.  Its share p = n/N of a run of N
 * samples is binomial: standard error sqrt(p(1-p)/N), or
 * 100*sqrt(p(1-p)/N) percentage points (not 100*sqrt(n)/N, the count's
 * error over N, which is too wide for large shares: 10.3 points against
 * 1.06 for 93 of 94 samples).  Intervals for a share use Wilson's score interval
 * (E. B. Wilson, J. Amer. Statist. Assoc. 22, 1927), which unlike the
 * Wald interval p +- z*se stays inside [0, 1] and keeps its coverage for
 * small counts (Agresti & Coull, The American Statistician 52, 1998).
 * Two counts are compared with the exact conditional test for Poisson
 * counts: given their sum, the first is binomial (Przyborowski & Wilenski,
 * Biometrika 31, 1940).
 */
#ifndef PCT_STATS_H
#define PCT_STATS_H

#include <stddef.h>
#include <stdint.h>

#define STATS_Z95 1.959963984540054    /* the standard normal's 97.5% quantile */

/* Standard error of a Poisson count n, in samples: sqrt(n). */
double stats_stderr(uint64_t n);
/* Standard error of the share p = n/total, in percentage points:
 * 100*sqrt(p(1-p)/total) (binomial); 0 when total is 0. */
double stats_stderr_percent(uint64_t n, uint64_t total);

/* Wilson score interval for the share k/n at normal quantile z, as
 * fractions in [0, 1]; [0, 1] when n is 0. */
void stats_wilson(uint64_t k, uint64_t n, double z, double *lo, double *hi);

/* The score interval for the mean of a Poisson count n at normal
 * quantile z, in samples: the means m with (n - m)^2 <= z^2 m, that is
 * n + z^2/2 -+ z sqrt(n + z^2/4).  Unlike n -+ z sqrt(n) it never goes
 * below 0 and keeps its coverage for small counts: [0, 3.84] for 0 at
 * 95%.  A rate over a span is the interval over the span. */
void stats_poisson_score(uint64_t n, double z, double *lo, double *hi);

/* Newcombe's hybrid score interval (his method 10, Statistics in
 * Medicine 17, 1998) for the difference of shares k1/n1 - k2/n2. */
void stats_newcombe(uint64_t k1, uint64_t n1, uint64_t k2, uint64_t n2, double z, double *lo, double *hi);

/* The regularized incomplete beta function I_x(a, b), a, b > 0. */
double stats_betai(double a, double b, double x);
/* Two-sided p-value of Student's t statistic t with df (> 0) degrees of
 * freedom: P(|T| >= |t|) = I_{df/(df+t^2)}(df/2, 1/2). */
double stats_t_p2(double t, double df);
/* The quantile of Student's t: the t > 0 with P(|T| >= t) = p2 (0 < p2 <
 * 1), df degrees of freedom; df = INFINITY gives the normal quantile
 * (p2 = 0.05: 1.96).  By bisection to 1e-9 relative; the last 4 asked
 * for (per thread) are kept. */
double stats_t_quantile2(double p2, double df);
/* P(X <= k) for X ~ Binomial(n, p). */
double stats_binom_cdf(uint64_t k, uint64_t n, double p);
/* Two-sided exact binomial test of k successes in n trials against p:
 * the probability of every outcome no more likely than k (the method of
 * R's binom.test). */
double stats_binom_test(uint64_t k, uint64_t n, double p);

/* Fisher's exact test, two-sided, of k1 of n1 against k2 of n2 (a row's
 * samples in two profiles of n1 and n2 samples): given both profiles'
 * totals and the row's k1 + k2, k1 is hypergeometric; the p-value is the
 * probability of every outcome no more likely than k1 (R's fisher.test,
 * relative tolerance 1e-7).  Unlike the binomial test of k1 of k1 + k2
 * against n1/(n1 + n2), which treats the rest of each profile as fixed,
 * it keeps its power for a row that is a large share: 52 of 148 against
 * 147 of 228 gives 3.1e-8 here, 1.1e-4 by the binomial.  1 when n1 or n2
 * is 0.  Work grows as the standard deviation, sqrt(k1 + k2) at most. */
double stats_fisher_test(uint64_t k1, uint64_t n1, uint64_t k2, uint64_t n2);

/* How much wider than sqrt(samples) the error of a count of weighted
 * signals is (struct profile_overruns): sqrt(squares / samples), the
 * square root of the quasi-Poisson dispersion (each signal of weight w
 * adds w to the count and w^2 to its variance); 1 when every weight is
 * 1, or with no samples. */
double stats_overrun_factor(uint64_t samples, uint64_t squares);
#define STATS_OVERRUN_NOTE 1.1         /* the factor from which a report says so */

/* Holm's step-down adjusted p-values (q[i] for p[i]), n tests (S. Holm,
 * Scand. J. Statist. 6, 1979): q < alpha keeps the chance of any false
 * flag at most alpha, whatever the other rows do. */
void stats_holm(const double *p, size_t n, double *q);

/* The smallest difference between two shares of one profile of total
 * samples that is significant at 95%, in percentage points: 1.96/sqrt(N)
 * (the variance of p_i - p_j is at most (p_i + p_j)/N <= 1/N). */
double stats_resolution_percent(uint64_t total);

/* The rate of samples taken over span_ns nanoseconds (of CPU time, or of
 * the profile's dimension), in samples per second (Hz); 0 when either is
 * 0.  The effective period is its inverse.  The one definition of the
 * "effective rate" that the reports and `pct record` print. */
double stats_rate_hz(uint64_t samples, uint64_t span_ns);
/* The effective period: span / samples, in the span's unit (ns, or
 * events of a count); 0 when samples is 0. */
double stats_period(uint64_t span, uint64_t samples);

/* How many standard deviations a count must fall below its expectation
 * before pct calls the difference lost samples rather than noise. */
#define STATS_SHORTFALL_Z 3.0
/*
 * Did samples fall short of expected (the span divided by the requested
 * period) by more than statistical noise?  1 if samples < expected -
 * STATS_SHORTFALL_Z * sqrt(expected), else 0.  The count of a timer that
 * fires once per period of CPU time is at most Poisson-spread about its
 * expectation (a timer started at a random phase has less spread), so a
 * count 3 standard deviations short happens by chance less than 0.2% of
 * the time.  On 1 the unsampled share, 1 - samples/expected, is put in
 * *share (may be NULL).
 */
int stats_shortfall(uint64_t samples, double expected, double *share);

#endif
