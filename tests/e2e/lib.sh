# tests/e2e/lib.sh - sourced by every end-to-end test.
# Gives: $PCTBIN, $LIBPCT, $PROGS, $HOSTS, a scratch directory as the working
# directory (removed at exit), fail/skip helpers, and check_truth.
set -u
# one locale for every test, whatever the machine's: UTF-8, so that text
# reports print "±" (test 11 checks "+-" outside UTF-8)
unset LC_ALL LC_CTYPE
export LANG=C.UTF-8
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
B=${PCT_BUILD:-build}             # tests/run.sh sets it: build, or build-san
PCTBIN=$ROOT/$B/bin/pct
LIBPCT=$ROOT/$B/lib/libpct.so
PROGS=$ROOT/$B/tests/progs
HOSTS=$ROOT/$B/tests/hosts          # host programs (tests/hosts/lib.sh runs them)
SCRATCH=$(mktemp -d /tmp/pct-e2e.XXXXXX)
trap 'rm -rf "$SCRATCH"' EXIT
cd "$SCRATCH" || exit 1
unset PCT PCT_HZ PCT_SLOTS PCT_QUIET PCT_LIB PCT_EVENT PCT_PERIOD PCT_SIGNAL
# each test has a build-id cache of its own (pct record fills it), empty
# at its start, so that no test finds another's modules
unset PCT_CACHE
export XDG_CACHE_HOME=$SCRATCH/cache

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }
pass() { echo "ok: $*"; }

# check_truth TRUTH.tsv REPORT.tsv PERIOD_S [COLUMN [WEIGHT]]
# TRUTH has "function<TAB>cpu_ns" lines written by tests/progs/selftime;
# REPORT is `pct report --format=tsv`.  For each function, pct's share
# among the measured functions must match the true share, and
# samples*period the true CPU time, within 4 standard errors plus a small
# allowance for the timing of the measurement itself.  WEIGHT (default 1)
# is the number of samples one observation stands for: CPU timers above
# the tick count each expiry as 1 + its overruns, all at one PC, so the
# standard errors grow by sqrt(WEIGHT).
check_truth() {
	awk -F'\t' -v period="$3" -v key="${4:-function}" -v w="${5:-1}" '
	FNR == 1 && NR != 1 { report = 1 }
	!report { t[$1] = $2 / 1e9; tt += $2 / 1e9; next }
	FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	($col[key] in t) { n[$col[key]] += $col["samples"] }
	END {
		for (f in t) nn += n[f]
		if (nn < 200) { printf "only %d samples in the measured functions\n", nn; exit 1 }
		bad = 0
		for (f in t) {
			p = t[f] / tt; q = n[f] / nn
			se = sqrt(p * (1 - p) * w / nn)
			est = n[f] * period; sest = sqrt((n[f] > 0 ? n[f] : 1) * w) * period
			ok1 = (q - p < 4 * se + 0.01 && p - q < 4 * se + 0.01)
			ok2 = (est - t[f] < 4 * sest + 0.03 * t[f] && t[f] - est < 4 * sest + 0.03 * t[f])
			printf "%-8s true %.3f s (%.1f%%)  pct %d samples = %.3f s (%.1f%% +- %.1f)  %s\n", \
				f, t[f], 100 * p, n[f], est, 100 * q, 100 * se, (ok1 && ok2) ? "ok" : "MISMATCH"
			if (!(ok1 && ok2)) bad = 1
		}
		exit bad
	}' "$1" "$2"
}

# period_of FILE: the effective period in seconds from the report summary.
period_of() {
	"$PCTBIN" report "$@" | sed -n 's/.*(period \([0-9.]*\) ms).*/\1/p' | awk '{ print $1 / 1000 }'
}

# share_of REPORT.tsv COLUMN VALUE: percent of samples whose COLUMN is VALUE.
share_of() {
	awk -F'\t' -v key="$2" -v want="$3" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		{ t += $col["samples"]; if ($col[key] == want) n += $col["samples"] }
		END { printf "%.2f\n", t ? 100 * n / t : 0 }' "$1"
}

# check_share WHAT COUNT OF TRUE_NS TRUE_OF_NS: the share COUNT/OF (samples)
# matches TRUE_NS/TRUE_OF_NS within 4 standard errors (binomial) + 2 points.
check_share() {
	awk -v what="$1" -v n="$2" -v of="$3" -v t="$4" -v tt="$5" 'BEGIN {
		if (of < 100) { printf "%s: only %d samples\n", what, of; exit 1 }
		p = t / tt; q = n / of; se = sqrt(p * (1 - p) / of)
		ok = (q - p < 4 * se + 0.02 && p - q < 4 * se + 0.02)
		printf "%-16s true %.1f%%  pct %d/%d = %.1f%% (+- %.1f)  %s\n", what, 100 * p, n, of, 100 * q,
			100 * se, ok ? "ok" : "MISMATCH"
		exit !ok }'
}
