# Spin one second, then sleep one second: cpu sees the spin only; wall
# sees both halves about equally (the sleeping thread is observed through
# /proc, not interrupted); user sees the spin.
. "$(dirname "$0")/lib.sh"
"$PCTBIN" record -o cpu.pct "$PROGS/spinsleep" 1 2>/dev/null || fail "cpu run"
"$PCTBIN" record -e wall -o wall.pct "$PROGS/spinsleep" 1 2>err || fail "wall run: $(cat err)"
"$PCTBIN" record -e user -o user.pct "$PROGS/spinsleep" 1 2>/dev/null || fail "user run"
for e in cpu wall user; do "$PCTBIN" report --format=tsv $e.pct >$e.tsv || fail "report $e"; done
# spin's loop (burn.h) reads its CPU clock: time in clock_gettime is
# spin's too (on a loaded machine, 17% of it was seen there)
burn_share() { awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ t += $c["samples"] } $c["function"] == "spin" || $c["function"] ~ /clock_gettime/ { n += $c["samples"] }
	END { printf "%.2f\n", t ? 100 * n / t : 0 }' "$1"; }
cpu_spin=$(burn_share cpu.tsv)
wall_spin=$(share_of wall.tsv function spin)
wall_sleep=$(awk -F'\t' 'NR > 1 && $NF ~ /nanosleep/ { s += $3 } END { printf "%.2f", s }' wall.tsv)
user_spin=$(burn_share user.tsv)
n=$(awk -F'\t' 'NR > 1 { n += $1 } END { print n }' wall.tsv)
echo "cpu: spin $cpu_spin%; wall: spin $wall_spin%, nanosleep $wall_sleep% of $n samples; user: spin $user_spin%"
awk -v s="$cpu_spin" 'BEGIN { exit !(s >= 85) }' || fail "cpu profile: spin only $cpu_spin%"
awk -v s="$user_spin" 'BEGIN { exit !(s >= 85) }' || fail "user profile: spin only $user_spin%"
# about equal: each half within 4 standard errors (plus 3 points for the
# program's own start and exit) of 50%
awk -v a="$wall_spin" -v b="$wall_sleep" -v n="$n" 'BEGIN {
	se = 100 * sqrt(0.25 / n); lim = 4 * se + 3
	exit !(n >= 300 && a > 50 - lim && a < 50 + lim && b > 50 - lim && b < 50 + lim) }' ||
	fail "wall profile: spin $wall_spin%, sleep $wall_sleep% of $n"
"$PCTBIN" report wall.pct | grep -q "of wall-clock time" || fail "the wall report does not say it is wall-clock time"
pass "cpu shows the spin, wall shows spin and sleep equally"
