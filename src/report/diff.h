/*
 * diff.h - comparing two profiles row by row (`pct diff`).
 *
 * Each row has a count in the base and in the new profile.  Two questions
 * can be asked of it:
 *
 *  time   (default) did the row's time change?  Counts are Poisson with
 *         means rate x seconds; given their sum, the base count is
 *         binomial with p = r_base / (r_base + r_new), r being each
 *         profile's samples per second (1/period).  For runs of the same
 *         work, as when comparing two builds on one input.
 *  share  (--normalize) did the row's share of its profile change?  The
 *         row's samples are k_base of N_base and k_new of N_new; given
 *         both totals and the row's sum, k_base is hypergeometric:
 *         Fisher's exact test (stats_fisher_test).  For runs of different
 *         lengths.  (The binomial given the row's sum, with p = N_base /
 *         (N_base + N_new), treats the rest of each profile as fixed and
 *         loses power as the row's share grows: a function at 35% of one
 *         run and 64% of the other, 52 of 148 samples against 147 of 228,
 *         got p 1.1e-4 from it, 3.1e-8 from Fisher's.)
 *
 * Either way the p-value is exact and two-sided (stats_binom_test,
 * stats_fisher_test), and p-values are adjusted for the number of rows
 * with Holm's step-down method, which keeps the chance of flagging any
 * unchanged row at most alpha even when other rows really changed: a
 * flagged row is worth an engineer's time.  Benjamini-Hochberg controls
 * only the expected share of false flags; on synthetic profiles with one
 * real 25% speed-up it flagged an unchanged function in 8.8% of trials at
 * 0.05 (tests/unit/test_diff.c, before the switch), Holm in under 5%, at
 * the same power for the real change.
 *
 * Several runs per side (diff_setup's runs, at least DIFF_MIN_RUNS on
 * each): one run is not a sample of the program.  Hash seeds, memory
 * layout, other tenants and frequency scaling move each row's true time
 * from run to run, so counts of separate runs vary more than Poisson (in
 * ten runs of one unchanged python3 workload the two-profile test flagged
 * a row in 22 of the 45 pairs: bench/diff-runs.sh).  The test then uses the between-run variance: a
 * quasi-Poisson model (McCullagh and Nelder, Generalized Linear Models,
 * 2nd ed., 1989, sections 4.5 and 6.2), per row.  Run j of side g has
 * count c_j with mean theta_g x E_j, E_j being the run's exposure (its
 * samples in share mode; 1/period, samples per second, in time mode, so
 * that theta is the row's share or its seconds per run), and variance
 * phi x mean.  theta_g = sum c / sum E over the side's runs.  A row's own
 * phi, Pearson's X^2 / (K - 2) over all K runs, rests on few degrees of
 * freedom, so it is moderated as limma and edgeR do (G. K. Smyth, Stat.
 * Appl. Genet. Mol. Biol. 3(1), 2004): with negative-binomial variance,
 * phi = 1 + mean x cv^2, cv being the run-to-run coefficient of variation
 * of the row's time.  The row's own cv^2, (phi - 1) / mean, is averaged
 * with the median over the rows of at least 10 samples a run, weighted
 * K - 2 and DIFF_PRIOR_DF x (K - 2); phi is then at least 1 (never less
 * than Poisson).  The statistic t = (theta_new - theta_base) /
 * sqrt(phi theta_0 (1/E_base + 1/E_new)), theta_0 pooled over both
 * sides, is taken as Student's t with (1 + DIFF_PRIOR_DF) x (K - 2)
 * degrees of freedom under no change.  Its interval uses each side's own
 * theta.  Calibrated on simulated negative-binomial runs
 * (tests/unit/test_diff.c): A/A flagged in at most 2.8% of experiments
 * at cv 0.02 to 0.10, where pooling the runs flagged 6.5% to 81%.
 *
 * The minimum detectable effect of a row (mde, points) is the change that
 * the test would find with 80% power at its row's Bonferroni level
 * alpha/m (Holm's first step, m rows tested): (t_{1-alpha/2m} + t_0.8) x
 * the standard error of delta under no change.  A row whose mde is above
 * the smallest change that matters cannot be resolved by these runs.
 *
 * A row without a name (a key "[unknown]", or the module "[anon]") lumps
 * together whatever code the symbols could not name, which differs between
 * two builds or machines: it is "unresolved", gets a p-value but no q and
 * no significance mark, and is left out of Holm's count.  When more than
 * DIFF_UNRESOLVED_WARN percent of a side's samples are in such rows the
 * comparison is missing that much code, and pct diff says so.
 */
#ifndef PCT_DIFF_H
#define PCT_DIFF_H

#include <stddef.h>
#include <stdint.h>

/*
 * A row's verdict, from its adjusted test and its 95% interval of delta
 * against the smallest change that matters, min_effect points (struct
 * diff_setup):
 *   DIFF_SLOWER / DIFF_FASTER  q < alpha and |delta| >= min_effect: the
 *                  row's time (or share) rose / fell;
 *   DIFF_UNCHANGED the interval lies inside (-min_effect, +min_effect):
 *                  any change is smaller than what matters;
 *   DIFF_UNRESOLVED neither: too few samples to tell a change of
 *                  min_effect from none, or a row without a name.
 * The names are diff_verdict_name()'s: "slower", "faster", "unchanged",
 * "unresolved" (the HTML report's data-verdict).
 */
enum diff_verdict { DIFF_UNRESOLVED, DIFF_UNCHANGED, DIFF_SLOWER, DIFF_FASTER };

const char *diff_verdict_name(enum diff_verdict v);

struct diff_row {
	char **key;                    /* not owned */
	uint64_t base, new;            /* samples */
	double base_pct, new_pct;      /* each profile's share, percent */
	double delta, lo, hi;          /* change and its 95% interval, percentage points */
	double p, q;                   /* exact p-value; q: p Holm-adjusted (NAN if unresolved) */
	int significant;               /* q < alpha; never for an unresolved row */
	int unresolved;                /* set by the caller: diff_key_unresolved() */
	enum diff_verdict verdict;     /* diff_compute: what the row's change is (below) */
	double mde;                    /* minimum detectable effect, percentage points */
	const uint64_t *runs;          /* with runs: the count of each run, base runs first
					  (diff_setup's base_runs + new_runs); not owned */
};

#define DIFF_UNRESOLVED_WARN 5.0       /* percent of a side's samples */

struct diff_setup {
	uint64_t base_total, new_total; /* samples of all rows */
	double base_period, new_period; /* seconds (or units) per sample; time mode */
	int share;                     /* 1: compare shares; 0: compare time */
	double alpha;                  /* significance level for q */
	double min_effect;             /* percentage points: the smallest change that matters,
					  for the verdict; 0 means DIFF_MIN_EFFECT */
	/* several runs per side (-b BASE1 -b BASE2 ... NEW1 NEW2 ...): with
	 * DIFF_MIN_RUNS or more on each side, the between-run test; else
	 * the sides are pooled and only within-run noise is tested */
	size_t base_runs, new_runs;    /* 0: the pooled sides only */
	const uint64_t *run_total;     /* samples of each run, base runs first */
	const double *run_period;      /* seconds per sample of each run */
};

/* The within-run test diff_compute makes, in words, for a report's key:
 * "Fisher's exact test of ... share ..." (share) or "exact binomial test
 * of ... time ..., conditional on their sum" (time).  Static storage. */
const char *diff_test_name(const struct diff_setup *s);

#define DIFF_MIN_RUNS 3                /* runs per side for the between-run test */
#define DIFF_PRIOR_DF 1                /* the common cv^2's weight, in units of K - 2 */

/* 1 if s asks for the between-run test (DIFF_MIN_RUNS runs a side). */
int diff_between_runs(const struct diff_setup *s);
/* The between-run test's degrees of freedom: (1 + DIFF_PRIOR_DF) x
 * (runs - 2). */
double diff_runs_df(const struct diff_setup *s);

#define DIFF_MIN_EFFECT 0.5            /* percentage points of the base's total */

/*
 * Fill every field but key, base, new and runs.  With the between-run
 * test (diff_between_runs), base and new are the sums of the runs.  In time mode delta is the
 * change in the row's time as percentage points of the base profile's
 * total time, with a normal (Wald) interval from the Poisson variances;
 * in share mode it is new_pct - base_pct with Newcombe's interval.
 */
void diff_compute(struct diff_row *rows, size_t n, const struct diff_setup *s);

/* Sort: significant first, then by q (unresolved rows, without one,
 * after the others), then by the size of delta. */
void diff_sort(struct diff_row *rows, size_t n, size_t nkeys);

/* 1 if a row whose nkeys keys are key[], in the columns named names[]
 * ("function", "module", "file", ...), has no name: a key is "[unknown]",
 * or the module is "[anon]".  Else 0. */
int diff_key_unresolved(char *const *key, char *const *names, size_t nkeys);

/* The share, in percent, of one side's total samples in the unresolved
 * rows of rows[0..n): side 0 the base, 1 the new.  0 if total is 0. */
double diff_unresolved_pct(const struct diff_row *rows, size_t n, uint64_t total, int side);

/* 1 if a side with pct percent of its samples unresolved is to be
 * reported: pct above DIFF_UNRESOLVED_WARN. */
int diff_unresolved_warn(double pct);

#endif
