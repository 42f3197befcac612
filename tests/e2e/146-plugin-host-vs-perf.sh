# A dlopen plug-in host, pct -g against perf record --call-graph=dwarf
# (issue 34, item 7): tests/progs/zhost.c dlopens tests/progs/zplug.c
# after pct's first sample, and the plug-in compresses with zlib, so that
# zlib takes the samples and the plug-in almost none.  At least 95% of the
# stacks whose leaf is in zlib pass through the plug-in, the share of
# stacks that reach _start matches perf's within 2 points, and the
# callers of the hottest functions agree with perf's (chi-square).
# Before: every zlib stack stopped at the plug-in as [unknown] (issue 34:
# 79 of 93 not unwound, none through the plug-in).
#
# (1) the plug-in preloaded (LD_PRELOAD), mapped from the first sample:
# what the reports make of the stacks; (2) dlopen'd late: this part needs
# the runtime to record a module loaded after the first sample (issue 34,
# item 1).
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/e2e/perfstacks.sh"
command -v perf >/dev/null || fail "perf is missing (linux-perf; scripts/deps.sh)"
cc -O2 -g -fPIC -shared -Wl,--build-id -o libzplug.so "$ROOT/tests/progs/zplug.c" -lz || fail "cc zplug.c (zlib1g-dev)"
cc -O2 -g -o zhost "$ROOT/tests/progs/zhost.c" -ldl || fail "cc zhost.c"
plug=$SCRATCH/libzplug.so
perf_record z.data ./zhost "$plug" 1 || fail "perf record"
perf_stacks z.data perf.stk || fail "perf script"
bad=0
check() {
	local name=$1 stk=$2 a b
	echo "== $name"
	a=$(stacks_through "$stk" 'libz\.' libzplug) b=$(stacks_through perf.stk 'libz\.' libzplug)
	awk -v a="$a" -v b="$b" 'BEGIN { split(a, x, " "); split(b, y, " "); ok = x[3] >= 100 && x[2] >= 0.95
		printf "  leaf in zlib through the plug-in: pct %5.1f%% of %d, perf %5.1f%% of %d  %s\n", 100 * x[2], x[3],
			100 * y[2], y[3], ok ? "ok" : "FAIL"
		exit !ok }' || bad=1
	compare_rooted "$stk" perf.stk | sed 's/^/  /'
	[ "${PIPESTATUS[0]}" = 0 ] || bad=1
	compare_callers "$stk" perf.stk 3 | sed 's/^/  /'
	[ "${PIPESTATUS[0]}" = 0 ] || bad=1
}
pct_record pre.pct env LD_PRELOAD="$plug:$LIBPCT" ./zhost "$plug" 1 || fail "pct record (preloaded)"
pct_stacks pre.pct pre.stk || fail "pct export (preloaded)"
check "plug-in preloaded" pre.stk
pre_bad=$bad
pct_record z.pct ./zhost "$plug" 1 || fail "pct record"
pct_stacks z.pct z.stk || fail "pct export"
check "plug-in dlopen'd after the first sample" z.stk
[ $pre_bad = 0 ] || fail "the plug-in host's stacks differ from perf's with the plug-in preloaded"
[ $bad = 0 ] || fail "the stacks through a plug-in dlopen'd after the first sample differ from perf's (issue 34, item 1)"
pass "plug-in host: stacks through the plug-in as perf's"
