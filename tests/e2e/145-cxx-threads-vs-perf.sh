# A multi-threaded C++ program, pct -g against perf record
# --call-graph=dwarf (issue 34, item 7): tests/progs/cxxthreads.cc, four
# std::threads each running worker -> stage_a / stage_b -> work::delta
# (1:2).  The share of stacks that reach clone3 matches perf's within 2
# points, work::delta's callers agree with perf's (chi-square), and no
# stack holds a frame of pct's own runtime, whose thread_start sat between
# start_thread and libstdc++'s thread routine (issue 34, item 3).
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/e2e/perfstacks.sh"
for t in g++ perf; do command -v $t >/dev/null || fail "$t is missing (scripts/deps.sh)"; done
g++ -O2 -g -pthread -o cxxthreads "$ROOT/tests/progs/cxxthreads.cc" || fail "g++ cxxthreads"
perf_record c.data ./cxxthreads 4 0.4 || fail "perf record"
pct_record c.pct ./cxxthreads 4 0.4 || fail "pct record"
perf_stacks c.data perf.stk || fail "perf script"
pct_stacks c.pct pct.stk || fail "pct export"
bad=0
compare_rooted pct.stk perf.stk || bad=1
compare_callers pct.stk perf.stk 2 || bad=1
# the frame under start_thread: the same on both sides, in most stacks
for side in pct perf; do
	awk -F'\t' -v us="$US" '{ n += $1; for (i = 2; i < NF; i++) { split($i, f, us); split($(i + 1), g, us)
			if (g[2] == "start_thread") { under[f[2] " (" f[1] ")"] += $1; break } } }
		END { for (k in under) if (under[k] * 2 > n) printf "%s\t%.1f\n", k, 100 * under[k] / n }' $side.stk >$side.under
	echo "$side: under start_thread in $(cut -f2 $side.under)% of the stacks: $(cut -f1 $side.under)"
done
[ -s perf.under ] && [ "$(cut -f1 pct.under)" = "$(cut -f1 perf.under)" ] || { echo "pct's frame under start_thread is not perf's"; bad=1; }
! grep -q 'libpct' pct.stk || { echo "pct's stacks hold frames of libpct"; bad=1; }
[ $bad = 0 ] || fail "the C++ program's stacks differ from perf's"
pass "cxxthreads: rooted share and work::delta's callers as perf's"
