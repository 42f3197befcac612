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

# Statistical assertions.  Each one may fail by chance with a probability
# of at most 1e-4 (so that a suite of a few hundred of them fails by chance
# less than once in thirty runs): a count or share is held to its
# expectation within PCT_Z standard errors, PCT_Z = 3.89 being the
# two-sided normal quantile of 1e-4 (P(|N(0,1)| > 3.89) = 1.0e-4), plus a
# stated allowance for what the statistics do not hold (the timing of a
# measurement itself).  The expectation comes from the samples the run
# actually took: a loaded machine loses CPU-timer expirations (libpct(3)),
# which changes how many samples there are, and so the standard errors,
# never the verdict: a lost expiration is lost whatever code ran, so the
# samples kept are still a random sample of the CPU time, and the
# profile's effective period (its CPU time over its samples) is the time
# one kept sample stands for.
PCT_Z=3.89

# check_truth TRUTH.tsv REPORT.tsv PERIOD_S [COLUMN [WEIGHT]]
# TRUTH has "function<TAB>cpu_ns" lines written by tests/progs/selftime;
# REPORT is `pct report --format=tsv`; PERIOD_S the profile's effective
# period (period_of).  For each function (or the COLUMN's value), two
# assertions, each at most 1e-4 to fail by chance:
#  - its share of the samples in the measured functions, q = n/N, is its
#    true share p of their CPU time within PCT_Z binomial standard errors,
#    sqrt(p(1-p)w/N), plus 1 point: each function's clock reads are timed
#    on its side of the bracket but sampled in clock_gettime, outside the
#    measured functions;
#  - n x PERIOD_S is its true CPU time within PCT_Z Poisson standard
#    errors, sqrt(n w) x PERIOD_S, plus 3% of it: the effective period is
#    the whole process's CPU time (start-up and the clock reads included)
#    over all its samples.
# The 1 point is TRUTH_BIAS (a fraction); overload_bias sets it for a run
# of CPU-time timers on an oversubscribed machine.
# WEIGHT (default 1) is the number of samples one observation stands for:
# CPU timers above the tick count each expiry as 1 + its overruns, all at
# one PC, so the standard errors grow by sqrt(WEIGHT); the larger of it
# and $TRUTH_WEIGHT (overload_bias: the profile's measured overruns) is
# used.  At least
# $TRUTH_MIN (default 200) samples must be in the measured functions.
check_truth() {
	awk -F'\t' -v period="$3" -v key="${4:-function}" -v w="$(awk -v a="${5:-1}" -v b="${TRUTH_WEIGHT:-1}" 'BEGIN { print (a > b ? a : b) }')" \
		-v z="$PCT_Z" -v min="${TRUTH_MIN:-200}" \
		-v bias="${TRUTH_BIAS:-0.01}" '
	FNR == 1 && NR != 1 { report = 1 }
	!report { t[$1] = $2 / 1e9; tt += $2 / 1e9; next }
	FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	($col[key] in t) { n[$col[key]] += $col["samples"] }
	END {
		for (f in t) nn += n[f]
		if (nn < min) { printf "only %d samples in the measured functions (want %d)\n", nn, min; exit 1 }
		bad = 0
		for (f in t) {
			p = t[f] / tt; q = n[f] / nn
			se = sqrt(p * (1 - p) * w / nn)
			est = n[f] * period; sest = sqrt((n[f] > 0 ? n[f] : 1) * w) * period
			ok1 = (q - p <= z * se + bias && p - q <= z * se + bias)
			# (the bias beyond 1 point moves the count as the share: of all)
			tol = z * sest + 0.03 * t[f] + (bias > 0.01 ? (bias - 0.01) * tt : 0)
			ok2 = (est - t[f] <= tol && t[f] - est <= tol)
			printf "%-8s true %.3f s (%.1f%%)  pct %d samples = %.3f s (+- %.3f)  %.1f%% (+- %.1f)  %s\n", \
				f, t[f], 100 * p, n[f], est, sest, 100 * q, 100 * se, (ok1 && ok2) ? "ok" : "MISMATCH"
			if (!(ok1 && ok2)) bad = 1
		}
		exit bad
	}' "$1" "$2"
}

# overload_bias PROFILE WALL_S: TRUTH_BIAS for a profile of CPU-time timers
# (the default 250 Hz) whose process ran WALL_S seconds of wall-clock
# time.  The kernel checks those timers at its tick, and on an
# oversubscribed machine, where a thread runs in slices between other
# threads, the tick's samples are no longer a uniform sample of its CPU
# time: selftime's work_c (17.0% of the CPU time) got 11.1-16.0% of 743-749
# samples in runs at load 6-9 on 2 CPUs, work_a 2-5.5 points too many,
# where perf events (-F 1000) in the same minutes gave 16.3-17.1%
# (libpct(3), and tests/progs/selftime.c, whose turns are now long enough
# to keep the bias near 2 points).  So when the run had
# less than 90% of a CPU (its CPU time over WALL_S), the allowance is 7
# points (and 6% of the CPU time in all on a count), else 1.
# It sets TRUTH_WEIGHT too, the profile's measured overrun dispersion
# (overrun_weight), by which check_truth and check_share widen their
# variances.
overload_bias() {
	local cpu
	TRUTH_WEIGHT=$(overrun_weight "$1")
	[ "$TRUTH_WEIGHT" = 1 ] || echo "timer overruns: one signal stood for $TRUTH_WEIGHT samples on average (squared weights over samples): the variances are widened so"
	cpu=$("$PCTBIN" report "$1" 2>/dev/null | sed -n 's/^# [0-9]* samples over \([0-9.]*\) s.*/\1/p' | head -1)
	TRUTH_BIAS=$(awk -v c="${cpu:-0}" -v w="$2" 'BEGIN { print (w > 0 && c / w < 0.9) ? 0.07 : 0.01 }')
	[ "$TRUTH_BIAS" = 0.01 ] || echo "oversubscribed: ${cpu:-?} s of CPU in $2 s: the timers' tick bias allowed ($TRUTH_BIAS)"
}

# overrun_weight PROFILE...: the squared weights of the profiles' sample
# signals over their samples (`pct dump`'s '#pct overruns' line), 1 if
# none stood for more than one period.  Each signal of weight w adds w to
# a count and w^2 to its variance (timer overruns: a loaded machine's
# kernel checked the timers late, up to 40 periods in one signal beside
# three busy loops), so a count's variance is this times its mean.
overrun_weight() {
	"$PCTBIN" dump "$@" 2>/dev/null | awk '/^#pct overruns / { for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] += kv[2] } }
		END { print (v["samples"] > 0 && v["squares"] > v["samples"]) ? sprintf("%.3f", v["squares"] / v["samples"]) : 1 }'
}

# now_ns, since T0: the wall-clock seconds since now_ns gave T0
now_ns() { date +%s%N; }
since() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.3f", (b - a) / 1e9 }'; }

# samples_in FILE...: the samples the profiles hold (their report's count)
samples_in() {
	"$PCTBIN" report --format=tsv "$@" 2>/dev/null | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ n += $c["samples"] } END { print n + 0 }'
}

# until_samples MIN FILE SECONDS LIMIT FUNCTION [COUNT]: a test that needs MIN
# samples runs until it has them, not for a fixed time: FUNCTION SECONDS
# (re)writes the profile FILE, and is called again with twice the seconds
# while FILE holds fewer than MIN samples, up to LIMIT seconds; it fails
# past that.  COUNT FILE, if given, prints the count held to MIN instead
# of samples_in's (the samples in one module, say).  A loaded machine
# that loses CPU-timer expirations makes the run longer, not the test
# fail.  Sets RAN_FOR to the seconds of the run
# kept, RAN_WALL to its wall-clock seconds.  (Rerunning on a count alone
# biases no share: which function a sample lands in does not depend on
# how many samples there are.)
until_samples() {
	local min=$1 file=$2 s=$3 limit=$4 fn=$5 count=${6:-samples_in} got t0
	while :; do
		t0=$(date +%s%N)
		"$fn" "$s" || fail "$fn $s failed"
		RAN_WALL=$(awk -v a="$t0" -v b="$(date +%s%N)" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
		got=$("$count" "$file")
		[ "$got" -ge "$min" ] && break
		echo "until_samples: $got samples in $s s, want $min: running again for $(awk -v s="$s" 'BEGIN { print 2 * s }') s"
		s=$(awk -v s="$s" 'BEGIN { print 2 * s }')
		awk -v s="$s" -v l="$limit" 'BEGIN { exit !(s <= l) }' || fail "fewer than $min samples ($got) in runs of up to $limit s"
	done
	RAN_FOR=$s
}

# sampled FILE ERR CMD [ARG...]: run CMD, a `pct record` that writes the
# profile FILE, its stderr in ERR, until FILE is there, five times at
# most, a second apart (the misses come in bursts: tests/hosts/lib.sh); CMD's status if it fails.  The kernel checks CPU-time timers only
# at a tick that finds the thread running, and an oversubscribed machine
# can miss a whole short run, which then leaves no profile (libpct(3): 2
# of 545 runs of a plain program's 0.2 s of CPU got no signal beside a
# loaded make check; five runs at that rate, were they independent, miss with a probability of
# about 2e-11).  A run is made again only if record said so (its "checked
# no CPU-time timer") and printed no other line but its coverage: a
# warning fails at once.  The caller checks FILE after.
sampled() {
	local file=$1 err=$2 try rc
	shift 2
	for try in 1 2 3 4 5; do
		rm -f "$file"
		"$@" 2>"$err"; rc=$?
		[ $rc = 0 ] || return $rc
		[ -e "$file" ] && return 0
		grep -q "checked no CPU-time timer" "$err" || return 0
		grep -v -e "wrote no profile: no sample" -e "^pct: the samples cover" "$err" | grep -q . && return 0
		[ $try = 5 ] && break
		echo "sampled: no $file (run $try; $(head -c 200 "$err")): again" >&2
		sleep 1
	done
	return 0
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
# matches TRUE_NS/TRUE_OF_NS within PCT_Z binomial standard errors
# (sqrt(p(1-p)/OF): at most 1e-4 to fail by chance) + 2 points (the
# program's clock reads around its calls, timed but not sampled there), or
# TRUTH_BIAS if overload_bias set it higher; OF must be at least 100.  The
# variance is widened by $TRUTH_WEIGHT (overload_bias) if set.
check_share() {
	awk -v what="$1" -v n="$2" -v of="$3" -v t="$4" -v tt="$5" -v z="$PCT_Z" -v w="${TRUTH_WEIGHT:-1}" \
		-v b="$(awk -v t="${TRUTH_BIAS:-0}" 'BEGIN { print (t > 0.02 ? t : 0.02) }')" 'BEGIN {
		if (of < 100) { printf "%s: only %d samples\n", what, of; exit 1 }
		p = t / tt; q = n / of; se = sqrt(p * (1 - p) * w / of)
		ok = (q - p <= z * se + b && p - q <= z * se + b)
		printf "%-16s true %.1f%%  pct %d/%d = %.1f%% (+- %.1f)  %s\n", what, 100 * p, n, of, 100 * q,
			100 * se, ok ? "ok" : "MISMATCH"
		exit !ok }'
}

# poisson_low EXPECTED: the smallest count that a Poisson count of mean
# EXPECTED reaches with probability at least 1 - 1e-4 (normal
# approximation with PCT_Z, continuity-corrected): a floor on a count
# that is at most 1e-4 to fail by chance.
poisson_low() {
	awk -v m="$1" -v z="$PCT_Z" 'BEGIN { f = m - z * sqrt(m) - 0.5; printf "%d\n", (f > 0 ? f : 0) }'
}

# consumers_here: true unless this is make check's sanitized run
# (build-san without PCT_TEST_FULL), where a test leaves out what only
# another program checks of pct's output (a browser loading it): the
# sanitizers see pct's code, and the plain run checks the output
consumers_here() { [ "$B" != build-san ] || [ -n "${PCT_TEST_FULL:-}" ]; }

# full_or FULL QUICK: FULL under make check-full (PCT_TEST_FULL=1), else
# QUICK: the rounds of a stress test that make check cuts (README,
# Testing, lists them)
full_or() { if [ -n "${PCT_TEST_FULL:-}" ]; then echo "$1"; else echo "$2"; fi; }

# Shared resources of tests that run at once (tests/run.sh -j): a lock
# per name, held while FUNCTION or COMMAND runs.
# locked NAME COMMAND...: run COMMAND holding the lock NAME (flock(1)
# on $ROOT/build/.lock-NAME, waiting up to 20 minutes)
locked() {
	local name=$1; shift
	mkdir -p "$ROOT/build" || return 1
	flock -w 1200 "$ROOT/build/.lock-$name" "$@"
}
# npm_dir NAME PACKAGE@VERSION...: a directory of npm packages, installed
# once for every build (plain and sanitized) in $ROOT/build/npm-NAME-HASH,
# under a lock; prints the directory, or fails the test
npm_dir() {
	local name=$1; shift
	local dir p ok=1
	dir=$ROOT/build/npm-$name-$(echo "$*" | md5sum | cut -c1-8)   # a directory per set of versions
	for p in "$@"; do [ -f "$dir/node_modules/${p%@*}/package.json" ] || ok=; done
	if [ -z "$ok" ]; then
		locked "npm-$name" bash -c 'for p in "${@:2}"; do [ -f "$1/node_modules/${p%@*}/package.json" ] ||
			exec npm install --prefix "$1" --no-audit --no-fund --silent "${@:2}"; done' npm "$dir" "$@" >npm.log 2>&1 ||
			fail "npm install $*: $(tail -5 npm.log)"
	fi
	echo "$dir"
}
# apt_get ARGS...: apt-get, waiting up to 5 minutes for the package
# system's lock that another test may hold
apt_get() { DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 "$@"; }

# build_copy: a copy of the plain build's objects and outputs in $SCRATCH,
# for `make install B=$(build_copy)`: an install for another LIBDIR
# recompiles launch.c and relinks pct, which in $ROOT/build would rewrite
# the pct every other test is running (one saw "Permission denied" while
# the linker wrote it).  Prints its path.
build_copy() {
	local b=$SCRATCH/build-copy
	mkdir -p "$b" && cp -a "$ROOT/build/obj" "$ROOT/build/gen" "$ROOT/build/lib" "$ROOT/build/bin" \
		"$ROOT/build/libdir.txt" "$b/" || fail "cannot copy $ROOT/build"
	echo "$b"
}
